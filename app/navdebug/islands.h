// Islands: the connected components of the navmesh (drawn by the `islands` layer, each its own
// colour) listed with their areas, and prune: keep only what is reachable from a clicked polygon,
// the rest is flagged disabled (nav::kPolyFlagDisabled), drawn dark and skipped by the queries.
// The prune is kept as the clicked point and re-applied to every new bake.
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/runtime/islands.h"
#include "core/bake/pipeline.h"

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
    const std::optional<glm::vec3>& prune_point() const { return prune_point_; }
    // ImGui: island list with areas, prune state and the clear button.
    void panel(const nav::Bake* bake);

private:
    // One line of the panel's list, sorted by area.
    struct Row {
        uint32_t island;
        nav::IslandStats stats;
    };
    void update_rows(const std::shared_ptr<const nav::NavMesh>& mesh);

    std::optional<glm::vec3> prune_point_;

    // apply()'s cache: the input bake and prune point it was made for, and what it returned
    std::shared_ptr<const nav::Bake> src_, out_;
    std::optional<glm::vec3> applied_point_;
    // what the last prune did, for the panel
    nav::PruneStats prune_stats_{};
    uint32_t kept_poly_ = 0;
    bool prune_applied_ = false;  // out_ carries a pruned navmesh
    double prune_ms_ = 0.0;
    std::string message_;         // why the prune point could not be applied

    // the panel's list, rebuilt when the navmesh it shows changes (held, so the pointer stays unique)
    std::shared_ptr<const nav::NavMesh> rows_mesh_;
    std::vector<Row> rows_;
    double total_area_ = 0.0;
    std::string rows_error_;
};

}  // namespace navdebug
