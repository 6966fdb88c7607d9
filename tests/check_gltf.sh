#!/usr/bin/env bash
# The Khronos glTF validator on files navbake --gltf-out writes (solo .glb with a path, tiled
# .gltf): zero errors. The validator is the npm package gltf-validator, installed once into
# BUILD_DIR/npm. Skips (exit 77, ctest's SKIP_RETURN_CODE) with a message only when node/npm are
# absent or the npm registry cannot be reached.
#   check_gltf.sh NAVBAKE SOURCE_DIR BUILD_DIR
set -euo pipefail
navbake=$1 src=$2 build=$3
prefix=$build/npm
module=$prefix/node_modules/gltf-validator
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "check_gltf: skipped: node and npm are needed for the glTF validator (npm package gltf-validator)"
  exit 77
fi
if [ ! -f "$module/package.json" ]; then
  if ! timeout 300 npm install --prefix "$prefix" --no-audit --no-fund gltf-validator >"$build/npm-install.log" 2>&1; then
    echo "check_gltf: skipped: npm install gltf-validator failed (offline?); see $build/npm-install.log"
    tail -5 "$build/npm-install.log" || true
    exit 77
  fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$navbake" "$src/assets/demo.obj" --paths 5 --gltf-out "$tmp/solo.glb" >/dev/null
"$navbake" "$src/assets/demo.obj" --set tile_size=48 --gltf-out "$tmp/tiled.gltf" >/dev/null
node "$src/tests/gltf_validate.js" "$module" "$tmp/solo.glb" "$tmp/tiled.gltf"
