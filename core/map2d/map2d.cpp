// 2D map loading, checks and the bake to polygons; see map2d.h.
#include "core/map2d/map2d.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/io/file.h"
#include "core/io/json_text.h"

#include "core/map2d/convex_merge.h"
#include "core/map2d/seg_grid.h"

namespace nav::map2d {
namespace {

// Reads one ring: an array of [x, z] pairs; applies the documented repairs.
Status read_ring(const nlohmann::json& j, const std::string& what, Rings& out) {
    if (!j.is_array()) return Status::bad_input(what + ": expected an array of [x, z] points");
    std::vector<double> p;
    for (size_t k = 0; k < j.size(); ++k) {
        const auto& q = j[k];
        if (!q.is_array() || q.size() != 2 || !q[0].is_number() || !q[1].is_number())
            return Status::bad_input(what + ": point " + std::to_string(k) + " is not [x, z] with two numbers");
        const double x = q[0].get<double>(), z = q[1].get<double>();
        if (!(std::fabs(x) <= kMaxCoordinate) || !(std::fabs(z) <= kMaxCoordinate))  // before any float conversion
            return Status::bad_input(what + ": point " + std::to_string(k) + " is not finite or beyond +-1e6 m");
        if (p.size() >= 2 && p[p.size() - 2] == x && p.back() == z) continue;
        p.push_back(x);
        p.push_back(z);
    }
    if (p.size() >= 4 && p[0] == p[p.size() - 2] && p[1] == p.back()) p.resize(p.size() - 2);
    out.add(p.data(), p.size() / 2);
    return Status::ok();
}

bool on_segment(const double* a, const double* b, const double* c) {  // c on the closed segment a-b (collinear)
    return std::min(a[0], b[0]) <= c[0] && c[0] <= std::max(a[0], b[0]) && std::min(a[1], b[1]) <= c[1] &&
           c[1] <= std::max(a[1], b[1]);
}

bool segments_meet(const double* a, const double* b, const double* c, const double* d) {
    const double o1 = orient2d(a[0], a[1], b[0], b[1], c[0], c[1]);
    const double o2 = orient2d(a[0], a[1], b[0], b[1], d[0], d[1]);
    const double o3 = orient2d(c[0], c[1], d[0], d[1], a[0], a[1]);
    const double o4 = orient2d(c[0], c[1], d[0], d[1], b[0], b[1]);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
    return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) ||
           (o3 == 0 && on_segment(c, d, a)) || (o4 == 0 && on_segment(c, d, b));
}

}  // namespace

std::string ring_self_intersection(const double* p, size_t n) {
    // only edges sharing a grid cell can meet (seg_grid.h); in index order, as all pairs were
    SegGrid grid;
    grid.build_ring(p, n);
    std::vector<uint32_t> cand;
    for (size_t i = 0; i < n; ++i) {
        const double* a = p + 2 * i;
        const double* b = p + 2 * ((i + 1) % n);
        cand.clear();
        grid.near_box(std::min(a[0], b[0]), std::min(a[1], b[1]), std::max(a[0], b[0]), std::max(a[1], b[1]),
                      [&](uint32_t j) {
                          if (j > i) cand.push_back(j);
                      });
        std::sort(cand.begin(), cand.end());
        for (const size_t j : cand) {
            const double* c = p + 2 * j;
            const double* d = p + 2 * ((j + 1) % n);
            const bool next = j == i + 1, prev = i == 0 && j == n - 1;
            if (next || prev) {
                // adjacent edges share one end; they must not fold back onto each other
                const double* shared = next ? b : a;
                const double* other_i = next ? a : b;
                const double* other_j = next ? d : c;
                const double o = orient2d(shared[0], shared[1], other_i[0], other_i[1], other_j[0], other_j[1]);
                const double dot = (other_i[0] - shared[0]) * (other_j[0] - shared[0]) +
                                   (other_i[1] - shared[1]) * (other_j[1] - shared[1]);
                if (o == 0 && dot > 0)
                    return "edges " + std::to_string(i) + " and " + std::to_string(j) + " overlap (the ring folds back)";
                continue;
            }
            if (segments_meet(a, b, c, d))
                return "edges " + std::to_string(i) + " and " + std::to_string(j) + " cross or touch";
        }
    }
    return {};
}

Status validate_map2d(const Map2D& m, const std::string& name) {
    auto check_ring = [&](const double* p, size_t n, const std::string& what) -> Status {
        if (n < 3) return Status::bad_input(name + ": " + what + ": needs at least 3 distinct points, has " + std::to_string(n));
        const double a = ring_area(p, n);
        double ext = 0;
        for (size_t i = 0; i < n; ++i) ext = std::max({ext, std::fabs(p[2 * i]), std::fabs(p[2 * i + 1])});
        const double tiny = 1e-12 * std::max(ext * ext, 1e-300);
        bool collinear = true;  // all points on the line through the first two
        for (size_t i = 2; i < n && collinear; ++i)
            collinear = std::fabs(orient2d(p[0], p[1], p[2], p[3], p[2 * i], p[2 * i + 1])) <= tiny;
        if (collinear) return Status::bad_input(name + ": " + what + " has zero area (all points on one line)");
        const std::string si = ring_self_intersection(p, n);
        if (!si.empty()) return Status::bad_input(name + ": " + what + " is self-intersecting: " + si);
        if (std::fabs(a) <= tiny) return Status::bad_input(name + ": " + what + " has zero area");
        return Status::ok();
    };
    if (m.outline.count() != 1) return Status::bad_input(name + ": outline: expected exactly one ring");
    Status st = check_ring(m.outline.ring(0), m.outline.size(0), "outline");
    if (!st) return st;
    if (!std::isfinite(m.agent_radius) || m.agent_radius < 0)
        return Status::bad_input(name + ": agent_radius must be a finite number >= 0");
    Rings outline = m.outline;
    make_counter_clockwise(outline);
    // an obstacle with a vertex strictly inside the outline overlaps it with positive area; only
    // the others need the clip below (which costs the whole outline per obstacle)
    const double* op = outline.ring(0);
    const size_t on = outline.size(0);
    SegGrid grid;
    grid.build_ring(op, on);
    auto strictly_inside = [&](double x, double z) {
        int w = 0;
        bool on_edge = false;
        grid.ray_right(x, z, [&](uint32_t k) {
            const double *a = op + 2 * k, *b = op + 2 * ((k + 1) % on);
            const double o = orient2d(a[0], a[1], b[0], b[1], x, z);
            if (o == 0 && std::min(a[0], b[0]) <= x && x <= std::max(a[0], b[0]) && std::min(a[1], b[1]) <= z &&
                z <= std::max(a[1], b[1]))
                on_edge = true;
            if (a[1] <= z) {
                if (b[1] > z && o > 0) ++w;
            } else if (b[1] <= z && o < 0) {
                --w;
            }
        });
        return w != 0 && !on_edge;
    };
    for (size_t k = 0; k < m.obstacles.count(); ++k) {
        const std::string what = "obstacle " + std::to_string(k);
        st = check_ring(m.obstacles.ring(k), m.obstacles.size(k), what);
        if (!st) return st;
        bool overlaps = false;
        for (uint32_t i = 0; i < m.obstacles.size(k) && !overlaps; ++i)
            overlaps = strictly_inside(m.obstacles.ring(k)[2 * i], m.obstacles.ring(k)[2 * i + 1]);
        if (overlaps) continue;
        Rings one, inter;
        one.add(m.obstacles.ring(k), m.obstacles.size(k));
        make_counter_clockwise(one);
        st = clip_polygons(one, outline, ClipOp::Intersection, FillRule::NonZero, inter);
        if (!st) return Status::bad_input(name + ": " + what + ": " + st.message);
        if (!(rings_area(inter) > 0)) return Status::bad_input(name + ": " + what + " lies entirely outside the outline");
    }
    return Status::ok();
}

Status parse_map2d_json(const std::string& text, const std::string& name, Map2D& out) {
    out = Map2D{};
    nlohmann::json j;
    if (Status st = parse_json_text(text, name, j); !st) return st;
    if (!j.is_object()) return Status::bad_input(name + ": expected a JSON object with \"outline\"");
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "outline" && it.key() != "obstacles" && it.key() != "agent_radius")
            return Status::bad_input(name + ": unknown key \"" + it.key() + "\" (expected outline, obstacles, agent_radius)");
    if (!j.contains("outline")) return Status::bad_input(name + ": missing \"outline\"");
    Status st = read_ring(j["outline"], name + ": outline", out.outline);
    if (!st) return st;
    if (j.contains("obstacles")) {
        const auto& obs = j["obstacles"];
        if (!obs.is_array()) return Status::bad_input(name + ": obstacles: expected an array of polygons");
        for (size_t k = 0; k < obs.size(); ++k) {
            st = read_ring(obs[k], name + ": obstacle " + std::to_string(k), out.obstacles);
            if (!st) return st;
        }
    }
    if (j.contains("agent_radius")) {
        if (!j["agent_radius"].is_number()) return Status::bad_input(name + ": agent_radius: expected a number");
        out.agent_radius = j["agent_radius"].get<double>();
    }
    st = validate_map2d(out, name);
    if (!st) return st;
    make_counter_clockwise(out.outline);
    make_counter_clockwise(out.obstacles);
    return Status::ok();
}

Status load_map2d(const std::string& path, Map2D& out, uint64_t max_bytes) {
    std::string text;
    if (Status st = read_input_file(path, "2D map JSON file", max_bytes, text); !st) return st;
    return parse_map2d_json(text, path, out);
}

namespace {

// Rounds every point to the grid of spacing g (a power of two), drops the points that land on the
// one before and the rings left with fewer than 3.
void snap_rings(Rings& r, double g) {
    Rings out;
    std::vector<double> p;
    for (size_t k = 0; k < r.count(); ++k) {
        p.clear();
        const double* q = r.ring(k);
        for (uint32_t i = 0; i < r.size(k); ++i) {
            const double x = std::round(q[2 * i] / g) * g, z = std::round(q[2 * i + 1] / g) * g;
            if (!p.empty() && p[p.size() - 2] == x && p.back() == z) continue;
            p.push_back(x);
            p.push_back(z);
        }
        while (p.size() >= 4 && p[0] == p[p.size() - 2] && p[1] == p.back()) p.resize(p.size() - 2);
        if (p.size() >= 6) out.add(p.data(), p.size() / 2);
    }
    r = std::move(out);
}

bool on_grid(const Rings& r, double g) {
    for (double v : r.xz)
        if (std::round(v / g) * g != v) return false;
    return true;
}

}  // namespace

double map2d_grid(const Map2D& m) {
    double s = 0;
    for (double v : m.outline.xz) s = std::max(s, std::fabs(v));
    for (double v : m.obstacles.xz) s = std::max(s, std::fabs(v));
    s = std::max(s + 2 * m.agent_radius, 1e-300);
    int e = 0;
    std::frexp(s, &e);  // s < 2^e
    return std::ldexp(1.0, e - 22);
}

Status build_map2d(const Map2D& m, const Map2DOptions& opt, Map2DResult& out) {
    out = Map2DResult{};
    if (m.outline.count() != 1) return Status::bad_input("map2d: expected exactly one outline ring");
    const double r = opt.inflate ? m.agent_radius : 0.0;
    if (!std::isfinite(r) || r < 0) return Status::bad_input("map2d: agent_radius must be a finite number >= 0");
    {
        // No point of the outline is farther than half its smaller width from its boundary: a
        // radius that large leaves nothing (refused here, before any coordinate grows by it).
        double x0 = HUGE_VAL, z0 = HUGE_VAL, x1 = -HUGE_VAL, z1 = -HUGE_VAL;
        for (size_t i = 0; i < m.outline.size(0); ++i) {
            x0 = std::min(x0, m.outline.ring(0)[2 * i]), x1 = std::max(x1, m.outline.ring(0)[2 * i]);
            z0 = std::min(z0, m.outline.ring(0)[2 * i + 1]), z1 = std::max(z1, m.outline.ring(0)[2 * i + 1]);
        }
        const double w = std::min(x1 - x0, z1 - z0);
        if (r > 0 && r >= 0.5 * w) {
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "map2d: agent_radius %.6g leaves no free space: the outline is %.6g m across at its narrowest, "
                          "no point inside it is farther than %.6g m from its boundary",
                          r, w, 0.5 * w);
            return Status::bad_input(buf);
        }
    }
    // Every stage works on points of one grid tied to the map's scale: spacing g, a power of two
    // with |coordinate| <= 2^22 g. Such points are exact floats (the navmesh stores floats) and
    // their orientation tests are exact in double, so features below g (an agent radius of 1e-9
    // m on a map 10 m across, slivers where inflated obstacles nearly meet) merge instead of
    // breaking the clipper or the CDT, and no polygon turns over when the tile converts to float.
    const double g = map2d_grid(m);
    auto stage_error = [&](const char* stage, const Status& st) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "map2d: %s failed on geometry at the map's resolution (grid %.3g m): ", stage, g);
        return Status::bad_input(buf + st.message);
    };
    Rings outline = m.outline, obstacles = m.obstacles;
    make_counter_clockwise(outline);
    make_counter_clockwise(obstacles);
    snap_rings(outline, g);
    snap_rings(obstacles, g);
    if (outline.count() != 1) return Status::bad_input("map2d: the outline collapses at the map's resolution");
    Rings pieces = obstacles;
    if (r > 0) {
        // The rectangles and corner wedges of one ring overlap their neighbours: united 64 edges
        // at a time first (a small obstacle in one go), so the union of all meets few crossings
        // (as one union of all their pieces, many inflated squares took tens of seconds).
        Rings chunk, part;
        // the band around a ring, 64 edges (and their vertices' wedges) at a time
        auto unite_band = [&](const double* p, uint32_t n) -> Status {
            for (uint32_t i0 = 0; i0 < n; i0 += 64) {
                chunk.clear();
                band_pieces_range(p, n, i0, std::min(n, i0 + 64), r, opt.circle_sides, chunk);
                snap_rings(chunk, g);
                make_counter_clockwise(chunk);
                if (Status st = clip_polygons(chunk, Rings{}, ClipOp::Union, FillRule::NonZero, part); !st)
                    return stage_error("the union of the agent radius' band", st);
                pieces.append(part);
            }
            return Status::ok();
        };
        for (size_t k = 0; k < obstacles.count(); ++k)
            if (Status st = unite_band(obstacles.ring(k), obstacles.size(k)); !st) return st;
        if (Status st = unite_band(outline.ring(0), outline.size(0)); !st) return st;
    }
    snap_rings(pieces, g);  // solid rings counter-clockwise, the holes of united chunks clockwise
    Status st = clip_polygons(pieces, Rings{}, ClipOp::Union, FillRule::NonZero, out.blocked,
                              opt.record ? &out.union_trace : nullptr);
    if (!st) return stage_error("the union of the obstacles", st);
    snap_rings(out.blocked, g);
    st = clip_polygons(outline, out.blocked, ClipOp::Difference, FillRule::NonZero, out.free,
                       opt.record ? &out.clip_trace : nullptr);
    if (!st) return stage_error("clipping the obstacles from the outline", st);
    // Settle the free space on the grid: snapping can make rings cross or fold; their union
    // (positive winding: outer rings counter-clockwise, holes clockwise) resolves that, and is
    // snapped again until no new crossing point appears.
    bool settled = false;
    for (int round = 0; round < 8 && !settled; ++round) {
        snap_rings(out.free, g);
        Rings u;
        st = clip_polygons(out.free, Rings{}, ClipOp::Union, FillRule::Positive, u);
        if (!st) return stage_error("settling the free space on the grid", st);
        settled = on_grid(u, g);
        out.free = std::move(u);
    }
    if (!settled) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "map2d: the free space does not settle on the map's grid of %.3g m (edges nearly touching "
                      "at that resolution)",
                      g);
        return Status::bad_input(buf);
    }
    if (out.free.count() == 0 || !(rings_area(out.free) > 0))
        return Status::bad_input("map2d: no free space left (obstacles and agent radius cover the outline)");
    st = cdt_build(cdt_input_from_rings(out.free), out.cdt, opt.record ? &out.cdt_trace : nullptr);
    if (!st) return st.code == Status::Code::BadInput ? st : stage_error("the triangulation", st);
    return triangles_to_polygons(out.cdt, opt.max_verts, out.mesh);
}

}  // namespace nav::map2d
