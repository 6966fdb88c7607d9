// Writes the bake's layers as glTF 2.0 so other tools (Blender, a browser viewer) can open them
// together: one NAMED node per layer (input, regions, contours, polymesh, detail, path), each a
// mesh with vertex colours (COLOR_0) and one TRIANGLES or LINES primitive. World coordinates, Y up,
// metres (glTF's convention is ours). `.glb` is written binary, any other name as JSON with the
// buffer embedded (a data: URI). Used by a tool's --gltf-out and a viewer's export.
//
// The encoder (tinygltf, header-only, compiled into gltf_export.cpp) is private to the bake
// library: nothing here names a tinygltf type, and the runtime never sees it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common.h"
#include "core/bake/areas.h"
#include "core/bake/contours.h"
#include "core/bake/detail.h"
#include "core/bake/input.h"
#include "core/bake/polymesh.h"
#include "core/bake/regions.h"

namespace nav {

struct Bake;

// One layer: a node and its mesh, both named `name`. Colours are sRGB bytes r | g << 8 | b << 16
// | a << 24 (as render's rgba() packs them); the encoder stores them as glTF wants, linear, alpha 255.
struct GltfLayer {
    std::string name;
    bool lines = false;            // LINES (2 indices a segment), else TRIANGLES (3 a triangle)
    std::vector<float> positions;  // x, y, z per vertex
    std::vector<uint32_t> colors;  // one per vertex
    std::vector<uint32_t> indices;
    size_t vertex_count() const { return positions.size() / 3; }
    bool empty() const { return indices.empty(); }
};

// Colours by region id, by area id and by polygon index: the bake's one palette (core/bake/palette.h)
// and the area table's colours, a viewer's too, so a file looks as the viewer's view does.
struct GltfPalette {
    uint32_t (*region)(uint16_t id);
    std::array<uint32_t, 256> area;  // by area id
    uint32_t (*polygon)(uint32_t index);
};
// The palette with `areas`' colours (AreaTable::color_of, opaque).
GltfPalette gltf_palette(const AreaTable& areas);

// The layer builders append to `out` (so a tiled bake's tiles go into one node each layer).
// Input triangles, 3 vertices each (unshared: the colour is per triangle): area colour of the
// triangle's area when tri_areas has one per triangle, else kWalkableArea's.
void append_gltf_input(const InputMesh& mesh, const std::vector<uint8_t>* tri_areas, const GltfPalette& pal, GltfLayer& out);
// Regions: the floor of every span in a region (id != 0, not in a tile border) as a cell-sized
// quad (4 vertices, 2 triangles) in the region's colour.
void append_gltf_regions(const CompactHeightfield& chf, const Regions& regions, const GltfPalette& pal, GltfLayer& out);
// Contours, each a closed loop of LINES in the region's colour, at the floor height: the
// simplified ones, or with `raw` the raw boundaries (a viewer's raw-contour layer; a hole
// merged into its outline has only those). A loop of fewer than 2 vertices is left out, as a
// viewer's drawing leaves it.
void append_gltf_contours(const ContourSet& cset, const GltfPalette& pal, GltfLayer& out, bool raw = false);
// Polygons as triangle fans (n vertices, n - 2 triangles each, vertices unshared: the colour is
// the polygon's area colour), at the floor height, in stored order.
void append_gltf_polymesh(const PolyMesh& pm, const GltfPalette& pal, GltfLayer& out);
// The detail triangles (its vertices as they are), tinted per polygon (pal.polygon).
void append_gltf_detail(const PolyMeshDetail& dm, const GltfPalette& pal, GltfLayer& out);
// A polyline (x, y, z per point) as LINES, magenta. Fewer than 2 points: nothing.
void append_gltf_path(const std::vector<float>& points, GltfLayer& out);

// Which layers gltf_bake_layers takes (each only when the bake holds its stage's result).
struct GltfBakeLayers {
    bool input = true, regions = true, contours = true, polymesh = true, detail = true;
    bool raw_contours = false;  // node "raw_contours": the raw boundaries (a viewer's raw-contour layer)
    const std::vector<float>* path = nullptr;  // the path's points, x, y, z each; null: no path node
};
// glTF counts a buffer's bytes in 32 bits (a GLB chunk's length too): the most a file may hold,
// with room left for the JSON chunk.
constexpr uint64_t kGltfMaxBuffer = 0xffffffffull - (uint64_t(1) << 20);

// The buffer bytes gltf_bake_layers would fill for `which` (counted from the bake's sizes, nothing
// built): what the size check reads before anything is allocated.
uint64_t gltf_bake_bytes(const Bake& bake, const GltfBakeLayers& which);
// The layers of a bake in the order input, regions, contours, raw_contours, polymesh, detail, path, the empty
// ones left out. A solo bake gives its own results; a tiled bake the results its tiles still hold,
// every tile's into one layer (regions and contours: each tile's own grid, border spans left out).
// Refused (BadInput, nothing built) when gltf_bake_bytes passes kGltfMaxBuffer.
Status gltf_bake_layers(const Bake& bake, const GltfBakeLayers& which, std::vector<GltfLayer>& out);

// The glTF file of `layers` (empty layers left out; none at all is refused) as bytes: GLB when
// binary, else JSON with the buffer as a base64 data: URI. Refused (BadInput) when the buffer
// would pass glTF's 4 GiB (a GLB chunk's length is 32 bits).
Status encode_gltf(const std::vector<GltfLayer>& layers, bool binary, std::string& out);
// encode_gltf, binary when the path ends in .glb (any case), written through OutputFile.
Status write_gltf(const std::string& path, const std::vector<GltfLayer>& layers);

}  // namespace nav
