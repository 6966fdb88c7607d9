// The prune of the Islands tool as a plain computation (no UI): keep only what is reachable from
// the navmesh polygon nearest a point, the rest flagged disabled (nav::kPolyFlagDisabled). The bake
// worker runs it on every bake it publishes (worker.h) and the UI thread only reads the result.
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>

#include "core/bake/pipeline.h"
#include "core/runtime/islands.h"

namespace navdebug {

// Half extents of the box around a picked point in which the nearest navmesh polygon is searched
// (Detour sample's): picks land on the input surface, and erosion keeps the navmesh up to an agent
// radius from walls and ledges, a few metres above or below.
constexpr float kPickHalfExtents[3] = {2.0f, 4.0f, 2.0f};

struct PruneResult {
    std::shared_ptr<const nav::Bake> src;  // the bake the prune was applied to
    std::optional<glm::vec3> point;        // the prune point it was applied with (nullopt: no prune)
    // What to draw and query: `src` itself, or a shallow copy whose navmesh has the prune applied.
    std::shared_ptr<const nav::Bake> bake;
    bool applied = false;  // `bake` carries a pruned navmesh
    nav::PruneStats stats{};
    uint32_t kept_poly = 0;  // the polygon (index) the prune kept what it reaches from
    double ms = 0.0;
    std::string message;  // why the prune point could not be applied (empty when applied or none)
};

// Applies the prune at `point` to `bake` (nothing when either is missing). The bake is never
// changed: a pruned result shares every stage but the navmesh, which is copied and pruned.
PruneResult prune_bake(const std::shared_ptr<const nav::Bake>& bake, const std::optional<glm::vec3>& point);
// `last` while it was made from this bake and point, else prune_bake's new result: the one memo
// the worker (every bake it publishes) and the UI thread (2D scenes) share.
std::shared_ptr<const PruneResult> updated_prune(std::shared_ptr<const PruneResult> last,
                                                 const std::shared_ptr<const nav::Bake>& bake,
                                                 const std::optional<glm::vec3>& point);

}  // namespace navdebug
