// Islands: the connected components of the navmesh (drawn by the `islands` layer, each its own
// colour) listed with their areas, and prune: keep only what is reachable from a clicked polygon,
// the rest is flagged disabled (nav::kPolyFlagDisabled), drawn dark and skipped by the queries.
// The prune is kept here as the clicked point; it is an input of the pipeline (the worker passes it
// to Pipeline::set_prune) and the panel shows the outcome the bake carries (Bake::prune).
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/runtime/islands.h"
#include "core/pipeline/pipeline.h"

namespace navdebug {

class IslandsTool {
public:
    // Keep only what is reachable from the polygon at p (the prune tool's click).
    void prune_at(const glm::vec3& p) { prune_point_ = p; }
    void clear() { prune_point_.reset(); }
    bool pruned() const { return prune_point_.has_value(); }
    const std::optional<glm::vec3>& prune_point() const { return prune_point_; }
    // ImGui: island list with areas, prune state (the bake's Bake::prune, shown when it was made
    // with the current prune point) and the clear button.
    void panel(const nav::Bake* bake);

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

// The prune point as the pipeline and the config JSON hold it (ConfigInputs::prune), and back.
inline std::optional<std::array<float, 3>> prune_array(const std::optional<glm::vec3>& p) {
    if (!p) return std::nullopt;
    return std::array<float, 3>{p->x, p->y, p->z};
}
// Sets the tool's prune point from a config's (nullopt clears it).
inline void set_prune_point(IslandsTool& tool, const std::optional<std::array<float, 3>>& p) {
    if (p) tool.prune_at(glm::vec3((*p)[0], (*p)[1], (*p)[2]));
    else tool.clear();
}

}  // namespace navdebug
