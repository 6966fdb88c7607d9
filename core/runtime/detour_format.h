// Detour's navmesh files, read and written by our own code (no Detour linked): the tile data that
// Detour's dtCreateNavMeshData makes (format DNAV, version 7, 32-bit polygon references, the
// layout of Debian's Detour 1.5.1 on x86-64 and any little-endian 64-bit platform), and RecastDemo's
// all-tiles file (MSET, version 1: the navmesh parameters, then each tile's reference, size and
// data). Part of the runtime: a game loads a navmesh file with the runtime library alone.
//
// Writing: the bake (core/formats/detour_export.h) fills a DetourTileSource from its polygon and
// detail meshes, as a Recast user fills dtNavMeshCreateParams; write_detour_tile makes the exact
// bytes dtCreateNavMeshData makes from the same input.
// Reading: every size, count, offset and index is checked against the bytes present before it is
// used; a bad file gets Status::bad_input naming what is wrong and its byte offset.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/common.h"
#include "core/runtime/tile.h"

namespace nav {

constexpr int kDetourVertsPerPoly = 6;  // DT_VERTS_PER_POLYGON: Detour's polygons have at most 6 vertices
constexpr int kDetourVersion = 7;       // DT_NAVMESH_VERSION
constexpr int kMsetVersion = 1;         // RecastDemo's NAVMESHSET_VERSION

// dtNavMeshCreateParams, field for field, as flat arrays the caller owns (borrowed, not copied).
struct DetourTileSource {
    // Polygon mesh (rcPolyMesh's layout): vertices in voxel units relative to bmin, polygons of
    // 2 * nvp entries (vertex indices then neighbours, 0xffff = unused; a neighbour 0x8000 | dir
    // is a tile-border portal, dir 0..3 as Recast writes it, 0xf a plain border).
    const uint16_t* verts = nullptr;
    int vert_count = 0;
    const uint16_t* polys = nullptr;
    const uint16_t* poly_flags = nullptr;
    const uint8_t* poly_areas = nullptr;
    int poly_count = 0;
    int nvp = 6;
    // Detail mesh (rcPolyMeshDetail's layout): per polygon vert_base, vert_count, tri_base,
    // tri_count; world vertices; triangles of 3 local indices + edge flags. May be absent
    // (detail_meshes null): Detour then makes one fan per polygon.
    const uint32_t* detail_meshes = nullptr;
    const float* detail_verts = nullptr;
    int detail_vert_count = 0;
    const uint8_t* detail_tris = nullptr;
    int detail_tri_count = 0;
    // Off-mesh connections (may be none).
    const float* offmesh_verts = nullptr;   // 6 per connection: start x, y, z, end x, y, z
    const float* offmesh_rad = nullptr;
    const uint16_t* offmesh_flags = nullptr;
    const uint8_t* offmesh_areas = nullptr;
    const uint8_t* offmesh_dir = nullptr;    // 1 = both ways (DT_OFFMESH_CON_BIDIR)
    const uint32_t* offmesh_user_id = nullptr;
    int offmesh_count = 0;
    // Tile.
    uint32_t user_id = 0;
    int tile_x = 0, tile_y = 0, tile_layer = 0;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
    // Agent, metres.
    float walkable_height = 0, walkable_radius = 0, walkable_climb = 0;
    float cs = 0, ch = 0;
    bool build_bv_tree = true;
};

// The bytes of one Detour tile (what dtCreateNavMeshData returns), or bad_input naming the field
// out of Detour's range (more than 6 vertices a polygon, more than 0xffff vertices, ...).
Status write_detour_tile(const DetourTileSource& src, std::vector<uint8_t>& out);

// dtNavMeshParams.
struct DetourMeshParams {
    float orig[3] = {0, 0, 0};
    float tile_width = 0, tile_height = 0;
    int max_tiles = 0, max_polys = 0;
};

// One tile of an MSET file: the reference Detour's dtNavMesh gave it (RecastDemo stores
// getTileRef) and its data.
struct DetourTileBytes {
    uint32_t ref = 0;
    std::vector<uint8_t> data;
};

// RecastDemo's all-tiles file, in memory.
struct DetourMeshFile {
    DetourMeshParams params;
    std::vector<DetourTileBytes> tiles;
};

// The reference dtNavMesh::addTile gives the i-th tile added to a fresh navmesh with these
// parameters (salt 1, tile index i): what RecastDemo's save writes for a mesh built in one go.
uint32_t detour_tile_ref(const DetourMeshParams& params, int i);
// bad_input when max_tiles and max_polys need more than the 22 bits of a 32-bit reference that
// dtNavMesh::init leaves beside a salt of at least 10 bits (it would refuse the navmesh).
Status check_detour_mesh_params(const DetourMeshParams& params);
// The navmesh parameters RecastDemo uses for tiles of `tile_width` x `tile_height` metres from
// `orig`: max_tiles and max_polys from the tile count and the largest tile's polygon count.
DetourMeshParams detour_mesh_params(const float orig[3], float tile_width, float tile_height, int tile_count,
                                    int max_polys_per_tile);

// The MSET file's bytes (header, params, then per tile: reference, size, data).
void write_mset(const DetourMeshFile& file, std::vector<uint8_t>& out);

// Parses an MSET file or a single tile's data (told apart by the magic). Checks the layout, not
// the tiles' contents (read_detour_tile does). `what` names the source in messages ("dungeon.bin").
Status read_detour_file(const uint8_t* data, size_t size, const std::string& what, DetourMeshFile& out);

// One tile's data into our tile type: polygons, neighbours and portals, areas and flags, detail
// triangles in world coordinates, off-mesh connections as links (the BV tree is checked, then left
// out: Detour's is quantized and padded; the NavMesh builds an exact one). Every count and
// index checked; messages say what and at which byte offset (`what` names the source, and
// `base_offset` is where the tile starts in its file).
Status read_detour_tile(const uint8_t* data, size_t size, const std::string& what, size_t base_offset,
                        NavTile& out);

}  // namespace nav
