// Stage 11: the runtime navigation mesh (see navmesh.h).
#include "core/runtime/navmesh.h"

#include "core/runtime/query.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <tuple>
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
// edge slot `src` to every portal slot of its island (portals[0, nport)), into dist (size
// nedges, +inf unreached; only the island's slots are reset and written, so a mesh of many
// islands costs the sum of its islands, not islands x edges).
// Both slots of a portal share one distance and are settled together.
void portal_dijkstra(const NavMesh& m, uint32_t src, const uint32_t* portals, uint32_t nport, std::vector<float>& dist,
                     std::vector<std::pair<float, uint32_t>>& heap) {
    for (uint32_t k = 0; k < nport; ++k) dist[portals[k]] = std::numeric_limits<float>::infinity();
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

// Island isl's landmarks, from scratch: the columns of its portal slots in t.dist (zero-filled
// by the caller) and t.count[isl].
void island_landmarks(const NavMesh& m, LandmarkTable& t, int isl, std::vector<float>& dist, std::vector<float>& mind,
                      std::vector<std::pair<float, uint32_t>>& heap) {
    constexpr int L = NavMesh::kLandmarks;
    const uint32_t k0 = m.island_first[static_cast<size_t>(isl)], k1 = m.island_first[static_cast<size_t>(isl) + 1];
    const int count = std::min<int>(L, static_cast<int>(k1 - k0) / 6);
    if (count == 0) return;
    const uint32_t* portals = &m.island_portals[k0];
    const uint32_t nport = k1 - k0;
    // Farthest-point choice: start from the slot farthest (in a straight line) from an
    // arbitrary one, then each next landmark is the slot farthest, walking, from all
    // landmarks chosen so far.
    const float* o = &m.edge_mid[static_cast<size_t>(portals[0]) * 3];
    uint32_t next = portals[0];
    float far_d = -1;
    for (uint32_t k = 0; k < nport; ++k) {
        const float* q = &m.edge_mid[static_cast<size_t>(portals[k]) * 3];
        const float d = (q[0] - o[0]) * (q[0] - o[0]) + (q[1] - o[1]) * (q[1] - o[1]) + (q[2] - o[2]) * (q[2] - o[2]);
        if (d > far_d) far_d = d, next = portals[k];
    }
    for (uint32_t k = 0; k < nport; ++k) mind[portals[k]] = std::numeric_limits<float>::infinity();
    for (int l = 0; l < count; ++l) {
        portal_dijkstra(m, next, portals, nport, dist, heap);
        uint32_t far = next;
        for (uint32_t k = 0; k < nport; ++k) {
            const uint32_t e = portals[k];
            t.dist[static_cast<size_t>(e) * L + static_cast<size_t>(l)] = dist[e];
            mind[e] = std::min(mind[e], dist[e]);
            if (mind[e] > mind[far]) far = e;
        }
        next = far;
    }
    t.count[static_cast<size_t>(isl)] = static_cast<uint8_t>(count);
}

// Computes the islands marked pending in t (a cancel between islands leaves the rest pending).
void compute_pending(const NavMesh& m, LandmarkTable& t, const CancelFlag* cancel) {
    if (t.islands_pending == 0) return;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<float> dist(static_cast<size_t>(m.nedges)), mind(static_cast<size_t>(m.nedges));
    std::vector<std::pair<float, uint32_t>> heap;
    for (int isl = 0; isl < m.nislands && t.islands_pending > 0; ++isl) {
        if (!t.pending[static_cast<size_t>(isl)]) continue;
        if (cancel && cancel->load(std::memory_order_relaxed)) break;
        island_landmarks(m, t, isl, dist, mind, heap);
        t.pending[static_cast<size_t>(isl)] = 0;
        --t.islands_pending;
    }
    t.ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The landmark table of the whole mesh, one set of landmarks per island across every tile.
// An island whose tiles all have the same graph object as in `previous` (so the same polygons,
// edges and portals, slot by slot, and no tile of another island joined it: a join changes the
// graph of both tiles at the seam; the island is then found again at the same first portal, in
// order) is the same island there, and its columns are copied from previous's table (mapped
// slot by slot) instead of recomputed, when previous's table has it computed: a rebuild of one
// tile recomputes only the islands that touch the tiles whose graph changed (it and its
// neighbours). The copy equals a fresh computation exactly (same inputs, same order). The other
// islands are computed here, or left pending when `defer`.
std::shared_ptr<const LandmarkTable> compute_landmarks(const NavMesh& m, const NavMesh* previous, bool defer) {
    constexpr int L = NavMesh::kLandmarks;
    auto table = std::make_shared<LandmarkTable>();
    LandmarkTable& t = *table;
    t.dist.assign(static_cast<size_t>(m.nedges) * L, 0.0f);
    t.count.assign(static_cast<size_t>(m.nislands), 0);
    t.pending.assign(static_cast<size_t>(m.nislands), 0);
    const std::shared_ptr<const LandmarkTable> ptable = previous ? previous->landmarks() : nullptr;
    const NavMesh* P = ptable && previous->npolys > 0 && ptable->dist.size() == static_cast<size_t>(previous->nedges) * L
                           ? previous
                           : nullptr;
    std::vector<char> changed(static_cast<size_t>(m.nislands), 1);
    if (P) {
        std::vector<char> same_slot(m.slots.size(), 0);
        for (size_t s = 0; s < m.slots.size(); ++s) {
            const TileSlot& a = m.slots[s];
            same_slot[s] = a.tile && s < P->slots.size() && P->slots[s].tile == a.tile && P->slots[s].graph == a.graph;
        }
        std::fill(changed.begin(), changed.end(), 0);
        for (uint32_t p = 0; p < static_cast<uint32_t>(m.npolys); ++p)
            if (!same_slot[m.poly_slot[p]]) changed[m.poly_island[p]] = 1;
    }
    for (int isl = 0; isl < m.nislands; ++isl) {
        const uint32_t k0 = m.island_first[static_cast<size_t>(isl)], k1 = m.island_first[static_cast<size_t>(isl) + 1];
        if (k0 == k1) continue;  // no portal: no landmark
        if (!changed[static_cast<size_t>(isl)]) {
            // The previous slot of each portal slot: same slot, same local edge.
            auto prev_edge = [&](uint32_t e) {
                const uint32_t s = m.poly_slot[m.edge_poly[e]];
                return P->slots[s].edge_base + (e - m.slots[s].edge_base);
            };
            const uint32_t pisl = P->poly_island[P->edge_poly[prev_edge(m.island_portals[k0])]];
            if (!ptable->pending[pisl]) {
                t.count[static_cast<size_t>(isl)] = ptable->count[pisl];
                for (uint32_t k = k0; k < k1; ++k) {
                    const uint32_t e = m.island_portals[k];
                    const float* from = &ptable->dist[static_cast<size_t>(prev_edge(e)) * L];
                    std::copy(from, from + L, &t.dist[static_cast<size_t>(e) * L]);
                }
                ++t.islands_reused;
                continue;
            }
        }
        t.pending[static_cast<size_t>(isl)] = 1;
        ++t.islands_pending;
    }
    if (!defer) compute_pending(m, t, nullptr);
    return table;
}

}  // namespace

namespace {

constexpr float kHeightEps = 1e-4f;  // poly_height's tolerance, in barycentric units

// Detail triangle t's height at (x, z) when it contains the point (within kHeightEps).
inline bool tri_height(const float* dtri_fast, uint32_t t, float x, float z, float* y) {
    const float* f = &dtri_fast[static_cast<size_t>(t) * 9];
    const float px = x - f[0], pz = z - f[1];
    const float u = f[3] * px + f[4] * pz;
    const float v = f[5] * px + f[6] * pz;
    if (u >= -kHeightEps && v >= -kHeightEps && u + v <= 1 + kHeightEps) {
        *y = f[2] + u * f[7] + v * f[8];
        return true;
    }
    return false;
}

// Cell coordinate of x along an axis of a grid: monotonic in x (so a point inside a range of
// coordinates lands in the cells of that range), clamped to the grid.
inline uint32_t grid_cell(float x, float x0, float inv, uint32_t n) {
    const float c = std::floor((x - x0) * inv);
    return c <= 0 ? 0u : (c >= static_cast<float>(n - 1) ? n - 1 : static_cast<uint32_t>(c));
}

// The detail grids of every polygon with at least kGridMinTris triangles (see NavMesh::DetailGrid).
void build_detail_grids(NavMesh& m) {
    m.poly_dgrid.assign(static_cast<size_t>(m.npolys), kNoPoly);
    m.dgrids.clear();
    m.dgrid_cell_first.assign(1, 0);
    m.dgrid_tris.clear();
    // Per polygon, reused: each triangle's grown bounds and cell ranges, each cell's count and fill.
    std::vector<float> tb;
    std::vector<uint32_t> ranges, count, fill;
    for (uint32_t p = 0; p < static_cast<uint32_t>(m.npolys); ++p) {
        const uint32_t t0 = m.dtri_first[p], t1 = m.dtri_first[p + 1], n = t1 - t0;
        if (n < NavMesh::kGridMinTris) continue;
        // Each triangle's xz bounds, grown to cover what the tolerant test accepts: the region
        // u, v >= -eps, u + v <= 1 + eps is the triangle scaled by 1 + 3 eps about its centroid;
        // plus room for rounding at these coordinates.
        float bmin[2] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
        float bmax[2] = {-std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
        tb.resize(static_cast<size_t>(n) * 4);
        for (uint32_t t = t0; t < t1; ++t) {
            float* b = &tb[static_cast<size_t>(t - t0) * 4];
            if (std::isnan(m.dtri_fast[static_cast<size_t>(t) * 9])) {  // degenerate: contains nothing
                b[0] = std::numeric_limits<float>::quiet_NaN();
                continue;
            }
            const float* v = &m.dtris[static_cast<size_t>(t) * 9];
            float lo[2] = {v[0], v[2]}, hi[2] = {v[0], v[2]};
            for (int k = 1; k < 3; ++k) {
                lo[0] = std::min(lo[0], v[k * 3]), hi[0] = std::max(hi[0], v[k * 3]);
                lo[1] = std::min(lo[1], v[k * 3 + 2]), hi[1] = std::max(hi[1], v[k * 3 + 2]);
            }
            const float ext = std::max(hi[0] - lo[0], hi[1] - lo[1]);
            const float mag = std::max({std::fabs(lo[0]), std::fabs(hi[0]), std::fabs(lo[1]), std::fabs(hi[1])});
            const float margin = 4 * kHeightEps * ext + 1e-5f * mag + 1e-4f;
            b[0] = lo[0] - margin, b[1] = hi[0] + margin, b[2] = lo[1] - margin, b[3] = hi[1] + margin;
            bmin[0] = std::min(bmin[0], b[0]), bmax[0] = std::max(bmax[0], b[1]);
            bmin[1] = std::min(bmin[1], b[2]), bmax[1] = std::max(bmax[1], b[3]);
        }
        if (!(bmin[0] <= bmax[0])) continue;  // every triangle degenerate
        // About two triangles per cell, at most 16 x 16 cells.
        const uint32_t side = std::clamp<uint32_t>(static_cast<uint32_t>(std::sqrt(static_cast<float>(n) / 2.0f)), 1u, 16u);
        NavMesh::DetailGrid g{};
        g.x0 = bmin[0], g.z0 = bmin[1];
        g.nx = g.nz = side;
        g.inv_cx = bmax[0] > bmin[0] ? static_cast<float>(side) / (bmax[0] - bmin[0]) : 0.0f;
        g.inv_cz = bmax[1] > bmin[1] ? static_cast<float>(side) / (bmax[1] - bmin[1]) : 0.0f;
        g.cell0 = static_cast<uint32_t>(m.dgrid_cell_first.size() - 1);
        const size_t cells = static_cast<size_t>(side) * side;
        ranges.assign(static_cast<size_t>(n) * 4, 0);
        count.assign(cells, 0);
        for (uint32_t k = 0; k < n; ++k) {
            const float* b = &tb[static_cast<size_t>(k) * 4];
            if (std::isnan(b[0])) continue;
            uint32_t* r = &ranges[static_cast<size_t>(k) * 4];
            r[0] = grid_cell(b[0], g.x0, g.inv_cx, side), r[1] = grid_cell(b[1], g.x0, g.inv_cx, side) + 1;
            r[2] = grid_cell(b[2], g.z0, g.inv_cz, side), r[3] = grid_cell(b[3], g.z0, g.inv_cz, side) + 1;
            for (uint32_t cz = r[2]; cz < r[3]; ++cz)
                for (uint32_t cx = r[0]; cx < r[1]; ++cx) ++count[static_cast<size_t>(cz) * side + cx];
        }
        const uint32_t base = static_cast<uint32_t>(m.dgrid_tris.size());
        fill.resize(cells);
        uint32_t at = base;
        for (size_t c = 0; c < cells; ++c) {
            fill[c] = at;
            at += count[c];
            m.dgrid_cell_first.push_back(at);
        }
        m.dgrid_tris.resize(at);
        for (uint32_t k = 0; k < n; ++k) {  // ascending: each cell's list stays in triangle order
            const uint32_t* r = &ranges[static_cast<size_t>(k) * 4];
            for (uint32_t cz = r[2]; cz < r[3]; ++cz)
                for (uint32_t cx = r[0]; cx < r[1]; ++cx) m.dgrid_tris[fill[static_cast<size_t>(cz) * side + cx]++] = t0 + k;
        }
        m.poly_dgrid[p] = static_cast<uint32_t>(m.dgrids.size());
        m.dgrids.push_back(g);
    }
}

}  // namespace

bool NavMesh::poly_height(uint32_t p, float x, float z, float* y) const {
    const uint32_t t0 = dtri_first[p], t1 = dtri_first[p + 1];
    const uint32_t gi = poly_dgrid.empty() ? kNoPoly : poly_dgrid[p];
    if (gi != kNoPoly) {
        // A triangle containing (x, z) has it inside its grown bounds, so it is listed in the
        // cell of (x, z); the list is in triangle order, so the first hit is the scan's.
        const DetailGrid& g = dgrids[gi];
        const uint32_t c = g.cell0 + grid_cell(z, g.z0, g.inv_cz, g.nz) * g.nx + grid_cell(x, g.x0, g.inv_cx, g.nx);
        for (uint32_t k = dgrid_cell_first[c]; k < dgrid_cell_first[c + 1]; ++k)
            if (tri_height(dtri_fast.data(), dgrid_tris[k], x, z, y)) return true;
    } else {
        for (uint32_t t = t0; t < t1; ++t)
            if (tri_height(dtri_fast.data(), t, x, z, y)) return true;
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

void clear_links(NavMesh& out) {
    for (auto* v : {&out.link_start, &out.link_end, &out.link_length}) v->clear();
    for (auto* v : {&out.link_start_poly, &out.link_end_poly, &out.link_user_id, &out.poly_link_first, &out.poly_link_trav,
                    &out.island_link_first, &out.island_link_to})
        v->clear();
    for (auto* v : {&out.link_area, &out.link_bidir, &out.link_status, &out.island_has_out_link}) v->clear();
    out.link_flags.clear();
    out.nlinks = out.nlinks_connected = 0;
}

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
    out.types.clear();
    out.poly_bounds.clear();
    out.poly_area_cum.clear();
    out.pair_first.clear();
    out.pair_dist.clear();
    out.poly_portals.clear();
    out.poly_island.clear();
    out.island_first.clear();
    out.island_portals.clear();
    out.nislands = 0;
    out.landmark_cell.reset();
    out.dtri_first.clear();
    out.dtris.clear();
    out.dtri_fast.clear();
    out.poly_dgrid.clear();
    out.dgrids.clear();
    out.dgrid_cell_first.clear();
    out.dgrid_tris.clear();
    out.bvtree.clear();
    out.slots.clear();
    out.poly_slot.clear();
    out.ntiles = 0;
    out.split_edges = 0;
    out.tiles_reused = 0;
    clear_links(out);
    for (int k = 0; k < 3; ++k) out.bmin[k] = out.bmax[k] = 0;
}

std::string tile_name(const NavTile& t);

}  // namespace

Status check_offmesh_link(const OffMeshLink& l, const std::string& name) {
    if (!std::isfinite(l.start[0]) || !std::isfinite(l.start[1]) || !std::isfinite(l.start[2]))
        return Status::bad_input(name + ": start is not finite");
    if (!std::isfinite(l.end[0]) || !std::isfinite(l.end[1]) || !std::isfinite(l.end[2]))
        return Status::bad_input(name + ": end is not finite");
    if (!std::isfinite(l.radius) || l.radius < 0)
        return Status::bad_input(name + ": radius " + std::to_string(l.radius) + " (expected a finite radius >= 0 m)");
    if (l.area >= kMaxAreas) return Status::bad_input(name + ": area id " + std::to_string(l.area) + " > 63");
    return Status::ok();
}

namespace {

// The off-mesh links: validated, each end connected to its nearest polygon (see NavMesh's
// "Off-mesh links"), the per-polygon traversal CSR and the island-level link graph. Runs after
// the polygons and islands are in place; touches no tile graph.
Status link_offmesh(std::span<const OffMeshLink> extra, NavMesh& out) {
    std::vector<const OffMeshLink*> all;
    all.reserve(extra.size());
    for (size_t i = 0; i < extra.size(); ++i) {
        if (Status s = check_offmesh_link(extra[i], "navmesh: link " + std::to_string(i)); !s) return s;
        all.push_back(&extra[i]);
    }
    float climb = 0;
    for (const TileSlot& slot : out.slots) {
        if (!slot.tile) continue;
        climb = std::max(climb, slot.tile->walkable_climb);
        for (size_t i = 0; i < slot.tile->links.size(); ++i) {
            const std::string name = "navmesh: link " + std::to_string(all.size()) + " (" + tile_name(*slot.tile) +
                                     " off-mesh link " + std::to_string(i) + ")";
            if (Status s = check_offmesh_link(slot.tile->links[i], name); !s) return s;
            all.push_back(&slot.tile->links[i]);
        }
    }
    clear_links(out);  // everything checked: from here on nothing fails
    const size_t nl = all.size();
    out.nlinks = static_cast<int>(nl);
    out.nlinks_connected = 0;
    if (nl == 0) return Status::ok();
    out.link_start.resize(nl * 3);
    out.link_end.resize(nl * 3);
    out.link_start_poly.assign(nl, kNoPoly);
    out.link_end_poly.assign(nl, kNoPoly);
    out.link_length.resize(nl);
    out.link_area.resize(nl);
    out.link_flags.resize(nl);
    out.link_bidir.resize(nl);
    out.link_status.resize(nl);
    out.link_user_id.resize(nl);

    NavQuery q;
    q.init(&out);
    QueryFilter any;  // every polygon with a flag, disabled ones too (flags change at run time)
    any.exclude_flags = 0;
    // Connects point p (radius r) to its nearest polygon: the polygon, p moved onto it; kNoPoly when none.
    auto connect = [&](const float* p, float r, float* moved) -> uint32_t {
        for (int k = 0; k < 3; ++k) moved[k] = p[k];
        const float ext[3] = {r, std::max(r, climb), r};
        NearestPoly np;
        if (!q.find_nearest_poly(p, ext, any, np) || np.poly == kNoRef) return kNoPoly;
        const float dx = np.point[0] - p[0], dz = np.point[2] - p[2];
        const float tol = 1e-5f * std::max({1.0f, std::fabs(p[0]), std::fabs(p[2])});
        if (std::sqrt(dx * dx + dz * dz) > r + tol || std::fabs(np.point[1] - p[1]) > ext[1] + tol) return kNoPoly;
        for (int k = 0; k < 3; ++k) moved[k] = np.point[k];
        return out.poly_index(np.poly);
    };
    size_t ntrav = 0;
    for (size_t i = 0; i < nl; ++i) {
        const OffMeshLink& l = *all[i];
        float* a = &out.link_start[i * 3];
        float* b = &out.link_end[i * 3];
        out.link_start_poly[i] = connect(l.start, l.radius, a);
        out.link_end_poly[i] = connect(l.end, l.radius, b);
        out.link_status[i] = static_cast<uint8_t>((out.link_start_poly[i] == kNoPoly ? NavMesh::kLinkStartUnconnected : 0) |
                                                  (out.link_end_poly[i] == kNoPoly ? NavMesh::kLinkEndUnconnected : 0));
        const float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
        out.link_length[i] = std::sqrt(dx * dx + dy * dy + dz * dz);
        out.link_area[i] = l.area;
        out.link_flags[i] = l.flags;
        out.link_bidir[i] = l.bidir ? 1 : 0;
        out.link_user_id[i] = l.user_id;
        if (out.link_status[i] == NavMesh::kLinkConnected) {
            ++out.nlinks_connected;
            ntrav += l.bidir ? 2 : 1;
        }
    }
    if (out.nlinks_connected == 0) return Status::ok();

    // Traversals per polygon (CSR, counting sort by the polygon they leave).
    const size_t np = static_cast<size_t>(out.npolys);
    out.poly_link_first.assign(np + 1, 0);
    out.poly_link_trav.resize(ntrav);
    auto each_trav = [&](auto&& fn) {
        for (uint32_t i = 0; i < static_cast<uint32_t>(nl); ++i) {
            if (out.link_status[i] != NavMesh::kLinkConnected) continue;
            fn(i * 2);
            if (out.link_bidir[i]) fn(i * 2 + 1);
        }
    };
    each_trav([&](uint32_t t) { ++out.poly_link_first[out.trav_from_poly(t) + 1]; });
    for (size_t p = 0; p < np; ++p) out.poly_link_first[p + 1] += out.poly_link_first[p];
    {
        std::vector<uint32_t> fill(out.poly_link_first.begin(), out.poly_link_first.end() - 1);
        each_trav([&](uint32_t t) { out.poly_link_trav[fill[out.trav_from_poly(t)]++] = t; });
    }
    // The island graph: (from island, to island) pairs, sorted and deduplicated, as CSR.
    const size_t ni = static_cast<size_t>(out.nislands);
    out.island_has_out_link.assign(ni, 0);
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    pairs.reserve(ntrav);
    each_trav([&](uint32_t t) {
        const uint32_t a = out.poly_island[out.trav_from_poly(t)], b = out.poly_island[out.trav_to_poly(t)];
        out.island_has_out_link[a] = 1;
        if (a != b) pairs.emplace_back(a, b);
    });
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    out.island_link_first.assign(ni + 1, 0);
    out.island_link_to.resize(pairs.size());
    for (size_t k = 0; k < pairs.size(); ++k) {
        ++out.island_link_first[pairs[k].first + 1];
        out.island_link_to[k] = pairs[k].second;
    }
    for (size_t i = 0; i < ni; ++i) out.island_link_first[i + 1] += out.island_link_first[i];
    return Status::ok();
}

std::string tile_name(const NavTile& t) {
    return "tile (" + std::to_string(t.x) + ", " + std::to_string(t.z) + (t.layer ? ", layer " + std::to_string(t.layer) : "") + ")";
}

// Polygon p's xz bounds and the y range of its vertices and detail triangles.
void poly_box(const NavTile& t, uint32_t p, float* bmin, float* bmax) {
    for (int k = 0; k < 3; ++k) bmin[k] = std::numeric_limits<float>::max(), bmax[k] = -std::numeric_limits<float>::max();
    for (uint32_t e = t.poly_first[p]; e < t.poly_first[p + 1]; ++e) {
        const float* v = &t.verts[static_cast<size_t>(t.edge_vert[e]) * 3];
        for (int k = 0; k < 3; ++k) bmin[k] = std::min(bmin[k], v[k]), bmax[k] = std::max(bmax[k], v[k]);
    }
    if (!t.detail_first.empty())
        for (uint32_t i = t.detail_first[p] * 3; i < t.detail_first[p + 1] * 3; ++i) {
            const float y = t.detail_tris[static_cast<size_t>(i) * 3 + 1];
            bmin[1] = std::min(bmin[1], y), bmax[1] = std::max(bmax[1], y);
        }
}

// A portal edge of a tile on one side: polygon, edge slot, and its extent along the border line.
struct SideEdge {
    uint32_t poly, edge;
};

// The axis a border line runs along: z for the x sides (0, 2), x for the z sides (1, 3).
inline int along_axis(int side) { return (side & 1) ? 0 : 2; }
inline int across_axis(int side) { return (side & 1) ? 2 : 0; }

// Height of segment a-b at coordinate u along axis `ax` (clamped into the segment).
inline float height_at(const float* a, const float* b, int ax, float u) {
    const float d = b[ax] - a[ax];
    if (d == 0) return std::max(a[1], b[1]);
    const float t = std::clamp((u - a[ax]) / d, 0.0f, 1.0f);
    return a[1] + (b[1] - a[1]) * t;
}

inline uint64_t cell_key(int x, int z) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(x)) << 32) | static_cast<uint32_t>(z);
}

// The slots at each (x, z), any layer: (cell key, slot) pairs sorted (a cell's slots in slot
// order), one flat array for the whole mesh. Looked up through a dense grid of first pairs over the
// tiles' bounding box when that box is not much bigger than the tile count, else by binary search.
struct CellIndex {
    std::vector<std::pair<uint64_t, uint32_t>> v;
    std::vector<uint32_t> grid;  // (gw * gh + 1): the pairs of cell (x, z) are v[grid[c], grid[c + 1])
    int x0 = 0, z0 = 0, gw = 0, gh = 0;
    void build(const std::vector<TileSlot>& slots) {
        v.clear();
        v.reserve(slots.size());
        int x1 = 0, z1 = 0;
        for (size_t s = 0; s < slots.size(); ++s) {
            if (!slots[s].tile) continue;
            const NavTile& t = *slots[s].tile;
            if (v.empty()) x0 = x1 = t.x, z0 = z1 = t.z;
            x0 = std::min(x0, t.x), x1 = std::max(x1, t.x), z0 = std::min(z0, t.z), z1 = std::max(z1, t.z);
            v.emplace_back(0, static_cast<uint32_t>(s));
        }
        const int64_t cells = v.empty() ? 0 : (int64_t{x1} - x0 + 1) * (int64_t{z1} - z0 + 1);
        gw = gh = 0;
        grid.clear();
        if (!v.empty() && cells <= static_cast<int64_t>(v.size()) * 4 + 64) {
            // Dense: cell index (x - x0) + (z - z0) * gw as the key, a counting sort by it.
            gw = x1 - x0 + 1, gh = z1 - z0 + 1;
            grid.assign(static_cast<size_t>(cells) + 1, 0);
            for (auto& [key, s] : v) {
                key = static_cast<uint64_t>(slots[s].tile->x - x0) + static_cast<uint64_t>(slots[s].tile->z - z0) * static_cast<uint64_t>(gw);
                ++grid[key + 1];
            }
            for (size_t c = 0; c + 1 < grid.size(); ++c) grid[c + 1] += grid[c];
            std::vector<std::pair<uint64_t, uint32_t>> sorted(v.size());
            std::vector<uint32_t> fill(grid.begin(), grid.end() - 1);
            for (const auto& kv : v) sorted[fill[kv.first]++] = kv;  // slots ascending within a cell
            v = std::move(sorted);
            return;
        }
        for (auto& [key, s] : v) key = cell_key(slots[s].tile->x, slots[s].tile->z);
        std::sort(v.begin(), v.end());
    }
    std::span<const std::pair<uint64_t, uint32_t>> at(int x, int z) const {
        if (gw > 0) {
            const int64_t dx = int64_t{x} - x0, dz = int64_t{z} - z0;
            if (dx < 0 || dz < 0 || dx >= gw || dz >= gh) return {};
            const size_t c = static_cast<size_t>(dx) + static_cast<size_t>(dz) * static_cast<size_t>(gw);
            return {v.data() + grid[c], v.data() + grid[c + 1]};
        }
        const uint64_t k = cell_key(x, z);
        const auto lo = std::lower_bound(v.begin(), v.end(), std::pair<uint64_t, uint32_t>(k, 0));
        auto hi = lo;
        while (hi != v.end() && hi->first == k) ++hi;
        return {lo, hi};
    }
};

// Each slot's portal edges by side, gathered on first use (only the tiles next to a changed one).
struct SideEdges {
    std::vector<int32_t> index;  // per slot: into store, -1 not gathered yet
    std::vector<std::array<std::vector<SideEdge>, 4>> store;
};

struct Piece {
    float t0, t1;     // along our edge, 0 = its first vertex, 1 = its second
    uint32_t slot, poly;  // the polygon on the other side
};

inline const float* tile_vert(const NavTile& u, uint32_t e) { return &u.verts[static_cast<size_t>(u.edge_vert[e]) * 3]; }
inline uint32_t next_in_poly(const NavTile& u, uint32_t p, uint32_t e) { return e + 1 == u.poly_first[p + 1] ? u.poly_first[p] : e + 1; }

// Slot s's portal edges by side, gathered on first use.
const std::array<std::vector<SideEdge>, 4>& sides_of(const std::vector<TileSlot>& slots, SideEdges& side_edges, uint32_t s) {
    if (side_edges.index[s] < 0) {
        side_edges.index[s] = static_cast<int32_t>(side_edges.store.size());
        auto& se = side_edges.store.emplace_back();
        const NavTile& u = *slots[s].tile;
        for (uint32_t p = 0; p < static_cast<uint32_t>(u.npolys()); ++p)
            for (uint32_t e = u.poly_first[p]; e < u.poly_first[p + 1]; ++e)
                if (u.edge_nei[e] != kNoPoly && (u.edge_nei[e] & kTilePortal)) se[u.edge_nei[e] & 3].push_back({p, e});
    }
    return side_edges.store[static_cast<size_t>(side_edges.index[s])];
}

// What the steps of make_tile_graph share: the slots, the tile in slot `self`, where its
// neighbours are, their side edges, and scratch for one border edge's pieces (reused).
struct GraphBuild {
    const std::vector<TileSlot>& slots;
    uint32_t self;
    const NavTile& t;
    const CellIndex& at;
    SideEdges& side_edges;
    std::vector<Piece> pieces;
};

// A tile's portal edges on one side are each compared with every portal edge on the facing side
// of the tile next to it. A bake's tiles have at most a few thousand a side; a file (a Detour
// navmesh from anywhere) could hold hundreds of thousands stacked on one line, and the stitch
// would take hours. More comparisons than this for one pair of sides is refused.
constexpr uint64_t kMaxSidePairs = uint64_t(1) << 26;

// Tile-border portal edge e of polygon p: the overlapping edges of the tiles next to it on its
// side (within the climb in height), as sub-edges from t = 0 to 1; gaps are walls.
Status stitch_border_edge(GraphBuild& b, uint32_t p, uint32_t e, TileGraph& g) {
    const NavTile& t = b.t;
    const uint32_t nb = t.edge_nei[e];
    const int side = static_cast<int>(nb & 3), opp = (side + 2) & 3;
    const uint64_t own_side = sides_of(b.slots, b.side_edges, b.self)[side].size();
    const int ax = along_axis(side), cx = across_axis(side);
    const float* va = tile_vert(t, e);
    const float* vb = tile_vert(t, next_in_poly(t, p, e));
    const float ua = va[ax], ub = vb[ax], du = ub - ua;
    const float line = (va[cx] + vb[cx]) * 0.5f;
    std::vector<Piece>& pieces = b.pieces;
    pieces.clear();
    const auto next = b.at.at(t.x + dir_offset_x(side), t.z + dir_offset_z(side));
    for (size_t k = 0; k < next.size() && du != 0; ++k) {
        const uint32_t o = next[k].second;
        const NavTile& u = *b.slots[o].tile;
        if (const uint64_t facing = sides_of(b.slots, b.side_edges, o)[opp].size(); own_side * facing > kMaxSidePairs)
            return Status::bad_input("navmesh: " + tile_name(t) + " has " + std::to_string(own_side) +
                                     " portal edges on one side and " + tile_name(u) + " " + std::to_string(facing) +
                                     " facing them: more than a navmesh's tiles have (at most " +
                                     std::to_string(kMaxSidePairs) + " pairs to compare)");
        const float climb = std::max(t.walkable_climb, u.walkable_climb);
        for (const SideEdge& se : sides_of(b.slots, b.side_edges, o)[opp]) {
            const float* c = tile_vert(u, se.edge);
            const float* d = tile_vert(u, next_in_poly(u, se.poly, se.edge));
            const float tol = 1e-3f + 1e-5f * std::fabs(line);
            if (std::fabs((c[cx] + d[cx]) * 0.5f - line) > tol) continue;
            const float lo = std::max(std::min(ua, ub), std::min(c[ax], d[ax]));
            const float hi = std::min(std::max(ua, ub), std::max(c[ax], d[ax]));
            if (hi - lo <= 1e-4f) continue;
            // Heights within the climb at either end of the overlap (or crossing).
            const float d0 = height_at(va, vb, ax, lo) - height_at(c, d, ax, lo);
            const float d1 = height_at(va, vb, ax, hi) - height_at(c, d, ax, hi);
            if (std::min(std::fabs(d0), std::fabs(d1)) > climb + 1e-4f && (d0 > 0) == (d1 > 0)) continue;
            float t0 = (lo - ua) / du, t1 = (hi - ua) / du;
            if (t0 > t1) std::swap(t0, t1);
            pieces.push_back({std::clamp(t0, 0.0f, 1.0f), std::clamp(t1, 0.0f, 1.0f), o, se.poly});
        }
    }
    std::sort(pieces.begin(), pieces.end(), [](const Piece& x, const Piece& y) {
        return x.t0 != y.t0 ? x.t0 < y.t0 : (x.slot != y.slot ? x.slot < y.slot : x.poly < y.poly);
    });
    // Sub-edges from t = 0 to 1: gaps are walls.
    float cur = 0;
    int emitted = 0;
    auto emit = [&](float from, uint32_t nslot, uint32_t npoly) {
        if (from <= 0) {
            g.edge_vert.push_back(t.edge_vert[e]);
        } else {
            g.edge_vert.push_back(static_cast<uint32_t>(g.verts.size() / 3));
            for (int k = 0; k < 3; ++k) g.verts.push_back(va[k] + (vb[k] - va[k]) * from);
        }
        g.nei_slot.push_back(nslot);
        g.nei_poly.push_back(npoly);
        ++emitted;
    };
    constexpr float kMinPiece = 1e-4f;
    for (const Piece& pc : pieces) {
        if (pc.t1 <= cur + kMinPiece) continue;
        if (pc.t0 > cur + kMinPiece) emit(cur, kNoPoly, kNoPoly), cur = pc.t0;
        emit(cur, pc.slot, pc.poly);
        cur = pc.t1;
    }
    if (cur < 1 - kMinPiece) emit(cur, kNoPoly, kNoPoly);
    if (emitted > 1) ++g.split_edges;
    return Status::ok();
}

// The tile's edges as stitched: its own edges, with each tile-border portal replaced by its pieces.
Status stitch_edges(GraphBuild& b, TileGraph& g) {
    const NavTile& t = b.t;
    const uint32_t np = static_cast<uint32_t>(t.npolys());
    g.verts = t.verts;
    g.poly_first.assign(1, 0);
    g.poly_first.reserve(static_cast<size_t>(np) + 1);
    g.edge_vert.reserve(t.edge_vert.size());
    g.nei_slot.reserve(t.edge_vert.size());
    g.nei_poly.reserve(t.edge_vert.size());
    for (int side = 0; side < 4; ++side)
        for (const auto& [key, o] : b.at.at(t.x + dir_offset_x(side), t.z + dir_offset_z(side))) g.stitched_to.push_back(b.slots[o].tile);
    for (uint32_t p = 0; p < np; ++p) {
        for (uint32_t e = t.poly_first[p]; e < t.poly_first[p + 1]; ++e) {
            const uint32_t nb = t.edge_nei[e];
            if (nb == kNoPoly || !(nb & kTilePortal)) {
                g.edge_vert.push_back(t.edge_vert[e]);
                g.nei_slot.push_back(nb == kNoPoly ? kNoPoly : b.self);
                g.nei_poly.push_back(nb);
                continue;
            }
            if (Status st = stitch_border_edge(b, p, e, g); !st) return st;
        }
        g.poly_first.push_back(static_cast<uint32_t>(g.edge_vert.size()));
        if (g.poly_first[p + 1] - g.poly_first[p] > static_cast<uint32_t>(kMaxPolyEdges))
            return Status::bad_input("navmesh: " + tile_name(t) + " polygon " + std::to_string(p) + " meets more than " +
                                     std::to_string(kMaxPolyEdges) + " edge pieces of the tiles next to it");
    }
    return Status::ok();
}

// Midpoints, the twin of each edge inside the tile (same two vertices reversed, or the one
// edge of the neighbour that lists us), midpoint-to-midpoint distances.
Status link_twins(const NavTile& t, uint32_t self, TileGraph& g) {
    const uint32_t np = static_cast<uint32_t>(t.npolys());
    const size_t ne = g.edge_vert.size();
    auto vert = [&g](uint32_t v) { return &g.verts[static_cast<size_t>(v) * 3]; };
    auto next_edge = [&g](uint32_t p, uint32_t e) { return e + 1 == g.poly_first[p + 1] ? g.poly_first[p] : e + 1; };
    g.edge_mid.resize(ne * 3);
    g.opp.assign(ne, kNoEdge);
    g.pair_first.resize(np);
    g.pair_dist.clear();
    for (uint32_t p = 0; p < np; ++p) {
        const uint32_t e0 = g.poly_first[p], n = g.poly_first[p + 1] - e0;
        for (uint32_t e = e0; e < e0 + n; ++e) {
            const uint32_t nx = next_edge(p, e);
            const float* a = vert(g.edge_vert[e]);
            const float* b = vert(g.edge_vert[nx]);
            for (int k = 0; k < 3; ++k) g.edge_mid[e * 3 + k] = (a[k] + b[k]) * 0.5f;
            if (g.nei_slot[e] != self) continue;
            const uint32_t q = g.nei_poly[e];
            uint32_t match = kNoEdge, loose = kNoEdge;
            int loose_count = 0;
            for (uint32_t f = g.poly_first[q]; f < g.poly_first[q + 1]; ++f) {
                if (g.nei_slot[f] != self || g.nei_poly[f] != p) continue;
                ++loose_count;
                loose = f;
                if (g.edge_vert[f] == g.edge_vert[nx] && g.edge_vert[next_edge(q, f)] == g.edge_vert[e]) match = f;
            }
            if (match == kNoEdge && loose_count == 1) match = loose;
            if (match == kNoEdge)
                return Status::bad_input("navmesh: " + tile_name(t) + " polygon " + std::to_string(p) + " lists neighbour " +
                                         std::to_string(q) + " on edge " + std::to_string(e - e0) + " but not the other way round");
            g.opp[e] = match;
        }
        g.pair_first[p] = static_cast<uint32_t>(g.pair_dist.size());
        for (uint32_t a = 0; a < n; ++a)
            for (uint32_t b = 0; b < n; ++b) {
                const float* ma = &g.edge_mid[(e0 + a) * 3];
                const float* mb = &g.edge_mid[(e0 + b) * 3];
                const float dx = mb[0] - ma[0], dy = mb[1] - ma[1], dz = mb[2] - ma[2];
                g.pair_dist.push_back(std::sqrt(dx * dx + dy * dy + dz * dz));
            }
    }
    return Status::ok();
}

// Detail triangles (a fan of the polygon when it has none) and their fast form.
void add_detail(const NavTile& t, TileGraph& g) {
    const uint32_t np = static_cast<uint32_t>(t.npolys());
    g.dtri_first.assign(1, 0);
    for (uint32_t p = 0; p < np; ++p) {
        uint32_t tcount = 0;
        if (!t.detail_first.empty()) {
            const uint32_t t0 = t.detail_first[p], t1 = t.detail_first[p + 1];
            g.dtris.insert(g.dtris.end(), t.detail_tris.begin() + static_cast<ptrdiff_t>(t0) * 9,
                           t.detail_tris.begin() + static_cast<ptrdiff_t>(t1) * 9);
            tcount = t1 - t0;
        }
        if (tcount == 0) {
            const uint32_t e0 = t.poly_first[p], n = t.poly_first[p + 1] - e0;
            for (uint32_t j = 1; j + 1 < n; ++j)
                for (const uint32_t e : {e0, e0 + j, e0 + j + 1}) {
                    const float* v = tile_vert(t, e);
                    g.dtris.insert(g.dtris.end(), v, v + 3);
                }
            tcount = n - 2;
        }
        g.dtri_first.push_back(g.dtri_first.back() + tcount);
    }
    const size_t ntri = g.dtris.size() / 9;
    g.dtri_fast.resize(ntri * 9);
    for (size_t k = 0; k < ntri; ++k) {
        const float* a = &g.dtris[k * 9];
        const float* b = a + 3;
        const float* c = a + 6;
        float* f = &g.dtri_fast[k * 9];
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
}

// Bounds and xz areas per polygon (a fan from the first vertex, relative to it), and the tile's bounds.
void add_bounds(const NavTile& t, TileGraph& g) {
    const uint32_t np = static_cast<uint32_t>(t.npolys());
    g.poly_bounds.resize(static_cast<size_t>(np) * 6);
    g.poly_area.resize(np);
    for (uint32_t p = 0; p < np; ++p) {
        float* bb = &g.poly_bounds[static_cast<size_t>(p) * 6];
        poly_box(t, p, bb, bb + 3);
        const uint32_t e0 = t.poly_first[p], e1 = t.poly_first[p + 1];
        const float* a = tile_vert(t, e0);
        double area2 = 0;
        for (uint32_t e = e0 + 1; e + 1 < e1; ++e) {
            const float* v1 = tile_vert(t, e);
            const float* v2 = tile_vert(t, e + 1);
            area2 += std::fabs(static_cast<double>(v1[0] - a[0]) * (v2[2] - a[2]) - static_cast<double>(v2[0] - a[0]) * (v1[2] - a[2]));
        }
        g.poly_area[p] = area2 * 0.5;
    }
    for (int k = 0; k < 3; ++k) g.bmin[k] = g.bmax[k] = 0;
    for (uint32_t p = 0; p < np; ++p)
        for (int k = 0; k < 3; ++k) {
            g.bmin[k] = p == 0 ? g.poly_bounds[k] : std::min(g.bmin[k], g.poly_bounds[static_cast<size_t>(p) * 6 + k]);
            g.bmax[k] = p == 0 ? g.poly_bounds[3 + k] : std::max(g.bmax[k], g.poly_bounds[static_cast<size_t>(p) * 6 + 3 + k]);
        }
}

// Components through the tile's own portals; the edges stitched to other tiles.
void label_components(uint32_t self, TileGraph& g) {
    const uint32_t np = static_cast<uint32_t>(g.poly_first.size() - 1);
    g.poly_comp.assign(np, kNoPoly);
    g.ncomp = 0;
    std::vector<uint32_t> stack;
    for (uint32_t seed = 0; seed < np; ++seed) {
        if (g.poly_comp[seed] != kNoPoly) continue;
        const uint32_t id = g.ncomp++;
        g.poly_comp[seed] = id;
        stack.assign(1, seed);
        while (!stack.empty()) {
            const uint32_t p = stack.back();
            stack.pop_back();
            for (uint32_t e = g.poly_first[p]; e < g.poly_first[p + 1]; ++e)
                if (g.opp[e] != kNoEdge && g.poly_comp[g.nei_poly[e]] == kNoPoly) {
                    g.poly_comp[g.nei_poly[e]] = id;
                    stack.push_back(g.nei_poly[e]);
                }
        }
    }
    g.cross_edges.clear();
    for (uint32_t e = 0; e < g.edge_vert.size(); ++e)
        if (g.nei_slot[e] != kNoPoly && g.nei_slot[e] != self) g.cross_edges.push_back(e);
}

// Per-tile precomputation for the slot at `self`: stitched edges, split vertices, detail, bounds.
Status make_tile_graph(const std::vector<TileSlot>& slots, uint32_t self, const CellIndex& at, SideEdges& side_edges,
                       TileGraph& g) {
    const NavTile& t = *slots[self].tile;
    GraphBuild b{slots, self, t, at, side_edges, {}};
    if (Status s = stitch_edges(b, g); !s) return s;
    if (Status s = link_twins(t, self, g); !s) return s;
    add_detail(t, g);
    add_bounds(t, g);
    label_components(self, g);
    if (t.bvtree.empty() && t.npolys() > 0) {
        NavTile copy;  // a producer that left the tree out: build it from the polygons
        copy.poly_first = t.poly_first, copy.edge_vert = t.edge_vert, copy.verts = t.verts;
        copy.detail_first = t.detail_first, copy.detail_tris = t.detail_tris;
        build_tile_bvtree(copy);
        g.bvtree = std::move(copy.bvtree);
    }
    return Status::ok();
}

// Whether slot s's cached graph was stitched against exactly the tiles now next to it.
bool graph_current(const TileGraph& g, const NavTile& t, const std::vector<TileSlot>& slots, const CellIndex& at) {
    size_t n = 0;
    for (int side = 0; side < 4; ++side)
        for (const auto& [key, o] : at.at(t.x + dir_offset_x(side), t.z + dir_offset_z(side))) {
            if (n >= g.stitched_to.size() || g.stitched_to[n] != slots[o].tile) return false;
            ++n;
        }
    return n == g.stitched_to.size();
}

// Slots: carried over from the previous mesh, then the new coordinates in the lowest free slots.
// A tile that changed or went away bumps its slot's salt; `at` is left indexing the old slots.
Status assign_slots(std::span<const std::shared_ptr<const NavTile>> tiles, const NavMesh* previous, std::vector<TileSlot>& slots,
                    CellIndex& at) {
    if (previous) slots = previous->slots;
    std::vector<char> taken(slots.size(), 0);
    std::vector<std::shared_ptr<const NavTile>> pending;
    at.build(slots);
    for (const auto& tp : tiles) {
        if (!tp) return Status::bad_input("navmesh: a null tile");
        int found = -1;
        for (const auto& [key, s] : at.at(tp->x, tp->z))
            if (slots[s].tile->layer == tp->layer) found = static_cast<int>(s);
        if (found >= 0 && slots[static_cast<size_t>(found)].tile == tp && !taken[static_cast<size_t>(found)]) {
            taken[static_cast<size_t>(found)] = 1;  // the same tile object: checked when it came in
            continue;
        }
        Status v = validate_tile(*tp);
        if (!v) return v;
        if (found >= 0) {
            if (taken[static_cast<size_t>(found)]) return Status::bad_input("navmesh: two tiles at " + tile_name(*tp));
            taken[static_cast<size_t>(found)] = 1;
            TileSlot& slot = slots[static_cast<size_t>(found)];
            slot.salt = (slot.salt + 1) & kSaltMask, slot.tile = tp, slot.graph.reset();
        } else {
            pending.push_back(tp);
        }
    }
    for (size_t s = 0; s < slots.size(); ++s)
        if (!taken[s] && slots[s].tile) slots[s].tile.reset(), slots[s].graph.reset(), slots[s].salt = (slots[s].salt + 1) & kSaltMask;
    size_t next_free = 0;
    std::set<std::tuple<int32_t, int32_t, int32_t>> fresh;  // (x, z, layer) of the new tiles, for duplicates
    for (const auto& tp : pending) {
        if (!fresh.insert({tp->x, tp->z, tp->layer}).second)
            return Status::bad_input("navmesh: two tiles at " + tile_name(*tp));
        while (next_free < slots.size() && slots[next_free].tile) ++next_free;
        if (next_free == slots.size()) {
            if (slots.size() >= kMaxTileSlots) return Status::bad_input("navmesh: more than " + std::to_string(kMaxTileSlots) + " tiles");
            slots.emplace_back();
        }
        slots[next_free].tile = tp;
        slots[next_free].graph.reset();
    }
    while (!slots.empty() && !slots.back().tile && slots.back().salt == 0) slots.pop_back();
    return Status::ok();
}

// Each slot's graph: the cached one while neither the tile nor a tile next to it changed.
Status update_graphs(std::vector<TileSlot>& slots, const CellIndex& at, NavMesh& out) {
    SideEdges side_edges;
    side_edges.index.assign(slots.size(), -1);
    for (size_t s = 0; s < slots.size(); ++s) {
        TileSlot& slot = slots[s];
        if (!slot.tile) continue;
        if (slot.graph && graph_current(*slot.graph, *slot.tile, slots, at)) {
            ++out.tiles_reused;
            continue;
        }
        auto g = std::make_shared<TileGraph>();
        Status st = make_tile_graph(slots, static_cast<uint32_t>(s), at, side_edges, *g);
        if (!st) return st;
        slot.graph = std::move(g);
    }
    return Status::ok();
}

// Dense numbering, slots in order, and the flat arrays sized (or reserved, for those appended
// tile by tile) for the graphs one after another.
Status size_arrays(std::vector<TileSlot>& slots, NavMesh& out) {
    size_t np = 0, nv = 0, ne = 0, npair = 0, ntri = 0, nbv = 0;
    for (TileSlot& s : slots) {
        s.poly_base = static_cast<uint32_t>(np), s.vert_base = static_cast<uint32_t>(nv);
        if (!s.tile) continue;
        const TileGraph& g = *s.graph;
        ++out.ntiles;
        out.split_edges += g.split_edges;
        np += static_cast<size_t>(s.tile->npolys());
        nv += g.verts.size() / 3;
        ne += g.edge_vert.size();
        npair += g.pair_dist.size();
        ntri += g.dtris.size() / 9;
        nbv += (g.bvtree.empty() ? s.tile->bvtree : g.bvtree).size();
    }
    if (np >= kNoPoly || ne >= kNoEdge) return Status::bad_input("navmesh: more than 2^32 polygons or edges");
    out.npolys = static_cast<int>(np);
    out.nverts = static_cast<int>(nv);
    out.nedges = static_cast<int>(ne);
    out.verts.clear(), out.verts.reserve(nv * 3);  // appended tile by tile (no zero fill first)
    out.poly_slot.resize(np);
    out.areas.clear(), out.areas.reserve(np);
    out.flags.clear(), out.flags.reserve(np);
    out.types.clear(), out.types.reserve(np);
    out.poly_first.resize(np + 1);
    out.edge_vert.resize(ne);
    out.edge_nei.resize(ne);
    out.edge_opp.resize(ne);
    out.edge_poly.resize(ne);
    out.edge_mid.clear(), out.edge_mid.reserve(ne * 3);
    out.pair_first.resize(np);
    out.pair_dist.clear(), out.pair_dist.reserve(npair);
    out.dtri_first.resize(np + 1);
    out.dtris.clear(), out.dtris.reserve(ntri * 9);
    out.dtri_fast.clear(), out.dtri_fast.reserve(ntri * 9);
    out.poly_bounds.clear(), out.poly_bounds.reserve(np * 6);
    out.poly_area_cum.resize(np);
    out.bvtree.resize(nbv);
    out.poly_first[0] = 0;
    out.dtri_first[0] = 0;
    return Status::ok();
}

// Where the next tile goes in the flat arrays, and the running area sum.
struct FillAt {
    size_t e_at = 0, pair_at = 0, tri_at = 0, bv_at = 0;
    double cum = 0;
};

// Copies the run of slots [s, s1), whose tiles and graphs are those of `previous` (P), from P's
// arrays in bulk, indices shifted by the run's offset; only its stitched edges are redone.
// prev_bv: per previous slot its first bvtree node (+ the total).
void copy_reused_run(std::vector<TileSlot>& slots, size_t s, size_t s1, const NavMesh& prev, const std::vector<uint32_t>& prev_bv,
                     FillAt& at, NavMesh& out) {
    const NavMesh* P = &prev;
    const TileSlot& slot = slots[s];
    const bool to_end = s1 == P->slots.size();
    const uint32_t p0 = P->slots[s].poly_base, p1 = to_end ? static_cast<uint32_t>(P->npolys) : P->slots[s1].poly_base;
    const uint32_t v0 = P->slots[s].vert_base, v1 = to_end ? static_cast<uint32_t>(P->nverts) : P->slots[s1].vert_base;
    const uint32_t e0 = P->poly_first[p0], e1 = P->poly_first[p1];
    const uint32_t r0 = P->pair_first[p0], r1 = p1 < static_cast<uint32_t>(P->npolys) ? P->pair_first[p1] : static_cast<uint32_t>(P->pair_dist.size());
    const uint32_t t0 = P->dtri_first[p0], t1 = P->dtri_first[p1];
    const uint32_t b0 = prev_bv[s], b1 = prev_bv[s1];
    const uint32_t pb = slot.poly_base, vb = slot.vert_base, eb = static_cast<uint32_t>(at.e_at);
    const uint32_t rb = static_cast<uint32_t>(at.pair_at), tb = static_cast<uint32_t>(at.tri_at);
    auto append = [](auto& to, const auto& from, size_t a, size_t b) { to.insert(to.end(), from.begin() + static_cast<ptrdiff_t>(a), from.begin() + static_cast<ptrdiff_t>(b)); };
    append(out.verts, P->verts, size_t{v0} * 3, size_t{v1} * 3);
    append(out.areas, P->areas, p0, p1);
    append(out.flags, P->flags, p0, p1);
    append(out.types, P->types, p0, p1);
    append(out.edge_mid, P->edge_mid, size_t{e0} * 3, size_t{e1} * 3);
    append(out.pair_dist, P->pair_dist, r0, r1);
    append(out.dtris, P->dtris, size_t{t0} * 9, size_t{t1} * 9);
    append(out.dtri_fast, P->dtri_fast, size_t{t0} * 9, size_t{t1} * 9);
    append(out.poly_bounds, P->poly_bounds, size_t{p0} * 6, size_t{p1} * 6);
    for (uint32_t i = 0; i < p1 - p0; ++i) {
        out.poly_slot[pb + i] = P->poly_slot[p0 + i];
        out.poly_first[pb + i + 1] = P->poly_first[p0 + i + 1] - e0 + eb;
        out.pair_first[pb + i] = P->pair_first[p0 + i] - r0 + rb;
        out.dtri_first[pb + i + 1] = P->dtri_first[p0 + i + 1] - t0 + tb;
    }
    for (uint32_t i = 0; i < e1 - e0; ++i) {
        const uint32_t n = P->edge_nei[e0 + i], o = P->edge_opp[e0 + i];
        out.edge_poly[eb + i] = P->edge_poly[e0 + i] - p0 + pb;
        out.edge_vert[eb + i] = P->edge_vert[e0 + i] - v0 + vb;
        out.edge_nei[eb + i] = n == kNoPoly ? kNoPoly : n - p0 + pb;  // stitched edges redone below
        out.edge_opp[eb + i] = o == kNoEdge ? kNoEdge : o - e0 + eb;
    }
    for (uint32_t k = 0; k < b1 - b0; ++k) {
        BVNode n = P->bvtree[b0 + k];
        if (n.index >= 0) n.index += static_cast<int32_t>(pb - p0);
        out.bvtree[at.bv_at + k] = n;
    }
    for (size_t r = s; r < s1; ++r) {
        TileSlot& rs = slots[r];
        if (!rs.tile) continue;
        const TileGraph& g = *rs.graph;
        rs.edge_base = P->slots[r].edge_base - e0 + eb;
        for (const uint32_t le : g.cross_edges) {
            out.edge_nei[rs.edge_base + le] = slots[g.nei_slot[le]].poly_base + g.nei_poly[le];
            out.edge_opp[rs.edge_base + le] = kNoEdge;
        }
        for (size_t p = 0; p < g.poly_area.size(); ++p) {
            at.cum += g.poly_area[p];
            out.poly_area_cum[rs.poly_base + p] = static_cast<float>(at.cum);
        }
    }
    at.e_at += e1 - e0, at.pair_at += r1 - r0, at.tri_at += t1 - t0, at.bv_at += b1 - b0;
}

// Copies slot s's tile graph into the flat arrays, in the dense numbering.
void copy_tile(std::vector<TileSlot>& slots, size_t s, FillAt& at, NavMesh& out) {
    TileSlot& slot = slots[s];
    const NavTile& t = *slot.tile;
    const TileGraph& g = *slot.graph;
    const uint32_t pb = slot.poly_base, vb = slot.vert_base, eb = static_cast<uint32_t>(at.e_at);
    slot.edge_base = eb;
    const uint32_t tp = static_cast<uint32_t>(t.npolys());
    out.verts.insert(out.verts.end(), g.verts.begin(), g.verts.end());
    out.areas.insert(out.areas.end(), t.areas.begin(), t.areas.end());
    out.flags.insert(out.flags.end(), t.flags.begin(), t.flags.end());
    if (t.types.empty()) out.types.insert(out.types.end(), tp, kAllAgentTypes);
    else out.types.insert(out.types.end(), t.types.begin(), t.types.end());
    out.edge_mid.insert(out.edge_mid.end(), g.edge_mid.begin(), g.edge_mid.end());
    out.pair_dist.insert(out.pair_dist.end(), g.pair_dist.begin(), g.pair_dist.end());
    out.dtris.insert(out.dtris.end(), g.dtris.begin(), g.dtris.end());
    out.dtri_fast.insert(out.dtri_fast.end(), g.dtri_fast.begin(), g.dtri_fast.end());
    out.poly_bounds.insert(out.poly_bounds.end(), g.poly_bounds.begin(), g.poly_bounds.end());
    for (uint32_t p = 0; p < tp; ++p) {
        out.poly_slot[pb + p] = static_cast<uint32_t>(s);
        out.poly_first[pb + p + 1] = eb + g.poly_first[p + 1];
        out.pair_first[pb + p] = static_cast<uint32_t>(at.pair_at) + g.pair_first[p];
        out.dtri_first[pb + p + 1] = static_cast<uint32_t>(at.tri_at) + g.dtri_first[p + 1];
        for (uint32_t e = g.poly_first[p]; e < g.poly_first[p + 1]; ++e) out.edge_poly[eb + e] = pb + p;
        at.cum += g.poly_area[p];
        out.poly_area_cum[pb + p] = static_cast<float>(at.cum);
    }
    for (size_t e = 0; e < g.edge_vert.size(); ++e) {
        out.edge_vert[eb + e] = vb + g.edge_vert[e];
        const uint32_t ns = g.nei_slot[e];
        out.edge_nei[eb + e] = ns == kNoPoly ? kNoPoly : slots[ns].poly_base + g.nei_poly[e];
        out.edge_opp[eb + e] = g.opp[e] == kNoEdge ? kNoEdge : eb + g.opp[e];
    }
    const std::vector<BVNode>& tree = g.bvtree.empty() ? t.bvtree : g.bvtree;
    for (size_t k = 0; k < tree.size(); ++k) {
        BVNode n = tree[k];
        if (n.index >= 0) n.index += static_cast<int32_t>(pb);
        out.bvtree[at.bv_at + k] = n;
    }
    at.e_at += g.edge_vert.size();
    at.pair_at += g.pair_dist.size();
    at.tri_at += g.dtris.size() / 9;
    at.bv_at += tree.size();
}

// The flat arrays, the graphs one after another. A run of slots whose tiles and graphs are those
// of `previous` (a rebuild leaves most of the world so) is copied from previous's arrays in bulk
// rather than tile by tile from the graphs.
void fill_arrays(std::vector<TileSlot>& slots, const NavMesh* previous, NavMesh& out) {
    FillAt at;
    const NavMesh* P = previous && !previous->slots.empty() && previous->npolys > 0 ? previous : nullptr;
    std::vector<uint32_t> prev_bv;  // per previous slot: its first bvtree node (+ the total)
    if (P) {
        prev_bv.assign(P->slots.size() + 1, 0);
        for (size_t s = 0; s < P->slots.size(); ++s) {
            const TileSlot& ps = P->slots[s];
            prev_bv[s + 1] = prev_bv[s] + (ps.tile ? static_cast<uint32_t>((ps.graph->bvtree.empty() ? ps.tile->bvtree : ps.graph->bvtree).size()) : 0);
        }
    }
    auto reusable = [&](size_t s) {
        if (!P || s >= P->slots.size()) return false;
        const TileSlot &a = slots[s], &b = P->slots[s];
        return a.tile ? b.tile == a.tile && b.graph == a.graph : !b.tile;
    };
    for (size_t s = 0; s < slots.size(); ++s) {
        if (!slots[s].tile) continue;
        if (reusable(s)) {
            size_t s1 = s;
            while (s1 < slots.size() && reusable(s1)) ++s1;
            copy_reused_run(slots, s, s1, *P, prev_bv, at, out);
            s = s1 - 1;
            continue;
        }
        copy_tile(slots, s, at, out);
    }
}

// Twins across tiles: the one edge of the neighbour that lists us (a stitch found on one side
// only, at the edge of a tolerance, is a wall on both).
// Only the edges stitched to other tiles (each graph lists them) need it, in ascending order.
void link_cross_twins(const std::vector<TileSlot>& slots, NavMesh& out) {
    for (const TileSlot& slot : slots) {
        if (!slot.tile) continue;
        for (const uint32_t le : slot.graph->cross_edges) {
            const uint32_t e = slot.edge_base + le;
            const uint32_t q = out.edge_nei[e];
            if (q == kNoPoly || out.edge_opp[e] != kNoEdge) continue;
            const uint32_t p = out.edge_poly[e];
            uint32_t match = kNoEdge;
            for (uint32_t f = out.poly_first[q]; f < out.poly_first[q + 1]; ++f)
                if (out.edge_nei[f] == p) match = f;
            if (match == kNoEdge) out.edge_nei[e] = kNoPoly;
            else out.edge_opp[e] = match;
        }
    }
    for (const TileSlot& slot : slots) {
        if (!slot.tile) continue;
        for (const uint32_t le : slot.graph->cross_edges) {
            const uint32_t e = slot.edge_base + le;
            if (out.edge_opp[e] != kNoEdge && out.edge_nei[out.edge_opp[e]] == kNoPoly) out.edge_opp[e] = kNoEdge, out.edge_nei[e] = kNoPoly;
        }
    }
}

// Portal counts; islands and their portal edge slots. Islands are the tiles' own components
// joined through the stitched edges (a union-find over components, not a flood fill of every
// polygon), numbered in order of their lowest polygon as a flood fill from polygon 0 up would.
void label_islands(const std::vector<TileSlot>& slots, NavMesh& out) {
    const uint32_t np = static_cast<uint32_t>(out.npolys), ne = static_cast<uint32_t>(out.nedges);
    out.poly_portals.assign(np, 0);
    for (uint32_t e = 0; e < ne; ++e)
        if (out.edge_opp[e] != kNoEdge) ++out.poly_portals[out.edge_poly[e]];
    out.poly_island.resize(np);
    std::vector<uint32_t> comp_base(slots.size() + 1, 0);
    for (size_t s = 0; s < slots.size(); ++s) comp_base[s + 1] = comp_base[s] + (slots[s].tile ? slots[s].graph->ncomp : 0);
    std::vector<uint32_t> parent(comp_base.back());
    for (uint32_t c = 0; c < parent.size(); ++c) parent[c] = c;
    auto find = [&parent](uint32_t c) {
        while (parent[c] != c) c = parent[c] = parent[parent[c]];
        return c;
    };
    auto comp_of = [&](uint32_t p) {
        const uint32_t s = out.poly_slot[p];
        return comp_base[s] + slots[s].graph->poly_comp[p - slots[s].poly_base];
    };
    for (size_t s = 0; s < slots.size(); ++s) {
        if (!slots[s].tile) continue;
        for (const uint32_t le : slots[s].graph->cross_edges) {
            const uint32_t e = slots[s].edge_base + le;
            if (out.edge_nei[e] == kNoPoly) continue;
            const uint32_t a = find(comp_of(out.edge_poly[e])), b = find(comp_of(out.edge_nei[e]));
            if (a != b) parent[std::max(a, b)] = std::min(a, b);
        }
    }
    // Components in order of their lowest polygon (slots in order, each tile's in order), so
    // the first component of an island met is the one holding its lowest polygon.
    std::vector<uint32_t> island_of(parent.size(), kNoPoly);
    for (uint32_t c = 0; c < parent.size(); ++c) {
        const uint32_t r = find(c);
        if (island_of[r] == kNoPoly) island_of[r] = static_cast<uint32_t>(out.nislands++);
        island_of[c] = island_of[r];
    }
    for (size_t s = 0; s < slots.size(); ++s) {
        if (!slots[s].tile) continue;
        const TileGraph& g = *slots[s].graph;
        const uint32_t pb = slots[s].poly_base, cb = comp_base[s];
        for (size_t p = 0; p < g.poly_comp.size(); ++p) out.poly_island[pb + p] = island_of[cb + g.poly_comp[p]];
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

Status build(std::span<const std::shared_ptr<const NavTile>> tiles, const NavMesh* previous, NavMesh& out,
             std::span<const OffMeshLink> links, bool defer_landmarks) {
    std::vector<TileSlot> slots;
    CellIndex at;  // (x, z) -> slots there, any layer
    if (Status s = assign_slots(tiles, previous, slots, at); !s) return s;
    at.build(slots);
    if (Status s = update_graphs(slots, at, out); !s) return s;
    if (Status s = size_arrays(slots, out); !s) return s;
    fill_arrays(slots, previous, out);
    link_cross_twins(slots, out);
    label_islands(slots, out);
    out.slots = std::move(slots);

    build_detail_grids(out);
    // Landmarks: a whole-world table (walking distances across every tile), islands whose tiles
    // are unchanged since `previous` copied from it.
    out.landmark_cell = std::make_shared<LandmarkCell>();
    out.landmark_cell->store(compute_landmarks(out, previous, defer_landmarks));

    bool first = true;  // the tiles' bounds (each the bounds of its polygons)
    for (const TileSlot& slot : out.slots) {
        if (!slot.tile || slot.graph->poly_comp.empty()) continue;
        for (int k = 0; k < 3; ++k) {
            out.bmin[k] = first ? slot.graph->bmin[k] : std::min(out.bmin[k], slot.graph->bmin[k]);
            out.bmax[k] = first ? slot.graph->bmax[k] : std::max(out.bmax[k], slot.graph->bmax[k]);
        }
        first = false;
    }
    // Off-mesh links last: they read the finished polygons, islands and bounding-volume trees.
    return link_offmesh(links, out);
}

}  // namespace

std::shared_ptr<const LandmarkTable> NavMesh::landmarks() const {
    return landmark_cell ? landmark_cell->load() : nullptr;
}

bool complete_landmarks(const NavMesh& mesh, const CancelFlag* cancel) {
    const std::shared_ptr<const LandmarkTable> cur = mesh.landmarks();
    if (!cur || cur->islands_pending == 0) return true;
    auto next = std::make_shared<LandmarkTable>(*cur);
    compute_pending(mesh, *next, cancel);
    const bool done = next->islands_pending == 0;
    // cancelled part way: the islands done so far are published too (each is exact on its own)
    if (next->islands_pending < cur->islands_pending) mesh.landmark_cell->store(std::move(next));
    return done;
}

Status relink_navmesh(NavMesh& mesh, std::span<const OffMeshLink> links) {
    return link_offmesh(links, mesh);
}

bool NavMesh::island_reaches(uint32_t a, uint32_t b, std::vector<uint32_t>& stack, std::vector<uint8_t>& seen) const {
    if (a == b) return true;
    if (island_link_first.empty() || a >= static_cast<uint32_t>(nislands) || b >= static_cast<uint32_t>(nislands)) return false;
    if (island_link_first[a] == island_link_first[a + 1]) return false;
    seen.assign(static_cast<size_t>(nislands), 0);
    stack.clear();
    stack.push_back(a);
    seen[a] = 1;
    while (!stack.empty()) {
        const uint32_t i = stack.back();
        stack.pop_back();
        for (uint32_t k = island_link_first[i]; k < island_link_first[i + 1]; ++k) {
            const uint32_t j = island_link_to[k];
            if (j == b) return true;
            if (!seen[j]) seen[j] = 1, stack.push_back(j);
        }
    }
    return false;
}

int NavMesh::find_slot(int x, int z, int layer) const {
    for (size_t s = 0; s < slots.size(); ++s)
        if (slots[s].tile && slots[s].tile->x == x && slots[s].tile->z == z && slots[s].tile->layer == layer)
            return static_cast<int>(s);
    return -1;
}

Status validate_tile(const NavTile& t) {
    const std::string name = "navmesh: " + tile_name(t);
    const size_t np = static_cast<size_t>(t.npolys());
    const uint32_t nv = static_cast<uint32_t>(t.nverts());
    if (t.verts.size() % 3) return Status::bad_input(name + ": vertex array is not x, y, z triples");
    if (np > kMaxTilePolys) return Status::bad_input(name + ": " + std::to_string(np) + " polygons, more than " + std::to_string(kMaxTilePolys));
    // the stitching looks at x +- 1 and z +- 1: no overflow at the ends of int (a Detour file's tile header says any)
    if (t.x <= INT32_MIN || t.x >= INT32_MAX || t.z <= INT32_MIN || t.z >= INT32_MAX)
        return Status::bad_input(name + ": tile coordinates at the ends of the integer range");
    for (size_t i = 0; i < t.links.size(); ++i) {
        const OffMeshLink& l = t.links[i];
        const std::string link = name + " off-mesh link " + std::to_string(i);
        for (int k = 0; k < 3; ++k)
            if (!std::isfinite(l.start[k]) || !std::isfinite(l.end[k])) return Status::bad_input(link + " has a non-finite end point");
        if (!std::isfinite(l.radius) || l.radius < 0) return Status::bad_input(link + " has radius " + std::to_string(l.radius) + " (expected a finite radius >= 0 m)");
        if (l.area >= kMaxAreas) return Status::bad_input(link + " has area id " + std::to_string(l.area) + " > 63");
    }
    if (np == 0) return Status::ok();
    if (t.poly_first[0] != 0 || t.edge_vert.size() != t.poly_first.back() || t.edge_nei.size() != t.edge_vert.size() ||
        t.areas.size() != np || t.flags.size() != np || (!t.types.empty() && t.types.size() != np))
        return Status::bad_input(name + ": polygon arrays do not match its polygon count");
    if (!t.detail_first.empty() && (t.detail_first.size() != np + 1 || t.detail_first[0] != 0 ||
                                    t.detail_tris.size() != static_cast<size_t>(t.detail_first.back()) * 9))
        return Status::bad_input(name + ": detail arrays do not match its polygon count");
    for (float v : t.verts)
        if (!std::isfinite(v)) return Status::bad_input(name + ": a vertex has a non-finite coordinate");
    for (float v : t.detail_tris)
        if (!std::isfinite(v)) return Status::bad_input(name + ": the detail mesh has a non-finite coordinate");
    for (size_t p = 0; p < np; ++p) {
        const std::string poly = name + " polygon " + std::to_string(p);
        const uint32_t e0 = t.poly_first[p], e1 = t.poly_first[p + 1];
        if (e1 < e0 + 3) return Status::bad_input(poly + " has fewer than 3 vertices");
        if (!t.detail_first.empty() && t.detail_first[p + 1] < t.detail_first[p]) return Status::bad_input(poly + ": detail range reversed");
        if (t.areas[p] >= kMaxAreas) return Status::bad_input(poly + " has area id " + std::to_string(t.areas[p]) + " > 63");
        double a2 = 0, mag = 0;
        for (uint32_t e = e0; e < e1; ++e) {
            if (t.edge_vert[e] >= nv) return Status::bad_input(poly + " has vertex index " + std::to_string(t.edge_vert[e]) + " out of range");
            const uint32_t nb = t.edge_nei[e];
            if (nb != kNoPoly) {
                if (nb & kTilePortal) {
                    if ((nb & ~kTilePortal) > 3) return Status::bad_input(poly + " has a tile portal to side " + std::to_string(nb & ~kTilePortal) + " (0..3)");
                } else if (nb >= np) {
                    return Status::bad_input(poly + " has neighbour " + std::to_string(nb) + " out of range");
                }
            }
        }
        for (uint32_t e = e0; e < e1; ++e) {
            const float* va = &t.verts[static_cast<size_t>(t.edge_vert[e]) * 3];
            const float* vb = &t.verts[static_cast<size_t>(t.edge_vert[e + 1 == e1 ? e0 : e + 1]) * 3];
            const double x = static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
            a2 += x, mag += std::fabs(x);
        }
        if (a2 > 1e-9 * mag) return Status::bad_input(poly + " is wound counter-clockwise in xz");
    }
    return Status::ok();
}

void build_tile_bvtree(NavTile& t) {
    t.bvtree.clear();
    const size_t np = static_cast<size_t>(t.npolys());
    if (np == 0) return;
    std::vector<BVItem> items(np);
    for (size_t p = 0; p < np; ++p) {
        poly_box(t, static_cast<uint32_t>(p), items[p].bmin, items[p].bmax);
        for (int k = 0; k < 3; ++k) items[p].center[k] = (items[p].bmin[k] + items[p].bmax[k]) * 0.5f;
        items[p].poly = static_cast<uint32_t>(p);
    }
    t.bvtree.reserve(np * 2);
    build_bv(items, 0, static_cast<int>(np), t.bvtree);
    for (int k = 0; k < 3; ++k) t.bmin[k] = t.bvtree[0].bmin[k], t.bmax[k] = t.bvtree[0].bmax[k];
}

Status build_navmesh(std::span<const std::shared_ptr<const NavTile>> tiles, const NavMesh* previous, NavMesh& out,
                     std::span<const OffMeshLink> links, bool defer_landmarks) {
    if (previous == &out) return Status::internal("navmesh: build_navmesh with previous == out");
    reset(out);
    Status s = build(tiles, previous, out, links, defer_landmarks);
    if (!s) reset(out);  // never leave a half-built mesh behind
    return s;
}

}  // namespace nav
