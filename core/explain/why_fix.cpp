// find_fix and explain_path: verified fixes for a lost point and for two points that do not
// connect (why.h).
//
// A fix is searched, not guessed: from the parameter's current value the candidates walk in the
// direction that keeps the point (agent_height, agent_radius, region_min_size and edge_max_error
// down; agent_max_climb and agent_max_slope up) in steps a user would type (0.05 m, 1 degree, one
// cell, 0.1 cell). A candidate that derives the same voxel value as the one before it changes
// nothing and is skipped without a bake; the first candidate whose voxel value reaches what the
// story says is needed is baked (the whole level for a solo bake, only the point's tile when
// tiled) and offered only when the point is then on the navmesh. Up to kMaxBakes candidates are
// baked, so a story whose estimate is a cell off still finds its fix.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>

#include "core/explain/why.h"
#include "core/runtime/query.h"

namespace nav {

namespace {

constexpr int kMaxBakes = 4;
constexpr int kMaxGapSamples = 48;

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The value the stages read of parameter id, as derive_config makes it (the voxel value).
double derived_key(const Params& p, ParamId id, const BakeConfig& ref) {
    const BakeConfig c = derive_config(p, ref.bmin, ref.bmax);
    switch (id) {
        case ParamId::agent_height: return c.walkable_height;
        case ParamId::agent_radius: return c.walkable_radius;
        case ParamId::agent_max_climb: return c.walkable_climb;
        case ParamId::agent_max_slope: return c.walkable_slope_deg;
        case ParamId::region_min_size: return c.min_region_area;
        case ParamId::edge_max_error: return c.max_simplification_error;
        case ParamId::filter_ledge: return c.filter_ledge ? 1 : 0;
        case ParamId::filter_low_height: return c.filter_low_height ? 1 : 0;
        default: return p.get(id);
    }
}

// The step a user would type for a parameter, in its own unit.
double param_step(ParamId id) {
    switch (id) {
        case ParamId::agent_height:
        case ParamId::agent_radius:
        case ParamId::agent_max_climb: return 0.05;
        case ParamId::agent_max_slope: return 1.0;
        case ParamId::edge_max_error: return 0.1;
        default: break;
    }
    const ParamDef& d = param_def(id);
    if (d.kind != ParamKind::Float) return 1.0;
    return (d.max - d.min) / 100.0;
}

// Which way a cause's parameter moves to keep the point: -1 down, +1 up.
int fix_direction(const WhyStory& s, double from) {
    switch (s.cause) {
        case WhyCause::LowHeight:
        case WhyCause::Erosion:
        case WhyCause::SmallRegion:
        case WhyCause::Simplified: return -1;
        case WhyCause::Slope:
        case WhyCause::Ledge: return s.decider == ParamId::filter_ledge ? -1 : +1;
        default: break;
    }
    return s.needed < from ? -1 : +1;
}

// The value as a user types it: v rounded to the step, then read back from its shortest text,
// so that `--set param=<printed value>` bakes exactly what was verified.
double nice_value(double v, double step) {
    v = std::round(v / step) * step;
    if (v == 0) v = 0;  // no -0: the value is printed for users to type back
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::strtod(buf, nullptr);
}

std::string fmt_value(ParamId id, double v) {
    const ParamDef& d = param_def(id);
    char buf[64];
    if (d.kind == ParamKind::Bool)
        std::snprintf(buf, sizeof buf, "%s", v != 0 ? "true" : "false");
    else if (d.kind == ParamKind::Int)
        std::snprintf(buf, sizeof buf, "%d", static_cast<int>(v));
    else
        std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string out = buf;
    if (!d.unit.empty() && d.kind == ParamKind::Float) out += " " + std::string(d.unit);
    return out;
}

// A bake of the stages' mesh `mesh` (mesh_* corrections applied) with `params` and `volumes`:
// the whole level, or only tile (tx, tz).
std::shared_ptr<const Bake> bake_with(const InputMesh& mesh, const Params& params,
                                      const std::vector<ConvexVolume>& volumes, int tx, int tz,
                                      const CancelFlag* cancel) {
    BakeInputs in;
    in.params = params;  // the corrections are in the mesh already
    for (const ParamDef& d : param_table())
        if (is_mesh_fix(d.id)) (void)in.params.set(d.id, d.def);
    in.volumes = volumes;
    // One tile or a solo bake: keep its stages, so the story reads every one of them (a lean solo
    // bake drops them). A whole tiled level (a path's fix) keeps only polygons, as a lean bake does:
    // every tile's stages of a large level would not fit, and the path's test needs the polygons only.
    PipelineDef def = default_pipeline_def();
    def.keep_intermediates = tx >= 0 || in.params.i(ParamId::tile_size) <= 0;
    if (tx >= 0) def.only_tiles = {tx, tz, tx, tz};
    Pipeline p(std::move(def));
    if (!p.set_mesh(mesh).ok() || !p.set_inputs(in).ok()) return nullptr;
    if (!p.run(kLastStage, cancel).ok()) return nullptr;
    return p.snapshot();
}

// What a fix changes: walkable area, polygons and islands of the bake (tiled: of the one tile).
void measure(const Bake& b, int tile, double& area, int64_t& polys, int& islands) {
    if (tile >= 0) {
        if (tile >= static_cast<int>(b.tiles.size()) || !b.tiles[tile] || !b.tiles[tile]->polymesh) return;
        const Bake v = tile_view(b, *b.tiles[tile]);
        area = v.walkable_area();
        polys = v.polymesh->npolys;
        return;
    }
    area = b.walkable_area();
    polys = b.polymesh ? b.polymesh->npolys : b.count("polys");
    islands = b.navmesh ? b.navmesh->nislands : -1;
}

// The search of the header's find_fix, with `holds` deciding whether a verification bake fixed it.
// whole: bake the whole level even when tiled (a path needs the assembled navmesh).
std::optional<WhyFix> search_fix(const Bake& bake, const WhyStory& story, bool whole,
                                 const std::function<bool(const Bake&)>& holds, const CancelFlag* cancel) {
    if (!bake.mesh) return std::nullopt;
    const InputMesh& mesh = *bake.mesh;
    const Clock::time_point t0 = Clock::now();
    int tx = -1, tz = -1, tile = -1;
    if (bake.tiled() && !whole && story.tile_x >= 0) {
        tx = story.tile_x;
        tz = story.tile_z;
        tile = tx + tz * bake.layout.cols;
    }
    WhyFix fix;
    auto verify = [&](const Params& p, const std::vector<ConvexVolume>& vols) -> bool {
        if (is_cancelled(cancel)) return false;
        ++fix.bakes;
        std::shared_ptr<const Bake> b = bake_with(mesh, p, vols, tx, tz, cancel);
        if (!b || !holds(*b)) return false;
        measure(bake, tile, fix.effects.area_before, fix.effects.polys_before, fix.effects.islands_before);
        measure(*b, tile, fix.effects.area_after, fix.effects.polys_after, fix.effects.islands_after);
        if (tile >= 0) fix.effects.tiles = {tile};
        return true;
    };

    if (story.cause == WhyCause::Volume && story.volume >= 0 &&
        story.volume < static_cast<int>(bake.inputs.volumes.size())) {
        std::vector<ConvexVolume> vols = bake.inputs.volumes;
        vols.erase(vols.begin() + story.volume);
        fix.remove_volume = story.volume;
        fix.from = static_cast<double>(bake.inputs.volumes.size());
        fix.to = static_cast<double>(vols.size());
        char buf[96];
        std::snprintf(buf, sizeof buf, "remove convex volume %d (%s)", story.volume,
                      std::string(area_name(bake.inputs.volumes[story.volume].area)).c_str());
        fix.text = buf;
        fix.verified = verify(bake.inputs.params, vols);
        fix.ms = ms_since(t0);
        if (!fix.verified) return std::nullopt;
        return fix;
    }
    if (!story.decider) return std::nullopt;

    const ParamId id = *story.decider;
    const ParamDef& def = param_def(id);
    const double from = bake.inputs.params.get(id);
    const int dir = fix_direction(story, from);
    const double step = param_step(id);
    const double key_from = derived_key(bake.inputs.params, id, bake.config);
    Params target = bake.inputs.params;
    double key_needed = key_from;
    if (def.kind != ParamKind::Bool && target.set(id, std::clamp(story.needed, def.min, def.max)).ok())
        key_needed = derived_key(target, id, bake.config);

    double prev_key = key_from;
    std::vector<double> candidates;
    if (def.kind == ParamKind::Bool) {
        candidates.push_back(dir < 0 ? 0.0 : 1.0);
    } else {
        for (int k = 1; k <= 2000; ++k) {
            const double v = nice_value(from + dir * k * step, step);
            if (v < def.min - 1e-9 || v > def.max + 1e-9) break;
            Params p = bake.inputs.params;
            if (!p.set(id, v).ok()) continue;
            const double key = derived_key(p, id, bake.config);
            if (key == prev_key) continue;  // the same voxel value: changes nothing
            prev_key = key;
            const bool reached = dir < 0 ? key <= key_needed : key >= key_needed;
            if (!reached) continue;
            candidates.push_back(v);
            if (static_cast<int>(candidates.size()) >= kMaxBakes) break;
        }
    }
    for (double v : candidates) {
        Params p = bake.inputs.params;
        if (!p.set(id, v).ok()) continue;
        if (verify(p, bake.inputs.volumes)) {
            fix.param = id;
            fix.from = from;
            fix.to = v;
            fix.verified = true;
            fix.text = std::string(def.name) + " " + fmt_value(id, from) + " -> " + fmt_value(id, v);
            fix.ms = ms_since(t0);
            return fix;
        }
        if (is_cancelled(cancel)) break;
    }
    return std::nullopt;
}

// Closest points between segments p0-p1 and q0-q1 (3D); returns the squared distance.
float closest_segments(const float* p0, const float* p1, const float* q0, const float* q1, float* a, float* b) {
    float d1[3], d2[3], r[3];
    for (int i = 0; i < 3; ++i) {
        d1[i] = p1[i] - p0[i];
        d2[i] = q1[i] - q0[i];
        r[i] = p0[i] - q0[i];
    }
    auto dot = [](const float* u, const float* v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; };
    const float aa = dot(d1, d1), ee = dot(d2, d2), ff = dot(d2, r);
    float s = 0, t = 0;
    const float eps = 1e-12f;
    if (aa <= eps && ee <= eps) {
        s = t = 0;
    } else if (aa <= eps) {
        t = std::clamp(ff / ee, 0.0f, 1.0f);
    } else {
        const float c = dot(d1, r);
        if (ee <= eps) {
            s = std::clamp(-c / aa, 0.0f, 1.0f);
        } else {
            const float bb = dot(d1, d2);
            const float denom = aa * ee - bb * bb;
            s = denom > eps ? std::clamp((bb * ff - c * ee) / denom, 0.0f, 1.0f) : 0.0f;
            t = (bb * s + ff) / ee;
            if (t < 0) {
                t = 0;
                s = std::clamp(-c / aa, 0.0f, 1.0f);
            } else if (t > 1) {
                t = 1;
                s = std::clamp((bb - c) / aa, 0.0f, 1.0f);
            }
        }
    }
    float d2sum = 0;
    for (int i = 0; i < 3; ++i) {
        a[i] = p0[i] + d1[i] * s;
        b[i] = q0[i] + d2[i] * t;
        d2sum += (a[i] - b[i]) * (a[i] - b[i]);
    }
    return d2sum;
}

// The closest pair of points on the boundaries (edges without a neighbour) of islands ia and ib.
// Pairs within 1 cm of the closest are ties (a straight step along a wall is as close everywhere):
// the one whose middle is nearest `near` (the middle of the path asked for) wins. B's edges are
// sorted by their lowest x, so each edge of A looks only at those whose x range comes within the
// best distance found so far; polls cancel (false when cancelled).
bool island_gap(const NavMesh& nm, int ia, int ib, const float* near, float* ga, float* gb, const CancelFlag* cancel) {
    struct Edge {
        float p0[3], p1[3];
        float xmin, xmax;
    };
    std::vector<Edge> ea, eb;
    for (uint32_t e = 0; e < static_cast<uint32_t>(nm.nedges); ++e) {
        if (nm.edge_nei[e] != kNoPoly) continue;
        const int isl = static_cast<int>(nm.poly_island[nm.edge_poly[e]]);
        if (isl != ia && isl != ib) continue;
        Edge E;
        nm.edge_points(e, E.p0, E.p1);
        E.xmin = std::min(E.p0[0], E.p1[0]);
        E.xmax = std::max(E.p0[0], E.p1[0]);
        (isl == ia ? ea : eb).push_back(E);
    }
    std::sort(eb.begin(), eb.end(), [](const Edge& a, const Edge& b) { return a.xmin < b.xmin; });
    constexpr float kTie = 0.01f;
    float best = std::numeric_limits<float>::infinity(), best_near = best;
    float a[3], b[3];
    size_t polled = 0;
    for (const Edge& A : ea) {
        if ((++polled & 255) == 0 && is_cancelled(cancel)) return false;
        const float reach = best + kTie;
        // B edges with xmin <= A.xmax + reach; of those, skip the ones ending before A.xmin - reach
        const auto last = std::upper_bound(eb.begin(), eb.end(), A.xmax + reach,
                                           [](float x, const Edge& e) { return x < e.xmin; });
        for (auto it = eb.begin(); it != last; ++it) {
            if (it->xmax < A.xmin - reach) continue;
            const float d = std::sqrt(closest_segments(A.p0, A.p1, it->p0, it->p1, a, b));
            if (d > best + kTie) continue;
            float dn = 0;
            for (int i = 0; i < 3; ++i) dn += (0.5f * (a[i] + b[i]) - near[i]) * (0.5f * (a[i] + b[i]) - near[i]);
            if (d < best - kTie || dn < best_near) {
                best = std::min(best, d);
                best_near = dn;
                std::copy(a, a + 3, ga);
                std::copy(b, b + 3, gb);
            }
        }
    }
    return std::isfinite(best);
}

// The test of a path's fix: both ends on the navmesh, on one island.
std::function<bool(const Bake&)> joined(const float* start, const float* end) {
    const std::array<float, 3> s0 = {start[0], start[1], start[2]}, e0 = {end[0], end[1], end[2]};
    return [s0, e0](const Bake& b) {
        int ia = -1, ib = -1;
        return point_on_navmesh(b, s0.data(), nullptr, &ia) && point_on_navmesh(b, e0.data(), nullptr, &ib) && ia >= 0 &&
               ia == ib;
    };
}

// The length (xz) of the A* + funnel path from a to b on the bake's navmesh, -1 when it does not reach.
float route_length(const Bake& b, const float* a, const float* e) {
    if (!b.navmesh) return -1;
    NavQuery q;
    q.init(b.navmesh.get());
    Route r;
    const float ext[3] = {b.config.cs * 2, std::max(b.inputs.params.f(ParamId::agent_max_climb), b.config.ch), b.config.cs * 2};
    if (!q.find_route(a, e, ext, QueryFilter{}, RouteOptions{}, r).ok() || !r.found() || !r.path.reached) return -1;
    return static_cast<float>(r.length_xz());
}

// The story of segment a-b: sampled every half cell (at most kMaxGapSamples), the lost sample kept is
// the one with a fix to search (a decider or a volume) lost earliest in the pipeline, nearest the
// middle on ties. y of the samples: the higher end (top, a gap between floors) or interpolated.
// Returns the sample's parameter along the segment, -1 when no sample is lost.
float pick_story(const Bake& bake, const float* a, const float* b, bool top, WhyStory& out) {
    const float cs = bake.config.cs > 0 ? bake.config.cs : 0.3f;
    const float len = std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[2] - a[2]) * (b[2] - a[2]));
    const int n = std::clamp(static_cast<int>(std::ceil(len / (0.5f * cs))) + 1, 2, kMaxGapSamples);
    auto rank = [](const WhyStory& s) {
        const bool fixable = s.decider.has_value() || s.volume >= 0;
        return std::make_pair(fixable ? 0 : 1, s.lost_at ? static_cast<int>(*s.lost_at) : kStageCount);
    };
    float best_t = -1, best_mid = 0;
    for (int k = 0; k < n; ++k) {
        const float t = static_cast<float>(k) / static_cast<float>(n - 1);
        const float p[3] = {a[0] + (b[0] - a[0]) * t, top ? std::max(a[1], b[1]) : a[1] + (b[1] - a[1]) * t,
                            a[2] + (b[2] - a[2]) * t};
        WhyStory s = explain_point(bake, p);
        if (s.on_navmesh || !s.lost_at) continue;
        const float mid = std::fabs(t - 0.5f);
        if (best_t < 0 || rank(s) < rank(out) || (rank(s) == rank(out) && mid < best_mid)) {
            out = std::move(s);
            best_mid = mid;
            best_t = t;
        }
    }
    return best_t;
}

}  // namespace

std::optional<WhyFix> find_fix(const Bake& bake, const WhyStory& story, const CancelFlag* cancel) {
    if (story.on_navmesh) return std::nullopt;
    const float* pt = story.point;
    return search_fix(bake, story, false,
                      [pt](const Bake& b) { return point_on_navmesh(b, pt); }, cancel);
}

void apply_why_fix(const WhyFix& fix, Params& p, std::vector<ConvexVolume>& volumes) {
    if (fix.remove_volume >= 0) {
        if (fix.remove_volume < static_cast<int>(volumes.size())) volumes.erase(volumes.begin() + fix.remove_volume);
        return;
    }
    if (fix.param) (void)p.set(*fix.param, fix.to);
}

WhyPath explain_path(const Bake& bake, const float* start, const float* end, bool want_fix,
                     const CancelFlag* cancel) {
    WhyPath out;
    out.start_story = explain_point(bake, start);
    out.end_story = explain_point(bake, end);
    const bool s_on = out.start_story.on_navmesh, e_on = out.end_story.on_navmesh;
    if (s_on) out.island_start = out.start_story.island;
    if (e_on) out.island_end = out.end_story.island;
    if (!s_on || !e_on || !bake.navmesh) {
        // An end off the navmesh: its own story is the answer (the start's first), and its fix is
        // verified on the path: both ends then on one island. Without an assembled navmesh (a bake
        // stopped early) the stories say which stage is missing.
        if (want_fix && bake.navmesh) {
            const WhyStory& lost = !s_on ? out.start_story : out.end_story;
            out.fix = search_fix(bake, lost, true, joined(start, end), cancel);
        }
        return out;
    }
    const NavMesh& nm = *bake.navmesh;
    out.straight_length = std::sqrt((end[0] - start[0]) * (end[0] - start[0]) + (end[2] - start[2]) * (end[2] - start[2]));
    float path_len = 0;
    if (out.island_start == out.island_end) {
        path_len = route_length(bake, start, end);
        out.reached = path_len >= 0;
        out.partial = !out.reached;
        if (out.reached) out.path_length = path_len;
    } else {
        out.partial = true;
    }
    if (out.reached) {
        // A detour: the straight line's story.
        if (out.straight_length < 2 * bake.config.cs || out.path_length <= WhyPath::kDetourRatio * out.straight_length)
            return out;
        const float t = pick_story(bake, start, end, false, out.gap_story);
        if (t < 0) return out;
        out.detour = true;
        for (int i = 0; i < 3; ++i) out.detour_point[i] = start[i] + (end[i] - start[i]) * t;
        if (!want_fix) return out;
        const float s0[3] = {start[0], start[1], start[2]}, e0[3] = {end[0], end[1], end[2]};
        const float limit = 0.9f * out.path_length;
        out.fix = search_fix(bake, out.gap_story, true,
                             [s0, e0, limit](const Bake& b) {
                                 const float len = route_length(b, s0, e0);
                                 return len >= 0 && len < limit;
                             },
                             cancel);
        return out;
    }
    if (out.island_start == out.island_end) return out;  // one island, blocked by flags: no gap to explain

    const float mid[3] = {0.5f * (start[0] + end[0]), 0.5f * (start[1] + end[1]), 0.5f * (start[2] + end[2])};
    out.has_gap = island_gap(nm, out.island_start, out.island_end, mid, out.gap_a, out.gap_b, cancel);
    if (!out.has_gap) return out;
    float d2 = 0;
    for (int i = 0; i < 3; ++i) d2 += (out.gap_a[i] - out.gap_b[i]) * (out.gap_a[i] - out.gap_b[i]);
    out.gap_length = std::sqrt(d2);
    if (pick_story(bake, out.gap_a, out.gap_b, true, out.gap_story) < 0 || !want_fix) return out;
    const float s0[3] = {start[0], start[1], start[2]}, e0[3] = {end[0], end[1], end[2]};
    out.fix = search_fix(bake, out.gap_story, true, joined(s0, e0), cancel);
    return out;
}

}  // namespace nav
