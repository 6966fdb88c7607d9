// Stage 8: contours. Walks each region's boundary on the compact heightfield (raw contour), then
// simplifies it to edge_max_error, splits long wall / area-border edges at edge_max_len, removes
// degenerate segments, and merges holes into their outline.
#pragma once
#include <cstdint>
#include <vector>

#include "core/bake/compact.h"
#include "core/bake/regions.h"

namespace nav {

// Bits of a contour vertex's 4th int. The low 16 bits hold the region on the other side of the
// edge that starts at this vertex (0 = none/wall).
constexpr int32_t kContourRegMask = 0xffff;
constexpr int32_t kBorderVertex = 0x10000;  // on the tile border; removed by the polymesh stage
constexpr int32_t kAreaBorder = 0x20000;    // the edge starting here separates two area ids

// Which edges the simplifier may split at max_edge_len.
enum ContourTessFlags : int { kTessWallEdges = 1, kTessAreaEdges = 2 };

// A hole merged into its outline stays in the set with its raw loop and nverts == 0 (as Recast
// keeps it), so a caller can still draw it; count and draw simplified contours with nverts > 0.
struct Contour {
    uint32_t vert_start = 0, nverts = 0;  // into ContourSet::verts, 4 ints per vertex
    uint32_t raw_start = 0, nraw = 0;     // into ContourSet::raw_verts, 4 ints per vertex
    uint16_t reg = 0;
    uint8_t area = 0;
};

struct ContourSet {
    std::vector<Contour> contours;
    std::vector<int32_t> verts;      // simplified: x, y, z (voxel units; x,z are cell corners), flags
    std::vector<int32_t> raw_verts;  // raw boundary, same layout
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
    float cs = 0.3f, ch = 0.2f;
    int width = 0, height = 0, border_size = 0;
    float max_error = 0.0f;
    std::vector<int> warnings;       // region ids whose contour had to be dropped or could not merge a hole
};

// max_error is edge_max_error as Recast takes it (the pipeline passes the parameter unchanged;
// distances are measured in cell units); max_edge_len in cells (edge_max_len / cs; 0 = no
// splitting). Outlines follow Recast's winding (the polymesh stage relies on it). Regions with the
// kBorderRegion flag or id 0 produce no contour.
Status build_contours(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, const Regions& regions,
                      float max_error, int max_edge_len, int tess_flags, ContourSet& out,
                      const CancelFlag* cancel = nullptr);

}  // namespace nav
