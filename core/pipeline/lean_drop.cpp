// The lean-drop policy: what a solo bake that keeps no intermediates drops after each stage.
#include "core/pipeline/pipeline_impl.h"

namespace nav {

// A result is dropped after its last reader (the last column of its RESULT row in NAV_STAGES).
void drop_consumed(Unit& u, int ran) {
    for_each_result(
        [&](Stage, Stage last_reader, auto& p, auto& spare) {
            if (static_cast<int>(last_reader) != ran) return;
            p.reset();
            spare.reset();
            u.trimmed = true;
        },
        u, u.spare);
}

int solo_start(const Unit& u) {
    if (u.trimmed && u.dirty_from > kStageRasterize && u.dirty_from < static_cast<int>(Stage::Navmesh))
        return kStageRasterize;
    return u.dirty_from;
}

}  // namespace nav
