// Stage 10: the detail mesh. Per polygon: sample the hull edges and add points where the height
// error exceeds sample_max_error, Delaunay-triangulate, then sample the interior on a sample_dist
// grid adding the worst point until within error. Heights come from the compact heightfield.
#pragma once
#include <cstdint>
#include <vector>

#include "core/bake/compact.h"
#include "core/bake/polymesh.h"

namespace nav {

struct PolyMeshDetail {
    std::vector<uint32_t> meshes;  // per polygon: vert_base, vert_count, tri_base, tri_count
    std::vector<float> verts;      // x, y, z world coordinates
    std::vector<uint8_t> tris;     // per triangle: 3 local vertex indices, then edge flags
    int nmeshes = 0, nverts = 0, ntris = 0;
};

// sample_dist and sample_max_error in world units (cs * detail_sample_dist, ch *
// detail_sample_max_error, as the pipeline derives them; sample_dist < 0.9*cs means no sampling).
Status build_poly_mesh_detail(const PolyMesh& mesh, const CompactHeightfield& chf, const Regions& regions,
                              float sample_dist, float sample_max_error, PolyMeshDetail& out,
                              const CancelFlag* cancel = nullptr);

}  // namespace nav
