// Islands: the connected components of the navmesh (drawn by the `islands` layer, each its own
// colour) listed with their areas, and prune: keep only what is reachable from a clicked polygon,
// the rest is flagged disabled (nav::kPolyFlagDisabled), drawn dark and skipped by the queries.
// The prune is kept as the clicked point and re-applied to every new bake.
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <optional>

#include "core/pipeline.h"

namespace navdebug {

class IslandsTool {
public:
    // The bake to draw and query: `bake` itself, or a copy whose navmesh has the prune applied
    // (cached: the same input returns the same pointer).
    std::shared_ptr<const nav::Bake> apply(const std::shared_ptr<const nav::Bake>& bake);
    // Keep only what is reachable from the polygon at p (the prune tool's click).
    void prune_at(const glm::vec3& p) { prune_point_ = p; }
    void clear() { prune_point_.reset(); }
    bool pruned() const { return prune_point_.has_value(); }
    // ImGui: island list with areas, prune state and the clear button.
    void panel(const nav::Bake* bake);

private:
    std::optional<glm::vec3> prune_point_;
};

}  // namespace navdebug
