// Islands: the connected components of the navmesh (drawn by the `islands` layer, each its own
// colour) listed with their areas, and prune: keep only what is reachable from a clicked polygon,
// the rest is flagged disabled (nav::kPolyFlagDisabled), drawn dark and skipped by the queries.
// The prune point is an input of the bake (BakeInputs::prune, kept in EditState::desired); the
// panel shows the outcome the bake carries (Bake::prune).
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/runtime/islands.h"
#include "core/pipeline/pipeline.h"

namespace navdebug {

// The Islands panel; the prune point it shows and clears is the edited inputs' (EditState).
class IslandsTool {
public:
    // ImGui: island list with areas, prune state (the bake's Bake::prune, shown when it was made
    // with the current prune point `prune`) and the clear button, which resets `prune`.
    void panel(const nav::Bake* bake, std::optional<std::array<float, 3>>& prune);

private:
    // One line of the panel's list, sorted by area.
    struct Row {
        uint32_t island;
        nav::IslandStats stats;
    };
    void update_rows(const std::shared_ptr<const nav::NavMesh>& mesh);

    // the panel's list, rebuilt when the navmesh it shows changes (held, so the pointer stays unique)
    std::shared_ptr<const nav::NavMesh> rows_mesh_;
    std::vector<Row> rows_;
    double total_area_ = 0.0;
    std::string rows_error_;
};

}  // namespace navdebug
