#!/usr/bin/env bash
# The split bake's wall time on 1, 2 and 4 array tasks (issue 20, part 5): the large generated
# level (gen_scenes --large, not committed) or a given mesh, tile_size 64, each task one thread
# (--set threads=1, as one Slurm CPU per task). Per task count: through `xargs -P K` and through a
# private single-node Slurm cluster (scripts/slurm_cluster.sh; skipped when slurm-wlm / munge are
# absent), from the first job's start to the merged file, checked byte for byte against the
# one-process file. Prints a markdown table.
# Usage: tests/bench/run_split.sh [MESH]   Env: BUILD_DIR (default <repo>/build/release), WORK
# (default $BUILD_DIR/split_bench), TILE_SIZE (default 64), WAIT (Slurm wait limit, default 600 s).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/release}"
WORK="${WORK:-$BUILD_DIR/split_bench}"
TILE_SIZE="${TILE_SIZE:-64}"
WAIT="${WAIT:-600}"
navbake="$BUILD_DIR/app/navbake"
[ -x "$navbake" ] || { echo "run_split: build navbake first ($navbake)" >&2; exit 2; }
mkdir -p "$WORK"
mesh=${1:-}
if [ -z "$mesh" ]; then
  mesh="$WORK/large.obj"
  [ -f "$mesh" ] || "$BUILD_DIR/tools/gen_scenes" --large "$mesh" >&2
fi
sets=(--set tile_size="$TILE_SIZE" --set threads=1)
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
splits=([1]=1x1 [2]=2x1 [4]=2x2)

grid=$("$navbake" "$mesh" "${sets[@]}" --tile-grid)
t0=$(now)
"$navbake" "$mesh" "${sets[@]}" --navmesh-out "$WORK/one.bin" >/dev/null 2>&1
one_s=$(secs "$t0" "$(now)")
t0=$(now)
"$navbake" "$mesh" --set tile_size="$TILE_SIZE" --navmesh-out "$WORK/one_all.bin" >/dev/null 2>&1
one_all_s=$(secs "$t0" "$(now)")

declare -A xargs_s slurm_s
for k in 1 2 4; do
  d="$WORK/xargs_$k"
  rm -rf "$d"; mkdir -p "$d"
  "$ROOT/scripts/farm_bake.sh" --navbake "$navbake" --print-rects --split "${splits[$k]}" "$mesh" "$d" -- "${sets[@]}" >"$d/rects"
  t0=$(now)
  xargs -P "$k" -I{} "$navbake" "$mesh" "${sets[@]}" --tiles {} --tile-out "$d/tiles" <"$d/rects" >/dev/null 2>&1
  "$navbake" --merge "$d/tiles" --navmesh-out "$d/navmesh.bin" >/dev/null
  xargs_s[$k]=$(secs "$t0" "$(now)")
  cmp -s "$WORK/one.bin" "$d/navmesh.bin" || { echo "run_split: xargs split $k differs from one process" >&2; exit 1; }
done

slurm_note=""
export PATH="$PATH:/usr/sbin"
if command -v slurmctld >/dev/null && command -v munged >/dev/null; then
  state=$(mktemp -d /tmp/navslurm.XXXXXX)
  trap 'timeout 60 "$ROOT/scripts/slurm_cluster.sh" stop "$state" >&2 || true; rm -rf "$state"' EXIT
  timeout 90 "$ROOT/scripts/slurm_cluster.sh" start "$state" >&2
  # shellcheck disable=SC1091
  . "$state/env"
  for k in 1 2 4; do
    d="$WORK/slurm_$k"
    rm -rf "$d"
    t0=$(now)
    "$ROOT/scripts/farm_bake.sh" --navbake "$navbake" --split "${splits[$k]}" --wait "$WAIT" \
      --sbatch-args "--cpus-per-task=1" "$mesh" "$d" -- "${sets[@]}" >&2
    slurm_s[$k]=$(secs "$t0" "$(now)")
    cmp -s "$WORK/one.bin" "$d/navmesh.bin" || { echo "run_split: Slurm split $k differs from one process" >&2; exit 1; }
  done
  slurm_note="Slurm: one node, $(nproc) CPUs, each task 1 CPU (tasks beyond the CPUs wait)"
else
  for k in 1 2 4; do slurm_s[$k]="skipped"; done
  slurm_note="Slurm: skipped (slurm-wlm / munge not installed)"
fi

echo "Split bake of $(basename "$mesh") ($(wc -l <"$mesh") lines), tile_size $TILE_SIZE, grid $grid tiles, $(nproc) cores; every merged file == the one-process file."
echo "One process: ${one_s} s with 1 thread, ${one_all_s} s with every core."
echo
echo "| array tasks | rectangles | xargs -P (s) | Slurm (s) |"
echo "|---|---|---|---|"
for k in 1 2 4; do echo "| $k | ${splits[$k]} | ${xargs_s[$k]} | ${slurm_s[$k]} |"; done
echo
echo "$slurm_note; times from the first job's start to the merged file written."
