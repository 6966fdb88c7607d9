// The bake's navmesh as Detour's files (core/runtime/detour_format.h): each tile's polygon and
// detail meshes become a DetourTileSource, filled as RecastDemo's Sample_SoloMesh and
// Sample_TileMesh fill dtNavMeshCreateParams, and a whole bake becomes an MSET file in memory.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/bake/areas.h"
#include "core/bake/detail.h"
#include "core/pipeline/params.h"
#include "core/bake/polymesh.h"
#include "core/pipeline/agent_types.h"
#include "core/common.h"
#include "core/runtime/detour_format.h"

namespace nav {

struct Bake;

// Fills `out` (pointers into mesh, detail and flags) for the tile at (tx, ty). Polygon flags are
// the runtime's (make_nav_tile's): a polygon without flags of its own takes its area's flags from
// `area_flags` (the bake's area table), kPolyFlagDefault without a table (stored in `flags`, which
// must outlive `out`), so Detour's query filters pass the polygons ours do. Walkable height, radius and
// climb are the agent's in metres (params), as RecastDemo passes them. No off-mesh connections;
// the BV tree is built. bad_input when verts_per_poly is over 6 (Detour's polygon limit);
// write_detour_tile refuses a tile of more than 32767 polygons. `disabled` (may be null): one
// byte per polygon, nonzero where the runtime navmesh has it pruned (Bake::prune): that polygon
// gets kPolyFlagDisabled too. `type_bits` (may be null; 16 entries): with the polygon mesh's agent
// types (PolyMesh::types), each polygon also gets type t's bit for every type t it carries
// (agent_type_flag_bits), so a Detour game filters by type with includeFlags = that bit.
Status detour_tile_source(const PolyMesh& mesh, const PolyMeshDetail& detail, const Params& params, int tx, int ty,
                          std::vector<uint16_t>& flags, DetourTileSource& out, const AreaFlagTable* area_flags = nullptr,
                          const uint8_t* disabled = nullptr, const uint16_t* type_bits = nullptr);

// detour_tile_source then write_detour_tile: one tile's bytes; messages start "tile X,Y: ".
Status write_detour_bake_tile(const PolyMesh& mesh, const PolyMeshDetail& detail, const Params& params, int tx, int ty,
                              std::vector<uint8_t>& data, const AreaFlagTable* area_flags = nullptr,
                              const uint8_t* disabled = nullptr, const uint16_t* type_bits = nullptr);

// The agent types' flag bits of a bake (agent_type_flag_bits on its inputs), in `bits`; `out`
// points at them, or is null when the bake has fewer than two types. Messages start "detour export: ".
Status detour_type_bits(const Bake& bake, std::array<uint16_t, kMaxAgentTypes>& bits, const uint16_t*& out);

// The whole bake as RecastDemo's MSET: a solo bake is one tile at (0, 0) with the parameters
// dtNavMesh::init(data) derives from it (origin its bmin, tile size its extent, one tile, as many
// polygons as it has); a tiled bake has every tile with polygons in the bake's tile order (x
// fastest), the origin the bake's bmin, tiles of tile_size * cs metres and max_tiles / max_polys
// as Sample_TileMesh computes them (detour_mesh_params). Each tile's reference is the one a fresh
// dtNavMesh gives it (detour_tile_ref). bad_input when the bake is not complete through the
// detail stage or a tile cannot be written. A pruned bake (Bake::prune applied) writes its
// disabled polygons with kPolyFlagDisabled, as its runtime navmesh has them.
Status make_detour_mesh(const Bake& bake, DetourMeshFile& out);

}  // namespace nav
