#include "core/formats/params_json.h"
#include "core/formats/config_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <limits>
#include <sstream>

#include "core/bake/input.h"
#include "core/bake/palette.h"
#include "core/io/json_text.h"

namespace nav {

namespace {

nlohmann::ordered_json volume_json(const ConvexVolume& v, const AreaTable& areas) {
    nlohmann::ordered_json jv;
    nlohmann::ordered_json verts = nlohmann::ordered_json::array();
    for (size_t i = 0; i + 2 < v.verts.size(); i += 3)
        verts.push_back({short_decimal(v.verts[i]), short_decimal(v.verts[i + 1]), short_decimal(v.verts[i + 2])});
    jv["verts"] = verts;
    jv["hmin"] = short_decimal(v.hmin);
    jv["hmax"] = short_decimal(v.hmax);
    const std::string_view name = areas.name_of(v.area);
    if (name.empty()) jv["area"] = v.area;
    else jv["area"] = std::string(name);
    return jv;
}

// One element of "volumes"; `where` is "FILE: volumes[i]".
Status read_volume(const nlohmann::json& o, const std::string& where, const AreaTable& areas, ConvexVolume& cv) {
    if (!o.is_object() || !o.contains("verts") || !o["verts"].is_array())
        return Status::bad_input(where + ": expected {\"verts\": [[x,y,z],...], \"hmin\", \"hmax\", \"area\"}");
    for (const auto& pt : o["verts"]) {
        if (!pt.is_array() || pt.size() != 3 || !pt[0].is_number() || !pt[1].is_number() || !pt[2].is_number())
            return Status::bad_input(where + ": each vertex must be [x, y, z] numbers");
        for (int k = 0; k < 3; ++k) {
            const double x = pt[static_cast<size_t>(k)].get<double>();
            if (!(std::fabs(x) <= kMaxCoordinate))  // checked before the float conversion
                return Status::bad_input(where + ": coordinate " + std::to_string(x) + " is beyond +-1e6 m");
            cv.verts.push_back(static_cast<float>(x));
        }
    }
    float ylo = 1e30f, yhi = -1e30f;
    for (size_t k = 1; k < cv.verts.size(); k += 3) {
        ylo = std::min(ylo, cv.verts[k]);
        yhi = std::max(yhi, cv.verts[k]);
    }
    cv.hmin = ylo;
    cv.hmax = yhi;
    for (const char* key : {"hmin", "hmax"}) {
        if (!o.contains(key)) continue;
        if (!o[key].is_number()) return Status::bad_input(where + ": \"" + key + "\" must be a number");
        const double h = o[key].get<double>();
        if (!(std::fabs(h) <= kMaxCoordinate)) return Status::bad_input(where + ": \"" + key + "\" is beyond +-1e6 m");
        (std::string(key) == "hmin" ? cv.hmin : cv.hmax) = static_cast<float>(h);
    }
    if (o.contains("area")) {
        const auto& a = o["area"];
        if (a.is_string()) {
            if (!areas.id_of(a.get<std::string>(), cv.area))
                return Status::bad_input(where + ".area: unknown area '" + a.get<std::string>() + "' (expected " +
                                         areas.names() + ", not_walkable or an id in 0..63)");
        } else if (a.is_number_integer() && a.get<double>() >= 0 && a.get<double>() <= 63) {
            cv.area = static_cast<uint8_t>(a.get<double>());
        } else {
            return Status::bad_input(where + ": \"area\" must be a name or an id in 0..63");
        }
    }
    for (auto k = o.begin(); k != o.end(); ++k)
        if (k.key() != "verts" && k.key() != "hmin" && k.key() != "hmax" && k.key() != "area")
            return Status::bad_input(where + ": unknown key \"" + k.key() + "\"");
    return validate_volume(cv, where);
}

nlohmann::ordered_json areas_json(const AreaTable& areas) {
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const AreaType& a : areas.types) {
        nlohmann::ordered_json o;
        o["name"] = a.name;
        o["id"] = a.id;
        const uint32_t c = a.color;
        nlohmann::ordered_json col = {c & 255u, (c >> 8) & 255u, (c >> 16) & 255u};
        if ((c >> 24) != 255u) col.push_back(c >> 24);
        o["color"] = col;
        o["cost"] = short_decimal(a.cost);
        nlohmann::ordered_json fl = nlohmann::ordered_json::array();
        uint16_t rest = a.flags;
        for (const PolyFlagName& f : poly_flag_names())
            if (a.flags & f.bit) {
                fl.push_back(std::string(f.name));
                rest = static_cast<uint16_t>(rest & ~f.bit);
            }
        if (rest) o["flags"] = a.flags;  // bits without names: the number
        else o["flags"] = fl;
        arr.push_back(std::move(o));
    }
    return arr;
}

// "areas": [{"name", "id", "color": [r,g,b(,a)], "cost", "flags": ["walk",...] or a number}];
// `what` is "FILE: areas". id defaults to the lowest free one, color to default_area_color(id), cost to 1,
// flags to ["walk"].
Status read_areas(const nlohmann::json& v, const std::string& what, AreaTable& out) {
    if (!v.is_array()) return Status::bad_input(what + ": must be an array of {\"name\", \"id\", \"color\", \"cost\", \"flags\"}");
    if (v.size() > static_cast<size_t>(kMaxAreas - 1))
        return Status::bad_input(what + ": " + std::to_string(v.size()) + " area types, at most " +
                                 std::to_string(kMaxAreas - 1) + " (ids 1..63)");
    AreaTable t;
    // Ids first (given ones), so that an entry without one takes an id no later entry names.
    std::vector<int> ids(v.size(), -1);
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string item = what + "[" + std::to_string(i) + "]";
        const nlohmann::json& o = v[i];
        if (!o.is_object()) return Status::bad_input(item + ": expected an object {\"name\", \"id\", \"color\", \"cost\", \"flags\"}");
        if (o.contains("id")) {
            const auto& id = o["id"];
            if (!id.is_number_integer() || id.get<double>() < 1 || id.get<double>() > 63)
                return Status::bad_input(item + ".id: must be an integer in 1..63");
            ids[i] = static_cast<int>(id.get<double>());
        }
    }
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string item = what + "[" + std::to_string(i) + "]";
        const nlohmann::json& o = v[i];
        AreaType a;
        for (auto k = o.begin(); k != o.end(); ++k)
            if (k.key() != "name" && k.key() != "id" && k.key() != "color" && k.key() != "cost" && k.key() != "flags")
                return Status::bad_input(item + ": unknown key \"" + k.key() + "\" (known: name, id, color, cost, flags)");
        if (!o.contains("name") || !o["name"].is_string()) return Status::bad_input(item + ".name: missing (a string)");
        a.name = o["name"].get<std::string>();
        if (ids[i] < 0) {
            // a default's name takes the default's id when no entry has it ("ground" 63, ...)
            static const AreaTable kDefaults = AreaTable::defaults();
            int id = 0;
            if (const AreaType* d = kDefaults.find(std::string_view(a.name));
                d && std::find(ids.begin(), ids.end(), int(d->id)) == ids.end())
                id = d->id;
            for (int c = 1; c < kMaxAreas && !id; ++c)
                if (std::find(ids.begin(), ids.end(), c) == ids.end()) id = c;
            if (!id) return Status::bad_input(item + ".id: area '" + a.name + "': no free id in 1..63");
            ids[i] = id;
        }
        a.id = static_cast<uint8_t>(ids[i]);
        a.color = default_area_color(a.id);
        if (o.contains("color")) {
            const auto& c = o["color"];
            if (!c.is_array() || (c.size() != 3 && c.size() != 4))
                return Status::bad_input(item + ".color: area '" + a.name + "': expected [r, g, b] or [r, g, b, a], integers 0..255");
            uint32_t rgba[4] = {0, 0, 0, 255};
            for (size_t k = 0; k < c.size(); ++k) {
                if (!c[k].is_number_integer() || c[k].get<double>() < 0 || c[k].get<double>() > 255)
                    return Status::bad_input(item + ".color: area '" + a.name + "': expected [r, g, b] or [r, g, b, a], integers 0..255");
                rgba[k] = static_cast<uint32_t>(c[k].get<double>());
            }
            a.color = palette_rgba(static_cast<int>(rgba[0]), static_cast<int>(rgba[1]), static_cast<int>(rgba[2]),
                                   static_cast<int>(rgba[3]));
        }
        if (o.contains("cost")) {
            if (!o["cost"].is_number()) return Status::bad_input(item + ".cost: area '" + a.name + "': must be a number");
            const double c = o["cost"].get<double>();
            if (!(c >= 0 && c <= 1e9))
                return Status::bad_input(item + ".cost: area '" + a.name + "': got " + std::to_string(c) + ", expected a finite number >= 0");
            a.cost = static_cast<float>(c);
        }
        if (o.contains("flags")) {
            const auto& f = o["flags"];
            if (f.is_number_integer() && f.get<double>() >= 0 && f.get<double>() <= 0xffff) {
                a.flags = static_cast<uint16_t>(f.get<double>());
            } else if (f.is_array()) {
                a.flags = 0;
                for (const auto& n : f) {
                    bool found = false;
                    if (n.is_string())
                        for (const PolyFlagName& fn : poly_flag_names())
                            if (fn.name == n.get<std::string>()) {
                                a.flags = static_cast<uint16_t>(a.flags | fn.bit);
                                found = true;
                            }
                    if (!found)
                        return Status::bad_input(item + ".flags: area '" + a.name + "': unknown flag " + n.dump() +
                                                 " (known: walk, swim, door, jump)");
                }
            } else {
                return Status::bad_input(item + ".flags: area '" + a.name + "': expected a list of flag names or a number 0..65535");
            }
        }
        t.types.push_back(std::move(a));
    }
    if (Status st = t.validate(what); !st) return st;
    out = std::move(t);
    return Status::ok();
}

nlohmann::ordered_json obstacle_json(const Obstacle& o) {
    nlohmann::ordered_json j;
    j["shape"] = std::string(obstacle_shape_name(o.shape));
    j["pos"] = {short_decimal(o.pos[0]), short_decimal(o.pos[1]), short_decimal(o.pos[2])};
    if (o.shape == ObstacleShape::Cylinder) {
        j["radius"] = short_decimal(o.radius);
        j["height"] = short_decimal(o.height);
    } else {
        j["half"] = {short_decimal(o.half[0]), short_decimal(o.half[1]), short_decimal(o.half[2])};
        if (o.shape == ObstacleShape::RotatedBox) j["yaw_deg"] = short_decimal(static_cast<float>(o.yaw * 180.0 / 3.14159265358979323846));
    }
    return j;
}

// One element of "obstacles"; `where` is "FILE: obstacles[i]".
Status read_obstacle(const nlohmann::json& o, const std::string& where, Obstacle& ob) {
    if (!o.is_object())
        return Status::bad_input(where + ": expected {\"shape\": \"cylinder\", \"pos\": [x,y,z], \"radius\", \"height\"}");
    if (o.contains("shape")) {
        if (!o["shape"].is_string() || !obstacle_shape_from_name(o["shape"].get<std::string>(), ob.shape))
            return Status::bad_input(where + ": \"shape\" must be \"cylinder\", \"box\" or \"rotated_box\"");
    }
    auto vec3 = [&](const char* key, float* out) -> Status {
        if (!o.contains(key)) return Status::ok();
        const auto& a = o[key];
        if (!a.is_array() || a.size() != 3 || !a[0].is_number() || !a[1].is_number() || !a[2].is_number())
            return Status::bad_input(where + ": \"" + key + "\" must be [x, y, z] numbers");
        for (size_t k = 0; k < 3; ++k) {
            const double x = a[k].get<double>();
            if (!(std::fabs(x) <= kMaxCoordinate))
                return Status::bad_input(where + ": \"" + key + "\" holds " + std::to_string(x) + ", beyond +-1e6 m");
            out[k] = static_cast<float>(x);
        }
        return Status::ok();
    };
    auto num = [&](const char* key, float* out, double scale) -> Status {
        if (!o.contains(key)) return Status::ok();
        if (!o[key].is_number()) return Status::bad_input(where + ": \"" + key + "\" must be a number");
        const double x = o[key].get<double>();
        if (!(std::fabs(x) <= kMaxCoordinate)) return Status::bad_input(where + ": \"" + key + "\" is beyond +-1e6");
        *out = static_cast<float>(x * scale);
        return Status::ok();
    };
    if (!o.contains("pos")) return Status::bad_input(where + ": \"pos\" [x, y, z] is missing");
    if (Status st = vec3("pos", ob.pos); !st) return st;
    const bool cyl = ob.shape == ObstacleShape::Cylinder;
    for (auto k = o.begin(); k != o.end(); ++k) {
        const std::string& key = k.key();
        const bool ok = key == "shape" || key == "pos" || (cyl && (key == "radius" || key == "height")) ||
                        (!cyl && key == "half") || (ob.shape == ObstacleShape::RotatedBox && key == "yaw_deg");
        if (!ok)
            return Status::bad_input(where + ": unknown key \"" + key + "\" for a " + std::string(obstacle_shape_name(ob.shape)) +
                                     (cyl ? " (pos, radius, height)" : ob.shape == ObstacleShape::Box ? " (pos, half)" : " (pos, half, yaw_deg)"));
    }
    if (Status st = num("radius", &ob.radius, 1.0); !st) return st;
    if (Status st = num("height", &ob.height, 1.0); !st) return st;
    if (Status st = vec3("half", ob.half); !st) return st;
    if (Status st = num("yaw_deg", &ob.yaw, 3.14159265358979323846 / 180.0); !st) return st;
    return validate_obstacle(ob, where);
}

nlohmann::ordered_json link_json(const OffMeshLink& l, const AreaTable& areas) {
    nlohmann::ordered_json j;
    j["start"] = {short_decimal(l.start[0]), short_decimal(l.start[1]), short_decimal(l.start[2])};
    j["end"] = {short_decimal(l.end[0]), short_decimal(l.end[1]), short_decimal(l.end[2])};
    j["radius"] = short_decimal(l.radius);
    j["bidirectional"] = l.bidir;
    const std::string_view name = areas.name_of(l.area);
    if (name.empty()) j["area"] = l.area;
    else j["area"] = std::string(name);
    j["flags"] = l.flags;
    j["user_id"] = l.user_id;
    return j;
}

// One element of "links"; `where` is "FILE: links[i]". `has_radius` is false when the item gives
// none (the caller fills in the agent radius once every parameter is read).
Status read_link(const nlohmann::json& o, const std::string& where, const AreaTable& areas, OffMeshLink& l, bool& has_radius) {
    if (!o.is_object())
        return Status::bad_input(where + ": expected {\"start\": [x,y,z], \"end\": [x,y,z], \"radius\", \"bidirectional\", \"area\", "
                                         "\"flags\", \"user_id\"}");
    for (auto k = o.begin(); k != o.end(); ++k) {
        const std::string& key = k.key();
        if (key != "start" && key != "end" && key != "radius" && key != "bidirectional" && key != "area" && key != "flags" &&
            key != "user_id")
            return Status::bad_input(where + ": unknown key \"" + key + "\" (known: start, end, radius, bidirectional, area, flags, user_id)");
    }
    auto vec3 = [&](const char* key, float* out) -> Status {
        if (!o.contains(key)) return Status::bad_input(where + "." + key + ": missing (expected [x, y, z] numbers)");
        const auto& a = o[key];
        if (!a.is_array() || a.size() != 3 || !a[0].is_number() || !a[1].is_number() || !a[2].is_number())
            return Status::bad_input(where + "." + key + ": must be [x, y, z] numbers");
        for (size_t k = 0; k < 3; ++k) {
            const double x = a[k].get<double>();
            if (!(std::fabs(x) <= kMaxCoordinate))
                return Status::bad_input(where + "." + key + ": holds " + std::to_string(x) + ", beyond +-1e6 m");
            out[k] = static_cast<float>(x);
        }
        return Status::ok();
    };
    if (Status st = vec3("start", l.start); !st) return st;
    if (Status st = vec3("end", l.end); !st) return st;
    has_radius = o.contains("radius");
    if (has_radius) {
        const auto& r = o["radius"];
        if (!r.is_number() || !(r.get<double>() >= 0 && r.get<double>() <= 1000))
            return Status::bad_input(where + ".radius: must be a number in [0, 1000] m");
        l.radius = static_cast<float>(r.get<double>());
    }
    if (o.contains("bidirectional")) {
        if (!o["bidirectional"].is_boolean()) return Status::bad_input(where + ".bidirectional: must be true or false");
        l.bidir = o["bidirectional"].get<bool>();
    }
    if (o.contains("area")) {
        const auto& a = o["area"];
        if (a.is_string()) {
            if (!areas.id_of(a.get<std::string>(), l.area))
                return Status::bad_input(where + ".area: unknown area '" + a.get<std::string>() + "' (expected " + areas.names() +
                                         ", not_walkable or an id in 0..63)");
        } else if (a.is_number_integer() && a.get<double>() >= 0 && a.get<double>() < kMaxAreas) {
            l.area = static_cast<uint8_t>(a.get<double>());
        } else {
            return Status::bad_input(where + ".area: must be an area name or an id in 0..63");
        }
    }
    if (o.contains("flags")) {
        const auto& f = o["flags"];
        if (!f.is_number_integer() || f.get<double>() < 0 || f.get<double>() > 65535)
            return Status::bad_input(where + ".flags: must be an integer in 0..65535");
        l.flags = static_cast<uint16_t>(f.get<double>());
    }
    if (o.contains("user_id")) {
        const auto& u = o["user_id"];
        if (!u.is_number_integer() || u.get<double>() < 0 || u.get<double>() > 4294967295.0)
            return Status::bad_input(where + ".user_id: must be an integer in 0..4294967295");
        l.user_id = static_cast<uint32_t>(u.get<double>());
    }
    return check_offmesh_link(l, where);
}

// "agent_types": [{"name", "radius", "height", "max_climb", "max_slope"}, ...]; a number left out
// is the agent_* parameter's (p: the config's parameters, read first).
Status read_agent_types(const nlohmann::json& v, const std::string& what, const Params& p, std::vector<AgentType>& out) {
    if (!v.is_array())
        return Status::bad_input(what + ": expected an array of {\"name\", \"radius\", \"height\", \"max_climb\", \"max_slope\"}");
    out.clear();
    for (size_t i = 0; i < v.size(); ++i) {
        const nlohmann::json& o = v[i];
        const std::string where = what + "[" + std::to_string(i) + "]";
        if (!o.is_object()) return Status::bad_input(where + ": expected an object {\"name\", \"radius\", \"height\", ...}");
        AgentType t = agent_type_from_params(p, "");
        if (!o.contains("name") || !o["name"].is_string())
            return Status::bad_input(where + ": \"name\" is missing or not a string");
        t.name = o["name"].get<std::string>();
        const std::string named = where + " \"" + t.name + "\"";
        for (auto k = o.begin(); k != o.end(); ++k) {
            const std::string& key = k.key();
            float* field = key == "radius" ? &t.radius : key == "height" ? &t.height : key == "max_climb" ? &t.max_climb
                         : key == "max_slope" ? &t.max_slope : nullptr;
            if (key == "name") continue;
            if (!field)
                return Status::bad_input(named + ": unknown key \"" + key + "\" (name, radius, height, max_climb, max_slope)");
            if (!k.value().is_number()) return Status::bad_input(named + ": " + key + " must be a number");
            const double x = k.value().get<double>();
            *field = std::fabs(x) <= 1e30 ? static_cast<float>(x) : std::numeric_limits<float>::infinity();
        }
        out.push_back(std::move(t));
    }
    return validate_agent_types(out, p, what);
}

// One parameter key of a config: its value as set_from_string reads it.
Status read_param(const std::string& key, const nlohmann::json& v, const std::string& what, Params& p) {
    if (!find_param(key)) {
        std::string known;
        for (const ParamDef& t : param_table()) {
            if (!known.empty()) known += ", ";
            known += t.name;
        }
        return Status::bad_input(what + ": unknown key \"" + key + "\" (known: " + known + ", volumes, areas, obstacles, links, prune, agent_types)");
    }
    std::string sval;
    if (v.is_boolean()) {
        sval = v.get<bool>() ? "true" : "false";
    } else if (v.is_number()) {
        std::ostringstream os;
        os.precision(17);  // every double reads back the same
        os << v.get<double>();
        sval = os.str();
    } else if (v.is_string()) {
        sval = v.get<std::string>();
    } else {
        return Status::bad_input(what + ": \"" + key + "\" must be a number, boolean or string");
    }
    if (Status st = p.set_from_string(key, sval); !st) return Status::bad_input(what + ": " + st.message);
    return Status::ok();
}

}  // namespace

double short_decimal(float f) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, f);
    return std::strtod(std::string(buf, res.ptr).c_str(), nullptr);
}

std::string config_json_text(const BakeInputs& in, int indent) {
    return config_json(in).dump(indent);
}

std::string config_json_text(const Params& params, int indent) {
    return config_json(params).dump(indent);
}

nlohmann::ordered_json config_json(const Params& params) {
    BakeInputs in;
    in.params = params;
    return config_json(in);
}

nlohmann::ordered_json config_json(const BakeInputs& in) {
    static const AreaTable kDefaults = AreaTable::defaults();
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const ParamDef& d : param_table()) {
        switch (d.kind) {
            case ParamKind::Bool: j[std::string(d.name)] = in.params.b(d.id); break;
            case ParamKind::Enum: j[std::string(d.name)] = in.params.to_string(d.id); break;
            case ParamKind::Int: j[std::string(d.name)] = in.params.i(d.id); break;
            case ParamKind::Float: j[std::string(d.name)] = in.params.get(d.id); break;
        }
    }
    if (!in.volumes.empty()) {
        nlohmann::ordered_json vols = nlohmann::ordered_json::array();
        for (const ConvexVolume& v : in.volumes) vols.push_back(volume_json(v, in.areas));
        j["volumes"] = vols;
    }
    if (in.areas != kDefaults) j["areas"] = areas_json(in.areas);
    if (!in.obstacles.empty()) {
        nlohmann::ordered_json obs = nlohmann::ordered_json::array();
        for (const Obstacle& o : in.obstacles) obs.push_back(obstacle_json(o));
        j["obstacles"] = obs;
    }
    if (!in.links.empty()) {
        nlohmann::ordered_json ls = nlohmann::ordered_json::array();
        for (const OffMeshLink& l : in.links) ls.push_back(link_json(l, in.areas));
        j["links"] = ls;
    }
    if (in.prune) j["prune"] = {short_decimal((*in.prune)[0]), short_decimal((*in.prune)[1]), short_decimal((*in.prune)[2])};
    if (!in.agent_types.empty()) {
        nlohmann::ordered_json ts = nlohmann::ordered_json::array();
        for (const AgentType& t : in.agent_types)
            ts.push_back({{"name", t.name}, {"radius", short_decimal(t.radius)}, {"height", short_decimal(t.height)},
                          {"max_climb", short_decimal(t.max_climb)}, {"max_slope", short_decimal(t.max_slope)}});
        j["agent_types"] = ts;
    }
    return j;
}

Status read_config_json(const nlohmann::json& j, const std::string& what, BakeInputs& in) {
    if (!j.is_object()) return Status::bad_input(what + ": expected a JSON object of parameter names");
    BakeInputs c = in;
    // "areas" first, wherever it stands: the volumes' and links' area names resolve against it.
    if (j.contains("areas"))
        if (Status st = read_areas(j["areas"], what + ": areas", c.areas); !st) return st;
    std::vector<size_t> no_radius;  // links that take the agent radius (known once every key is read)
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        const nlohmann::json& v = it.value();
        if (key == "areas" || key == "agent_types") continue;  // agent_types after the parameters
        if (key == "obstacles") {
            if (!v.is_array()) return Status::bad_input(what + ": \"obstacles\" must be an array");
            c.obstacles.clear();
            for (size_t i = 0; i < v.size(); ++i) {
                Obstacle ob;
                if (Status st = read_obstacle(v[i], what + ": obstacles[" + std::to_string(i) + "]", ob); !st) return st;
                c.obstacles.push_back(ob);
            }
            continue;
        }
        if (key == "prune") {
            if (v.is_null()) {
                c.prune.reset();
                continue;
            }
            if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
                return Status::bad_input(what + ": \"prune\" must be [x, y, z] (3 numbers) or null");
            std::array<float, 3> p{};
            for (size_t k = 0; k < 3; ++k) {
                const double x = v[k].get<double>();
                if (!(std::fabs(x) <= kMaxCoordinate))
                    return Status::bad_input(what + ": \"prune\"[" + std::to_string(k) + "] is " + std::to_string(x) +
                                             ", expected a finite number within +-1e6 m");
                p[k] = static_cast<float>(x);
            }
            c.prune = p;
            continue;
        }
        if (key == "links") {
            if (!v.is_array()) return Status::bad_input(what + ": \"links\" must be an array");
            c.links.clear();
            no_radius.clear();
            for (size_t i = 0; i < v.size(); ++i) {
                OffMeshLink l;
                l.area = kAreaJump;  // the default, as the automatic links' (flags: kPolyFlagDefault, walk)
                bool has_radius = false;
                if (Status st = read_link(v[i], what + ": links[" + std::to_string(i) + "]", c.areas, l, has_radius); !st) return st;
                if (!has_radius) no_radius.push_back(i);
                c.links.push_back(l);
            }
            continue;
        }
        if (key != "volumes") {
            if (Status st = read_param(key, v, what, c.params); !st) return st;
            continue;
        }
        if (!v.is_array()) return Status::bad_input(what + ": \"volumes\" must be an array");
        c.volumes.clear();
        for (size_t i = 0; i < v.size(); ++i) {
            ConvexVolume cv;
            if (Status st = read_volume(v[i], what + ": volumes[" + std::to_string(i) + "]", c.areas, cv); !st) return st;
            c.volumes.push_back(std::move(cv));
        }
    }
    if (j.contains("agent_types")) {
        if (Status st = read_agent_types(j["agent_types"], what + ": agent_types", c.params, c.agent_types); !st) return st;
        apply_agent_types(c.agent_types, c.params);
    }
    for (size_t i : no_radius) c.links[i].radius = c.params.f(ParamId::agent_radius);
    in = std::move(c);
    return Status::ok();
}

Status parse_config_json(std::string_view text, const std::string& what, BakeInputs& in) {
    nlohmann::json j;
    if (Status st = parse_json_text(text, what, j); !st) return st;
    return read_config_json(j, what, in);
}

Status load_config_file(const std::string& path, BakeInputs& in) {
    std::string text;
    if (Status st = read_input_file(path, "JSON config file", kMaxConfigBytes, text); !st) return st;
    return parse_config_json(text, path, in);
}

Status split_assignment(std::string_view flag, std::string_view text, std::string& name, std::string& value) {
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return Status::bad_input(std::string(flag) + " '" + std::string(text) + "': expected NAME=VALUE");
    name = text.substr(0, eq);
    value = text.substr(eq + 1);
    return Status::ok();
}

Status apply_assignment(std::string_view flag, std::string_view text, Params& params) {
    std::string name, value;
    if (Status st = split_assignment(flag, text, name, value); !st) return st;
    if (Status st = params.set_from_string(name, value); !st)
        return Status::bad_input(std::string(flag) + " " + std::string(text) + ": " + st.message);
    return Status::ok();
}

Status apply_assignments(std::string_view flag, const std::vector<std::string>& list, Params& params) {
    for (const std::string& s : list)
        if (Status st = apply_assignment(flag, s, params); !st) return st;
    return Status::ok();
}

}  // namespace nav
