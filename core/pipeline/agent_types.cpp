#include "core/pipeline/agent_types.h"

#include <algorithm>
#include <cmath>

namespace nav {

namespace {

std::string num(double v) {
    std::string s = std::to_string(v);
    while (s.size() > 1 && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

// One field against its agent_* parameter's range.
Status check_field(const std::string& where, const char* field, float v, ParamId id) {
    const ParamDef& d = param_def(id);
    if (!std::isfinite(v) || v < d.min || v > d.max)
        return Status::bad_input(where + ": " + field + " is " + (std::isfinite(v) ? num(v) : std::string(std::isnan(v) ? "NaN" : "infinite")) +
                                 ", expected a number in " + num(d.min) + ".." + num(d.max) + " " + std::string(d.unit) +
                                 " (the range of " + std::string(d.name) + ")");
    return Status::ok();
}

}  // namespace

AgentType agent_type_from_params(const Params& p, std::string name) {
    return AgentType{std::move(name), p.f(ParamId::agent_radius), p.f(ParamId::agent_height),
                     p.f(ParamId::agent_max_climb), p.f(ParamId::agent_max_slope)};
}

Status validate_agent_types(const std::vector<AgentType>& types, const Params& p, const std::string& what) {
    if (types.size() > static_cast<size_t>(kMaxAgentTypes))
        return Status::bad_input(what + ": " + std::to_string(types.size()) + " types, at most " +
                                 std::to_string(kMaxAgentTypes) + " (a polygon's type mask is 16 bits)");
    const float ch = p.f(ParamId::cell_height);
    for (size_t i = 0; i < types.size(); ++i) {
        const AgentType& t = types[i];
        const std::string where = what + "[" + std::to_string(i) + "]" + (t.name.empty() ? "" : " \"" + t.name + "\"");
        if (t.name.empty()) return Status::bad_input(where + ": name is empty, expected a unique name");
        for (size_t k = 0; k < i; ++k)
            if (types[k].name == t.name)
                return Status::bad_input(where + ": name \"" + t.name + "\" is also the name of type [" + std::to_string(k) +
                                         "], expected unique names");
        if (Status st = check_field(where, "radius", t.radius, ParamId::agent_radius); !st) return st;
        if (Status st = check_field(where, "height", t.height, ParamId::agent_height); !st) return st;
        if (Status st = check_field(where, "max_climb", t.max_climb, ParamId::agent_max_climb); !st) return st;
        if (Status st = check_field(where, "max_slope", t.max_slope, ParamId::agent_max_slope); !st) return st;
        if (t.height < ch)
            return Status::bad_input(where + ": height " + num(t.height) + " m is below cell_height " + num(ch) +
                                     " m, expected at least one cell");
        if (i > 0 && (t.max_climb != types[0].max_climb || t.max_slope != types[0].max_slope))
            return Status::bad_input(where + ": max_climb " + num(t.max_climb) + " m / max_slope " + num(t.max_slope) +
                                     " deg differ from " + what + "[0]'s (" + num(types[0].max_climb) + " m / " +
                                     num(types[0].max_slope) +
                                     " deg); types that climb or slope differently need a bake of their own, which "
                                     "is not supported yet: give every type the same max_climb and max_slope");
    }
    return Status::ok();
}

bool apply_agent_types(const std::vector<AgentType>& types, Params& p) {
    if (types.empty()) return false;
    float r = types[0].radius, h = types[0].height;
    for (const AgentType& t : types) {
        r = std::min(r, t.radius);
        h = std::min(h, t.height);
    }
    bool changed = false;
    // A value equal as a float (what the bake reads) is kept as written. Validated values are
    // within range: set() cannot fail.
    auto put = [&](ParamId id, float v) {
        if (p.f(id) == v) return;
        (void)p.set(id, v);
        changed = true;
    };
    put(ParamId::agent_radius, r);
    put(ParamId::agent_height, h);
    put(ParamId::agent_max_climb, types[0].max_climb);
    put(ParamId::agent_max_slope, types[0].max_slope);
    return changed;
}

Status agent_type_flag_bits(const std::vector<AgentType>& types, const AreaTable& areas, std::array<uint16_t, kMaxAgentTypes>& bits) {
    bits.fill(0);
    uint16_t used = kPolyFlagDisabled;
    for (const AreaType& a : areas.types) used = static_cast<uint16_t>(used | a.flags);
    size_t t = 0;
    for (int b = 15; b >= 0 && t < types.size(); --b)
        if (!(used & (1u << b))) bits[t++] = static_cast<uint16_t>(1u << b);
    if (t < types.size())
        return Status::bad_input("agent types: " + std::to_string(types.size()) + " types need as many polygon flag bits in a "
                                 "Detour file, but the area table's flags leave " + std::to_string(t) +
                                 " free (bits in use: " + flags_to_string(used) + "); use fewer types or fewer flag bits");
    return Status::ok();
}

int find_agent_type(const std::vector<AgentType>& types, std::string_view name) {
    for (size_t i = 0; i < types.size(); ++i)
        if (types[i].name == name) return static_cast<int>(i);
    return -1;
}

std::string agent_type_names(const std::vector<AgentType>& types) {
    std::string s;
    for (const AgentType& t : types) s += (s.empty() ? "" : ", ") + t.name;
    return s;
}

}  // namespace nav
