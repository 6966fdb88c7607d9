// Stage 0: the input triangle mesh, its validation, and per-triangle walkable marking by slope.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/common.h"

namespace nav {

struct InputMesh {
    std::string path;          // where it came from ("" when built in memory)
    std::vector<float> verts;  // x,y,z per vertex
    std::vector<int> tris;     // 3 vertex indices per triangle
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};

    int vert_count() const { return static_cast<int>(verts.size() / 3); }
    int tri_count() const { return static_cast<int>(tris.size() / 3); }
    void compute_bounds();
};

// Loads a Wavefront OBJ (polygons are fan-triangulated) and validates it. Errors name the file,
// the line when there is one, and what was expected.
Status load_obj(const std::string& path, InputMesh& out);
// Finite coordinates, at least one triangle, indices in range. `what` prefixes messages.
Status validate_mesh(const InputMesh& mesh, const std::string& what);

// Fixes for a mesh made in another convention (the mesh_* parameters), applied to the loaded mesh
// before any stage reads it: uniform scale, then Z-up to Y-up, then reversed winding.
struct MeshFix {
    float scale = 1.0f;
    bool z_up = false;          // (x, y, z) -> (x, z, -y): a rotation, so winding seen from up is kept
    bool flip_winding = false;  // every triangle's second and third vertex swapped
    bool identity() const { return scale == 1.0f && !z_up && !flip_winding; }
    bool operator==(const MeshFix&) const = default;
};
// out = in with the fix applied and its bounds recomputed (out's buffers are reused).
void apply_mesh_fix(const InputMesh& in, const MeshFix& fix, InputMesh& out);

// Marks triangles whose slope is at most max_slope_deg as kWalkableArea, others kNullArea.
// Degenerate (zero-area) triangles are not walkable.
void mark_walkable_triangles(float max_slope_deg, const float* verts, const int* tris, int ntris,
                             uint8_t* tri_areas);

}  // namespace nav
