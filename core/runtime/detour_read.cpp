// Reading Detour's navmesh files (see detour_format.h): RecastDemo's MSET file and the tile data
// dtCreateNavMeshData makes, into our tile type. Nothing is trusted: every count is checked
// against the bytes present before anything is sized by it, every index against what it indexes,
// every coordinate for being finite and within kMaxCoordinate.
//
// The tile layout (Detour 1.5.1, DT_NAVMESH_VERSION 7, 32-bit references, little-endian; each
// section already a multiple of 4 bytes, so dtAlign4 adds nothing): dtMeshHeader (100 bytes),
// vertCount vertices (12), polyCount dtPoly (32: firstLink, verts[6], neis[6], flags, vertCount,
// areaAndtype), maxLinkCount dtLink (12, run-time only: skipped), detailMeshCount dtPolyDetail
// (12: vertBase, triBase, vertCount, triCount, 2 bytes padding), detailVertCount vertices (12),
// detailTriCount triangles (4: three indices and edge flags), bvNodeCount dtBVNode (16: quantized
// bmin[3], bmax[3], index) and offMeshConCount dtOffMeshConnection (36: pos[6], rad, poly, flags,
// side, userId). The polygons are the ground polygons [0, offMeshBase), then one two-vertex
// polygon per off-mesh connection, whose two vertices follow the ground vertices.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/io/file.h"
#include "core/runtime/detour_format.h"
#include "core/runtime/detour_layout.h"
#include "core/runtime/detour_load.h"

namespace nav {

namespace {

using namespace detour_layout;
constexpr int32_t kMaxTileCoord = 1 << 24;

template <typename T>
T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Where a field is, for messages: "dungeon.bin: byte 1234 (polygon 5 vertex count)".
struct Where {
    const std::string& what;
    size_t base;
    std::string at(size_t local, const std::string& field) const {
        return what + ": byte " + std::to_string(base + local) + " (" + field + ")";
    }
};

// Detour's portal direction (0 = +x, 2 = +z, 4 = -x, 6 = -z, as dtCreateNavMeshData maps Recast's
// 2, 1, 0, 3) to our side (0 = -x, 1 = +z, 2 = +x, 3 = -z); -1 for the diagonals and anything else,
// which dtCreateNavMeshData never writes.
int detour_dir_to_side(int dir) {
    switch (dir) {
        case 0: return 2;
        case 2: return 1;
        case 4: return 0;
        case 6: return 3;
        default: return -1;
    }
}

Status check_coords(const uint8_t* data, size_t off, size_t count, const Where& w, const char* what) {
    for (size_t i = 0; i < count; ++i)
        for (int k = 0; k < 3; ++k) {
            const size_t o = off + i * 12 + static_cast<size_t>(k) * 4;
            const float v = load<float>(data + o);
            if (!std::isfinite(v) || std::fabs(v) > kMaxCoordinate)
                return Status::bad_input(w.at(o, std::string(what) + " " + std::to_string(i) + " coordinate " + "xyz"[k]) +
                                         ": " + std::to_string(v) + " (expected a finite coordinate within " +
                                         std::to_string(static_cast<long long>(kMaxCoordinate)) + " m)");
        }
    return Status::ok();
}

}  // namespace

Status read_detour_file(const uint8_t* data, size_t size, const std::string& what, DetourMeshFile& out) {
    out = DetourMeshFile{};
    const Where w{what, 0};
    if (size < 4)
        return Status::bad_input(w.at(size, "magic") + ": the file ends after " + std::to_string(size) +
                                 " bytes, too short for a Detour navmesh file");
    const uint32_t magic = load<uint32_t>(data);
    if (magic == kTileMagic) {
        // A single tile: its header gives the grid the one tile spans.
        if (size < kHeaderSize)
            return Status::bad_input(w.at(size, "tile header") + ": the file ends after " + std::to_string(size) +
                                     " bytes, inside a Detour tile header (" + std::to_string(kHeaderSize) + " bytes)");
        DetourMeshParams& p = out.params;
        for (int k = 0; k < 3; ++k) p.orig[k] = load<float>(data + 72 + k * 4);  // bmin
        p.tile_width = load<float>(data + 84) - p.orig[0];                          // bmax x
        p.tile_height = load<float>(data + 92) - p.orig[2];                         // bmax z
        p.max_tiles = 1;
        p.max_polys = load<int32_t>(data + 24);
        out.tiles.resize(1);
        out.tiles[0].ref = 0;
        out.tiles[0].data.assign(data, data + size);
        return Status::ok();
    }
    if (magic != kMsetMagic)
        return Status::bad_input(w.at(0, "magic") + ": not a Detour navmesh file (expected 'MSET', RecastDemo's all-tiles file, or 'DNAV', one tile's data)");
    if (size < kMsetHeaderSize)
        return Status::bad_input(w.at(size, "MSET header") + ": the file ends after " + std::to_string(size) +
                                 " bytes, inside the MSET header (" + std::to_string(kMsetHeaderSize) + " bytes)");
    const int32_t version = load<int32_t>(data + 4);
    if (version != kMsetVersion)
        return Status::bad_input(w.at(4, "MSET version") + ": " + std::to_string(version) + " (expected " + std::to_string(kMsetVersion) + ")");
    const int32_t ntiles = load<int32_t>(data + 8);
    const size_t left = size - kMsetHeaderSize;
    // Each tile takes at least its 8-byte header: the count is checked before anything is sized by it.
    if (ntiles < 0 || static_cast<uint64_t>(ntiles) * kMsetTileHeaderSize > left)
        return Status::bad_input(w.at(8, "numTiles") + ": " + std::to_string(ntiles) + " (expected 0.." +
                                 std::to_string(left / kMsetTileHeaderSize) + ": the " + std::to_string(left) +
                                 " bytes after the header hold at most that many tiles)");
    DetourMeshParams& p = out.params;
    for (int k = 0; k < 3; ++k) p.orig[k] = load<float>(data + 12 + k * 4);
    p.tile_width = load<float>(data + 24);
    p.tile_height = load<float>(data + 28);
    p.max_tiles = load<int32_t>(data + 32);
    p.max_polys = load<int32_t>(data + 36);
    static const char* const kParamNames[5] = {"params.orig x", "params.orig y", "params.orig z", "params.tileWidth", "params.tileHeight"};
    const float pv[5] = {p.orig[0], p.orig[1], p.orig[2], p.tile_width, p.tile_height};
    for (int k = 0; k < 5; ++k)
        if (!std::isfinite(pv[k]) || std::fabs(pv[k]) > kMaxCoordinate || (k >= 3 && pv[k] <= 0))
            return Status::bad_input(w.at(12 + static_cast<size_t>(k) * 4, kParamNames[k]) + ": " + std::to_string(pv[k]) +
                                     (k >= 3 ? " (expected a finite size > 0 m)" : " (expected a finite coordinate)"));
    if (p.max_tiles < ntiles)
        return Status::bad_input(w.at(32, "params.maxTiles") + ": " + std::to_string(p.max_tiles) + ", fewer than the file's " +
                                 std::to_string(ntiles) + " tiles");
    if (p.max_polys <= 0)
        return Status::bad_input(w.at(36, "params.maxPolys") + ": " + std::to_string(p.max_polys) + " (expected > 0)");
    out.tiles.resize(static_cast<size_t>(ntiles));
    size_t off = kMsetHeaderSize;
    for (int32_t i = 0; i < ntiles; ++i) {
        const std::string tile = "tile " + std::to_string(i);
        if (size - off < kMsetTileHeaderSize)
            return Status::bad_input(w.at(off, tile + " header") + ": the file ends (" + std::to_string(size - off) + " bytes left, expected 8)");
        const uint32_t ref = load<uint32_t>(data + off);
        const int32_t data_size = load<int32_t>(data + off + 4);
        if (ref == 0)
            return Status::bad_input(w.at(off, tile + " tileRef") + ": 0 (RecastDemo ends its list there; expected a tile reference)");
        off += kMsetTileHeaderSize;
        if (data_size <= 0 || static_cast<size_t>(data_size) > size - off)
            return Status::bad_input(w.at(off - 4, tile + " dataSize") + ": " + std::to_string(data_size) + " (expected 1.." +
                                     std::to_string(size - off) + ", the bytes left in the file)");
        out.tiles[static_cast<size_t>(i)].ref = ref;
        out.tiles[static_cast<size_t>(i)].data.assign(data + off, data + off + data_size);
        off += static_cast<size_t>(data_size);
    }
    if (off != size)
        return Status::bad_input(w.at(off, "after the last tile") + ": " + std::to_string(size - off) +
                                 " bytes more than the header's " + std::to_string(ntiles) + " tiles");
    return Status::ok();
}

namespace {

// The tile's section counts (dtMeshHeader) and where each section starts in its bytes.
struct TileLayout {
    size_t poly_count, vert_count, link_count, dmesh_count, dvert_count, dtri_count, bv_count, off_count, off_base;
    size_t verts_at, polys_at, links_at, dmesh_at, dverts_at, dtris_at, bv_at, off_at;
    size_t ground_verts;  // the vertices before the off-mesh connections' two each
};

// The counts, then the sections they size: all checked against the tile's bytes first.
Status read_layout(const uint8_t* data, size_t size, const Where& w, TileLayout& L) {
    static const char* const kCountNames[9] = {"polyCount",       "vertCount",      "maxLinkCount", "detailMeshCount", "detailVertCount",
                                               "detailTriCount", "bvNodeCount",    "offMeshConCount", "offMeshBase"};
    int32_t c[9];
    for (int k = 0; k < 9; ++k) {
        c[k] = load<int32_t>(data + 24 + k * 4);
        if (c[k] < 0)
            return Status::bad_input(w.at(24 + static_cast<size_t>(k) * 4, std::string("tile header ") + kCountNames[k]) + ": " +
                                     std::to_string(c[k]) + " (expected >= 0)");
    }
    L.poly_count = static_cast<size_t>(c[0]), L.vert_count = static_cast<size_t>(c[1]), L.link_count = static_cast<size_t>(c[2]);
    L.dmesh_count = static_cast<size_t>(c[3]), L.dvert_count = static_cast<size_t>(c[4]), L.dtri_count = static_cast<size_t>(c[5]);
    L.bv_count = static_cast<size_t>(c[6]), L.off_count = static_cast<size_t>(c[7]), L.off_base = static_cast<size_t>(c[8]);
    L.verts_at = kHeaderSize;
    L.polys_at = L.verts_at + L.vert_count * kVertSize;
    L.links_at = L.polys_at + L.poly_count * kPolySize;
    L.dmesh_at = L.links_at + L.link_count * kLinkSize;
    L.dverts_at = L.dmesh_at + L.dmesh_count * kDetailMeshSize;
    L.dtris_at = L.dverts_at + L.dvert_count * kVertSize;
    L.bv_at = L.dtris_at + L.dtri_count * kDetailTriSize;
    L.off_at = L.bv_at + L.bv_count * kBvNodeSize;
    const size_t end = L.off_at + L.off_count * kOffMeshSize;  // counts < 2^31 each: no overflow in 64 bits
    if (end != size)
        return Status::bad_input(w.at(24, "tile header counts") + ": they make the tile " + std::to_string(end) + " bytes, it has " +
                                 std::to_string(size));
    if (L.off_base + L.off_count != L.poly_count)
        return Status::bad_input(w.at(56, "tile header offMeshBase") + ": " + std::to_string(L.off_base) + " ground polygons + " +
                                 std::to_string(L.off_count) + " off-mesh connections != polyCount " + std::to_string(L.poly_count));
    if (L.vert_count < 2 * L.off_count)
        return Status::bad_input(w.at(28, "tile header vertCount") + ": " + std::to_string(L.vert_count) + ", fewer than the 2 vertices of each of the " +
                                 std::to_string(L.off_count) + " off-mesh connections");
    if (L.dmesh_count != L.off_base)
        return Status::bad_input(w.at(36, "tile header detailMeshCount") + ": " + std::to_string(L.dmesh_count) + " (expected one per ground polygon, " +
                                 std::to_string(L.off_base) + ")");
    if (L.off_base > kMaxTilePolys)
        return Status::bad_input(w.at(56, "tile header offMeshBase") + ": " + std::to_string(L.off_base) + " ground polygons, more than " +
                                 std::to_string(kMaxTilePolys));
    L.ground_verts = L.vert_count - 2 * L.off_count;
    return Status::ok();
}

// The header's tile coordinates, agent sizes and bounds.
Status read_header(const uint8_t* data, const Where& w, const TileLayout& L, NavTile& out) {
    // Tile coordinates: the NavMesh looks at x +- 1 and z +- 1 for neighbours; a grid beyond
    // kMaxTileCoord tiles from the origin is no level (1e6 m of world at the smallest tile, 8 cells of 1 cm).
    static const char* const kGridNames[3] = {"x", "y", "layer"};
    for (int k = 0; k < 3; ++k) {
        const int32_t v = load<int32_t>(data + 8 + k * 4);
        if (v < -kMaxTileCoord || v > kMaxTileCoord)
            return Status::bad_input(w.at(8 + static_cast<size_t>(k) * 4, std::string("tile header ") + kGridNames[k]) + ": " +
                                     std::to_string(v) + " (expected -" + std::to_string(kMaxTileCoord) + ".." + std::to_string(kMaxTileCoord) + ")");
    }
    out.x = load<int32_t>(data + 8);
    out.z = load<int32_t>(data + 12);  // Detour's tile y is our z
    out.layer = load<int32_t>(data + 16);
    static const char* const kFloatNames[10] = {"walkableHeight", "walkableRadius", "walkableClimb", "bmin x", "bmin y",
                                                "bmin z",         "bmax x",         "bmax y",        "bmax z", "bvQuantFactor"};
    float f[10];
    for (int k = 0; k < 10; ++k) {
        const size_t o = 60 + static_cast<size_t>(k) * 4;
        f[k] = load<float>(data + o);
        const bool bad = !std::isfinite(f[k]) || std::fabs(f[k]) > kMaxCoordinate || (k < 3 && f[k] < 0) ||
                         (k == 9 && L.bv_count > 0 && f[k] <= 0);
        if (bad)
            return Status::bad_input(w.at(o, std::string("tile header ") + kFloatNames[k]) + ": " + std::to_string(f[k]) +
                                     (k < 3 ? " (expected a finite size >= 0 m)" : k == 9 ? " (expected > 0)" : " (expected a finite coordinate)"));
    }
    for (int k = 0; k < 3; ++k)
        if (f[3 + k] > f[6 + k])
            return Status::bad_input(w.at(84 + static_cast<size_t>(k) * 4, std::string("tile header ") + kFloatNames[6 + k]) + ": " +
                                     std::to_string(f[6 + k]) + " below bmin " + std::to_string(f[3 + k]));
    out.walkable_height = f[0], out.walkable_radius = f[1], out.walkable_climb = f[2];
    for (int k = 0; k < 3; ++k) out.bmin[k] = f[3 + k], out.bmax[k] = f[6 + k];
    return Status::ok();
}

// A polygon's vertex indices (at: its record): below the ground vertices for a ground polygon,
// below all vertices for an off-mesh one, and distinct.
Status check_poly_verts(const uint8_t* data, const Where& w, const TileLayout& L, size_t at, const std::string& poly, uint8_t nv,
                        bool ground) {
    for (size_t j = 0; j < nv; ++j) {
        const uint16_t v = load<uint16_t>(data + at + 4 + j * 2);
        const size_t limit = ground ? L.ground_verts : L.vert_count;
        if (v >= limit)
            return Status::bad_input(w.at(at + 4 + j * 2, poly + " vertex " + std::to_string(j)) + ": index " + std::to_string(v) +
                                     " (expected below " + std::to_string(limit) + (ground ? ", the ground vertices)" : ", the vertices)"));
        // Detour never names a vertex twice in a polygon; a file that does can stack any number
        // of zero-area border edges on one line (the stitch compares them pairwise).
        for (size_t i = 0; i < j; ++i)
            if (load<uint16_t>(data + at + 4 + i * 2) == v)
                return Status::bad_input(w.at(at + 4 + j * 2, poly + " vertex " + std::to_string(j)) + ": index " +
                                         std::to_string(v) + " is also its vertex " + std::to_string(i) +
                                         " (expected distinct vertices)");
    }
    return Status::ok();
}

std::string hex4(uint16_t n) {
    char b[8];
    std::snprintf(b, sizeof b, "%04x", n);
    return b;
}

// Ground polygon p's edges (at: its record) into out: each vertex and its neighbour (another
// ground polygon, a tile portal's side, or none).
Status read_poly_edges(const uint8_t* data, const Where& w, const TileLayout& L, size_t p, size_t at, const std::string& poly,
                       uint8_t nv, NavTile& out) {
    for (size_t j = 0; j < nv; ++j) {
        const uint16_t n = load<uint16_t>(data + at + 16 + j * 2);
        uint32_t nei = kNoPoly;
        if (n & kExtLink) {
            const int side = (n & 0x7f00) ? -1 : detour_dir_to_side(n & 0xff);
            if (side < 0)
                return Status::bad_input(w.at(at + 16 + j * 2, poly + " neighbour " + std::to_string(j)) + ": tile portal 0x" +
                                         hex4(n) + " (expected DT_EXT_LINK with direction 0, 2, 4 or 6)");
            nei = kTilePortal | static_cast<uint32_t>(side);
        } else if (n != 0) {
            if (static_cast<size_t>(n - 1) >= L.off_base)
                return Status::bad_input(w.at(at + 16 + j * 2, poly + " neighbour " + std::to_string(j)) + ": " + std::to_string(n) +
                                         " names polygon " + std::to_string(n - 1) + " (expected 0 or 1.." + std::to_string(L.off_base) +
                                         ", a ground polygon + 1)");
            if (static_cast<size_t>(n - 1) == p)
                return Status::bad_input(w.at(at + 16 + j * 2, poly + " neighbour " + std::to_string(j)) +
                                         ": names the polygon itself (expected another polygon, a portal or 0)");
            nei = static_cast<uint32_t>(n - 1);
        }
        out.edge_vert.push_back(load<uint16_t>(data + at + 4 + j * 2));
        out.edge_nei.push_back(nei);
    }
    return Status::ok();
}

// Polygons: ground polygons into our arrays, off-mesh polygons checked for what the links need;
// then the ground vertices.
Status read_polygons(const uint8_t* data, const Where& w, const TileLayout& L, NavTile& out) {
    out.poly_first.reserve(L.off_base + 1);
    out.edge_vert.reserve(L.off_base * kDetourVertsPerPoly);
    out.edge_nei.reserve(L.off_base * kDetourVertsPerPoly);
    out.areas.reserve(L.off_base);
    out.flags.reserve(L.off_base);
    out.poly_first.push_back(0);
    for (size_t p = 0; p < L.poly_count; ++p) {
        const size_t at = L.polys_at + p * kPolySize;
        const std::string poly = "polygon " + std::to_string(p);
        const uint8_t nv = data[at + 30];
        const uint8_t area_type = data[at + 31];
        const uint8_t type = area_type >> 6;
        const bool ground = p < L.off_base;
        if (type != (ground ? kPolyTypeGround : kPolyTypeOffMesh))
            return Status::bad_input(w.at(at + 31, poly + " type") + ": " + std::to_string(type) + " (expected " +
                                     (ground ? "0, a ground polygon: it is below offMeshBase)" : "1, an off-mesh connection: it is at or above offMeshBase)"));
        if (ground ? (nv < 3 || nv > kDetourVertsPerPoly) : nv != 2)
            return Status::bad_input(w.at(at + 30, poly + " vertCount") + ": " + std::to_string(nv) +
                                     (ground ? " (expected 3..6 for a ground polygon)" : " (expected 2 for an off-mesh connection)"));
        if (Status s = check_poly_verts(data, w, L, at, poly, nv, ground); !s) return s;
        if (!ground) continue;
        if (Status s = read_poly_edges(data, w, L, p, at, poly, nv, out); !s) return s;
        out.poly_first.push_back(static_cast<uint32_t>(out.edge_vert.size()));
        out.areas.push_back(area_type & 0x3f);
        out.flags.push_back(load<uint16_t>(data + at + 28));
    }
    out.verts.resize(L.ground_verts * 3);
    if (L.ground_verts) std::memcpy(out.verts.data(), data + L.verts_at, L.ground_verts * kVertSize);
    return Status::ok();
}

// Detail meshes: ranges inside the detail arrays, triangle indices inside the polygon's vertices
// plus its own detail vertices. The triangles listed may not exceed the tile's (dtCreateNavMeshData
// lays them end to end), so the world triangles we make are bounded by the file's bytes. Their
// count in *listed.
Status check_detail(const uint8_t* data, const Where& w, const TileLayout& L, const NavTile& out, size_t* listed) {
    *listed = 0;
    for (size_t p = 0; p < L.off_base; ++p) {
        const size_t at = L.dmesh_at + p * kDetailMeshSize;
        const std::string poly = "detail mesh " + std::to_string(p);
        const uint32_t vb = load<uint32_t>(data + at), tb = load<uint32_t>(data + at + 4);
        const uint8_t vn = data[at + 8], tn = data[at + 9];
        if (static_cast<uint64_t>(vb) + vn > L.dvert_count)
            return Status::bad_input(w.at(at, poly + " vertBase") + ": vertices " + std::to_string(vb) + ".." + std::to_string(uint64_t{vb} + vn) +
                                     " past the " + std::to_string(L.dvert_count) + " detail vertices");
        if (static_cast<uint64_t>(tb) + tn > L.dtri_count)
            return Status::bad_input(w.at(at + 4, poly + " triBase") + ": triangles " + std::to_string(tb) + ".." + std::to_string(uint64_t{tb} + tn) +
                                     " past the " + std::to_string(L.dtri_count) + " detail triangles");
        if (tn == 0) return Status::bad_input(w.at(at + 9, poly + " triCount") + ": 0 (expected at least one triangle)");
        *listed += tn;
        const size_t pnv = out.poly_first[p + 1] - out.poly_first[p];
        for (size_t t = tb; t < tb + tn; ++t)
            for (int k = 0; k < 3; ++k) {
                const uint8_t i = data[L.dtris_at + t * kDetailTriSize + static_cast<size_t>(k)];
                if (i >= pnv + vn)
                    return Status::bad_input(w.at(L.dtris_at + t * kDetailTriSize + static_cast<size_t>(k),
                                                  "detail triangle " + std::to_string(t) + " vertex " + std::to_string(k)) +
                                             ": index " + std::to_string(i) + " (expected below " + std::to_string(pnv + vn) + ", polygon " +
                                             std::to_string(p) + "'s " + std::to_string(pnv) + " vertices + " + std::to_string(vn) + " detail vertices)");
            }
    }
    if (*listed > L.dtri_count)
        return Status::bad_input(w.at(44, "tile header detailTriCount") + ": " + std::to_string(L.dtri_count) +
                                 ", fewer than the detail meshes' " + std::to_string(*listed) + " triangles (their ranges overlap)");
    return Status::ok();
}

// The checked detail meshes as world triangles, per ground polygon.
void read_detail(const uint8_t* data, const TileLayout& L, size_t listed, NavTile& out) {
    out.detail_first.reserve(L.off_base + 1);
    out.detail_tris.reserve(listed * 9);
    out.detail_first.push_back(0);
    for (size_t p = 0; p < L.off_base; ++p) {
        const size_t at = L.dmesh_at + p * kDetailMeshSize;
        const uint32_t vb = load<uint32_t>(data + at), tb = load<uint32_t>(data + at + 4);
        const uint8_t tn = data[at + 9];
        const uint32_t e0 = out.poly_first[p];
        const size_t pnv = out.poly_first[p + 1] - e0;
        for (size_t t = tb; t < tb + tn; ++t)
            for (int k = 0; k < 3; ++k) {
                const uint8_t i = data[L.dtris_at + t * kDetailTriSize + static_cast<size_t>(k)];
                const float* v = i < pnv ? &out.verts[static_cast<size_t>(out.edge_vert[e0 + i]) * 3] : nullptr;
                float dv[3];
                if (!v) {
                    std::memcpy(dv, data + L.dverts_at + (vb + (i - pnv)) * kVertSize, sizeof dv);
                    v = dv;
                }
                out.detail_tris.insert(out.detail_tris.end(), v, v + 3);
            }
        out.detail_first.push_back(static_cast<uint32_t>(out.detail_tris.size() / 9));
    }
}

// BV tree: checked, then left out. Detour's boxes are quantized to cells of the tile and 1.5.1
// pads the tree to 2 * polyCount nodes with zero nodes (leaves of polygon 0 at the tile's
// corner); our tree is exact floats over the polygon and detail bounds, which the NavMesh builds
// from the polygons in O(n log n) when the tile comes without one.
Status check_bv_tree(const uint8_t* data, const Where& w, const TileLayout& L) {
    for (size_t i = 0; i < L.bv_count; ++i) {
        const size_t at = L.bv_at + i * kBvNodeSize;
        const int32_t idx = load<int32_t>(data + at + 12);
        if (idx >= 0 ? static_cast<size_t>(idx) >= std::max<size_t>(L.off_base, 1)
                     : (idx == INT32_MIN || i + static_cast<size_t>(-static_cast<int64_t>(idx)) > L.bv_count))
            return Status::bad_input(w.at(at + 12, "BV node " + std::to_string(i) + " index") + ": " + std::to_string(idx) +
                                     " (expected a ground polygon 0.." + std::to_string(L.off_base ? L.off_base - 1 : 0) +
                                     " or an escape -n that stays within the " + std::to_string(L.bv_count) + " nodes)");
        for (int k = 0; k < 3; ++k)
            if (load<uint16_t>(data + at + static_cast<size_t>(k) * 2) > load<uint16_t>(data + at + 6 + static_cast<size_t>(k) * 2))
                return Status::bad_input(w.at(at + static_cast<size_t>(k) * 2, "BV node " + std::to_string(i) + " bmin " + "xyz"[k]) +
                                         ": above its bmax");
    }
    return Status::ok();
}

// Off-mesh connections become links, with the flags and area of their polygons.
Status read_offmesh(const uint8_t* data, const Where& w, const TileLayout& L, NavTile& out) {
    out.links.reserve(L.off_count);
    for (size_t i = 0; i < L.off_count; ++i) {
        const size_t at = L.off_at + i * kOffMeshSize;
        const std::string con = "off-mesh connection " + std::to_string(i);
        OffMeshLink l;
        for (int k = 0; k < 7; ++k) {
            const float v = load<float>(data + at + static_cast<size_t>(k) * 4);
            if (!std::isfinite(v) || std::fabs(v) > kMaxCoordinate || (k == 6 && v < 0))
                return Status::bad_input(w.at(at + static_cast<size_t>(k) * 4, con + (k < 6 ? " position" : " radius")) + ": " +
                                         std::to_string(v) + (k < 6 ? " (expected a finite coordinate)" : " (expected a finite radius >= 0 m)"));
            (k < 3 ? l.start[k] : k < 6 ? l.end[k - 3] : l.radius) = v;
        }
        const uint16_t poly = load<uint16_t>(data + at + 28);
        if (poly != L.off_base + i)
            return Status::bad_input(w.at(at + 28, con + " poly") + ": " + std::to_string(poly) + " (expected " + std::to_string(L.off_base + i) +
                                     ", offMeshBase + " + std::to_string(i) + ")");
        const size_t pat = L.polys_at + poly * kPolySize;
        l.flags = load<uint16_t>(data + pat + 28);
        l.area = data[pat + 31] & 0x3f;
        l.bidir = (data[at + 30] & kOffMeshBidir) != 0;
        l.user_id = load<uint32_t>(data + at + 32);
        out.links.push_back(l);
    }
    return Status::ok();
}

}  // namespace

Status read_detour_tile(const uint8_t* data, size_t size, const std::string& what, size_t base_offset, NavTile& out) {
    out = NavTile{};
    const Where w{what, base_offset};
    if (size < kHeaderSize)
        return Status::bad_input(w.at(0, "tile header") + ": the tile has " + std::to_string(size) + " bytes, fewer than its " +
                                 std::to_string(kHeaderSize) + "-byte header");
    const uint32_t magic = load<uint32_t>(data);
    if (magic != kTileMagic) return Status::bad_input(w.at(0, "tile magic") + ": not a Detour tile (expected 'DNAV')");
    const int32_t version = load<int32_t>(data + 4);
    if (version != kDetourVersion)
        return Status::bad_input(w.at(4, "tile version") + ": " + std::to_string(version) + " (expected " + std::to_string(kDetourVersion) +
                                 ", Detour 1.5's DT_NAVMESH_VERSION)");
    TileLayout L;
    if (Status s = read_layout(data, size, w, L); !s) return s;
    if (Status s = read_header(data, w, L, out); !s) return s;
    if (Status s = check_coords(data, L.verts_at, L.vert_count, w, "vertex"); !s) return s;
    if (Status s = check_coords(data, L.dverts_at, L.dvert_count, w, "detail vertex"); !s) return s;
    if (Status s = read_polygons(data, w, L, out); !s) return s;
    size_t listed = 0;
    if (Status s = check_detail(data, w, L, out, &listed); !s) return s;
    read_detail(data, L, listed, out);
    if (Status s = check_bv_tree(data, w, L); !s) return s;
    return read_offmesh(data, w, L, out);
}

}  // namespace nav

// ---- loading (detour_load.h) ----------------------------------------------------------------

namespace nav {

Status read_detour_tiles(const uint8_t* data, size_t size, const std::string& what, std::vector<std::shared_ptr<const NavTile>>& tiles) {
    tiles.clear();
    DetourMeshFile file;
    if (Status s = read_detour_file(data, size, what, file); !s) return s;
    const bool mset = file.tiles.size() != 1 || file.tiles[0].ref != 0;
    size_t at = mset ? kMsetHeaderSize : 0;  // the MSET header, then per tile its header and data
    tiles.reserve(file.tiles.size());
    for (size_t i = 0; i < file.tiles.size(); ++i) {
        if (mset) at += kMsetTileHeaderSize;
        auto tile = std::make_shared<NavTile>();
        const std::vector<uint8_t>& d = file.tiles[i].data;
        if (Status s = read_detour_tile(d.data(), d.size(), mset ? what + " tile " + std::to_string(i) : what, at, *tile); !s) return s;
        at += d.size();
        tiles.push_back(std::move(tile));
    }
    return Status::ok();
}

Status load_detour_navmesh(const std::string& path, uint64_t max_bytes, std::vector<std::shared_ptr<const NavTile>>& tiles, NavMesh& mesh) {
    tiles.clear();
    mesh = NavMesh{};
    std::string bytes;
    if (Status s = read_input_file(path, "Detour navmesh file", max_bytes, bytes); !s) return s;
    if (Status s = read_detour_tiles(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path, tiles); !s) return s;
    if (Status s = build_navmesh(tiles, nullptr, mesh); !s) return Status{s.code, path + ": " + s.message};
    return Status::ok();
}

}  // namespace nav
