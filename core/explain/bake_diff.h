// What changed between two bakes: regions compared by the set of spans each covers, polygons by
// their vertex coordinates. Spans and vertices are compared in world units (quantised to a
// millimetre), so bakes with different grids (cell size, bounds) compare too. Plain functions over
// the stage results; a viewer uses them to highlight what a slider move changed.
#pragma once
#include <cstdint>
#include <vector>

#include "core/bake/compact.h"
#include "core/bake/polymesh.h"
#include "core/bake/regions.h"

namespace nav {

struct RegionDiff {
    std::vector<uint16_t> added;     // ids in the new bake whose span set matches no old region, id new
    std::vector<uint16_t> reshaped;  // ids in the new bake, present in the old one with another span set
    std::vector<uint16_t> removed;   // ids in the old bake matched by no new region and not reshaped
    int unchanged = 0;               // new regions whose span set equals an old region's (any id)
    bool empty() const { return added.empty() && reshaped.empty() && removed.empty(); }
};

// Regions: id 0 and border-flagged spans are ignored. A new region whose span set equals an old
// region's span set is unchanged even if its id differs (renumbering); otherwise it is reshaped
// when its id existed in the old bake (and that old region was not matched exactly), else added.
// Old regions left unmatched and whose id is not reused by a reshaped region are removed. Each
// list is sorted by id.
RegionDiff diff_regions(const CompactHeightfield& old_chf, const Regions& old_regions,
                        const CompactHeightfield& new_chf, const Regions& new_regions);

struct PolyDiff {
    std::vector<int> added;    // polygon indices in the new mesh with no equal polygon in the old one
    std::vector<int> removed;  // polygon indices in the old mesh with no equal polygon in the new one
    int unchanged = 0;         // polygons matched one to one
    bool empty() const { return added.empty() && removed.empty(); }
};

// Polygons are equal when they have the same vertices (world position) in the same cyclic order,
// whatever vertex they start at. Matching is one to one (a duplicate needs a duplicate). Each list
// is sorted.
PolyDiff diff_polymeshes(const PolyMesh& old_mesh, const PolyMesh& new_mesh);

}  // namespace nav
