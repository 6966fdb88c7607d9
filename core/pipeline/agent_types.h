// Agent types: named agent sizes served from one bake (BakeInputs::agent_types).
//
// Every type that shares the bake's max_climb and max_slope is served by the one bake: the bake
// runs at the base type (the smallest radius and the smallest height of the list, which
// apply_agent_types writes into the agent_* parameters), and the areas stage marks each walkable
// span with the types that fit there (core/bake/clearance.h): a type fits where its own erosion
// (its radius, over the spans with its height free above them) leaves the span walkable. Regions,
// contours and polygons split along those marks as they split along areas, so each polygon carries
// one mask of the types that may use it (PolyMesh::types, NavTile::types) and QueryFilter::agent_type
// picks one type's navmesh out of the shared one. Bit t of a mask is agent_types[t].
//
// Types whose max_climb or max_slope differ would need a bake of their own; that is not built yet,
// and such a list is refused (validate_agent_types) rather than baked wrong.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/bake/areas.h"
#include "core/common.h"
#include "core/pipeline/params.h"

namespace nav {

constexpr int kMaxAgentTypes = 16;  // a polygon's mask is 16 bits

struct AgentType {
    std::string name;
    float radius = 0.6f;     // metres, as agent_radius
    float height = 2.0f;     // metres, as agent_height
    float max_climb = 0.9f;  // metres, as agent_max_climb
    float max_slope = 45.0f; // degrees, as agent_max_slope
    bool operator==(const AgentType&) const = default;
};

// The type the agent_* parameters describe (the only type when the list is empty), named `name`.
AgentType agent_type_from_params(const Params& p, std::string name = "default");

// Checks a list against the parameters it is baked with: at most kMaxAgentTypes, names non-empty
// and unique, every number finite and within its agent_* parameter's range, heights not below
// cell_height, one max_climb and one max_slope for all. Errors start with `what`
// ("agent_types[2]"), name the type and the field and say what was expected.
Status validate_agent_types(const std::vector<AgentType>& types, const Params& p, const std::string& what = "agent_types");

// With a list, the agent_* parameters become the base type (smallest radius, smallest height, the
// shared climb and slope), the agent every stage before the areas stage bakes for. No list: p
// unchanged. Returns whether p changed.
bool apply_agent_types(const std::vector<AgentType>& types, Params& p);

// The Detour export's polygon flag bit for each type (bits[t] for type t), so a game on Detour's own
// dtQueryFilter picks a type's navmesh with includeFlags = bits[t]: the bits no area type of the
// table uses and not kPolyFlagDisabled, highest first (0x4000, 0x2000, ...). BadInput naming the
// count when the table leaves fewer free bits than there are types.
Status agent_type_flag_bits(const std::vector<AgentType>& types, const AreaTable& areas, std::array<uint16_t, kMaxAgentTypes>& bits);

// The index of the type named `name`, -1 when there is none.
int find_agent_type(const std::vector<AgentType>& types, std::string_view name);

// "humanoid, ogre" (for messages listing the known names).
std::string agent_type_names(const std::vector<AgentType>& types);

}  // namespace nav
