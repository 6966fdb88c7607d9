#!/usr/bin/env bash
# Builds agentbench and gen_scenes in Release, generates the large level (not committed) and prints
# agentbench's table (1, 3 and 6 agent types from one bake against one bake per type: time, peak
# memory, polygons; Recast's single bake beside) for the three shared meshes and the large level.
# Usage: tests/bench/run_agents.sh [agentbench args...]   e.g. --reps 3 --tile-size 64
# Env: BUILD_DIR (default <repo>/build/bench), LARGE (default $BUILD_DIR/large.obj).
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"
bench_build agentbench
exec "$BUILD_DIR/tests/bench/agentbench" "$@" "${LEVELS[@]}"
