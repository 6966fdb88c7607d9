// Path queries on a NavMesh (see query.h).
#include "core/runtime/query.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace nav {

namespace {

constexpr int kMaxPolyVerts = kMaxPolyEdges;

inline bool finite3(const float* p) { return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]); }

inline float dist3(const float* a, const float* b) {
    const float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}
inline float dist_sq3(const float* a, const float* b) {
    const float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    return dx * dx + dy * dy + dz * dz;
}
inline void copy3(float* d, const float* s) { d[0] = s[0], d[1] = s[1], d[2] = s[2]; }
inline void lerp3(float* d, const float* a, const float* b, float t) {
    d[0] = a[0] + (b[0] - a[0]) * t;
    d[1] = a[1] + (b[1] - a[1]) * t;
    d[2] = a[2] + (b[2] - a[2]) * t;
}
// Path vertices closer than 1/16384 m merge (Detour's threshold), but closer than at most 16 float
// steps of their coordinates' magnitude: on a map a few millimetres across, corners 50 um apart
// (the two ends of a thin wall) are different corners, and merging them cuts through the wall.
inline bool same_point(const float* a, const float* b) {
    const float mag = std::max({std::fabs(a[0]), std::fabs(a[1]), std::fabs(a[2]), std::fabs(b[0]), std::fabs(b[1]), std::fabs(b[2])});
    const float d = std::min(1.0f / 16384.0f, 16.0f * std::numeric_limits<float>::epsilon() * mag);
    return dist_sq3(a, b) < d * d;
}
// The funnel's test for a side that has not left the apex: the side point IS the apex (a copy of it
// after a restart, or the same mesh vertex), not merely close to it. A side point a distance away,
// however small, is a real corner of the corridor (an obstacle inflated by a tiny agent radius has
// corners 1e-6 m apart); taking it for the apex would let the other side swing across it unchecked.
inline bool is_apex(const float* apex, const float* p) { return apex[0] == p[0] && apex[1] == p[1] && apex[2] == p[2]; }

// Twice the signed xz area of triangle abc with Detour's sign: positive when c lies to the right of
// a->b for Recast's clockwise polygons, i.e. (c - a) x (b - a) in (x, z).
inline float tri_area_xz(const float* a, const float* b, const float* c) {
    return (c[0] - a[0]) * (b[2] - a[2]) - (b[0] - a[0]) * (c[2] - a[2]);
}

inline float dist_pt_seg_sq_xz(const float* p, const float* a, const float* b, float* t) {
    const float dx = b[0] - a[0], dz = b[2] - a[2];
    const float len = dx * dx + dz * dz;
    float s = len > 0 ? ((p[0] - a[0]) * dx + (p[2] - a[2]) * dz) / len : 0.0f;
    s = std::clamp(s, 0.0f, 1.0f);
    *t = s;
    const float px = a[0] + s * dx - p[0], pz = a[2] + s * dz - p[2];
    return px * px + pz * pz;
}

// Gathers polygon p's vertices; returns the count.
inline int poly_verts(const NavMesh& m, uint32_t p, float* out) {
    const uint32_t e0 = m.poly_first[p], e1 = m.poly_first[p + 1];
    int n = 0;
    for (uint32_t e = e0; e < e1; ++e, ++n) copy3(&out[n * 3], m.vert(m.edge_vert[e]));
    return n;
}

// Crossing-number inside test in xz, and per edge j (vertex j -> j+1) the squared xz distance to
// the point and the parameter of the closest point on it.
inline bool dist_pt_poly_edges(const float* p, const float* v, int n, float* ed, float* et) {
    bool inside = false;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        const float* vi = &v[i * 3];
        const float* vj = &v[j * 3];
        if (((vi[2] > p[2]) != (vj[2] > p[2])) && (p[0] < (vj[0] - vi[0]) * (p[2] - vi[2]) / (vj[2] - vi[2]) + vi[0]))
            inside = !inside;
        ed[j] = dist_pt_seg_sq_xz(p, vj, vi, &et[j]);
    }
    return inside;
}

// Clips the xz segment p0->p1 against a convex polygon wound clockwise in (x, z) (interior on
// the right of each edge). Returns false when they do not overlap; otherwise [tmin, tmax] and the
// edges where the segment enters and leaves (-1: it starts / ends inside).
bool clip_segment_poly_xz(const float* p0, const float* p1, const float* v, int n, float& tmin, float& tmax,
                          int& seg_min, int& seg_max) {
    tmin = 0, tmax = 1;
    seg_min = seg_max = -1;
    const float dx = p1[0] - p0[0], dz = p1[2] - p0[2];
    for (int j = 0; j < n; ++j) {
        const float* a = &v[j * 3];
        const float* b = &v[((j + 1) % n) * 3];
        const float ex = b[0] - a[0], ez = b[2] - a[2];
        // side(t) = cross(e, p(t) - a); inside is side <= 0.
        const float side0 = ex * (p0[2] - a[2]) - ez * (p0[0] - a[0]);
        const float rate = ex * dz - ez * dx;
        if (std::fabs(rate) < 1e-12f) {
            if (side0 > 0) return false;
            continue;
        }
        const float t = -side0 / rate;
        if (rate < 0) {  // entering across this edge
            if (t > tmin) {
                tmin = t;
                seg_min = j;
                if (tmin > tmax) return false;
            }
        } else {  // leaving across this edge
            if (t < tmax) {
                tmax = t;
                seg_max = j;
                if (tmax < tmin) return false;
            }
        }
    }
    return true;
}

// closest_point_on_poly_boundary on checked arguments: pos itself when it is over polygon p (in
// xz), else the nearest point of p's boundary.
void closest_on_boundary(const NavMesh& m, uint32_t p, const float* pos, float* closest) {
    // v zeroed: inlined at -O1 (the sanitizer builds) gcc cannot see poly_verts fill it
    float v[kMaxPolyVerts * 3] = {}, ed[kMaxPolyVerts], et[kMaxPolyVerts];
    const int n = poly_verts(m, p, v);
    if (dist_pt_poly_edges(pos, v, n, ed, et)) {
        copy3(closest, pos);
    } else {
        int imin = 0;
        for (int j = 1; j < n; ++j)
            if (ed[j] < ed[imin]) imin = j;
        lerp3(closest, &v[imin * 3], &v[((imin + 1) % n) * 3], et[imin]);
    }
}

}  // namespace

// Binary min-heap on f with lazy deletion: an improved node is pushed again and the stale entry
// is skipped when popped (its f no longer matches the node's, or the node is closed). The slot
// past the last entry holds +inf, so the child selection in pop needs no bounds branch.
inline void NavQuery::Heap::push(HeapEntry e) {
    if (d.size() < static_cast<size_t>(n) + 2) d.resize(std::max<size_t>(64, d.size() * 2));
    HeapEntry* h = d.data();
    uint32_t i = n++;
    while (i > 0) {
        const uint32_t parent = (i - 1) >> 1;
        if (!(e.f < h[parent].f)) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

inline NavQuery::HeapEntry NavQuery::Heap::pop() {
    HeapEntry* h = d.data();
    const HeapEntry top = h[0];
    const HeapEntry last = h[--n];
    h[n].f = std::numeric_limits<float>::infinity();
    if (n == 0) return top;
    // Move the hole down to a leaf along the smaller children, then sift `last` up from there.
    uint32_t i = 0;
    for (uint32_t c = 1; c < n; c = 2 * i + 1) {
        c += h[c + 1].f < h[c].f ? 1u : 0u;
        h[i] = h[c];
        i = c;
    }
    while (i > 0) {
        const uint32_t parent = (i - 1) >> 1;
        if (!(last.f < h[parent].f)) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = last;
    return top;
}

namespace {

Status check_filter(const QueryFilter& filter, float* min_cost) {
    float m = std::numeric_limits<float>::max();
    for (int a = 0; a < kMaxAreas; ++a) {
        const float c = filter.area_cost[a];
        if (!std::isfinite(c) || c < 0) return Status::bad_input("query filter: area " + std::to_string(a) + " has cost " + std::to_string(c) + " (must be finite and >= 0)");
        m = std::min(m, c);
    }
    if (min_cost) *min_cost = m;
    return Status::ok();
}

Status check_point(const float* p, const char* what) {
    if (!p) return Status::bad_input(std::string(what) + " is null");
    if (!finite3(p)) return Status::bad_input(std::string(what) + " has a NaN or infinite coordinate");
    return Status::ok();
}

}  // namespace

float StraightPath::length() const {
    float len = 0;
    for (size_t i = 1; i < flags.size(); ++i) len += dist3(&points[(i - 1) * 3], &points[i * 3]);
    return len;
}

double Route::length_xz() const {
    double len = 0;
    for (size_t i = 1; i < straight.flags.size(); ++i)
        len += std::hypot(double(straight.points[i * 3]) - straight.points[i * 3 - 3],
                          double(straight.points[i * 3 + 2]) - straight.points[i * 3 - 1]);
    return len;
}

void NavQuery::init(const NavMesh* mesh, int max_nodes) {
    mesh_ = mesh;
    max_nodes_ = std::max(0, max_nodes);
    nodes_.clear();
    poly_nodes_.clear();
    heap_.clear();
    poly_heap_.clear();
    stamp_ = poly_stamp_ = 0;
    pmesh_valid_ = false;
}

void NavQuery::prepare_nodes() {
    const size_t need = static_cast<size_t>(mesh_->nedges) + 2 + 2 * static_cast<size_t>(mesh_->nlinks);
    // mark == stamp_: open, stamp_ + 1: closed, anything else: not seen in this query.
    if (nodes_.size() != need) {
        nodes_.assign(need, Node{0, 0, 0, 0});
        stamp_ = 0;
    }
    stamp_ += 2;
    if (stamp_ >= 0xfffffff0u) {
        for (Node& n : nodes_) n.mark = 0;
        stamp_ = 2;
    }
    heap_.clear();
}

void NavQuery::prepare_poly_nodes() {
    const size_t need = static_cast<size_t>(mesh_->npolys);
    if (poly_nodes_.size() != need) {
        poly_nodes_.assign(need, PolyNode{0, {0, 0, 0}, 0, 0});
        poly_stamp_ = 0;
    }
    poly_stamp_ += 2;
    if (poly_stamp_ >= 0xfffffff0u) {
        for (PolyNode& n : poly_nodes_) n.mark = 0;
        poly_stamp_ = 2;
    }
    poly_heap_.clear();
}

// ---------------------------------------------------------------------------------------------
// Point location

Status NavQuery::query_polygons_dense(const float* center, const float* half_extents, const QueryFilter& filter,
                                std::vector<PolyRef>& out) const {
    out.clear();
    if (!mesh_) return Status::bad_input("query_polygons: no mesh bound (call init)");
    if (Status s = check_point(center, "query_polygons: center"); !s) return s;
    if (Status s = check_point(half_extents, "query_polygons: half extents"); !s) return s;
    const float qmin[3] = {center[0] - half_extents[0], center[1] - half_extents[1], center[2] - half_extents[2]};
    const float qmax[3] = {center[0] + half_extents[0], center[1] + half_extents[1], center[2] + half_extents[2]};
    const BVNode* nodes = mesh_->bvtree.data();
    const int count = static_cast<int>(mesh_->bvtree.size());
    int i = 0;
    while (i < count) {
        const BVNode& n = nodes[i];
        const bool overlap = qmin[0] <= n.bmax[0] && qmax[0] >= n.bmin[0] && qmin[1] <= n.bmax[1] && qmax[1] >= n.bmin[1] &&
                             qmin[2] <= n.bmax[2] && qmax[2] >= n.bmin[2];
        const bool leaf = n.index >= 0;
        if (leaf && overlap && filter.passes(mesh_->flags[static_cast<size_t>(n.index)], mesh_->types[static_cast<size_t>(n.index)]))
            out.push_back(mesh_->ref(static_cast<uint32_t>(n.index)));
        i += (overlap || leaf) ? 1 : -n.index;
    }
    return Status::ok();
}

Status NavQuery::closest_point_on_poly_dense(uint32_t p, const float* pos, float* closest, bool* over_poly) const {
    if (!mesh_) return Status::bad_input("closest_point_on_poly: no mesh bound (call init)");
    if (p >= static_cast<uint32_t>(mesh_->npolys)) return Status::bad_input("closest_point_on_poly: polygon " + std::to_string(p) + " out of range");
    if (Status s = check_point(pos, "closest_point_on_poly: point"); !s) return s;
    float v[kMaxPolyVerts * 3], ed[kMaxPolyVerts], et[kMaxPolyVerts];
    const int n = poly_verts(*mesh_, p, v);
    copy3(closest, pos);
    const bool inside = dist_pt_poly_edges(pos, v, n, ed, et);
    if (!inside) {
        int imin = 0;
        for (int j = 1; j < n; ++j)
            if (ed[j] < ed[imin]) imin = j;
        lerp3(closest, &v[imin * 3], &v[((imin + 1) % n) * 3], et[imin]);
    }
    if (over_poly) *over_poly = inside;
    mesh_->poly_height(p, closest[0], closest[2], &closest[1]);
    return Status::ok();
}

Status NavQuery::closest_point_on_poly_boundary_dense(uint32_t p, const float* pos, float* closest) const {
    if (!mesh_) return Status::bad_input("closest_point_on_poly_boundary: no mesh bound (call init)");
    if (p >= static_cast<uint32_t>(mesh_->npolys))
        return Status::bad_input("closest_point_on_poly_boundary: polygon " + std::to_string(p) + " out of range");
    if (Status s = check_point(pos, "closest_point_on_poly_boundary: point"); !s) return s;
    closest_on_boundary(*mesh_, p, pos, closest);
    return Status::ok();
}

Status NavQuery::find_nearest_poly_dense(const float* center, const float* half_extents, const QueryFilter& filter,
                                   NearestPoly& out) const {
    out = NearestPoly{};
    if (!mesh_) return Status::bad_input("find_nearest_poly: no mesh bound (call init)");
    if (Status s = check_point(center, "find_nearest_poly: center"); !s) return s;
    if (Status s = check_point(half_extents, "find_nearest_poly: half extents"); !s) return s;
    if (half_extents[0] < 0 || half_extents[1] < 0 || half_extents[2] < 0)
        return Status::bad_input("find_nearest_poly: negative half extents");
    const NavMesh& m = *mesh_;
    const float qmin[3] = {center[0] - half_extents[0], center[1] - half_extents[1], center[2] - half_extents[2]};
    const float qmax[3] = {center[0] + half_extents[0], center[1] + half_extents[1], center[2] + half_extents[2]};
    const BVNode* nodes = m.bvtree.data();
    const int count = static_cast<int>(m.bvtree.size());
    float best = std::numeric_limits<float>::max();

    // Candidates are gathered in batches with the xz-closest point and a lower bound on their
    // distance (xz distance plus the distance to the polygon's height range); the detail height,
    // the expensive part, is then computed nearest-bound first until the bound exceeds the best.
    struct Cand {
        float lb;
        float c[3];
        uint32_t poly;
        bool inside;
    };
    constexpr int kBatch = 32;
    Cand cand[kBatch];
    int ncand = 0;
    auto flush = [&]() {
        while (ncand > 0) {
            int k = 0;
            for (int j = 1; j < ncand; ++j)
                if (cand[j].lb < cand[k].lb) k = j;
            const Cand c = cand[k];
            cand[k] = cand[--ncand];
            if (c.lb >= best) {
                ncand = 0;
                break;
            }
            float p[3] = {c.c[0], c.c[1], c.c[2]};
            m.poly_height(c.poly, p[0], p[2], &p[1]);
            const float d = dist_sq3(center, p);
            if (d < best) {
                best = d;
                out.poly = m.ref(c.poly);
                copy3(out.point, p);
                out.over_poly = c.inside;
            }
        }
    };
    float v[kMaxPolyVerts * 3], ed[kMaxPolyVerts], et[kMaxPolyVerts];
    // The BV tree is a forest (one tree per tile, one after another). Each tree overlapping the
    // box is walked twice. The first walk visits only polygons whose bounds hold the centre in xz
    // (the query box's y range): those with the centre inside (the usual answer: a point on the
    // mesh) are settled there, in tree order. The second walks the whole box for the polygons the
    // centre is outside of, pruned by the best distance found so far (with a point on the mesh,
    // nearly every box). Those are batched and settled at the end, nearest bound first, as
    // before: a polygon can win only with a distance below the best, so the answer is the one a
    // single walk finds.
    const float pmin[3] = {center[0], qmin[1], center[2]}, pmax[3] = {center[0], qmax[1], center[2]};
    auto overlaps = [](const BVNode& n, const float* bmin, const float* bmax) {
        return bmin[0] <= n.bmax[0] && bmax[0] >= n.bmin[0] && bmin[1] <= n.bmax[1] && bmax[1] >= n.bmin[1] &&
               bmin[2] <= n.bmax[2] && bmax[2] >= n.bmin[2];
    };
    auto box_ok = [&](const BVNode& n, const float* bmin, const float* bmax) {
        if (!overlaps(n, bmin, bmax)) return false;
        // The answer lies within the bounds it comes from: skip boxes farther than the best.
        float bd = 0;
        for (int k = 0; k < 3; ++k) {
            const float d = std::max(0.0f, std::max(n.bmin[k] - center[k], center[k] - n.bmax[k]));
            bd += d * d;
        }
        return bd < best;
    };
    int root = 0;
    while (root < count) {
        const int tree_end = root + (nodes[root].index < 0 ? -nodes[root].index : 1);
        if (!box_ok(nodes[root], qmin, qmax)) {
            root = tree_end;
            continue;
        }
        for (int pass = 0; pass < 2; ++pass) {
            const float* bmin = pass == 0 ? pmin : qmin;
            const float* bmax = pass == 0 ? pmax : qmax;
            int i = root;
            while (i < tree_end) {
                const BVNode& n = nodes[i];
                const bool overlap = box_ok(n, bmin, bmax);
                const bool leaf = n.index >= 0;
                i += (overlap || leaf) ? 1 : -n.index;
                if (!leaf || !overlap) continue;
                const uint32_t p = static_cast<uint32_t>(n.index);
                if (!filter.passes(m.flags[p], m.types[p])) continue;
                const int nv = poly_verts(m, p, v);
                Cand& c = cand[ncand];
                copy3(c.c, center);
                c.poly = p;
                c.inside = dist_pt_poly_edges(center, v, nv, ed, et);
                // Inside: the first walk's, when its bounds hold the centre (the first walk saw it
                // then); outside, or inside by the edge test while its bounds miss the centre by a
                // rounding step: the second's.
                const bool first_walks = c.inside && overlaps(n, pmin, pmax);
                if (first_walks != (pass == 0)) continue;
                float dxz = 0;
                if (!c.inside) {
                    int imin = 0;
                    for (int j = 1; j < nv; ++j)
                        if (ed[j] < ed[imin]) imin = j;
                    lerp3(c.c, &v[imin * 3], &v[((imin + 1) % nv) * 3], et[imin]);
                    dxz = ed[imin];
                }
                const float dy = center[1] < n.bmin[1] ? n.bmin[1] - center[1] : (center[1] > n.bmax[1] ? center[1] - n.bmax[1] : 0.0f);
                c.lb = dxz + dy * dy;
                if (c.lb >= best) continue;
                if (c.inside) {
                    // Most likely the answer: settle it now so it prunes the rest.
                    float q[3] = {c.c[0], c.c[1], c.c[2]};
                    m.poly_height(p, q[0], q[2], &q[1]);
                    const float d = dist_sq3(center, q);
                    if (d < best) {
                        best = d;
                        out.poly = m.ref(p);
                        copy3(out.point, q);
                        out.over_poly = true;
                    }
                    continue;
                }
                if (++ncand == kBatch) flush();
            }
        }
        root = tree_end;
    }
    flush();
    return Status::ok();
}

// ---------------------------------------------------------------------------------------------
// A*

namespace {

// The mesh arrays the A* loop reads, gathered once per search.
struct SearchArrays {
    const uint32_t *edge_opp, *edge_nei, *edge_poly, *poly_first, *pair_first;
    const float *pair_dist, *edge_mid;
    const uint16_t* flags;
    const uint16_t* types;
    const uint8_t *areas, *portals;
    explicit SearchArrays(const NavMesh& m)
        : edge_opp(m.edge_opp.data()), edge_nei(m.edge_nei.data()), edge_poly(m.edge_poly.data()),
          poly_first(m.poly_first.data()), pair_first(m.pair_first.data()), pair_dist(m.pair_dist.data()),
          edge_mid(m.edge_mid.data()), flags(m.flags.data()), types(m.types.data()), areas(m.areas.data()), portals(m.poly_portals.data()) {}
};

// The landmark (ALT) distances from each landmark of the goal's island to the goal, into
// lm_goal: those of the goal state when the search has one, else the least, over the goal
// polygon's portals, of the landmark's distance to the portal plus the walk on to goal.pos.
// Returns the number of landmarks in use (0: none on this island, or none in the mesh).
template <class Goal>
int landmark_goal(const NavMesh& m, const LandmarkTable& t, uint32_t island, const Goal& goal, float* lm_goal) {
    constexpr int L = NavMesh::kLandmarks;
    const float* const lm = t.dist.data();
    const int nlm = t.count[island];
    if (goal.state_a != kNoEdge) {
        for (int k = 0; k < nlm; ++k) lm_goal[k] = lm[static_cast<size_t>(goal.state_a) * L + static_cast<size_t>(k)];
    } else if (nlm > 0) {
        for (int k = 0; k < nlm; ++k) lm_goal[k] = std::numeric_limits<float>::infinity();
        for (uint32_t e = m.poly_first[goal.poly]; e < m.poly_first[goal.poly + 1]; ++e) {
            if (m.edge_opp[e] == kNoEdge) continue;
            const float last = dist3(&m.edge_mid[static_cast<size_t>(e) * 3], goal.pos);
            for (int k = 0; k < nlm; ++k)
                lm_goal[k] = std::min(lm_goal[k], lm[static_cast<size_t>(e) * L + static_cast<size_t>(k)] + last);
        }
    }
    return nlm;
}


// One run of NavQuery's A* loop (NavQuery::search): the mesh arrays, filter and goal gathered
// once, the search's bound, node budget and best state so far, and its steps: expand a popped
// state through its polygon's portals and links, label (relax) each state reached. Node, Heap
// and Goal are NavQuery's node, open list and goal; Recorder records search<true>'s trace
// (updates(), update(t, from_poly, kind), step(s, node, first_update)).
template <bool kTrace, class Node, class Heap, class Goal, class Recorder>
struct AStarRun {
    static constexpr int L = NavMesh::kLandmarks;
    const NavMesh& m;
    const SearchArrays a;
    Node* const nodes;
    Heap& heap;
    const Goal& goal;
    const Recorder rec;
    const uint32_t start_poly;
    const float* const start_pos;
    const float hscale;
    // States: portal sides 0..nedges-1, the start S, the goal G, then one per link traversal
    // (standing on the point where it lands): L0 + traversal id.
    const uint32_t S, G, L0;
    const uint32_t stamp, closed;
    const uint32_t limit;
    const bool has_links;
    const uint32_t* const plink_first;
    const uint32_t* const plink_trav;
    float cost[kMaxAreas];
    const uint16_t include, exclude, type_bit;
    const float gx, gy, gz;
    const uint32_t end_poly, target_a, target_b;
    const float goal_cost;
    // Upper bound on the answer once the goal has a label: states with f beyond it are useless.
    float bound = std::numeric_limits<float>::max();
    bool out_of_nodes = false;
    int expanded = 0;
    uint32_t used = 1;
    uint32_t best_state;
    float best_h = 0, best_g = 0;

    // Landmark (ALT) lower bounds: lm_goal[k] = walking distance from landmark k to the goal.
    // With links, only on the goal's island, and only when no link leaves it (see query.h).
    const std::shared_ptr<const LandmarkTable> lmt;
    const float* const lm;
    float lm_goal[L] = {};
    const uint32_t goal_island;
    int nlm = 0;
    const uint32_t* const poly_island;

    // Starts the search from start_poly at start_pos: the start state S open. stamp: the nodes'
    // mark of an open state this query (stamp + 1: closed); limit: the node budget; landmarks:
    // the table to bound with, or null.
    AStarRun(const NavMesh& mesh, Node* nodes_, Heap& heap_, uint32_t stamp_, uint32_t limit_,
             std::shared_ptr<const LandmarkTable> landmarks, uint32_t start_poly_, const float* start_pos_, const Goal& goal_,
             const QueryFilter& filter, float hscale_, Recorder rec_)
        : m(mesh), a(mesh), nodes(nodes_), heap(heap_), goal(goal_), rec(rec_), start_poly(start_poly_),
          start_pos(start_pos_), hscale(hscale_), S(static_cast<uint32_t>(mesh.nedges)), G(S + 1), L0(S + 2),
          stamp(stamp_), closed(stamp_ + 1), limit(limit_), has_links(!mesh.poly_link_first.empty()),
          plink_first(has_links ? mesh.poly_link_first.data() : nullptr),
          plink_trav(has_links ? mesh.poly_link_trav.data() : nullptr), include(filter.include_flags),
          exclude(filter.exclude_flags), type_bit(filter.type_bit()), gx(goal_.pos[0]), gy(goal_.pos[1]), gz(goal_.pos[2]), end_poly(goal_.poly),
          target_a(goal_.state_a), target_b(goal_.state_b),
          goal_cost(goal_.poly != kNoPoly ? filter.area_cost[a.areas[goal_.poly]] : 0.0f), best_state(S),
          lmt(std::move(landmarks)), lm(lmt ? lmt->dist.data() : nullptr),
          goal_island(mesh.poly_island[goal_.poly != kNoPoly ? goal_.poly : a.edge_poly[goal_.state_a]]),
          poly_island(mesh.poly_island.data()) {
        std::copy(filter.area_cost, filter.area_cost + kMaxAreas, cost);
        const bool lm_ok = lmt && (!has_links || !m.island_has_out_link[goal_island]);
        nlm = lm_ok ? landmark_goal(m, *lmt, goal_island, goal, lm_goal) : 0;
        const float sx = start_pos[0], sy = start_pos[1], sz = start_pos[2];
        const float start_h = std::sqrt((gx - sx) * (gx - sx) + (gy - sy) * (gy - sy) + (gz - sz) * (gz - sz));
        nodes[S] = Node{0, start_h * hscale, kNoEdge, stamp};  // g, f, parent, mark
        heap.push({nodes[S].f, S});
        best_h = start_h;
    }

    // The landmark lower bound on the walk from portal side t to the goal.
    float lm_bound(uint32_t t) const {
        if (nlm == 0) return 0.0f;  // no landmarks on this island (or none in the mesh)
        if (has_links && poly_island[a.edge_poly[t]] != goal_island) return 0.0f;  // reached through a link
        const float* d = lm + static_cast<size_t>(t) * L;
        float b = 0;
        for (int k = 0; k < L; ++k) b = std::max(b, std::fabs(lm_goal[k] - d[k]));
        return b;
    }

    // Labels state t (in polygon Q, standing on m3, reached at cost g from s in P); relaxes the
    // goal when Q is the goal polygon. `portal`: t is a portal side (landmark bound applies).
    void label(uint32_t s, uint32_t P, uint32_t t, uint32_t Q, const float* m3, float g, bool portal, bool dead_end) {
        const float mx = m3[0], my = m3[1], mz = m3[2];
        Node& nt = nodes[t];
        const uint32_t mark = nt.mark;
        float h;
        if (mark != stamp && mark != closed) {
            h = std::sqrt((gx - mx) * (gx - mx) + (gy - my) * (gy - my) + (gz - mz) * (gz - mz));
            const float fv = g + (portal ? std::max(h, lm_bound(t)) : h) * hscale;
            if (fv >= bound) return;
            if (used >= limit) {
                out_of_nodes = true;
                return;
            }
            ++used;
            nt.mark = stamp;
            nt.g = g;
            nt.f = fv;
            nt.parent = s;
            if (!dead_end) heap.push({fv, t});
            if (h < best_h || (h == best_h && g < best_g)) {
                best_h = h;
                best_g = g;
                best_state = t;
            }
            if constexpr (kTrace) rec.update(t, P, AStarTrace::Update::Pushed);
        } else {
            if (mark == closed || g >= nt.g) return;
            const float hh = nt.f - nt.g;
            if (g + hh >= bound) return;
            nt.g = g;
            nt.f = g + hh;
            nt.parent = s;
            if (!dead_end) heap.push({nt.f, t});
            if (best_state == t) best_g = g;
            if constexpr (kTrace) rec.update(t, P, AStarTrace::Update::Improved);
            h = -1;
        }
        if (Q == end_poly) {
            if (h < 0) h = std::sqrt((gx - mx) * (gx - mx) + (gy - my) * (gy - my) + (gz - mz) * (gz - mz));
            const float gg = g + h * goal_cost;
            Node& ng = nodes[G];
            if (ng.mark != stamp || gg < ng.g) {
                const bool fresh = ng.mark != stamp;
                ng.mark = stamp;
                ng.g = ng.f = gg;
                ng.parent = t;
                heap.push({gg, G});
                bound = gg;
                if constexpr (kTrace) rec.update(G, Q, fresh ? AStarTrace::Update::Pushed : AStarTrace::Update::Improved);
            }
        }
    }

    // Expands state s (in polygon P, standing on pos, at cost gs) through P's portals.
    void expand_portals(uint32_t s, uint32_t P, const float* pos, float gs) {
        const bool on_portal = s < S;
        const float px = pos[0], py = pos[1], pz = pos[2];
        const uint32_t e0 = a.poly_first[P], e1 = a.poly_first[P + 1];
        const float cP = cost[a.areas[P]];
        // Walking distances from this state's position to each edge midpoint of P.
        const float* row = on_portal ? &a.pair_dist[a.pair_first[P] + (s - e0) * (e1 - e0)] : nullptr;
        for (uint32_t f = e0; f < e1; ++f) {
            const uint32_t t = a.edge_opp[f];
            if (t == kNoEdge || f == s) continue;
            const uint32_t Q = a.edge_nei[f];
            const uint16_t qf = a.flags[Q];
            if ((qf & include) == 0 || (qf & exclude) != 0 || (a.types[Q] & type_bit) == 0) continue;
            const float* mid = &a.edge_mid[static_cast<size_t>(t) * 3];
            const float mx = mid[0], my = mid[1], mz = mid[2];
            const float step =
                row ? row[f - e0] : std::sqrt((mx - px) * (mx - px) + (my - py) * (my - py) + (mz - pz) * (mz - pz));
            // A dead end (Q's only portal is the one we cross, and no link leaves Q) cannot lead
            // anywhere: its state is labelled but never queued (reaching the goal from it is
            // relaxed all the same).
            const bool dead_end = a.portals[Q] == 1 && t != target_a && t != target_b &&
                                  (!has_links || plink_first[Q] == plink_first[Q + 1]);
            label(s, P, t, Q, mid, gs + step * cP, true, dead_end);
        }
    }

    // Expands state s (in polygon P, standing on pos, at cost gs) through the links leaving P.
    void expand_links(uint32_t s, uint32_t P, const float* pos, float gs) {
        const float px = pos[0], py = pos[1], pz = pos[2];
        const float cP = cost[a.areas[P]];
        for (uint32_t k = plink_first[P]; k < plink_first[P + 1]; ++k) {
            const uint32_t tr = plink_trav[k], li = tr >> 1;
            const uint16_t lf = m.link_flags[li];
            if ((lf & include) == 0 || (lf & exclude) != 0) continue;
            const uint32_t Q = m.trav_to_poly(tr);
            const uint16_t qf = a.flags[Q];
            if ((qf & include) == 0 || (qf & exclude) != 0 || (a.types[Q] & type_bit) == 0) continue;
            const float* from = m.trav_from(tr);
            const float walk =
                std::sqrt((from[0] - px) * (from[0] - px) + (from[1] - py) * (from[1] - py) + (from[2] - pz) * (from[2] - pz));
            const float g = gs + walk * cP + m.link_length[li] * cost[m.link_area[li]];
            label(s, P, L0 + tr, Q, m.trav_to(tr), g, false, false);
        }
    }

    // The loop: pops the cheapest open state until a goal state; returns it (kNoEdge: none).
    uint32_t run() {
        while (!heap.empty()) {
            const auto top = heap.pop();
            const uint32_t s = top.id;
            Node& ns = nodes[s];
            if (ns.mark != stamp || top.f != ns.f) continue;  // stale entry
            ns.mark = closed;
            ++expanded;
            uint32_t first_update = 0;
            if constexpr (kTrace) first_update = rec.updates();
            if (s == G || s == target_a || s == target_b) {
                if constexpr (kTrace) rec.step(s, ns, first_update);
                return s;
            }
            const bool on_portal = s < S;
            const uint32_t P = on_portal ? a.edge_poly[s] : s == S ? start_poly : m.trav_to_poly(s - L0);
            const float* const pos = on_portal ? &a.edge_mid[static_cast<size_t>(s) * 3] : s == S ? start_pos : m.trav_to(s - L0);
            expand_portals(s, P, pos, ns.g);
            if (has_links) expand_links(s, P, pos, ns.g);
            if constexpr (kTrace) rec.step(s, ns, first_update);
        }
        return kNoEdge;
    }
};

}  // namespace

uint32_t NavQuery::trace_state_poly(uint32_t s, uint32_t start_poly, uint32_t end_poly) const {
    const uint32_t S = static_cast<uint32_t>(mesh_->nedges), G = S + 1;
    if (s > G) return mesh_->trav_to_poly(s - G - 1);  // landed by a link
    return s == S ? start_poly : (s == G ? end_poly : mesh_->edge_poly[s]);
}

void NavQuery::trace_update(AStarTrace& trace, uint32_t t, uint32_t from_poly, AStarTrace::Update kind, uint32_t start_poly,
                            const SearchGoal& goal) const {
    const Node& n = nodes_[t];
    AStarTrace::Neighbour u;
    u.poly = trace_state_poly(t, start_poly, goal.poly);
    u.from_poly = from_poly;
    u.g = n.g;
    u.f = n.f;
    const uint32_t G = static_cast<uint32_t>(mesh_->nedges) + 1;
    if (t == G) copy3(u.pos, goal.pos);
    else if (t > G) copy3(u.pos, mesh_->trav_to(t - G - 1));
    else copy3(u.pos, &mesh_->edge_mid[static_cast<size_t>(t) * 3]);
    u.kind = kind;
    trace.updates.push_back(u);
}

void NavQuery::trace_step(AStarTrace& trace, uint32_t s, const Node& n, uint32_t first_update, uint32_t start_poly,
                          uint32_t end_poly) const {
    // The popped state's polygon is closed; it was entered from its parent's polygon (the goal
    // state: from the goal polygon itself; the start: from none).
    const uint32_t poly = trace_state_poly(s, start_poly, end_poly);
    trace.closed.push_back(poly);
    AStarTrace::Step st;
    st.poly = poly;
    st.from_poly = s == static_cast<uint32_t>(mesh_->nedges) + 1 ? poly
                   : n.parent == kNoEdge                       ? kNoPoly
                                                               : trace_state_poly(n.parent, start_poly, end_poly);
    st.g = n.g;
    st.f = n.f;
    st.first_update = first_update;
    st.update_count = static_cast<uint32_t>(trace.updates.size()) - first_update;
    st.first_open = static_cast<uint32_t>(trace.open.size());
    for (uint32_t k = 0; k < heap_.n; ++k) {
        const HeapEntry& h = heap_.d[k];
        if (nodes_[h.id].mark == stamp_ && nodes_[h.id].f == h.f) trace.open.push_back(trace_state_poly(h.id, start_poly, end_poly));
    }
    st.open_count = static_cast<uint32_t>(trace.open.size()) - st.first_open;
    st.closed_count = static_cast<uint32_t>(trace.closed.size());
    trace.steps.push_back(st);
}

template <bool kTrace>
uint32_t NavQuery::search(uint32_t start_poly, const float* start_pos, const SearchGoal& goal, const QueryFilter& filter,
                          float hscale, PathResult& out, AStarTrace* trace, uint32_t* best_out) {
    // search<true>'s recorder: a state labelled, a state popped.
    struct Recorder {
        const NavQuery& q;
        AStarTrace* trace;
        uint32_t start_poly;
        const SearchGoal& goal;
        uint32_t updates() const { return static_cast<uint32_t>(trace->updates.size()); }
        void update(uint32_t t, uint32_t from_poly, AStarTrace::Update kind) const {
            q.trace_update(*trace, t, from_poly, kind, start_poly, goal);
        }
        void step(uint32_t s, const Node& n, uint32_t first_update) const {
            q.trace_step(*trace, s, n, first_update, start_poly, goal.poly);
        }
    };
    prepare_nodes();
    const NavMesh& m = *mesh_;
    const uint32_t limit = max_nodes_ > 0 ? static_cast<uint32_t>(max_nodes_) : std::numeric_limits<uint32_t>::max();
    // The landmark table this search started with (another thread may publish a completed one meanwhile).
    AStarRun<kTrace, Node, Heap, SearchGoal, Recorder> run(m, nodes_.data(), heap_, stamp_, limit,
                                                           use_landmarks_ ? m.landmarks() : nullptr, start_poly, start_pos,
                                                           goal, filter, hscale, Recorder{*this, trace, start_poly, goal});
    const uint32_t found = run.run();
    out.out_of_nodes = out.out_of_nodes || run.out_of_nodes;
    out.expanded += run.expanded;
    if (best_out) *best_out = run.best_state;
    return found;
}

uint32_t NavQuery::run_search(uint32_t start_poly, const float* start_pos, const SearchGoal& goal, const QueryFilter& filter,
                              float hscale, PathResult& out, AStarTrace* trace, uint32_t* best_out) {
    if (trace) return search<true>(start_poly, start_pos, goal, filter, hscale, out, trace, best_out);
    return search<false>(start_poly, start_pos, goal, filter, hscale, out, nullptr, best_out);
}

void NavQuery::collect_path(uint32_t last, uint32_t start_poly, PathResult& out) const {
    const uint32_t S = static_cast<uint32_t>(mesh_->nedges), G = S + 1;
    out.polys.clear();
    out.links.clear();
    out.cost = nodes_[last].g;
    for (uint32_t s = last; s != kNoEdge; s = nodes_[s].parent) {
        if (s == G) continue;
        if (s > G) {
            out.polys.push_back(mesh_->ref(mesh_->trav_to_poly(s - G - 1)));
            out.links.push_back(s - G - 1);
        } else {
            out.polys.push_back(mesh_->ref(s == S ? start_poly : mesh_->edge_poly[s]));
            out.links.push_back(kNoLink);
        }
    }
    std::reverse(out.polys.begin(), out.polys.end());
    std::reverse(out.links.begin(), out.links.end());
}

Status NavQuery::find_path_dense(uint32_t start_poly, uint32_t end_poly, const float* start_pos, const float* end_pos,
                           const QueryFilter& filter, PathResult& out, AStarTrace* trace) {
    out.polys.clear();
    out.links.clear();
    out.cost = 0;
    out.reached = false;
    out.out_of_nodes = false;
    out.expanded = 0;
    if (trace) trace->clear();
    if (!mesh_) return Status::bad_input("find_path: no mesh bound (call init)");
    const NavMesh& m = *mesh_;
    const uint32_t np = static_cast<uint32_t>(m.npolys);
    if (start_poly >= np) return Status::bad_input("find_path: start polygon " + std::to_string(start_poly) + " out of range");
    if (end_poly >= np) return Status::bad_input("find_path: end polygon " + std::to_string(end_poly) + " out of range");
    if (Status s = check_point(start_pos, "find_path: start point"); !s) return s;
    if (Status s = check_point(end_pos, "find_path: end point"); !s) return s;
    float hscale = 0;
    if (Status s = check_filter(filter, &hscale); !s) return s;

    if (start_poly == end_poly) {
        out.polys.push_back(m.ref(start_poly));
        out.links.push_back(kNoLink);
        out.cost = dist3(start_pos, end_pos) * filter.area_cost[m.areas[start_poly]];
        out.reached = true;
        out.expanded = 1;
        if (trace) {
            trace->steps.push_back({start_poly, kNoPoly, 0, out.cost, 0, 0, 0, 0, 1});
            trace->closed.push_back(start_poly);
        }
        return Status::ok();
    }

    // Different islands: unreachable unless links lead from the start's island to the goal's.
    // When they do not but a link leaves the start's island, the partial path may end beyond it:
    // the full search (which then floods what is reachable) finds its nearest state.
    const uint32_t island = m.poly_island[start_poly];
    const bool link_out = !m.island_has_out_link.empty() && m.island_has_out_link[island];
    if (island == m.poly_island[end_poly] || link_out) {
        uint32_t best = kNoEdge;
        const uint32_t found = run_search(start_poly, start_pos, SearchGoal{end_pos, end_poly, kNoEdge, kNoEdge}, filter, hscale,
                                          out, trace, &best);
        out.reached = found != kNoEdge;
        collect_path(out.reached ? found : best, start_poly, out);
        return Status::ok();
    }

    // Different islands: the goal is unreachable under any filter. The partial path goes to the
    // state nearest the goal (the start, or a portal midpoint of the start's island): search
    // straight for it instead of flooding the island.
    const float* best_pos = start_pos;
    float best_d = dist_sq3(start_pos, end_pos);
    uint32_t target = kNoEdge;
    for (uint32_t k = m.island_first[island]; k < m.island_first[island + 1]; ++k) {
        const uint32_t e = m.island_portals[k];
        const float* mid = &m.edge_mid[static_cast<size_t>(e) * 3];
        const float d = dist_sq3(mid, end_pos);
        if (d < best_d) {
            best_d = d;
            best_pos = mid;
            target = e;
        }
    }
    if (target == kNoEdge) {
        out.polys.push_back(m.ref(start_poly));
        out.links.push_back(kNoLink);
        out.expanded = 1;
        if (trace) {
            trace->steps.push_back({start_poly, kNoPoly, 0, 0, 0, 0, 0, 0, 1});
            trace->closed.push_back(start_poly);
        }
        return Status::ok();
    }
    const uint32_t found = run_search(start_poly, start_pos, SearchGoal{best_pos, kNoPoly, target, m.edge_opp[target]}, filter,
                                      hscale, out, trace, nullptr);
    if (found != kNoEdge) {
        collect_path(found, start_poly, out);
        return Status::ok();
    }
    // The filter cut the target off: every reachable state has been discovered; take the one
    // nearest the goal.
    const uint32_t S = static_cast<uint32_t>(m.nedges);
    uint32_t best = S;
    best_d = dist_sq3(start_pos, end_pos);
    float best_g = 0;
    for (uint32_t e = 0; e < S; ++e) {
        const Node& n = nodes_[e];
        if (n.mark != stamp_ && n.mark != stamp_ + 1) continue;
        const float d = dist_sq3(&m.edge_mid[static_cast<size_t>(e) * 3], end_pos);
        if (d < best_d || (d == best_d && n.g < best_g)) {
            best_d = d;
            best_g = n.g;
            best = e;
        }
    }
    collect_path(best, start_poly, out);
    return Status::ok();
}

// ---------------------------------------------------------------------------------------------
// Funnel

namespace {

void append_vertex(StraightPath& out, const float* p, uint8_t flags, PolyRef poly) {
    const size_t n = out.flags.size();
    if (n > 0 && same_point(&out.points[(n - 1) * 3], p)) {
        out.flags[n - 1] = flags;
        out.polys[n - 1] = poly;
        return;
    }
    out.points.insert(out.points.end(), p, p + 3);
    out.flags.push_back(flags);
    out.polys.push_back(poly);
}

// 2D segment intersection in xz: parameters s along a and t along b. False when parallel.
bool intersect_seg_seg_xz(const float* ap, const float* aq, const float* bp, const float* bq, float& s, float& t) {
    const float ux = aq[0] - ap[0], uz = aq[2] - ap[2];
    const float vx = bq[0] - bp[0], vz = bq[2] - bp[2];
    const float wx = ap[0] - bp[0], wz = ap[2] - bp[2];
    const float d = ux * vz - uz * vx;
    if (std::fabs(d) < 1e-6f) return false;
    s = (vx * wz - vz * wx) / d;
    t = (ux * wz - uz * wx) / d;
    return true;
}

// Extra vertices where the segment from the last path point to `end` crosses the corridor's
// portals start_idx .. end_idx-1 (only where the area changes in Area mode).
void append_crossings(const NavMesh& m, std::span<const uint32_t> corridor, int start_idx, int end_idx, const float* end,
                      Crossings mode, StraightPath& out) {
    if (mode == Crossings::None || out.flags.empty()) return;
    float sp[3];
    copy3(sp, &out.points[(out.flags.size() - 1) * 3]);
    for (int i = start_idx; i < end_idx; ++i) {
        const uint32_t from = corridor[static_cast<size_t>(i)], to = corridor[static_cast<size_t>(i) + 1];
        if (mode == Crossings::Area && m.areas[from] == m.areas[to]) continue;
        const uint32_t e = m.find_edge(from, to);
        if (e == kNoEdge) break;
        float l[3], r[3];
        m.edge_points(e, l, r);
        float s, t;
        if (intersect_seg_seg_xz(sp, end, l, r, s, t)) {
            float pt[3];
            lerp3(pt, l, r, std::clamp(t, 0.0f, 1.0f));
            append_vertex(out, pt, 0, m.ref(to));
        }
    }
}

// One funnel (string pulling) over a piece of the corridor, cor = corridor[base .. base +
// cor.size()), from sp to ep; ep gets end_flag and end_ref. The portal step: each portal in turn
// narrows the funnel's left or right side, or crosses it, when the side it crossed ends in a
// corner: a path vertex, and the funnel starts again from there.
struct Funnel {
    const NavMesh& m;
    const StraightPathOptions& options;
    StraightPath& out;
    FunnelTrace* const trace;
    const float* const end_pos;  // the query's end point: where a broken corridor ends
    const std::span<const uint32_t> cor;
    const size_t base;
    const float* const ep;
    const uint8_t end_flag;
    const PolyRef end_ref;
    float apex[3], left[3], right[3];
    int apex_idx = 0, left_idx = 0, right_idx = 0;
    uint32_t left_poly = kNoPoly, right_poly = kNoPoly;

    enum class Portal { Use, Skip, Broken };

    void record(int i, uint8_t ev, const float* pl, const float* pr) {
        FunnelTrace::Step st;
        st.portal = static_cast<uint32_t>(base + static_cast<size_t>(i));
        st.events = ev;
        copy3(st.portal_left, pl);
        copy3(st.portal_right, pr);
        copy3(st.apex, apex);
        copy3(st.left, left);
        copy3(st.right, right);
        trace->steps.push_back(st);
    }

    // The ends of portal i (between cor[i] and cor[i + 1]) into pl and pr, shrunk by the options;
    // Skip when the funnel starts on the first portal, Broken when the two polygons do not meet.
    Portal portal(int i, float* pl, float* pr) const {
        const uint32_t e = m.find_edge(cor[static_cast<size_t>(i)], cor[static_cast<size_t>(i) + 1]);
        if (e == kNoEdge) return Portal::Broken;
        m.edge_points(e, pl, pr);
        if (options.shrink_fraction > 0 || options.shrink_distance > 0) {
            const float len = std::sqrt(dist_sq3(pl, pr));
            if (len > 0) {
                const float t = std::min(0.5f, std::max(options.shrink_fraction, options.shrink_distance / len));
                float a[3], b[3];
                lerp3(a, pl, pr, t);
                lerp3(b, pr, pl, t);
                copy3(pl, a);
                copy3(pr, b);
            }
        }
        // Starting on the first portal: step over it. "On" is Detour's 1 mm, but at most
        // 16 float steps of the coordinates' magnitude: on a map a few millimetres across
        // 1 mm is most of a wall's thickness, and skipping a portal the start is merely
        // near lets the path cut across the polygon's other edges.
        if (i == 0) {
            float t;
            const float mag = std::max({std::fabs(apex[0]), std::fabs(apex[2]), std::fabs(pl[0]), std::fabs(pl[2]),
                                        std::fabs(pr[0]), std::fabs(pr[2])});
            const float on = std::min(0.001f, 16.0f * std::numeric_limits<float>::epsilon() * mag);
            if (dist_pt_seg_sq_xz(apex, pl, pr, &t) < on * on) return Portal::Skip;
        }
        return Portal::Use;
    }

    // Broken corridor at portal i: end in the last polygon we can reach.
    void end_broken(int i) {
        float pe[3];
        closest_on_boundary(m, cor[static_cast<size_t>(i)], end_pos, pe);
        append_crossings(m, cor, apex_idx, i, pe, options.crossings, out);
        append_vertex(out, pe, kStraightEnd, kNoRef);
        out.partial = true;
    }

    // One side crossed the other at portal i: that other side's point (corner, reached at portal
    // corner_idx, in corner_poly) becomes the apex and a path vertex. True when it is the end.
    bool turn_corner(const float* corner, int corner_idx, uint32_t corner_poly, int i, uint8_t ev, const float* pl,
                     const float* pr) {
        append_crossings(m, cor, apex_idx, corner_idx, corner, options.crossings, out);
        copy3(apex, corner);
        apex_idx = corner_idx;
        const bool is_end = corner_poly == kNoPoly;
        append_vertex(out, apex, is_end ? end_flag : 0, is_end ? end_ref : m.ref(corner_poly));
        if (options.max_points > 0 && out.size() >= options.max_points) return true;  // enough corners
        copy3(left, apex);
        copy3(right, apex);
        left_idx = right_idx = apex_idx;
        if (trace) record(i, ev, pl, pr);
        return is_end;
    }

    // The funnel from sp. False when the corridor broke (the path then ends, partial, in the last
    // polygon reached).
    bool run(const float* sp) {
        const int n = static_cast<int>(cor.size());
        if (n <= 1) {
            append_vertex(out, ep, end_flag, end_ref);
            return true;
        }
        copy3(apex, sp);
        copy3(left, sp);
        copy3(right, sp);
        left_poly = right_poly = cor.front();
        for (int i = 0; i < n; ++i) {
            float pl[3], pr[3];
            if (i + 1 < n) {
                const Portal got = portal(i, pl, pr);
                if (got == Portal::Broken) {
                    end_broken(i);
                    return false;
                }
                if (got == Portal::Skip) {
                    if (trace) record(i, FunnelTrace::kSkip, pl, pr);
                    continue;
                }
            } else {
                copy3(pl, ep);
                copy3(pr, ep);
            }
            const uint32_t next_poly = i + 1 < n ? cor[static_cast<size_t>(i) + 1] : kNoPoly;
            uint8_t ev = 0;

            // Right side.
            if (tri_area_xz(apex, right, pr) <= 0.0f) {
                if (is_apex(apex, right) || tri_area_xz(apex, left, pr) > 0.0f) {
                    copy3(right, pr);
                    right_poly = next_poly;
                    right_idx = i;
                    ev |= FunnelTrace::kTightenRight;
                } else {
                    // The right side crossed the left one: the left point is a corner.
                    if (turn_corner(left, left_idx, left_poly, i, FunnelTrace::kCornerLeft, pl, pr)) return true;
                    i = apex_idx;
                    continue;
                }
            }
            // Left side.
            if (tri_area_xz(apex, left, pl) >= 0.0f) {
                if (is_apex(apex, left) || tri_area_xz(apex, right, pl) < 0.0f) {
                    copy3(left, pl);
                    left_poly = next_poly;
                    left_idx = i;
                    ev |= FunnelTrace::kTightenLeft;
                } else {
                    // The left side crossed the right one: the right point is a corner.
                    if (turn_corner(right, right_idx, right_poly, i, static_cast<uint8_t>(ev | FunnelTrace::kCornerRight), pl, pr))
                        return true;
                    i = apex_idx;
                    continue;
                }
            }
            if (trace) record(i, ev, pl, pr);
        }
        append_crossings(m, cor, apex_idx, n - 1, ep, options.crossings, out);
        append_vertex(out, ep, end_flag, end_ref);
        return true;
    }
};

// find_straight_path's arguments against the mesh: the points, the corridor's polygons, the
// links (one entry per corridor polygon, when given) and the shrink options.
Status check_straight_path(const NavMesh& m, const float* start_pos, const float* end_pos, std::span<const uint32_t> corridor,
                           std::span<const uint32_t> links, const StraightPathOptions& options) {
    if (Status s = check_point(start_pos, "find_straight_path: start point"); !s) return s;
    if (Status s = check_point(end_pos, "find_straight_path: end point"); !s) return s;
    if (corridor.empty()) return Status::bad_input("find_straight_path: empty corridor");
    for (uint32_t p : corridor)
        if (p >= static_cast<uint32_t>(m.npolys)) return Status::bad_input("find_straight_path: polygon " + std::to_string(p) + " out of range");
    if (!links.empty()) {
        if (links.size() != corridor.size())
            return Status::bad_input("find_straight_path: " + std::to_string(links.size()) + " link entries for a corridor of " +
                                     std::to_string(corridor.size()));
        for (uint32_t t : links)
            if (t != kNoLink && t >= 2 * static_cast<uint32_t>(m.nlinks))
                return Status::bad_input("find_straight_path: link traversal " + std::to_string(t) + " out of range");
    }
    if (options.max_points < 0) return Status::bad_input("find_straight_path: max_points must be >= 0");
    if (!std::isfinite(options.shrink_fraction) || !std::isfinite(options.shrink_distance) || options.shrink_fraction < 0 ||
        options.shrink_distance < 0)
        return Status::bad_input("find_straight_path: shrink must be finite and >= 0");
    return Status::ok();
}

}  // namespace

Status NavQuery::find_straight_path_dense(const float* start_pos, const float* end_pos, std::span<const uint32_t> corridor,
                                    std::span<const uint32_t> links, const StraightPathOptions& options, StraightPath& out,
                                    FunnelTrace* trace) const {
    out.points.clear();
    out.flags.clear();
    out.polys.clear();
    out.partial = false;
    if (trace) trace->clear();
    if (!mesh_) return Status::bad_input("find_straight_path: no mesh bound (call init)");
    const NavMesh& m = *mesh_;
    if (Status s = check_straight_path(m, start_pos, end_pos, corridor, links, options); !s) return s;

    float cs[3], ce[3];
    closest_on_boundary(m, corridor.front(), start_pos, cs);
    closest_on_boundary(m, corridor.back(), end_pos, ce);
    append_vertex(out, cs, kStraightStart, m.ref(corridor.front()));

    // One funnel over corridor[a .. b] from sp to ep; ep gets end_flag and end_ref.
    auto funnel = [&](size_t a, size_t b, const float* sp, const float* ep, uint8_t end_flag, PolyRef end_ref) {
        Funnel f{m, options, out, trace, end_pos, corridor.subspan(a, b - a + 1), a, ep, end_flag, end_ref, {}, {}, {}};
        return f.run(sp);
    };
    // The corridor in pieces joined by link traversals: a funnel per piece, each from where the
    // previous link landed to where the next link leaves (the last to the end point).
    const size_t n = corridor.size();
    float sp[3];
    copy3(sp, cs);
    auto full = [&] { return options.max_points > 0 && out.size() >= options.max_points; };
    for (size_t a = 0;;) {
        if (full()) return Status::ok();
        size_t b = a;
        while (b + 1 < n && (links.empty() || links[b + 1] == kNoLink)) ++b;
        if (b + 1 >= n) {
            funnel(a, b, sp, ce, kStraightEnd, kNoRef);
            return Status::ok();
        }
        const uint32_t tr = links[b + 1];
        if (m.trav_from_poly(tr) != corridor[b] || m.trav_to_poly(tr) != corridor[b + 1]) {
            // Not a traversal between these polygons: a broken corridor.
            float pe[3];
            closest_on_boundary(m, corridor[b], end_pos, pe);
            funnel(a, b, sp, pe, kStraightEnd, kNoRef);
            out.partial = true;
            return Status::ok();
        }
        if (!funnel(a, b, sp, m.trav_from(tr), kStraightOffMesh, m.ref(corridor[b + 1])) || full()) return Status::ok();
        copy3(sp, m.trav_to(tr));
        append_vertex(out, sp, 0, m.ref(corridor[b + 1]));
        a = b + 1;
    }
}

// ---------------------------------------------------------------------------------------------
// Raycast, wall distance, polygons around a circle

Status NavQuery::raycast_dense(uint32_t start_poly, const float* start_pos, const float* end_pos, const QueryFilter& filter,
                         RaycastHit& out) const {
    out.hit = false;
    out.t = 1;
    out.normal[0] = out.normal[1] = out.normal[2] = 0;
    out.edge = -1;
    out.polys.clear();
    if (!mesh_) return Status::bad_input("raycast: no mesh bound (call init)");
    const NavMesh& m = *mesh_;
    if (start_poly >= static_cast<uint32_t>(m.npolys)) return Status::bad_input("raycast: start polygon " + std::to_string(start_poly) + " out of range");
    if (Status s = check_point(start_pos, "raycast: start point"); !s) return s;
    if (Status s = check_point(end_pos, "raycast: end point"); !s) return s;
    float v[kMaxPolyVerts * 3];
    float tfar = 0;
    uint32_t cur = start_poly;
    // Each step enters the polygon across the exit edge of the previous one, so the walk is
    // monotone along the ray; the bound only guards against degenerate float geometry.
    for (int steps = 0; steps <= 2 * m.npolys + 2; ++steps) {
        const int nv = poly_verts(m, cur, v);
        float tmin, tmax;
        int seg_min, seg_max;
        if (!clip_segment_poly_xz(start_pos, end_pos, v, nv, tmin, tmax, seg_min, seg_max)) {
            // The ray does not touch this polygon (the start lies outside start_poly): stop here.
            out.hit = true;
            out.t = tfar;
            return Status::ok();
        }
        out.edge = seg_max;
        tfar = std::max(tfar, tmax);
        out.polys.push_back(m.ref(cur));
        if (seg_max == -1) {  // the end lies inside this polygon
            out.hit = false;
            out.t = 1;
            out.edge = -1;
            return Status::ok();
        }
        const uint32_t e = m.poly_first[cur] + static_cast<uint32_t>(seg_max);
        const uint32_t next = m.edge_nei[e];
        if (next == kNoPoly || !filter.passes(m.flags[next], m.types[next])) {
            const float* a = &v[seg_max * 3];
            const float* b = &v[((seg_max + 1) % nv) * 3];
            const float dx = b[0] - a[0], dz = b[2] - a[2];
            const float len = std::sqrt(dx * dx + dz * dz);
            if (len > 0) {
                out.normal[0] = dz / len;
                out.normal[2] = -dx / len;
            }
            out.hit = true;
            out.t = tfar;
            return Status::ok();
        }
        cur = next;
    }
    out.hit = true;
    out.t = tfar;
    return Status::ok();
}

Status NavQuery::find_distance_to_wall_dense(uint32_t start_poly, const float* center, float max_radius, const QueryFilter& filter,
                                       WallHit& out) {
    out = WallHit{};
    if (!mesh_) return Status::bad_input("find_distance_to_wall: no mesh bound (call init)");
    const NavMesh& m = *mesh_;
    if (start_poly >= static_cast<uint32_t>(m.npolys))
        return Status::bad_input("find_distance_to_wall: start polygon " + std::to_string(start_poly) + " out of range");
    if (Status s = check_point(center, "find_distance_to_wall: center"); !s) return s;
    if (!std::isfinite(max_radius) || max_radius < 0) return Status::bad_input("find_distance_to_wall: radius must be finite and >= 0");
    prepare_poly_nodes();
    const uint32_t stamp = poly_stamp_;
    PolyNode* nodes = poly_nodes_.data();
    float radius_sq = max_radius * max_radius;
    {
        PolyNode& s = nodes[start_poly];
        s.cost = 0;
        copy3(s.pos, center);
        s.parent = kNoPoly;
        s.mark = stamp;
        poly_heap_.push(HeapEntry{0, start_poly});
    }
    while (!poly_heap_.empty()) {
        const HeapEntry top = poly_heap_.pop();
        const uint32_t P = top.id;
        PolyNode& np = nodes[P];
        if (np.mark != stamp || top.f != np.cost) continue;  // stale entry
        np.mark = stamp + 1;
        const uint32_t e0 = m.poly_first[P], e1 = m.poly_first[P + 1];
        // Walls of this polygon.
        for (uint32_t e = e0; e < e1; ++e) {
            const uint32_t q = m.edge_nei[e];
            if (q != kNoPoly && filter.passes(m.flags[q], m.types[q])) continue;
            float a[3], b[3], t;
            m.edge_points(e, a, b);
            const float d = dist_pt_seg_sq_xz(center, a, b, &t);
            if (d > radius_sq) continue;
            radius_sq = d;
            out.found = true;
            lerp3(out.point, a, b, t);
        }
        // Portals within the current radius.
        for (uint32_t e = e0; e < e1; ++e) {
            const uint32_t q = m.edge_nei[e];
            if (q == kNoPoly || !filter.passes(m.flags[q], m.types[q])) continue;
            float a[3], b[3], t;
            m.edge_points(e, a, b);
            if (dist_pt_seg_sq_xz(center, a, b, &t) > radius_sq) continue;
            PolyNode& nq = nodes[q];
            if (nq.mark == stamp + 1) continue;
            const bool fresh = nq.mark != stamp;
            if (fresh) copy3(nq.pos, &m.edge_mid[static_cast<size_t>(e) * 3]);
            const float total = np.cost + dist3(np.pos, nq.pos);
            if (!fresh && total >= nq.cost) continue;
            nq.cost = total;
            nq.parent = P;
            nq.mark = stamp;
            poly_heap_.push(HeapEntry{total, q});
        }
    }
    out.distance = std::sqrt(radius_sq);
    if (out.found) {
        const float dx = center[0] - out.point[0], dz = center[2] - out.point[2];
        const float len = std::sqrt(dx * dx + dz * dz);
        if (len > 0) {
            out.normal[0] = dx / len;
            out.normal[2] = dz / len;
        }
    }
    return Status::ok();
}

Status NavQuery::find_polys_around_circle_dense(uint32_t start_poly, const float* center, float radius, const QueryFilter& filter,
                                          PolysAround& out) {
    out.polys.clear();
    out.parents.clear();
    out.costs.clear();
    if (!mesh_) return Status::bad_input("find_polys_around_circle: no mesh bound (call init)");
    const NavMesh& m = *mesh_;
    if (start_poly >= static_cast<uint32_t>(m.npolys))
        return Status::bad_input("find_polys_around_circle: start polygon " + std::to_string(start_poly) + " out of range");
    if (Status s = check_point(center, "find_polys_around_circle: center"); !s) return s;
    if (!std::isfinite(radius) || radius < 0) return Status::bad_input("find_polys_around_circle: radius must be finite and >= 0");
    if (Status s = check_filter(filter, nullptr); !s) return s;
    prepare_poly_nodes();
    const uint32_t stamp = poly_stamp_;
    PolyNode* nodes = poly_nodes_.data();
    const float radius_sq = radius * radius;
    {
        PolyNode& s = nodes[start_poly];
        s.cost = 0;
        copy3(s.pos, center);
        s.parent = kNoPoly;
        s.mark = stamp;
        poly_heap_.push(HeapEntry{0, start_poly});
    }
    while (!poly_heap_.empty()) {
        const HeapEntry top = poly_heap_.pop();
        const uint32_t P = top.id;
        PolyNode& np = nodes[P];
        if (np.mark != stamp || top.f != np.cost) continue;  // stale entry
        np.mark = stamp + 1;
        out.polys.push_back(m.ref(P));
        out.parents.push_back(m.ref(np.parent));
        out.costs.push_back(np.cost);
        const float cP = filter.area_cost[m.areas[P]];
        for (uint32_t e = m.poly_first[P]; e < m.poly_first[P + 1]; ++e) {
            const uint32_t q = m.edge_nei[e];
            if (q == kNoPoly || !filter.passes(m.flags[q], m.types[q])) continue;
            float a[3], b[3], t;
            m.edge_points(e, a, b);
            if (dist_pt_seg_sq_xz(center, a, b, &t) > radius_sq) continue;
            PolyNode& nq = nodes[q];
            if (nq.mark == stamp + 1) continue;
            const bool fresh = nq.mark != stamp;
            if (fresh) copy3(nq.pos, &m.edge_mid[static_cast<size_t>(e) * 3]);
            const float total = np.cost + dist3(np.pos, nq.pos) * cP;
            if (!fresh && total >= nq.cost) continue;
            nq.cost = total;
            nq.parent = P;
            nq.mark = stamp;
            poly_heap_.push(HeapEntry{total, q});
        }
    }
    return Status::ok();
}

// ---------------------------------------------------------------------------------------------
// Local moves and walls (what an agent steering on the surface asks every tick)

Status NavQuery::move_along_surface_dense(uint32_t start_poly, const float* start_pos, const float* end_pos,
                                          const QueryFilter& filter, SurfaceMove& out, int max_visit) {
    out.visited.clear();
    if (!mesh_) return Status::bad_input("move_along_surface: no mesh bound (call init)");
    const NavMesh& m = *mesh_;
    if (start_poly >= static_cast<uint32_t>(m.npolys))
        return Status::bad_input("move_along_surface: start polygon " + std::to_string(start_poly) + " out of range");
    if (Status s = check_point(start_pos, "move_along_surface: start point"); !s) return s;
    if (Status s = check_point(end_pos, "move_along_surface: end point"); !s) return s;
    if (max_visit < 1) return Status::bad_input("move_along_surface: max_visit must be >= 1");
    prepare_poly_nodes();
    const uint32_t stamp = poly_stamp_;
    PolyNode* nodes = poly_nodes_.data();
    // Only polygons touching the circle through both ends can lie on the way.
    const float mid[3] = {(start_pos[0] + end_pos[0]) * 0.5f, 0, (start_pos[2] + end_pos[2]) * 0.5f};
    const float dx = end_pos[0] - start_pos[0], dz = end_pos[2] - start_pos[2];
    const float reach = std::sqrt(dx * dx + dz * dz) * 0.5f + 0.001f;
    const float reach_sq = reach * reach;
    std::vector<uint32_t>& queue = scratch_;
    queue.clear();
    queue.push_back(start_poly);
    nodes[start_poly].parent = kNoPoly;
    nodes[start_poly].mark = stamp;
    float best[3];
    copy3(best, start_pos);
    float best_d = std::numeric_limits<float>::infinity();
    uint32_t best_poly = start_poly;
    float v[kMaxPolyVerts * 3] = {}, ed[kMaxPolyVerts], et[kMaxPolyVerts];
    for (size_t head = 0; head < queue.size(); ++head) {
        const uint32_t P = queue[head];
        const int n = poly_verts(m, P, v);
        if (dist_pt_poly_edges(end_pos, v, n, ed, et)) {
            best_poly = P;
            copy3(best, end_pos);
            break;
        }
        for (uint32_t e = m.poly_first[P], j = 0; e < m.poly_first[P + 1]; ++e, ++j) {
            const uint32_t q = m.edge_nei[e];
            const bool open = q != kNoPoly && filter.passes(m.flags[q], m.types[q]);
            float a[3], b[3], t;
            m.edge_points(e, a, b);
            if (!open) {
                // A wall: the point on it nearest the goal is where a slide along it would stop.
                const float d = dist_pt_seg_sq_xz(end_pos, a, b, &t);
                if (d < best_d) {
                    best_d = d;
                    lerp3(best, a, b, t);
                    best_poly = P;
                }
                continue;
            }
            if (nodes[q].mark == stamp) continue;
            if (dist_pt_seg_sq_xz(mid, a, b, &t) > reach_sq) continue;
            if (queue.size() >= static_cast<size_t>(max_visit)) continue;
            nodes[q].mark = stamp;
            nodes[q].parent = P;
            queue.push_back(q);
        }
    }
    for (uint32_t p = best_poly; p != kNoPoly; p = nodes[p].parent) out.visited.push_back(m.ref(p));
    std::reverse(out.visited.begin(), out.visited.end());
    copy3(out.pos, best);
    float y;
    m.poly_height(best_poly, best[0], best[2], &y);
    out.pos[1] = y;
    return Status::ok();
}

Status NavQuery::find_local_walls_dense(uint32_t start_poly, const float* center, float radius, const QueryFilter& filter,
                                        std::vector<float>& segments, int max_segments) {
    segments.clear();
    if (!mesh_) return Status::bad_input("find_local_walls: no mesh bound (call init)");
    const NavMesh& m = *mesh_;
    if (start_poly >= static_cast<uint32_t>(m.npolys))
        return Status::bad_input("find_local_walls: start polygon " + std::to_string(start_poly) + " out of range");
    if (Status s = check_point(center, "find_local_walls: center"); !s) return s;
    if (!std::isfinite(radius) || radius < 0) return Status::bad_input("find_local_walls: radius must be finite and >= 0");
    if (max_segments < 0) return Status::bad_input("find_local_walls: max_segments must be >= 0");
    prepare_poly_nodes();
    const uint32_t stamp = poly_stamp_;
    PolyNode* nodes = poly_nodes_.data();
    const float radius_sq = radius * radius;
    std::vector<uint32_t>& queue = scratch_;
    queue.clear();
    queue.push_back(start_poly);
    nodes[start_poly].mark = stamp;
    wall_order_.clear();
    wall_tmp_.clear();
    for (size_t head = 0; head < queue.size(); ++head) {
        const uint32_t P = queue[head];
        for (uint32_t e = m.poly_first[P]; e < m.poly_first[P + 1]; ++e) {
            const uint32_t q = m.edge_nei[e];
            float a[3], b[3], t;
            m.edge_points(e, a, b);
            const float d = dist_pt_seg_sq_xz(center, a, b, &t);
            if (d > radius_sq) continue;
            if (q == kNoPoly || !filter.passes(m.flags[q], m.types[q])) {
                wall_order_.push_back({d, static_cast<uint32_t>(wall_tmp_.size() / 6)});
                wall_tmp_.insert(wall_tmp_.end(), {a[0], a[1], a[2], b[0], b[1], b[2]});
                continue;
            }
            if (nodes[q].mark == stamp) continue;
            nodes[q].mark = stamp;
            queue.push_back(q);
        }
    }
    // Nearest first; ties by the order found, so the answer does not depend on the sort.
    std::stable_sort(wall_order_.begin(), wall_order_.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    const size_t keep = std::min(wall_order_.size(), static_cast<size_t>(max_segments));
    for (size_t i = 0; i < keep; ++i) {
        const float* s = &wall_tmp_[static_cast<size_t>(wall_order_[i].second) * 6];
        segments.insert(segments.end(), s, s + 6);
    }
    return Status::ok();
}

// ---------------------------------------------------------------------------------------------
// Random points

Status NavQuery::random_point_dense(const QueryFilter& filter, Rng& rng, RandomPoint& out) const {
    out = RandomPoint{};
    if (!mesh_) return Status::bad_input("random_point: no mesh bound (call init)");
    const NavMesh& m = *mesh_;
    if (m.npolys == 0) return Status::ok();
    uint32_t chosen = kNoPoly;
    bool all_pass = true;
    for (int p = 0; p < m.npolys && all_pass; ++p) all_pass = filter.passes(m.flags[static_cast<size_t>(p)], m.types[static_cast<size_t>(p)]);
    if (all_pass) {
        const float total = m.poly_area_cum.back();
        if (!(total > 0)) return Status::ok();
        const float r = rng.next_float() * total;
        const auto it = std::upper_bound(m.poly_area_cum.begin(), m.poly_area_cum.end(), r);
        chosen = static_cast<uint32_t>(std::min<ptrdiff_t>(it - m.poly_area_cum.begin(), m.npolys - 1));
        // Skip zero-area polygons the rounding may land on.
        while (chosen > 0 && m.poly_area_cum[chosen] == m.poly_area_cum[chosen - 1]) --chosen;
    } else {
        // Area-weighted reservoir sampling over the polygons that pass.
        double total = 0;
        for (int p = 0; p < m.npolys; ++p) {
            if (!filter.passes(m.flags[static_cast<size_t>(p)], m.types[static_cast<size_t>(p)])) continue;
            const double a = m.poly_area_cum[static_cast<size_t>(p)] - (p > 0 ? m.poly_area_cum[static_cast<size_t>(p) - 1] : 0.0f);
            if (a <= 0) continue;
            total += a;
            if (static_cast<double>(rng.next_float()) * total <= a) chosen = static_cast<uint32_t>(p);
        }
        if (chosen == kNoPoly) return Status::ok();
    }
    // A triangle of the polygon's fan by area, then a uniform point in it.
    float v[kMaxPolyVerts * 3];
    const int nv = poly_verts(m, chosen, v);
    float areas[kMaxPolyVerts];
    float sum = 0;
    for (int j = 2; j < nv; ++j) {
        areas[j] = std::fabs(tri_area_xz(&v[0], &v[(j - 1) * 3], &v[j * 3])) * 0.5f;
        sum += areas[j];
    }
    const float r = rng.next_float() * sum;
    int tri = nv - 1;
    float acc = 0;
    for (int j = 2; j < nv; ++j) {
        acc += areas[j];
        if (r < acc) {
            tri = j;
            break;
        }
    }
    const float s = std::sqrt(rng.next_float()), t = rng.next_float();
    const float a = 1 - s, b = (1 - t) * s, c = t * s;
    const float* p0 = &v[0];
    const float* p1 = &v[(tri - 1) * 3];
    const float* p2 = &v[tri * 3];
    for (int k = 0; k < 3; ++k) out.point[k] = a * p0[k] + b * p1[k] + c * p2[k];
    m.poly_height(chosen, out.point[0], out.point[2], &out.point[1]);
    out.poly = m.ref(chosen);
    return Status::ok();
}

// ---------------------------------------------------------------------------------------------
// The public face: polygon references in and out. Each query resolves its references to the
// mesh's dense indices (a stale reference is an error naming it) and runs on dense indices; the
// polygons it reports are turned into references as they are written (NavMesh::ref).

Status NavQuery::resolve(PolyRef r, const char* what, uint32_t* p) const {
    if (!mesh_) return Status::bad_input(std::string(what) + ": no mesh bound (call init)");
    *p = mesh_->poly_index(r);
    if (*p != kNoPoly) return Status::ok();
    const uint32_t slot = ref_slot(r);
    if (r != kNoRef && slot < mesh_->slots.size() && mesh_->slots[slot].salt != ref_salt(r))
        return Status::bad_input(std::string(what) + ": polygon reference " + std::to_string(r.value()) + " is stale (tile slot " +
                                 std::to_string(slot) + " was rebuilt or removed since)");
    return Status::bad_input(std::string(what) + ": polygon reference " + std::to_string(r.value()) + " names no polygon of this mesh");
}

Status NavQuery::query_polygons(const float* center, const float* half_extents, const QueryFilter& filter,
                                std::vector<PolyRef>& out) const {
    return query_polygons_dense(center, half_extents, filter, out);
}

Status NavQuery::closest_point_on_poly(PolyRef r, const float* pos, float* closest, bool* over_poly) const {
    uint32_t p;
    if (Status s = resolve(r, "closest_point_on_poly", &p); !s) return s;
    return closest_point_on_poly_dense(p, pos, closest, over_poly);
}

Status NavQuery::closest_point_on_poly_boundary(PolyRef r, const float* pos, float* closest) const {
    uint32_t p;
    if (Status s = resolve(r, "closest_point_on_poly_boundary", &p); !s) return s;
    return closest_point_on_poly_boundary_dense(p, pos, closest);
}

Status NavQuery::find_nearest_poly(const float* center, const float* half_extents, const QueryFilter& filter,
                                   NearestPoly& out) const {
    return find_nearest_poly_dense(center, half_extents, filter, out);
}

Status NavQuery::find_path(PolyRef start, PolyRef end, const float* start_pos, const float* end_pos,
                           const QueryFilter& filter, PathResult& out, AStarTrace* trace) {
    out.polys.clear();
    uint32_t sp, ep;
    if (Status s = resolve(start, "find_path: start", &sp); !s) return s;
    if (Status s = resolve(end, "find_path: end", &ep); !s) return s;
    return find_path_dense(sp, ep, start_pos, end_pos, filter, out, trace);
}

Status NavQuery::find_straight_path(const float* start_pos, const float* end_pos, std::span<const PolyRef> corridor,
                                    const StraightPathOptions& options, StraightPath& out, FunnelTrace* trace) const {
    return find_straight_path(start_pos, end_pos, corridor, {}, options, out, trace);
}

Status NavQuery::find_straight_path(const float* start_pos, const float* end_pos, std::span<const PolyRef> corridor,
                                    std::span<const uint32_t> links, const StraightPathOptions& options, StraightPath& out,
                                    FunnelTrace* trace) const {
    corridor_.clear();
    for (const PolyRef r : corridor) {
        uint32_t p;
        if (Status s = resolve(r, "find_straight_path: corridor", &p); !s) {
            out.points.clear(), out.flags.clear(), out.polys.clear();
            return s;
        }
        corridor_.push_back(p);
    }
    return find_straight_path_dense(start_pos, end_pos, corridor_, links, options, out, trace);
}

Status NavQuery::raycast(PolyRef start, const float* start_pos, const float* end_pos, const QueryFilter& filter,
                         RaycastHit& out) const {
    out.polys.clear();
    uint32_t sp;
    if (Status s = resolve(start, "raycast", &sp); !s) return s;
    return raycast_dense(sp, start_pos, end_pos, filter, out);
}

Status NavQuery::find_distance_to_wall(PolyRef start, const float* center, float max_radius, const QueryFilter& filter,
                                       WallHit& out) {
    uint32_t sp;
    if (Status s = resolve(start, "find_distance_to_wall", &sp); !s) return s;
    return find_distance_to_wall_dense(sp, center, max_radius, filter, out);
}

Status NavQuery::find_polys_around_circle(PolyRef start, const float* center, float radius, const QueryFilter& filter,
                                          PolysAround& out) {
    out.polys.clear(), out.parents.clear(), out.costs.clear();
    uint32_t sp;
    if (Status s = resolve(start, "find_polys_around_circle", &sp); !s) return s;
    return find_polys_around_circle_dense(sp, center, radius, filter, out);
}

Status NavQuery::random_point(const QueryFilter& filter, Rng& rng, RandomPoint& out) const {
    return random_point_dense(filter, rng, out);
}

Status NavQuery::move_along_surface(PolyRef start, const float* start_pos, const float* end_pos, const QueryFilter& filter,
                                    SurfaceMove& out, int max_visit) {
    out.visited.clear();
    uint32_t sp;
    if (Status s = resolve(start, "move_along_surface", &sp); !s) return s;
    return move_along_surface_dense(sp, start_pos, end_pos, filter, out, max_visit);
}

Status NavQuery::find_local_walls(PolyRef start, const float* center, float radius, const QueryFilter& filter,
                                  std::vector<float>& segments, int max_segments) {
    segments.clear();
    uint32_t sp;
    if (Status s = resolve(start, "find_local_walls", &sp); !s) return s;
    return find_local_walls_dense(sp, center, radius, filter, segments, max_segments);
}

// ---------------------------------------------------------------------------------------------

Status NavQuery::find_route(const float* start_pos, const float* end_pos, const float* half_extents, const QueryFilter& filter,
                            const RouteOptions& options, Route& out, PolyanyaTrace* trace) {
    out.optimal = options.optimal;
    out.optimal_skipped_for_links = false;
    out.path.links.clear();
    out.path.expanded = 0;
    out.path.out_of_nodes = false;
    out.straight.partial = false;
    out.path.polys.clear();
    out.path.reached = false;
    out.path.cost = 0;
    out.straight.points.clear();
    out.straight.flags.clear();
    out.straight.polys.clear();
    if (Status s = find_nearest_poly(start_pos, half_extents, filter, out.start); !s) return s;
    if (Status s = find_nearest_poly(end_pos, half_extents, filter, out.end); !s) return s;
    if (trace) trace->clear();
    if (out.start.poly == kNoRef || out.end.poly == kNoRef) return Status::ok();
    const NavMesh& m = *mesh_;
    if (options.optimal && m.nlinks_connected > 0) {
        // Polyanya knows no links: with a link the filter lets through, A* + funnel (which takes
        // them) answers instead, and the Route says so.
        for (int i = 0; i < m.nlinks && out.optimal; ++i)
            if (m.link_status[static_cast<size_t>(i)] == NavMesh::kLinkConnected && filter.passes_link(m.link_flags[static_cast<size_t>(i)])) {
                out.optimal = false;
                out.optimal_skipped_for_links = true;
            }
    }
    if (!out.optimal) {
        if (Status s = find_path(out.start.poly, out.end.poly, out.start.point, out.end.point, filter, out.path); !s) return s;
        return find_straight_path(out.start.point, out.end.point, out.path.polys, out.path.links, options.straight, out.straight);
    }
    if (!pmesh_valid_ || pmesh_include_ != filter.include_flags || pmesh_exclude_ != filter.exclude_flags ||
        pmesh_type_ != filter.type_bit()) {
        if (Status s = polyanya_mesh_from_navmesh(m, pmesh_, filter.include_flags, filter.exclude_flags, filter.type_bit()); !s)
            return s;
        pmesh_valid_ = true;
        pmesh_include_ = filter.include_flags;
        pmesh_exclude_ = filter.exclude_flags;
        pmesh_type_ = filter.type_bit();
    }
    const uint32_t sp = m.poly_index(out.start.poly), ep = m.poly_index(out.end.poly);
    if (Status s = polyanya_find_path(pmesh_, sp, out.start.point, ep, out.end.point, ppath_, trace, &pwork_); !s) return s;
    out.path.reached = ppath_.found;
    out.path.out_of_nodes = ppath_.out_of_nodes;
    out.path.expanded = ppath_.expanded;
    if (!ppath_.found && !ppath_.out_of_nodes) return Status::ok();
    // The turning points onto the detail surface of the polygon each is a corner of (the end
    // points are already on theirs: find_nearest_poly put them there; a partial path's last point
    // is lifted onto the polygon it lies in).
    const size_t n = ppath_.polys.size();
    const bool partial = !ppath_.found;
    for (size_t i = 0; i < n; ++i) {
        float* p = &ppath_.points[i * 3];
        const bool last = i + 1 == n;
        if (i > 0 && (!last || partial) && ppath_.polys[i] < uint32_t(m.npolys)) m.poly_height(ppath_.polys[i], p[0], p[2], &p[1]);
        out.straight.points.insert(out.straight.points.end(), p, p + 3);
        out.straight.flags.push_back(i == 0 ? kStraightStart : last && !partial ? kStraightEnd : 0);
        out.straight.polys.push_back(last && !partial ? kNoRef : m.ref(ppath_.polys[i]));
    }
    return Status::ok();
}

}  // namespace nav
