// Sessions: one JSON file that reopens the debugger as it was. Keys, every one optional:
//   "mesh":    path of the OBJ (relative paths are taken from the session file's folder)
//   "config":  the object `navbake --config` reads (parameters by name, optional "volumes", optional
//              "areas": the area types, written when they differ from the defaults, "obstacles",
//              "links": the manual off-mesh links, "prune": the Islands tool's prune point)
//   "volumes": convex volumes as in a config (replace the config's)
//   "path":    {"start": [x,y,z], "end": [x,y,z]}
//   "camera":  {"eye": [x,y,z], "target": [x,y,z]}
//   "layers":  ["input", "regions", ...] (names as in --draw)
//   "view":    {"cull": true, "hide_ceilings": true, "clip": [ymin, ymax], "section": {"point": [x,y,z],
//               "normal": [x,y,z]}, "floor_tint": false, "floor_height": 3.0} (every key optional; floor_tint absent: on where the navmesh has several floors;
//               no "clip" / "section": off)
//   "tile":    {"select": [x, z], "only": false} (tiled bakes: the selected tile, only it drawn)
//   "why":     {"point": [x,y,z]} or {"path": {"start": [x,y,z], "end": [x,y,z]}} (the Why tool's
//              point or path, explained again on load; sessions without it load as before)
// Unknown keys and malformed values are errors naming the file and the key; numbers beyond double
// (1e400) are invalid JSON, coordinates beyond +-1e6 m (nav::kMaxCoordinate) are refused before
// the conversion to float.
#pragma once
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/bake/areas.h"
#include "core/common.h"
#include "core/pipeline/params.h"
#include "core/formats/config_json.h"
#include "render/layer_names.h"

namespace navdebug {

// Seeing inside: culling, ceilings, the height clip, the section plane and the floor tint (the
// Layers panel's "See inside" section; --cull, --hide-ceilings, --clip, --clip-floor, --section,
// --floor-tint, --floor-height).
struct ViewSettings {
    bool cull = true;           // back faces of the input layer are not drawn
    bool hide_ceilings = true;  // input faces facing down are not drawn where the eye is above them
    std::optional<std::pair<float, float>> clip;             // kept height range (min, max)
    std::optional<std::pair<glm::vec3, glm::vec3>> section;  // point, normal: the side the normal points to is cut
    bool floor_tint = false;    // every layer tinted by height band
    // Until the user sets floor tint (floor_tint_auto false), the tint is on where the navmesh has
    // several floors (ViewState::floors).
    bool floor_tint_auto = true;
    float floor_height = 3.0f;  // the bands' height, metres (0.5..100)
    bool operator==(const ViewSettings&) const = default;
};

// "Clip to this floor": the height range kept around a floor surface at height y: from a little
// below it to an agent's height and some above it, so the floor's walls show and the floor above
// (and its underside) does not.
constexpr float kFloorClipBelow = 0.3f, kFloorClipAbove = 2.3f;
inline std::pair<float, float> floor_clip(float y) { return {y - kFloorClipBelow, y + kFloorClipAbove}; }

struct Session {
    std::optional<std::string> mesh;
    bool has_config = false;  // "config" or "volumes" present: `inputs` is set
    nav::BakeInputs inputs;  // the "config" object (as navbake --config reads it), with the top-level "volumes"
    std::optional<std::pair<glm::vec3, glm::vec3>> path;    // start, end
    std::optional<std::pair<glm::vec3, glm::vec3>> camera;  // eye, target
    std::optional<nav::render::LayerMask> layers;
    std::optional<ViewSettings> view;
    std::optional<std::pair<int, int>> tile_select;  // "tile": column, row of the selected tile
    bool tile_only = false;                          // "tile": "only"
    std::optional<glm::vec3> why_point;                            // "why": "point"
    std::optional<std::pair<glm::vec3, glm::vec3>> why_path;       // "why": "path" (start, end)
};

// Parses a "view" object (sessions); `where` names it in errors.
nav::Status parse_view_json(const nlohmann::ordered_json& j, const std::string& where, ViewSettings& out);

// The config object (every parameter by name, "volumes" when there are any), as navbake --config
// reads it: the one writer in core (core/formats/params_json.h).
using nav::config_json;

// Parses the session text; `file` names it in errors and resolves a relative mesh path.
nav::Status parse_session(const std::string& text, const std::string& file, Session& out);
// Reads the file as every input reader does (nav::read_input_file: regular files or pipes, at most
// nav::kMaxConfigBytes), then parse_session. Every failure is bad input naming the file.
nav::Status load_session_file(const std::string& file, Session& out);
// The JSON text of a session (every present key), as save writes it.
std::string session_to_json(const Session& s);
nav::Status save_session_file(const std::string& file, const Session& s);

}  // namespace navdebug
