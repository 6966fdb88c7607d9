// Polygon mesh + detail mesh -> NavTile (see tile_builder.h).
#include "core/pipeline/tile_builder.h"

#include <cmath>
#include <memory>
#include <string>

namespace nav {

namespace {

Status convert(const PolyMesh& mesh, const PolyMeshDetail& detail, NavTile& out, const AreaFlagTable* area_flags) {
    const int nvp = mesh.nvp;
    if (mesh.npolys == 0) return Status::ok();
    if (nvp < 3 || nvp > kMaxVertsPerPoly) return Status::bad_input("navmesh: verts_per_poly " + std::to_string(nvp) + " out of range");
    const size_t np = static_cast<size_t>(mesh.npolys);
    if (mesh.polys.size() < np * 2 * static_cast<size_t>(nvp) || mesh.areas.size() < np ||
        mesh.verts.size() < static_cast<size_t>(mesh.nverts) * 3)
        return Status::bad_input("navmesh: polygon mesh arrays are shorter than its counts");
    if (!(mesh.cs > 0) || !(mesh.ch > 0) || !std::isfinite(mesh.bmin[0]) || !std::isfinite(mesh.bmin[1]) ||
        !std::isfinite(mesh.bmin[2]))
        return Status::bad_input("navmesh: bad cell size, cell height or bounds");
    const bool have_detail = detail.nmeshes > 0;
    if (have_detail) {
        if (detail.nmeshes != mesh.npolys)
            return Status::bad_input("navmesh: detail mesh has " + std::to_string(detail.nmeshes) + " sub-meshes for " +
                                     std::to_string(mesh.npolys) + " polygons");
        if (detail.meshes.size() < np * 4) return Status::bad_input("navmesh: detail mesh table too short");
    }

    out.verts.resize(static_cast<size_t>(mesh.nverts) * 3);
    for (int i = 0; i < mesh.nverts; ++i) {
        const uint16_t* v = &mesh.verts[static_cast<size_t>(i) * 3];
        out.verts[static_cast<size_t>(i) * 3 + 0] = mesh.bmin[0] + static_cast<float>(v[0]) * mesh.cs;
        out.verts[static_cast<size_t>(i) * 3 + 1] = mesh.bmin[1] + static_cast<float>(v[1]) * mesh.ch;
        out.verts[static_cast<size_t>(i) * 3 + 2] = mesh.bmin[2] + static_cast<float>(v[2]) * mesh.cs;
    }

    out.poly_first.resize(np + 1);
    out.areas.resize(np);
    out.flags.resize(np);
    out.poly_first[0] = 0;
    for (size_t p = 0; p < np; ++p) {
        const uint16_t* pv = &mesh.polys[p * 2 * static_cast<size_t>(nvp)];
        int n = 0;
        while (n < nvp && pv[n] != kMeshNullIdx) ++n;
        if (n < 3) return Status::bad_input("navmesh: polygon " + std::to_string(p) + " has fewer than 3 vertices");
        for (int j = 0; j < n; ++j) {
            if (pv[j] >= mesh.nverts)
                return Status::bad_input("navmesh: polygon " + std::to_string(p) + " has vertex index " + std::to_string(pv[j]) +
                                         " out of range");
            const uint16_t nb = pv[nvp + j];
            uint32_t nei = kNoPoly;
            if (nb != kMeshNullIdx) {
                if (mesh.border_size > 0 && (nb & 0x8000)) {
                    const int side = nb & 0xf;
                    // 0xf: on the border but not on a tile edge (Recast's marker): a wall.
                    if (side < 4) nei = kTilePortal | static_cast<uint32_t>(side);
                } else {
                    if (nb >= mesh.npolys)
                        return Status::bad_input("navmesh: polygon " + std::to_string(p) + " has neighbour " +
                                                 std::to_string(nb) + " out of range");
                    nei = nb;
                }
            }
            out.edge_vert.push_back(pv[j]);
            out.edge_nei.push_back(nei);
        }
        out.poly_first[p + 1] = out.poly_first[p] + static_cast<uint32_t>(n);
        const uint8_t area = mesh.areas[p];
        if (area >= kMaxAreas) return Status::bad_input("navmesh: polygon " + std::to_string(p) + " has area id " + std::to_string(area) + " > 63");
        out.areas[p] = area;
        const uint16_t fl = p < mesh.flags.size() ? mesh.flags[p] : 0;
        // The area type's flags (0 stays 0: such an area's polygons pass no filter).
        out.flags[p] = fl ? fl : area_flags ? (*area_flags)[area] : kPolyFlagDefault;
    }
    if (mesh.types.size() == np) out.types.assign(mesh.types.begin(), mesh.types.end());
    else out.types.clear();

    if (have_detail) {
        out.detail_first.resize(np + 1);
        out.detail_first[0] = 0;
        const size_t dverts = detail.verts.size() / 3, dtris_n = detail.tris.size() / 4;
        for (size_t p = 0; p < np; ++p) {
            const uint32_t* m = &detail.meshes[p * 4];
            const uint32_t vbase = m[0], vcount = m[1], tbase = m[2], tcount = m[3];
            if (static_cast<size_t>(vbase) + vcount > dverts || static_cast<size_t>(tbase) + tcount > dtris_n)
                return Status::bad_input("navmesh: detail sub-mesh of polygon " + std::to_string(p) + " is out of range");
            for (uint32_t t = 0; t < tcount; ++t) {
                const uint8_t* tri = &detail.tris[(static_cast<size_t>(tbase) + t) * 4];
                for (int k = 0; k < 3; ++k) {
                    if (tri[k] >= vcount)
                        return Status::bad_input("navmesh: detail triangle of polygon " + std::to_string(p) + " has vertex " +
                                                 std::to_string(tri[k]) + " out of range");
                    const float* v = &detail.verts[(static_cast<size_t>(vbase) + tri[k]) * 3];
                    out.detail_tris.insert(out.detail_tris.end(), v, v + 3);
                }
            }
            out.detail_first[p + 1] = out.detail_first[p] + tcount;
        }
    }
    // Winding, finiteness and the rest: the runtime's own check of every tile.
    Status s = validate_tile(out);
    if (!s) return s;
    build_tile_bvtree(out);
    return Status::ok();
}

}  // namespace

Status make_nav_tile(const PolyMesh& mesh, const PolyMeshDetail& detail, NavTile& out, int tx, int tz,
                     const AreaFlagTable* area_flags) {
    out = NavTile{};
    out.x = tx;
    out.z = tz;
    Status s = convert(mesh, detail, out, area_flags);
    if (!s) {
        out = NavTile{};
        out.x = tx;
        out.z = tz;
    }
    return s;
}

Status build_navmesh(const PolyMesh& mesh, const PolyMeshDetail& detail, NavMesh& out, const AreaFlagTable* area_flags) {
    auto tile = std::make_shared<NavTile>();
    Status s = make_nav_tile(mesh, detail, *tile, 0, 0, area_flags);
    if (!s) {
        out = NavMesh{};
        return s;
    }
    const std::shared_ptr<const NavTile> tiles[1] = {std::move(tile)};
    return build_navmesh(tiles, nullptr, out);
}

}  // namespace nav
