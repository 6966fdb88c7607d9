// 2D maps: the polygon mesh of a 2D map, and Polyanya's `.mesh` file format, version 2
// (Cui, Harabor, Grastien; read and written).
//
// The format: line 1 "mesh", line 2 "2", line 3 "V P", then V vertex lines
// "x y n p_1 .. p_n" (the n polygons around the vertex, counter-clockwise, -1 where an obstacle
// or the outside touches it), then P polygon lines "n v_1 .. v_n p_1 .. p_n" (vertices
// counter-clockwise; in version 2 p_i is the polygon across the edge v_(i-1) -> v_i, -1 for none).
// Our in-memory neighbour of edge slot i is the polygon across v_i -> v_(i+1).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/common.h"

namespace nav::map2d {

constexpr uint32_t kNoPoly2 = UINT32_MAX;

// Convex polygons in the (x, z) plane, counter-clockwise, as flat arrays.
struct PolyMesh2D {
    std::vector<double> xz;            // 2 per vertex
    std::vector<uint32_t> poly_first;  // npolys + 1; polygon p owns slots [poly_first[p], poly_first[p+1])
    std::vector<uint32_t> poly_verts;  // per slot: vertex
    std::vector<uint32_t> poly_nei;    // per slot i: polygon across the edge slot i -> slot i+1, or kNoPoly2

    uint32_t npolys() const { return poly_first.empty() ? 0 : uint32_t(poly_first.size() - 1); }
    uint32_t nverts() const { return uint32_t(xz.size() / 2); }
};

// Recomputes poly_nei from shared edges (an edge used by more than two polygons, or twice in the
// same direction, is an error).
Status link_polygons(PolyMesh2D& m);

// Reads a version 2 .mesh from text; `name` prefixes error messages ("name:line: what").
Status parse_polyanya_mesh(const std::string& text, const std::string& name, PolyMesh2D& out);
// Reads the file through read_input_file: regular files or pipes, at most max_bytes (a tool's --max-input).
Status read_polyanya_mesh(const std::string& path, PolyMesh2D& out, uint64_t max_bytes = uint64_t(1) << 30);
std::string format_polyanya_mesh(const PolyMesh2D& m);
// Writes through nav::OutputFile (a temporary file, flushed, closed, checked, renamed into place).
Status write_polyanya_mesh(const std::string& path, const PolyMesh2D& m);

}  // namespace nav::map2d
