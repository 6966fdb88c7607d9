// Writing Detour's navmesh files (see detour_format.h): the bytes dtCreateNavMeshData of Detour
// 1.5.1 makes (x86-64 layout: little-endian, 4-byte int and float, natural alignment), and
// RecastDemo's MSET file around them.
//
// The tile is one calloc'd block of sections, each padded to 4 bytes (dtAlign4):
//   header 100 | vertices 12 each (the polygon mesh's, then 2 per stored off-mesh connection) |
//   polygons 32 each (mesh polygons, then one per stored off-mesh connection) | links 12 each
//   (left zero: Detour fills them when the tile is added) | detail sub-meshes 12 each (10 bytes
//   and 2 of padding) | detail vertices 12 each (only those beyond the polygon's own) | detail
//   triangles 4 each | BV tree 16 each, 2 * polygons nodes (the unused tail zero) | off-mesh
//   connections 36 each.
// Everything Detour does not write stays zero, so the bytes are equal, padding included.
#include <algorithm>
#include <cmath>
#include <cfloat>
#include <climits>
#include <cstring>
#include <string>

#include "core/runtime/detour_format.h"
#include "core/runtime/detour_layout.h"

#include <bit>

namespace nav {

namespace {

using namespace detour_layout;

size_t align4(size_t n) { return (n + 3) & ~size_t(3); }

// Little-endian stores into the zeroed block (memcpy of the host value: the format is x86-64's,
// and the runtime targets little-endian platforms only, as detour_format.h says).
static_assert(std::endian::native == std::endian::little,
              "the Detour file format is written as host memory: a big-endian port needs byte swaps here");
template <class T>
void put(uint8_t* at, T v) {
    std::memcpy(at, &v, sizeof(T));
}

// (int)f as x86-64's cvttss2si does it: out of range or NaN gives INT_MIN (C++ leaves it
// undefined). Detour quantizes BV bounds with this cast before clamping to 0..0xffff.
int trunc_int(float f) {
    if (!(f > -2147483904.0f && f < 2147483648.0f)) return INT_MIN;
    return static_cast<int>(f);
}

// dtMin / dtMax exactly: the second value wins when the comparison is false, NaN included (the
// bytes must match Detour's even for such input).
float dt_min(float a, float b) { return a < b ? a : b; }
float dt_max(float a, float b) { return a > b ? a : b; }

uint16_t quantize(float v, float origin, float factor) {
    return static_cast<uint16_t>(std::clamp(trunc_int((v - origin) * factor), 0, 0xffff));
}

// createBVTree's item: the quantized bounds of one polygon.
struct BvItem {
    uint16_t bmin[3], bmax[3];
    int i;
};

// A stable sort of items on bmin[axis]: insertion sort below 16 items, else a merge sort through
// `tmp` (at least n items), allocated once per tile (std::stable_sort allocates a buffer per call,
// and subdivide sorts at every inner node). Any stable sort gives the same order.
void sort_items(BvItem* a, int n, int axis, BvItem* tmp) {
    if (n < 16) {
        for (int i = 1; i < n; ++i) {
            const BvItem x = a[i];
            int j = i;
            for (; j > 0 && x.bmin[axis] < a[j - 1].bmin[axis]; --j) a[j] = a[j - 1];
            a[j] = x;
        }
        return;
    }
    const int h = n / 2;
    sort_items(a, h, axis, tmp);
    sort_items(a + h, n - h, axis, tmp);
    if (!(a[h].bmin[axis] < a[h - 1].bmin[axis])) return;  // already in order
    std::copy(a, a + h, tmp);
    int i = 0, j = h, k = 0;
    while (i < h && j < n) a[k++] = a[j].bmin[axis] < tmp[i].bmin[axis] ? a[j++] : tmp[i++];
    while (i < h) a[k++] = tmp[i++];
}

// Detour's subdivide: nodes in depth-first order, a leaf per polygon, an inner node's index the
// negated size of its subtree (the escape). The items are sorted on the longest axis of their
// bounds by the C library's qsort, which in glibc (2.36 on Debian 12, the reference) is a merge
// sort: stable, so any stable sort puts equal keys in the same order.
void subdivide(BvItem* items, int imin, int imax, int& cur, uint8_t* nodes, BvItem* tmp) {
    const int inum = imax - imin;
    const int icur = cur;
    uint8_t* node = nodes + static_cast<size_t>(cur++) * kBvNodeSize;
    uint16_t bmin[3], bmax[3];
    for (int k = 0; k < 3; ++k) {
        bmin[k] = items[imin].bmin[k];
        bmax[k] = items[imin].bmax[k];
    }
    if (inum == 1) {
        for (int k = 0; k < 3; ++k) {
            put<uint16_t>(node + 2 * k, bmin[k]);
            put<uint16_t>(node + 6 + 2 * k, bmax[k]);
        }
        put<int32_t>(node + 12, items[imin].i);
        return;
    }
    for (int i = imin + 1; i < imax; ++i)
        for (int k = 0; k < 3; ++k) {
            bmin[k] = std::min(bmin[k], items[i].bmin[k]);
            bmax[k] = std::max(bmax[k], items[i].bmax[k]);
        }
    for (int k = 0; k < 3; ++k) {
        put<uint16_t>(node + 2 * k, bmin[k]);
        put<uint16_t>(node + 6 + 2 * k, bmax[k]);
    }
    // longestAxis: x, then y only if strictly longer, then z only if strictly longer than the best.
    const uint16_t ext[3] = {static_cast<uint16_t>(bmax[0] - bmin[0]), static_cast<uint16_t>(bmax[1] - bmin[1]),
                             static_cast<uint16_t>(bmax[2] - bmin[2])};
    int axis = 0;
    if (ext[1] > ext[0]) axis = 1;
    if (ext[2] > ext[axis]) axis = 2;
    sort_items(items + imin, inum, axis, tmp);
    const int isplit = imin + inum / 2;
    subdivide(items, imin, isplit, cur, nodes, tmp);
    subdivide(items, isplit, imax, cur, nodes, tmp);
    put<int32_t>(node + 12, -(cur - icur));
}

// classifyOffMeshPoint: which of the 8 neighbouring tiles a point outside the box lies towards
// (0 = x+, counter-clockwise), 0xff inside.
uint8_t classify_offmesh_point(const float* pt, const float* bmin, const float* bmax) {
    constexpr uint8_t XP = 1, ZP = 2, XM = 4, ZM = 8;
    uint8_t code = 0;
    code |= pt[0] >= bmax[0] ? XP : 0;
    code |= pt[2] >= bmax[2] ? ZP : 0;
    code |= pt[0] < bmin[0] ? XM : 0;
    code |= pt[2] < bmin[2] ? ZM : 0;
    switch (code) {
        case XP: return 0;
        case XP | ZP: return 1;
        case ZP: return 2;
        case XM | ZP: return 3;
        case XM: return 4;
        case XM | ZM: return 5;
        case ZM: return 6;
        case XP | ZM: return 7;
        default: return 0xff;
    }
}

Status bad(const std::string& m) { return Status::bad_input("detour tile: " + m); }

// What the checks count for the tile's layout.
struct TileCounts {
    int64_t edge_count = 0, portal_count = 0;               // the polygons' edges and tile-border portals
    int64_t unique_detail_verts = 0, detail_tri_count = 0;  // detail vertices beyond the polygons' own, triangles
    std::vector<uint8_t> cls;  // each off-mesh connection's two ends: classify_offmesh_point, 0xff inside
    int stored_offmesh = 0;    // the connections starting inside the tile
    int64_t offmesh_links = 0;
    int64_t tot_polys = 0, tot_verts = 0, max_links = 0;
};

// Where each section starts in the tile's block.
struct TileSections {
    uint8_t *hdr, *verts, *polys, *dmeshes, *dverts, *dtris, *bvtree, *offcons;
};

// Detour's own refusals first (nvp, vertex count, empty mesh), then what it would crash on.
Status check_source(const DetourTileSource& src) {
    const int nvp = src.nvp;
    if (nvp > kDetourVertsPerPoly)
        return bad("nvp (vertices per polygon) is " + std::to_string(nvp) + "; Detour's polygons have at most " +
                   std::to_string(kDetourVertsPerPoly));
    if (nvp < 3) return bad("nvp (vertices per polygon) is " + std::to_string(nvp) + "; at least 3 expected");
    if (src.vert_count >= 0xffff)
        return bad("vert_count is " + std::to_string(src.vert_count) + "; Detour holds at most 65534 vertices a tile");
    if (src.vert_count <= 0 || !src.verts) return bad("no vertices");
    if (src.poly_count <= 0 || !src.polys || !src.poly_flags || !src.poly_areas) return bad("no polygons");
    // A neighbour index is stored as index + 1 in 16 bits whose top bit marks a tile-border portal
    // (DT_EXT_LINK): from 0x8000 polygons on, neighbour 0x7fff would read as a portal.
    if (src.poly_count > 0x7fff)
        return bad("poly_count is " + std::to_string(src.poly_count) +
                   "; a Detour tile holds at most 32767 polygons (neighbour indices have 15 bits): bake with a smaller "
                   "tile_size");
    if (!(src.cs > 0) || !(src.ch > 0)) return bad("cs and ch must be > 0");
    const bool have_detail = src.detail_meshes != nullptr;
    if (have_detail && src.detail_vert_count > 0 && !src.detail_verts) return bad("detail_verts missing");
    if (have_detail && src.detail_tri_count > 0 && !src.detail_tris) return bad("detail_tris missing");
    if (have_detail && (src.detail_vert_count < 0 || src.detail_tri_count < 0)) return bad("negative detail counts");
    if (src.offmesh_count < 0) return bad("negative offmesh_count");
    if (src.offmesh_count > 0 && (!src.offmesh_verts || !src.offmesh_rad || !src.offmesh_flags || !src.offmesh_areas ||
                                  !src.offmesh_dir))
        return bad("off-mesh connection arrays missing");
    return Status::ok();
}

// The vertex count of polygon i (its first nvp indices up to the first kNullIdx).
int poly_vert_count(const DetourTileSource& src, size_t i) {
    const uint16_t* p = &src.polys[i * 2 * static_cast<size_t>(src.nvp)];
    int nv = 0;
    while (nv < src.nvp && p[nv] != kNullIdx) ++nv;
    return nv;
}

// Polygons: vertex counts, indices, edges and portals.
Status count_polygons(const DetourTileSource& src, TileCounts& n) {
    const int nvp = src.nvp;
    const size_t stride = 2 * static_cast<size_t>(nvp);
    for (size_t i = 0; i < static_cast<size_t>(src.poly_count); ++i) {
        const uint16_t* p = &src.polys[i * stride];
        int nv = 0;
        for (int j = 0; j < nvp && p[j] != kNullIdx; ++j, ++nv) {
            if (p[j] >= src.vert_count)
                return bad("polygon " + std::to_string(i) + " vertex " + std::to_string(j) + " is " + std::to_string(p[j]) +
                           "; expected below vert_count " + std::to_string(src.vert_count));
            const uint16_t nb = p[nvp + j];
            if (nb & 0x8000) {
                if ((nb & 0xf) != 0xf) ++n.portal_count;
            } else if (nb >= src.poly_count) {
                return bad("polygon " + std::to_string(i) + " edge " + std::to_string(j) + " neighbour " + std::to_string(nb) +
                           " is not a polygon (poly_count " + std::to_string(src.poly_count) + ")");
            }
        }
        if (nv < 3) return bad("polygon " + std::to_string(i) + " has " + std::to_string(nv) + " vertices; at least 3 expected");
        n.edge_count += nv;
    }
    return Status::ok();
}

// Detail sub-meshes: in range, each starting with its polygon's vertices, counts in a byte.
// Without a detail mesh: a fan of nv - 2 triangles per polygon.
Status count_detail(const DetourTileSource& src, TileCounts& n) {
    const size_t np = static_cast<size_t>(src.poly_count);
    if (!src.detail_meshes) {
        for (size_t i = 0; i < np; ++i) n.detail_tri_count += poly_vert_count(src, i) - 2;
        return Status::ok();
    }
    n.detail_tri_count = src.detail_tri_count;
    for (size_t i = 0; i < np; ++i) {
        const uint32_t* m = &src.detail_meshes[i * 4];
        const int nv = poly_vert_count(src, i);
        auto which = [i] { return "detail sub-mesh " + std::to_string(i); };  // built on failure only
        if (uint64_t(m[0]) + m[1] > uint64_t(src.detail_vert_count))
            return bad(which() + " vertices " + std::to_string(m[0]) + "+" + std::to_string(m[1]) +
                       " beyond detail_vert_count " + std::to_string(src.detail_vert_count));
        if (uint64_t(m[2]) + m[3] > uint64_t(src.detail_tri_count))
            return bad(which() + " triangles " + std::to_string(m[2]) + "+" + std::to_string(m[3]) +
                       " beyond detail_tri_count " + std::to_string(src.detail_tri_count));
        if (m[1] < uint32_t(nv) || m[1] - uint32_t(nv) > 255)
            return bad(which() + " has " + std::to_string(m[1]) + " vertices; expected its polygon's " + std::to_string(nv) +
                       " plus at most 255");
        if (m[3] > 255) return bad(which() + " has " + std::to_string(m[3]) + " triangles; Detour stores at most 255");
        for (uint32_t t = m[2]; t < m[2] + m[3]; ++t)
            for (int k = 0; k < 3; ++k)
                if (src.detail_tris[size_t(t) * 4 + k] >= m[1])
                    return bad("detail triangle " + std::to_string(t) + " vertex " + std::to_string(k) + " is " +
                               std::to_string(src.detail_tris[size_t(t) * 4 + k]) + "; its sub-mesh has " +
                               std::to_string(m[1]) + " vertices");
        n.unique_detail_verts += m[1] - nv;
    }
    // dtCreateNavMeshData counts the copied vertices in an unsigned short.
    if (n.unique_detail_verts > 0xffff)
        return bad(std::to_string(n.unique_detail_verts) +
                   " detail vertices beyond the polygons' own; Detour stores at most 65535 a tile");
    return Status::ok();
}

// Off-mesh connections: only those starting inside the tile's box (xz, and y within the
// mesh's height range grown by the climb) are stored; each end inside takes two links.
void classify_offmesh(const DetourTileSource& src, TileCounts& n) {
    n.cls.assign(static_cast<size_t>(src.offmesh_count) * 2, 0);
    if (src.offmesh_count <= 0) return;
    float hmin = FLT_MAX, hmax = -FLT_MAX;
    if (src.detail_verts && src.detail_vert_count) {
        for (int i = 0; i < src.detail_vert_count; ++i) {
            const float h = src.detail_verts[size_t(i) * 3 + 1];
            hmin = dt_min(hmin, h);
            hmax = dt_max(hmax, h);
        }
    } else {
        for (int i = 0; i < src.vert_count; ++i) {
            const float h = src.bmin[1] + static_cast<float>(src.verts[size_t(i) * 3 + 1]) * src.ch;
            hmin = dt_min(hmin, h);
            hmax = dt_max(hmax, h);
        }
    }
    hmin -= src.walkable_climb;
    hmax += src.walkable_climb;
    const float bmin[3] = {src.bmin[0], hmin, src.bmin[2]};
    const float bmax[3] = {src.bmax[0], hmax, src.bmax[2]};
    for (int i = 0; i < src.offmesh_count; ++i) {
        const float* p0 = &src.offmesh_verts[size_t(i) * 6];
        const float* p1 = p0 + 3;
        uint8_t& c0 = n.cls[size_t(i) * 2];
        uint8_t& c1 = n.cls[size_t(i) * 2 + 1];
        c0 = classify_offmesh_point(p0, bmin, bmax);
        c1 = classify_offmesh_point(p1, bmin, bmax);
        if (c0 == 0xff && (p0[1] < bmin[1] || p0[1] > bmax[1])) c0 = 0;
        if (c0 == 0xff) ++n.offmesh_links;
        if (c1 == 0xff) ++n.offmesh_links;
        if (c0 == 0xff) ++n.stored_offmesh;
    }
}

// The block's size from the counts, zeroed, and where each section starts in it.
Status lay_out(const DetourTileSource& src, TileCounts& n, std::vector<uint8_t>& out, TileSections& at) {
    const size_t np = static_cast<size_t>(src.poly_count);
    n.tot_polys = src.poly_count + int64_t(n.stored_offmesh);
    n.tot_verts = src.vert_count + int64_t(n.stored_offmesh) * 2;
    if (n.tot_verts > 0xffff || n.tot_polys > 0xffff)
        return bad(std::to_string(n.tot_verts) + " vertices and " + std::to_string(n.tot_polys) +
                   " polygons with the off-mesh connections; Detour indexes them in 16 bits");
    n.max_links = n.edge_count + n.portal_count * 2 + n.offmesh_links * 2;

    const size_t vert_bytes = align4(12 * size_t(n.tot_verts));
    const size_t poly_bytes = align4(kPolySize * size_t(n.tot_polys));
    const size_t link_bytes = align4(kLinkSize * size_t(n.max_links));
    const size_t dmesh_bytes = align4(kDetailMeshSize * np);
    const size_t dvert_bytes = align4(12 * size_t(n.unique_detail_verts));
    const size_t dtri_bytes = align4(4 * size_t(n.detail_tri_count));
    const size_t bv_bytes = src.build_bv_tree ? align4(kBvNodeSize * np * 2) : 0;
    const size_t off_bytes = align4(kOffMeshSize * size_t(n.stored_offmesh));
    const size_t total = kHeaderSize + vert_bytes + poly_bytes + link_bytes + dmesh_bytes + dvert_bytes + dtri_bytes +
                         bv_bytes + off_bytes;
    if (total > size_t(INT_MAX))
        return bad("the tile would be " + std::to_string(total) + " bytes; Detour's size is an int");

    out.assign(total, 0);
    at.hdr = out.data();
    at.verts = at.hdr + kHeaderSize;
    at.polys = at.verts + vert_bytes;
    at.dmeshes = at.polys + poly_bytes + link_bytes;
    at.dverts = at.dmeshes + dmesh_bytes;
    at.dtris = at.dverts + dvert_bytes;
    at.bvtree = at.dtris + dtri_bytes;
    at.offcons = at.bvtree + bv_bytes;
    return Status::ok();
}

// Header (dtMeshHeader field order).
void write_header(const DetourTileSource& src, const TileCounts& n, uint8_t* hdr) {
    put<int32_t>(hdr + 0, static_cast<int32_t>(kTileMagic));
    put<int32_t>(hdr + 4, kDetourVersion);
    put<int32_t>(hdr + 8, src.tile_x);
    put<int32_t>(hdr + 12, src.tile_y);
    put<int32_t>(hdr + 16, src.tile_layer);
    put<uint32_t>(hdr + 20, src.user_id);
    put<int32_t>(hdr + 24, int32_t(n.tot_polys));
    put<int32_t>(hdr + 28, int32_t(n.tot_verts));
    put<int32_t>(hdr + 32, int32_t(n.max_links));
    put<int32_t>(hdr + 36, src.poly_count);                  // detailMeshCount
    put<int32_t>(hdr + 40, int32_t(n.unique_detail_verts));  // detailVertCount
    put<int32_t>(hdr + 44, int32_t(n.detail_tri_count));
    put<int32_t>(hdr + 48, src.build_bv_tree ? src.poly_count * 2 : 0);  // bvNodeCount
    put<int32_t>(hdr + 52, n.stored_offmesh);
    put<int32_t>(hdr + 56, src.poly_count);  // offMeshBase
    put<float>(hdr + 60, src.walkable_height);
    put<float>(hdr + 64, src.walkable_radius);
    put<float>(hdr + 68, src.walkable_climb);
    for (int k = 0; k < 3; ++k) {
        put<float>(hdr + 72 + 4 * k, src.bmin[k]);
        put<float>(hdr + 84 + 4 * k, src.bmax[k]);
    }
    put<float>(hdr + 96, 1.0f / src.cs);  // bvQuantFactor
}

// Vertices: voxel units to world, then both ends of each stored off-mesh connection.
void write_vertices(const DetourTileSource& src, const TileCounts& n, uint8_t* verts) {
    for (int i = 0; i < src.vert_count; ++i) {
        const uint16_t* iv = &src.verts[size_t(i) * 3];
        uint8_t* v = verts + size_t(i) * 12;
        put<float>(v + 0, src.bmin[0] + static_cast<float>(iv[0]) * src.cs);
        put<float>(v + 4, src.bmin[1] + static_cast<float>(iv[1]) * src.ch);
        put<float>(v + 8, src.bmin[2] + static_cast<float>(iv[2]) * src.cs);
    }
    for (int i = 0, k = 0; i < src.offmesh_count; ++i) {
        if (n.cls[size_t(i) * 2] != 0xff) continue;
        std::memcpy(verts + (size_t(src.vert_count) + size_t(k) * 2) * 12, &src.offmesh_verts[size_t(i) * 6], 24);
        ++k;
    }
}

// Polygons: neighbour n becomes n + 1 (0 = none); a portal's Recast side 0..3 (x-, z+, x+, z-)
// becomes DT_EXT_LINK | Detour's side (4, 2, 0, 6); any other marked side stays 0. Then one
// polygon of two vertices per stored off-mesh connection.
void write_polygons(const DetourTileSource& src, const TileCounts& n, uint8_t* polys) {
    const int nvp = src.nvp;
    const size_t np = static_cast<size_t>(src.poly_count);
    const size_t stride = 2 * static_cast<size_t>(nvp);
    for (size_t i = 0; i < np; ++i) {
        const uint16_t* s = &src.polys[i * stride];
        uint8_t* p = polys + i * kPolySize;
        int nv = 0;
        for (; nv < nvp && s[nv] != kNullIdx; ++nv) {
            put<uint16_t>(p + 4 + 2 * nv, s[nv]);
            const uint16_t nb = s[nvp + nv];
            uint16_t nei = 0;
            if (nb & 0x8000) {
                static constexpr uint16_t kSide[4] = {kExtLink | 4, kExtLink | 2, kExtLink | 0, kExtLink | 6};
                const int dir = nb & 0xf;
                if (dir < 4) nei = kSide[dir];
            } else {
                nei = static_cast<uint16_t>(nb + 1);
            }
            put<uint16_t>(p + 16 + 2 * nv, nei);
        }
        put<uint16_t>(p + 28, src.poly_flags[i]);
        p[30] = static_cast<uint8_t>(nv);
        p[31] = static_cast<uint8_t>((src.poly_areas[i] & 0x3f) | (kPolyTypeGround << 6));
    }
    for (int i = 0, k = 0; i < src.offmesh_count; ++i) {
        if (n.cls[size_t(i) * 2] != 0xff) continue;
        uint8_t* p = polys + (np + size_t(k)) * kPolySize;
        put<uint16_t>(p + 4, static_cast<uint16_t>(src.vert_count + k * 2));
        put<uint16_t>(p + 6, static_cast<uint16_t>(src.vert_count + k * 2 + 1));
        put<uint16_t>(p + 28, src.offmesh_flags[i]);
        p[30] = 2;
        p[31] = static_cast<uint8_t>((src.offmesh_areas[i] & 0x3f) | (kPolyTypeOffMesh << 6));
        ++k;
    }
}

// Detail: sub-mesh records, the vertices beyond each polygon's own (those are its first ones),
// the triangles as given. Without a detail mesh, a fan per polygon with its boundary edges
// flagged (edge 0 on the first triangle, edge 1 always, edge 2 on the last). The polygons'
// vertex counts are read from their written records.
void write_detail(const DetourTileSource& src, const TileSections& at) {
    const size_t np = static_cast<size_t>(src.poly_count);
    if (src.detail_meshes) {
        uint32_t vbase = 0;
        for (size_t i = 0; i < np; ++i) {
            const uint32_t* m = &src.detail_meshes[i * 4];
            const uint32_t nv = at.polys[i * kPolySize + 30];
            const uint32_t extra = m[1] - nv;
            uint8_t* d = at.dmeshes + i * kDetailMeshSize;
            put<uint32_t>(d + 0, vbase);
            put<uint32_t>(d + 4, m[2]);
            d[8] = static_cast<uint8_t>(extra);
            d[9] = static_cast<uint8_t>(m[3]);
            if (extra) {
                std::memcpy(at.dverts + size_t(vbase) * 12, &src.detail_verts[(size_t(m[0]) + nv) * 3], size_t(extra) * 12);
                vbase += extra;
            }
        }
        if (src.detail_tri_count > 0) std::memcpy(at.dtris, src.detail_tris, size_t(src.detail_tri_count) * 4);
        return;
    }
    uint32_t tbase = 0;
    for (size_t i = 0; i < np; ++i) {
        const int nv = at.polys[i * kPolySize + 30];
        uint8_t* d = at.dmeshes + i * kDetailMeshSize;
        put<uint32_t>(d + 4, tbase);
        d[9] = static_cast<uint8_t>(nv - 2);
        for (int j = 2; j < nv; ++j, ++tbase) {
            uint8_t* t = at.dtris + size_t(tbase) * 4;
            t[0] = 0;
            t[1] = static_cast<uint8_t>(j - 1);
            t[2] = static_cast<uint8_t>(j);
            t[3] = static_cast<uint8_t>((1 << 2) | (j == 2 ? 1 : 0) | (j == nv - 1 ? 1 << 4 : 0));
        }
    }
}

// The BV item of polygon i: bounds quantized by 1/cs on every axis (from the detail vertices when
// there are any, else from the polygon's voxel vertices with y rescaled by ch/cs).
BvItem bv_item(const DetourTileSource& src, size_t i) {
    BvItem it;
    it.i = static_cast<int>(i);
    if (src.detail_meshes) {
        const float quant = 1.0f / src.cs;
        const uint32_t vb = src.detail_meshes[i * 4 + 0];
        const uint32_t ndv = src.detail_meshes[i * 4 + 1];
        const float* dv = &src.detail_verts[size_t(vb) * 3];
        float bmin[3] = {dv[0], dv[1], dv[2]}, bmax[3] = {dv[0], dv[1], dv[2]};
        for (uint32_t j = 1; j < ndv; ++j)
            for (int k = 0; k < 3; ++k) {
                const float v = dv[size_t(j) * 3 + k];
                bmin[k] = dt_min(bmin[k], v);  // dtVmin
                bmax[k] = dt_max(bmax[k], v);  // dtVmax
            }
        for (int k = 0; k < 3; ++k) {
            it.bmin[k] = quantize(bmin[k], src.bmin[k], quant);
            it.bmax[k] = quantize(bmax[k], src.bmin[k], quant);
        }
        return it;
    }
    const uint16_t* p = &src.polys[i * 2 * static_cast<size_t>(src.nvp)];
    for (int k = 0; k < 3; ++k) it.bmin[k] = it.bmax[k] = src.verts[size_t(p[0]) * 3 + k];
    for (int j = 1; j < src.nvp && p[j] != kNullIdx; ++j)
        for (int k = 0; k < 3; ++k) {
            const uint16_t v = src.verts[size_t(p[j]) * 3 + k];
            it.bmin[k] = std::min(it.bmin[k], v);
            it.bmax[k] = std::max(it.bmax[k], v);
        }
    // (unsigned short)floorf(...): x86-64 converts through a 32-bit int and keeps the low
    // 16 bits; trunc_int does the conversion without C++'s undefined out-of-range cast.
    it.bmin[1] = static_cast<uint16_t>(
        static_cast<uint32_t>(trunc_int(std::floor(static_cast<float>(it.bmin[1]) * src.ch / src.cs))));
    it.bmax[1] = static_cast<uint16_t>(
        static_cast<uint32_t>(trunc_int(std::ceil(static_cast<float>(it.bmax[1]) * src.ch / src.cs))));
    return it;
}

// BV tree: Detour's subdivide over every polygon's item.
void write_bv_tree(const DetourTileSource& src, uint8_t* bvtree) {
    const size_t np = static_cast<size_t>(src.poly_count);
    std::vector<BvItem> scratch(np + np / 2 + 1);  // the items, then the merge buffer: one allocation
    BvItem* items = scratch.data();
    BvItem* tmp = items + np;
    for (size_t i = 0; i < np; ++i) items[i] = bv_item(src, i);
    int cur = 0;
    subdivide(items, 0, src.poly_count, cur, bvtree, tmp);
}

// Off-mesh connections stored in this tile.
void write_offmesh(const DetourTileSource& src, const TileCounts& n, uint8_t* offcons) {
    for (int i = 0, k = 0; i < src.offmesh_count; ++i) {
        if (n.cls[size_t(i) * 2] != 0xff) continue;
        uint8_t* c = offcons + size_t(k) * kOffMeshSize;
        std::memcpy(c, &src.offmesh_verts[size_t(i) * 6], 24);
        put<float>(c + 24, src.offmesh_rad[i]);
        put<uint16_t>(c + 28, static_cast<uint16_t>(src.poly_count + k));
        c[30] = src.offmesh_dir[i] ? kOffMeshBidir : 0;
        c[31] = n.cls[size_t(i) * 2 + 1];
        if (src.offmesh_user_id) put<uint32_t>(c + 32, src.offmesh_user_id[i]);
        ++k;
    }
}

}  // namespace

Status write_detour_tile(const DetourTileSource& src, std::vector<uint8_t>& out) {
    out.clear();
    TileCounts n;
    if (Status st = check_source(src); !st) return st;
    if (Status st = count_polygons(src, n); !st) return st;
    if (Status st = count_detail(src, n); !st) return st;
    classify_offmesh(src, n);
    TileSections at{};
    if (Status st = lay_out(src, n, out, at); !st) return st;
    write_header(src, n, at.hdr);
    write_vertices(src, n, at.verts);
    write_polygons(src, n, at.polys);
    write_detail(src, at);
    if (src.build_bv_tree) write_bv_tree(src, at.bvtree);
    write_offmesh(src, n, at.offcons);
    return Status::ok();
}

namespace {
// dtNextPow2 / dtIlog2 (RecastDemo has the same two).
uint32_t next_pow2(uint32_t v) {
    v--;
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    return v + 1;
}
int ilog2(uint32_t v) {
    int r = 0;
    while (v > 1) {
        v >>= 1;
        ++r;
    }
    return r;
}
}  // namespace

uint32_t detour_tile_ref(const DetourMeshParams& params, int i) {
    // dtNavMesh::init: tile bits and polygon bits from the rounded-up counts; every slot starts
    // with salt 1 and the free list hands out slot 0, 1, 2, ... in order.
    const int tile_bits = ilog2(next_pow2(static_cast<uint32_t>(std::max(params.max_tiles, 1))));
    const int poly_bits = ilog2(next_pow2(static_cast<uint32_t>(std::max(params.max_polys, 1))));
    const uint32_t salt = 1;
    if (poly_bits + tile_bits > 22 || i < 0 || i >= std::max(params.max_tiles, 1)) return 0;  // no such reference
    return (salt << (poly_bits + tile_bits)) | (static_cast<uint32_t>(i) << poly_bits);
}

Status check_detour_mesh_params(const DetourMeshParams& p) {
    const int tb = ilog2(next_pow2(static_cast<uint32_t>(std::max(p.max_tiles, 1))));
    const int pb = ilog2(next_pow2(static_cast<uint32_t>(std::max(p.max_polys, 1))));
    if (tb + pb > 22)
        return Status::bad_input("detour export: " + std::to_string(p.max_tiles) + " tiles of up to " +
                                 std::to_string(p.max_polys) + " polygons need " + std::to_string(tb + pb) +
                                 " bits of Detour's 32-bit polygon reference; at most 22 are left beside the salt");
    return Status::ok();
}

DetourMeshParams detour_mesh_params(const float orig[3], float tile_width, float tile_height, int tile_count,
                                    int max_polys_per_tile) {
    // Sample_TileMesh: tile bits for the tile count (at most 14), the remaining 22 - tile bits
    // for polygons, so that 10 bits are left for the salt. Beyond RecastDemo: when the largest tile
    // needs more polygon bits, they are taken (and, past 14, more tile bits when the tiles need
    // them); dtNavMesh::init refuses the result if fewer than 10 salt bits remain.
    DetourMeshParams p;
    for (int k = 0; k < 3; ++k) p.orig[k] = orig[k];
    p.tile_width = tile_width;
    p.tile_height = tile_height;
    const int tile_bits = ilog2(next_pow2(static_cast<uint32_t>(std::max(tile_count, 1))));
    const int poly_need = ilog2(next_pow2(static_cast<uint32_t>(std::max(max_polys_per_tile, 1))));
    // tile_bits <= 14 is RecastDemo's rule; past it (RecastDemo would cap the tiles and lose some)
    // the tiles keep their bits and the polygons get what is left of the 22.
    const int poly_bits = std::max(22 - tile_bits, poly_need);
    p.max_tiles = 1 << std::min(tile_bits, 30);
    p.max_polys = 1 << std::min(poly_bits, 30);
    return p;
}

void write_mset(const DetourMeshFile& file, std::vector<uint8_t>& out) {
    size_t total = kMsetHeaderSize;
    for (const DetourTileBytes& t : file.tiles) total += kMsetTileHeaderSize + t.data.size();
    out.assign(total, 0);
    uint8_t* h = out.data();
    put<int32_t>(h + 0, static_cast<int32_t>(kMsetMagic));
    put<int32_t>(h + 4, kMsetVersion);
    put<int32_t>(h + 8, static_cast<int32_t>(file.tiles.size()));
    for (int k = 0; k < 3; ++k) put<float>(h + 12 + 4 * k, file.params.orig[k]);
    put<float>(h + 24, file.params.tile_width);
    put<float>(h + 28, file.params.tile_height);
    put<int32_t>(h + 32, file.params.max_tiles);
    put<int32_t>(h + 36, file.params.max_polys);
    size_t at = kMsetHeaderSize;
    for (const DetourTileBytes& t : file.tiles) {
        put<uint32_t>(h + at, t.ref);
        put<int32_t>(h + at + 4, static_cast<int32_t>(t.data.size()));
        at += kMsetTileHeaderSize;
        if (!t.data.empty()) std::memcpy(h + at, t.data.data(), t.data.size());
        at += t.data.size();
    }
}

}  // namespace nav
