// Polyanya: see polyanya.h.
#include "core/runtime/polyanya.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

namespace nav {

Status polyanya_mesh_from_navmesh(const NavMesh& mesh, PolyanyaMesh& out, uint16_t include_flags, uint16_t exclude_flags,
                                  uint16_t type_bit) {
    auto passes = [&](uint32_t p) {
        return (mesh.flags[p] & include_flags) != 0 && (mesh.flags[p] & exclude_flags) == 0 && (mesh.types[p] & type_bit) != 0;
    };
    out = PolyanyaMesh{};
    const uint32_t np = uint32_t(mesh.npolys), nv = uint32_t(mesh.nverts);
    out.verts.assign(mesh.verts.begin(), mesh.verts.end());
    out.corner.assign(nv, 0);
    out.poly_first.reserve(np + 1);
    out.poly_first.push_back(0);
    // NavMesh slot e (vertex j -> j+1, clockwise) becomes, reversed, our slot from vertex j+1 to j
    std::vector<uint32_t> slot_of_edge(mesh.edge_vert.size(), kNoPoly);
    for (uint32_t p = 0; p < np; ++p) {
        const uint32_t f = mesh.poly_first[p], n = mesh.poly_first[p + 1] - f;
        const uint32_t base = uint32_t(out.poly_verts.size());
        for (uint32_t i = 0; i < n; ++i) {
            // our vertex i = NavMesh vertex n-1-i; our slot i runs to NavMesh vertex n-2-i, i.e.
            // NavMesh slot n-2-i reversed
            out.poly_verts.push_back(mesh.edge_vert[f + n - 1 - i]);
            const uint32_t e = f + (2 * n - 2 - i) % n;
            slot_of_edge[e] = base + i;
        }
        out.poly_first.push_back(uint32_t(out.poly_verts.size()));
    }
    double ext = 1;
    for (size_t v = 0; v < out.verts.size() / 3; ++v)
        ext = std::max({ext, std::fabs(out.verts[3 * v]), std::fabs(out.verts[3 * v + 2])});
    out.eps = 1e-12 * ext * ext;
    out.poly_island.assign(mesh.poly_island.begin(), mesh.poly_island.end());
    if (out.poly_island.size() != np) out.poly_island.assign(np, 0);
    out.poly_nei.assign(out.poly_verts.size(), kNoPoly);
    out.slot_opp.assign(out.poly_verts.size(), kNoPoly);
    for (uint32_t e = 0; e < mesh.edge_vert.size(); ++e) {
        const uint32_t s = slot_of_edge[e];
        const uint32_t q = mesh.edge_nei[e];
        const uint32_t p = mesh.edge_poly[e];
        const bool open = q != kNoPoly && mesh.edge_opp[e] != kNoEdge && passes(p) && passes(q);
        if (open) {
            out.poly_nei[s] = q;
            out.slot_opp[s] = slot_of_edge[mesh.edge_opp[e]];
        } else {
            out.corner[mesh.edge_vert[e]] = 1;
            out.corner[mesh.edge_vert[mesh.next_edge(e)]] = 1;
        }
    }
    // A tiled mesh keeps a copy of a vertex per tile (and split vertices on tile borders): the
    // walls at a corner may all lie in the other tile's polygons. A corner is a corner in every copy.
    std::vector<uint32_t> order(nv);
    for (uint32_t v = 0; v < nv; ++v) order[v] = v;
    auto key = [&](uint32_t v) { return std::tie(out.verts[3 * size_t(v)], out.verts[3 * size_t(v) + 2], out.verts[3 * size_t(v) + 1]); };
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    for (uint32_t i = 0; i < nv;) {
        uint32_t j = i;
        uint8_t c = 0;
        for (; j < nv && key(order[j]) == key(order[i]); ++j) c |= out.corner[order[j]];
        for (uint32_t k = i; k < j; ++k) out.corner[order[k]] = c;
        i = j;
    }
    out.xz.resize(2 * size_t(nv));
    for (size_t v = 0; v < nv; ++v) out.xz[2 * v] = out.verts[3 * v], out.xz[2 * v + 1] = out.verts[3 * v + 2];
    out.slot_next.resize(out.poly_verts.size());
    out.slot_len.resize(out.poly_verts.size());
    for (uint32_t p = 0; p < np; ++p)
        for (uint32_t j = out.poly_first[p]; j < out.poly_first[p + 1]; ++j) {
            const uint32_t k = j + 1 == out.poly_first[p + 1] ? out.poly_first[p] : j + 1;
            out.slot_next[j] = k;
            const size_t a = out.poly_verts[j], b = out.poly_verts[k];
            out.slot_len[j] = std::hypot(out.xz[2 * b] - out.xz[2 * a], out.xz[2 * b + 1] - out.xz[2 * a + 1]);
        }
    out.dead_end.assign(np, 0);
    for (uint32_t p = 0; p < np; ++p) {
        uint32_t open = 0;
        for (uint32_t j = out.poly_first[p]; j < out.poly_first[p + 1]; ++j) open += out.poly_nei[j] != kNoPoly;
        out.dead_end[p] = open <= 1;
    }
    // Roots: the corners (slots) at one vertex joined across open edges are one root; a vertex
    // where obstacles touch has a sector of polygons on each side, not joined, and a path turning
    // there in one sector reaches nothing in the other. Tile copies of a vertex are joined by the
    // edges they share.
    const size_t ns = out.poly_verts.size();
    std::vector<uint32_t> up(ns);
    for (uint32_t j = 0; j < ns; ++j) up[j] = j;
    auto find = [&](uint32_t x) {
        while (up[x] != x) x = up[x] = up[up[x]];
        return x;
    };
    auto join = [&](uint32_t a, uint32_t b) {
        a = find(a), b = find(b);
        if (a != b) up[std::max(a, b)] = std::min(a, b);
    };
    auto same_point = [&](uint32_t s1, uint32_t s2) {
        const size_t a = out.poly_verts[s1], b = out.poly_verts[s2];
        return out.xz[2 * a] == out.xz[2 * b] && out.xz[2 * a + 1] == out.xz[2 * b + 1];
    };
    for (uint32_t j = 0; j < ns; ++j) {
        const uint32_t o = out.slot_opp[j];
        if (o == kNoPoly) continue;
        // slot j runs a -> b in its polygon, slot o runs b -> a in the neighbour's (on a tile
        // border the two may only overlap: a portal between edges split differently, whose ends
        // are other points)
        if (same_point(j, out.slot_next[o])) join(j, out.slot_next[o]);
        if (same_point(out.slot_next[j], o)) join(out.slot_next[j], o);
    }
    out.slot_root.assign(ns, 0);
    out.nroots = 0;
    for (uint32_t j = 0; j < ns; ++j) {
        const uint32_t r = find(j);
        out.slot_root[j] = r == j ? out.nroots++ : out.slot_root[r];
    }
    return Status::ok();
}

namespace {

using polyanya_detail::HeapEntry;
using polyanya_detail::Node;
using polyanya_detail::RootBest;

constexpr uint32_t kStartRoot = 0xfffffffeu;
constexpr uint32_t kNone = 0xffffffffu;

inline double orient(double ax, double az, double bx, double bz, double cx, double cz) {
    return (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
}

// sqrt(dx² + dz²): hypot's overflow and underflow care costs several times more, and the
// coordinates here are a navmesh's (far from either range)
inline double dist(double dx, double dz) { return std::sqrt(dx * dx + dz * dz); }

// (f, node index) ascending: a total order, so the pop order is the same as any other heap's
inline bool heap_less(const HeapEntry& a, const HeapEntry& b) { return a.f < b.f || (a.f == b.f && a.node < b.node); }

struct Search {
    const PolyanyaMesh& m;
    PolyanyaWorkspace& w;
    const double* xz;
    const uint32_t* poly_verts;
    const uint32_t* poly_nei;
    const uint32_t* slot_next;
    const double* slot_len;
    const uint8_t* corner;
    const uint8_t* dead_end;
    const uint32_t* slot_root;
    double sx, sz, tx, tz;
    uint32_t goal_poly;
    double eps;   // orientation tolerance
    double snap;  // length tolerance: sqrt(eps), 1e-6 of the mesh's extent
    RootBest* best;
    uint32_t gen;

    double vx(uint32_t v) const { return xz[2 * size_t(v)]; }
    double vz(uint32_t v) const { return xz[2 * size_t(v) + 1]; }
    void root_xz(uint32_t r, double& x, double& z) const {
        if (r == kStartRoot) x = sx, z = sz;
        else x = vx(poly_verts[r]), z = vz(poly_verts[r]);
    }
    double best_g(uint32_t r) const {
        const RootBest& b = best[slot_root[r]];
        return b.gen == gen ? b.g : HUGE_VAL;
    }
    // g equal to the root's best g up to rounding (sums of the same lengths in another order)
    static double tie_tolerance(double g) { return g * 1e-12 + 1e-12; }

    void heap_push(HeapEntry e) {
        auto& h = w.heap;
        h.push_back(e);
        size_t i = h.size() - 1;
        while (i > 0) {
            const size_t up = (i - 1) / 2;
            if (!heap_less(e, h[up])) break;
            h[i] = h[up];
            i = up;
        }
        h[i] = e;
    }
    uint32_t heap_pop() {
        auto& h = w.heap;
        const uint32_t top = h[0].node;
        const HeapEntry e = h.back();
        h.pop_back();
        const size_t n = h.size();
        if (n == 0) return top;
        size_t i = 0;
        for (;;) {
            size_t c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && heap_less(h[c + 1], h[c])) ++c;
            if (!heap_less(h[c], e)) break;
            h[i] = h[c];
            i = c;
        }
        h[i] = e;
        return top;
    }

    // Lower bound from root r through the interval [L, R] to the goal.
    double heuristic(double rx, double rz, const Node& n) const {
        const double o_r = orient(n.lx, n.lz, n.rx, n.rz, rx, rz);
        if (std::fabs(o_r) <= eps) {
            // root on the interval's line: through the nearer end unless it lies on the interval
            const double dl = dist(n.lx - rx, n.lz - rz), dr = dist(n.rx - rx, n.rz - rz);
            const double len = dist(n.rx - n.lx, n.rz - n.lz);
            if (dl + dr <= len * (1 + 1e-12)) return dist(tx - rx, tz - rz);
            return dl < dr ? dl + dist(tx - n.lx, tz - n.lz) : dr + dist(tx - n.rx, tz - n.rz);
        }
        double gx = tx, gz = tz;
        const double o_t = orient(n.lx, n.lz, n.rx, n.rz, tx, tz);
        if ((o_t > 0) == (o_r > 0) && o_t != 0) {  // same side as the root: reflect across the line
            const double dx = n.rx - n.lx, dz = n.rz - n.lz;
            const double l2 = dx * dx + dz * dz;
            const double u = ((tx - n.lx) * dx + (tz - n.lz) * dz) / l2;
            const double px = n.lx + u * dx, pz = n.lz + u * dz;
            gx = 2 * px - tx, gz = 2 * pz - tz;
        }
        const double ol = orient(rx, rz, gx, gz, n.lx, n.lz), orr = orient(rx, rz, gx, gz, n.rx, n.rz);
        if (ol < 0 && orr < 0) return dist(n.lx - rx, n.lz - rz) + dist(gx - n.lx, gz - n.lz);
        if (ol > 0 && orr > 0) return dist(n.rx - rx, n.rz - rz) + dist(gx - n.rx, gz - n.rz);
        return dist(gx - rx, gz - rz);
    }

    // Root-level pruning (see polyanya.h). `turn`: the node turns at `root` (a non-observable
    // successor of `parent`, or a goal reached by turning there); else it carries its parent's root.
    bool prune_root(uint32_t root, double g, bool turn, uint32_t parent) {
        if (root == kStartRoot) return false;
        RootBest& b = best[slot_root[root]];
        if (b.gen != gen) {
            b = RootBest{g, gen, parent};
            return false;
        }
        const double tol = tie_tolerance(b.g);
        if (g > b.g + tol) return true;  // reached cheaper before
        if (!turn) return false;
        if (g < b.g - tol) {  // cheaper than before: this expansion owns the root now
            b.g = g;
            b.owner = parent;
            return false;
        }
        return b.owner != parent;  // a tie: the owner's successors cover what this one's would
    }

    // Successor on slot j, parameters [t0, t1] along vertex j -> j+1.
    void push(uint32_t j, double t0, double t1, uint32_t root, double rx, double rz, double g, uint32_t parent, bool turn) {
        const uint32_t q = poly_nei[j];
        if (q == kNoPoly) return;
        const uint32_t a = poly_verts[j], b = poly_verts[slot_next[j]];
        // Ends within `snap` (1e-6 of the mesh's extent) of a vertex are that vertex, so a turn
        // there is seen (the clip's rounding leaves t0 a hair above 0 where a ray grazes a corner,
        // e.g. a corner whose copy in the next tile was the interval's end); slivers that short
        // carry no path a turn at that vertex does not.
        const double len = slot_len[j];
        if (t0 * len <= snap) t0 = 0;
        if ((1 - t1) * len <= snap) t1 = 1;
        if ((t1 - t0) * len <= snap) return;
        if (prune_root(root, g, turn, parent)) return;
        // a dead end (the polygon's only open edge is this one) leads nowhere but to the goal
        if (dead_end[q] && q != goal_poly) {
            ++w.dropped;
            return;
        }
        Node& n = w.nodes.emplace_back();
        const double ax = vx(a), az = vz(a), dx = vx(b) - ax, dz = vz(b) - az;
        // in q the entry slot runs b -> a: left end near b, right end near a
        // an end at a vertex is that vertex exactly (a turn there is measured from its coordinates)
        if (t1 == 1) n.lx = vx(b), n.lz = vz(b);
        else n.lx = ax + dx * t1, n.lz = az + dz * t1;
        n.rx = ax + dx * t0, n.rz = az + dz * t0;
        // the ends as corners of this polygon (q's entry slot may run between other points on a
        // tile border)
        n.lcorner = t1 == 1 ? slot_next[j] : kNone;
        n.rcorner = t0 == 0 ? j : kNone;
        n.root = root;
        n.poly = q;
        n.slot = m.slot_opp[j];
        n.parent = parent;
        n.g = g;
        n.goal = false;
        n.f = g + heuristic(rx, rz, n);
        w.pending.push_back(uint32_t(w.nodes.size() - 1));
    }

    void push_goal(uint32_t root, double g, uint32_t parent, bool turn) {
        if (prune_root(root, g, turn, parent)) return;
        Node& n = w.nodes.emplace_back();
        double rx, rz;
        root_xz(root, rx, rz);
        n.lx = n.rx = tx, n.lz = n.rz = tz;
        n.root = root;
        n.poly = goal_poly;
        n.slot = kNone;
        n.lcorner = n.rcorner = kNone;
        n.parent = parent;
        n.g = g;
        n.f = g + dist(tx - rx, tz - rz);
        n.goal = true;
        w.pending.push_back(uint32_t(w.nodes.size() - 1));
    }

    // [lo, hi] restricted to where a0 + t (a1 - a0) >= 0 (within the tolerance).
    static void clip(double& lo, double& hi, double a0, double a1, double e) {
        if (a0 >= -e && a1 >= -e) return;
        if (a0 < -e && a1 < -e) {
            hi = -1;
            return;
        }
        const double ts = a0 / (a0 - a1);
        if (a0 < -e) lo = std::max(lo, ts);
        else hi = std::min(hi, ts);
    }

    void expand(uint32_t ni) {
        const Node n = w.nodes[ni];
        const uint32_t p = n.poly;
        const uint32_t s = n.slot;
        double rx, rz;
        root_xz(n.root, rx, rz);
        const bool right_turn = n.rcorner != kNone && corner[poly_verts[n.rcorner]];
        const bool left_turn = n.lcorner != kNone && corner[poly_verts[n.lcorner]];
        const uint32_t a0 = poly_verts[s], b0 = poly_verts[slot_next[s]];
        // the root is an end of the entry edge (or lies on the interval): the whole convex polygon
        // is seen from it. A root on the edge's line but off the interval sees nothing through it
        // (the general case below then gives an empty wedge and only the turns at corners).
        bool collinear = n.root != kStartRoot &&
                         (poly_verts[n.root] == a0 || poly_verts[n.root] == b0 ||
                          slot_root[n.root] == slot_root[s] || slot_root[n.root] == slot_root[slot_next[s]]);
        if (!collinear && std::fabs(orient(vx(a0), vz(a0), vx(b0), vz(b0), rx, rz)) <= eps) {
            const double dl = dist(n.lx - rx, n.lz - rz), dr = dist(n.rx - rx, n.rz - rz);
            collinear = dl + dr <= dist(n.rx - n.lx, n.rz - n.lz) * (1 + 1e-12) + 1e-12;
        }
        // goal in this polygon
        if (p == goal_poly) {
            const double gr = orient(rx, rz, n.rx, n.rz, tx, tz), gl = orient(rx, rz, n.lx, n.lz, tx, tz);
            if (collinear || (gr >= -eps && gl <= eps)) push_goal(n.root, n.g, ni, false);
            else if (gr < 0 && right_turn)
                push_goal(n.rcorner, n.g + dist(n.rx - rx, n.rz - rz), ni, true);
            else if (gl > 0 && left_turn)
                push_goal(n.lcorner, n.g + dist(n.lx - rx, n.lz - rz), ni, true);
        }
        const uint32_t first = m.poly_first[p], last = m.poly_first[p + 1];
        if (collinear) {
            for (uint32_t j = first; j < last; ++j)
                if (j != s && poly_nei[j] != kNoPoly) push(j, 0, 1, n.root, rx, rz, n.g, ni, false);
            return;
        }
        // (an interval end that is a corner is that vertex exactly: push snapped it)
        const double g_right = right_turn ? n.g + dist(n.rx - rx, n.rz - rz) : 0;
        const double g_left = left_turn ? n.g + dist(n.lx - rx, n.lz - rz) : 0;
        const double rvx = n.rx, rvz = n.rz, lvx = n.lx, lvz = n.lz;
        // the orientation of each polygon vertex against both rays, once per vertex (each is
        // shared by two edges)
        uint32_t j = first;
        uint32_t a = poly_verts[j];
        double g1a = orient(rx, rz, n.rx, n.rz, vx(a), vz(a)), g2a = -orient(rx, rz, n.lx, n.lz, vx(a), vz(a));
        for (; j < last; ++j) {
            const uint32_t k = j + 1 == last ? first : j + 1;
            const uint32_t b = poly_verts[k];
            const double g1b = orient(rx, rz, n.rx, n.rz, vx(b), vz(b)), g2b = -orient(rx, rz, n.lx, n.lz, vx(b), vz(b));
            if (j != s && poly_nei[j] != kNoPoly) {
                // g1 >= 0: left of the ray root -> right end; g2 >= 0: right of the ray root -> left end
                double lo = 0, hi = 1;
                clip(lo, hi, g1a, g1b, eps);
                clip(lo, hi, g2a, g2b, eps);
                if (hi > lo) push(j, lo, hi, n.root, rx, rz, n.g, ni, false);
                if (right_turn) {
                    double l2 = 0, h2 = 1;
                    clip(l2, h2, -g1a, -g1b, eps);
                    if (h2 > l2) push(j, l2, h2, n.rcorner, rvx, rvz, g_right, ni, true);
                }
                if (left_turn) {
                    double l2 = 0, h2 = 1;
                    clip(l2, h2, -g2a, -g2b, eps);
                    if (h2 > l2) push(j, l2, h2, n.lcorner, lvx, lvz, g_left, ni, true);
                }
            }
            a = b, g1a = g1b, g2a = g2b;
        }
    }
};

}  // namespace

Status polyanya_find_path(const PolyanyaMesh& m, uint32_t start_poly, const float* start, uint32_t goal_poly,
                          const float* goal, PolyanyaPath& out, PolyanyaTrace* trace, PolyanyaWorkspace* workspace,
                          uint32_t max_nodes) {
    // keep out's buffers (a caller looping over queries allocates nothing once warm)
    out.points.clear();
    out.polys.clear();
    out.length_xz = 0;
    out.found = false;
    out.out_of_nodes = false;
    out.expanded = out.generated = 0;
    if (trace) trace->clear();
    if (start_poly >= m.npolys() || goal_poly >= m.npolys())
        return Status::bad_input("polyanya: polygon index out of range (" + std::to_string(start_poly) + ", " +
                                 std::to_string(goal_poly) + " of " + std::to_string(m.npolys()) + ")");
    for (int k = 0; k < 3; ++k)
        if (!std::isfinite(start[k]) || !std::isfinite(goal[k]))
            return Status::bad_input("polyanya: start or goal is not finite");
    // The path: the start, the roots (vertices, from the end back to the start, each with a
    // polygon it is a corner of), then `end` in end_poly.
    auto finish = [&](const uint32_t* roots, const uint32_t* root_polys, size_t nroots, const float* end, uint32_t end_poly) {
        out.points.insert(out.points.end(), {start[0], start[1], start[2]});
        out.polys.push_back(start_poly);
        for (size_t k = nroots; k-- > 0;) {
            const uint32_t v = roots[k];
            out.points.insert(out.points.end(), {float(m.verts[3 * v]), float(m.verts[3 * v + 1]), float(m.verts[3 * v + 2])});
            out.polys.push_back(root_polys[k]);
        }
        out.points.insert(out.points.end(), {end[0], end[1], end[2]});
        out.polys.push_back(end_poly);
        out.length_xz = 0;
        double px = start[0], pz = start[2];
        for (size_t k = 1; k < out.points.size() / 3; ++k) {
            out.length_xz += std::hypot(double(out.points[3 * k]) - px, double(out.points[3 * k + 2]) - pz);
            px = out.points[3 * k], pz = out.points[3 * k + 2];
        }
    };
    if (start_poly == goal_poly) {
        finish(nullptr, nullptr, 0, goal, goal_poly);
        out.found = true;
        return Status::ok();
    }
    if (m.poly_island[start_poly] != m.poly_island[goal_poly]) return Status::ok();  // not connected
    PolyanyaWorkspace local;
    PolyanyaWorkspace& w = workspace ? *workspace : local;
    w.nodes.clear();
    w.heap.clear();
    w.pending.clear();
    if (w.best.size() != m.nroots || ++w.gen == 0) {
        w.best.assign(m.nroots, RootBest{HUGE_VAL, 0, kNone});
        w.gen = 1;
    }
    Search S{m, w, m.xz.data(), m.poly_verts.data(), m.poly_nei.data(), m.slot_next.data(), m.slot_len.data(),
             m.corner.data(), m.dead_end.data(), m.slot_root.data(), start[0], start[2], goal[0], goal[2], goal_poly, m.eps,
             std::sqrt(m.eps), w.best.data(), w.gen};
    // the roots of node ni's path, from it back to the start
    auto collect_roots = [&](uint32_t ni) {
        // a root became one when its earliest node was generated, by expanding the parent's
        // polygon, whose entry edge ends at the root: that polygon has the root as a corner
        w.roots.clear();
        w.root_polys.clear();
        uint32_t last = kNone;
        for (uint32_t k = ni; k != kNone; k = w.nodes[k].parent) {
            const Node& nk = w.nodes[k];
            if (nk.root == kStartRoot) continue;
            if (last != nk.root) w.roots.push_back(m.poly_verts[nk.root]), w.root_polys.push_back(kNone), last = nk.root;
            if (nk.parent != kNone) w.root_polys.back() = w.nodes[nk.parent].poly;
        }
    };
    const size_t cap = max_nodes == 0 ? ~size_t(0) : size_t(max_nodes);
    // the start polygon: every edge seen from the start
    for (uint32_t j = m.poly_first[start_poly]; j < m.poly_first[start_poly + 1]; ++j)
        S.push(j, 0, 1, kStartRoot, S.sx, S.sz, 0, kNone, false);
    for (uint32_t k : w.pending) S.heap_push({w.nodes[k].f, k});
    while (!w.heap.empty()) {
        if (w.nodes.size() >= cap) {
            out.out_of_nodes = true;
            break;
        }
        const uint32_t ni = S.heap_pop();
        const Node& n = w.nodes[ni];
        if (n.root != kStartRoot) {
            const double b = S.best_g(n.root);
            if (n.g > b + Search::tie_tolerance(b)) continue;  // its root was reached cheaper since
        }
        if (n.goal) {
            collect_roots(ni);
            finish(w.roots.data(), w.root_polys.data(), w.roots.size(), goal, goal_poly);
            out.found = true;
            break;
        }
        // expand; a node with a single successor that is not the goal is expanded at once
        // without going through the heap (Polyanya's intermediate pruning)
        for (uint32_t cur = ni;;) {
            ++out.expanded;
            if (trace) {
                const Node& c = w.nodes[cur];
                PolyanyaNode t;
                t.left[0] = c.lx, t.left[1] = c.lz, t.right[0] = c.rx, t.right[1] = c.rz;
                S.root_xz(c.root, t.root[0], t.root[1]);
                t.poly = c.poly, t.f = c.f, t.g = c.g;
                trace->expanded.push_back(t);
            }
            w.pending.clear();
            w.dropped = 0;
            S.expand(cur);
            // (a dropped dead end still counts as a successor here: the expansion order, hence
            // every tie-break, stays the one without the dead-end pruning)
            if (w.pending.size() == 1 && w.dropped == 0 && !w.nodes[w.pending[0]].goal && w.nodes.size() < cap) {
                cur = w.pending[0];
                continue;
            }
            for (uint32_t k : w.pending) S.heap_push({w.nodes[k].f, k});
            break;
        }
    }
    if (out.out_of_nodes) {
        // Out of nodes: the partial path to the point nearest the goal on any node's interval
        // (each interval is seen from its root, and the root's path is a path).
        uint32_t best = kNone;
        double best_d = HUGE_VAL, best_len = HUGE_VAL, bx = 0, bz = 0;
        for (uint32_t k = 0; k < w.nodes.size(); ++k) {
            const Node& c = w.nodes[k];
            if (c.goal) continue;
            const double dx = c.rx - c.lx, dz = c.rz - c.lz, l2 = dx * dx + dz * dz;
            double t = l2 > 0 ? ((S.tx - c.lx) * dx + (S.tz - c.lz) * dz) / l2 : 0;
            t = std::clamp(t, 0.0, 1.0);
            const double px = c.lx + t * dx, pz = c.lz + t * dz;
            const double d = dist(S.tx - px, S.tz - pz);
            double rx, rz;
            S.root_xz(c.root, rx, rz);
            const double len = c.g + dist(px - rx, pz - rz);
            if (d < best_d || (d == best_d && len < best_len)) best = k, best_d = d, best_len = len, bx = px, bz = pz;
        }
        if (best != kNone) {
            const Node& c = w.nodes[best];
            // the height along the entry edge (slot runs from the interval's left end toward its right)
            const uint32_t a = m.poly_verts[c.slot], b = m.poly_verts[m.slot_next[c.slot]];
            const double ax = m.xz[2 * size_t(a)], az = m.xz[2 * size_t(a) + 1];
            const double bxv = m.xz[2 * size_t(b)], bzv = m.xz[2 * size_t(b) + 1];
            const double el2 = (bxv - ax) * (bxv - ax) + (bzv - az) * (bzv - az);
            const double u = el2 > 0 ? std::clamp(((bx - ax) * (bxv - ax) + (bz - az) * (bzv - az)) / el2, 0.0, 1.0) : 0.0;
            const float end[3] = {float(bx), float(m.verts[3 * size_t(a) + 1] + u * (m.verts[3 * size_t(b) + 1] - m.verts[3 * size_t(a) + 1])),
                                  float(bz)};
            collect_roots(best);
            finish(w.roots.data(), w.root_polys.data(), w.roots.size(), end, c.poly);
        }
    }
    out.generated = int(w.nodes.size());
    return Status::ok();
}

}  // namespace nav
