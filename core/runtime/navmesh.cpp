// Stage 11: the runtime navigation mesh (see navmesh.h).
#include "core/runtime/navmesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace nav {

double NavMesh::poly_area_xz(uint32_t p) const {
    // a fan from the first vertex (the polygon is convex), relative to it: world coordinates can be
    // large, the polygons are small
    const uint32_t e0 = poly_first[p], e1 = poly_first[p + 1];
    const float* a = vert(edge_vert[e0]);
    double area2 = 0;
    for (uint32_t e = e0 + 1; e + 1 < e1; ++e) {
        const float* v1 = vert(edge_vert[e]);
        const float* v2 = vert(edge_vert[e + 1]);
        area2 += std::fabs(static_cast<double>(v1[0] - a[0]) * (v2[2] - a[2]) - static_cast<double>(v2[0] - a[0]) * (v1[2] - a[2]));
    }
    return area2 * 0.5;
}

void NavMesh::edge_points(uint32_t e, float* left, float* right) const {
    const float* a = vert(edge_vert[e]);
    const float* b = vert(edge_vert[next_edge(e)]);
    left[0] = a[0], left[1] = a[1], left[2] = a[2];
    right[0] = b[0], right[1] = b[1], right[2] = b[2];
}

uint32_t NavMesh::find_edge(uint32_t from, uint32_t to) const {
    if (from >= static_cast<uint32_t>(npolys)) return kNoEdge;
    for (uint32_t e = poly_first[from]; e < poly_first[from + 1]; ++e)
        if (edge_nei[e] == to) return e;
    return kNoEdge;
}

namespace {

// Squared xz distance from (x, z) to segment ab, and the parameter of the closest point.
inline float seg_dist_sq_xz(float x, float z, const float* a, const float* b, float* t) {
    const float dx = b[0] - a[0], dz = b[2] - a[2];
    const float len = dx * dx + dz * dz;
    float s = len > 0 ? ((x - a[0]) * dx + (z - a[2]) * dz) / len : 0.0f;
    s = std::clamp(s, 0.0f, 1.0f);
    *t = s;
    const float px = a[0] + s * dx - x, pz = a[2] + s * dz - z;
    return px * px + pz * pz;
}

struct BVItem {
    float bmin[3], bmax[3];
    float center[3];
    uint32_t poly;
};

void build_bv(std::vector<BVItem>& items, int lo, int hi, std::vector<BVNode>& nodes) {
    const size_t self = nodes.size();
    nodes.emplace_back();
    BVNode& n = nodes[self];
    for (int k = 0; k < 3; ++k) {
        n.bmin[k] = std::numeric_limits<float>::max();
        n.bmax[k] = -std::numeric_limits<float>::max();
    }
    for (int i = lo; i < hi; ++i)
        for (int k = 0; k < 3; ++k) {
            n.bmin[k] = std::min(n.bmin[k], items[static_cast<size_t>(i)].bmin[k]);
            n.bmax[k] = std::max(n.bmax[k], items[static_cast<size_t>(i)].bmax[k]);
        }
    if (hi - lo == 1) {
        n.index = static_cast<int32_t>(items[static_cast<size_t>(lo)].poly);
        return;
    }
    int axis = 0;
    const float ext[3] = {n.bmax[0] - n.bmin[0], n.bmax[1] - n.bmin[1], n.bmax[2] - n.bmin[2]};
    if (ext[1] > ext[axis]) axis = 1;
    if (ext[2] > ext[axis]) axis = 2;
    const int mid = lo + (hi - lo) / 2;
    std::nth_element(items.begin() + lo, items.begin() + mid, items.begin() + hi,
                     [axis](const BVItem& a, const BVItem& b) {
                         if (a.center[axis] != b.center[axis]) return a.center[axis] < b.center[axis];
                         return a.poly < b.poly;
                     });
    build_bv(items, lo, mid, nodes);
    build_bv(items, mid, hi, nodes);
    nodes[self].index = -static_cast<int32_t>(nodes.size() - self);
}

// Shortest walking distances (between portal midpoints, through polygons, area cost 1) from
// edge slot `src` to every portal slot of its island, into dist (size nedges, +inf unreached).
// Both slots of a portal share one distance and are settled together.
void portal_dijkstra(const NavMesh& m, uint32_t src, std::vector<float>& dist,
                     std::vector<std::pair<float, uint32_t>>& heap) {
    std::fill(dist.begin(), dist.end(), std::numeric_limits<float>::infinity());
    heap.clear();
    auto cmp = [](const std::pair<float, uint32_t>& a, const std::pair<float, uint32_t>& b) { return a.first > b.first; };
    dist[src] = dist[m.edge_opp[src]] = 0;
    heap.emplace_back(0.0f, src);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), cmp);
        const auto [d, e] = heap.back();
        heap.pop_back();
        if (d > dist[e]) continue;
        for (const uint32_t side : {e, m.edge_opp[e]}) {
            const uint32_t p = m.edge_poly[side], e0 = m.poly_first[p], n = m.poly_first[p + 1] - e0;
            const float* row = &m.pair_dist[m.pair_first[p] + (side - e0) * n];
            for (uint32_t f = e0; f < e0 + n; ++f) {
                const uint32_t o = m.edge_opp[f];
                if (f == side || o == kNoEdge) continue;
                const float nd = d + row[f - e0];
                if (nd < dist[f]) {
                    dist[f] = dist[o] = nd;
                    heap.emplace_back(nd, f);
                    std::push_heap(heap.begin(), heap.end(), cmp);
                }
            }
        }
    }
}

void compute_landmarks(NavMesh& m) {
    constexpr int L = NavMesh::kLandmarks;
    const size_t ne = static_cast<size_t>(m.nedges);
    m.landmark_dist.assign(ne * L, 0.0f);
    m.island_landmarks.assign(static_cast<size_t>(m.nislands), 0);
    std::vector<float> dist(ne), mind(ne);
    std::vector<std::pair<float, uint32_t>> heap;
    for (int isl = 0; isl < m.nislands; ++isl) {
        const uint32_t k0 = m.island_first[static_cast<size_t>(isl)], k1 = m.island_first[static_cast<size_t>(isl) + 1];
        const int count = std::min<int>(L, static_cast<int>(k1 - k0) / 6);
        if (count == 0) continue;
        // Farthest-point choice: start from the slot farthest (in a straight line) from an
        // arbitrary one, then each next landmark is the slot farthest, walking, from all
        // landmarks chosen so far.
        const float* o = &m.edge_mid[static_cast<size_t>(m.island_portals[k0]) * 3];
        uint32_t next = m.island_portals[k0];
        float far_d = -1;
        for (uint32_t k = k0; k < k1; ++k) {
            const float* q = &m.edge_mid[static_cast<size_t>(m.island_portals[k]) * 3];
            const float d = (q[0] - o[0]) * (q[0] - o[0]) + (q[1] - o[1]) * (q[1] - o[1]) + (q[2] - o[2]) * (q[2] - o[2]);
            if (d > far_d) far_d = d, next = m.island_portals[k];
        }
        for (uint32_t k = k0; k < k1; ++k) mind[m.island_portals[k]] = std::numeric_limits<float>::infinity();
        for (int l = 0; l < count; ++l) {
            portal_dijkstra(m, next, dist, heap);
            uint32_t far = next;
            for (uint32_t k = k0; k < k1; ++k) {
                const uint32_t e = m.island_portals[k];
                m.landmark_dist[static_cast<size_t>(e) * L + static_cast<size_t>(l)] = dist[e];
                mind[e] = std::min(mind[e], dist[e]);
                if (mind[e] > mind[far]) far = e;
            }
            next = far;
        }
        m.island_landmarks[static_cast<size_t>(isl)] = static_cast<uint8_t>(count);
    }
}

}  // namespace

bool NavMesh::poly_height(uint32_t p, float x, float z, float* y) const {
    const uint32_t t0 = dtri_first[p], t1 = dtri_first[p + 1];
    constexpr float eps = 1e-4f;
    for (uint32_t t = t0; t < t1; ++t) {
        const float* f = &dtri_fast[static_cast<size_t>(t) * 9];
        const float px = x - f[0], pz = z - f[1];
        const float u = f[3] * px + f[4] * pz;
        const float v = f[5] * px + f[6] * pz;
        if (u >= -eps && v >= -eps && u + v <= 1 + eps) {
            *y = f[2] + u * f[7] + v * f[8];
            return true;
        }
    }
    // Outside every triangle: the height of the nearest point on a triangle edge.
    float best = std::numeric_limits<float>::max();
    for (uint32_t t = t0; t < t1; ++t) {
        const float* v = &dtris[static_cast<size_t>(t) * 9];
        for (int k = 0; k < 3; ++k) {
            const float* a = v + k * 3;
            const float* b = v + ((k + 1) % 3) * 3;
            float s;
            const float d = seg_dist_sq_xz(x, z, a, b, &s);
            if (d < best) {
                best = d;
                *y = a[1] + (b[1] - a[1]) * s;
            }
        }
    }
    return false;
}

namespace {

void reset(NavMesh& out) {
    out.npolys = out.nverts = out.nedges = 0;
    out.verts.clear();
    out.poly_first.clear();
    out.edge_vert.clear();
    out.edge_nei.clear();
    out.edge_opp.clear();
    out.edge_poly.clear();
    out.edge_mid.clear();
    out.areas.clear();
    out.flags.clear();
    out.poly_bounds.clear();
    out.poly_area_cum.clear();
    out.pair_first.clear();
    out.pair_dist.clear();
    out.poly_portals.clear();
    out.poly_island.clear();
    out.island_first.clear();
    out.island_portals.clear();
    out.nislands = 0;
    out.landmark_dist.clear();
    out.island_landmarks.clear();
    out.dtri_first.clear();
    out.dtris.clear();
    out.dtri_fast.clear();
    out.bvtree.clear();
    for (int k = 0; k < 3; ++k) out.bmin[k] = out.bmax[k] = 0;
}

Status build(const PolyMesh& mesh, const PolyMeshDetail& detail, NavMesh& out) {
    reset(out);
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

    // Vertices in world units.
    out.nverts = mesh.nverts;
    out.verts.resize(static_cast<size_t>(mesh.nverts) * 3);
    for (int i = 0; i < mesh.nverts; ++i) {
        const uint16_t* v = &mesh.verts[static_cast<size_t>(i) * 3];
        out.verts[static_cast<size_t>(i) * 3 + 0] = mesh.bmin[0] + static_cast<float>(v[0]) * mesh.cs;
        out.verts[static_cast<size_t>(i) * 3 + 1] = mesh.bmin[1] + static_cast<float>(v[1]) * mesh.ch;
        out.verts[static_cast<size_t>(i) * 3 + 2] = mesh.bmin[2] + static_cast<float>(v[2]) * mesh.cs;
    }

    // Polygons and edge slots.
    out.npolys = mesh.npolys;
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
            // With tiles (border_size > 0) 0x8000 | side marks a portal to the next tile, a wall
            // in a single-tile mesh; without tiles every value but kMeshNullIdx is a polygon.
            const bool tile_portal = mesh.border_size > 0 && (nb & 0x8000);
            if (nb != kMeshNullIdx && !tile_portal) {
                if (nb >= mesh.npolys)
                    return Status::bad_input("navmesh: polygon " + std::to_string(p) + " has neighbour " + std::to_string(nb) +
                                             " out of range");
                nei = nb;
            }
            out.edge_vert.push_back(pv[j]);
            out.edge_nei.push_back(nei);
            out.edge_poly.push_back(static_cast<uint32_t>(p));
        }
        out.poly_first[p + 1] = out.poly_first[p] + static_cast<uint32_t>(n);
        const uint8_t area = mesh.areas[p];
        if (area >= kMaxAreas) return Status::bad_input("navmesh: polygon " + std::to_string(p) + " has area id " + std::to_string(area) + " > 63");
        out.areas[p] = area;
        const uint16_t fl = p < mesh.flags.size() ? mesh.flags[p] : 0;
        out.flags[p] = fl ? fl : kPolyFlagDefault;

        // Orientation: Recast's winding has a non-positive signed area in (x, z).
        double a2 = 0;
        for (int j = 0; j < n; ++j) {
            const uint16_t* va = &mesh.verts[static_cast<size_t>(pv[j]) * 3];
            const uint16_t* vb = &mesh.verts[static_cast<size_t>(pv[(j + 1) % n]) * 3];
            a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
        }
        if (a2 > 0) return Status::bad_input("navmesh: polygon " + std::to_string(p) + " is wound counter-clockwise in xz");
    }
    out.nedges = static_cast<int>(out.edge_vert.size());
    const size_t ne = out.edge_vert.size();

    // Portal pairing and midpoints.
    out.edge_opp.assign(ne, kNoEdge);
    out.edge_mid.resize(ne * 3);
    for (uint32_t e = 0; e < ne; ++e) {
        const uint32_t n = out.next_edge(e);
        const float* a = out.vert(out.edge_vert[e]);
        const float* b = out.vert(out.edge_vert[n]);
        for (int k = 0; k < 3; ++k) out.edge_mid[e * 3 + k] = (a[k] + b[k]) * 0.5f;
        const uint32_t q = out.edge_nei[e];
        if (q == kNoPoly) continue;
        const uint32_t p = out.edge_poly[e];
        uint32_t match = kNoEdge, loose = kNoEdge;
        int loose_count = 0;
        for (uint32_t f = out.poly_first[q]; f < out.poly_first[q + 1]; ++f) {
            if (out.edge_nei[f] != p) continue;
            ++loose_count;
            loose = f;
            if (out.edge_vert[f] == out.edge_vert[n] && out.edge_vert[out.next_edge(f)] == out.edge_vert[e]) match = f;
        }
        if (match == kNoEdge && loose_count == 1) match = loose;
        if (match == kNoEdge)
            return Status::bad_input("navmesh: polygon " + std::to_string(p) + " lists neighbour " + std::to_string(q) +
                                     " on edge " + std::to_string(e - out.poly_first[p]) + " but not the other way round");
        out.edge_opp[e] = match;
    }

    // Midpoint-to-midpoint distances inside each polygon, portal counts.
    out.poly_portals.assign(np, 0);
    for (uint32_t e = 0; e < ne; ++e)
        if (out.edge_opp[e] != kNoEdge) ++out.poly_portals[out.edge_poly[e]];
    out.pair_first.resize(np);
    for (size_t p = 0; p < np; ++p) {
        const uint32_t e0 = out.poly_first[p], n = out.poly_first[p + 1] - e0;
        out.pair_first[p] = static_cast<uint32_t>(out.pair_dist.size());
        for (uint32_t a = 0; a < n; ++a)
            for (uint32_t b = 0; b < n; ++b) {
                const float* ma = &out.edge_mid[(e0 + a) * 3];
                const float* mb = &out.edge_mid[(e0 + b) * 3];
                const float dx = mb[0] - ma[0], dy = mb[1] - ma[1], dz = mb[2] - ma[2];
                out.pair_dist.push_back(std::sqrt(dx * dx + dy * dy + dz * dz));
            }
    }

    // Islands (flood fill over portals) and their portal edge slots.
    out.poly_island.assign(np, kNoPoly);
    {
        std::vector<uint32_t> stack;
        for (size_t seed = 0; seed < np; ++seed) {
            if (out.poly_island[seed] != kNoPoly) continue;
            const uint32_t id = static_cast<uint32_t>(out.nislands++);
            out.poly_island[seed] = id;
            stack.assign(1, static_cast<uint32_t>(seed));
            while (!stack.empty()) {
                const uint32_t p = stack.back();
                stack.pop_back();
                for (uint32_t e = out.poly_first[p]; e < out.poly_first[p + 1]; ++e) {
                    const uint32_t q = out.edge_nei[e];
                    if (q != kNoPoly && out.poly_island[q] == kNoPoly) {
                        out.poly_island[q] = id;
                        stack.push_back(q);
                    }
                }
            }
        }
        out.island_first.assign(static_cast<size_t>(out.nislands) + 1, 0);
        for (uint32_t e = 0; e < ne; ++e)
            if (out.edge_opp[e] != kNoEdge) ++out.island_first[out.poly_island[out.edge_poly[e]] + 1];
        for (int i = 0; i < out.nislands; ++i) out.island_first[static_cast<size_t>(i) + 1] += out.island_first[static_cast<size_t>(i)];
        out.island_portals.resize(out.island_first.back());
        std::vector<uint32_t> fill(out.island_first.begin(), out.island_first.end() - 1);
        for (uint32_t e = 0; e < ne; ++e)
            if (out.edge_opp[e] != kNoEdge) out.island_portals[fill[out.poly_island[out.edge_poly[e]]]++] = e;
    }

    compute_landmarks(out);

    // Detail triangles resolved to world coordinates (a fan of the polygon when it has none).
    out.dtri_first.resize(np + 1);
    out.dtri_first[0] = 0;
    const size_t dverts = detail.verts.size() / 3, dtris_n = detail.tris.size() / 4;
    for (size_t p = 0; p < np; ++p) {
        const uint32_t e0 = out.poly_first[p], nv = out.poly_first[p + 1] - e0;
        uint32_t tcount = 0;
        if (have_detail) {
            const uint32_t* m = &detail.meshes[p * 4];
            const uint32_t vbase = m[0], vcount = m[1], tbase = m[2];
            tcount = m[3];
            if (static_cast<size_t>(vbase) + vcount > dverts || static_cast<size_t>(tbase) + tcount > dtris_n)
                return Status::bad_input("navmesh: detail sub-mesh of polygon " + std::to_string(p) + " is out of range");
            for (uint32_t t = 0; t < tcount; ++t) {
                const uint8_t* tri = &detail.tris[(static_cast<size_t>(tbase) + t) * 4];
                for (int k = 0; k < 3; ++k) {
                    if (tri[k] >= vcount)
                        return Status::bad_input("navmesh: detail triangle of polygon " + std::to_string(p) + " has vertex " +
                                                 std::to_string(tri[k]) + " out of range");
                    const float* v = &detail.verts[(static_cast<size_t>(vbase) + tri[k]) * 3];
                    out.dtris.insert(out.dtris.end(), v, v + 3);
                }
            }
        }
        if (tcount == 0) {
            for (uint32_t j = 1; j + 1 < nv; ++j) {
                const float* a = out.vert(out.edge_vert[e0]);
                const float* b = out.vert(out.edge_vert[e0 + j]);
                const float* c = out.vert(out.edge_vert[e0 + j + 1]);
                out.dtris.insert(out.dtris.end(), a, a + 3);
                out.dtris.insert(out.dtris.end(), b, b + 3);
                out.dtris.insert(out.dtris.end(), c, c + 3);
            }
            tcount = nv - 2;
        }
        out.dtri_first[p + 1] = out.dtri_first[p] + tcount;
    }
    for (float v : out.dtris)
        if (!std::isfinite(v)) return Status::bad_input("navmesh: detail mesh has a non-finite coordinate");
    const size_t ntri = out.dtris.size() / 9;
    out.dtri_fast.resize(ntri * 9);
    for (size_t t = 0; t < ntri; ++t) {
        const float* a = &out.dtris[t * 9];
        const float* b = a + 3;
        const float* c = a + 6;
        float* f = &out.dtri_fast[t * 9];
        const double v0x = c[0] - a[0], v0z = c[2] - a[2], v1x = b[0] - a[0], v1z = b[2] - a[2];
        const double det = v0x * v1z - v1x * v0z;
        const double scale = std::max(std::fabs(v0x * v1z), std::fabs(v1x * v0z));
        f[0] = std::fabs(det) > 1e-9 * scale && det != 0 ? a[0] : std::numeric_limits<float>::quiet_NaN();
        f[1] = a[2];
        f[2] = a[1];
        const double inv = det != 0 ? 1.0 / det : 0.0;
        f[3] = static_cast<float>(v1z * inv);
        f[4] = static_cast<float>(-v1x * inv);
        f[5] = static_cast<float>(-v0z * inv);
        f[6] = static_cast<float>(v0x * inv);
        f[7] = c[1] - a[1];
        f[8] = b[1] - a[1];
    }

    // Bounds and xz areas per polygon.
    out.poly_bounds.resize(np * 6);
    out.poly_area_cum.resize(np);
    double cum = 0;
    for (size_t p = 0; p < np; ++p) {
        float* b = &out.poly_bounds[p * 6];
        for (int k = 0; k < 3; ++k) {
            b[k] = std::numeric_limits<float>::max();
            b[3 + k] = -std::numeric_limits<float>::max();
        }
        const uint32_t e0 = out.poly_first[p], e1 = out.poly_first[p + 1];
        for (uint32_t e = e0; e < e1; ++e) {
            const float* v = out.vert(out.edge_vert[e]);
            for (int k = 0; k < 3; ++k) b[k] = std::min(b[k], v[k]), b[3 + k] = std::max(b[3 + k], v[k]);
        }
        for (uint32_t t = out.dtri_first[p] * 3; t < out.dtri_first[p + 1] * 3; ++t) {
            const float y = out.dtris[static_cast<size_t>(t) * 3 + 1];
            b[1] = std::min(b[1], y), b[4] = std::max(b[4], y);
        }
        cum += out.poly_area_xz(static_cast<uint32_t>(p));
        out.poly_area_cum[p] = static_cast<float>(cum);
        for (int k = 0; k < 3; ++k) {
            out.bmin[k] = p == 0 ? b[k] : std::min(out.bmin[k], b[k]);
            out.bmax[k] = p == 0 ? b[3 + k] : std::max(out.bmax[k], b[3 + k]);
        }
    }

    // Bounding-volume tree.
    std::vector<BVItem> items(np);
    for (size_t p = 0; p < np; ++p) {
        const float* b = &out.poly_bounds[p * 6];
        for (int k = 0; k < 3; ++k) {
            items[p].bmin[k] = b[k];
            items[p].bmax[k] = b[3 + k];
            items[p].center[k] = (b[k] + b[3 + k]) * 0.5f;
        }
        items[p].poly = static_cast<uint32_t>(p);
    }
    out.bvtree.reserve(np * 2);
    build_bv(items, 0, static_cast<int>(np), out.bvtree);
    return Status::ok();
}

}  // namespace

Status build_navmesh(const PolyMesh& mesh, const PolyMeshDetail& detail, NavMesh& out) {
    Status s = build(mesh, detail, out);
    if (!s) reset(out);  // never leave a half-built mesh behind
    return s;
}

}  // namespace nav
