// Parameters as text, in one place: the JSON config (written by a tool's --json, a viewer's
// config save and sessions; read by --config and sessions) and the `--set NAME=VALUE`
// assignments of a tool's command line. Every message names the file, key, flag
// or parameter and what was expected.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/bake/areas.h"
#include "core/bake/obstacles.h"
#include "core/pipeline/bake_inputs.h"
#include "core/pipeline/params.h"
#include "core/common.h"
#include "core/runtime/tile.h"

namespace nav {

// ---- JSON config -------------------------------------------------------------------------------

// A JSON config gives a bake its inputs (BakeInputs, core/pipeline/bake_inputs.h): the readers
// fill one; what the text leaves out keeps its value.

// Reads a JSON config from text into `in`: an object whose keys are parameter names (values
// number, bool or enum string), plus optional
//  - "areas": [{"name": "mud", "id": 7, "color": [r,g,b] or [r,g,b,a], "cost": 3, "flags": ["walk"]
//    or a number}] replaces in.areas (keys: name required; id default the lowest free, color
//    default_area_color(id), cost 1, flags ["walk"]); read first, wherever it stands, so the names below
//    resolve against it (without it, against in.areas);
//  - "volumes": [{"verts": [[x,y,z],...], "hmin", "hmax", "area": "water"|id}] replaces in.volumes;
//  - "obstacles": [{"shape": "cylinder", "pos": [x,y,z], "radius", "height"} | {"shape": "box" |
//    "rotated_box", "pos": [x,y,z] (the centre), "half": [hx,hy,hz], "yaw_deg" (rotated_box)}]
//    replaces in.obstacles;
//  - "links": [{"start": [x,y,z], "end": [x,y,z], "radius": r, "bidirectional": true, "area":
//    "jump"|id, "flags": n, "user_id": n}] replaces in.links (start and end required; radius
//    default the config's agent_radius, bidirectional true, area jump, flags 1 (walk), user_id 0);
//  - "prune": [x, y, z] sets in.prune (the island prune point: only the navmesh island nearest it
//    stays enabled: BakeInputs::prune), null clears it.
// Keys not in the text keep their value. Bad syntax, unknown keys and bad values are errors naming
// `what` (the file) and the key or item ("FILE: obstacles[2]: radius -1 must be a finite number >
// 0", "FILE: links[1].area: unknown area 'mud' (...)", "FILE: areas[2].cost: ...", "FILE: areas:
// 64 area types, at most 63"); nothing changes on an error. (config_json.h has the same on JSON
// objects, and the writer.)
Status parse_config_json(std::string_view text, const std::string& what, BakeInputs& in);
// The file is read by read_input_file (regular files or pipes, at most kMaxConfigBytes), the text
// by parse_config_json: every failure is bad input naming the file.
constexpr uint64_t kMaxConfigBytes = uint64_t(64) << 20;  // a config or session is a few kB
Status load_config_file(const std::string& path, BakeInputs& in);

// The shortest decimal that reads back as the same float (0.2f is written 0.2, not
// 0.20000000298...): how float coordinates go into JSON.
double short_decimal(float f);

// The config as JSON text (config_json, pretty-printed with `indent` spaces, -1 = one line).
std::string config_json_text(const BakeInputs& in, int indent = 2);
std::string config_json_text(const Params& params, int indent = 2);  // the parameters alone

// ---- --set NAME=VALUE ---------------------------------------------------------------------------

// Splits `text`, the value of command-line flag `flag` ("--set", "--incremental", ...), at its
// first '=' into name and value. "FLAG 'TEXT': expected NAME=VALUE" when there is no '=' or no name.
Status split_assignment(std::string_view flag, std::string_view text, std::string& name, std::string& value);
// Splits and sets one assignment (Params::set_from_string). The message starts with the flag and
// the text as given, then names the parameter and its range: "--set agent_radius=-1: parameter
// agent_radius: got -1, expected a number in [0, 20] m". `params` is unchanged on an error.
Status apply_assignment(std::string_view flag, std::string_view text, Params& params);
// Every assignment in order (later ones win); stops at the first error.
Status apply_assignments(std::string_view flag, const std::vector<std::string>& list, Params& params);

}  // namespace nav
