#!/usr/bin/env bash
# One bake split over a Slurm cluster (issue 20, part 5): the tile grid cut into NX x NY
# rectangles, one `navbake --tiles` per array task (sbatch --array=0..K-1, rectangle
# $SLURM_ARRAY_TASK_ID), then one `navbake --merge` job that starts when every task has succeeded
# (--dependency=afterok). The merged file is the one-process `navbake --navmesh-out` file, byte
# for byte.
#
# Usage: farm_bake.sh [options] MESH OUT_DIR [-- NAVBAKE_BAKE_ARGS...]
#   MESH           the level (OBJ, glTF, FBX, ...; every node must see it at this path: a shared file system)
#   OUT_DIR        OUT_DIR/tiles (the split directory), OUT_DIR/logs (Slurm's output),
#                  OUT_DIR/navmesh.bin (the merged MSET); every node must see it
#   NAVBAKE_BAKE_ARGS  --config FILE / --set NAME=VALUE ... (tile_size > 0 required)
# Options:
#   --split NXxNY      rectangles across x (columns) and y (rows) (default 2x2)
#   --navbake PATH     the navbake every node runs (default: navbake on PATH, else build/release/app/navbake)
#   --wait SECONDS     wait for the merge job to end (at most SECONDS), exit non-zero unless it completed
#   --sbatch-args "..." more sbatch options for both jobs (partition, time limit, --cpus-per-task ...)
#   --print-rects      print the rectangles (one X0,Y0:X1,Y1 a line, in array index order) and exit:
#                      the same list feeds xargs -P or a Kubernetes indexed Job
# Prints "array JOBID", "merge JOBID" and the rectangles. Needs sbatch (and squeue with --wait) on PATH,
# SLURM_CONF set when the cluster is not the system's (scripts/slurm_cluster.sh prints it).
set -euo pipefail

die() { echo "farm_bake: $*" >&2; exit 2; }
split=2x2 navbake="" wait_s="" extra_sbatch="" print_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --split) split=${2:?--split needs NXxNY}; shift 2 ;;
    --navbake) navbake=${2:?--navbake needs a path}; shift 2 ;;
    --wait) wait_s=${2:?--wait needs seconds}; shift 2 ;;
    --sbatch-args) extra_sbatch=${2?}; shift 2 ;;
    --print-rects) print_only=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || die "usage: farm_bake.sh [options] MESH OUT_DIR [-- NAVBAKE_BAKE_ARGS...] (see --help)"
mesh=$1 out=$2; shift 2
if [ $# -gt 0 ]; then [ "$1" = "--" ] || die "bake arguments go after --"; shift; fi
bake_args=("$@")
[[ $split =~ ^([1-9][0-9]*)x([1-9][0-9]*)$ ]] || die "--split $split: expected NXxNY, e.g. 2x2"
nx=${BASH_REMATCH[1]} ny=${BASH_REMATCH[2]}
[[ -z $wait_s || $wait_s =~ ^[1-9][0-9]*$ ]] || die "--wait $wait_s: expected a whole number of seconds"
[ -f "$mesh" ] || die "mesh $mesh: not found"
if [ -z "$navbake" ]; then
  navbake=$(command -v navbake || true)
  [ -n "$navbake" ] || navbake="$(cd "$(dirname "$0")/.." && pwd)/build/release/app/navbake"
fi
[ -x "$navbake" ] || die "navbake $navbake: not an executable (--navbake PATH)"
# the jobs run elsewhere, maybe in another directory: absolute paths
abs() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
mesh=$(abs "$mesh") navbake=$(abs "$navbake")

# The grid, from navbake itself (the mesh bounds and the parameters; nothing is baked).
read -r cols rows < <("$navbake" "$mesh" "${bake_args[@]}" --tile-grid) ||
  die "navbake --tile-grid failed (see its message above)"
[ "$nx" -le "$cols" ] && [ "$ny" -le "$rows" ] ||
  die "--split ${nx}x${ny}: the grid has only $cols x $rows tiles"
# Rectangle k = i + j * NX: columns cols*i/NX .. cols*(i+1)/NX - 1, rows likewise (every tile once).
rects=()
for ((j = 0; j < ny; j++)); do
  for ((i = 0; i < nx; i++)); do
    rects+=("$((cols * i / nx)),$((rows * j / ny)):$((cols * (i + 1) / nx - 1)),$((rows * (j + 1) / ny - 1))")
  done
done
if [ $print_only -eq 1 ]; then printf '%s\n' "${rects[@]}"; exit 0; fi

command -v sbatch >/dev/null || die "sbatch not found (a Slurm client; scripts/slurm_cluster.sh starts a local cluster)"
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
[ ! -e "$out/tiles" ] || [ -z "$(ls -A "$out/tiles")" ] ||
  die "$out/tiles is not empty: a split directory holds one bake (remove it first)"
mkdir -p "$out/tiles"

# The array job: the rectangles are in the script itself (bash array), indexed by the task id.
q() { printf '%q ' "$@"; }
array_script="#!/usr/bin/env bash
set -euo pipefail
rects=($(q "${rects[@]}"))
rect=\${rects[\$SLURM_ARRAY_TASK_ID]}
exec $(q "$navbake" "$mesh" "${bake_args[@]}") --tiles \"\$rect\" --tile-out $(q "$out/tiles")
"
merge_script="#!/usr/bin/env bash
set -euo pipefail
exec $(q "$navbake") --merge $(q "$out/tiles") --navmesh-out $(q "$out/navmesh.bin")
"
# shellcheck disable=SC2086  # extra_sbatch is split on purpose
array_id=$(sbatch --parsable $extra_sbatch --job-name=navbake-tiles --array=0-$((${#rects[@]} - 1)) \
  --output="$out/logs/tiles_%A_%a.out" <<<"$array_script") || die "sbatch of the array job failed"
array_id=${array_id%%;*}
# shellcheck disable=SC2086
merge_id=$(sbatch --parsable $extra_sbatch --job-name=navbake-merge --dependency=afterok:"$array_id" \
  --kill-on-invalid-dep=yes --output="$out/logs/merge_%j.out" <<<"$merge_script") ||
  die "sbatch of the merge job failed (array job $array_id was submitted)"
merge_id=${merge_id%%;*}
echo "grid $cols x $rows, ${#rects[@]} rectangles: ${rects[*]}"
echo "array $array_id"
echo "merge $merge_id"
echo "output $out/navmesh.bin (logs in $out/logs)"

[ -n "$wait_s" ] || exit 0
# Waits for the merge job to end (no accounting: states from squeue -t all, which keeps finished
# jobs for MinJobAge seconds), at most wait_s seconds.
end=$((SECONDS + wait_s))
state=""
while :; do
  state=$(squeue -h -t all -j "$merge_id" -o %T 2>/dev/null || true)
  case "$state" in
    COMPLETED) break ;;
    FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)
      echo "farm_bake: merge job $merge_id $state" >&2
      squeue -h -t all -j "$array_id" -o '%i %T %r' >&2 || true
      tail -n 5 "$out"/logs/*.out >&2 2>/dev/null || true
      exit 1 ;;
  esac
  if [ $SECONDS -ge $end ]; then
    echo "farm_bake: merge job $merge_id not done after ${wait_s}s (state '${state:-unknown}')" >&2
    squeue -h -t all -j "$array_id,$merge_id" -o '%i %T %r' >&2 || true
    exit 1
  fi
  sleep 0.5
done
echo "merge $merge_id COMPLETED: $out/navmesh.bin"
