// Stage 0: the input triangle mesh, its validation, and per-triangle walkable marking by slope.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/common.h"
#include "core/io/file.h"

namespace nav {

struct InputMesh {
    std::string path;          // where it came from ("" when built in memory)
    std::vector<float> verts;  // x,y,z per vertex
    std::vector<int> tris;     // 3 vertex indices per triangle
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
    std::vector<std::string> warnings;  // what the reader noticed and left out (unused far vertices)
    // Which mesh of the file each triangle came from, for the inspector: tri_mesh[t] indexes
    // mesh_names. Both empty when the reader keeps no names (OBJ, meshes built in memory); else
    // tri_mesh has one entry a triangle.
    std::vector<uint32_t> tri_mesh;
    std::vector<std::string> mesh_names;

    int vert_count() const { return static_cast<int>(verts.size() / 3); }
    int tri_count() const { return static_cast<int>(tris.size() / 3); }
    // Bounds of the vertices the triangles use (all vertices when there is no triangle): a stray
    // vertex no face references must not stretch the grid.
    void compute_bounds();
    // The name of triangle t's mesh and t's number within that mesh (counted in file order), or
    // nullptr when the mesh keeps no names.
    const std::string* tri_mesh_name(int t, int* index_in_mesh = nullptr) const;
};

// Faces with more vertices are refused (ear clipping is quadratic in the face size).
constexpr int kMaxFaceVerts = 1024;

struct ObjReadOptions {
    // Files (or streams) longer than this are refused before being read whole. 1 GiB: real levels
    // are tens of megabytes.
    uint64_t max_bytes = uint64_t(1) << 30;
};

// Loads a Wavefront OBJ and validates it. Regular files and streams (pipes) only: a directory or
// a device is refused. Errors name the file, the line when there is one, and what was expected.
Status load_obj(const std::string& path, InputMesh& out, const ObjReadOptions& opt = {});
// The reader itself, on text in memory (`path` names it in messages): one pass decides what each
// line means. A UTF-8 BOM is skipped; lines end at \n, \r\n or a lone \r. 'v' takes three decimal
// numbers (hex floats, nan and inf are refused, |x| <= kMaxCoordinate); 'f' takes at least three
// integer vertex indices (1-based, or negative relative), each optionally followed by /vt/vn;
// triangles are kept, quads split along the shorter diagonal, larger polygons ear-clipped. Other
// lines (vt, vn, g, o, s, usemtl, mtllib, l, comments, unknown keywords) are skipped.
Status parse_obj(std::string_view text, const std::string& path, InputMesh& out);
// One line of a path-pairs file: "sx sy sz ex ey ez", decimal numbers within kMaxCoordinate, an
// optional '#' comment; blank and comment-only lines give has_pair = false. Errors name
// path:line_no.
Status parse_pair_line(std::string_view line, const std::string& path, long line_no, float s[3], float e[3],
                       bool& has_pair);

// Finite coordinates within kMaxCoordinate, at least one triangle, indices in range, and at least
// one triangle with an area (a mesh whose vertices are all identical or collinear is refused as
// degenerate). `what` prefixes messages.
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

// The coordinate limit (kMaxCoordinate) on the mesh the stages read, after the mesh fix: names
// mesh_scale (`scale`), the vertex that leaves the limit and the largest scale that keeps it.
Status check_fixed_mesh(const InputMesh& fixed, float scale);

// Marks triangles whose slope is at most max_slope_deg as kWalkableArea, others kNullArea.
// Degenerate (zero-area) triangles are not walkable.
void mark_walkable_triangles(float max_slope_deg, const float* verts, const int* tris, int ntris,
                             uint8_t* tri_areas);

}  // namespace nav
