// Polyanya: see polyanya.h.
#include "core/runtime/polyanya.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <string>
#include <tuple>

namespace nav {

Status polyanya_mesh_from_navmesh(const NavMesh& mesh, PolyanyaMesh& out, uint16_t include_flags, uint16_t exclude_flags) {
    auto passes = [&](uint32_t p) { return (mesh.flags[p] & include_flags) != 0 && (mesh.flags[p] & exclude_flags) == 0; };
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
    return Status::ok();
}

namespace {

constexpr uint32_t kStartRoot = 0xfffffffeu;
constexpr uint32_t kNone = 0xffffffffu;

struct Node {
    double lx, lz, rx, rz;  // interval ends: left (near the entry slot's first vertex), right
    uint32_t root;          // vertex or kStartRoot
    uint32_t poly, slot;    // polygon looked into, its entry slot (global)
    uint32_t lvert, rvert;  // the interval end's vertex when the end is the entry edge's vertex
    uint32_t parent;
    double g, f;
    bool goal;
};

inline double orient(double ax, double az, double bx, double bz, double cx, double cz) {
    return (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
}

struct Search {
    const PolyanyaMesh& m;
    double sx, sz, tx, tz;
    uint32_t goal_poly;
    double eps;   // orientation tolerance
    double snap;  // length tolerance: sqrt(eps), 1e-6 of the mesh's extent
    std::vector<Node> nodes;
    std::vector<double> best;  // per vertex: best g as a root
    std::vector<uint32_t> pending;  // successors of the node being expanded
    using Entry = std::pair<double, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;

    double vx(uint32_t v) const { return m.verts[3 * size_t(v)]; }
    double vz(uint32_t v) const { return m.verts[3 * size_t(v) + 2]; }
    void root_xz(uint32_t r, double& x, double& z) const {
        if (r == kStartRoot) x = sx, z = sz;
        else x = vx(r), z = vz(r);
    }
    uint32_t next_slot(uint32_t s, uint32_t p) const { return s + 1 == m.poly_first[p + 1] ? m.poly_first[p] : s + 1; }

    // Lower bound from root r through the interval [L, R] to the goal.
    double heuristic(double rx, double rz, const Node& n) const {
        const double o_r = orient(n.lx, n.lz, n.rx, n.rz, rx, rz);
        if (std::fabs(o_r) <= eps) {
            // root on the interval's line: through the nearer end unless it lies on the interval
            const double dl = std::hypot(n.lx - rx, n.lz - rz), dr = std::hypot(n.rx - rx, n.rz - rz);
            const double len = std::hypot(n.rx - n.lx, n.rz - n.lz);
            if (dl + dr <= len * (1 + 1e-12)) return std::hypot(tx - rx, tz - rz);
            return dl < dr ? dl + std::hypot(tx - n.lx, tz - n.lz) : dr + std::hypot(tx - n.rx, tz - n.rz);
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
        if (ol < 0 && orr < 0) return std::hypot(n.lx - rx, n.lz - rz) + std::hypot(gx - n.lx, gz - n.lz);
        if (ol > 0 && orr > 0) return std::hypot(n.rx - rx, n.rz - rz) + std::hypot(gx - n.rx, gz - n.rz);
        return std::hypot(gx - rx, gz - rz);
    }

    bool prune_root(uint32_t root, double g) {
        if (root == kStartRoot) return false;
        if (g > best[root] * (1 + 1e-12) + 1e-12) return true;
        best[root] = std::min(best[root], g);
        return false;
    }

    // Successor on slot j of polygon p, parameters [t0, t1] along vertex j -> j+1.
    void push(uint32_t p, uint32_t j, double t0, double t1, uint32_t root, double g, uint32_t parent) {
        const uint32_t q = m.poly_nei[j];
        if (q == kNoPoly) return;
        const uint32_t a = m.poly_verts[j], b = m.poly_verts[next_slot(j, p)];
        // Ends within `snap` (1e-6 of the mesh's extent) of a vertex are that vertex, so a turn
        // there is seen (the clip's rounding leaves t0 a hair above 0 where a ray grazes a corner,
        // e.g. a corner whose copy in the next tile was the interval's end); slivers that short
        // carry no path a turn at that vertex does not.
        const double len = std::hypot(vx(b) - vx(a), vz(b) - vz(a));
        if (t0 * len <= snap) t0 = 0;
        if ((1 - t1) * len <= snap) t1 = 1;
        if ((t1 - t0) * len <= snap) return;
        if (prune_root(root, g)) return;
        Node n;
        // in q the entry slot runs b -> a: left end near b, right end near a
        n.lx = vx(a) + (vx(b) - vx(a)) * t1, n.lz = vz(a) + (vz(b) - vz(a)) * t1;
        n.rx = vx(a) + (vx(b) - vx(a)) * t0, n.rz = vz(a) + (vz(b) - vz(a)) * t0;
        n.lvert = t1 == 1 ? b : kNone;
        n.rvert = t0 == 0 ? a : kNone;
        n.root = root;
        n.poly = q;
        n.slot = m.slot_opp[j];
        n.parent = parent;
        n.g = g;
        n.goal = false;
        double rx, rz;
        root_xz(root, rx, rz);
        n.f = g + heuristic(rx, rz, n);
        nodes.push_back(n);
        pending.push_back(uint32_t(nodes.size() - 1));
    }

    void push_goal(uint32_t root, double g, uint32_t parent) {
        if (prune_root(root, g)) return;
        Node n{};
        double rx, rz;
        root_xz(root, rx, rz);
        n.lx = n.rx = tx, n.lz = n.rz = tz;
        n.root = root;
        n.poly = goal_poly;
        n.slot = kNone;
        n.lvert = n.rvert = kNone;
        n.parent = parent;
        n.g = g;
        n.f = g + std::hypot(tx - rx, tz - rz);
        n.goal = true;
        nodes.push_back(n);
        pending.push_back(uint32_t(nodes.size() - 1));
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
        const Node n = nodes[ni];
        const uint32_t p = n.poly;
        const uint32_t s = n.slot;
        double rx, rz;
        root_xz(n.root, rx, rz);
        const uint32_t a0 = m.poly_verts[s], b0 = m.poly_verts[next_slot(s, p)];
        // the root is an end of the entry edge (or lies on the interval): the whole convex polygon
        // is seen from it. A root on the edge's line but off the interval sees nothing through it
        // (the general case below then gives an empty wedge and only the turns at corners).
        bool collinear = n.root == a0 || n.root == b0;
        if (!collinear && std::fabs(orient(vx(a0), vz(a0), vx(b0), vz(b0), rx, rz)) <= eps) {
            const double dl = std::hypot(n.lx - rx, n.lz - rz), dr = std::hypot(n.rx - rx, n.rz - rz);
            collinear = dl + dr <= std::hypot(n.rx - n.lx, n.rz - n.lz) * (1 + 1e-12) + 1e-12;
        }
        // goal in this polygon
        if (p == goal_poly) {
            const double gr = orient(rx, rz, n.rx, n.rz, tx, tz), gl = orient(rx, rz, n.lx, n.lz, tx, tz);
            if (collinear || (gr >= -eps && gl <= eps)) push_goal(n.root, n.g, ni);
            else if (gr < 0 && n.rvert != kNone && m.corner[n.rvert])
                push_goal(n.rvert, n.g + std::hypot(vx(n.rvert) - rx, vz(n.rvert) - rz), ni);
            else if (gl > 0 && n.lvert != kNone && m.corner[n.lvert])
                push_goal(n.lvert, n.g + std::hypot(vx(n.lvert) - rx, vz(n.lvert) - rz), ni);
        }
        const bool right_turn = !collinear && n.rvert != kNone && m.corner[n.rvert];
        const bool left_turn = !collinear && n.lvert != kNone && m.corner[n.lvert];
        const double g_right = right_turn ? n.g + std::hypot(vx(n.rvert) - rx, vz(n.rvert) - rz) : 0;
        const double g_left = left_turn ? n.g + std::hypot(vx(n.lvert) - rx, vz(n.lvert) - rz) : 0;
        for (uint32_t j = m.poly_first[p]; j < m.poly_first[p + 1]; ++j) {
            if (j == s || m.poly_nei[j] == kNoPoly) continue;
            if (collinear) {
                push(p, j, 0, 1, n.root, n.g, ni);
                continue;
            }
            const uint32_t a = m.poly_verts[j], b = m.poly_verts[next_slot(j, p)];
            // g1 >= 0: left of the ray root -> right end; g2 >= 0: right of the ray root -> left end
            const double g1a = orient(rx, rz, n.rx, n.rz, vx(a), vz(a)), g1b = orient(rx, rz, n.rx, n.rz, vx(b), vz(b));
            const double g2a = -orient(rx, rz, n.lx, n.lz, vx(a), vz(a)), g2b = -orient(rx, rz, n.lx, n.lz, vx(b), vz(b));
            double lo = 0, hi = 1;
            clip(lo, hi, g1a, g1b, eps);
            clip(lo, hi, g2a, g2b, eps);
            if (hi > lo) push(p, j, lo, hi, n.root, n.g, ni);
            if (right_turn) {
                double l2 = 0, h2 = 1;
                clip(l2, h2, -g1a, -g1b, eps);
                if (h2 > l2) push(p, j, l2, h2, n.rvert, g_right, ni);
            }
            if (left_turn) {
                double l2 = 0, h2 = 1;
                clip(l2, h2, -g2a, -g2b, eps);
                if (h2 > l2) push(p, j, l2, h2, n.lvert, g_left, ni);
            }
        }
    }
};

}  // namespace

Status polyanya_find_path(const PolyanyaMesh& m, uint32_t start_poly, const float* start, uint32_t goal_poly,
                          const float* goal, PolyanyaPath& out, PolyanyaTrace* trace) {
    out = PolyanyaPath{};
    if (trace) trace->clear();
    if (start_poly >= m.npolys() || goal_poly >= m.npolys())
        return Status::bad_input("polyanya: polygon index out of range (" + std::to_string(start_poly) + ", " +
                                 std::to_string(goal_poly) + " of " + std::to_string(m.npolys()) + ")");
    for (int k = 0; k < 3; ++k)
        if (!std::isfinite(start[k]) || !std::isfinite(goal[k]))
            return Status::bad_input("polyanya: start or goal is not finite");
    Search S{m, start[0], start[2], goal[0], goal[2], goal_poly, 0, 0, {}, {}, {}, {}};
    S.eps = m.eps;
    S.snap = std::sqrt(m.eps);
    S.best.assign(m.verts.size() / 3, HUGE_VAL);
    auto finish = [&](const std::vector<uint32_t>& roots, const std::vector<uint32_t>& root_polys) {
        // roots from the goal back to the start
        out.points.clear();
        out.polys.clear();
        out.points.insert(out.points.end(), {start[0], start[1], start[2]});
        out.polys.push_back(start_poly);
        for (size_t k = roots.size(); k-- > 0;) {
            const uint32_t v = roots[k];
            out.points.insert(out.points.end(), {float(m.verts[3 * v]), float(m.verts[3 * v + 1]), float(m.verts[3 * v + 2])});
            out.polys.push_back(root_polys[k]);
        }
        out.points.insert(out.points.end(), {goal[0], goal[1], goal[2]});
        out.polys.push_back(goal_poly);
        out.length_xz = 0;
        double px = start[0], pz = start[2];
        for (size_t k = 1; k < out.points.size() / 3; ++k) {
            out.length_xz += std::hypot(double(out.points[3 * k]) - px, double(out.points[3 * k + 2]) - pz);
            px = out.points[3 * k], pz = out.points[3 * k + 2];
        }
        out.found = true;
    };
    if (start_poly == goal_poly) {
        finish({}, {});
        return Status::ok();
    }
    if (m.poly_island[start_poly] != m.poly_island[goal_poly]) return Status::ok();  // not connected
    // the start polygon: every edge seen from the start
    for (uint32_t j = m.poly_first[start_poly]; j < m.poly_first[start_poly + 1]; ++j)
        S.push(start_poly, j, 0, 1, kStartRoot, 0, kNone);
    for (uint32_t k : S.pending) S.open.push({S.nodes[k].f, k});
    constexpr size_t kMaxNodes = size_t(1) << 23;
    while (!S.open.empty()) {
        const uint32_t ni = S.open.top().second;
        S.open.pop();
        const Node& n = S.nodes[ni];
        if (n.root != kStartRoot && n.g > S.best[n.root] * (1 + 1e-12) + 1e-12) continue;
        if (n.goal) {
            // a root became one when its earliest node was generated, by expanding the parent's
            // polygon, whose entry edge ends at the root: that polygon has the root as a corner
            std::vector<uint32_t> roots, root_polys;
            for (uint32_t k = ni; k != kNone; k = S.nodes[k].parent) {
                const Node& nk = S.nodes[k];
                if (nk.root == kStartRoot) continue;
                if (roots.empty() || roots.back() != nk.root) roots.push_back(nk.root), root_polys.push_back(kNone);
                if (nk.parent != kNone) root_polys.back() = S.nodes[nk.parent].poly;
            }
            finish(roots, root_polys);
            break;
        }
        // expand; a node with a single successor that is not the goal is expanded at once
        // without going through the heap (Polyanya's intermediate pruning)
        for (uint32_t cur = ni;;) {
            ++out.expanded;
            if (trace) {
                const Node& c = S.nodes[cur];
                PolyanyaNode t;
                t.left[0] = c.lx, t.left[1] = c.lz, t.right[0] = c.rx, t.right[1] = c.rz;
                S.root_xz(c.root, t.root[0], t.root[1]);
                t.poly = c.poly, t.f = c.f, t.g = c.g;
                trace->expanded.push_back(t);
            }
            S.pending.clear();
            S.expand(cur);
            if (S.pending.size() == 1 && !S.nodes[S.pending[0]].goal && S.nodes.size() <= kMaxNodes) {
                cur = S.pending[0];
                continue;
            }
            for (uint32_t k : S.pending) S.open.push({S.nodes[k].f, k});
            break;
        }
        if (S.nodes.size() > kMaxNodes) return Status::internal("polyanya: search exceeded " + std::to_string(kMaxNodes) + " nodes");
    }
    out.generated = int(S.nodes.size());
    return Status::ok();
}

}  // namespace nav
