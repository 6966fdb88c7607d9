#include "core/formats/path_tests_json.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/formats/params_json.h"
#include "core/io/file.h"
#include "core/io/json_text.h"

namespace nav {

namespace {

using ojson = nlohmann::ordered_json;

const char* const kCaseKeys[] = {"name", "start", "end", "filter", "expect"};
const char* const kFilterKeys[] = {"include", "exclude", "costs"};
const char* const kExpectKeys[] = {"reached", "max_length", "through_area", "avoid_area", "through_link", "avoid_link"};

template <size_t N>
Status check_keys(const ojson& o, const char* const (&known)[N], const std::string& where) {
    for (auto k = o.begin(); k != o.end(); ++k)
        if (std::find_if(std::begin(known), std::end(known), [&](const char* s) { return k.key() == s; }) == std::end(known)) {
            std::string list;
            for (const char* s : known) list += (list.empty() ? "" : ", ") + std::string(s);
            return Status::bad_input(where + ": unknown key \"" + k.key() + "\" (known: " + list + ")");
        }
    return Status::ok();
}

Status read_point(const ojson& v, const std::string& where, float* p) {
    if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
        return Status::bad_input(where + ": expected 3 numbers [x, y, z]");
    for (size_t k = 0; k < 3; ++k) {
        const double x = v[k].get<double>();
        if (!(std::fabs(x) <= kMaxCoordinate))
            return Status::bad_input(where + ": coordinate " + std::to_string(x) + " is not finite or beyond +-1e6 m");
        p[k] = static_cast<float>(x);
    }
    return Status::ok();
}

Status read_flags(const ojson& v, const std::string& where, uint16_t& out) {
    if (v.is_number_integer()) {
        const double x = v.get<double>();
        if (x < 0 || x > 65535) return Status::bad_input(where + ": flags " + v.dump() + " out of 0..65535");
        out = static_cast<uint16_t>(x);
        return Status::ok();
    }
    std::string names;
    for (const PolyFlagName& f : poly_flag_names()) names += (names.empty() ? "" : ", ") + std::string(f.name);
    if (!v.is_array()) return Status::bad_input(where + ": expected a number or a list of flag names (" + names + ")");
    uint16_t bits = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        const auto& s = v[i];
        const PolyFlagName* hit = nullptr;
        if (s.is_string())
            for (const PolyFlagName& f : poly_flag_names())
                if (f.name == s.get<std::string>()) hit = &f;
        if (!hit)
            return Status::bad_input(where + "[" + std::to_string(i) + "]: unknown flag " + s.dump() + " (expected " + names + ")");
        bits = static_cast<uint16_t>(bits | hit->bit);
    }
    out = bits;
    return Status::ok();
}

Status read_area_name(const ojson& v, const std::string& where, const AreaTable& areas, uint8_t& out) {
    if (v.is_string() && areas.id_of(v.get<std::string>(), out)) return Status::ok();
    if (v.is_number_integer() && v.get<double>() >= 0 && v.get<double>() < kMaxAreas) {
        out = static_cast<uint8_t>(v.get<double>());
        return Status::ok();
    }
    return Status::bad_input(where + ": unknown area " + v.dump() + " (expected " + areas.names() + " or an id in 0..63)");
}

// "road" or ["road", "grass"]: area ids, duplicates dropped.
Status read_area_list(const ojson& v, const std::string& where, const AreaTable& areas, std::vector<uint8_t>& out) {
    if (!v.is_array()) {
        uint8_t a = 0;
        if (Status st = read_area_name(v, where, areas, a); !st) return st;
        out.push_back(a);
        return Status::ok();
    }
    for (size_t i = 0; i < v.size(); ++i) {
        uint8_t a = 0;
        if (Status st = read_area_name(v[i], where + "[" + std::to_string(i) + "]", areas, a); !st) return st;
        if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
    }
    return Status::ok();
}

Status read_link_id(const ojson& v, const std::string& where, uint32_t& out) {
    if (!v.is_number_integer() || v.get<double>() < 0 || v.get<double>() > 4294967295.0)
        return Status::bad_input(where + ": expected a link user id (a whole number in 0..4294967295), got " + v.dump());
    out = static_cast<uint32_t>(v.get<double>());
    return Status::ok();
}

Status read_filter(const ojson& v, const std::string& where, const AreaTable& areas, QueryFilter& f) {
    if (!v.is_object()) return Status::bad_input(where + ": expected an object {\"include\", \"exclude\", \"costs\"}");
    if (Status st = check_keys(v, kFilterKeys, where); !st) return st;
    uint16_t include = 0xffff, exclude = 0;
    if (v.contains("include"))
        if (Status st = read_flags(v["include"], where + ".include", include); !st) return st;
    if (v.contains("exclude"))
        if (Status st = read_flags(v["exclude"], where + ".exclude", exclude); !st) return st;
    f = make_query_filter(areas, include, static_cast<uint16_t>(exclude | kPolyFlagDisabled));
    if (v.contains("costs")) {
        const ojson& c = v["costs"];
        if (!c.is_object()) return Status::bad_input(where + ".costs: expected an object {\"area name\": cost, ...}");
        for (auto k = c.begin(); k != c.end(); ++k) {
            const std::string item = where + ".costs." + k.key();
            uint8_t id = 0;
            if (!areas.id_of(k.key(), id)) {
                char* endp = nullptr;
                const long n = std::strtol(k.key().c_str(), &endp, 10);
                if (k.key().empty() || *endp != '\0' || n < 0 || n >= kMaxAreas)
                    return Status::bad_input(item + ": unknown area '" + k.key() + "' (expected " + areas.names() +
                                             " or an id in 0..63)");
                id = static_cast<uint8_t>(n);
            }
            if (!k.value().is_number() || !std::isfinite(k.value().get<double>()) || k.value().get<double>() < 0 ||
                k.value().get<double>() > 1e30)
                return Status::bad_input(item + ": expected a finite cost >= 0, got " + k.value().dump());
            f.area_cost[id] = static_cast<float>(k.value().get<double>());
        }
    }
    return Status::ok();
}

Status read_expect(const ojson& v, const std::string& where, const AreaTable& areas, PathTestExpect& e) {
    if (!v.is_object())
        return Status::bad_input(where + ": expected an object {\"reached\", \"max_length\", \"through_area\", ...}");
    if (Status st = check_keys(v, kExpectKeys, where); !st) return st;
    if (v.contains("reached")) {
        if (!v["reached"].is_boolean()) return Status::bad_input(where + ".reached: expected true or false");
        e.reached = v["reached"].get<bool>();
    }
    if (v.contains("max_length")) {
        const ojson& m = v["max_length"];
        if (!m.is_number() || !(m.get<double>() >= 0) || !(m.get<double>() <= kMaxCoordinate * 10))
            return Status::bad_input(where + ".max_length: expected a finite length >= 0 (metres), got " + m.dump());
        e.max_length = static_cast<float>(m.get<double>());
    }
    if (v.contains("through_area"))
        if (Status st = read_area_list(v["through_area"], where + ".through_area", areas, e.through_areas); !st) return st;
    if (v.contains("avoid_area"))
        if (Status st = read_area_list(v["avoid_area"], where + ".avoid_area", areas, e.avoid_areas); !st) return st;
    for (uint8_t a : e.through_areas)
        if (std::find(e.avoid_areas.begin(), e.avoid_areas.end(), a) != e.avoid_areas.end())
            return Status::bad_input(where + ": area " + std::to_string(a) + " is in both through_area and avoid_area");
    if (v.contains("through_link")) {
        const ojson& l = v["through_link"];
        if (l.is_boolean()) {
            e.through_link = l.get<bool>() ? PathTestExpect::Link::Some : PathTestExpect::Link::None;
        } else {
            if (Status st = read_link_id(l, where + ".through_link", e.through_link_id); !st)
                return Status::bad_input(st.message + " or true / false");
            e.through_link = PathTestExpect::Link::UserId;
        }
    }
    if (v.contains("avoid_link")) {
        const ojson& l = v["avoid_link"];
        if (l.is_array()) {
            for (size_t i = 0; i < l.size(); ++i) {
                uint32_t id = 0;
                if (Status st = read_link_id(l[i], where + ".avoid_link[" + std::to_string(i) + "]", id); !st) return st;
                e.avoid_links.push_back(id);
            }
        } else {
            uint32_t id = 0;
            if (Status st = read_link_id(l, where + ".avoid_link", id); !st) return st;
            e.avoid_links.push_back(id);
        }
    }
    if (e.through_link == PathTestExpect::Link::UserId &&
        std::find(e.avoid_links.begin(), e.avoid_links.end(), e.through_link_id) != e.avoid_links.end())
        return Status::bad_input(where + ": link id " + std::to_string(e.through_link_id) + " is in both through_link and avoid_link");
    return Status::ok();
}

Status read_case(const ojson& o, const std::string& where, size_t index, const AreaTable& areas, PathTestCase& c) {
    if (!o.is_object()) return Status::bad_input(where + ": expected an object {\"name\", \"start\", \"end\", \"filter\", \"expect\"}");
    if (Status st = check_keys(o, kCaseKeys, where); !st) return st;
    c.name = "case " + std::to_string(index);
    if (o.contains("name")) {
        if (!o["name"].is_string()) return Status::bad_input(where + ".name: expected a string");
        c.name = o["name"].get<std::string>();
    }
    for (const char* key : {"start", "end"}) {
        if (!o.contains(key)) return Status::bad_input(where + "." + key + ": missing (expected 3 numbers [x, y, z])");
        if (Status st = read_point(o[key], where + "." + key, std::string(key) == "start" ? c.start : c.end); !st) return st;
    }
    c.filter = make_query_filter(areas);
    if (o.contains("filter"))
        if (Status st = read_filter(o["filter"], where + ".filter", areas, c.filter); !st) return st;
    if (o.contains("expect"))
        if (Status st = read_expect(o["expect"], where + ".expect", areas, c.expect); !st) return st;
    return Status::ok();
}

// The cases array of a parsed file: `j` itself or j["cases"].
Status cases_of(const ojson& j, const std::string& what, const ojson*& cases) {
    if (j.is_array()) {
        cases = &j;
        return Status::ok();
    }
    if (!j.is_object() || !j.contains("cases"))
        return Status::bad_input(what + ": expected {\"cases\": [...]} or a list of cases");
    for (auto k = j.begin(); k != j.end(); ++k)
        if (k.key() != "cases") return Status::bad_input(what + ": unknown key \"" + k.key() + "\" (known: cases)");
    if (!j["cases"].is_array()) return Status::bad_input(what + ": cases: expected a list of cases");
    cases = &j["cases"];
    return Status::ok();
}

Status parse_json_cases(const ojson& j, const std::string& what, const AreaTable& areas, std::vector<PathTestCase>& out) {
    const ojson* cases = nullptr;
    if (Status st = cases_of(j, what, cases); !st) return st;
    std::vector<PathTestCase> list;
    for (size_t i = 0; i < cases->size(); ++i) {
        PathTestCase c;
        if (Status st = read_case((*cases)[i], what + ": cases[" + std::to_string(i) + "]", i, areas, c); !st) return st;
        list.push_back(std::move(c));
    }
    out = std::move(list);
    return Status::ok();
}

ojson flags_json(uint16_t flags) {
    ojson fl = ojson::array();
    uint16_t rest = flags;
    for (const PolyFlagName& f : poly_flag_names())
        if (flags & f.bit) {
            fl.push_back(std::string(f.name));
            rest = static_cast<uint16_t>(rest & ~f.bit);
        }
    if (rest) return flags;
    return fl;
}

ojson area_json(uint8_t a, const AreaTable& areas) {
    const std::string_view n = areas.name_of(a);
    return n.empty() ? ojson(a) : ojson(std::string(n));
}

ojson case_json(const PathTestCase& c, const AreaTable& areas) {
    ojson o;
    o["name"] = c.name;
    o["start"] = {short_decimal(c.start[0]), short_decimal(c.start[1]), short_decimal(c.start[2])};
    o["end"] = {short_decimal(c.end[0]), short_decimal(c.end[1]), short_decimal(c.end[2])};
    ojson f = ojson::object();
    if (c.filter.include_flags != 0xffff) f["include"] = flags_json(c.filter.include_flags);
    const uint16_t exclude = static_cast<uint16_t>(c.filter.exclude_flags & ~kPolyFlagDisabled);
    if (exclude) f["exclude"] = flags_json(exclude);
    const QueryFilter table = make_query_filter(areas);
    ojson costs = ojson::object();
    for (int a = 0; a < kMaxAreas; ++a)
        if (c.filter.area_cost[a] != table.area_cost[a]) {
            const std::string_view n = areas.name_of(static_cast<uint8_t>(a));
            costs[n.empty() ? std::to_string(a) : std::string(n)] = short_decimal(c.filter.area_cost[a]);
        }
    if (!costs.empty()) f["costs"] = costs;
    if (!f.empty()) o["filter"] = f;
    const PathTestExpect& e = c.expect;
    ojson x;
    x["reached"] = e.reached;
    if (e.max_length >= 0) x["max_length"] = short_decimal(e.max_length);
    auto area_list = [&](const std::vector<uint8_t>& v) {
        ojson l = ojson::array();
        for (uint8_t a : v) l.push_back(area_json(a, areas));
        return l;
    };
    if (!e.through_areas.empty()) x["through_area"] = area_list(e.through_areas);
    if (!e.avoid_areas.empty()) x["avoid_area"] = area_list(e.avoid_areas);
    switch (e.through_link) {
        case PathTestExpect::Link::Any: break;
        case PathTestExpect::Link::Some: x["through_link"] = true; break;
        case PathTestExpect::Link::None: x["through_link"] = false; break;
        case PathTestExpect::Link::UserId: x["through_link"] = e.through_link_id; break;
    }
    if (!e.avoid_links.empty()) x["avoid_link"] = e.avoid_links;
    o["expect"] = x;
    return o;
}

}  // namespace

Status parse_path_tests(std::string_view text, const std::string& what, const AreaTable& areas,
                        std::vector<PathTestCase>& out) {
    ojson j;
    if (Status st = parse_json_text(text, what, j); !st) return st;
    return parse_json_cases(j, what, areas, out);
}

Status load_path_tests(const std::string& path, const AreaTable& areas, std::vector<PathTestCase>& out) {
    std::string text;
    if (Status st = read_input_file(path, "path test file", kMaxPathTestBytes, text); !st) return st;
    return parse_path_tests(text, path, areas, out);
}

std::string path_test_case_text(const PathTestCase& c, const AreaTable& areas) { return case_json(c, areas).dump(2); }

Status append_path_test(const std::string& path, const PathTestCase& c, const AreaTable& areas) {
    ojson doc = {{"cases", ojson::array()}};
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        std::string text;
        if (Status st = read_input_file(path, "path test file", kMaxPathTestBytes, text); !st) return st;
        ojson j;
        if (Status st = parse_json_text(text, path, j); !st) return st;
        std::vector<PathTestCase> check;  // never append to a file that does not read back
        if (Status st = parse_json_cases(j, path, areas, check); !st) return st;
        if (j.is_array()) doc["cases"] = std::move(j);
        else doc = std::move(j);
    }
    doc["cases"].push_back(case_json(c, areas));
    if (Status st = write_output_file(path, doc.dump(2) + "\n"); !st) return st;
    return Status::ok();
}

std::string area_table_namer(uint8_t area, const void* areas) {
    return std::string(static_cast<const AreaTable*>(areas)->name_of(area));
}

float path_test_length_limit(float length) {
    return static_cast<float>(std::ceil(static_cast<double>(length) * 1.05 * 10.0 - 1e-6) / 10.0);
}

}  // namespace nav
