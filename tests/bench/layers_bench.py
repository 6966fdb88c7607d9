#!/usr/bin/env python3
"""Debugger layers benchmark (issue 11, "live at scale"): for each mesh, navdebug's stress mode
(100 random slider moves through the real frame loop under Xvfb, every bake layer shown) reports
per layer the worker's build time and the UI thread's upload time of the last rebuild, UI frame
p50 / p99 while bakes and layer builds run, frames in which the UI thread built a layer itself, and
navdebug's peak RSS; navbake's peak RSS on the same mesh and config is measured with wait4. Prints
markdown tables. A benchmark, not a test: nothing is asserted.

usage: layers_bench.py NAVDEBUG NAVBAKE OUT_DIR [MESH.obj ...]
       layers_bench.py --screenshot NAVDEBUG NAVBAKE OUT_DIR MESH.obj ...
       (default meshes: the three shared meshes and dungeon tiled 3 x 3 as the large scene)

--screenshot: memory only, at the mesh's default parameters and memory limit (so the large
generated level, `gen_scenes --large OUT.obj`, bakes whole): navdebug's peak RSS for one
--screenshot with every bake layer drawn, against navbake --json on the same mesh (its own
peak_rss_mib and the peak measured with wait4). No slider moves, no MAX_MB.
"""
import json, os, subprocess, sys

MAX_MB = os.environ.get("MAX_MB", "128")  # bounds the grids random sliders may ask for (navbake refuses the same)
LAYERS = "input,voxels,filtered,compact,eroded,areas,distance,regions,raw_contours,contours,polymesh,detail,navmesh"


def tile_obj(src, dst, n):
    """dst: src repeated n x n on the xz plane, spaced by its own extent (plus a gap)."""
    verts, faces = [], []
    for line in open(src):
        p = line.split()
        if not p: continue
        if p[0] == "v": verts.append([float(x) for x in p[1:4]])
        elif p[0] == "f": faces.append([int(t.split("/")[0]) for t in p[1:]])
    xs, zs = [v[0] for v in verts], [v[2] for v in verts]
    dx, dz = max(xs) - min(xs) + 2.0, max(zs) - min(zs) + 2.0
    with open(dst, "w") as f:
        for i in range(n):
            for j in range(n):
                for v in verts: f.write(f"v {v[0] + i * dx:.4f} {v[1]:.4f} {v[2] + j * dz:.4f}\n")
        nv = len(verts)
        for k in range(n * n):
            for fc in faces: f.write("f " + " ".join(str(x + k * nv if x > 0 else x) for x in fc) + "\n")


def peak_kib(cmd):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_maxrss, p.returncode


def screenshot_memory(navdebug, navbake, out, meshes):
    rows = []
    for mesh in meshes:
        name = os.path.splitext(os.path.basename(mesh))[0]
        png = os.path.join(out, name + ".layers.png")
        with open(os.path.join(out, name + ".screenshot.log"), "w") as log:
            p = subprocess.Popen(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", navdebug, mesh, "--draw", LAYERS,
                                  "--screenshot", png], stdout=log, stderr=subprocess.STDOUT)
            # the wrapper's ru_maxrss covers the descendants it waited for: the largest is navdebug
            # (Xvfb at 1280x800 holds a few tens of MiB)
            _, status, ru = os.wait4(p.pid, 0)
        dbg_kib, dbg_code = ru.ru_maxrss, os.waitstatus_to_exitcode(status)
        res = subprocess.run([navbake, mesh, "--json"], capture_output=True, text=True)
        nb_json = "?"
        try:
            nb_json = f"{json.loads(res.stdout)['peak_rss_mib']:.0f}"
        except (ValueError, KeyError):
            pass
        nb_kib, nb_code = peak_kib([navbake, mesh])
        rows.append(f"| {name} | {dbg_kib // 1024} (exit {dbg_code}) | {nb_json} | {nb_kib // 1024} (exit {nb_code}) | "
                    f"{dbg_kib / max(nb_kib, 1):.1f}x |")
    print("| mesh | navdebug --screenshot, every layer: peak RSS MiB | navbake --json peak_rss_mib | "
          "navbake peak RSS MiB (wait4) | ratio |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--screenshot":
        if len(sys.argv) < 6:
            print(__doc__, file=sys.stderr)
            return 2
        os.makedirs(sys.argv[4], exist_ok=True)
        return screenshot_memory(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    navdebug, navbake, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    meshes = sys.argv[4:]
    if not meshes:
        shared = "/work/shared/meshes"
        meshes = [f"{shared}/{m}.obj" for m in ("dungeon", "nav_test", "undulating")]
        large = os.path.join(out, "dungeon_3x3.obj")
        tile_obj(f"{shared}/dungeon.obj", large, 3)
        meshes.append(large)
    rows, layer_rows = [], []
    for mesh in meshes:
        name = os.path.splitext(os.path.basename(mesh))[0]
        report = os.path.join(out, name + ".stress.json")
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", navdebug, mesh, "--draw", LAYERS,
               "--stress-sliders", "100", "--seed", "1", "--stress-report", report, "--max-memory", MAX_MB]
        with open(os.path.join(out, name + ".stress.log"), "w") as log:
            code = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT, timeout=int(os.environ.get("TIMEOUT_S", "600")))
        if code != 0 or not os.path.exists(report):
            rows.append(f"| {name} | navdebug exit {code} | | | | | |")
            continue
        r = json.load(open(report))
        cfg = os.path.join(out, name + ".config.json")
        json.dump(r["config"], open(cfg, "w"))
        # navbake at the starting parameters (the mesh's defaults) and at the run's final ones
        nb_start, c1 = peak_kib([navbake, mesh])
        nb_final, c2 = peak_kib([navbake, mesh, "--config", cfg, "--max-memory", MAX_MB])
        nb = max(nb_start, nb_final)
        fr = r["frames"]
        rows.append(f"| {name} | {fr['timed']} | {fr['p50_ms']:.1f} | {fr['p99_ms']:.1f} | {fr['ui_waits_on_layers']} | "
                    f"{r['rss_peak_kib'] // 1024} | {nb // 1024} (exit {c1}/{c2}) | {r['rss_peak_kib'] / max(nb, 1):.1f}x |")
        for lname, e in r["layers"].items():
            layer_rows.append(f"| {name} | {lname} | {e['build_ms']:.2f} ({e['built_on']}) | {e['upload_ms']:.2f} | "
                              f"{e['spans']} | {e['triangles']} | {e['gpu_kib']} |")
    print("| mesh | frames timed | UI frame p50 ms | p99 ms | UI layer builds | navdebug peak RSS MiB | "
          "navbake peak RSS MiB | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    print("| mesh | layer | build ms (thread) | upload ms (UI) | span instances | triangles | GPU KiB |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(layer_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
