#!/usr/bin/env bash
# Agent types under Xvfb (issue 35): the agent_types layer colours each polygon by the last type of
# the config's "agent_types" that fits it (render/islands_draw.h): on the demo level with three
# types, all three colours show, the largest type's in the open and the smaller ones' in bands
# along the walls; without a list the layer is grey. The path tool queries for the type
# --agent-type names (the Filter's "agent type"): between two points a 1.5 m radius cannot join,
# the small type's path is reached and the large type's is not, and the state dump says which
# type the path is for.
# usage: screenshots_agent_types.sh NAVDEBUG_EXE OUT_DIR SOURCE_DIR
exe=$1 out=$2 src=$3
source "$src/tests/e2e/shot_lib.sh"

# agent_type_color(0..2) and the grey of a polygon without a list (render/islands_draw.cpp)
t0=70,140,230 t1=80,200,110 t2=240,170,40 grey=128,128,128
cfg="$out/types.json"
cat > "$cfg" <<'JSON'
{ "agent_types": [ { "name": "small", "radius": 0.3, "height": 1.6 },
                   { "name": "medium", "radius": 0.6, "height": 2.0 },
                   { "name": "large", "radius": 1.5, "height": 3.0 } ] }
JSON
shot_cfg types_layer "$cfg" --draw agent_types -- --color $t0:0.004 --color $t1:0.004 --color $t2:0.02
shot no_types agent_types -- --color $grey:0.02
check_not no_types_no_type_colour no_types --color $t2:0.001

# a pair the small type joins and the large one cannot (found with navbake --agent-type)
pair=-4.70,0.2,-0.49:8.10,0.2,-16.41
for t in small large; do
  render_shot "path_$t" "$src/assets/demo.obj" --config "$cfg" --draw input,agent_types,path --path $pair \
    --agent-type $t --state-dump "$out/path_$t.json" || continue
  check_shot "path_${t}_drawn" "path_$t" --color $t2:0.02
done
check_state path_small_state path_small 's["path_agent_type"] == "small" and s["path_reached"] is True'
check_state path_large_state path_large 's["path_agent_type"] == "large" and s["path_reached"] is False'
finish
