// Tests written before nav::BakeInputs (once ConfigInputs) read a config into separate parameters, volumes, area
// types and obstacles: these run the one reader (parse_config_json / load_config_file /
// read_config_json on a BakeInputs) with those parts copied in and, on success, out. Without an
// area table the config's names resolve against the defaults (or the config's own "areas").
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/config_json.h"
#include "core/formats/params_json.h"

namespace navtest {

template <class Read>
nav::Status read_parts(Read&& read, nav::Params& p, std::vector<nav::ConvexVolume>& v, nav::AreaTable* areas,
                       std::vector<nav::Obstacle>* obs) {
    nav::BakeInputs in;
    in.params = p;
    in.volumes = v;
    if (areas) in.areas = *areas;
    if (obs) in.obstacles = *obs;
    const nav::Status st = read(in);
    if (!st) return st;
    p = std::move(in.params);
    v = std::move(in.volumes);
    if (areas) *areas = std::move(in.areas);
    if (obs) *obs = std::move(in.obstacles);
    return st;
}

inline nav::Status parse_config(std::string_view text, const std::string& what, nav::Params& p, std::vector<nav::ConvexVolume>& v,
                                nav::AreaTable* areas = nullptr, std::vector<nav::Obstacle>* obs = nullptr) {
    return read_parts([&](nav::BakeInputs& in) { return nav::parse_config_json(text, what, in); }, p, v, areas, obs);
}
inline nav::Status parse_config(std::string_view text, const std::string& what, nav::Params& p, std::vector<nav::ConvexVolume>& v,
                                nav::AreaTable& areas, std::vector<nav::Obstacle>* obs = nullptr) {
    return parse_config(text, what, p, v, &areas, obs);
}
inline nav::Status parse_config(std::string_view text, const std::string& what, nav::Params& p, std::vector<nav::ConvexVolume>& v,
                                std::vector<nav::Obstacle>* obs) {
    return parse_config(text, what, p, v, nullptr, obs);
}
inline nav::Status load_config(const std::string& path, nav::Params& p, std::vector<nav::ConvexVolume>& v) {
    return read_parts([&](nav::BakeInputs& in) { return nav::load_config_file(path, in); }, p, v, nullptr, nullptr);
}
inline nav::Status read_config(const nlohmann::json& j, const std::string& what, nav::Params& p, std::vector<nav::ConvexVolume>& v) {
    return read_parts([&](nav::BakeInputs& in) { return nav::read_config_json(j, what, in); }, p, v, nullptr, nullptr);
}

// The config of these parts (BakeInputs with the default area table unless given).
inline nav::BakeInputs config_of(const nav::Params& p, const std::vector<nav::ConvexVolume>& v = {}, const nav::AreaTable* areas = nullptr,
                                   const std::vector<nav::Obstacle>& obs = {}) {
    nav::BakeInputs in;
    in.params = p;
    in.volumes = v;
    if (areas) in.areas = *areas;
    in.obstacles = obs;
    return in;
}

}  // namespace navtest
