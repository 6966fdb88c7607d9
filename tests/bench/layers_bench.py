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

       layers_bench.py --latency NAVDEBUG GEN_SCENES OUT_DIR
--latency: (a) UI frame p50 / p99 and result latency during 100 random slider moves (seed 1, every
tuning parameter but tile_size, cell_size, cell_height and threads, see TUNING; the next move once
the last one's result shows or EVERY_MS, default 1000, passed) on the three shared meshes (MAX_MB)
and the large generated level tiled (tile_size 64, LARGE_MAX_MB); (b) late-stage result latency
(--stress-late: only parameters of contours or later, LATE_MOVES moves, default 100, each given up
to 20 s so each completes) on the shared undulating mesh tiled 5 x 5 (130 k triangles,
BIG_MAX_MB), solo and tiled (tile_size 64). Latency: from the move to the first frame showing a
finished bake of exactly its parameters with its layers uploaded (navdebug --stress-report's
`latency`); results that were a failed or refused bake are counted apart (they show at once).
"""
import json, os, subprocess, sys

MAX_MB = os.environ.get("MAX_MB", "128")  # bounds the grids random sliders may ask for (navbake refuses the same)
# --latency: the large level tiled (about 2.5 GiB estimated at its defaults with every tile's
# intermediates; a larger agent_radius widens every tile's border, and at 3000 MiB most results of
# (a) were refusals) and the 130 k-triangle level (535 MiB estimated at its defaults)
LARGE_MAX_MB = os.environ.get("LARGE_MAX_MB", "8000")
BIG_MAX_MB = os.environ.get("BIG_MAX_MB", "2000")
# the latency mode's layers: on the shared meshes input, regions, contours, navmesh; on the large
# and the 130 k-triangle levels contours and navmesh only: under Xvfb (software GL) the input's
# triangles and the span layers' instances make every frame take from 0.7 to 10 s there, and tiled,
# every partial publish rebuilds the per-grid layers of all tiles done so far
LAYERS_LAT = "input,regions,contours,navmesh"
LAYERS_BIG = "contours,navmesh"
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


# what (a) moves: every tuning parameter but those of the grid, so that the bakes run: tile_size
# (uniform over 0..4096 cells, a random one is over the grid of most levels and every bake after it
# is refused until it moves again: with it, 79 of 86 results on the shared meshes were refusals),
# cell_size and cell_height (a random cell size is under 0.27 m about half the time: on the large
# level every bake after it was over the memory bound), and threads (how many tiles bake at once)
TUNING = ("agent_height,agent_radius,agent_max_climb,agent_max_slope,region_min_size,"
          "region_merge_size,partition,filter_low_hanging,filter_ledge,filter_low_height,edge_max_len,edge_max_error,"
          "verts_per_poly,detail_sample_dist,detail_sample_max_error")


def run_stress(navdebug, out, name, mesh, extra, layers, moves, every_ms, max_mb):
    """navdebug's stress report for one run (None and the log tail if it failed)."""
    report = os.path.join(out, name + ".stress.json")
    if os.path.exists(report): os.remove(report)
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", navdebug, mesh, "--draw", layers, *extra,
           "--stress-sliders", str(moves), "--seed", "1", "--stress-every-ms", str(every_ms),
           "--stress-report", report, "--max-memory", str(max_mb)]
    logpath = os.path.join(out, name + ".stress.log")
    with open(logpath, "w") as log:
        try:
            code = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT, timeout=int(os.environ.get("TIMEOUT_S", "1800")))
        except subprocess.TimeoutExpired:
            code = "timeout"
    if code != 0 or not os.path.exists(report):
        return None, f"exit {code}: " + " ".join(open(logpath).read().split()[-20:])
    return json.load(open(report)), ""


def latency_bench(navdebug, gen, out):
    shared = "/work/shared/meshes"
    every = os.environ.get("EVERY_MS", "1000")
    large = os.path.join(out, "large.obj")
    subprocess.run([gen, "--large", large], check=True, stdout=subprocess.DEVNULL)
    big = os.path.join(out, "undulating_5x5.obj")
    tile_obj(f"{shared}/undulating.obj", big, 5)
    tris = lambda path: sum(1 for line in open(path) if line.startswith("f "))
    runs = [(m, f"{shared}/{m}.obj", [], MAX_MB, LAYERS_LAT) for m in ("dungeon", "nav_test", "undulating")]
    runs.append(("large (tiled 64)", large, ["--set", "tile_size=64"], LARGE_MAX_MB, LAYERS_BIG))
    print(f"(a) 100 random moves of {TUNING}, seed 1, next move once the last result showed or {every} ms passed",
          flush=True)
    rows = []
    for name, mesh, extra, max_mb, layers in runs:
        tag = name.split()[0] + ".frames"
        r, err = run_stress(navdebug, out, tag, mesh, extra + ["--stress-params", TUNING], layers, 100, every, max_mb)
        if r is None:
            rows.append(f"| {name} | {tris(mesh)} | {layers} | {err} | | | | | | | | |")
            continue
        fr, la = r["frames"], r["latency"]
        rows.append(f"| {name} | {tris(mesh)} | {layers} | {fr['timed']} | {fr['p50_ms']:.1f} | {fr['p99_ms']:.1f} | {fr['max_ms']:.1f} | "
                    f"{fr['ui_waits_on_layers']} | {fr.get('layer_work_p99_ms', -1):.1f} / {fr.get('layer_work_over_33ms', -1)} | "
                    f"{la['count']} ({la['failed_results']} failed or refused, {la['superseded']} superseded) | "
                    f"{la['p50_ms']:.0f} | "
                    f"{la['p99_ms']:.0f} | {r['rss_peak_kib'] // 1024} |")
        print(rows[-1], flush=True)
    # "failed or refused": results that were a failed or refused bake (a random tile_size over the grid, a grid over
    # MAX_MB): shown within a frame or two, they pull the latency percentiles down
    print("| mesh | triangles | layers | frames timed | UI frame p50 ms | p99 ms | max ms | UI layer builds | "
          "UI layer work p99 ms / frames over 33 ms | results timed | latency p50 ms | p99 ms | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    late_moves = int(os.environ.get("LATE_MOVES", "100"))
    print(f"(b) late-stage moves only (--stress-late), {late_moves} moves, seed 1, each given up to 20 s; "
          f"layers {LAYERS_BIG}", flush=True)
    rows = []
    for name, extra in (("solo", []), ("tiled 64", ["--set", "tile_size=64"])):
        r, err = run_stress(navdebug, out, "undulating_5x5." + name.split()[0], big, extra + ["--stress-late"], LAYERS_BIG,
                            late_moves, 20000, BIG_MAX_MB)
        if r is None:
            rows.append(f"| undulating 5 x 5, {name} | {tris(big)} | {err} | | | | | | |")
            continue
        fr, la = r["frames"], r["latency"]
        rows.append(f"| undulating 5 x 5, {name} | {tris(big)} | {la['count']} ({la['failed_results']} failed or refused) | "
                    f"{la['superseded']} | {la['p50_ms']:.0f} | "
                    f"{la['p99_ms']:.0f} | {la['max_ms']:.0f} | {fr['p50_ms']:.1f} / {fr['p99_ms']:.1f} | "
                    f"{fr['ui_waits_on_layers']} |")
        print(rows[-1], flush=True)
    print("| level | triangles | results timed | superseded | latency p50 ms | p99 ms | max ms | UI frame p50 / p99 ms | "
          "UI layer builds |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--latency":
        if len(sys.argv) < 5:
            print(__doc__, file=sys.stderr)
            return 2
        os.makedirs(sys.argv[4], exist_ok=True)
        return latency_bench(sys.argv[2], sys.argv[3], sys.argv[4])
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
