#!/usr/bin/env bash
# The layering rules, checked on the sources (a ctest, "layers"): arrows point down.
#   core/runtime, core/io   include nothing of core/bake or core/map2d (what a game links stands alone)
#   core/map2d              includes nothing of core/bake (the 2D front end links the runtime only)
#   core/bake               the stages: nothing of core/pipeline, core/explain or core/formats
#   core/explain, formats   nothing of render/ or app/; core/pipeline nothing of core/explain
#   core/, include/navkit   include no OpenGL, GLFW, glad or ImGui, and nothing of render/ or app/
#   render/                 includes no ImGui and nothing of app/
# Prints every offending line (file:line: text) and exits 1 when there is one.
set -uo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
fail=0
check() {  # check DESCRIPTION PATTERN DIR...
  local what="$1" pattern="$2"; shift 2
  local hits
  hits=$(grep -rnE --include='*.h' --include='*.hpp' --include='*.cpp' "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pattern)" "$@" 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "layers: $what:"
    echo "$hits" | sed 's/^/  /'
    fail=1
  fi
}
gl='GL/|GLFW/|glad/|imgui|backends/imgui|render/|app/'
check "core/runtime and core/io include a bake or map2d header" 'core/(bake|pipeline|explain|formats)/|core/map2d/|navkit/bake\.h|navkit/map2d\.h' core/runtime core/io
check "core/crowd includes a bake or map2d header (the crowd links the runtime only)" 'core/(bake|pipeline|explain|formats)/|core/map2d/|navkit/bake\.h|navkit/map2d\.h' core/crowd
check "core/runtime includes a crowd header" 'core/crowd/|navkit/crowd\.h' core/runtime core/io
check "core/map2d includes a bake header" 'core/(bake|pipeline|explain|formats)/|navkit/bake\.h' core/map2d
check "core/bake (the stages) includes the pipeline, explain or formats" 'core/(pipeline|explain|formats)/' core/bake
check "core/explain or core/formats include render or app" 'render/|app/' core/explain core/formats
check "core/pipeline includes an explain header (the explanation reads bakes, the pipeline knows nothing of it)" 'core/explain/' core/pipeline
check "core/pipeline/pipeline.h includes a formats header (the pipeline.cpp reads a level file; its header stays free of the JSON readers)" 'core/formats/' core/pipeline/pipeline.h
check "core or include/navkit includes OpenGL, ImGui, render or app" "$gl" core include
check "core/runtime, core/io or core/map2d include tinygltf or assimp (the glTF writer and the level reader are the bake's)" 'tiny_gltf|assimp/' core/runtime core/io core/map2d
check "render includes ImGui or app" 'imgui|backends/imgui|app/' render
check "include/navkit/runtime.h includes a bake or map2d header" 'core/(bake|pipeline|explain|formats)/|core/map2d/' include/navkit/runtime.h
# Drawing is render's business: core declares no draw layer (render/layer_names.h keys them by Stage).
layer_decl=$(grep -rnE --include='*.h' --include='*.cpp' '\bLAYER\(|enum class Layer\b|NAV_LAYER' core 2>/dev/null)
if [ -n "$layer_decl" ]; then
  echo "layers: core declares a draw layer:"
  echo "$layer_decl" | sed 's/^/  /'
  fail=1
fi
# The public headers, with everything they include: the runtime's pulls no oneTBB and no JSON, and
# no installed header needs a JSON library (the bake links oneTBB but its headers do not show it).
if command -v g++ >/dev/null 2>&1; then
  for h in runtime bake map2d crowd; do
    deps=$(g++ -std=c++20 -M -I include -I . "include/navkit/$h.h" 2>&1) || { echo "layers: include/navkit/$h.h does not compile alone:"; echo "$deps" | head -5; fail=1; continue; }
    bad=$(echo "$deps" | tr ' \\' '\n\n' | grep -E 'nlohmann|tiny_gltf|assimp/|/tbb/|oneapi|GL/|GLFW|imgui' | sort -u)
    if [ -n "$bad" ]; then
      echo "layers: include/navkit/$h.h pulls in (JSON, tinygltf, assimp, oneTBB, GL or ImGui):"
      echo "$bad" | sed 's/^/  /'
      fail=1
    fi
  done
fi
if [ "$fail" -eq 0 ]; then
  echo "layers: ok (runtime and io stand alone, map2d and crowd without the bake, core without GL or ImGui, render without ImGui, public headers without JSON or oneTBB)"
fi
exit "$fail"
