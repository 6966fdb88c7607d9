#!/usr/bin/env bash
# Manual off-mesh links under Xvfb (BakeInputs::links, the config's "links", the link tool): the
# demo with link_drop_height / link_jump_distance (automatic links) and a manual link from the
# ground at (-10.6, 0.2, 10.6) up onto the 3 m platform at (-6, 3, 9) (walking takes 17 m round by
# the ramp one way, 9.6 m the other), the links layer on and the link tool picked: the manual
# link's lime arc and the automatic links' violet jumps both show (without the link parameters no
# violet shows), and the path from the ground to
# the platform takes the manual link, both ways when it is two-way (--state-dump: an off-mesh
# corner at the link's start, the next at its end). A one-way link is not taken against its
# direction. A config with a bad link exits 2 naming the item and field.
# usage: screenshots_links.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

python3 - "$src/assets/demo.json" "$out" <<'PY'
import json, sys
demo = json.load(open(sys.argv[1]))
base = dict(demo, link_drop_height=3, link_jump_distance=2)
link = {"start": [-10.6, 0.2, 10.6], "end": [-6, 3, 9], "radius": 0.5, "bidirectional": True, "area": "jump", "user_id": 7}
json.dump(dict(base, links=[link]), open(sys.argv[2] + "/links.json", "w"))
json.dump(dict(base, links=[dict(link, bidirectional=False)]), open(sys.argv[2] + "/links_oneway.json", "w"))
json.dump(dict(demo, links=[link]), open(sys.argv[2] + "/links_manual_only.json", "w"))  # no automatic links
json.dump(dict(base, links=[dict(link, area="lava")]), open(sys.argv[2] + "/links_bad_area.json", "w"))
json.dump(dict(base, links=[{"end": [0, 0, 0]}]), open(sys.argv[2] + "/links_no_start.json", "w"))
PY

cam="--camera -8,22,26,-8,0,6"
lime=170,240,40
violet=160,80,230

# shot_links NAME CONFIG PATH: the screenshot and its state dump
shot_links() {
  local name=$1 cfg=$2 path=$3
  rm -f "$out/$name.png" "$out/$name.state.json"
  if ! timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$exe" "$src/assets/demo.obj" --config "$cfg" \
       --draw navmesh,links,path --tool link --path "$path" $cam --state-dump "$out/$name.state.json" \
       --screenshot "$out/$name.png" --size 1280x800 > "$out/$name.log" 2>&1; then
    bad "$name: navdebug failed: $(tail -3 "$out/$name.log")"; return 1
  fi
}

# state_check NAME STATE EXPECT: the path's corners against the link (EXPECT via: it takes the
# manual link, from end to start when EXPECT is back; walk: it does not take the manual link)
state_check() {
  local name=$1 state=$2 expect=$3 nlinks=${4:-2}
  if msg=$(python3 - "$state" "$expect" "$nlinks" <<'PY'
import json, math, sys
s = json.load(open(sys.argv[1]))
expect, least = sys.argv[2], int(sys.argv[3])
links, pts, via = s["links"], s["path_points"], s["path_offmesh_corners"]
if len(links) != 1 or s["bake_links"] != 1 or s["navmesh_links"] < least or s["navmesh_links_connected"] < least:
    sys.exit(f"links {len(links)} ({s['bake_links']} in the bake), navmesh links {s['navmesh_links']} "
             f"({s['navmesh_links_connected']} connected): expected the manual link (and {least - 1} or more automatic)")
if not s["path_reached"]:
    sys.exit("the path is not reached")
near = lambda p, q: math.hypot(p[0] - q[0], p[2] - q[2]) < 0.6
l = links[0]
a, b = (l["end"], l["start"]) if expect == "back" else (l["start"], l["end"])
took = [i for i in via if i + 1 < len(pts) and near(pts[i], a) and near(pts[i + 1], b)]
if expect != "walk" and not took:
    sys.exit(f"the path does not take the manual link: corners {pts}, off-mesh at {via}")
either = [i for i in via if i + 1 < len(pts) and (near(pts[i], l["start"]) or near(pts[i], l["end"]))]
if expect == "walk" and either:
    sys.exit(f"the path takes the manual link at corners {either}, expected it to walk round")
length = sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))
print(f"{len(pts)} corners, off-mesh at {via}, length {length:.1f} m; {s['navmesh_links']} links in the navmesh, "
      f"link selected {s['link_selected']}, tool {s['tool']}")
PY
  ); then ok "$name: $msg"; else bad "$name: $msg"; fi
}

# the two-way manual link: lime arc, the automatic links' colours, the path through the link
up="-11.5,0,10.6:-5.5,3,9" down="-5.5,3,9:-11.5,0,10.6"
if shot_links links "$out/links.json" "$up"; then
  if msg=$($check "$out/links.png" --color $lime:0.0003); then ok "links_manual_colour: $msg"; else bad "links_manual_colour: $msg"; fi
  # automatic links: the demo's violet jumps (its cyan drops are lost on the navmesh's blue)
  if msg=$($check "$out/links.png" --color $violet:0.0003); then ok "links_auto_colour: $msg"; else bad "links_auto_colour: $msg"; fi
  state_check links_path_takes_link "$out/links.state.json" via
fi
# the manual link alone (no link parameters): lime, and no violet
if shot_links links_manual_only "$out/links_manual_only.json" "$up"; then
  if msg=$($check "$out/links_manual_only.png" --color $lime:0.0003 --max-color $violet:0.00002); then ok "links_no_auto: $msg"
  else bad "links_no_auto: $msg"; fi
  state_check links_manual_only_path "$out/links_manual_only.state.json" via 1
fi
# the path the other way round takes the two-way link too
if shot_links links_back "$out/links.json" "$down"; then
  state_check links_path_back "$out/links_back.state.json" back
fi
# one-way: against its direction the path walks round
if shot_links links_oneway "$out/links_oneway.json" "$down"; then
  state_check links_oneway_walks "$out/links_oneway.state.json" walk
  if msg=$($check "$out/links_oneway.png" --differs "$out/links_back.png:0.002"); then ok "links_oneway_differs: $msg"
  else bad "links_oneway_differs: $msg"; fi
fi

expect_exit2 links_bad_area "links\[0\].area: unknown area 'lava'" "$src/assets/demo.obj" --config "$out/links_bad_area.json"
expect_exit2 links_no_start "links\[0\].start: missing" "$src/assets/demo.obj" --config "$out/links_no_start.json"
finish
