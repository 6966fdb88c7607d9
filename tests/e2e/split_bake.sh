#!/usr/bin/env bash
# A bake split over machines, end to end (issue 20, part 5): four rectangles + merge equal the
# one-process file byte for byte, through `xargs -P 2` on this machine and through a real
# single-node Slurm cluster (scripts/slurm_cluster.sh: a private munged, slurmctld and slurmd with
# their own key, ports and state; scripts/farm_bake.sh submits the job array and the dependent
# merge). The cluster is stopped whatever happens (trap). Exit 77 (ctest: skipped) with a one-line
# reason when slurm-wlm or munge is not installed or slurmd refuses to start on this machine
# (slurm_cluster.sh's exit 3); everything else is a failure.
# Usage: split_bake.sh NAVBAKE SOURCE_DIR WORKDIR
set -euo pipefail
navbake=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The level: the shared dungeon when present, else a generated one (a floor, boxes, a ramp), so a
# fresh clone without ../shared runs the same checks.
mesh="$src/../shared/meshes/dungeon.obj"
if [ ! -f "$mesh" ]; then
  mesh="$work/level.obj"
  python3 - "$mesh" <<'PY'
import sys
v, f = [], []
def quad(a, b, c, d):
    n = len(v); v.extend([a, b, c, d]); f.append((n + 1, n + 2, n + 3, n + 4))
def box(x0, y0, z0, x1, y1, z1):
    quad((x0, y1, z0), (x0, y1, z1), (x1, y1, z1), (x1, y1, z0))
    quad((x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0))
    quad((x0, y0, z1), (x0, y1, z1), (x1, y1, z1), (x1, y0, z1))
    quad((x0, y0, z0), (x0, y1, z0), (x0, y1, z1), (x0, y0, z1))
    quad((x1, y0, z0), (x1, y0, z1), (x1, y1, z1), (x1, y1, z0))
quad((0, 0, 0), (0, 0, 60), (80, 0, 60), (80, 0, 0))
for i in range(6):
    for j in range(4):
        box(5 + 12 * i, 0, 5 + 14 * j, 9 + 12 * i, 1.5 + 0.5 * ((i + j) % 3), 10 + 14 * j)
quad((60, 0, 50), (60, 3, 58), (75, 3, 58), (75, 0, 50))
with open(sys.argv[1], "w") as o:
    for p in v: o.write("v %g %g %g\n" % p)
    for q in f: o.write("f %d %d %d %d\n" % q)
PY
fi
set_args=(--set tile_size=32)
echo "split_bake: $mesh, ${set_args[*]}, grid $("$navbake" "$mesh" "${set_args[@]}" --tile-grid)"

# The reference: one process, the whole bake.
"$navbake" "$mesh" "${set_args[@]}" --navmesh-out "$work/one.bin" >/dev/null
[ -s "$work/one.bin" ] || { echo "FAIL: the one-process bake wrote no navmesh"; exit 1; }

# 1. Four rectangles through xargs -P 2, then the merge.
"$src/scripts/farm_bake.sh" --navbake "$navbake" --print-rects --split 2x2 "$mesh" "$work/xargs" -- "${set_args[@]}" \
  >"$work/rects.txt"
[ "$(wc -l <"$work/rects.txt")" -eq 4 ] || { echo "FAIL: expected 4 rectangles"; cat "$work/rects.txt"; exit 1; }
mkdir -p "$work/xargs"
xargs -P 2 -I{} "$navbake" "$mesh" "${set_args[@]}" --tiles {} --tile-out "$work/xargs/tiles" <"$work/rects.txt"
"$navbake" --merge "$work/xargs/tiles" --navmesh-out "$work/xargs/navmesh.bin"
cmp "$work/one.bin" "$work/xargs/navmesh.bin" || { echo "FAIL: xargs -P split + merge differs from the one-process file"; exit 1; }
echo "split_bake: xargs -P 2, 4 rectangles + merge == one process ($(stat -c %s "$work/one.bin") bytes)"

# 2. The same through a real Slurm cluster on this machine.
export PATH="$PATH:/usr/sbin"
for exe in munged slurmctld slurmd sbatch squeue; do
  if ! command -v "$exe" >/dev/null 2>&1; then
    echo "split_bake: skipped the Slurm half: $exe not installed (slurm-wlm and munge; scripts/setup.sh)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "split_bake: skipped the Slurm half: the single-node cluster runs its daemons as root (scripts/test.sh runs as root)"
  exit 77
fi
# a short, unique state directory: the munge socket's path must fit a Unix socket name (108 bytes)
state=$(mktemp -d /tmp/navslurm.XXXXXX)
cleanup() {
  timeout 60 "$src/scripts/slurm_cluster.sh" stop "$state" || echo "split_bake: stopping the cluster failed" >&2
  rm -rf "$state"
}
trap cleanup EXIT
rc=0
timeout 90 "$src/scripts/slurm_cluster.sh" start "$state" 2>&1 | tee "$work/cluster.txt" || rc=$?
if [ "$rc" -eq 3 ]; then
  echo "split_bake: skipped the Slurm half: $(sed -n 's/^slurm_cluster: //p' "$work/cluster.txt" | grep 'cannot start' | head -1)"
  exit 77
fi
[ "$rc" -eq 0 ] || { echo "FAIL: the Slurm cluster did not start (exit $rc)"; exit 1; }
# shellcheck disable=SC1091
. "$state/env"
timeout 200 "$src/scripts/farm_bake.sh" --navbake "$navbake" --split 2x2 --wait 180 "$mesh" "$work/slurm" -- "${set_args[@]}" \
  | tee "$work/farm.txt"
array=$(awk '/^array /{print $2}' "$work/farm.txt")
states=$(squeue -h -t all -j "$array" -o %T | sort | uniq -c | tr -s ' ')
echo "split_bake: array job $array tasks: $states"
[ "$(squeue -h -t all -j "$array" -o %T | grep -c '^COMPLETED$')" -eq 4 ] ||
  { echo "FAIL: not every array task COMPLETED"; exit 1; }
cmp "$work/one.bin" "$work/slurm/navmesh.bin" || { echo "FAIL: Slurm split + merge differs from the one-process file"; exit 1; }
echo "split_bake: Slurm job array, 4 rectangles + dependent merge == one process"
