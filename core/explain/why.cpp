// explain_point: the story of one world point through every stage of a bake (why.h).
//
// The story reads the bake's own results column by column; where a stage's decision is not stored
// (which neighbour made a ledge, how far the nearest boundary is, how big the island was) it is
// reproduced locally with the stage's own rules: filter_ledge_spans' conditions on the four
// neighbour columns, erode's chamfer distance (+2 / +3) by a Dijkstra over a window of
// walkable_radius + 2 cells, merge_and_filter's connected regions by a flood capped at
// region_min_size^2 spans. The input triangle is found by scanning the mesh (a bake keeps no
// spatial index of it): about 3 ms per million triangles; everything else is local to the point.
#include "core/explain/why.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <limits>
#include <queue>
#include <unordered_map>

#include "core/bake/filter.h"

namespace nav {

namespace {

constexpr double kRadToDeg = 57.29577951308232;
constexpr uint32_t kNc = static_cast<uint32_t>(kNotConnected);

std::string fmt(const char* f, double a) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, a);
    return buf;
}
std::string m2(double v) { return fmt("%.2f", v) + " m"; }
std::string f2(double v) { return fmt("%.2f", v); }
std::string ival(int64_t v) { return std::to_string(v); }

void set_box(WhyShape& s, float x0, float y0, float z0, float x1, float y1, float z1) {
    s.has_box = true;
    s.box_min[0] = x0;
    s.box_min[1] = y0;
    s.box_min[2] = z0;
    s.box_max[0] = x1;
    s.box_max[1] = y1;
    s.box_max[2] = z1;
}
void add_line(WhyShape& s, float ax, float ay, float az, float bx, float by, float bz) {
    const float v[6] = {ax, ay, az, bx, by, bz};
    s.lines.insert(s.lines.end(), v, v + 6);
}
void add_point(WhyShape& s, float x, float y, float z) {
    const float v[3] = {x, y, z};
    s.points.insert(s.points.end(), v, v + 3);
}

void add_stage(WhyStory& s, Stage st, bool kept, std::string text, WhyShape shape = {}) {
    WhyStage w;
    w.stage = st;
    w.kept = kept;
    w.text = std::move(text);
    w.culprit = std::move(shape);
    s.stages.push_back(std::move(w));
}
void lose(WhyStory& s, Stage st, WhyCause c, std::string text) {
    s.lost_at = st;
    s.cause = c;
    s.cause_text = std::move(text);
}
// A stage whose result the bake does not hold: the story ends there (Stage::Count: told to the end).
Stage not_in_bake(WhyStory& s, Stage st) {
    const std::string t = std::string(stage_name(st)) + ": not in this bake (not built, failed or dropped)";
    add_stage(s, st, false, t);
    lose(s, st, WhyCause::NotInBake, t);
    return Stage::Count;
}

// Metres to the centimetre, down or up (decimal values: 0.3, not 0.30000000000000004).
double floor_cm(double v) { return std::floor(v * 100.0 + 1e-6) / 100.0; }
double ceil_cm(double v) { return std::ceil(v * 100.0 - 1e-6) / 100.0; }

// The smallest agent_max_climb (cm) whose walkable_climb, floor(climb / ch) in derive_config's
// float arithmetic, reaches `voxels`.
double climb_for(int voxels, float ch) {
    double v = floor_cm(voxels * static_cast<double>(ch) - 0.02);  // below it, then up by centimetres
    while (std::floor(static_cast<float>(v) / ch) < static_cast<float>(voxels)) v = floor_cm(v + 0.01 + 1e-9);
    return v;
}

// The largest agent_radius (cm) whose walkable_radius, ceil(radius / cs), is at most `cells`.
double radius_for(int cells, float cs) {
    double v = ceil_cm(cells * static_cast<double>(cs) + 0.02);  // above it, then down by centimetres
    while (v > 0.0 && std::ceil(static_cast<float>(v) / cs) > static_cast<float>(cells)) v = ceil_cm(v - 0.01 - 1e-9);
    return std::max(v, 0.0);
}

// The input surface under (x, z): the highest at or below ylimit, else the lowest above.
struct Surface {
    int tri = -1;
    float y = 0;
    float slope = 0;  // degrees (> 90 for a triangle facing down)
    bool walkable = false;
};

Surface find_surface(const InputMesh& m, const std::vector<uint8_t>* ta, float max_slope, float x, float z,
                     float ylimit) {
    Surface below, above;
    const float thr = std::cos(max_slope / 180.0f * 3.14159265358979323846f);
    const int nt = m.tri_count();
    const bool have_ta = ta && ta->size() == static_cast<size_t>(nt);
    for (int t = 0; t < nt; ++t) {
        const float* a = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t) * 3 + 0]) * 3];
        const float* b = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t) * 3 + 1]) * 3];
        const float* c = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t) * 3 + 2]) * 3];
        if (x < std::min({a[0], b[0], c[0]}) || x > std::max({a[0], b[0], c[0]}) ||
            z < std::min({a[2], b[2], c[2]}) || z > std::max({a[2], b[2], c[2]}))
            continue;
        const double e0x = double(b[0]) - a[0], e0z = double(b[2]) - a[2];
        const double e1x = double(c[0]) - a[0], e1z = double(c[2]) - a[2];
        const double det = e0x * e1z - e0z * e1x;
        if (std::fabs(det) < 1e-12) continue;  // vertical in xz: no surface over a point
        const double px = double(x) - a[0], pz = double(z) - a[2];
        const double u = (px * e1z - pz * e1x) / det;
        const double v = (e0x * pz - e0z * px) / det;
        constexpr double eps = 1e-6;
        if (u < -eps || v < -eps || u + v > 1 + eps) continue;
        Surface s;
        s.tri = t;
        s.y = static_cast<float>(a[1] + u * (double(b[1]) - a[1]) + v * (double(c[1]) - a[1]));
        const float n0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        const float n1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const double nx = double(n0[1]) * n1[2] - double(n0[2]) * n1[1];
        const double ny = double(n0[2]) * n1[0] - double(n0[0]) * n1[2];
        const double nz = double(n0[0]) * n1[1] - double(n0[1]) * n1[0];
        const double len = std::sqrt(nx * nx + ny * ny + nz * nz);
        const double cy = len > 0 ? std::clamp(ny / len, -1.0, 1.0) : -1.0;
        s.slope = static_cast<float>(std::acos(cy) * kRadToDeg);
        s.walkable = have_ta ? (*ta)[static_cast<size_t>(t)] != kNullArea : (len > 0 && cy > double(thr));
        auto better = [](const Surface& cand, const Surface& best, bool higher) {
            if (best.tri < 0) return true;
            if (std::fabs(cand.y - best.y) <= 1e-3f) {  // the same height: walkable first, then flatter
                if (cand.walkable != best.walkable) return cand.walkable;
                return cand.slope < best.slope;
            }
            return higher ? cand.y > best.y : cand.y < best.y;
        };
        if (s.y <= ylimit + 1e-4f) {
            if (better(s, below, true)) below = s;
        } else if (better(s, above, false)) {
            above = s;
        }
    }
    return below.tri >= 0 ? below : above;
}

// Point in a convex polygon (either winding) in xz, with a small tolerance.
bool in_convex_xz(const float* xs, const float* zs, int n, float x, float z) {
    if (n < 3) return false;
    int pos = 0, neg = 0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        const double ex = double(xs[i]) - xs[j], ez = double(zs[i]) - zs[j];
        const double len = std::sqrt(ex * ex + ez * ez);
        if (len <= 0) continue;
        const double cr = (ex * (double(z) - zs[j]) - ez * (double(x) - xs[j])) / len;
        if (cr > 1e-4) ++pos;
        if (cr < -1e-4) ++neg;
        if (pos && neg) return false;
    }
    return true;
}

// Height at (x, z) of a plane triangle, false when outside (small tolerance).
bool tri_height(const float* a, const float* b, const float* c, float x, float z, float* y) {
    const double e0x = double(b[0]) - a[0], e0z = double(b[2]) - a[2];
    const double e1x = double(c[0]) - a[0], e1z = double(c[2]) - a[2];
    const double det = e0x * e1z - e0z * e1x;
    if (std::fabs(det) < 1e-12) return false;
    const double px = double(x) - a[0], pz = double(z) - a[2];
    const double u = (px * e1z - pz * e1x) / det;
    const double v = (e0x * pz - e0z * px) / det;
    constexpr double eps = 1e-4;
    if (u < -eps || v < -eps || u + v > 1 + eps) return false;
    *y = static_cast<float>(a[1] + u * (double(b[1]) - a[1]) + v * (double(c[1]) - a[1]));
    return true;
}

// A polygon of a polymesh over (x, z) whose height there is within tol of floor_y; its height
// (detail surface when there is one, else the polygon's vertex heights) in *py. -1 when none.
int find_polymesh_poly(const PolyMesh& pm, const PolyMeshDetail* dm, float x, float z, float floor_y, float tol,
                       float* py) {
    const int nvp = pm.nvp;
    float best_err = std::numeric_limits<float>::max();
    int best = -1;
    for (int p = 0; p < pm.npolys; ++p) {
        const uint16_t* pv = pm.poly(p);
        const int n = pm.poly_vert_count(p);
        float xs[kMaxVertsPerPoly], zs[kMaxVertsPerPoly];
        float ylo = std::numeric_limits<float>::max(), yhi = -ylo;
        for (int k = 0; k < n && k < nvp; ++k) {
            const uint16_t* v = &pm.verts[static_cast<size_t>(pv[k]) * 3];
            xs[k] = pm.bmin[0] + v[0] * pm.cs;
            zs[k] = pm.bmin[2] + v[2] * pm.cs;
            const float y = pm.bmin[1] + v[1] * pm.ch;
            ylo = std::min(ylo, y);
            yhi = std::max(yhi, y);
        }
        if (!in_convex_xz(xs, zs, n, x, z)) continue;
        float h = 0.5f * (ylo + yhi);
        bool have = false;
        if (dm && static_cast<size_t>(p) * 4 + 3 < dm->meshes.size()) {
            const uint32_t vb = dm->meshes[static_cast<size_t>(p) * 4 + 0];
            const uint32_t tb = dm->meshes[static_cast<size_t>(p) * 4 + 2];
            const uint32_t tc = dm->meshes[static_cast<size_t>(p) * 4 + 3];
            for (uint32_t t = tb; t < tb + tc && !have; ++t) {
                if (static_cast<size_t>(t) * 4 + 3 > dm->tris.size()) break;
                const uint8_t* tr = &dm->tris[static_cast<size_t>(t) * 4];
                const size_t ia = (vb + tr[0]) * 3u, ib = (vb + tr[1]) * 3u, ic = (vb + tr[2]) * 3u;
                if (std::max({ia, ib, ic}) + 3 > dm->verts.size()) break;
                have = tri_height(&dm->verts[ia], &dm->verts[ib], &dm->verts[ic], x, z, &h);
            }
        }
        float err;
        if (have) {
            err = std::fabs(h - floor_y);
        } else {
            err = floor_y < ylo ? ylo - floor_y : (floor_y > yhi ? floor_y - yhi : 0.0f);
            h = std::clamp(floor_y, ylo, yhi);
        }
        if (err <= tol && err < best_err) {
            best_err = err;
            best = p;
            *py = h;
        }
    }
    return best;
}

// The same on the runtime navmesh (dense index, kNoPoly when none).
uint32_t find_navmesh_poly(const NavMesh& nm, float x, float z, float floor_y, float tol, float* py) {
    float best_err = std::numeric_limits<float>::max();
    uint32_t best = kNoPoly;
    for (uint32_t p = 0; p < static_cast<uint32_t>(nm.npolys); ++p) {
        const float* b = &nm.poly_bounds[static_cast<size_t>(p) * 6];
        if (x < b[0] - 1e-3f || x > b[3] + 1e-3f || z < b[2] - 1e-3f || z > b[5] + 1e-3f) continue;
        if (floor_y < b[1] - tol || floor_y > b[4] + tol) continue;
        const int n = std::min(nm.poly_vert_count(p), kMaxPolyEdges);
        float xs[kMaxPolyEdges], zs[kMaxPolyEdges];
        for (int k = 0; k < n; ++k) {
            const float* v = nm.vert(nm.edge_vert[nm.poly_first[p] + static_cast<uint32_t>(k)]);
            xs[k] = v[0];
            zs[k] = v[2];
        }
        if (!in_convex_xz(xs, zs, n, x, z)) continue;
        float h = 0;
        nm.poly_height(p, x, z, &h);
        const float err = std::fabs(h - floor_y);
        if (err <= tol && err < best_err) {
            best_err = err;
            best = p;
            *py = h;
        }
    }
    return best;
}

// The tile whose unbordered box holds (x, z), clamped to the layout.
void tile_of(const Bake& b, float x, float z, int& tx, int& tz) {
    const float tcs = static_cast<float>(b.layout.tile_size) * b.config.cs;
    // Clamped as floats first: a far point must not overflow the conversion to int.
    const float fx = std::floor((x - b.config.bmin[0]) / tcs), fz = std::floor((z - b.config.bmin[2]) / tcs);
    tx = static_cast<int>(std::clamp(fx, 0.0f, static_cast<float>(std::max(0, b.layout.cols - 1))));
    tz = static_cast<int>(std::clamp(fz, 0.0f, static_cast<float>(std::max(0, b.layout.rows - 1))));
}

// How far above the point a surface still counts as the one under it: two cell heights, so a
// point typed a little under its floor finds it, and the floor under a table (0.7 m lower than
// its top, within a climb) is the floor, not the table.
float reach_up(const Bake& bake) { return 2.0f * std::max(bake.inputs.params.f(ParamId::cell_height), 0.01f); }

// ---- the grid part of the story ------------------------------------------------------------

struct GridCtx {
    const Bake& bake;  // the whole bake (mesh, tri_areas, navmesh, volumes)
    const Bake& g;     // the grid: the solo bake or a tile's view
    const float* p;
    WhyStory& s;
    float cs, ch, climb_m, height_m, radius_m;
    int wc, wh, wr;
    float gbmin[3];
    int w = 0, h = 0, border = 0;
    int cx = 0, cz = 0;
};

// Why a compact span lacks a link in direction dir: the neighbour column in the filtered heightfield.
std::string why_no_link(const GridCtx& c, int x, int z, int bot, int top, int dir, WhyShape& shape) {
    const int nx = x + dir_offset_x(dir), nz = z + dir_offset_z(dir);
    const float x0 = c.gbmin[0] + static_cast<float>(nx) * c.cs, z0 = c.gbmin[2] + static_cast<float>(nz) * c.cs;
    const float fy = c.gbmin[1] + static_cast<float>(bot) * c.ch;
    if (nx < 0 || nz < 0 || nx >= c.w || nz >= c.h) return "the grid's edge";
    const Heightfield* hf = c.g.filtered.get();
    if (!hf || nx >= hf->width || nz >= hf->height) return "no link (filtered heightfield not in this bake)";
    const Span* pool = hf->pool.data();
    const uint32_t head = hf->columns[static_cast<size_t>(nx) + static_cast<size_t>(nz) * static_cast<size_t>(hf->width)];
    // A neighbour floor within a climb: why it does not link.
    for (uint32_t i = head; i != kNullSpan; i = pool[i].next) {
        const Span& ns = pool[i];
        const int nbot = ns.smax;
        const int ntop = ns.next != kNullSpan ? static_cast<int>(pool[ns.next].smin) : kSpanMaxHeight;
        if (std::abs(nbot - bot) > c.wc) continue;
        const float ny = c.gbmin[1] + static_cast<float>(nbot) * c.ch;
        set_box(shape, x0, ny - c.ch, z0, x0 + c.cs, ny, z0 + c.cs);
        if (ns.area == kNullArea) {
            if (ns.filtered_by & kFilteredLowHeight)
                return "a low ceiling: the neighbour floor at " + m2(ny) + " has " +
                       m2((ntop - nbot) * c.ch) + " of clearance (removed by the low-height filter)";
            if (ns.filtered_by & kFilteredLedge) return "a ledge: the neighbour at " + m2(ny) + " was removed by the ledge filter";
            return "steep or unwalkable: the neighbour surface at " + m2(ny) + " is not walkable";
        }
        const int gap = std::min(top, ntop) - std::max(bot, nbot);
        if (gap < c.wh) return "a low ceiling: the gap to the neighbour is " + m2(gap * c.ch) + " < agent_height " + m2(c.height_m);
        return "no link to the neighbour at " + m2(ny);
    }
    // A wall: a neighbour span rising more than a climb above the floor, starting below the ceiling.
    for (uint32_t i = head; i != kNullSpan; i = pool[i].next) {
        const Span& ns = pool[i];
        if (ns.smax > bot + c.wc && ns.smin < top) {
            const float ty = c.gbmin[1] + static_cast<float>(ns.smax) * c.ch;
            set_box(shape, x0, fy, z0, x0 + c.cs, ty, z0 + c.cs);
            return "a wall: the neighbour column rises " + m2(ty - fy) + " above the floor (> agent_max_climb " +
                   m2(c.climb_m) + ")";
        }
    }
    // A drop: the highest neighbour floor below.
    int best = -1;
    for (uint32_t i = head; i != kNullSpan; i = pool[i].next)
        if (pool[i].smax < bot) best = pool[i].smax;
    if (best >= 0) {
        const float ny = c.gbmin[1] + static_cast<float>(best) * c.ch;
        set_box(shape, x0, ny, z0, x0 + c.cs, fy, z0 + c.cs);
        return "a drop: the neighbour floor is " + m2(fy - ny) + " lower (> agent_max_climb " + m2(c.climb_m) + ")";
    }
    set_box(shape, x0, fy - c.ch, z0, x0 + c.cs, fy, z0 + c.cs);
    return "a drop: nothing below the neighbour cell";
}

struct LedgeInfo {
    bool edge = false;      // on the grid's edge
    bool void_below = false; // a neighbour column with open space under its lowest span
    int dir = -1;
    int drop = 0;           // voxels
    int spread = 0;         // asmax - asmin, voxels
    int nfloor = 0;
};

// Reproduces filter_ledge_spans for one span: the largest drop and on which side.
LedgeInfo ledge_of(const GridCtx& c, const Heightfield& hf, int x, int z, uint32_t si) {
    LedgeInfo L;
    const Span* pool = hf.pool.data();
    if (z == 0 || z == hf.height - 1 || x == 0 || x == hf.width - 1) {
        L.edge = true;
        L.dir = x == 0 ? 0 : (z == hf.height - 1 ? 1 : (x == hf.width - 1 ? 2 : 3));
        return L;
    }
    const Span& s = pool[si];
    const int bot = s.smax;
    const int top = s.next != kNullSpan ? static_cast<int>(pool[s.next].smin) : kSpanMaxHeight;
    const int low = std::max(bot, -c.wc) + c.wh;
    int asmin = bot, asmax = bot;
    for (int dir = 0; dir < 4; ++dir) {
        const int nx = x + dir_offset_x(dir), nz = z + dir_offset_z(dir);
        const uint32_t head = hf.columns[static_cast<size_t>(nx + nz * hf.width)];
        const int below = head != kNullSpan ? static_cast<int>(pool[head].smin) : kSpanMaxHeight;
        if (std::min(top, below) > low && !L.void_below) {
            L.void_below = true;
            L.dir = dir;
            L.drop = bot + c.wc;
            L.nfloor = -c.wc;
        }
        for (uint32_t n = head; n != kNullSpan; n = pool[n].next) {
            const Span& ns = pool[n];
            const int nbot = ns.smax;
            if (nbot >= top) break;
            const int ntop = ns.next != kNullSpan ? static_cast<int>(pool[ns.next].smin) : kSpanMaxHeight;
            if (std::min(top, ntop) - std::max(bot, nbot) > c.wh) {
                const int diff = nbot - bot;
                if (diff < -c.wc) {
                    if (!L.void_below && -diff > L.drop) {
                        L.drop = -diff;
                        L.dir = dir;
                        L.nfloor = nbot;
                    }
                } else if (diff <= c.wc) {
                    asmin = std::min(asmin, nbot);
                    asmax = std::max(asmax, nbot);
                }
            }
        }
    }
    L.spread = asmax - asmin;
    return L;
}

// Reproduces erode's chamfer distance at span `start` by a Dijkstra over the window around it.
struct ErodeInfo {
    int dist = -1;  // chamfer units (2 a cell), -1: no boundary in the window
    uint32_t bspan = 0;
    int bx = 0, bz = 0;
};

bool is_erode_boundary(const CompactHeightfield& chf, int x, int z, uint32_t i) {
    if (chf.areas[i] == kNullArea) return true;
    for (int dir = 0; dir < 4; ++dir) {
        if (static_cast<uint32_t>(get_con(chf.spans[i], dir)) == kNc) return true;
        if (chf.areas[chf.neighbour(x, z, i, dir)] == kNullArea) return true;
    }
    return false;
}

ErodeInfo erode_distance(const CompactHeightfield& chf, int x, int z, uint32_t start, int window) {
    ErodeInfo out;
    struct Node {
        int d;
        uint32_t i;
        int x, z;
        bool operator>(const Node& o) const { return d > o.d; }
    };
    std::priority_queue<Node, std::vector<Node>, std::greater<Node>> q;
    std::unordered_map<uint32_t, int> best;
    q.push({0, start, x, z});
    best[start] = 0;
    while (!q.empty()) {
        const Node n = q.top();
        q.pop();
        if (best[n.i] < n.d) continue;
        if (is_erode_boundary(chf, n.x, n.z, n.i)) {
            out.dist = n.d;
            out.bspan = n.i;
            out.bx = n.x;
            out.bz = n.z;
            return out;
        }
        auto relax = [&](uint32_t j, int jx, int jz, int d) {
            if (std::abs(jx - x) > window || std::abs(jz - z) > window) return;
            auto it = best.find(j);
            if (it != best.end() && it->second <= d) return;
            best[j] = d;
            q.push({d, j, jx, jz});
        };
        for (int dir = 0; dir < 4; ++dir) {
            // not a boundary: every link exists
            const uint32_t a = chf.neighbour(n.x, n.z, n.i, dir);
            const int ax = n.x + dir_offset_x(dir), az = n.z + dir_offset_z(dir);
            relax(a, ax, az, n.d + 2);
            for (int turn : {1, 3}) {
                const int d2 = (dir + turn) & 3;
                if (static_cast<uint32_t>(get_con(chf.spans[a], d2)) == kNc) continue;
                const uint32_t b = chf.neighbour(ax, az, a, d2);
                relax(b, ax + dir_offset_x(d2), az + dir_offset_z(d2), n.d + 3);
            }
        }
    }
    return out;
}

// Cells of span i's row along axis (dir 0/2: x, 1/3: z) reachable through links: the corridor.
int corridor_cells(const CompactHeightfield& chf, int x, int z, uint32_t i, int dir, int limit) {
    int cells = 1;
    for (int d : {dir, (dir + 2) & 3}) {
        int cx = x, cz = z;
        uint32_t ci = i;
        for (int k = 0; k < limit; ++k) {
            if (static_cast<uint32_t>(get_con(chf.spans[ci], d)) == kNc) break;
            ci = chf.neighbour(cx, cz, ci, d);
            cx += dir_offset_x(d);
            cz += dir_offset_z(d);
            ++cells;
        }
    }
    return cells;
}

// Distance from (px, pz) to segment a-b in xz.
double seg_dist_xz(double px, double pz, double ax, double az, double bx, double bz) {
    const double dx = bx - ax, dz = bz - az;
    const double l2 = dx * dx + dz * dz;
    double t = l2 > 0 ? ((px - ax) * dx + (pz - az) * dz) / l2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    const double ex = ax + t * dx - px, ez = az + t * dz - pz;
    return std::sqrt(ex * ex + ez * ez);
}

bool in_polygon_xz(const std::vector<double>& xs, const std::vector<double>& zs, double x, double z) {
    bool inside = false;
    const size_t n = xs.size();
    for (size_t i = 0, j = n - 1; i < n; j = i++)
        if (((zs[i] > z) != (zs[j] > z)) && (x < (xs[j] - xs[i]) * (z - zs[i]) / (zs[j] - zs[i]) + xs[i])) inside = !inside;
    return inside;
}

const char* side_name(int dir) {
    static constexpr const char* n[4] = {"-x", "+z", "+x", "-z"};
    return n[dir & 3];
}

// The side `dir` of cell (x, z) as a segment at height y.
void cell_side(const GridCtx& c, int x, int z, int dir, float y, WhyShape& shape) {
    const float x0 = c.gbmin[0] + static_cast<float>(x) * c.cs, z0 = c.gbmin[2] + static_cast<float>(z) * c.cs;
    const float x1 = x0 + c.cs, z1 = z0 + c.cs;
    switch (dir & 3) {
        case 0: add_line(shape, x0, y, z0, x0, y, z1); break;
        case 1: add_line(shape, x0, y, z1, x1, y, z1); break;
        case 2: add_line(shape, x1, y, z0, x1, y, z1); break;
        default: add_line(shape, x0, y, z0, x1, y, z0); break;
    }
}

std::string cells_text(double v) { return fmt(std::fabs(v - std::round(v)) < 1e-9 ? "%.0f" : "%.1f", v); }

// ---- the story, one function per stage -----------------------------------------------------

// What the story found in the point's column of the voxel grid (follow_column): no grid in the
// bake, the column outside it, no span to follow, or the span it follows.
enum class Column { NoGrid, Outside, NoSpan, Span };

// What the stages told so far, read by the later ones.
struct GridStory {
    GridCtx& c;
    const Surface& surf;
    float max_slope = 0;
    float tol = 0;           // a span whose top is within this of the surface is the surface's
    std::string input_text{};  // the input triangle under the point
    // the span of the column the story follows (rasterize) and its twin in the filtered heightfield
    Column column = Column::NoGrid;
    const Heightfield* solid = nullptr;
    const Heightfield* filt = nullptr;
    uint32_t shead = kNullSpan;
    uint32_t si = kNullSpan;
    bool by_span = false;  // followed as the walkable span below the point, not as the surface's
    const Span* fsp = nullptr;
    bool raised = false;  // made walkable by the low-hanging filter
    float stop = 0;       // its top (m)
    std::string span_text{};
    WhyShape span_box{};
    // the compact span (compact .. contours)
    const CompactHeightfield* chf = nullptr;
    uint32_t ci = kNullSpan;
    float cfloor = 0;  // its floor (m)
    uint16_t reg = 0;
    // the polygon over the point (polymesh .. navmesh), -1: none; ptol: how far from the floor
    const PolyMesh* pm = nullptr;
    int poly = -1;
    float poly_y = 0;
    float ptol = 0;
};

// A stage's story adds the stage's line to the story and returns the stage to tell next (after(st)
// to go on), or kStoryEnd when the story ends there: the point is lost there, or the stage's
// result is not in the bake.
using StoryFn = Stage (*)(GridStory&);
constexpr Stage kStoryEnd = Stage::Count;  // as not_in_bake returns
constexpr Stage after(Stage st) { return static_cast<Stage>(static_cast<int>(st) + 1); }

// The input triangle is not walkable: the story ends at the input.
Stage slope_loss(GridStory& gs) {
    const GridCtx& c = gs.c;
    const Surface& surf = gs.surf;
    WhyStory& s = c.s;
    WhyShape sh;
    if (surf.tri >= 0 && c.bake.mesh) {
        const InputMesh& m = *c.bake.mesh;
        for (int k = 0; k < 3; ++k) {
            const float* a = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(surf.tri) * 3 + k]) * 3];
            const float* b = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(surf.tri) * 3 + (k + 1) % 3]) * 3];
            add_line(sh, a[0], a[1], a[2], b[0], b[1], b[2]);
        }
    }
    add_stage(s, Stage::Input, false, gs.input_text, std::move(sh));
    // Over 90 degrees the triangle faces down: a ceiling or an underside, never walkable.
    lose(s, Stage::Input, WhyCause::Slope,
         surf.slope > 90.0f ? "the triangle faces down (" + fmt("%.1f", surf.slope) +
                                  " deg from up): a ceiling or an underside, never walkable"
         : surf.slope >= 89.0f ? "slope " + fmt("%.1f", surf.slope) + " deg: a wall, steeper than any agent_max_slope"
                               : "slope " + fmt("%.1f", surf.slope) + " deg >= agent_max_slope " + fmt("%.1f", gs.max_slope) + " deg");
    if (surf.slope < 89.0f) {
        s.decider = ParamId::agent_max_slope;
        s.needed = std::ceil(static_cast<double>(surf.slope) * 10.0 - 1e-6) / 10.0 + 0.1;
    }
    return kStoryEnd;
}

// The span of the filtered heightfield at the place of solid span sp in the point's column, or null.
const Span* filtered_twin(const GridStory& gs, const Span& sp) {
    const Heightfield* filt = gs.filt;
    if (!filt || filt->width != gs.solid->width || filt->height != gs.solid->height) return nullptr;
    for (uint32_t i = filt->columns[static_cast<size_t>(gs.c.cx + gs.c.cz * filt->width)]; i != kNullSpan;
         i = filt->pool[i].next)
        if (filt->pool[i].smax == sp.smax && filt->pool[i].smin == sp.smin) return &filt->pool[i];
    return nullptr;
}

// Finds the span of the point's column the story follows: the one whose top is nearest the
// surface; without a surface at or below the point (none, or only one above it: conservative
// rasterization fills cells a triangle merely overlaps), the highest walkable span at or below it.
void follow_column(GridStory& gs) {
    const GridCtx& c = gs.c;
    const Surface& surf = gs.surf;
    WhyStory& s = c.s;
    const float* p = c.p;
    gs.solid = c.g.solid.get();
    gs.filt = c.g.filtered.get();
    const Heightfield* solid = gs.solid;
    if (!solid) {
        gs.column = Column::NoGrid;
        return;
    }
    if (c.cx < 0 || c.cz < 0 || c.cx >= solid->width || c.cz >= solid->height) {
        gs.column = Column::Outside;
        return;
    }
    const Span* spool = solid->pool.data();
    gs.shead = solid->columns[static_cast<size_t>(c.cx + c.cz * solid->width)];
    const bool surface_above = surf.tri >= 0 && surf.y > p[1] + c.climb_m + 1e-4f;
    uint32_t si = kNullSpan, walkable_below = kNullSpan;
    float best = std::numeric_limits<float>::max();
    for (uint32_t i = gs.shead; i != kNullSpan; i = spool[i].next) {
        const float top = solid->bmin[1] + static_cast<float>(spool[i].smax) * c.ch;
        if (surf.tri >= 0) {
            const float d = std::fabs(top - s.floor_y);
            if (d <= gs.tol && d < best) {
                best = d;
                si = i;
            }
        }
        if (top <= p[1] + c.climb_m + gs.tol) {
            const Span* f = filtered_twin(gs, spool[i]);
            if (spool[i].area != kNullArea || (f && f->area != kNullArea)) walkable_below = i;
        }
    }
    gs.by_span = surf.tri < 0 || (surface_above && walkable_below != kNullSpan);
    if (gs.by_span) si = walkable_below;
    gs.si = si;
    if (si == kNullSpan) {
        gs.column = Column::NoSpan;
        return;
    }
    gs.column = Column::Span;
    const Span& sp = spool[si];
    gs.fsp = filtered_twin(gs, sp);
    const float sbot = solid->bmin[1] + static_cast<float>(sp.smin) * c.ch;
    gs.stop = solid->bmin[1] + static_cast<float>(sp.smax) * c.ch;
    if (gs.by_span) s.floor_y = gs.stop;
    gs.raised = gs.fsp && (gs.fsp->area != kNullArea || gs.fsp->filtered_by != 0);  // by the low-hanging filter
    const float x0 = c.gbmin[0] + static_cast<float>(c.cx) * c.cs, z0 = c.gbmin[2] + static_cast<float>(c.cz) * c.cs;
    set_box(gs.span_box, x0, sbot, z0, x0 + c.cs, gs.stop, z0 + c.cs);
    gs.span_text = "span " + f2(sbot) + ".." + m2(gs.stop) + " (" + ival(sp.smin) + ".." + ival(sp.smax) +
                   " cell heights) in column " + ival(c.cx) + "," + ival(c.cz);
}

// ---- input: the triangle under the point, told once the column's span is found
Stage story_input(GridStory& gs) {
    GridCtx& c = gs.c;
    const Surface& surf = gs.surf;
    WhyStory& s = c.s;
    const Bake& g = c.g;
    const float* p = c.p;
    // A tile whose intermediates were dropped (a lean bake keeps only polymesh, detail and the
    // runtime tile): a point one of its polygons covers passed every stage in between.
    const bool dropped = !g.solid || !g.filtered || !g.compact || !g.eroded || !g.areas || !g.distance || !g.regions ||
                         !g.contours;
    if (dropped && g.polymesh) {
        const float ptol = std::max(c.climb_m, c.ch);
        float poly_y = 0;
        const int poly = find_polymesh_poly(*g.polymesh, g.detail.get(), p[0], p[2], s.floor_y, ptol, &poly_y);
        if (poly >= 0) {
            add_stage(s, Stage::Input, true, gs.input_text);
            add_stage(s, Stage::Rasterize, true,
                      "rasterize .. contours: not in this bake (dropped); the polygon over the point passed them");
            gs.pm = g.polymesh.get();
            gs.poly = poly;
            gs.poly_y = poly_y;
            gs.cfloor = s.floor_y;
            gs.ptol = ptol;
            return Stage::Polymesh;
        }
    }
    follow_column(gs);
    switch (gs.column) {
        case Column::NoGrid:
            if (surf.tri >= 0 && !surf.walkable) return slope_loss(gs);
            add_stage(s, Stage::Input, surf.tri >= 0, gs.input_text);
            if (surf.tri < 0) {
                lose(s, Stage::Input, WhyCause::NoGeometry, "no geometry under this point");
                return kStoryEnd;
            }
            return after(Stage::Input);
        case Column::Outside:
            add_stage(s, Stage::Input, surf.tri >= 0, gs.input_text);
            return after(Stage::Input);
        case Column::NoSpan:
            if (surf.tri < 0) {
                add_stage(s, Stage::Input, false, "no geometry under this point (no triangle, no walkable span)");
                lose(s, Stage::Input, WhyCause::NoGeometry, "no geometry under this point");
                return kStoryEnd;
            }
            if (!surf.walkable) return slope_loss(gs);
            add_stage(s, Stage::Input, true, gs.input_text);
            return after(Stage::Input);
        case Column::Span: break;
    }
    if (gs.solid->pool[gs.si].area == kNullArea && !gs.raised) {
        if (!gs.by_span && !surf.walkable) return slope_loss(gs);
        add_stage(s, Stage::Input, surf.tri >= 0, gs.input_text);
        return after(Stage::Input);
    }
    add_stage(s, Stage::Input, true,
              !gs.by_span ? gs.input_text
                          : (surf.tri >= 0 ? "no triangle at or below the point (the nearest is above, at " + m2(surf.y) + ")"
                                           : std::string("no triangle over the point")) +
                                "; following the walkable " + gs.span_text);
    return after(Stage::Input);
}

// ---- rasterize: the column's span the story follows
Stage story_rasterize(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    switch (gs.column) {
        case Column::NoGrid: return not_in_bake(s, Stage::Rasterize);
        case Column::Outside: lose(s, Stage::Rasterize, WhyCause::OutsideBounds, "column outside the grid"); return kStoryEnd;
        case Column::NoSpan: {
            const Heightfield* solid = gs.solid;
            const Span* spool = solid->pool.data();
            WhyShape sh;
            const float x0 = c.gbmin[0] + static_cast<float>(c.cx) * c.cs, z0 = c.gbmin[2] + static_cast<float>(c.cz) * c.cs;
            set_box(sh, x0, s.floor_y - gs.tol, z0, x0 + c.cs, s.floor_y + gs.tol, z0 + c.cs);
            std::string t = "no span of column " + ival(c.cx) + "," + ival(c.cz) + " has its top within " + m2(gs.tol) +
                            " of the floor at " + m2(s.floor_y);
            for (uint32_t i = gs.shead; i != kNullSpan; i = spool[i].next) {
                const float lo = solid->bmin[1] + static_cast<float>(spool[i].smin) * c.ch;
                const float hi = solid->bmin[1] + static_cast<float>(spool[i].smax) * c.ch;
                if (s.floor_y >= lo && s.floor_y <= hi) {
                    t += " (it lies inside the solid span " + f2(lo) + ".." + m2(hi) + ": geometry above it in the same cell)";
                    set_box(sh, x0, lo, z0, x0 + c.cs, hi, z0 + c.cs);
                }
            }
            add_stage(s, Stage::Rasterize, false, t, std::move(sh));
            lose(s, Stage::Rasterize, WhyCause::NotRasterized, t);
            return kStoryEnd;
        }
        case Column::Span: break;
    }
    const Span& sp = gs.solid->pool[gs.si];
    if (sp.area == kNullArea && !gs.raised) {
        const std::string t = gs.span_text + ": not walkable (a steeper surface ends at its top)";
        add_stage(s, Stage::Rasterize, false, t, gs.span_box);
        lose(s, Stage::Rasterize, WhyCause::NotRasterized, t);
        return kStoryEnd;
    }
    add_stage(s, Stage::Rasterize, true, gs.span_text + (sp.area == kNullArea ? " (made walkable by the low-hanging filter)" : ""),
              gs.span_box);
    return after(Stage::Rasterize);
}

// The ledge filter removed the span: which neighbour made the ledge, and what would keep it.
Stage ledge_loss(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const Heightfield* filt = gs.filt;
    WhyShape sh;
    const LedgeInfo L = ledge_of(c, *filt, c.cx, c.cz, static_cast<uint32_t>(gs.fsp - filt->pool.data()));
    std::string t;
    if (L.dir >= 0) cell_side(c, c.cx, c.cz, L.dir, gs.stop, sh);
    if (L.edge) {
        t = "ledge: the span is on the grid's edge (" + std::string(side_name(L.dir)) + ")";
        s.decider = ParamId::filter_ledge;
        s.needed = 0;
    } else if (L.void_below) {
        t = "ledge: open space under the neighbour on the " + std::string(side_name(L.dir)) +
            " side (a drop deeper than agent_height " + m2(c.height_m) + ")";
        s.decider = ParamId::filter_ledge;
        s.needed = 0;
    } else if (L.drop > c.wc) {
        const double drop = L.drop * static_cast<double>(c.ch);
        const int nx = c.cx + dir_offset_x(L.dir), nz = c.cz + dir_offset_z(L.dir);
        const float nx0 = c.gbmin[0] + static_cast<float>(nx) * c.cs, nz0 = c.gbmin[2] + static_cast<float>(nz) * c.cs;
        const float ny = filt->bmin[1] + static_cast<float>(L.nfloor) * c.ch;
        set_box(sh, nx0, ny, nz0, nx0 + c.cs, gs.stop, nz0 + c.cs);
        t = "ledge: drop " + m2(drop) + " on the " + side_name(L.dir) + " side > agent_max_climb " + m2(c.climb_m) +
            " (neighbour floor at " + m2(ny) + ")";
        if (drop > c.height_m) {
            s.decider = ParamId::filter_ledge;
            s.needed = 0;
        } else {
            s.decider = ParamId::agent_max_climb;
            s.needed = climb_for(L.drop, c.ch);
        }
    } else if (L.spread > c.wc) {
        const double spread = L.spread * static_cast<double>(c.ch);
        t = "ledge: the reachable neighbour floors spread over " + m2(spread) + " > agent_max_climb " + m2(c.climb_m) +
            " (steep)";
        s.decider = ParamId::agent_max_climb;
        s.needed = climb_for(L.spread, c.ch);
    } else {
        t = "cleared by the ledge filter";
        s.decider = ParamId::filter_ledge;
        s.needed = 0;
    }
    add_stage(s, Stage::Filter, false, gs.span_text + ": " + t, sh);
    lose(s, Stage::Filter, WhyCause::Ledge, t);
    return kStoryEnd;
}

// The low-height filter removed the span: the ceiling over it (at cell height ceil_v).
Stage low_height_loss(GridStory& gs, int ceil_v, double clearance) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const Heightfield* filt = gs.filt;
    WhyShape sh;
    const float cy = filt->bmin[1] + static_cast<float>(ceil_v) * c.ch;
    if (gs.fsp->next != kNullSpan) {
        const Span& ns = filt->pool[gs.fsp->next];
        const float x0 = c.gbmin[0] + static_cast<float>(c.cx) * c.cs, z0 = c.gbmin[2] + static_cast<float>(c.cz) * c.cs;
        set_box(sh, x0, cy, z0, x0 + c.cs, filt->bmin[1] + static_cast<float>(ns.smax) * c.ch, z0 + c.cs);
    }
    // The filter clears a gap of at most walkable_height cells: equal in metres still loses it.
    const bool less = m2(clearance) != m2(c.height_m);
    const std::string t = "clearance " + m2(clearance) + (less ? " < " : " <= ") + "agent_height " + m2(c.height_m) +
                          " (low ceiling at " + m2(cy) + ")";
    add_stage(s, Stage::Filter, false, gs.span_text + ": " + t, sh);
    lose(s, Stage::Filter, WhyCause::LowHeight, t);
    s.decider = ParamId::agent_height;
    s.needed = clearance - c.ch;  // a cell under the clearance: the filter keeps only more than agent_height
    return kStoryEnd;
}

// ---- filter: the span's twin in the filtered heightfield (ledge, low ceiling)
Stage story_filter(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const Heightfield* filt = gs.filt;
    const Span* fsp = gs.fsp;
    if (!filt || !fsp) return not_in_bake(s, Stage::Filter);
    const int ceil_v = fsp->next != kNullSpan ? static_cast<int>(filt->pool[fsp->next].smin) : kSpanMaxHeight;
    const double clearance = (ceil_v - fsp->smax) * static_cast<double>(c.ch);
    const std::string clear_text = ceil_v >= kSpanMaxHeight ? std::string("open above") : "clearance " + m2(clearance);
    if (fsp->area == kNullArea) {
        if (fsp->filtered_by & kFilteredLedge) return ledge_loss(gs);
        if (fsp->filtered_by & kFilteredLowHeight) return low_height_loss(gs, ceil_v, clearance);
        const std::string t = "not walkable after the filters";
        add_stage(s, Stage::Filter, false, t);
        lose(s, Stage::Filter, WhyCause::NotRasterized, t);
        return kStoryEnd;
    }
    add_stage(s, Stage::Filter, true,
              "walkable: " + clear_text + (ceil_v >= kSpanMaxHeight ? "" : " >= agent_height " + m2(c.height_m)) +
                  ", no ledge (agent_max_climb " + m2(c.climb_m) + ")");
    return after(Stage::Filter);
}

// ---- compact: the compact span at the span's floor and its links
Stage story_compact(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const CompactHeightfield* chf = c.g.compact.get();
    if (!chf || chf->cells.size() != static_cast<size_t>(chf->width) * static_cast<size_t>(chf->height) ||
        c.cx >= chf->width || c.cz >= chf->height)
        return not_in_bake(s, Stage::Compact);
    const CompactCell cell = chf->cells[static_cast<size_t>(c.cx + c.cz * chf->width)];
    uint32_t ci = kNullSpan;
    for (uint32_t i = cell.index; i < cell.index + cell.count; ++i)
        if (chf->spans[i].y == gs.fsp->smax) ci = i;
    if (ci == kNullSpan) {
        const std::string t = "no compact span at the floor " + m2(gs.stop);
        add_stage(s, Stage::Compact, false, t);
        lose(s, Stage::Compact, WhyCause::NotInBake, t);
        return kStoryEnd;
    }
    const CompactSpan& cspan = chf->spans[ci];
    gs.chf = chf;
    gs.ci = ci;
    gs.cfloor = chf->bmin[1] + static_cast<float>(cspan.y) * c.ch;
    std::string links;
    int nl = 0;
    for (int dir = 0; dir < 4; ++dir) {
        const bool has = static_cast<uint32_t>(get_con(cspan, dir)) != kNc;
        nl += has;
        if (!has) links += std::string(links.empty() ? "" : ",") + side_name(dir);
    }
    add_stage(s, Stage::Compact, true,
              "compact span " + ival(ci) + ": floor " + m2(gs.cfloor) + ", " +
                  (cspan.h >= 255 ? std::string("open above") : "clearance " + m2(cspan.h * c.ch)) + ", " + ival(nl) +
                  " of 4 links" + (links.empty() ? "" : " (none to " + links + ")"));
    return after(Stage::Compact);
}

// Erosion removed the span: the nearest boundary within `window` cells, what makes it one, and
// whether a smaller radius would open the passage.
Stage erosion_loss(GridStory& gs, int window) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const CompactHeightfield* chf = gs.chf;
    const float* p = c.p;
    const ErodeInfo E = erode_distance(*chf, c.cx, c.cz, gs.ci, window);
    WhyShape sh;
    std::string reason = "no boundary found within " + ival(window) + " cells";
    double dcells = 0;
    bool narrow = true;  // no boundary found: the radius is all there is to change
    if (E.dist >= 0) {
        dcells = E.dist / 2.0;
        const CompactSpan& bs = chf->spans[E.bspan];
        int mdir = -1;
        for (int dir = 0; dir < 4 && mdir < 0; ++dir)
            if (static_cast<uint32_t>(get_con(bs, dir)) == kNc) mdir = dir;
        if (mdir >= 0) {
            reason = why_no_link(c, E.bx, E.bz, bs.y, bs.y + bs.h, mdir, sh);
            cell_side(c, E.bx, E.bz, mdir, chf->bmin[1] + static_cast<float>(bs.y) * c.ch, sh);
        } else {
            reason = "a neighbour that is not walkable";
        }
        const float bx0 = c.gbmin[0] + static_cast<float>(E.bx) * c.cs, bz0 = c.gbmin[2] + static_cast<float>(E.bz) * c.cs;
        const float by = chf->bmin[1] + static_cast<float>(bs.y) * c.ch;
        if (!sh.has_box) set_box(sh, bx0, by - c.ch, bz0, bx0 + c.cs, by, bz0 + c.cs);
        add_line(sh, p[0], gs.cfloor, p[2], bx0 + 0.5f * c.cs, by, bz0 + 0.5f * c.cs);
        reason = "boundary cell " + ival(E.bx) + "," + ival(E.bz) + ": " + reason;
        // The corridor across the axis towards the boundary.
        int dir = mdir >= 0 ? mdir : 0;
        if (E.bx != c.cx || E.bz != c.cz)
            dir = std::abs(E.bx - c.cx) >= std::abs(E.bz - c.cz) ? (E.bx > c.cx ? 2 : 0) : (E.bz > c.cz ? 1 : 3);
        const int cells = corridor_cells(*chf, c.cx, c.cz, gs.ci, dir, 4 * window);
        const double width = cells * static_cast<double>(c.cs);
        narrow = width < 2.0 * c.radius_m;
        if (narrow) reason += "; corridor " + m2(width) + " wide < 2 x agent_radius " + m2(c.radius_m);
    }
    const double dm = dcells * c.cs;
    std::string t = "distance to the nearest boundary " + m2(dm) + " (" + cells_text(dcells) + " cells) < agent_radius " +
                    m2(c.radius_m) + " (" + ival(c.wr) + " cells); " + reason;
    // Beside a wall in open space the navmesh is meant to keep the agent's radius off it: no
    // fix to offer (a radius of 0 would be one, and a wrong answer). A passage narrower than
    // twice the radius is what a smaller radius opens.
    if (!narrow) t += "; as intended: the navmesh keeps agent_radius " + m2(c.radius_m) + " from walls and ledges";
    add_stage(s, Stage::Erode, false, t, sh);
    lose(s, Stage::Erode, WhyCause::Erosion, t);
    if (narrow && E.dist >= 0) {  // no boundary found: the stages disagree, nothing to offer
        s.decider = ParamId::agent_radius;
        s.needed = E.dist >= 0 ? radius_for(E.dist / 2, c.cs) : 0.0;
    }
    return kStoryEnd;
}

// ---- erode: the distance to the nearest boundary against the agent's radius
Stage story_erode(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const CompactHeightfield* chf = gs.chf;
    const std::vector<uint8_t>* eroded = c.g.eroded.get();
    if (!eroded || eroded->size() != chf->spans.size() || chf->areas.size() != chf->spans.size())
        return not_in_bake(s, Stage::Erode);
    const int window = c.wr + 2;
    if ((*eroded)[gs.ci] == kNullArea) return erosion_loss(gs, window);
    const ErodeInfo E = erode_distance(*chf, c.cx, c.cz, gs.ci, window);
    add_stage(s, Stage::Erode, true,
              (E.dist >= 0 ? "distance to the nearest boundary " + m2(E.dist / 2.0 * c.cs) + " (" +
                                 cells_text(E.dist / 2.0) + " cells)"
                           : "no boundary within " + ival(window) + " cells") +
                  " >= agent_radius " + m2(c.radius_m) + " (" + ival(c.wr) + " cells)");
    return after(Stage::Erode);
}

// Replays mark_convex_volume's rule for a span at (px, pz) with floor y and eroded area `area`:
// the last volume to change it wins. The volume's index, -1 when none did.
int volume_of(const std::vector<ConvexVolume>& vols, uint8_t area, float y, float px, float pz) {
    uint8_t cur = area;
    int who = -1;
    for (size_t k = 0; k < vols.size(); ++k) {
        const ConvexVolume& v = vols[k];
        const int nv = static_cast<int>(v.verts.size() / 3);
        if (nv < 3 || cur == kNullArea) continue;
        if (!(y >= v.hmin && y <= v.hmax)) continue;
        bool inside = false;
        for (int i = 0, j = nv - 1; i < nv; j = i++) {
            const float* vi = &v.verts[static_cast<size_t>(i) * 3];
            const float* vj = &v.verts[static_cast<size_t>(j) * 3];
            if (((vi[2] > pz) != (vj[2] > pz)) && (px < (vj[0] - vi[0]) * (pz - vi[2]) / (vj[2] - vi[2]) + vi[0]))
                inside = !inside;
        }
        if (!inside) continue;
        cur = v.area;
        who = static_cast<int>(k);
    }
    return who;
}

std::string area_label(uint8_t id) {
    const std::string_view n = area_name(id);
    return n.empty() ? "area " + ival(id) : std::string(n) + " (" + ival(id) + ")";
}

// ---- areas: the span's area and the convex volume that set it
Stage story_areas(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const std::vector<uint8_t>* areas = c.g.areas.get();
    if (!areas || areas->size() != gs.chf->spans.size()) return not_in_bake(s, Stage::Areas);
    const uint8_t a = (*areas)[gs.ci];
    const float px = c.gbmin[0] + (static_cast<float>(c.cx) + 0.5f) * c.cs;
    const float pz = c.gbmin[2] + (static_cast<float>(c.cz) + 0.5f) * c.cs;
    const std::vector<ConvexVolume>& vols = c.bake.inputs.volumes;
    const int who = volume_of(vols, (*c.g.eroded)[gs.ci], gs.cfloor, px, pz);
    if (a == kNullArea) {
        WhyShape sh;
        std::string t;
        if (who >= 0) {
            const ConvexVolume& v = vols[static_cast<size_t>(who)];
            const int nv = static_cast<int>(v.verts.size() / 3);
            for (int i = 0, j = nv - 1; i < nv; j = i++)
                add_line(sh, v.verts[static_cast<size_t>(j) * 3], gs.cfloor, v.verts[static_cast<size_t>(j) * 3 + 2],
                         v.verts[static_cast<size_t>(i) * 3], gs.cfloor, v.verts[static_cast<size_t>(i) * 3 + 2]);
            t = "convex volume " + ival(who) + " marks it " + area_label(v.area) + " (floor " + m2(gs.cfloor) + " in " +
                f2(v.hmin) + ".." + m2(v.hmax) + ")";
            s.volume = who;
        } else {
            t = "a convex volume marked it not walkable";
        }
        add_stage(s, Stage::Areas, false, t, sh);
        lose(s, Stage::Areas, WhyCause::Volume, t);
        return kStoryEnd;
    }
    add_stage(s, Stage::Areas, true,
              who >= 0 ? "area " + area_label(a) + " from convex volume " + ival(who) : "area " + area_label(a) + ", no volume");
    return after(Stage::Areas);
}

// ---- distance (informational)
Stage story_distance(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const DistanceField* df = c.g.distance.get();
    if (!df || df->dist.size() != gs.chf->spans.size()) return not_in_bake(s, Stage::Distance);
    add_stage(s, Stage::Distance, true,
              "distance field " + ival(df->dist[gs.ci]) + " (max " + ival(df->max_dist) + "), about " +
                  m2(df->dist[gs.ci] / 2.0 * c.cs) + " from the region's edge");
    return after(Stage::Distance);
}

// The span has no region: the island of walkable spans linked to it (merge_and_filter's connected
// regions, flooded up to region_min_size^2 spans), too small or left out by the partition.
Stage region_loss(GridStory& gs, const Regions& rg) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const CompactHeightfield* chf = gs.chf;
    const std::vector<uint8_t>& areas = *c.g.areas;
    const int min_area = c.g.config.min_region_area;
    const int cap = std::max(min_area, 1);
    std::unordered_map<uint32_t, uint8_t> seen;
    seen[gs.ci] = 1;
    int n = 0;
    bool to_border = false;
    WhyShape sh;
    const int bsz = chf->border_size;
    struct Item {
        uint32_t i;
        int x, z;
    };
    std::vector<Item> st{{gs.ci, c.cx, c.cz}};
    while (!st.empty() && n < cap) {
        const Item it = st.back();
        st.pop_back();
        ++n;
        if ((rg.reg[it.i] & kBorderRegion) || it.x < bsz || it.z < bsz || it.x >= chf->width - bsz ||
            it.z >= chf->height - bsz)
            to_border = true;
        if (sh.points.size() < 3 * 4000)
            add_point(sh, c.gbmin[0] + (static_cast<float>(it.x) + 0.5f) * c.cs,
                      chf->bmin[1] + static_cast<float>(chf->spans[it.i].y) * c.ch,
                      c.gbmin[2] + (static_cast<float>(it.z) + 0.5f) * c.cs);
        for (int dir = 0; dir < 4; ++dir) {
            if (static_cast<uint32_t>(get_con(chf->spans[it.i], dir)) == kNc) continue;
            const uint32_t j = chf->neighbour(it.x, it.z, it.i, dir);
            if (areas[j] == kNullArea || seen.count(j)) continue;
            seen[j] = 1;
            st.push_back({j, it.x + dir_offset_x(dir), it.z + dir_offset_z(dir)});
        }
    }
    const bool capped = !st.empty();
    bool removed = false;
    if (const RegionTrace* tr = c.g.region_trace.get(); tr && tr->pre_reg.size() == chf->spans.size()) {
        const uint16_t pre = tr->pre_reg[gs.ci];
        removed = pre != 0 && !(pre & kBorderRegion) && pre < tr->removed.size() && tr->removed[pre];
    }
    if ((!capped && n < min_area && !to_border) || removed) {
        const std::string t = "island of " + ival(n) + " cells < region_min_size^2 = " + ival(min_area) + " (" +
                              m2(std::sqrt(static_cast<double>(n)) * c.cs) + " square < " +
                              m2(std::sqrt(static_cast<double>(min_area)) * c.cs) + ")";
        add_stage(s, Stage::Regions, false, t, sh);
        lose(s, Stage::Regions, WhyCause::SmallRegion, t);
        s.decider = ParamId::region_min_size;
        s.needed = std::floor(std::sqrt(static_cast<double>(n)) + 1e-9);
        return kStoryEnd;
    }
    const std::string t = "no region: the partition left this span out (island of " + std::string(capped ? ">= " : "") +
                          ival(n) + " cells" + (to_border ? ", touching the tile border" : "") + ")";
    add_stage(s, Stage::Regions, false, t, sh);
    lose(s, Stage::Regions, WhyCause::PolygonLost, t);
    return kStoryEnd;
}

// ---- regions: the span's region
Stage story_regions(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const Regions* rg = c.g.regions.get();
    if (!rg || rg->reg.size() != gs.chf->spans.size()) return not_in_bake(s, Stage::Regions);
    gs.reg = rg->reg[gs.ci];
    if (gs.reg == 0) return region_loss(gs, *rg);
    add_stage(s, Stage::Regions, true, "region " + ival(gs.reg) + " (of " + ival(rg->region_count) + ")");
    return after(Stage::Regions);
}

// The edge of a region's simplified outline nearest the point (contour k, edge e from vertex e),
// its distance, and whether the point is inside the outline.
struct OutlineEdge {
    bool inside = false;
    double dist = std::numeric_limits<double>::max();
    const Contour* k = nullptr;
    uint32_t e = 0;
};

OutlineEdge nearest_outline_edge(const ContourSet& cset, const std::vector<const Contour*>& mine, const float* p) {
    const double cs = cset.cs;
    OutlineEdge out;
    for (const Contour* k : mine) {
        std::vector<double> xs, zs;
        for (uint32_t v = 0; v < k->nverts; ++v) {
            const int32_t* q = &cset.verts[(k->vert_start + v) * 4u];
            xs.push_back(cset.bmin[0] + q[0] * cs);
            zs.push_back(cset.bmin[2] + q[2] * cs);
        }
        if (in_polygon_xz(xs, zs, p[0], p[2])) out.inside = true;
        for (uint32_t v = 0; v < k->nverts; ++v) {
            const uint32_t w = (v + 1) % k->nverts;
            const double d = seg_dist_xz(p[0], p[2], xs[v], zs[v], xs[w], zs[w]);
            if (d < out.dist) {
                out.dist = d;
                out.k = k;
                out.e = v;
            }
        }
    }
    return out;
}

// The point has no polygon: when it lies outside the region's simplified outline, the
// simplification dropped it; tells that loss and returns true. False: the outline holds the point.
bool simplified_loss(GridStory& gs, const ContourSet& cset, const std::vector<const Contour*>& mine) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const float* p = c.p;
    const double cs = cset.cs;
    const OutlineEdge near = nearest_outline_edge(cset, mine, p);
    if (near.inside || !near.k || near.dist <= 0.01 * cs) return false;  // on the outline itself: not the simplification
    const Contour* dk = near.k;
    const double dmin = near.dist;
    const int32_t* a = &cset.verts[(dk->vert_start + near.e) * 4u];
    const int32_t* b = &cset.verts[(dk->vert_start + (near.e + 1) % dk->nverts) * 4u];
    const double ax = cset.bmin[0] + a[0] * cs, az = cset.bmin[2] + a[2] * cs;
    const double bx = cset.bmin[0] + b[0] * cs, bz = cset.bmin[2] + b[2] * cs;
    WhyShape sh;
    add_line(sh, float(ax), cset.bmin[1] + a[1] * cset.ch, float(az), float(bx), cset.bmin[1] + b[1] * cset.ch, float(bz));
    // The raw path that edge replaced (its ends are raw vertices, kept in order; a hole merged
    // into the outline has its raw loop elsewhere: then the whole loop), and on it the raw
    // vertices near the point: how far they stand from the simplified edge.
    const uint32_t nraw = dk->nraw;
    auto raw_index = [&](const int32_t* q) -> int64_t {
        for (uint32_t v = 0; v < nraw; ++v) {
            const int32_t* r = &cset.raw_verts[(dk->raw_start + v) * 4u];
            if (r[0] == q[0] && r[1] == q[1] && r[2] == q[2]) return v;
        }
        return -1;
    };
    const int64_t ia = raw_index(a), ib = raw_index(b);
    const bool path = ia >= 0 && ib >= 0 && ia != ib;
    const uint32_t first = path ? static_cast<uint32_t>(ia) : 0;
    const uint32_t count = path ? (static_cast<uint32_t>(ib) + nraw - static_cast<uint32_t>(ia)) % nraw : nraw;
    double dev_near = 0, dev_path = 0;
    const double reach = dmin + 2.0 * cs;
    for (uint32_t k = 0; k <= count && nraw > 0; ++k) {
        const uint32_t v = (first + k) % nraw;
        const int32_t* q = &cset.raw_verts[(dk->raw_start + v) * 4u];
        const double qx = cset.bmin[0] + q[0] * cs, qz = cset.bmin[2] + q[2] * cs;
        const double d = seg_dist_xz(qx, qz, ax, az, bx, bz) / cs;
        dev_path = std::max(dev_path, d);
        if (std::hypot(qx - p[0], qz - p[2]) > reach) continue;
        dev_near = std::max(dev_near, d);
        if (k < count) {
            const int32_t* r = &cset.raw_verts[(dk->raw_start + (v + 1) % nraw) * 4u];
            add_line(sh, float(qx), cset.bmin[1] + q[1] * cset.ch, float(qz), float(cset.bmin[0] + r[0] * cs),
                     cset.bmin[1] + r[1] * cset.ch, float(cset.bmin[2] + r[2] * cs));
        }
    }
    const double dev = dev_near > 0 ? dev_near : dev_path;
    const double maxe = c.g.config.max_simplification_error;
    const std::string t = "the point lies " + m2(dmin) + " (" + fmt("%.1f", dmin / cs) + " cells) outside region " +
                          ival(gs.reg) + "'s simplified outline; the raw outline deviates " + fmt("%.1f", dev) +
                          " cells there <= edge_max_error " + fmt("%.1f", maxe);
    add_stage(s, Stage::Contours, false, t, sh);
    lose(s, Stage::Contours, WhyCause::Simplified, t);
    s.decider = ParamId::edge_max_error;
    s.needed = std::max(0.1, std::floor((dev - 0.1) * 10.0 + 1e-6) / 10.0);
    return true;
}

// ---- contours: the region's outline (and the polygon over the point, for the stages after)
Stage story_contours(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const float* p = c.p;
    const ContourSet* cset = c.g.contours.get();
    if (!cset) return not_in_bake(s, Stage::Contours);
    gs.pm = c.g.polymesh.get();
    gs.ptol = std::max(c.climb_m, c.ch);
    gs.poly_y = 0;
    gs.poly = gs.pm ? find_polymesh_poly(*gs.pm, c.g.detail.get(), p[0], p[2], gs.cfloor, gs.ptol, &gs.poly_y) : -1;
    std::vector<const Contour*> mine;
    for (const Contour& k : cset->contours)
        if (k.reg == gs.reg && k.nverts > 0) mine.push_back(&k);
    if (mine.empty()) {
        const bool warned =
            std::find(cset->warnings.begin(), cset->warnings.end(), static_cast<int>(gs.reg)) != cset->warnings.end();
        const std::string t = "region " + ival(gs.reg) + " has no contour" +
                              (warned ? " (dropped: simplified to fewer than 3 vertices, or a hole could not merge)" : "");
        add_stage(s, Stage::Contours, false, t);
        lose(s, Stage::Contours, WhyCause::PolygonLost, t);
        return kStoryEnd;
    }
    if (gs.pm && gs.poly < 0 && simplified_loss(gs, *cset, mine)) return kStoryEnd;
    uint32_t nv = 0, nraw = 0;
    for (const Contour* k : mine) {
        nv += k->nverts;
        nraw += k->nraw;
    }
    add_stage(s, Stage::Contours, true,
              "region " + ival(gs.reg) + "'s contour: " + ival(nv) + " vertices (raw " + ival(nraw) + ", edge_max_error " +
                  fmt("%.1f", c.g.config.max_simplification_error) + ")");
    return after(Stage::Contours);
}

// ---- polymesh: the polygon over the point (gs.poly, from find_polymesh_poly; -1 none)
Stage story_polymesh(GridStory& gs) {
    WhyStory& s = gs.c.s;
    const PolyMesh* pm = gs.pm;
    if (!pm) return not_in_bake(s, Stage::Polymesh);
    if (gs.poly < 0) {
        std::string t = "no polygon over the point within " + m2(gs.ptol) + " of the floor " + m2(gs.cfloor) +
                        " (the region's outline made none here)";
        for (const std::string& w : pm->warnings) t += "; " + w;
        add_stage(s, Stage::Polymesh, false, t);
        lose(s, Stage::Polymesh, WhyCause::PolygonLost, t);
        return kStoryEnd;
    }
    WhyShape sh;
    const uint16_t* pv = pm->poly(gs.poly);
    const int n = pm->poly_vert_count(gs.poly);
    for (int k = 0; k < n; ++k) {
        const uint16_t* a = &pm->verts[static_cast<size_t>(pv[k]) * 3];
        const uint16_t* b = &pm->verts[static_cast<size_t>(pv[(k + 1) % n]) * 3];
        add_line(sh, pm->bmin[0] + a[0] * pm->cs, pm->bmin[1] + a[1] * pm->ch, pm->bmin[2] + a[2] * pm->cs,
                 pm->bmin[0] + b[0] * pm->cs, pm->bmin[1] + b[1] * pm->ch, pm->bmin[2] + b[2] * pm->cs);
    }
    add_stage(s, Stage::Polymesh, true,
              "polygon " + ival(gs.poly) + " (" + ival(n) + " vertices, region " +
                  ival(pm->regs[static_cast<size_t>(gs.poly)]) + ")",
              std::move(sh));
    return after(Stage::Polymesh);
}

// ---- detail: the polygon's detail height against the voxel floor followed (gs.cfloor)
Stage story_detail(GridStory& gs) {
    WhyStory& s = gs.c.s;
    if (!gs.c.g.detail) return not_in_bake(s, Stage::Detail);
    s.detail_y = gs.poly_y;
    add_stage(s, Stage::Detail, true,
              "detail height " + m2(gs.poly_y) + ", " + m2(std::fabs(gs.poly_y - gs.cfloor)) + " from the voxel floor " +
                  m2(gs.cfloor) +
                  (s.floor_y != gs.cfloor ? ", " + m2(std::fabs(gs.poly_y - s.floor_y)) + " from the surface" : ""));
    return after(Stage::Detail);
}

// ---- navmesh: the runtime polygon over the point, its island and prune flag
Stage story_navmesh(GridStory& gs) {
    const GridCtx& c = gs.c;
    WhyStory& s = c.s;
    const float* p = c.p;
    const NavMesh* nm = c.bake.navmesh.get();
    if (nm && !nm->empty()) {
        float y = 0;
        const uint32_t dp =
            find_navmesh_poly(*nm, p[0], p[2], s.floor_y, std::max(gs.ptol, std::fabs(gs.poly_y - s.floor_y) + c.ch), &y);
        if (dp == kNoPoly) {
            const std::string t = "polygon " + ival(gs.poly) + " has no polygon of the navmesh over the point";
            add_stage(s, Stage::Navmesh, false, t);
            lose(s, Stage::Navmesh, WhyCause::PolygonLost, t);
            return kStoryEnd;
        }
        s.poly = nm->ref(dp);
        s.island = dp < nm->poly_island.size() ? static_cast<int>(nm->poly_island[dp]) : -1;
        s.pruned = dp < nm->flags.size() && (nm->flags[dp] & kPolyFlagDisabled) != 0;
        s.detail_y = y;
        s.on_navmesh = true;
        const std::string t = "navmesh polygon " + ival(dp) + " (ref " + std::to_string(s.poly.value()) + "), island " +
                              ival(s.island) + (s.pruned ? ", disabled by prune" : "");
        add_stage(s, Stage::Navmesh, true, t);
        s.cause_text = "on the navmesh: " + t;
        return after(Stage::Navmesh);
    }
    if (c.bake.tiled() && c.g.tile) {  // one tile baked alone: its runtime tile, no assembled navmesh
        s.on_navmesh = true;
        const std::string t = "polygon " + ival(gs.poly) + " of tile " + ival(s.tile_x) + "," + ival(s.tile_z) +
                              " (no assembled navmesh: no reference or island)";
        add_stage(s, Stage::Navmesh, true, t);
        s.cause_text = "on the navmesh: " + t;
        return after(Stage::Navmesh);
    }
    return not_in_bake(s, Stage::Navmesh);
}

// Every stage's story, in stage order, from the one stage list: a stage without its story_<name>
// function does not compile.
constexpr StoryFn kStories[] = {
#define NAV_WHY_STORY(id, name, scope, key) &story_##name,
    NAV_STAGES(NAV_WHY_STORY, NAV_STAGE_SKIP)
#undef NAV_WHY_STORY
};
static_assert(std::size(kStories) == static_cast<size_t>(kStageCount), "every stage has its story_<name> in kStories");

// The story of the point through the grid's stages: each stage's story in turn, from the input
// until one ends it.
void story_grid(GridCtx& c, const Surface& surf) {
    GridStory gs{c, surf};
    gs.max_slope = c.bake.inputs.params.f(ParamId::agent_max_slope);
    gs.tol = std::max(c.climb_m, 2.0f * c.ch);
    if (surf.tri >= 0)
        gs.input_text = "triangle " + ival(surf.tri) + " at " + m2(surf.y) + ", slope " + fmt("%.1f", surf.slope) +
                        " deg " + (surf.walkable ? "< " : ">= ") + "agent_max_slope " + fmt("%.1f", gs.max_slope) +
                        " deg (" + (surf.walkable ? "walkable" : "not walkable") + ")";
    else
        gs.input_text = "no triangle under the point";
    for (Stage st = Stage::Input; st != kStoryEnd;) st = kStories[static_cast<int>(st)](gs);
}

}  // namespace

std::string_view why_cause_name(WhyCause c) {
    switch (c) {
        case WhyCause::None: return "none";
        case WhyCause::BadPoint: return "bad_point";
        case WhyCause::OutsideBounds: return "outside_bounds";
        case WhyCause::NoGeometry: return "no_geometry";
        case WhyCause::Slope: return "slope";
        case WhyCause::NotRasterized: return "not_rasterized";
        case WhyCause::LowHeight: return "low_height";
        case WhyCause::Ledge: return "ledge";
        case WhyCause::Erosion: return "erosion";
        case WhyCause::Volume: return "volume";
        case WhyCause::SmallRegion: return "small_region";
        case WhyCause::Simplified: return "simplified";
        case WhyCause::PolygonLost: return "polygon_lost";
        case WhyCause::NotInBake: return "not_in_bake";
        case WhyCause::Count: break;
    }
    return "unknown";
}

WhyStory explain_point(const Bake& bake, const float* point) {
    WhyStory s;
    for (int k = 0; k < 3; ++k) s.point[k] = point[k];
    if (!std::isfinite(point[0]) || !std::isfinite(point[1]) || !std::isfinite(point[2])) {
        s.cause = WhyCause::BadPoint;
        s.cause_text = "the point is not finite (NaN or infinite coordinates)";
        return s;
    }
    s.floor_y = point[1];
    const BakeConfig& C = bake.config;
    if (!(point[0] >= C.bmin[0] && point[0] <= C.bmax[0] && point[2] >= C.bmin[2] && point[2] <= C.bmax[2])) {
        s.cause = WhyCause::OutsideBounds;
        s.cause_text = "the point (" + f2(point[0]) + ", " + f2(point[2]) + ") is outside the level's grid x " + f2(C.bmin[0]) +
                       ".." + f2(C.bmax[0]) + ", z " + f2(C.bmin[2]) + ".." + f2(C.bmax[2]);
        return s;
    }
    if (!bake.mesh) {
        not_in_bake(s, Stage::Input);
        return s;
    }
    const Params& P = bake.inputs.params;
    const Surface surf = find_surface(*bake.mesh, bake.tri_areas.get(), P.f(ParamId::agent_max_slope), point[0],
                                      point[2], point[1] + reach_up(bake));
    if (surf.tri >= 0) s.floor_y = surf.y;

    Bake view;
    const Bake* grid = &bake;
    if (bake.tiled()) {
        tile_of(bake, point[0], point[2], s.tile_x, s.tile_z);
        const size_t idx = static_cast<size_t>(s.tile_x + s.tile_z * bake.layout.cols);
        if (idx >= bake.tiles.size() || !bake.tiles[idx]) {
            add_stage(s, Stage::Input, surf.tri >= 0, surf.tri >= 0 ? "triangle " + ival(surf.tri) + " at " + m2(surf.y)
                                                                    : "no triangle under the point");
            const std::string t = "tile " + ival(s.tile_x) + "," + ival(s.tile_z) + " is not baked";
            add_stage(s, Stage::Rasterize, false, t);
            lose(s, Stage::Rasterize, WhyCause::NotInBake, t);
            return s;
        }
        view = tile_view(bake, *bake.tiles[idx]);
        grid = &view;
    }
    GridCtx c{bake, *grid, point, s, C.cs, C.ch, P.f(ParamId::agent_max_climb), P.f(ParamId::agent_height), P.f(ParamId::agent_radius),
              grid->config.walkable_climb, grid->config.walkable_height, grid->config.walkable_radius, {0, 0, 0}};
    for (int k = 0; k < 3; ++k) c.gbmin[k] = grid->config.bmin[k];
    c.w = grid->config.width;
    c.h = grid->config.height;
    c.border = grid->config.border_size;
    c.cx = static_cast<int>(std::floor((point[0] - c.gbmin[0]) / c.cs));
    c.cz = static_cast<int>(std::floor((point[2] - c.gbmin[2]) / c.cs));
    s.cell_x = c.cx;
    s.cell_z = c.cz;
    story_grid(c, surf);
    return s;
}

bool point_on_navmesh(const Bake& bake, const float* point, PolyRef* poly, int* island) {
    // The story's verdict, so the two never disagree (a looser test accepted a polygon of another
    // floor within a climb, and verified fixes that changed nothing there).
    const WhyStory s = explain_point(bake, point);
    if (poly) *poly = s.on_navmesh ? s.poly : kNoRef;
    if (island) *island = s.on_navmesh ? s.island : -1;
    return s.on_navmesh;
}

}  // namespace nav
