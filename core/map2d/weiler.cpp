// Weiler-Atherton clipping over the polygon graph; see weiler.h for the steps.
#include "core/map2d/weiler.h"

#include "core/map2d/seg_grid.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>

namespace nav::map2d {
namespace {

struct Seg {
    double ax, az, bx, bz;
    uint32_t pa, pb;  // input point ids of the ends
    uint32_t ring;    // ring index within its operand
    uint8_t op;       // 0 = a, 1 = b
};

struct Split {
    uint32_t seg;
    double t;
    uint32_t pt;
};

uint32_t find_root(std::vector<uint32_t>& parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

double seg_point_dist(const Seg& s, double px, double pz) {
    const double dx = s.bx - s.ax, dz = s.bz - s.az;
    const double l2 = dx * dx + dz * dz;
    double t = l2 > 0 ? ((px - s.ax) * dx + (pz - s.az) * dz) / l2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double qx = s.ax + dx * t - px, qz = s.az + dz * t - pz;
    return std::sqrt(qx * qx + qz * qz);
}

bool filled(int w, FillRule f) { return f == FillRule::NonZero ? w != 0 : w > 0; }

bool in_result(bool ina, bool inb, ClipOp op) {
    switch (op) {
        case ClipOp::Union: return ina || inb;
        case ClipOp::Intersection: return ina && inb;
        case ClipOp::Difference: return ina && !inb;
        case ClipOp::Xor: return ina != inb;
    }
    return false;
}

}  // namespace

void make_counter_clockwise(Rings& r) {
    for (size_t k = 0; k < r.count(); ++k) {
        if (ring_area(r.ring(k), r.size(k)) >= 0) continue;
        double* p = r.xz.data() + 2 * size_t(r.first[k]);
        const size_t n = r.size(k);
        for (size_t i = 0; i < n / 2; ++i) {
            std::swap(p[2 * i], p[2 * (n - 1 - i)]);
            std::swap(p[2 * i + 1], p[2 * (n - 1 - i) + 1]);
        }
    }
}

namespace {

// The planar graph clip_polygons builds, step by step (see weiler.h).
struct ClipGraph {
    std::vector<double> pts;   // input points, then the crossings
    std::vector<Seg> segs;     // input segments
    double eps = 0;            // points closer than this are one
    std::vector<Split> splits;
    std::vector<double> verts;  // merged points
    std::vector<uint32_t> vid;  // per point: its vertex
    std::vector<uint32_t> edges;            // v0 < v1
    std::vector<int32_t> net;               // per edge: a count, b count (canonical direction)
    std::vector<uint32_t> edge_seg;         // per edge: one input segment it lies on
    std::vector<uint32_t> ring_edges;       // per sub-edge in ring order: edge id << 1 | reversed
    std::vector<uint32_t> ring_edge_first;  // start of each (operand, ring) run in ring_edges
    std::vector<uint32_t> ring_id;          // per run: ring index
    std::vector<uint8_t> ring_op;           // per run: operand
    std::vector<int32_t> wind;   // per edge: a left, a right, b left, b right winding numbers
    std::vector<double> probe;   // per edge: points just left and right of it
    std::vector<int8_t> kept;    // per edge: 1 result on its left, -1 on its right, 0 dropped
    std::vector<uint32_t> dir_from, dir_to;  // the kept edges, directed with the result on the left
    std::vector<uint32_t> out_first, out_list;  // per vertex: the kept edges leaving it
    std::vector<uint32_t> next;  // per kept edge: the next one around its ring
    SegGrid grid;                // the input segments in buckets (split_segments, winding_numbers)
    size_t crossings = 0;        // proper crossings found
};

// ---- input points and segments; false when a coordinate is not finite
Status collect_segments(const Rings& a, const Rings& b, ClipGraph& G) {
    std::vector<double>& pts = G.pts;
    std::vector<Seg>& segs = G.segs;
    double bmin[2] = {HUGE_VAL, HUGE_VAL}, bmax[2] = {-HUGE_VAL, -HUGE_VAL};
    const Rings* ops[2] = {&a, &b};
    for (uint8_t o = 0; o < 2; ++o) {
        const Rings& r = *ops[o];
        for (size_t k = 0; k < r.count(); ++k) {
            const double* p = r.ring(k);
            const uint32_t n = r.size(k);
            if (n < 2) continue;
            const uint32_t base = uint32_t(pts.size() / 2);
            for (uint32_t i = 0; i < n; ++i) {
                const double x = p[2 * i], z = p[2 * i + 1];
                if (!std::isfinite(x) || !std::isfinite(z))
                    return Status::bad_input("clip: ring " + std::to_string(k) + " of operand " +
                                             std::to_string(o) + " has a non-finite coordinate");
                pts.push_back(x);
                pts.push_back(z);
                bmin[0] = std::min(bmin[0], x), bmin[1] = std::min(bmin[1], z);
                bmax[0] = std::max(bmax[0], x), bmax[1] = std::max(bmax[1], z);
            }
            for (uint32_t i = 0; i < n; ++i) {
                const uint32_t j = (i + 1) % n;
                if (p[2 * i] == p[2 * j] && p[2 * i + 1] == p[2 * j + 1]) continue;
                segs.push_back({p[2 * i], p[2 * i + 1], p[2 * j], p[2 * j + 1], base + i, base + j,
                                uint32_t(k), o});
            }
        }
    }
    const double extent = std::max({bmax[0] - bmin[0], bmax[1] - bmin[1], 1e-300});
    G.eps = 1e-12 * extent;
    return Status::ok();
}

// Bound on the crossings one clip may meet (docs/formats.md, 2D maps): beyond it a map is refused
// as bad input instead of running for minutes.
constexpr size_t kMaxClipCrossings = size_t(1) << 22;

Status split_segments(ClipGraph& G) {
    std::vector<double>& pts = G.pts;
    std::vector<Seg>& segs = G.segs;
    std::vector<Split>& splits = G.splits;
    const double eps = G.eps;
    // ---- split every segment wherever another one meets it
    splits.reserve(segs.size() * 4);
    for (uint32_t i = 0; i < segs.size(); ++i) {
        splits.push_back({i, 0.0, segs[i].pa});
        splits.push_back({i, 1.0, segs[i].pb});
    }
    auto param = [](const Seg& s, double px, double pz) {
        const double dx = s.bx - s.ax, dz = s.bz - s.az;
        return ((px - s.ax) * dx + (pz - s.az) * dz) / (dx * dx + dz * dz);
    };
    // point c (id pc) lies on segment s at distance <= eps from its line: split s there when inside
    auto touch = [&](uint32_t si, double cx, double cz, uint32_t pc) {
        const Seg& s = segs[si];
        const double len = std::hypot(s.bx - s.ax, s.bz - s.az);
        const double t = param(s, cx, cz);
        if (t * len > eps && (1.0 - t) * len > eps) splits.push_back({si, t, pc});
    };
    G.grid.build(
        uint32_t(segs.size()),
        [&](uint32_t k, double& ax, double& az, double& bx, double& bz) {
            ax = segs[k].ax, az = segs[k].az, bx = segs[k].bx, bz = segs[k].bz;
        },
        eps);
    std::vector<uint32_t> cand;
    for (uint32_t i = 0; i < segs.size(); ++i) {
        const Seg& s = segs[i];
        const double sminx = std::min(s.ax, s.bx) - eps, smaxx = std::max(s.ax, s.bx) + eps;
        const double sminz = std::min(s.az, s.bz) - eps, smaxz = std::max(s.az, s.bz) + eps;
        const double slen = std::hypot(s.bx - s.ax, s.bz - s.az);
        // the segments after i that share a grid cell with it, in index order (as all pairs did)
        cand.clear();
        G.grid.near_box(sminx, sminz, smaxx, smaxz, [&](uint32_t j) {
            if (j > i) cand.push_back(j);
        });
        std::sort(cand.begin(), cand.end());
        for (const uint32_t j : cand) {
            const Seg& t = segs[j];
            if (std::max(t.ax, t.bx) < sminx || std::min(t.ax, t.bx) > smaxx ||
                std::max(t.az, t.bz) < sminz || std::min(t.az, t.bz) > smaxz)
                continue;
            const double tlen = std::hypot(t.bx - t.ax, t.bz - t.az);
            // signed distances of each end from the other segment's line
            const double o1 = orient2d(s.ax, s.az, s.bx, s.bz, t.ax, t.az) / slen;
            const double o2 = orient2d(s.ax, s.az, s.bx, s.bz, t.bx, t.bz) / slen;
            const double o3 = orient2d(t.ax, t.az, t.bx, t.bz, s.ax, s.az) / tlen;
            const double o4 = orient2d(t.ax, t.az, t.bx, t.bz, s.bx, s.bz) / tlen;
            const bool z1 = std::fabs(o1) <= eps, z2 = std::fabs(o2) <= eps;
            const bool z3 = std::fabs(o3) <= eps, z4 = std::fabs(o4) <= eps;
            if (z1) touch(i, t.ax, t.az, t.pa);
            if (z2) touch(i, t.bx, t.bz, t.pb);
            if (z3) touch(j, s.ax, s.az, s.pa);
            if (z4) touch(j, s.bx, s.bz, s.pb);
            if (z1 || z2 || z3 || z4) continue;
            if ((o1 > 0) == (o2 > 0) || (o3 > 0) == (o4 > 0)) continue;
            // proper crossing
            if (++G.crossings > kMaxClipCrossings)
                return Status::bad_input("clip: the (inflated) rings cross each other more than " +
                                         std::to_string(kMaxClipCrossings) +
                                         " times (the limit of a 2D map; see docs/formats.md, 2D maps): simplify the map or use a smaller agent_radius");
            const double ts = o3 / (o3 - o4), tt = o1 / (o1 - o2);
            const uint32_t pc = uint32_t(pts.size() / 2);
            pts.push_back(s.ax + (s.bx - s.ax) * ts);
            pts.push_back(s.az + (s.bz - s.az) * ts);
            splits.push_back({i, ts, pc});
            splits.push_back({j, tt, pc});
        }
    }
    return Status::ok();
}

void merge_points(ClipGraph& G) {
    std::vector<double>& pts = G.pts;
    std::vector<double>& verts = G.verts;
    std::vector<uint32_t>& vid = G.vid;
    const double eps = G.eps;
    // ---- merge points closer than eps (the lowest id, an input vertex when there is one, wins)
    const uint32_t npts = uint32_t(pts.size() / 2);
    std::vector<uint32_t> parent(npts);
    std::iota(parent.begin(), parent.end(), 0u);
    {
        // buckets of eps x eps cells: a point's partners are in its own and the 8 cells around it
        // (a sweep along x alone was quadratic for many points on one vertical line)
        double bx = HUGE_VAL, bz = HUGE_VAL;
        for (uint32_t p = 0; p < npts; ++p) bx = std::min(bx, pts[2 * p]), bz = std::min(bz, pts[2 * p + 1]);
        auto cell_of = [&](uint32_t p) {
            return std::pair<int64_t, int64_t>(int64_t(std::floor((pts[2 * p] - bx) / eps)),
                                               int64_t(std::floor((pts[2 * p + 1] - bz) / eps)));
        };
        std::vector<std::pair<std::pair<int64_t, int64_t>, uint32_t>> cells(npts);
        for (uint32_t p = 0; p < npts; ++p) cells[p] = {cell_of(p), p};
        std::sort(cells.begin(), cells.end());
        for (uint32_t p = 0; p < npts; ++p) {
            const auto [cx, cz] = cell_of(p);
            for (int64_t dx = -1; dx <= 1; ++dx)
                for (int64_t dz = -1; dz <= 1; ++dz) {
                    const std::pair<int64_t, int64_t> key{cx + dx, cz + dz};
                    auto it = std::lower_bound(cells.begin(), cells.end(), std::pair{key, uint32_t(0)});
                    for (; it != cells.end() && it->first == key; ++it) {
                        const uint32_t q = it->second;
                        if (q == p || std::fabs(pts[2 * q] - pts[2 * p]) > eps ||
                            std::fabs(pts[2 * q + 1] - pts[2 * p + 1]) > eps)
                            continue;
                        uint32_t rp = find_root(parent, p), rq = find_root(parent, q);
                        if (rp == rq) continue;
                        if (rp > rq) std::swap(rp, rq);
                        parent[rq] = rp;
                    }
                }
        }
    }
    // compact vertex ids
    vid.assign(npts, UINT32_MAX);
    for (uint32_t p = 0; p < npts; ++p) {
        const uint32_t r = find_root(parent, p);
        if (vid[r] == UINT32_MAX) {
            vid[r] = uint32_t(verts.size() / 2);
            verts.push_back(pts[2 * r]);
            verts.push_back(pts[2 * r + 1]);
        }
        vid[p] = vid[r];
    }
}

void build_sub_edges(ClipGraph& G) {
    std::vector<Seg>& segs = G.segs;
    std::vector<Split>& splits = G.splits;
    std::vector<uint32_t>& vid = G.vid;
    std::vector<uint32_t>& edges = G.edges;
    std::vector<int32_t>& net = G.net;
    std::vector<uint32_t>& edge_seg = G.edge_seg;
    std::vector<uint32_t>& ring_edges = G.ring_edges;
    std::vector<uint32_t>& ring_edge_first = G.ring_edge_first;
    std::vector<uint32_t>& ring_id = G.ring_id;
    std::vector<uint8_t>& ring_op = G.ring_op;
    // ---- sub-edges, unique per vertex pair; per input ring the sequence of its sub-edges
    std::sort(splits.begin(), splits.end(), [](const Split& x, const Split& y) {
        return x.seg != y.seg ? x.seg < y.seg : x.t < y.t;
    });
    std::unordered_map<uint64_t, uint32_t> edge_index;
    {
        size_t k = 0;
        uint32_t prev_ring = UINT32_MAX;
        uint8_t prev_op = 255;
        while (k < splits.size()) {
            const uint32_t si = splits[k].seg;
            const Seg& s = segs[si];
            if (s.ring != prev_ring || s.op != prev_op) {
                ring_edge_first.push_back(uint32_t(ring_edges.size()));
                ring_id.push_back(s.ring);
                ring_op.push_back(s.op);
                prev_ring = s.ring;
                prev_op = s.op;
            }
            uint32_t last = vid[splits[k].pt];
            size_t m = k + 1;
            for (; m < splits.size() && splits[m].seg == si; ++m) {
                const uint32_t v = vid[splits[m].pt];
                if (v == last) continue;
                const uint32_t lo = std::min(last, v), hi = std::max(last, v);
                const uint64_t key = (uint64_t(lo) << 32) | hi;
                auto [it, fresh] = edge_index.try_emplace(key, uint32_t(edges.size() / 2));
                if (fresh) {
                    edges.push_back(lo);
                    edges.push_back(hi);
                    net.push_back(0);
                    net.push_back(0);
                    edge_seg.push_back(si);
                }
                net[2 * it->second + s.op] += last < v ? 1 : -1;
                ring_edges.push_back((it->second << 1) | (last < v ? 0u : 1u));
                last = v;
            }
            k = m;
        }
        ring_edge_first.push_back(uint32_t(ring_edges.size()));
    }
}

void winding_numbers(ClipGraph& G) {
    std::vector<Seg>& segs = G.segs;
    const double eps = G.eps;
    std::vector<double>& verts = G.verts;
    std::vector<uint32_t>& edges = G.edges;
    std::vector<int32_t>& net = G.net;
    std::vector<int32_t>& wind = G.wind;
    std::vector<double>& probe = G.probe;
    const uint32_t nedges = uint32_t(G.edges.size() / 2);
    // ---- winding numbers of both operands on each side of each sub-edge
    wind.assign(4 * size_t(nedges), 0);
    probe.assign(4 * size_t(nedges), 0.0);
    for (uint32_t e = 0; e < nedges; ++e) {
        const double ux = verts[2 * edges[2 * e]], uz = verts[2 * edges[2 * e] + 1];
        const double vx = verts[2 * edges[2 * e + 1]], vz = verts[2 * edges[2 * e + 1] + 1];
        const double mx = 0.5 * (ux + vx), mz = 0.5 * (uz + vz);
        const double len = std::hypot(vx - ux, vz - uz);
        // the nearest other segment, looked for in a box growing from one cell to 0.25 len
        double dmin = 0.25 * len;
        for (double box = std::min(0.5 * len, G.grid.cell());; box = std::min(2 * box, 0.5 * len)) {
            G.grid.near_box(mx - box, mz - box, mx + box, mz + box, [&](uint32_t k) {
                const double d = seg_point_dist(segs[k], mx, mz);
                if (d > eps) dmin = std::min(dmin, 0.5 * d);
            });
            if (2 * dmin <= box || box >= 0.5 * len) break;  // farther segments give 0.5 d > dmin
        }
        const double qx = mx - (vz - uz) / len * dmin, qz = mz + (vx - ux) / len * dmin;
        int w[2] = {0, 0};
        G.grid.ray_right(qx, qz, [&](uint32_t k) {
            const Seg& s = segs[k];
            if (s.az <= qz) {
                if (s.bz > qz && orient2d(s.ax, s.az, s.bx, s.bz, qx, qz) > 0) ++w[s.op];
            } else if (s.bz <= qz && orient2d(s.ax, s.az, s.bx, s.bz, qx, qz) < 0) {
                --w[s.op];
            }
        });
        probe[4 * e] = qx, probe[4 * e + 1] = qz;
        probe[4 * e + 2] = 2 * mx - qx, probe[4 * e + 3] = 2 * mz - qz;
        wind[4 * e + 0] = w[0];
        wind[4 * e + 1] = w[0] - net[2 * e];
        wind[4 * e + 2] = w[1];
        wind[4 * e + 3] = w[1] - net[2 * e + 1];
    }
}

void keep_edges(ClipGraph& G, ClipOp op, FillRule fill) {
    std::vector<uint32_t>& edges = G.edges;
    std::vector<int32_t>& wind = G.wind;
    std::vector<int8_t>& kept = G.kept;
    std::vector<uint32_t>& dir_from = G.dir_from;
    std::vector<uint32_t>& dir_to = G.dir_to;
    const uint32_t nedges = uint32_t(G.edges.size() / 2);
    // ---- keep the edges with the result on exactly one side
    kept.assign(nedges, 0);
    for (uint32_t e = 0; e < nedges; ++e) {
        const bool l = in_result(filled(wind[4 * e], fill), filled(wind[4 * e + 2], fill), op);
        const bool r = in_result(filled(wind[4 * e + 1], fill), filled(wind[4 * e + 3], fill), op);
        if (l == r) continue;
        kept[e] = l ? 1 : -1;
        dir_from.push_back(l ? edges[2 * e] : edges[2 * e + 1]);
        dir_to.push_back(l ? edges[2 * e + 1] : edges[2 * e]);
    }
}

Status link_rings(ClipGraph& G) {
    std::vector<double>& verts = G.verts;
    std::vector<uint32_t>& dir_from = G.dir_from;
    std::vector<uint32_t>& dir_to = G.dir_to;
    std::vector<uint32_t>& out_first = G.out_first;
    std::vector<uint32_t>& out_list = G.out_list;
    std::vector<uint32_t>& next = G.next;
    // ---- link the kept edges into rings
    const uint32_t nverts = uint32_t(verts.size() / 2);
    const uint32_t nkept = uint32_t(dir_from.size());
    out_first.assign(nverts + 1, 0);
    out_list.assign(nkept, 0);
    for (uint32_t k = 0; k < nkept; ++k) ++out_first[dir_from[k] + 1];
    for (uint32_t v = 0; v < nverts; ++v) out_first[v + 1] += out_first[v];
    {
        std::vector<uint32_t> fill_at(out_first.begin(), out_first.end() - 1);
        for (uint32_t k = 0; k < nkept; ++k) out_list[fill_at[dir_from[k]]++] = k;
    }
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    next.assign(nkept, UINT32_MAX);
    for (uint32_t k = 0; k < nkept; ++k) {
        const uint32_t t = dir_to[k], s = dir_from[k];
        const double back = std::atan2(verts[2 * s + 1] - verts[2 * t + 1], verts[2 * s] - verts[2 * t]);
        double best = HUGE_VAL;
        for (uint32_t m = out_first[t]; m < out_first[t + 1]; ++m) {
            const uint32_t o = out_list[m];
            const uint32_t w = dir_to[o];
            const double ang = std::atan2(verts[2 * w + 1] - verts[2 * t + 1], verts[2 * w] - verts[2 * t]);
            double cw = back - ang;
            while (cw <= 0) cw += kTwoPi;
            while (cw > kTwoPi) cw -= kTwoPi;
            if (cw < best) best = cw, next[k] = o;
        }
        if (next[k] == UINT32_MAX)
            return Status::internal("clip: open boundary at vertex " + std::to_string(t) + " (" +
                                    std::to_string(verts[2 * t]) + ", " + std::to_string(verts[2 * t + 1]) + ")");
    }
    return Status::ok();
}

// One ring of vertex ids into out, collinear vertices dropped (not where rings touch); fewer than
// three left: nothing.
void emit_ring(const ClipGraph& G, std::vector<uint32_t>& c, std::vector<double>& ring, Rings& out) {
    const std::vector<double>& verts = G.verts;
    const std::vector<uint32_t>& out_first = G.out_first;
    const double eps = G.eps;
    // drop collinear vertices and spikes, in one pass with a stack (then around the seam)
    auto removable = [&](uint32_t p, uint32_t q, uint32_t n) {
        if (p == n) return true;
        const double len = std::hypot(verts[2 * n] - verts[2 * p], verts[2 * n + 1] - verts[2 * p + 1]);
        const double o = orient2d(verts[2 * p], verts[2 * p + 1], verts[2 * q], verts[2 * q + 1], verts[2 * n],
                                  verts[2 * n + 1]);
        // a vertex where rings touch stays (the other ring has it as a corner)
        const bool pinch = out_first[q + 1] - out_first[q] > 1;
        return !pinch && std::fabs(o) <= eps * len;
    };
    std::vector<uint32_t> st;
    st.reserve(c.size());
    for (const uint32_t v : c) {
        while (st.size() >= 2 && removable(st[st.size() - 2], st.back(), v)) st.pop_back();
        st.push_back(v);
    }
    size_t b = 0;  // the first live entry of st
    for (bool changed = true; changed && st.size() - b >= 3;) {
        changed = false;
        if (removable(st[st.size() - 2], st.back(), st[b])) {
            st.pop_back();
            changed = true;
        } else if (removable(st.back(), st[b], st[b + 1])) {
            ++b;
            changed = true;
        }
    }
    c.assign(st.begin() + long(b), st.end());
    if (c.size() < 3) return;
    ring.clear();
    for (uint32_t v : c) {
        ring.push_back(verts[2 * v]);
        ring.push_back(verts[2 * v + 1]);
    }
    out.add(ring.data(), c.size());
}

// Walks the kept edges into rings, each split into simple rings where it passes a vertex twice.
void emit_rings(const ClipGraph& G, Rings& out) {
    const std::vector<uint32_t>& dir_from = G.dir_from;
    const std::vector<uint32_t>& next = G.next;
    const uint32_t nverts = uint32_t(G.verts.size() / 2);
    const uint32_t nkept = uint32_t(G.dir_from.size());
    std::vector<uint8_t> used(nkept, 0);
    std::vector<uint32_t> cyc, walk, loop;
    std::vector<int32_t> pos(nverts, -1);
    std::vector<double> ring;
    auto emit = [&](std::vector<uint32_t>& c) { emit_ring(G, c, ring, out); };
    for (uint32_t k0 = 0; k0 < nkept; ++k0) {
        if (used[k0]) continue;
        cyc.clear();
        for (uint32_t k = k0; !used[k]; k = next[k]) {
            used[k] = 1;
            cyc.push_back(dir_from[k]);
        }
        // a ring passing a vertex twice (a hole touching its outer ring) splits there into
        // simple rings
        walk.clear();
        for (uint32_t v : cyc) {
            if (pos[v] >= 0) {
                loop.assign(walk.begin() + pos[v], walk.end());
                for (size_t i = size_t(pos[v]) + 1; i < walk.size(); ++i) pos[walk[i]] = -1;
                walk.resize(size_t(pos[v]) + 1);
                emit(loop);
                continue;
            }
            pos[v] = int32_t(walk.size());
            walk.push_back(v);
        }
        for (uint32_t v : walk) pos[v] = -1;
        emit(walk);
    }
}

void trace_crossings(const ClipGraph& G, bool self_union, FillRule fill, ClipTrace& tr) {
    const std::vector<Seg>& segs = G.segs;
    const std::vector<uint32_t>& edges = G.edges;
    const std::vector<double>& probe = G.probe;
    const std::vector<uint32_t>& ring_edges = G.ring_edges;
    const std::vector<uint32_t>& ring_edge_first = G.ring_edge_first;
    const std::vector<uint32_t>& ring_id = G.ring_id;
    const std::vector<uint8_t>& ring_op = G.ring_op;
    // Weiler-Atherton's intersection lists: where a ring's sub-edges change their relation to
    // the other operand, labelled by the sub-edge that follows.
    for (size_t run = 0; run + 1 < ring_edge_first.size(); ++run) {
        const uint32_t b0 = ring_edge_first[run], b1 = ring_edge_first[run + 1];
        const uint8_t o = ring_op[run];
        // the other operand; with an empty clip operand (a union of many rings), the
        // other rings of the subject
        auto others_winding = [&](double qx, double qz) {
            int w = 0;
            for (const Seg& s : segs) {
                if (self_union ? (s.ring == ring_id[run]) : (s.op == o)) continue;
                if (s.az <= qz) {
                    if (s.bz > qz && orient2d(s.ax, s.az, s.bx, s.bz, qx, qz) > 0) ++w;
                } else if (s.bz <= qz && orient2d(s.ax, s.az, s.bx, s.bz, qx, qz) < 0) {
                    --w;
                }
            }
            return w;
        };
        auto cls = [&](uint32_t code) {
            const uint32_t e = code >> 1;
            const bool l = filled(others_winding(probe[4 * e], probe[4 * e + 1]), fill);
            const bool r = filled(others_winding(probe[4 * e + 2], probe[4 * e + 3]), fill);
            return l && r ? ClipCrossing::Entering : (!l && !r ? ClipCrossing::Leaving : ClipCrossing::OnBoundary);
        };
        for (uint32_t k = b0; k < b1; ++k) {
            const uint32_t prev = ring_edges[k == b0 ? b1 - 1 : k - 1], cur = ring_edges[k];
            const auto cp = cls(prev), cc = cls(cur);
            if (cp == cc) continue;
            const uint32_t e = cur >> 1;
            const uint32_t v = (cur & 1) ? edges[2 * e + 1] : edges[2 * e];
            tr.crossings.push_back({v, ring_id[run], o, uint8_t(cc)});
        }
    }
}

}  // namespace

Status clip_polygons(const Rings& a, const Rings& b, ClipOp op, FillRule fill, Rings& out,
                     ClipTrace* trace) {
    out.clear();
    if (trace) *trace = ClipTrace{};
    ClipGraph G;
    if (Status st = collect_segments(a, b, G); !st) return st;
    if (G.segs.empty()) {
        if (trace) trace->result = out;
        return Status::ok();
    }
    if (Status st = split_segments(G); !st) return st;
    merge_points(G);
    build_sub_edges(G);
    winding_numbers(G);
    keep_edges(G, op, fill);
    if (Status st = link_rings(G); !st) return st;
    emit_rings(G, out);
    if (trace) {
        trace->verts = G.verts;
        trace->edges = G.edges;
        trace->edge_winding = G.wind;
        trace->edge_kept = G.kept;
        trace_crossings(G, b.count() == 0, fill, *trace);
        trace->result = out;
    }
    return Status::ok();
}

namespace {

void add_disc(Rings& out, double cx, double cz, double r, int sides) {
    const double rr = r / std::cos(3.14159265358979323846 / sides);
    std::vector<double> p(2 * size_t(sides));
    for (int k = 0; k < sides; ++k) {
        const double ang = 6.283185307179586476925286766559 * (k + 0.5) / sides;
        p[2 * k] = cx + rr * std::cos(ang);
        p[2 * k + 1] = cz + rr * std::sin(ang);
    }
    out.add(p.data(), size_t(sides));
}

}  // namespace

namespace {

// The part of the disc polygon around v (the regular `sides`-gon containing the disc of radius r,
// as add_disc makes it) in the directions from angle a0 to a0 + span (counter-clockwise): the
// polygon's boundary at a0, its corners in between, its boundary at a0 + span, closed at `apex`, a
// point inside the disc on the other side of v (so that the wedge's sides do not lie on the sides
// of the edges' rectangles, which would make nearly coincident edges for the clipper).
void add_disc_wedge(Rings& out, double vx, double vz, double apex_x, double apex_z, double r, int sides, double a0,
                    double span, std::vector<double>& p) {
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    const double step = kTwoPi / sides, rr = r / std::cos(0.5 * step);
    // distance from v to the polygon's boundary in direction a: the edge between the corners at
    // (k + 0.5) step and (k + 1.5) step has its foot at (k + 1) step, at distance r
    auto boundary = [&](double a) {
        const double k = std::floor(a / step - 0.5);
        const double d = r / std::cos(a - (k + 1) * step);
        p.push_back(vx + d * std::cos(a));
        p.push_back(vz + d * std::sin(a));
    };
    p.clear();
    p.push_back(apex_x);
    p.push_back(apex_z);
    boundary(a0);
    const double k0 = std::floor((a0 / step) - 0.5) + 1;  // first corner after a0
    for (double k = k0; (k + 0.5) * step < a0 + span; k += 1) {
        const double a = (k + 0.5) * step;
        if (a <= a0) continue;
        p.push_back(vx + rr * std::cos(a));
        p.push_back(vz + rr * std::sin(a));
    }
    boundary(a0 + span);
    out.add(p.data(), p.size() / 2);
}

}  // namespace

void band_pieces_range(const double* p, uint32_t n, uint32_t i0, uint32_t i1, double r, int sides, Rings& pieces) {
    constexpr double kPi = 3.14159265358979323846;
    std::vector<double> tmp;
    // the direction of the nearest edge of non-zero length before / after vertex i
    auto edge_dir = [&](uint32_t i, int step, double& dx, double& dz) {
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t a = step > 0 ? (i + k) % n : (i + n - k) % n;
            const uint32_t b = step > 0 ? (a + 1) % n : (a + n - 1) % n;
            dx = step > 0 ? p[2 * b] - p[2 * a] : p[2 * a] - p[2 * b];
            dz = step > 0 ? p[2 * b + 1] - p[2 * a + 1] : p[2 * a + 1] - p[2 * b + 1];
            if (dx != 0 || dz != 0) return true;
        }
        return false;
    };
    for (uint32_t i = i0; i < i1; ++i) {
        const uint32_t j = (i + 1) % n;
        const double ax = p[2 * i], az = p[2 * i + 1], bx = p[2 * j], bz = p[2 * j + 1];
        // the rectangle of half-width r around edge i
        const double len = std::hypot(bx - ax, bz - az);
        if (len > 0) {
            const double nx = (bz - az) / len * r, nz = -(bx - ax) / len * r;
            const double q[8] = {ax - nx, az - nz, bx - nx, bz - nz, bx + nx, bz + nz, ax + nx, az + nz};
            pieces.add(q, 4);
        }
        // at vertex i, the points whose nearest point of the boundary is the vertex itself: the
        // directions u with u . d_in >= 0 and u . d_out <= 0, a wedge as wide as the turn there
        // (the rectangles cover the rest of the disc around it)
        double ix, iz, ox, oz;
        if (!edge_dir(i, -1, ix, iz) || !edge_dir(i, +1, ox, oz)) {
            add_disc(pieces, ax, az, r, sides);
            continue;
        }
        const double turn = std::atan2(ix * oz - iz * ox, ix * ox + iz * oz);  // (-pi, pi]
        if (turn == 0) continue;
        const double a_in = std::atan2(iz, ix), a_out = std::atan2(oz, ox);
        // the apex: r / 2 from the vertex into the inside of the turn (along the bisector of the
        // inner normals), or back along the incoming edge where the boundary folds back
        const double li = std::hypot(ix, iz), lo = std::hypot(ox, oz);
        const double sgn = turn > 0 ? 1.0 : -1.0;  // inner side: left of a left turn
        double wx = sgn * (-iz / li - oz / lo), wz = sgn * (ix / li + ox / lo);
        double wl = std::hypot(wx, wz);
        if (!(wl > 1e-3)) wx = -ix / li, wz = -iz / li, wl = 1.0;
        const double cx = ax + 0.5 * r * wx / wl, cz = az + 0.5 * r * wz / wl;
        if (turn > 0) add_disc_wedge(pieces, ax, az, cx, cz, r, sides, a_in - 0.5 * kPi, turn, tmp);
        else add_disc_wedge(pieces, ax, az, cx, cz, r, sides, a_out + 0.5 * kPi, -turn, tmp);
    }
}

void band_pieces(const Rings& rings, double r, int sides, Rings& pieces) {
    for (size_t k = 0; k < rings.count(); ++k) band_pieces_range(rings.ring(k), rings.size(k), 0, rings.size(k), r, sides, pieces);
    make_counter_clockwise(pieces);
}

Status inflate_polygons(const Rings& solids, double r, int sides, Rings& out) {
    if (!(std::isfinite(r))) return Status::bad_input("inflate: radius is not finite");
    if (sides < 3) return Status::bad_input("inflate: need at least 3 sides, got " + std::to_string(sides));
    Rings pieces = solids;
    make_counter_clockwise(pieces);
    if (r > 0) band_pieces(solids, r, sides, pieces);
    return clip_polygons(pieces, Rings{}, ClipOp::Union, FillRule::NonZero, out);
}

Status boundary_band(const Rings& rings, double r, int sides, Rings& out) {
    out.clear();
    if (!(std::isfinite(r))) return Status::bad_input("band: radius is not finite");
    if (sides < 3) return Status::bad_input("band: need at least 3 sides, got " + std::to_string(sides));
    if (r <= 0) return Status::ok();
    Rings pieces;
    band_pieces(rings, r, sides, pieces);
    return clip_polygons(pieces, Rings{}, ClipOp::Union, FillRule::NonZero, out);
}

}  // namespace nav::map2d
