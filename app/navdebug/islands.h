// Islands: the connected components of the navmesh (drawn by the `islands` layer, each its own
// colour) listed with their areas, and prune: keep only what is reachable from a clicked polygon,
// the rest is flagged disabled (nav::kPolyFlagDisabled), drawn dark and skipped by the queries.
// The prune is kept here as the clicked point; the bake worker applies it to every bake it
// publishes (prune.h) and the panel shows the published result.
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/runtime/islands.h"
#include "core/bake/pipeline.h"
#include "prune.h"

namespace navdebug {

class IslandsTool {
public:
    // Keep only what is reachable from the polygon at p (the prune tool's click).
    void prune_at(const glm::vec3& p) { prune_point_ = p; }
    void clear() { prune_point_.reset(); }
    bool pruned() const { return prune_point_.has_value(); }
    const std::optional<glm::vec3>& prune_point() const { return prune_point_; }
    // ImGui: island list with areas, prune state (`result`: the worker's prune of the shown bake,
    // shown when it was made with the current prune point) and the clear button.
    void panel(const nav::Bake* bake, const PruneResult* result);

private:
    // One line of the panel's list, sorted by area.
    struct Row {
        uint32_t island;
        nav::IslandStats stats;
    };
    void update_rows(const std::shared_ptr<const nav::NavMesh>& mesh);

    std::optional<glm::vec3> prune_point_;

    // the panel's list, rebuilt when the navmesh it shows changes (held, so the pointer stays unique)
    std::shared_ptr<const nav::NavMesh> rows_mesh_;
    std::vector<Row> rows_;
    double total_area_ = 0.0;
    std::string rows_error_;
};

}  // namespace navdebug
