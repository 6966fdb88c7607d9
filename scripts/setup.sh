#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs (only the missing ones). Run as root (or with
# sudo available). Every dependency of the build, the tests and the benchmarks is listed here.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  # toolchain
  g++ cmake ninja-build pkg-config python3
  # core
  nlohmann-json3-dev libcli11-dev
  # glTF export (core/formats/gltf_export.cpp, navbake --gltf-out): tinygltf, used header-only
  libtinygltf-dev
  # level formats other than OBJ (glTF/GLB, FBX, Collada, PLY, STL, 3DS): assimp, private to navkit_bake
  libassimp-dev
  # tiled bakes on every core: oneTBB
  libtbb-dev
  # the trimmed tiled bake's per-tile obstacle cache: LZ4, private to navkit_bake
  liblz4-dev
  # debugger: GLFW, glad 2 generator, Dear ImGui 1.86 (with GLFW/OpenGL3 backends), glm, stb
  libglfw3-dev python3-glad libimgui-dev libglm-dev libstb-dev libgl-dev
  # tests: doctest, Recast/Detour as the differential reference, Xvfb + Mesa for screenshots
  doctest-dev librecast-dev xvfb xauth libgl1-mesa-dri
  # 2D maps: Clipper and CGAL as test-only references (Weiler-Atherton, the CDT)
  libpolyclipping-dev libcgal-dev
  # fuzzing: clang with libFuzzer and the sanitizer runtimes (tests/fuzz, the fuzz preset), and
  # llvm for llvm-symbolizer, so a finding comes with a readable stack
  clang libclang-rt-14-dev llvm
  # the split bake's test and benchmark: a private single-node Slurm cluster (scripts/slurm_cluster.sh)
  slurm-wlm munge
  # the memory estimate's test (tests/e2e/memory_estimate.sh): peak RSS from GNU time's -v
  time
  # the debugger driven by hand in a real window under Xvfb (tests/e2e/window_input.sh)
  xdotool
  universal-ctags  # the function_length ctest: function lengths from ctags' line and end fields
)
# Not installed here: node and npm for the gltf_validator ctest (tests/check_gltf.sh installs the
# npm package gltf-validator into the build tree). This machine's nodejs 20 (with npm) comes from
# NodeSource, not Debian; the test skips with a message when node/npm or the registry are missing.

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "setup: need root to install: ${missing[*]}" >&2; exit 1
  fi
fi
# apt's own output (hundreds of lines) goes to a log, shown only when the installation fails
mkdir -p build
log="$PWD/build/setup-apt.log"
echo "setup: installing ${#missing[@]} packages (apt output in $log): ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -q && $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  echo "setup: apt-get failed; the end of $log:" >&2
  tail -n 30 "$log" >&2
  exit 1
fi
