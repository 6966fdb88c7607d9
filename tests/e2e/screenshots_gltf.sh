#!/usr/bin/env bash
# navdebug's Export glTF (navdebug --export-gltf after a screenshot, the Files panel's button's code):
# the VISIBLE layers become the nodes, in order (input, regions, contours, polymesh, detail, path),
# the path node only while the path layer is on with a path; a tiled bake exports too; nothing
# visible that the file can hold is refused (exit 1, the reason in the log).
# usage: screenshots_gltf.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

nodes() {  # a .glb's node names, comma-separated (its JSON chunk, read with python)
  python3 - "$1" <<'PY'
import json, struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:4] == b"glTF", "not a GLB file"
n = struct.unpack_from("<I", b, 12)[0]
j = json.loads(b[20:20 + n])
print(",".join(j["nodes"][i]["name"] for i in j["scenes"][0]["nodes"]))
PY
}
export_case() {  # name, expected node names, navdebug arguments...
  local name=$1 want=$2; shift 2
  rm -f "$out/$name.glb"
  if ! timeout 120 xvfb-run -a -s "-screen 0 640x480x24" "$exe" "$src/assets/demo.obj" --config "$src/assets/demo.json" "$@" \
       --screenshot "$out/$name.png" --size 640x480 --export-gltf "$out/$name.glb" > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return
  fi
  local got
  got=$(nodes "$out/$name.glb" 2>&1)
  if [ "$got" = "$want" ]; then ok "$name: nodes $got"; else bad "$name: nodes '$got', expected '$want'"; fi
}

export_case visible "regions,polymesh,path" --draw regions,polymesh,path --path 0,0.2,0:10.2,0.2,-12
# the path layer on without a path (--path turns the layer on itself): no path node
export_case no_path "input,contours,detail" --draw input,contours,detail,path
export_case raw_contours "raw_contours" --draw raw_contours
export_case tiled "regions,polymesh,detail" --draw regions,polymesh,detail --set tile_size=48
# nothing exportable visible: exit 1, the reason logged, no file
rm -f "$out/none.glb"
timeout 120 xvfb-run -a -s "-screen 0 640x480x24" "$exe" "$src/assets/demo.obj" --draw voxels \
  --screenshot "$out/none.png" --size 640x480 --export-gltf "$out/none.glb" > "$out/none.log" 2>&1
code=$?
if [ $code -eq 1 ] && grep -q "nothing to write" "$out/none.log" && [ ! -e "$out/none.glb" ]; then ok "none: exit 1, nothing to write"
else bad "none: exit $code, expected 1 with 'nothing to write' and no file: $(tail -2 "$out/none.log")"; fi
finish
