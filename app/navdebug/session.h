// Sessions: one JSON file that reopens the debugger as it was. Keys, every one optional:
//   "mesh":    path of the OBJ (relative paths are taken from the session file's folder)
//   "config":  the object `navbake --config` reads (parameters by name, optional "volumes")
//   "volumes": convex volumes as in a config (replace the config's)
//   "path":    {"start": [x,y,z], "end": [x,y,z]}
//   "camera":  {"eye": [x,y,z], "target": [x,y,z]}
//   "layers":  ["input", "regions", ...] (names as in --draw)
// Unknown keys and malformed values are errors naming the file and the key.
#pragma once
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/build/areas.h"
#include "core/common.h"
#include "core/build/params.h"
#include "render/layers.h"

namespace navdebug {

struct Session {
    std::optional<std::string> mesh;
    bool has_config = false;  // "config" or "volumes" present: params / volumes below are set
    nav::Params params;
    std::vector<nav::ConvexVolume> volumes;
    std::optional<std::pair<glm::vec3, glm::vec3>> path;    // start, end
    std::optional<std::pair<glm::vec3, glm::vec3>> camera;  // eye, target
    std::optional<nav::render::LayerMask> layers;
};

// The config object (every parameter by name, "volumes" when there are any), as navbake --config reads it.
nlohmann::ordered_json config_json(const nav::Params& params, const std::vector<nav::ConvexVolume>& volumes);

// Parses the session text; `file` names it in errors and resolves a relative mesh path.
nav::Status parse_session(const std::string& text, const std::string& file, Session& out);
nav::Status load_session_file(const std::string& file, Session& out);
// The JSON text of a session (every present key), as save writes it.
std::string session_to_json(const Session& s);
nav::Status save_session_file(const std::string& file, const Session& s);

}  // namespace navdebug
