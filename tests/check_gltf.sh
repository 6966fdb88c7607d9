#!/usr/bin/env bash
# The Khronos glTF validator on files navbake --gltf-out writes (solo .glb with a path, tiled
# .gltf): zero errors, zero warnings. The validator is the npm package gltf-validator at a pinned
# version, installed once into BUILD_DIR/npm. Skips (exit 77, ctest's SKIP_RETURN_CODE) with a
# message only when node/npm are absent or the npm registry cannot be reached; any other install
# failure fails the test.
#   check_gltf.sh NAVBAKE SOURCE_DIR BUILD_DIR
set -euo pipefail
navbake=$1 src=$2 build=$3
prefix=$build/npm
module=$prefix/node_modules/gltf-validator
version=2.0.0-dev.3.10  # pinned: a new validator release must not turn the test red or green by itself
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "check_gltf: skipped: node and npm are needed for the glTF validator (npm package gltf-validator)"
  exit 77
fi
installed() { node -e "require(process.argv[1])" "$module" >/dev/null 2>&1 &&
  grep -q "\"version\": \"$version\"" "$module/package.json"; }
if ! installed; then
  rm -rf "$prefix"  # a half-done earlier install (killed by the timeout) must not stick
  if ! timeout 300 npm install --prefix "$prefix" --no-audit --no-fund "gltf-validator@$version" >"$build/npm-install.log" 2>&1; then
    tail -5 "$build/npm-install.log" || true
    if grep -Eq 'ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNREFUSED|ECONNRESET|ENETUNREACH|network' "$build/npm-install.log"; then
      echo "check_gltf: skipped: the npm registry cannot be reached (gltf-validator not installed); see $build/npm-install.log"
      exit 77
    fi
    echo "check_gltf: npm install gltf-validator@$version failed (not a network error); see $build/npm-install.log"
    exit 1
  fi
  installed || { echo "check_gltf: gltf-validator@$version installed but cannot be loaded"; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$navbake" "$src/assets/demo.obj" --paths 5 --gltf-out "$tmp/solo.glb" >/dev/null
"$navbake" "$src/assets/demo.obj" --set tile_size=48 --gltf-out "$tmp/tiled.gltf" >/dev/null
node "$src/tests/gltf_validate.js" "$module" "$tmp/solo.glb" "$tmp/tiled.gltf"
