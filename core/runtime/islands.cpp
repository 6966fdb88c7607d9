// Islands of the runtime navmesh (see islands.h).
#include "core/runtime/islands.h"

#include <string>

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

}  // namespace nav
