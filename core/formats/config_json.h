// The JSON config as nlohmann JSON objects, for the project's own programs that build JSON documents
// (a tool's report, a viewer's sessions and stress report). Kept out of the installed interface's
// includes (params_json.h has the text forms), so a program that bakes needs no JSON library.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/formats/params_json.h"

namespace nav {

// The config object (params_json.h has the form): every parameter by name in table order (numbers,
// booleans, enum names); "volumes", "obstacles" and "links" when there are any; "areas" when the
// table is not AreaTable::defaults(); volume and link areas by the table's names (ids when unnamed).
// Every link field is written. read_config_json reads it back to the same inputs.
nlohmann::ordered_json config_json(const BakeInputs& in);
nlohmann::ordered_json config_json(const Params& params);  // the parameters alone

// parse_config_json (params_json.h) on a parsed JSON value.
Status read_config_json(const nlohmann::json& j, const std::string& what, BakeInputs& in);

}  // namespace nav
