// Differential tests of the path queries (core/navmesh, core/query) against Detour 1.5.1, and
// properties of our paths, on the shared benchmark meshes with default parameters (watershed).
//
// Each side builds its own navmesh from its own bake: Recast's polygon + detail mesh go to
// dtCreateNavMeshData / dtNavMesh (one tile) / dtNavMeshQuery (2048 nodes); our stages (as
// recast_ref.h runs them) go to nav::build_navmesh / nav::NavQuery (default node limit). The
// query pairs are kPairs random points on OUR navmesh (NavQuery::random_point, fixed seed), so
// every point lies on our mesh and, the walkable surfaces agreeing, within the half extents of
// Recast's. Route = nearest polygon of both points (half extents 2, 4, 2), A*, funnel
// (detour_ref.h).
//
// Tolerances (the issue's):
//  - the same reached / not-reached verdict on at least 97% of the pairs;
//  - over the pairs both reach, our straight path at most 2% longer than Detour's on average (mean
//    of ours / Detour over pairs whose Detour path is at least kMinRatioLength long: below that,
//    the two meshes' different polygon outlines dominate the ratio).
// The distribution of the ratio (mean, p50, p90, p99, max) is reported. The two navmeshes need not
// be the same (test_diff_mesh.cpp states how far our bake may differ from Recast's; Recast's detail
// heights also sit one ch higher), so neither the verdicts nor the lengths need agree exactly; a
// second test runs our queries on Recast's own polygons, where the nearest polygons must match
// and the verdicts agree more closely (kSameMesh* tolerances).
//
// Properties of our routes on the same pairs (and on those of a scene built here):
//  - the straight path starts at the start's nearest point and ends at the end's nearest point
//    when reached; when partial it ends at the point of the corridor's last polygon nearest (xz)
//    to the end's nearest point (computed here independently of the funnel);
//  - every segment stays inside the corridor's polygons in xz: points every kSampleStep along it
//    each lie inside some corridor polygon within kInsideEps;
//  - its xz length is at most the xz length of the path through the corridor's portal midpoints
//    (+ kLengthEps). The funnel is the shortest path in xz through the portals, so this holds
//    exactly; in 3D it need not (the corners take the height of the portal ends, the midpoint path
//    that of the midpoints), so 3D violations are reported, not asserted.
// Bad input: NaN coordinates give BadInput and no path; polygons out of range give BadInput; a
// pair on two disconnected islands gives a partial path (Detour's verdict too); a node limit too
// small gives a partial path flagged out of nodes (Detour's too, with a pool that small). These
// run on a scene built here, as does a check that the property checks do catch broken paths (a
// corner moved off the corridor, a missing end vertex, a path lengthened inside the corridor).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "diff/detour_ref.h"
#include "diff/recast_ref.h"
#include "test_scenes.h"

namespace {

constexpr int kPairs = 500;
constexpr uint64_t kPairSeed = 0x5041544853ull;  // fixed: the same pairs on every run
constexpr double kVerdictAgreement = 0.97;
constexpr double kMaxMeanLengthRatio = 1.02;
constexpr float kMinRatioLength = 1.0f;          // metres
constexpr double kSameMeshNearest = 0.99;        // same nearest polygon, on Recast's polygons
constexpr double kSameMeshVerdict = 0.99;
constexpr float kSampleStep = 0.05f;             // metres between segment samples
constexpr float kInsideEps = 0.01f;              // metres
constexpr float kEndEps = 1e-3f;                 // metres, straight-path ends vs expected points
constexpr float kLengthEps = 1e-3f;              // metres (plus 1e-5 relative)
// A node limit too small for the zig-zag walk, on both sides. (Detour's pool sizes its hash table
// maxNodes / 4 rounded to a power of two: below 4 nodes that is 0 slots and findPath crashes.)
constexpr int kTinyNodes = 4;

// Both bakes of one mesh (default parameters, watershed) and the navmeshes built from them.
struct Bakes {
    nav::InputMesh mesh;
    nav::BakeConfig cfg;
    navdiff::RecastVoxels rv;
    navdiff::OurVoxels ov;
    navdiff::DetourMesh detour;
    nav::NavMesh ours;
};

constexpr int kPart = static_cast<int>(nav::Partition::Watershed);

// Bakes `mesh` (already loaded) on both sides and builds both navmeshes.
void bake_both(Bakes& b, int detour_nodes = navdiff::kDetourNodes) {
    b.cfg = nav::derive_config(nav::Params{}, b.mesh.bmin, b.mesh.bmax);
    REQUIRE(b.cfg.partition == nav::Partition::Watershed);
    const unsigned bit = navdiff::partition_bit(nav::Partition::Watershed);
    const navdiff::VoxelRun r = navdiff::run_recast(b.mesh, b.cfg, b.rv, bit);
    REQUIRE_MESSAGE(r.ok, r.error);
    const navdiff::VoxelRun o = navdiff::run_ours(b.mesh, b.cfg, b.ov, bit);
    REQUIRE_MESSAGE(o.ok, o.error);
    std::string err;
    REQUIRE_MESSAGE(navdiff::build_detour(*b.rv.pmesh[kPart], *b.rv.dmesh[kPart], b.cfg, b.detour, err, detour_nodes),
                    err);
    const nav::Status s = nav::build_navmesh(b.ov.pmesh[kPart], b.ov.dmesh[kPart], b.ours);
    REQUIRE_MESSAGE(s.is_ok(), s.message);
    REQUIRE(b.ours.npolys > 0);
}

bool load_shared(const char* file_name, Bakes& b) {
    const std::string path = navtest::shared_mesh_or_skip(file_name);
    if (path.empty()) return false;
    const nav::Status ls = navdiff::load_mesh(path, b.mesh);
    REQUIRE_MESSAGE(ls.is_ok(), ls.message);
    bake_both(b);
    return true;
}

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const double pos = q * static_cast<double>(v.size() - 1);
    const size_t i = static_cast<size_t>(pos);
    const double f = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1.0 - f) + v[i + 1] * f : v[i];
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

float dist_xz(const float* a, const float* b) { return std::hypot(a[0] - b[0], a[2] - b[2]); }

// Agreement of two sides' answers over the same pairs.
struct Agreement {
    int pairs = 0;
    int ours_found[2] = {0, 0}, detour_found[2] = {0, 0};  // nearest polygon found, start / end
    int same_nearest_poly = 0;                             // over points both found (same mesh only)
    int both_found_points = 0;
    std::vector<double> nearest_xz;                        // |ours - Detour| nearest point, xz, metres
    int verdict_same = 0, both_reached = 0, ours_only = 0, detour_only = 0;
    int errors = 0;                                        // error statuses, either side
    std::vector<double> ratios;                            // ours / Detour length, both reached
    double ours_total = 0, detour_total = 0;               // summed lengths, both reached
    int short_pairs = 0;                                   // both reached, Detour length < kMinRatioLength
};

Agreement compare_routes(navdiff::DetourMesh& dt, nav::NavQuery& q, const std::vector<float>& pts) {
    Agreement a;
    navdiff::DetourRoutes droutes(dt);
    nav::Route route;
    const nav::QueryFilter filter;
    const nav::StraightPathOptions opts;
    navdiff::RouteOutcome d, o;
    a.pairs = static_cast<int>(pts.size() / 6);
    for (int i = 0; i < a.pairs; ++i) {
        const float* s = &pts[static_cast<size_t>(i) * 6];
        const float* e = s + 3;
        droutes.route(s, e, &d);
        const nav::Status st = q.find_route(s, e, navdiff::kHalfExtents, filter, opts, route);
        navdiff::our_outcome(st, route, o);
        a.errors += !d.ok + !o.ok;
        a.ours_found[0] += o.start_found;
        a.ours_found[1] += o.end_found;
        a.detour_found[0] += d.start_found;
        a.detour_found[1] += d.end_found;
        if (o.start_found && d.start_found) {
            ++a.both_found_points;
            a.same_nearest_poly += o.start_poly == d.start_poly;
            a.nearest_xz.push_back(dist_xz(o.start, d.start));
        }
        if (o.end_found && d.end_found) {
            ++a.both_found_points;
            a.same_nearest_poly += o.end_poly == d.end_poly;
            a.nearest_xz.push_back(dist_xz(o.end, d.end));
        }
        a.verdict_same += o.reached == d.reached;
        a.ours_only += o.reached && !d.reached;
        a.detour_only += d.reached && !o.reached;
        if (o.reached && d.reached) {
            ++a.both_reached;
            a.ours_total += o.length;
            a.detour_total += d.length;
            if (d.length >= kMinRatioLength)
                a.ratios.push_back(static_cast<double>(o.length) / d.length);
            else
                ++a.short_pairs;
        }
    }
    return a;
}

std::string agreement_report(const Agreement& a) {
    char buf[900];
    std::snprintf(buf, sizeof buf,
                  "  pairs %d; nearest polygon found: ours %d + %d, Detour %d + %d (start + end of %d each);\n"
                  "  nearest points |ours - Detour| in xz: p50 %.4f m, p99 %.4f m, max %.4f m\n"
                  "  verdict agrees on %d of %d (%.1f%%): both reached %d, only ours %d, only Detour %d; errors %d\n"
                  "  length ours / Detour over %d pairs both reach (Detour >= %.1f m; %d shorter left out):\n"
                  "    mean %.4f, p50 %.4f, p90 %.4f, p99 %.4f, max %.4f, min %.4f; total %.1f m / %.1f m = %.4f\n",
                  a.pairs, a.ours_found[0], a.ours_found[1], a.detour_found[0], a.detour_found[1], a.pairs,
                  quantile(a.nearest_xz, 0.5), quantile(a.nearest_xz, 0.99), quantile(a.nearest_xz, 1.0),
                  a.verdict_same, a.pairs, 100.0 * a.verdict_same / std::max(a.pairs, 1), a.both_reached, a.ours_only,
                  a.detour_only, a.errors, static_cast<int>(a.ratios.size()), static_cast<double>(kMinRatioLength),
                  a.short_pairs, mean(a.ratios), quantile(a.ratios, 0.5), quantile(a.ratios, 0.9),
                  quantile(a.ratios, 0.99), quantile(a.ratios, 1.0), quantile(a.ratios, 0.0), a.ours_total,
                  a.detour_total, a.detour_total > 0 ? a.ours_total / a.detour_total : 0.0);
    return buf;
}

// Detour on Recast's mesh against ours on ours.
void diff_paths(const char* file_name) {
    const std::string file = file_name;
    Bakes b;
    if (!load_shared(file_name, b)) return;
    INFO("mesh " << file << ", default parameters, watershed");
    nav::NavQuery q;
    q.init(&b.ours);
    std::vector<float> pts;
    REQUIRE(navdiff::make_pairs(q, kPairSeed, kPairs, pts));
    const Agreement a = compare_routes(b.detour, q, pts);
    MESSAGE(file << ": Detour on Recast's polygons (" << b.detour.poly_count() << ") vs ours on ours ("
                 << b.ours.npolys << "), random points on ours, seed " << kPairSeed << "\n"
                 << agreement_report(a));
    INFO(agreement_report(a));
    CHECK(a.errors == 0);
    // Every point lies on our mesh: ours always finds its polygon.
    CHECK(a.ours_found[0] == a.pairs);
    CHECK(a.ours_found[1] == a.pairs);
    CHECK(a.verdict_same >= kVerdictAgreement * a.pairs);
    REQUIRE(!a.ratios.empty());
    CHECK(mean(a.ratios) <= kMaxMeanLengthRatio);
}

// Our queries on Recast's own polygons against Detour: the same mesh, so the nearest polygons
// must match and the verdicts agree.
void diff_paths_same_mesh(const char* file_name) {
    const std::string file = file_name;
    Bakes b;
    if (!load_shared(file_name, b)) return;
    INFO("mesh " << file << ", default parameters, watershed, Recast's polygons on both sides");
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    navdiff::to_nav_meshes(*b.rv.pmesh[kPart], *b.rv.dmesh[kPart], pm, dm);
    nav::NavMesh nm;
    const nav::Status s = nav::build_navmesh(pm, dm, nm);
    REQUIRE_MESSAGE(s.is_ok(), s.message);
    REQUIRE(nm.npolys == b.detour.poly_count());
    nav::NavQuery q;
    q.init(&nm);
    std::vector<float> pts;
    REQUIRE(navdiff::make_pairs(q, kPairSeed, kPairs, pts));
    const Agreement a = compare_routes(b.detour, q, pts);
    MESSAGE(file << ": Detour and ours on Recast's polygons (" << nm.npolys << "); same nearest polygon on "
                 << a.same_nearest_poly << " of " << a.both_found_points << " points\n"
                 << agreement_report(a));
    INFO(agreement_report(a));
    CHECK(a.errors == 0);
    CHECK(a.ours_found[0] == a.pairs);
    CHECK(a.ours_found[1] == a.pairs);
    CHECK(a.detour_found[0] == a.pairs);
    CHECK(a.detour_found[1] == a.pairs);
    CHECK(a.same_nearest_poly >= kSameMeshNearest * a.both_found_points);
    CHECK(a.verdict_same >= kSameMeshVerdict * a.pairs);
    REQUIRE(!a.ratios.empty());
    CHECK(mean(a.ratios) <= kMaxMeanLengthRatio);
}

// ---------------------------------------------------------------------------------------------
// Properties of our routes.

// Signed distance (metres, positive inside) of (x, z) from polygon p's outline, taken as the
// smallest distance to the lines of its edges: exact inside, an underestimate of the true
// outside distance near corners (so "within eps" is checked slightly generously there).
float inside_margin_xz(const nav::NavMesh& nm, uint32_t p, float x, float z) {
    const uint32_t e0 = nm.poly_first[p], e1 = nm.poly_first[p + 1];
    double a2 = 0;
    for (uint32_t e = e0; e < e1; ++e) {
        const float* a = nm.vert(nm.edge_vert[e]);
        const float* c = nm.vert(nm.edge_vert[nm.next_edge(e)]);
        a2 += static_cast<double>(a[0]) * c[2] - static_cast<double>(c[0]) * a[2];
    }
    const float sign = a2 >= 0 ? 1.0f : -1.0f;
    float margin = std::numeric_limits<float>::max();
    for (uint32_t e = e0; e < e1; ++e) {
        const float* a = nm.vert(nm.edge_vert[e]);
        const float* c = nm.vert(nm.edge_vert[nm.next_edge(e)]);
        const float ex = c[0] - a[0], ez = c[2] - a[2];
        const float len = std::hypot(ex, ez);
        if (len <= 0) continue;
        const float cross = ex * (z - a[2]) - ez * (x - a[0]);
        margin = std::min(margin, sign * cross / len);
    }
    return margin;
}

// The point of polygon p nearest (xz) to (x, z): itself when inside, else on the nearest edge.
void closest_in_poly_xz(const nav::NavMesh& nm, uint32_t p, float x, float z, float& cx, float& cz) {
    if (inside_margin_xz(nm, p, x, z) >= 0) {
        cx = x;
        cz = z;
        return;
    }
    float best = std::numeric_limits<float>::max();
    for (uint32_t e = nm.poly_first[p]; e < nm.poly_first[p + 1]; ++e) {
        const float* a = nm.vert(nm.edge_vert[e]);
        const float* c = nm.vert(nm.edge_vert[nm.next_edge(e)]);
        const float ex = c[0] - a[0], ez = c[2] - a[2];
        const float l2 = ex * ex + ez * ez;
        const float t = l2 > 0 ? std::clamp(((x - a[0]) * ex + (z - a[2]) * ez) / l2, 0.0f, 1.0f) : 0.0f;
        const float px = a[0] + t * ex, pz = a[2] + t * ez;
        const float d = (px - x) * (px - x) + (pz - z) * (pz - z);
        if (d < best) {
            best = d;
            cx = px;
            cz = pz;
        }
    }
}

// Lengths (xz and 3D) of the path from `start` through the midpoints of the corridor's portals
// to `end`. False when two consecutive corridor polygons are not adjacent.
bool midpoint_path_length(const nav::NavMesh& nm, const std::vector<nav::PolyRef>& cor, const float* start,
                          const float* end, double& xz, double& d3) {
    xz = 0;
    d3 = 0;
    float pos[3] = {start[0], start[1], start[2]};
    for (size_t i = 0; i + 1 < cor.size(); ++i) {
        const uint32_t e = nm.find_edge(nm.poly_index(cor[i]), nm.poly_index(cor[i + 1]));
        if (e == nav::kNoEdge) return false;
        float l[3], r[3], m[3];
        nm.edge_points(e, l, r);
        for (int k = 0; k < 3; ++k) m[k] = 0.5f * (l[k] + r[k]);
        xz += dist_xz(pos, m);
        d3 += dtVdist(pos, m);
        dtVcopy(pos, m);
    }
    xz += dist_xz(pos, end);
    d3 += dtVdist(pos, end);
    return true;
}

// Violations of the route properties over a set of pairs.
struct PathChecks {
    int routes = 0, reached = 0, partial = 0;
    int bad_status = 0;
    int bad_start = 0, bad_end = 0;      // straight path does not start / end where it must
    int bad_flags = 0;                   // first vertex not flagged start, last not flagged end
    int outside_samples = 0;             // segment samples outside every corridor polygon
    int64_t samples = 0;
    int longer_xz = 0;                   // xz length beyond the midpoint path's (+ eps)
    int longer_3d = 0;                   // the same in 3D (reported)
    double max_excess_xz = -std::numeric_limits<double>::infinity();  // largest xz length - midpoint path's
    std::string first_failure;
};

void note(PathChecks& c, int pair, const char* what) {
    if (!c.first_failure.empty()) return;
    char buf[120];
    std::snprintf(buf, sizeof buf, "pair %d: %s", pair, what);
    c.first_failure = buf;
}

void check_route(const nav::NavMesh& nm, const nav::Route& r, int pair, PathChecks& c) {
    if (!r.found()) return;
    ++c.routes;
    (r.path.reached ? c.reached : c.partial) += 1;
    const nav::StraightPath& sp = r.straight;
    const int n = sp.size();
    if (n == 0) {
        ++c.bad_end;
        note(c, pair, "empty straight path");
        return;
    }
    const float* first = &sp.points[0];
    const float* last = &sp.points[static_cast<size_t>(n - 1) * 3];
    if (dtVdist(first, r.start.point) > kEndEps) {
        ++c.bad_start;
        note(c, pair, "straight path does not start at the start point");
    }
    if (r.path.reached) {
        if (dtVdist(last, r.end.point) > kEndEps) {
            ++c.bad_end;
            note(c, pair, "reached, but the straight path does not end at the end point");
        }
    } else {
        float cx = 0, cz = 0;
        closest_in_poly_xz(nm, nm.poly_index(r.path.polys.back()), r.end.point[0], r.end.point[2], cx, cz);
        if (std::hypot(last[0] - cx, last[2] - cz) > kEndEps) {
            ++c.bad_end;
            note(c, pair, "partial, but the straight path does not end at the clamped end point");
        }
    }
    // A single vertex (start and end coincide) carries the end flag only.
    if (!(sp.flags.back() & nav::kStraightEnd) || (n > 1 && !(sp.flags.front() & nav::kStraightStart))) {
        ++c.bad_flags;
        note(c, pair, "start / end flags");
    }

    // Segments inside the corridor, sampled.
    const std::vector<nav::PolyRef>& cor = r.path.polys;
    size_t hint = 0;
    for (int k = 0; k + 1 < n; ++k) {
        const float* a = &sp.points[static_cast<size_t>(k) * 3];
        const float* b = a + 3;
        const int steps = std::max(1, static_cast<int>(std::ceil(dist_xz(a, b) / kSampleStep)));
        for (int j = 0; j <= steps; ++j) {
            const float t = static_cast<float>(j) / static_cast<float>(steps);
            const float x = a[0] + t * (b[0] - a[0]), z = a[2] + t * (b[2] - a[2]);
            ++c.samples;
            bool inside = inside_margin_xz(nm, nm.poly_index(cor[hint]), x, z) >= -kInsideEps;
            for (size_t m = 0; m < cor.size() && !inside; ++m) {
                if (inside_margin_xz(nm, nm.poly_index(cor[m]), x, z) >= -kInsideEps) {
                    inside = true;
                    hint = m;
                }
            }
            if (!inside) {
                ++c.outside_samples;
                note(c, pair, "a straight-path segment leaves the corridor");
            }
        }
    }

    // Against the path through the portal midpoints, from the start point to the path's end.
    double mid_xz = 0, mid_3d = 0;
    if (!midpoint_path_length(nm, cor, first, last, mid_xz, mid_3d)) {
        note(c, pair, "corridor polygons not adjacent");
        ++c.bad_end;
        return;
    }
    double len_xz = 0, len_3d = 0;
    for (int k = 1; k < n; ++k) {
        len_xz += dist_xz(&sp.points[static_cast<size_t>(k - 1) * 3], &sp.points[static_cast<size_t>(k) * 3]);
        len_3d += dtVdist(&sp.points[static_cast<size_t>(k - 1) * 3], &sp.points[static_cast<size_t>(k) * 3]);
    }
    c.max_excess_xz = std::max(c.max_excess_xz, len_xz - mid_xz);
    if (len_xz > mid_xz * (1 + 1e-5) + kLengthEps) {
        ++c.longer_xz;
        note(c, pair, "straight path longer (xz) than the portal-midpoint path");
    }
    if (len_3d > mid_3d * (1 + 1e-5) + kLengthEps) ++c.longer_3d;
}

std::string checks_report(const PathChecks& c) {
    char buf[600];
    std::snprintf(buf, sizeof buf,
                  "  routes %d (reached %d, partial %d), bad status %d; bad start %d, bad end %d, bad flags %d;\n"
                  "  segment samples %lld, outside the corridor %d; longer than the midpoint path: xz %d (max excess "
                  "%.5f m), 3D %d (reported only)%s%s\n",
                  c.routes, c.reached, c.partial, c.bad_status, c.bad_start, c.bad_end, c.bad_flags,
                  static_cast<long long>(c.samples), c.outside_samples, c.longer_xz, c.max_excess_xz, c.longer_3d,
                  c.first_failure.empty() ? "" : "\n  first failure: ", c.first_failure.c_str());
    return buf;
}

void require_clean(const PathChecks& c) {
    INFO(checks_report(c));
    CHECK(c.bad_status == 0);
    CHECK(c.bad_start == 0);
    CHECK(c.bad_end == 0);
    CHECK(c.bad_flags == 0);
    CHECK(c.outside_samples == 0);
    CHECK(c.longer_xz == 0);
}

void path_properties(const char* file_name) {
    const std::string file = file_name;
    Bakes b;
    if (!load_shared(file_name, b)) return;
    INFO("mesh " << file << ", default parameters, watershed, our navmesh");
    nav::NavQuery q;
    q.init(&b.ours);
    std::vector<float> pts;
    REQUIRE(navdiff::make_pairs(q, kPairSeed, kPairs, pts));
    PathChecks c;
    nav::Route route;
    const nav::QueryFilter filter;
    const nav::StraightPathOptions opts;
    for (int i = 0; i < kPairs; ++i) {
        const float* s = &pts[static_cast<size_t>(i) * 6];
        if (!q.find_route(s, s + 3, navdiff::kHalfExtents, filter, opts, route)) {
            ++c.bad_status;
            continue;
        }
        check_route(b.ours, route, i, c);
    }
    MESSAGE(file << ": properties of our routes over " << kPairs << " pairs\n" << checks_report(c));
    CHECK(c.routes == kPairs);
    require_clean(c);
}

// ---------------------------------------------------------------------------------------------
// Bad input, on a scene built here (no shared meshes needed): a 24 x 24 m floor split by three
// walls into a zig-zag, and a separate 10 x 10 m floor 6 m away (a second island).
void zigzag_scene(nav::InputMesh& m) {
    navtest::add_floor(m, 0, 0, 24, 24, 0);
    navtest::add_box(m, 5, 0, 0, 6, 3, 18);
    navtest::add_box(m, 11, 0, 6, 12, 3, 24);
    navtest::add_box(m, 17, 0, 0, 18, 3, 18);
    navtest::add_floor(m, 30, 0, 40, 10, 0);
    m.compute_bounds();
}

}  // namespace

TEST_CASE("paths: bad input, islands and node limits (zig-zag scene, ours and Detour)") {
    Bakes b;
    zigzag_scene(b.mesh);
    bake_both(b);
    nav::NavQuery q;
    q.init(&b.ours);
    const nav::QueryFilter filter;
    const nav::StraightPathOptions opts;
    nav::Route route;
    navdiff::DetourRoutes droutes(b.detour);
    navdiff::RouteOutcome d;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float a[3] = {2, 0, 2};      // first bay of the zig-zag
    const float z[3] = {21, 0, 2};     // last bay: the walk goes around all three walls
    const float island[3] = {35, 0, 5};

    SUBCASE("NaN coordinates: BadInput, no path") {
        const float bad[3] = {2, nan, 2};
        nav::Status s = q.find_route(bad, z, navdiff::kHalfExtents, filter, opts, route);
        CHECK(s.code == nav::Status::Code::BadInput);
        CHECK(!route.found());
        s = q.find_route(a, bad, navdiff::kHalfExtents, filter, opts, route);
        CHECK(s.code == nav::Status::Code::BadInput);
        CHECK(!route.found());
        const float bad_ext[3] = {2, 4, nan};
        s = q.find_route(a, z, bad_ext, filter, opts, route);
        CHECK(s.code == nav::Status::Code::BadInput);
        nav::NearestPoly np;
        CHECK(q.find_nearest_poly(bad, navdiff::kHalfExtents, filter, np).code == nav::Status::Code::BadInput);
        CHECK(np.poly == nav::kNoRef);
        // Valid polygons, NaN positions.
        REQUIRE(q.find_nearest_poly(a, navdiff::kHalfExtents, filter, np));
        REQUIRE(np.poly != nav::kNoRef);
        nav::PathResult pr;
        CHECK(q.find_path(np.poly, np.poly, bad, a, filter, pr).code == nav::Status::Code::BadInput);
        CHECK(pr.polys.empty());
        const nav::PolyRef corridor[1] = {np.poly};
        nav::StraightPath sp;
        CHECK(q.find_straight_path(a, bad, corridor, opts, sp).code == nav::Status::Code::BadInput);
        CHECK(sp.size() == 0);
        // Polygons out of range, an empty corridor.
        // (the solo bake is one tile, slot 0, salt 0: polygon npolys of it is one past the last)
        CHECK(q.find_path(nav::make_poly_ref(0, 0, static_cast<uint32_t>(b.ours.npolys)), np.poly, a, a, filter, pr).code ==
              nav::Status::Code::BadInput);
        CHECK(q.find_path(np.poly, nav::kNoRef, a, a, filter, pr).code == nav::Status::Code::BadInput);
        CHECK(q.find_straight_path(a, a, std::span<const nav::PolyRef>(), opts, sp).code == nav::Status::Code::BadInput);
        // A point far off the mesh: no polygon, no path, not an error (Detour: no polygon either).
        const float off[3] = {100, 50, 100};
        CHECK(q.find_route(off, z, navdiff::kHalfExtents, filter, opts, route));
        CHECK(route.start.poly == nav::kNoRef);
        CHECK(!route.found());
        droutes.route(off, z, &d);
        CHECK(!d.start_found);
        CHECK(!d.reached);
    }

    SUBCASE("two islands: partial path on both sides") {
        REQUIRE(b.ours.nislands >= 2);
        REQUIRE(q.find_route(a, island, navdiff::kHalfExtents, filter, opts, route));
        REQUIRE(route.start.poly != nav::kNoRef);
        REQUIRE(route.end.poly != nav::kNoRef);
        const uint32_t start_island = b.ours.poly_island[b.ours.poly_index(route.start.poly)];
        CHECK(start_island != b.ours.poly_island[b.ours.poly_index(route.end.poly)]);
        CHECK(route.found());
        CHECK(!route.path.reached);
        for (const nav::PolyRef p : route.path.polys) CHECK(b.ours.poly_island[b.ours.poly_index(p)] == start_island);
        PathChecks c;
        check_route(b.ours, route, 0, c);
        CHECK(c.partial == 1);
        require_clean(c);
        // The partial path heads toward the island: it ends on the east side of the main floor.
        CHECK(route.straight.points[static_cast<size_t>(route.straight.size() - 1) * 3] > 20.0f);
        droutes.route(a, island, &d);
        CHECK(d.start_found);
        CHECK(d.end_found);
        CHECK(d.corridor > 0);
        CHECK(!d.reached);
    }

    SUBCASE("the property checks catch broken paths") {
        REQUIRE(q.find_route(a, z, navdiff::kHalfExtents, filter, opts, route));
        REQUIRE(route.path.reached);
        REQUIRE(route.straight.size() >= 3);
        const nav::Route good = route;
        // A corner pushed 3 m sideways leaves the corridor and lengthens the path.
        route.straight.points[3] += 3.0f;
        PathChecks moved;
        check_route(b.ours, route, 0, moved);
        CHECK(moved.outside_samples > 0);
        // The end vertex dropped: the path stops short of the end point.
        route = good;
        route.straight.points.resize(route.straight.points.size() - 3);
        route.straight.flags.pop_back();
        route.straight.polys.pop_back();
        PathChecks shortened;
        check_route(b.ours, route, 0, shortened);
        CHECK(shortened.bad_end == 1);
        CHECK(shortened.bad_flags == 1);
        // Back and forth along the first segment until the path is longer than the midpoint path:
        // every point inside, only the length check can catch it.
        route = good;
        const float* s0 = &good.straight.points[0];
        const float* s1 = &good.straight.points[3];
        const int n = good.straight.size();
        double mid_xz = 0, mid_3d = 0, len_xz = 0;
        REQUIRE(midpoint_path_length(b.ours, good.path.polys, s0, &good.straight.points[static_cast<size_t>(n - 1) * 3],
                                     mid_xz, mid_3d));
        for (int k = 1; k < n; ++k)
            len_xz += dist_xz(&good.straight.points[static_cast<size_t>(k - 1) * 3], &good.straight.points[static_cast<size_t>(k) * 3]);
        const double leg = dist_xz(s0, s1);
        REQUIRE(leg > 0.1);
        const int loops = static_cast<int>(std::ceil((mid_xz - len_xz + 0.1) / (2 * leg)));
        for (int k = 0; k < loops; ++k) {
            route.straight.points.insert(route.straight.points.begin() + 3, s0, s0 + 3);
            route.straight.points.insert(route.straight.points.begin() + 3, s1, s1 + 3);
            route.straight.flags.insert(route.straight.flags.begin() + 1, 2, uint8_t{0});
            route.straight.polys.insert(route.straight.polys.begin() + 1, 2, good.straight.polys[0]);
        }
        PathChecks longer;
        check_route(b.ours, route, 0, longer);
        CHECK(longer.outside_samples == 0);
        CHECK(longer.longer_xz == 1);
        // The unmodified route passes.
        PathChecks clean;
        check_route(b.ours, good, 0, clean);
        require_clean(clean);
    }

    SUBCASE("node limit too small: partial path, out of nodes, on both sides") {
        REQUIRE(q.find_route(a, z, navdiff::kHalfExtents, filter, opts, route));
        REQUIRE(route.found());
        REQUIRE(route.path.reached);
        const size_t full = route.path.polys.size();
        REQUIRE(full >= 4);
        PathChecks c;
        check_route(b.ours, route, 0, c);
        require_clean(c);
        droutes.route(a, z, &d);
        CHECK(d.reached);

        nav::NavQuery tiny;
        tiny.init(&b.ours, kTinyNodes);
        REQUIRE(tiny.find_route(a, z, navdiff::kHalfExtents, filter, opts, route));
        CHECK(route.found());
        CHECK(!route.path.reached);
        CHECK(route.path.out_of_nodes);
        CHECK(route.path.polys.front() == route.start.poly);
        CHECK(route.path.polys.size() < full);
        PathChecks ct;
        check_route(b.ours, route, 0, ct);
        CHECK(ct.partial == 1);
        require_clean(ct);
        // Again: the query state is reused and must not leak between queries.
        REQUIRE(tiny.find_route(a, z, navdiff::kHalfExtents, filter, opts, route));
        CHECK(!route.path.reached);
        CHECK(route.path.out_of_nodes);

        Bakes tb;
        zigzag_scene(tb.mesh);
        bake_both(tb, kTinyNodes);
        navdiff::DetourRoutes tiny_detour(tb.detour);
        tiny_detour.route(a, z, &d);
        CHECK(d.ok);
        CHECK(!d.reached);
        CHECK(d.out_of_nodes);
    }
}

TEST_CASE("diff paths: dungeon, Detour on Recast's navmesh vs ours on ours") { diff_paths("dungeon.obj"); }
TEST_CASE("diff paths: nav_test, Detour on Recast's navmesh vs ours on ours") { diff_paths("nav_test.obj"); }
TEST_CASE("diff paths: undulating, Detour on Recast's navmesh vs ours on ours") { diff_paths("undulating.obj"); }

TEST_CASE("diff paths: dungeon, ours and Detour on Recast's polygons") { diff_paths_same_mesh("dungeon.obj"); }
TEST_CASE("diff paths: nav_test, ours and Detour on Recast's polygons") { diff_paths_same_mesh("nav_test.obj"); }
TEST_CASE("diff paths: undulating, ours and Detour on Recast's polygons") { diff_paths_same_mesh("undulating.obj"); }

TEST_CASE("path properties: dungeon, ends, inside the corridor, no longer than the midpoint path") {
    path_properties("dungeon.obj");
}
TEST_CASE("path properties: nav_test, ends, inside the corridor, no longer than the midpoint path") {
    path_properties("nav_test.obj");
}
TEST_CASE("path properties: undulating, ends, inside the corridor, no longer than the midpoint path") {
    path_properties("undulating.obj");
}
