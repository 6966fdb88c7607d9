// Parsing JSON text the user gave (configs, sessions, 2D maps), one way for every reader:
// nlohmann throws parse_error for bad syntax and out_of_range for a number beyond double (1e400);
// both are bad input naming the file, never an exception that escapes to "internal error" or
// an abort.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/common.h"

namespace nav {

template <class Json>
Status parse_json_text(std::string_view text, const std::string& what, Json& out) {
    try {
        out = Json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e400
        return Status::bad_input(what + ": not valid JSON (" + std::string(e.what()) + ")");
    }
    return Status::ok();
}

}  // namespace nav
