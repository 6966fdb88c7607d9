#!/usr/bin/env bash
# Prints crowdbench's tables: our crowd (nav::Crowd, 1 and 2 threads) against DetourCrowd 1.5.1 on
# the same bake, scenario "random" with 100, 1000 and 5000 agents: ms per tick and the CrowdMeter
# figures of both (reached, overlaps, time to goal, off-mesh agent-ticks, least pair distance), on
# the three shared meshes and the large generated level (gen_scenes --large, not committed; made
# here when absent). Builds nothing: it expects a Release tree configured with -DNAV_BUILD_BENCH=ON
# holding crowdbench and gen_scenes, e.g.
#   cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DNAV_BUILD_BENCH=ON
#   cmake --build build/release --target crowdbench gen_scenes
# Usage: tests/bench/run_crowd.sh [crowdbench args...]   e.g. --agents 100,1000 --ticks 150
# Env: BUILD_DIR (default <repo>/build/release), LARGE (default $BUILD_DIR/large.obj).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/release}"
source "$ROOT/tests/bench/bench_lib.sh"  # LARGE and LEVELS (bench_build is not called: nothing is built)
BIN="$BUILD_DIR/tests/bench/crowdbench"
GEN_SCENES="$BUILD_DIR/tools/gen_scenes"
if [[ ! -x "$BIN" ]]; then
  echo "run_crowd.sh: $BIN not built (cmake --build $BUILD_DIR --target crowdbench; needs -DNAV_BUILD_BENCH=ON and librecast-dev)" >&2
  exit 2
fi
if [[ ! -f "$LARGE" ]]; then
  if [[ ! -x "$GEN_SCENES" ]]; then
    echo "run_crowd.sh: $GEN_SCENES not built, cannot generate the large level $LARGE" >&2
    exit 2
  fi
  "$GEN_SCENES" --large "$LARGE" >&2
fi
# crowdbench skips a shared mesh that is absent (../shared/meshes) with a message on stderr.
exec "$BIN" "$@" "${LEVELS[@]}"
