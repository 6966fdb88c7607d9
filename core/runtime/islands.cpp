// Islands of the runtime navmesh (see islands.h).
#include "core/runtime/islands.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/runtime/query.h"

namespace nav {

namespace {

// The labels build_navmesh leaves: one island per polygon, each id below nislands, and a flag
// per polygon. Anything else (a hand-filled or half-built mesh) is refused rather than indexed.
Status check_labels(const NavMesh& mesh, const char* what) {
    if (mesh.npolys == 0) return Status::ok();  // nothing to label (a default-constructed mesh included)
    const auto np = static_cast<size_t>(mesh.npolys);
    if (mesh.npolys < 0 || mesh.nislands < 0 || mesh.poly_island.size() != np || mesh.flags.size() != np ||
        mesh.poly_first.size() != np + 1)
        return Status::bad_input(std::string(what) + ": the navmesh has no island labels for its " +
                                 std::to_string(mesh.npolys) + " polygons (build it with build_navmesh)");
    for (uint32_t isl : mesh.poly_island)
        if (isl >= static_cast<uint32_t>(mesh.nislands))
            return Status::bad_input(std::string(what) + ": island id " + std::to_string(isl) + " out of range (" +
                                     std::to_string(mesh.nislands) + " islands)");
    return Status::ok();
}

}  // namespace

AgentTypeUse agent_type_use(const NavMesh& mesh, int agent_type) {
    AgentTypeUse u;
    QueryFilter f;
    f.agent_type = agent_type;
    const uint16_t bit = f.type_bit();
    const auto np = static_cast<uint32_t>(mesh.npolys);
    if (mesh.types.size() != np || mesh.poly_first.size() != size_t{np} + 1) return u;
    auto uses = [&](uint32_t p) { return (mesh.types[p] & bit) != 0; };
    std::vector<uint8_t> seen(np, 0);
    std::vector<uint32_t> stack;
    for (uint32_t p = 0; p < np; ++p) {
        if (!uses(p)) continue;
        ++u.polys;
        const uint32_t e0 = mesh.poly_first[p], e1 = mesh.poly_first[p + 1];
        double a2 = 0;  // shoelace over the xz polygon
        for (uint32_t e = e0; e < e1; ++e) {
            const float* v0 = &mesh.verts[size_t{mesh.edge_vert[e]} * 3];
            const float* v1 = &mesh.verts[size_t{mesh.edge_vert[e + 1 < e1 ? e + 1 : e0]} * 3];
            a2 += double(v0[0]) * v1[2] - double(v1[0]) * v0[2];
        }
        u.area += std::fabs(a2) * 0.5;
        if (seen[p]) continue;
        ++u.islands;
        seen[p] = 1;
        stack.assign(1, p);
        while (!stack.empty()) {
            const uint32_t q = stack.back();
            stack.pop_back();
            for (uint32_t e = mesh.poly_first[q]; e < mesh.poly_first[q + 1]; ++e) {
                const uint32_t n = mesh.edge_nei[e];
                if (n >= np || seen[n] || !uses(n)) continue;
                seen[n] = 1;
                stack.push_back(n);
            }
        }
    }
    return u;
}

Status island_stats(const NavMesh& mesh, std::vector<IslandStats>& out) {
    out.clear();
    if (Status s = check_labels(mesh, "island_stats"); !s) return s;
    out.assign(static_cast<size_t>(mesh.nislands), IslandStats{});
    for (uint32_t p = 0; p < static_cast<uint32_t>(mesh.npolys); ++p) {
        IslandStats& s = out[mesh.poly_island[p]];
        ++s.polys;
        if (mesh.flags[p] & kPolyFlagDisabled) ++s.disabled;
        s.area += mesh.poly_area_xz(p);
    }
    return Status::ok();
}

Status prune_unreachable(NavMesh& mesh, PolyRef keep, PruneStats* stats) {
    if (Status s = check_labels(mesh, "prune_unreachable"); !s) return s;
    const uint32_t keep_poly = mesh.poly_index(keep);
    if (keep_poly == kNoPoly)
        return Status::bad_input("prune_unreachable: polygon reference " + std::to_string(keep.value()) +
                                 " is out of range or stale (" + std::to_string(mesh.npolys) + " polygons)");
    // build_navmesh floods the same portal graph to label islands, so "reachable from keep_poly"
    // is "on keep_poly's island": one pass over the labels instead of a second flood.
    PruneStats st;
    st.island = mesh.poly_island[keep_poly];
    for (uint32_t p = 0; p < static_cast<uint32_t>(mesh.npolys); ++p) {
        if (mesh.poly_island[p] == st.island) {
            mesh.flags[p] = static_cast<uint16_t>(mesh.flags[p] & ~kPolyFlagDisabled);
            ++st.kept;
        } else {
            mesh.flags[p] = static_cast<uint16_t>(mesh.flags[p] | kPolyFlagDisabled);
            ++st.disabled;
        }
    }
    if (stats) *stats = st;
    return Status::ok();
}

std::shared_ptr<const NavMesh> prune_at(const std::shared_ptr<const NavMesh>& unpruned,
                                        const std::optional<std::array<float, 3>>& point, PruneOutcome& out) {
    out = PruneOutcome{};
    out.point = point;
    if (!point) return unpruned;
    if (!unpruned || unpruned->empty()) {
        out.message = "Not pruned: no navmesh yet (the prune applies once the navmesh step has run).";
        return unpruned;
    }
    const auto t0 = std::chrono::steady_clock::now();
    QueryFilter any;  // any polygon may be the kept one, whatever its flags
    any.exclude_flags = 0;
    NavQuery query;
    query.init(unpruned.get());
    NearestPoly hit;
    const std::array<float, 3>& at = *point;
    if (Status st = query.find_nearest_poly(at.data(), kPickHalfExtents, any, hit); !st) {
        out.message = "Not pruned: " + st.message;
        return unpruned;
    }
    if (hit.poly == kNoRef) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "Not pruned: no navmesh polygon within %.0f m (%.0f m up or down) of (%.2f, %.2f, %.2f).",
                      kPickHalfExtents[0], kPickHalfExtents[1], at[0], at[1], at[2]);
        out.message = buf;
        return unpruned;
    }
    auto mesh = std::make_shared<NavMesh>(*unpruned);  // the tiles are shared, not copied
    PruneStats stats{};
    if (Status st = prune_unreachable(*mesh, hit.poly, &stats); !st) {
        out.message = "Not pruned: " + st.message;
        return unpruned;
    }
    out.applied = true;
    out.stats = stats;
    out.kept_poly = mesh->poly_index(hit.poly);
    out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return mesh;
}

}  // namespace nav
