// The JSON config as nlohmann JSON objects, for the programs that build JSON documents around it
// (navbake's report, navdebug's sessions, config saves and stress reports). The text-level side
// (parse_config_json, load_config_file, --set) is core/bake/params_json.h; both are implemented
// in params_json.cpp, the one place parameters become JSON and back.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/bake/params_json.h"

namespace nav {

// The config object: every parameter by name in table order (numbers, booleans, enum names), and
// "volumes" when there are any ([{"verts": [[x,y,z],...], "hmin", "hmax", "area": name or id}]).
// parse_config_json / read_config_json read it back to the same parameters and volumes.
nlohmann::ordered_json config_json(const Params& params, const std::vector<ConvexVolume>& volumes = {});

// parse_config_json on an object already parsed: same rules, same messages.
Status read_config_json(const nlohmann::json& j, const std::string& what, Params& params,
                        std::vector<ConvexVolume>& volumes);

}  // namespace nav
