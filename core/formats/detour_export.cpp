// The bake's navmesh as Detour's files (see detour_export.h).
#include "core/formats/detour_export.h"

#include <algorithm>
#include <string>

#include "core/pipeline/pipeline.h"
#include "core/runtime/tile.h"

namespace nav {

Status detour_tile_source(const PolyMesh& mesh, const PolyMeshDetail& detail, const Params& params, int tx, int ty,
                          std::vector<uint16_t>& flags, DetourTileSource& out, const AreaFlagTable* area_flags,
                          const uint8_t* disabled, const uint16_t* type_bits) {
    out = DetourTileSource{};
    if (mesh.nvp > kDetourVertsPerPoly)
        return Status::bad_input("detour export: verts_per_poly is " + std::to_string(mesh.nvp) +
                                 "; Detour's polygons have at most " + std::to_string(kDetourVertsPerPoly) +
                                 " vertices (bake with verts_per_poly <= 6 to write a Detour navmesh)");
    const size_t np = static_cast<size_t>(mesh.npolys);
    if (mesh.polys.size() < np * 2 * static_cast<size_t>(mesh.nvp) || mesh.areas.size() < np ||
        mesh.verts.size() < static_cast<size_t>(mesh.nverts) * 3)
        return Status::bad_input("detour export: polygon mesh arrays are shorter than its counts");
    flags.resize(np);
    for (size_t i = 0; i < np; ++i) {
        const uint16_t f = i < mesh.flags.size() ? mesh.flags[i] : 0;
        // as make_nav_tile gives the runtime's tiles (an area whose flags are 0 passes no filter)
        flags[i] = f ? f : area_flags ? (*area_flags)[mesh.areas[i] & 0x3f] : kPolyFlagDefault;
        if (disabled && disabled[i]) flags[i] = static_cast<uint16_t>(flags[i] | kPolyFlagDisabled);
        if (type_bits && mesh.types.size() == np)  // the agent types' bits (agent_type_flag_bits)
            for (int t = 0; t < 16; ++t)
                if (mesh.types[i] & (1u << t)) flags[i] = static_cast<uint16_t>(flags[i] | type_bits[t]);
    }
    out.verts = mesh.verts.data();
    out.vert_count = mesh.nverts;
    out.polys = mesh.polys.data();
    out.poly_flags = flags.data();
    out.poly_areas = mesh.areas.data();
    out.poly_count = mesh.npolys;
    out.nvp = mesh.nvp;
    if (detail.nmeshes > 0) {
        if (detail.nmeshes != mesh.npolys || detail.meshes.size() < np * 4 ||
            detail.verts.size() < static_cast<size_t>(detail.nverts) * 3 ||
            detail.tris.size() < static_cast<size_t>(detail.ntris) * 4)
            return Status::bad_input("detour export: the detail mesh does not match the polygon mesh (" +
                                     std::to_string(detail.nmeshes) + " sub-meshes for " +
                                     std::to_string(mesh.npolys) + " polygons)");
        out.detail_meshes = detail.meshes.data();
        out.detail_verts = detail.verts.data();
        out.detail_vert_count = detail.nverts;
        out.detail_tris = detail.tris.data();
        out.detail_tri_count = detail.ntris;
    }
    out.tile_x = tx;
    out.tile_y = ty;
    out.tile_layer = 0;
    for (int k = 0; k < 3; ++k) {
        out.bmin[k] = mesh.bmin[k];
        out.bmax[k] = mesh.bmax[k];
    }
    out.walkable_height = params.f(ParamId::agent_height);
    out.walkable_radius = params.f(ParamId::agent_radius);
    out.walkable_climb = params.f(ParamId::agent_max_climb);
    out.cs = mesh.cs;
    out.ch = mesh.ch;
    out.build_bv_tree = true;
    return Status::ok();
}

Status write_detour_bake_tile(const PolyMesh& pm, const PolyMeshDetail& dm, const Params& params, int tx, int ty,
                              std::vector<uint8_t>& data, const AreaFlagTable* area_flags, const uint8_t* disabled,
                              const uint16_t* type_bits) {
    std::vector<uint16_t> flags;
    DetourTileSource src;
    Status st = detour_tile_source(pm, dm, params, tx, ty, flags, src, area_flags, disabled, type_bits);
    if (st) st = write_detour_tile(src, data);
    if (!st) st.message = "tile " + std::to_string(tx) + "," + std::to_string(ty) + ": " + st.message;
    return st;
}

namespace {

// A pruned bake's disabled polygons of tile (tx, tz), one byte per polygon of its polygon mesh
// (make_nav_tile keeps them in order), in `out`; null when the bake is not pruned.
const uint8_t* pruned_polys(const Bake& b, int tx, int tz, int npolys, std::vector<uint8_t>& out) {
    if (!b.prune.applied || !b.navmesh) return nullptr;
    const NavMesh& nm = *b.navmesh;
    const int slot = nm.find_slot(tx, tz, 0);
    if (slot < 0) return nullptr;
    const TileSlot& s = nm.slots[static_cast<size_t>(slot)];
    if (!s.tile || s.tile->npolys() != npolys) return nullptr;
    out.assign(static_cast<size_t>(npolys), 0);
    for (int i = 0; i < npolys; ++i) out[static_cast<size_t>(i)] = (nm.flags[s.poly_base + static_cast<uint32_t>(i)] & kPolyFlagDisabled) != 0;
    return out.data();
}

}  // namespace

Status detour_type_bits(const Bake& b, std::array<uint16_t, kMaxAgentTypes>& bits, const uint16_t*& out) {
    out = nullptr;
    if (b.inputs.agent_types.size() < 2) return Status::ok();
    if (Status st = agent_type_flag_bits(b.inputs.agent_types, b.inputs.areas, bits); !st) {
        st.message = "detour export: " + st.message;
        return st;
    }
    out = bits.data();
    return Status::ok();
}

Status make_detour_mesh(const Bake& b, DetourMeshFile& out) {
    out = DetourMeshFile{};
    std::vector<uint8_t> disabled;
    if (b.partial) return Status::bad_input("detour export: the bake is still running (a partial snapshot)");
    std::array<uint16_t, kMaxAgentTypes> bit_table{};
    const uint16_t* type_bits = nullptr;
    if (Status st = detour_type_bits(b, bit_table, type_bits); !st) return st;
    if (!b.tiled()) {
        if (!b.polymesh || !b.detail)
            return Status::bad_input("detour export: the bake has no polygon and detail meshes (not built)");
        const PolyMesh& pm = *b.polymesh;
        if (pm.npolys == 0) return Status::bad_input("detour export: the navmesh has no polygons");
        DetourTileBytes t;
        Status st = write_detour_bake_tile(pm, *b.detail, b.inputs.params, 0, 0, t.data, &b.area_flags,
                                           pruned_polys(b, 0, 0, pm.npolys, disabled), type_bits);
        if (!st) return st;
        // dtNavMesh::init(data, ...): the tile's own box is the grid, one tile of its polygons.
        DetourMeshParams& p = out.params;
        for (int k = 0; k < 3; ++k) p.orig[k] = pm.bmin[k];
        p.tile_width = pm.bmax[0] - pm.bmin[0];
        p.tile_height = pm.bmax[2] - pm.bmin[2];
        p.max_tiles = 1;
        p.max_polys = pm.npolys;
        t.ref = detour_tile_ref(p, 0);
        out.tiles.push_back(std::move(t));
        return check_detour_mesh_params(p);
    }
    const TileLayout& L = b.layout;
    if (b.tiles.size() != static_cast<size_t>(L.count()))
        return Status::bad_input("detour export: the tiled bake is not complete (" + std::to_string(b.tiles.size()) +
                                 " of " + std::to_string(L.count()) + " tiles)");
    int max_polys = 1;
    for (size_t i = 0; i < b.tiles.size(); ++i) {
        const TileBake* tb = b.tiles[i].get();
        if (!tb || !tb->polymesh || !tb->detail)
            return Status::bad_input("detour export: tile " + std::to_string(i % static_cast<size_t>(L.cols)) + "," +
                                     std::to_string(i / static_cast<size_t>(L.cols)) +
                                     " has no polygon and detail meshes (not built)");
        max_polys = std::max(max_polys, tb->polymesh->npolys);
    }
    const float tile_metres = static_cast<float>(L.tile_size) * b.config.cs;
    out.params = detour_mesh_params(b.config.bmin, tile_metres, tile_metres, L.count(), max_polys);
    Status st = check_detour_mesh_params(out.params);
    if (!st) return st;
    // Sample_TileMesh adds only tiles with polygons, in build order: they take slots 0, 1, 2, ...
    for (const auto& tp : b.tiles) {
        if (tp->polymesh->npolys == 0) continue;
        DetourTileBytes t;
        st = write_detour_bake_tile(*tp->polymesh, *tp->detail, b.inputs.params, tp->tx, tp->tz, t.data, &b.area_flags,
                                    pruned_polys(b, tp->tx, tp->tz, tp->polymesh->npolys, disabled), type_bits);
        if (!st) return st;
        t.ref = detour_tile_ref(out.params, static_cast<int>(out.tiles.size()));
        out.tiles.push_back(std::move(t));
    }
    if (out.tiles.empty()) return Status::bad_input("detour export: the navmesh has no polygons");
    return Status::ok();
}

}  // namespace nav
