#include "session.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/formats/config_json.h"
#include "core/bake/input.h"
#include "core/io/file.h"
#include "core/io/json_text.h"
#include "core/pipeline/pipeline.h"

namespace navdebug {

namespace {

using Json = nlohmann::ordered_json;

nav::Status read_vec3(const Json& j, const std::string& where, glm::vec3& out) {
    if (!j.is_array() || j.size() != 3)
        return nav::Status::bad_input(where + ": expected [x, y, z] (three numbers)");
    for (size_t i = 0; i < 3; ++i) {
        if (!j[i].is_number()) return nav::Status::bad_input(where + ": expected [x, y, z] (three numbers)");
        const double v = j[i].get<double>();
        if (!(std::fabs(v) <= nav::kMaxCoordinate))  // checked before the float conversion
            return nav::Status::bad_input(where + ": coordinates must be finite and within +-1e6 m");
        out[static_cast<glm::length_t>(i)] = static_cast<float>(v);
    }
    return nav::Status::ok();
}

nav::Status read_pair(const Json& j, const std::string& where, const char* a, const char* b,
                      std::pair<glm::vec3, glm::vec3>& out) {
    if (!j.is_object()) return nav::Status::bad_input(where + ": expected {\"" + a + "\": [x,y,z], \"" + b + "\": [x,y,z]}");
    for (const auto& [k, v] : j.items()) {
        (void)v;
        if (k != a && k != b)
            return nav::Status::bad_input(where + ": unknown key \"" + k + "\" (known: " + a + ", " + b + ")");
    }
    if (!j.contains(a) || !j.contains(b))
        return nav::Status::bad_input(where + ": needs both \"" + a + "\" and \"" + b + "\"");
    nav::Status st = read_vec3(j[a], where + "." + a, out.first);
    if (!st) return st;
    return read_vec3(j[b], where + "." + b, out.second);
}

using nav::short_decimal;

Json vec3_json(const glm::vec3& v) { return Json::array({short_decimal(v.x), short_decimal(v.y), short_decimal(v.z)}); }

}  // namespace

nav::Status parse_view_json(const Json& j, const std::string& where, ViewSettings& out) {
    if (!j.is_object()) return nav::Status::bad_input(where + ": expected an object");
    ViewSettings v;
    for (const auto& [k, e] : j.items()) {
        const std::string at = where + "." + k;
        if (k == "cull" || k == "hide_ceilings" || k == "floor_tint") {
            if (!e.is_boolean()) return nav::Status::bad_input(at + ": expected true or false");
            (k == "cull" ? v.cull : k == "hide_ceilings" ? v.hide_ceilings : v.floor_tint) = e.get<bool>();
            if (k == "floor_tint") v.floor_tint_auto = false;  // set: the user's choice
        } else if (k == "floor_height") {
            if (!e.is_number() || !(e.get<double>() >= 0.5 && e.get<double>() <= 100.0))
                return nav::Status::bad_input(at + ": expected metres between 0.5 and 100");
            v.floor_height = e.get<float>();
        } else if (k == "clip") {
            if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number() ||
                !(std::fabs(e[0].get<double>()) <= nav::kMaxCoordinate) ||
                !(std::fabs(e[1].get<double>()) <= nav::kMaxCoordinate) || e[0].get<double>() > e[1].get<double>())
                return nav::Status::bad_input(at + ": expected [ymin, ymax] with ymin <= ymax, within +-1e6 m");
            v.clip = std::make_pair(e[0].get<float>(), e[1].get<float>());
        } else if (k == "section") {
            std::pair<glm::vec3, glm::vec3> pn;
            const nav::Status st = read_pair(e, at, "point", "normal", pn);
            if (!st) return st;
            if (glm::length(pn.second) < 1e-6f) return nav::Status::bad_input(at + ".normal: must not be zero");
            v.section = pn;
        } else {
            return nav::Status::bad_input(at + ": unknown key (known: cull, hide_ceilings, clip, section, floor_tint, "
                                               "floor_height)");
        }
    }
    out = v;
    return nav::Status::ok();
}

nav::Status parse_session(const std::string& text, const std::string& file, Session& out) {
    Json j;
    if (nav::Status st = nav::parse_json_text(text, file, j); !st) return st;
    if (!j.is_object()) return nav::Status::bad_input(file + ": a session must be a JSON object");
    Session s;
    for (const auto& [key, v] : j.items()) {
        const std::string where = file + ": \"" + key + "\"";
        if (key == "mesh") {
            if (!v.is_string() || v.get<std::string>().empty())
                return nav::Status::bad_input(where + ": expected the OBJ path as a string");
            std::filesystem::path p(v.get<std::string>());
            if (p.is_relative()) {
                const std::filesystem::path dir = std::filesystem::path(file).parent_path();
                if (!dir.empty()) p = dir / p;
            }
            s.mesh = p.lexically_normal().string();
        } else if (key == "config") {
            if (!v.is_object()) return nav::Status::bad_input(where + ": expected an object (as navbake --config reads)");
            const nav::Status st = nav::read_config_json(nlohmann::json(v), file + ": config", s.inputs);
            if (!st) return st;
            s.has_config = true;
        } else if (key == "layers") {
            if (!v.is_array()) return nav::Status::bad_input(where + ": expected an array of layer names");
            std::string list;
            for (const Json& e : v) {
                if (!e.is_string()) return nav::Status::bad_input(where + ": expected layer names (strings)");
                if (!list.empty()) list += ",";
                list += e.get<std::string>();
            }
            nav::render::LayerMask m{};
            std::string err;
            if (!list.empty() && !nav::render::parse_layer_list(list, m, err))
                return nav::Status::bad_input(where + ": " + err);
            s.layers = m;
        } else if (key == "path") {
            std::pair<glm::vec3, glm::vec3> p;
            const nav::Status st = read_pair(v, file + ": path", "start", "end", p);
            if (!st) return st;
            s.path = p;
        } else if (key == "camera") {
            std::pair<glm::vec3, glm::vec3> c;
            const nav::Status st = read_pair(v, file + ": camera", "eye", "target", c);
            if (!st) return st;
            if (glm::length(c.second - c.first) < 1e-6f)
                return nav::Status::bad_input(file + ": camera: eye and target are the same point");
            s.camera = c;
        } else if (key == "view") {
            ViewSettings vs;
            const nav::Status st = parse_view_json(v, file + ": view", vs);
            if (!st) return st;
            s.view = vs;
        } else if (key == "tile") {
            const std::string where = file + ": tile";
            if (!v.is_object()) return nav::Status::bad_input(where + ": expected {\"select\": [x, z], \"only\": bool}");
            for (auto t = v.begin(); t != v.end(); ++t) {
                const Json& tv = t.value();
                if (t.key() == "select") {
                    if (!tv.is_array() || tv.size() != 2 || !tv[0].is_number_unsigned() || !tv[1].is_number_unsigned() ||
                        tv[0].get<uint64_t>() > 65535 || tv[1].get<uint64_t>() > 65535)
                        return nav::Status::bad_input(where + ".select: expected [column, row] (whole numbers from 0)");
                    s.tile_select = std::make_pair(tv[0].get<int>(), tv[1].get<int>());
                } else if (t.key() == "only") {
                    if (!tv.is_boolean()) return nav::Status::bad_input(where + ".only: expected true or false");
                    s.tile_only = tv.get<bool>();
                } else {
                    return nav::Status::bad_input(where + ": unknown key \"" + t.key() + "\" (known: select, only)");
                }
            }
        } else if (key == "why") {
            const std::string where = file + ": why";
            if (!v.is_object() || v.size() != 1 || !(v.contains("point") || v.contains("path")))
                return nav::Status::bad_input(where + ": expected {\"point\": [x,y,z]} or {\"path\": {\"start\": [x,y,z], "
                                                      "\"end\": [x,y,z]}}");
            if (v.contains("point")) {
                glm::vec3 p;
                if (nav::Status st = read_vec3(v["point"], where + ".point", p); !st) return st;
                s.why_point = p;
            } else {
                std::pair<glm::vec3, glm::vec3> p;
                if (nav::Status st = read_pair(v["path"], where + ".path", "start", "end", p); !st) return st;
                s.why_path = p;
            }
        } else if (key != "volumes") {
            return nav::Status::bad_input(file + ": unknown key \"" + key +
                                          "\" (known: mesh, config, volumes, path, camera, layers, view, tile, why)");
        }
    }
    // top-level volumes replace the config's
    if (j.contains("volumes")) {
        nlohmann::json wrap = nlohmann::json::object();
        wrap["volumes"] = nlohmann::json(j["volumes"]);
        nav::BakeInputs in;
        in.params = s.inputs.params;
        in.areas = s.inputs.areas;  // names resolve against the config's area types
        const nav::Status st = nav::read_config_json(wrap, file, in);
        if (!st) return st;
        s.inputs.volumes = std::move(in.volumes);
        s.has_config = true;
    }
    out = std::move(s);
    return nav::Status::ok();
}

nav::Status load_session_file(const std::string& file, Session& out) {
    std::string text;
    if (nav::Status st = nav::read_input_file(file, "navdebug session (JSON)", nav::kMaxConfigBytes, text); !st)
        return st;
    return parse_session(text, file, out);
}

std::string session_to_json(const Session& s) {
    Json j = Json::object();
    if (s.mesh) j["mesh"] = *s.mesh;
    if (s.has_config) {
        nav::BakeInputs in = s.inputs;
        in.volumes.clear();  // written as the top-level "volumes"
        j["config"] = config_json(in);
        nav::BakeInputs vin;
        vin.params = s.inputs.params;
        vin.volumes = s.inputs.volumes;
        vin.areas = s.inputs.areas;
        Json vols = config_json(vin);
        j["volumes"] = vols.contains("volumes") ? vols["volumes"] : Json::array();
    }
    if (s.path) j["path"] = Json{{"start", vec3_json(s.path->first)}, {"end", vec3_json(s.path->second)}};
    if (s.camera) j["camera"] = Json{{"eye", vec3_json(s.camera->first)}, {"target", vec3_json(s.camera->second)}};
    if (s.layers) {
        Json l = Json::array();
        for (int i = 0; i < nav::render::kLayerCount; ++i)
            if ((*s.layers)[static_cast<size_t>(i)]) l.push_back(std::string(nav::render::kLayerNames[static_cast<size_t>(i)]));
        j["layers"] = l;
    }
    if (s.view) {
        const ViewSettings& v = *s.view;
        Json jv = Json::object();
        jv["cull"] = v.cull;
        jv["hide_ceilings"] = v.hide_ceilings;
        if (v.clip) jv["clip"] = Json::array({short_decimal(v.clip->first), short_decimal(v.clip->second)});
        if (v.section) jv["section"] = Json{{"point", vec3_json(v.section->first)}, {"normal", vec3_json(v.section->second)}};
        if (!v.floor_tint_auto) jv["floor_tint"] = v.floor_tint;  // absent: on where there are several floors
        jv["floor_height"] = short_decimal(v.floor_height);
        j["view"] = jv;
    }
    if (s.tile_select)
        j["tile"] = Json{{"select", Json::array({s.tile_select->first, s.tile_select->second})}, {"only", s.tile_only}};
    if (s.why_point) j["why"] = Json{{"point", vec3_json(*s.why_point)}};
    else if (s.why_path)
        j["why"] = Json{{"path", Json{{"start", vec3_json(s.why_path->first)}, {"end", vec3_json(s.why_path->second)}}}};
    return j.dump(2) + "\n";
}

// Through nav::OutputFile: a failed save (a full disk) keeps the old session whole.
nav::Status save_session_file(const std::string& file, const Session& s) {
    if (nav::Status st = nav::write_output_file(file, session_to_json(s)); !st)
        return nav::Status::bad_input("cannot write the session file " + st.message);
    return nav::Status::ok();
}

}  // namespace navdebug
