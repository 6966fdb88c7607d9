// The JSON config as nlohmann JSON objects, for the project's own programs that build JSON documents
// (navbake's report, navdebug's sessions and stress report). Kept out of the installed interface's
// includes (params_json.h has the text forms), so a program that bakes needs no JSON library.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/bake/params_json.h"

namespace nav {

// The config object: every parameter by name in table order (numbers, booleans, enum names), and
// "volumes" when there are any ([{"verts": [[x,y,z],...], "hmin", "hmax", "area": name or id}]).
// parse_config_json reads it back to the same parameters and volumes.
// "obstacles" when there are any (the form parse_config_json documents). With `areas` (not null
// and not AreaTable::defaults()), also "areas" (params_json.h has the form), and the volumes' area
// names are the table's.
nlohmann::ordered_json config_json(const Params& params, const std::vector<ConvexVolume>& volumes = {},
                                   const AreaTable* areas = nullptr, const std::vector<Obstacle>& obstacles = {});

// Reads a JSON config: an object whose keys are parameter names (values number, bool or enum
// string), plus optional "volumes": [{"verts": [[x,y,z],...], "hmin", "hmax", "area": "water"|id}].
// Keys not in the text keep their value in params; "volumes" replaces volumes. Unknown keys and
// bad values are errors naming `what` (the file) and the key; nothing changes on an error.
Status read_config_json(const nlohmann::json& j, const std::string& what, Params& params,
                        std::vector<ConvexVolume>& volumes, std::vector<Obstacle>* obstacles = nullptr);
// With the config's "areas" (params_json.h: parse_config_json).
Status read_config_json(const nlohmann::json& j, const std::string& what, Params& params,
                        std::vector<ConvexVolume>& volumes, AreaTable& areas, std::vector<Obstacle>* obstacles = nullptr);

}  // namespace nav
