#include "prune.h"

#include <chrono>
#include <cstdio>

#include "core/runtime/query.h"

namespace navdebug {

PruneResult prune_bake(const std::shared_ptr<const nav::Bake>& bake, const std::optional<glm::vec3>& point) {
    PruneResult r;
    r.src = bake;
    r.point = point;
    r.bake = bake;
    if (!bake || !point) return r;
    if (!bake->navmesh || bake->navmesh->empty()) {
        r.message = "No navmesh yet: the prune applies once the navmesh stage is built.";
        return r;
    }
    const auto t0 = std::chrono::steady_clock::now();
    // Any polygon may be kept, whatever its flags: the worker's navmesh is never pruned itself,
    // and a click on a part an earlier prune darkened keeps that part instead.
    nav::QueryFilter any;
    any.exclude_flags = 0;
    nav::NavQuery query;
    query.init(bake->navmesh.get());
    nav::NearestPoly hit;
    const glm::vec3 at = *point;
    if (nav::Status st = query.find_nearest_poly(&at.x, kPickHalfExtents, any, hit); !st) {
        r.message = "Not pruned: " + st.message;
        return r;
    }
    if (hit.poly == nav::kNoRef) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "Not pruned: no navmesh polygon within %.0f m (%.0f m up or down) of (%.2f, %.2f, %.2f).",
                      kPickHalfExtents[0], kPickHalfExtents[1], at.x, at.y, at.z);
        r.message = buf;
        return r;
    }
    // A shallow copy of the bake sharing every stage but the navmesh, which is copied and pruned:
    // the worker's snapshot stays as published for the next bake and the other tools.
    auto mesh = std::make_shared<nav::NavMesh>(*bake->navmesh);
    nav::PruneStats stats{};
    if (nav::Status st = nav::prune_unreachable(*mesh, hit.poly, &stats); !st) {
        r.message = "Not pruned: " + st.message;
        return r;
    }
    r.stats = stats;
    r.kept_poly = mesh->poly_index(hit.poly);
    auto pruned = std::make_shared<nav::Bake>(*bake);
    pruned->navmesh = std::move(mesh);
    r.bake = std::move(pruned);
    r.applied = true;
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

std::shared_ptr<const PruneResult> updated_prune(std::shared_ptr<const PruneResult> last,
                                                 const std::shared_ptr<const nav::Bake>& bake,
                                                 const std::optional<glm::vec3>& point) {
    if (last && last->src == bake && last->point == point) return last;
    return std::make_shared<const PruneResult>(prune_bake(bake, point));
}

}  // namespace navdebug
