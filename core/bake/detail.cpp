// Stage 10: the detail (height) mesh.
//
// Same method as Recast's rcBuildPolyMeshDetail, per polygon:
//   1. Height patch: the floors of the polygon's region inside the polygon's cell bounds grown by
//      one cell; the gaps are filled by a breadth-first flood over span links from the region's
//      spans. A polygon whose region has no span there (or region 0) is seeded instead from the
//      span nearest to one of its vertices, walked over the links to the polygon's centre cell.
//      A height missing at a sample is taken from the nearest ring of cells (up to
//      ceil(max_edge_error) cells away) that has one, the one closest to the expected height.
//   2. Hull: each polygon edge (always walked in the same lexicographic direction, so an edge
//      shared by two polygons gets the same samples) is sampled every sample_dist; the point
//      farthest from the current polyline is added while it deviates more than sample_max_error.
//   3. Interior (polygons at least 2 * sample_dist wide): a sample_dist grid (jittered) inside the
//      polygon; starting from a fan triangulation of the hull, the sample with the largest height
//      error is added and the triangulation made Delaunay until every sample is within
//      sample_max_error (at most 127 vertices per polygon).
//
// What differs from the reference, on purpose:
//   - Speed: Recast re-triangulates the whole polygon from scratch after each added sample and
//     re-measures every sample against every triangle. Here the first re-triangulation is the
//     same gift-wrapping Delaunay construction, after which samples are inserted incrementally
//     (Bowyer-Watson: only the triangles whose circumcircle holds the new point are replaced) and
//     only the samples that lay in replaced triangles are measured again. In general position the
//     triangulation is the same Delaunay triangulation; only exactly co-circular configurations
//     may be split differently.
//   - No spikes: where the patch has no height within the search radius Recast reads its
//     "unset" marker (0xffff cells, i.e. ~13 km at ch 0.2). Here a hull sample keeps the height
//     interpolated between the polygon's own vertices and an interior sample is never added.
//   - Heights: detail vertices are at bmin.y + floor * ch, the same height convention as the
//     polygon mesh vertices (the first vertices of each sub-mesh equal the polygon's vertices).
//     Recast adds one ch to every detail vertex.
//   - Edge flags are set from which hull edge each vertex was sampled on (the reference measures
//     distances to the polygon edges; the two agree except for degenerate polygons).
#include "core/bake/detail.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace nav {
namespace {

constexpr int kMaxDetailVerts = 127;  // per polygon (triangle indices are bytes)
constexpr int kMaxDetailTris = 255;
constexpr int kMaxEdgeSegments = 31;  // samples per hull edge, minus one
constexpr uint16_t kUnsetHeight = 0xffff;
constexpr uint16_t kFrameHeight = 0xfffe;  // the patch's one-cell frame: never read as a height
constexpr int kNoFace = -1;    // gift wrapping: face not found yet
constexpr int kHullFace = -2;  // gift wrapping: outside of the hull

inline float cross2(const float* a, const float* b, const float* c) {
    return (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
}
inline float dist2d(const float* a, const float* b) {
    const float dx = b[0] - a[0], dz = b[2] - a[2];
    return std::sqrt(dx * dx + dz * dz);
}
// Squared xz distance from p to the segment ab.
inline float seg_dist_sq_2d(const float* p, const float* a, const float* b) {
    const float abx = b[0] - a[0], abz = b[2] - a[2];
    float dx = p[0] - a[0], dz = p[2] - a[2];
    const float len = abx * abx + abz * abz;
    float t = abx * dx + abz * dz;
    if (len > 0) t /= len;
    t = std::clamp(t, 0.0f, 1.0f);
    dx = a[0] + t * abx - p[0];
    dz = a[2] + t * abz - p[2];
    return dx * dx + dz * dz;
}
// Squared 3D distance from p to the segment ab.
inline float seg_dist_sq_3d(const float* p, const float* a, const float* b) {
    const float abx = b[0] - a[0], aby = b[1] - a[1], abz = b[2] - a[2];
    float dx = p[0] - a[0], dy = p[1] - a[1], dz = p[2] - a[2];
    const float len = abx * abx + aby * aby + abz * abz;
    float t = abx * dx + aby * dy + abz * dz;
    if (len > 0) t /= len;
    t = std::clamp(t, 0.0f, 1.0f);
    dx = a[0] + t * abx - p[0];
    dy = a[1] + t * aby - p[1];
    dz = a[2] + t * abz - p[2];
    return dx * dx + dy * dy + dz * dz;
}

// Height error of p against triangle abc (xz barycentric, slightly tolerant at the edges), or
// +inf when p is not over the triangle.
inline float tri_height_error(const float* p, const float* a, const float* b, const float* c) {
    const float e0x = c[0] - a[0], e0y = c[1] - a[1], e0z = c[2] - a[2];
    const float e1x = b[0] - a[0], e1y = b[1] - a[1], e1z = b[2] - a[2];
    const float px = p[0] - a[0], pz = p[2] - a[2];
    const float d00 = e0x * e0x + e0z * e0z, d01 = e0x * e1x + e0z * e1z, d02 = e0x * px + e0z * pz;
    const float d11 = e1x * e1x + e1z * e1z, d12 = e1x * px + e1z * pz;
    const float inv = 1.0f / (d00 * d11 - d01 * d01);
    const float u = (d11 * d02 - d01 * d12) * inv;
    const float v = (d00 * d12 - d01 * d02) * inv;
    constexpr float kEps = 1e-4f;
    if (u >= -kEps && v >= -kEps && u + v <= 1 + kEps) return std::fabs(a[1] + e0y * u + e1y * v - p[1]);
    return std::numeric_limits<float>::infinity();
}

// Deterministic jitter in [-1, 1] of the interior sample with index i (the same hash as the
// reference, so the same samples win).
inline float jitter_x(int i) { return static_cast<float>((static_cast<uint32_t>(i) * 0x8da6b343u) & 0xffffu) / 65535.0f * 2.0f - 1.0f; }
inline float jitter_z(int i) { return static_cast<float>((static_cast<uint32_t>(i) * 0xd8163841u) & 0xffffu) / 65535.0f * 2.0f - 1.0f; }

struct Tri {
    int v[3];  // counter-clockwise in the (x, z) sense of cross2
    int n[3];  // neighbour across edge v[k] -> v[k+1], -1 on the hull
};

struct GEdge {
    int s, t;
    int left, right;  // faces on either side of s -> t (kNoFace / kHullFace / triangle)
};

struct Sample {
    float p[3];  // jittered position (polygon-local), sampled height
    float err;   // height error against the current triangulation; < 0: not over any triangle
    int tri;     // the triangle that gave err
    bool added;
};

struct Work {
    // Inputs.
    const PolyMesh& mesh;
    const CompactHeightfield& chf;
    const uint16_t* reg;
    float sample_dist, sample_max_error;
    int search_radius;
    int bs;

    // Height patch of the current polygon.
    // Logical size pw x ph at cells (px0, pz0) (no tile border), stored with a one-cell frame.
    std::vector<uint16_t> patch;
    int px0 = 0, pz0 = 0, pw = 0, ph = 0;
    std::vector<int> queue;  // BFS: chf cell, span, patch cell triples (each cell queued once)

    // Current polygon.
    float poly[kMaxVertsPerPoly * 3] = {};
    int npoly = 0;
    bool poly_ccw = true;
    float verts[(kMaxDetailVerts + 1) * 3] = {};
    int edge_of[kMaxDetailVerts + 1][2] = {};  // polygon edges a vertex lies on (-1 none)
    int nverts = 0;
    int hull[kMaxDetailVerts + 1] = {};
    int nhull = 0;
    std::vector<Tri> tris;
    std::vector<GEdge> gedges;
    std::vector<Sample> samples;
    std::vector<int> cavity, fresh, stamp;
    std::vector<int> bnd;  // cavity boundary: a, b, outside neighbour
    int start_of[kMaxDetailVerts + 1] = {}, end_of[kMaxDetailVerts + 1] = {};
    int stamp_id = 0;

    Work(const PolyMesh& m, const CompactHeightfield& c, const Regions& r, float sd, float sme)
        : mesh(m), chf(c), reg(r.reg.data()), sample_dist(sd), sample_max_error(sme),
          search_radius(std::max(1, static_cast<int>(std::ceil(m.max_edge_error)))), bs(m.border_size) {}

    // ---- height patch ------------------------------------------------------------------------
    void fill_patch(const uint16_t* p, uint16_t region);
    int seed_from_centre(const uint16_t* p);
    int patch_height(float fx, float fy, float fz) const;

    // ---- per polygon -------------------------------------------------------------------------
    void sample_hull_edges();
    void triangulate_hull();
    bool build_delaunay();
    void complete_facet(size_t e, int s, int t);
    bool edge_crosses(int a, int b) const;
    int locate(const float* p, int hint) const;
    bool in_circle(const Tri& t, const float* p) const;
    void insert_point(int pi, int t0);
    void measure_all();
    void sample_interior();
    void build_polygon(int i, PolyMeshDetail& out);
};

// The floors of the polygon's region in the patch, then a flood over links into the gaps.
void Work::fill_patch(const uint16_t* p, uint16_t region) {
    const int ps = pw + 2, cw = chf.width;
    uint16_t* hp = patch.data();
    // Logical cells get "unset"; the one-cell frame gets a value that the flood never overwrites.
    std::fill(hp, hp + static_cast<ptrdiff_t>(ps) * (ph + 2), kFrameHeight);
    for (int hz = 0; hz < ph; ++hz) std::fill(hp + (hz + 1) * ps + 1, hp + (hz + 1) * ps + 1 + pw, kUnsetHeight);
    int* q = queue.data();
    int nq = 0;
    bool empty = true;
    if (region != 0) {
        for (int hz = 0; hz < ph; ++hz) {
            const int crow = px0 + bs + (pz0 + hz + bs) * cw;
            const int prow = (hz + 1) * ps + 1;
            for (int hx = 0; hx < pw; ++hx) {
                const CompactCell& c = chf.cells[crow + hx];
                for (uint32_t i = c.index, ni = c.index + c.count; i < ni; ++i) {
                    if (reg[i] != region) continue;
                    hp[prow + hx] = chf.spans[i].y;
                    empty = false;
                    // Every region span seeds the flood. The reference seeds only the spans with
                    // a neighbour in another region; the others find every neighbour cell
                    // already set, so the flood (and its order) is the same, and the region
                    // test on the neighbours is saved.
                    q[nq++] = crow + hx;
                    q[nq++] = static_cast<int>(i);
                    q[nq++] = prow + hx;
                    break;
                }
            }
        }
    }
    if (empty) nq = seed_from_centre(p);

    const int coff[4] = {-1, cw, 1, -cw};  // dir_offset_x + dir_offset_z * width, per direction
    const int poff[4] = {-1, ps, 1, -ps};
    for (int head = 0; head < nq; head += 3) {
        const int cell = q[head], pcell = q[head + 2];
        const uint32_t con = chf.spans[static_cast<uint32_t>(q[head + 1])].con;
        for (int dir = 0; dir < 4; ++dir) {
            const uint32_t k = (con >> (dir * 6)) & 0x3f;
            if (k == static_cast<uint32_t>(kNotConnected)) continue;
            const int pn = pcell + poff[dir];
            if (hp[pn] != kUnsetHeight) continue;  // set, or the frame
            const int ncell = cell + coff[dir];
            const uint32_t ai = chf.cells[ncell].index + k;
            hp[pn] = chf.spans[ai].y;
            q[nq++] = ncell;
            q[nq++] = static_cast<int>(ai);
            q[nq++] = pn;
        }
    }
}

// No span of the polygon's region under it: start at the span nearest (in height) to a polygon
// vertex, walk over links (breadth first, inside the patch) to the polygon's centre cell and seed
// the flood there, so the flood starts on the polygon's own layer. Returns the queue length.
int Work::seed_from_centre(const uint16_t* p) {
    static constexpr int kOff[9][2] = {{0, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}};
    const int ps = pw + 2, cw = chf.width;
    int sx = 0, sz = 0, si = -1, dmin = std::numeric_limits<int>::max();
    for (int j = 0; j < npoly && dmin > 0; ++j) {
        const uint16_t* v = &mesh.verts[p[j] * 3u];
        for (int k = 0; k < 9 && dmin > 0; ++k) {
            const int ax = v[0] + kOff[k][0], az = v[2] + kOff[k][1];
            if (ax < px0 || ax >= px0 + pw || az < pz0 || az >= pz0 + ph) continue;
            const CompactCell& c = chf.cells[(ax + bs) + (az + bs) * cw];
            for (uint32_t i = c.index, ni = c.index + c.count; i < ni && dmin > 0; ++i) {
                const int d = std::abs(static_cast<int>(v[1]) - static_cast<int>(chf.spans[i].y));
                if (d < dmin) {
                    sx = ax;
                    sz = az;
                    si = static_cast<int>(i);
                    dmin = d;
                }
            }
        }
    }
    if (si < 0) return 0;  // nothing under the polygon at all: every height falls back
    int cx = 0, cz = 0;
    for (int j = 0; j < npoly; ++j) {
        cx += mesh.verts[p[j] * 3u + 0];
        cz += mesh.verts[p[j] * 3u + 2];
    }
    cx /= npoly;
    cz /= npoly;
    const int centre = (cx - px0 + 1) + (cz - pz0 + 1) * ps;

    // Breadth-first walk; logical cells are unset until visited (the frame stops the walk).
    uint16_t* hp = patch.data();
    const int coff[4] = {-1, cw, 1, -cw};
    const int poff[4] = {-1, ps, 1, -ps};
    int* q = queue.data();
    int nq = 0;
    q[nq++] = (sx + bs) + (sz + bs) * cw;
    q[nq++] = si;
    q[nq++] = (sx - px0 + 1) + (sz - pz0 + 1) * ps;
    hp[q[2]] = 0;
    int seed = 0;  // offset in the queue of the seed triple
    for (int head = 0; head < nq; head += 3) {
        if (q[head + 2] == centre) {
            seed = head;
            break;
        }
        const uint32_t con = chf.spans[static_cast<uint32_t>(q[head + 1])].con;
        for (int dir = 0; dir < 4; ++dir) {
            const uint32_t k = (con >> (dir * 6)) & 0x3f;
            if (k == static_cast<uint32_t>(kNotConnected)) continue;
            const int pn = q[head + 2] + poff[dir];
            if (hp[pn] != kUnsetHeight) continue;
            hp[pn] = 0;
            const int ncell = q[head] + coff[dir];
            q[nq++] = ncell;
            q[nq++] = static_cast<int>(chf.cells[ncell].index + k);
            q[nq++] = pn;
        }
    }
    const int cell = q[seed], span = q[seed + 1], pcell = q[seed + 2];
    for (int hz = 0; hz < ph; ++hz) std::fill(hp + (hz + 1) * ps + 1, hp + (hz + 1) * ps + 1 + pw, kUnsetHeight);
    hp[pcell] = chf.spans[static_cast<uint32_t>(span)].y;
    q[0] = cell;
    q[1] = span;
    q[2] = pcell;
    return 3;
}

// Floor height (cells of ch) of the patch at polygon-local (fx, fz). When that cell has no height,
// the nearest ring of cells (up to search_radius) that has one gives the height closest to fy.
// Returns kUnsetHeight when there is none.
int Work::patch_height(float fx, float fy, float fz) const {
    if (pw <= 0 || ph <= 0) return kUnsetHeight;
    const int ps = pw + 2;
    const uint16_t* hp = patch.data() + ps + 1;  // logical (0, 0)
    const float ics = 1.0f / chf.cs;
    const int ix = std::clamp(static_cast<int>(std::floor(fx * ics + 0.01f)) - px0, 0, pw - 1);
    const int iz = std::clamp(static_cast<int>(std::floor(fz * ics + 0.01f)) - pz0, 0, ph - 1);
    const uint16_t h = hp[ix + iz * ps];
    if (h != kUnsetHeight) return h;
    for (int r = 1; r <= search_radius; ++r) {
        int best = kUnsetHeight;
        float bestd = std::numeric_limits<float>::max();
        for (int dz = -r; dz <= r; ++dz) {
            const int z = iz + dz;
            if (z < 0 || z >= ph) continue;
            const int step = (dz == -r || dz == r) ? 1 : 2 * r;
            for (int dx = -r; dx <= r; dx += step) {
                const int x = ix + dx;
                if (x < 0 || x >= pw) continue;
                const uint16_t nh = hp[x + z * ps];
                if (nh == kUnsetHeight) continue;
                const float d = std::fabs(static_cast<float>(nh) * chf.ch - fy);
                if (d < bestd) {
                    bestd = d;
                    best = nh;
                }
            }
        }
        if (best != kUnsetHeight) return best;
    }
    return kUnsetHeight;
}

// Hull: the polygon's vertices and, on each edge, the samples needed to stay within the error.
void Work::sample_hull_edges() {
    float edge[(kMaxEdgeSegments + 1) * 3];
    int idx[kMaxEdgeSegments + 1];
    const float sme_sq = sample_max_error * sample_max_error;
    for (int i = 0, j = npoly - 1; i < npoly; j = i++) {
        const float* a = &poly[j * 3];
        const float* b = &poly[i * 3];
        // Walk every edge in one lexicographic direction so both polygons sharing it agree.
        const bool swapped = std::fabs(a[0] - b[0]) < 1e-6f ? a[2] > b[2] : a[0] > b[0];
        if (swapped) std::swap(a, b);
        const float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
        const float d = std::sqrt(dx * dx + dz * dz);
        int nn = 1 + static_cast<int>(std::floor(d / sample_dist));
        nn = std::min(nn, kMaxEdgeSegments);
        if (nverts + nn >= kMaxDetailVerts) nn = kMaxDetailVerts - 1 - nverts;
        nn = std::max(nn, 1);
        for (int k = 0; k <= nn; ++k) {
            const float u = static_cast<float>(k) / static_cast<float>(nn);
            float* pos = &edge[k * 3];
            pos[0] = a[0] + dx * u;
            pos[1] = a[1] + dy * u;
            pos[2] = a[2] + dz * u;
            const int h = patch_height(pos[0], pos[1], pos[2]);
            if (h != kUnsetHeight) pos[1] = static_cast<float>(h) * chf.ch;
        }
        // Split at the farthest sample until every part is within the error.
        idx[0] = 0;
        idx[1] = nn;
        int nidx = 2;
        for (int k = 0; k < nidx - 1;) {
            const int s0 = idx[k], s1 = idx[k + 1];
            float maxd = 0;
            int maxi = -1;
            for (int m = s0 + 1; m < s1; ++m) {
                const float dev = seg_dist_sq_3d(&edge[m * 3], &edge[s0 * 3], &edge[s1 * 3]);
                if (dev > maxd) {
                    maxd = dev;
                    maxi = m;
                }
            }
            if (maxi != -1 && maxd > sme_sq) {
                for (int m = nidx; m > k + 1; --m) idx[m] = idx[m - 1];
                idx[k + 1] = maxi;
                ++nidx;
            } else {
                ++k;
            }
        }
        hull[nhull++] = j;
        for (int k = 1; k < nidx - 1; ++k) {
            const int e = swapped ? idx[nidx - 1 - k] : idx[k];
            std::memcpy(&verts[nverts * 3], &edge[e * 3], sizeof(float) * 3);
            edge_of[nverts][0] = edge_of[nverts][1] = j;
            hull[nhull++] = nverts++;
        }
    }
}

// Fan-like triangulation of the hull: start at the ear with the smallest perimeter, then advance
// the left or the right front, whichever makes the shorter new triangle.
void Work::triangulate_hull() {
    tris.clear();
    if (nhull < 3) return;
    auto prev = [&](int k) { return k > 0 ? k - 1 : nhull - 1; };
    auto next = [&](int k) { return k + 1 < nhull ? k + 1 : 0; };
    auto emit = [&](int a, int b, int c) {
        Tri t{};
        t.v[0] = a;
        t.v[1] = poly_ccw ? b : c;
        t.v[2] = poly_ccw ? c : b;
        t.n[0] = t.n[1] = t.n[2] = -1;
        tris.push_back(t);
    };
    int start = 0, left = 1, right = nhull - 1;
    float dmin = std::numeric_limits<float>::max();
    for (int k = 0; k < nhull; ++k) {
        if (hull[k] >= npoly) continue;  // ears only at polygon corners (edge samples are flat)
        const float* pv = &verts[hull[prev(k)] * 3];
        const float* cv = &verts[hull[k] * 3];
        const float* nv = &verts[hull[next(k)] * 3];
        const float d = dist2d(pv, cv) + dist2d(cv, nv) + dist2d(nv, pv);
        if (d < dmin) {
            start = k;
            left = next(k);
            right = prev(k);
            dmin = d;
        }
    }
    emit(hull[start], hull[left], hull[right]);
    while (next(left) != right) {
        const int nleft = next(left), nright = prev(right);
        const float* cl = &verts[hull[left] * 3];
        const float* nl = &verts[hull[nleft] * 3];
        const float* cr = &verts[hull[right] * 3];
        const float* nr = &verts[hull[nright] * 3];
        if (dist2d(cl, nl) + dist2d(nl, cr) < dist2d(cr, nr) + dist2d(cl, nr)) {
            emit(hull[left], hull[nleft], hull[right]);
            left = nleft;
        } else {
            emit(hull[left], hull[nright], hull[right]);
            right = nright;
        }
    }
}

// Does the segment a-b properly cross an edge built so far (edges sharing an end excluded)?
bool Work::edge_crosses(int a, int b) const {
    const float* pa = &verts[a * 3];
    const float* pb = &verts[b * 3];
    for (const GEdge& e : gedges) {
        if (e.s == a || e.s == b || e.t == a || e.t == b) continue;
        const float* pc = &verts[e.s * 3];
        const float* pd = &verts[e.t * 3];
        const float a1 = cross2(pc, pd, pb), a2 = cross2(pc, pd, pa);
        if (a1 * a2 < 0.0f) {
            const float a3 = cross2(pa, pb, pc);
            const float a4 = a3 + a2 - a1;
            if (a3 * a4 < 0.0f) return true;
        }
    }
    return false;
}

// Gift wrapping: finds the triangle on the left of s -> t whose circumcircle holds no other point.
void Work::complete_facet(size_t e, int s, int t) {
    constexpr float kLeftEps = 1e-5f;
    constexpr float kTol = 0.001f;
    const float* ps = &verts[s * 3];
    const float* pt = &verts[t * 3];
    int best = -1;
    float cx = 0, cz = 0, r = -1;
    auto circle = [&](int u) {
        // Circumcircle of s, t, u relative to s (better precision).
        const float* pu = &verts[u * 3];
        const float bx = pt[0] - ps[0], bz = pt[2] - ps[2];
        const float ux = pu[0] - ps[0], uz = pu[2] - ps[2];
        const float cp = bx * uz - bz * ux;
        if (std::fabs(cp) > 1e-6f) {
            const float b2 = bx * bx + bz * bz, u2 = ux * ux + uz * uz;
            const float ox = (b2 * uz - u2 * bz) / (2 * cp);
            const float oz = (u2 * bx - b2 * ux) / (2 * cp);
            r = std::sqrt(ox * ox + oz * oz);
            cx = ox + ps[0];
            cz = oz + ps[2];
        } else {
            cx = ps[0];
            cz = ps[2];
            r = 0;
        }
        best = u;
    };
    for (int u = 0; u < nverts; ++u) {
        if (u == s || u == t) continue;
        const float* pu = &verts[u * 3];
        if (cross2(ps, pt, pu) <= kLeftEps) continue;
        if (r < 0) {
            circle(u);
            continue;
        }
        const float dx = pu[0] - cx, dz = pu[2] - cz;
        const float d = std::sqrt(dx * dx + dz * dz);
        if (d > r * (1 + kTol)) continue;
        if (d < r * (1 - kTol)) {
            circle(u);
            continue;
        }
        // On the circle within tolerance: take u only if its edges cross nothing built so far.
        if (edge_crosses(s, u) || edge_crosses(t, u)) continue;
        circle(u);
    }
    auto set_face = [&](size_t k, int a, int b, int f) {
        GEdge& g = gedges[k];
        if (g.s == a && g.t == b && g.left == kNoFace)
            g.left = f;
        else if (g.s == b && g.t == a && g.right == kNoFace)
            g.right = f;
    };
    if (best < 0) {
        set_face(e, s, t, kHullFace);
        return;
    }
    const int f = static_cast<int>(tris.size());
    Tri tri{};
    tri.v[0] = s;
    tri.v[1] = t;
    tri.v[2] = best;
    tri.n[0] = tri.n[1] = tri.n[2] = -1;
    tris.push_back(tri);
    set_face(e, s, t, f);
    auto link = [&](int a, int b) {  // edge a -> b of the new face
        for (size_t k = 0; k < gedges.size(); ++k) {
            const GEdge& g = gedges[k];
            if ((g.s == a && g.t == b) || (g.s == b && g.t == a)) {
                set_face(k, a, b, f);
                return;
            }
        }
        gedges.push_back({a, b, f, kNoFace});
    };
    link(best, s);
    link(t, best);
}

// Delaunay triangulation of all current vertices inside the hull, with neighbour links.
bool Work::build_delaunay() {
    tris.clear();
    gedges.clear();
    for (int i = 0, j = nhull - 1; i < nhull; j = i++) {
        // Interior on the left of the stored direction.
        if (poly_ccw)
            gedges.push_back({hull[j], hull[i], kNoFace, kHullFace});
        else
            gedges.push_back({hull[i], hull[j], kNoFace, kHullFace});
    }
    const size_t max_edges = static_cast<size_t>(nverts) * 10;
    for (size_t e = 0; e < gedges.size(); ++e) {
        if (gedges.size() > max_edges) return false;
        if (gedges[e].left == kNoFace) complete_facet(e, gedges[e].s, gedges[e].t);
        if (gedges[e].right == kNoFace) complete_facet(e, gedges[e].t, gedges[e].s);
    }
    if (tris.empty() || tris.size() > static_cast<size_t>(kMaxDetailTris)) return false;
    auto set_n = [&](int f, int a, int b, int g) {
        Tri& t = tris[f];
        for (int k = 0; k < 3; ++k) {
            const int v0 = t.v[k], v1 = t.v[(k + 1) % 3];
            if ((v0 == a && v1 == b) || (v0 == b && v1 == a)) t.n[k] = g;
        }
    };
    for (const GEdge& g : gedges) {
        if (g.left >= 0 && g.right >= 0) {
            set_n(g.left, g.s, g.t, g.right);
            set_n(g.right, g.s, g.t, g.left);
        }
    }
    return true;
}

// The triangle holding p (walking from hint), or -1 when no triangle holds it.
int Work::locate(const float* p, int hint) const {
    const int nt = static_cast<int>(tris.size());
    auto holds = [&](const Tri& tr) {
        for (int k = 0; k < 3; ++k)
            if (cross2(&verts[tr.v[k] * 3], &verts[tr.v[(k + 1) % 3] * 3], p) < 0) return false;
        return true;
    };
    int t = (hint >= 0 && hint < nt && tris[hint].v[0] >= 0) ? hint : -1;
    for (int steps = 0; t >= 0 && steps < 2 * nt + 4; ++steps) {
        const Tri& tr = tris[t];
        int nextt = -1;
        bool outside = false;
        for (int k = 0; k < 3 && nextt < 0; ++k) {
            if (cross2(&verts[tr.v[k] * 3], &verts[tr.v[(k + 1) % 3] * 3], p) >= 0) continue;
            outside = true;
            nextt = tr.n[k];
        }
        if (!outside) return t;
        t = nextt;
    }
    for (int k = 0; k < nt; ++k)  // the walk left the hull or cycled on rounding: search
        if (tris[k].v[0] >= 0 && holds(tris[k])) return k;
    return -1;
}

bool Work::in_circle(const Tri& t, const float* p) const {
    const float* a = &verts[t.v[0] * 3];
    const float* b = &verts[t.v[1] * 3];
    const float* c = &verts[t.v[2] * 3];
    const double ax = double(a[0]) - p[0], az = double(a[2]) - p[2];
    const double bx = double(b[0]) - p[0], bz = double(b[2]) - p[2];
    const double cx = double(c[0]) - p[0], cz = double(c[2]) - p[2];
    const double det = (ax * ax + az * az) * (bx * cz - bz * cx) - (bx * bx + bz * bz) * (ax * cz - az * cx) +
                       (cx * cx + cz * cz) * (ax * bz - az * bx);
    return det > 0;
}

// Bowyer-Watson insertion of vertex pi, whose containing triangle is t0.
void Work::insert_point(int pi, int t0) {
    const float* p = &verts[pi * 3];
    if (stamp.size() < tris.size() + 8) stamp.resize(tris.size() + 64, 0);
    // Cavity: the triangles whose circumcircle holds p, connected to t0.
    const int mark = ++stamp_id;
    cavity.clear();
    cavity.push_back(t0);
    stamp[t0] = mark;
    for (size_t k = 0; k < cavity.size(); ++k) {
        const Tri& t = tris[cavity[k]];
        for (int e = 0; e < 3; ++e) {
            const int nb = t.n[e];
            if (nb >= 0 && stamp[nb] != mark && in_circle(tris[nb], p)) {
                stamp[nb] = mark;
                cavity.push_back(nb);
            }
        }
    }
    // Rounding guard: every boundary edge must see p on its left; drop triangles that break it.
    for (;;) {
        bool dropped = false;
        for (int c : cavity) {
            if (c == t0 || stamp[c] != stamp_id) continue;
            const Tri& t = tris[c];
            for (int e = 0; e < 3; ++e) {
                const int nb = t.n[e];
                if (nb >= 0 && stamp[nb] == stamp_id) continue;
                if (cross2(&verts[t.v[e] * 3], &verts[t.v[(e + 1) % 3] * 3], p) <= 0) {
                    stamp[c] = 0;
                    dropped = true;
                    break;
                }
            }
        }
        if (!dropped) break;
        // Keep the part still connected to t0.
        const int keep = ++stamp_id;
        size_t n = 0;
        fresh.clear();
        fresh.push_back(t0);
        stamp[t0] = keep;
        while (n < fresh.size()) {
            const Tri& t = tris[fresh[n++]];
            for (int e = 0; e < 3; ++e) {
                const int nb = t.n[e];
                if (nb >= 0 && stamp[nb] == keep - 1) {
                    stamp[nb] = keep;
                    fresh.push_back(nb);
                }
            }
        }
        cavity.swap(fresh);
    }
    const int in = stamp_id;
    // Boundary edges, in cavity order.
    bnd.clear();
    for (int c : cavity) {
        const Tri& t = tris[c];
        for (int e = 0; e < 3; ++e) {
            const int nb = t.n[e];
            if (nb >= 0 && stamp[nb] == in) continue;
            bnd.push_back(t.v[e]);
            bnd.push_back(t.v[(e + 1) % 3]);
            bnd.push_back(nb);
        }
    }
    // New fan around p: reuse the cavity's slots, then append.
    const int nb_edges = static_cast<int>(bnd.size() / 3);
    fresh.clear();
    for (int k = 0; k < nb_edges; ++k) {
        int slot;
        if (k < static_cast<int>(cavity.size())) {
            slot = cavity[k];
        } else {
            slot = static_cast<int>(tris.size());
            tris.push_back(Tri{});
        }
        fresh.push_back(slot);
        const int a = bnd[k * 3], b = bnd[k * 3 + 1], out = bnd[k * 3 + 2];
        Tri& t = tris[slot];
        t.v[0] = a;
        t.v[1] = b;
        t.v[2] = pi;
        t.n[0] = out;
        start_of[a] = slot;
        end_of[b] = slot;
        if (out >= 0) {
            Tri& o = tris[out];
            for (int e = 0; e < 3; ++e)
                if (o.v[e] == b && o.v[(e + 1) % 3] == a) o.n[e] = slot;
        }
    }
    for (int slot : fresh) {
        Tri& t = tris[slot];
        t.n[1] = start_of[t.v[1]];
        t.n[2] = end_of[t.v[0]];
    }
    // A cavity that lost its disc shape to the guard leaves slots unused: retire them.
    for (size_t k = static_cast<size_t>(nb_edges); k < cavity.size(); ++k) {
        Tri& t = tris[cavity[k]];
        t.v[0] = t.v[1] = t.v[2] = -1;
        t.n[0] = t.n[1] = t.n[2] = -1;
    }
    // Re-measure the samples whose triangle was replaced.
    const int fresh_mark = ++stamp_id;
    for (int slot : fresh) stamp[slot] = fresh_mark;
    for (size_t k = static_cast<size_t>(nb_edges); k < cavity.size(); ++k) stamp[cavity[k]] = fresh_mark;
    for (Sample& s : samples) {
        if (s.added || s.err < 0 || stamp[s.tri] != fresh_mark) continue;
        float best = std::numeric_limits<float>::infinity();
        int bt = -1;
        for (int slot : fresh) {
            const Tri& t = tris[slot];
            const float d = tri_height_error(s.p, &verts[t.v[0] * 3], &verts[t.v[1] * 3], &verts[t.v[2] * 3]);
            if (d < best) {
                best = d;
                bt = slot;
            }
        }
        if (bt < 0) {  // rounding: look everywhere
            for (int k = 0; k < static_cast<int>(tris.size()); ++k) {
                const Tri& t = tris[k];
                if (t.v[0] < 0) continue;
                const float d = tri_height_error(s.p, &verts[t.v[0] * 3], &verts[t.v[1] * 3], &verts[t.v[2] * 3]);
                if (d < best) {
                    best = d;
                    bt = k;
                }
            }
        }
        s.err = bt < 0 ? -1.0f : best;
        s.tri = bt < 0 ? 0 : bt;
    }
}

// Height error of every sample not yet added against every triangle.
void Work::measure_all() {
    for (Sample& s : samples) {
        if (s.added) continue;
        float best = std::numeric_limits<float>::infinity();
        int bt = -1;
        for (int k = 0; k < static_cast<int>(tris.size()); ++k) {
            const Tri& t = tris[k];
            if (t.v[0] < 0) continue;
            const float d = tri_height_error(s.p, &verts[t.v[0] * 3], &verts[t.v[1] * 3], &verts[t.v[2] * 3]);
            if (d < best) {
                best = d;
                bt = k;
            }
        }
        s.err = bt < 0 ? -1.0f : best;
        s.tri = bt < 0 ? 0 : bt;
    }
}

// Grid samples inside the polygon (away from its edges); the worst one is added until all fit.
void Work::sample_interior() {
    float bmin[3], bmax[3];
    std::memcpy(bmin, poly, sizeof(bmin));
    std::memcpy(bmax, poly, sizeof(bmax));
    for (int k = 1; k < npoly; ++k)
        for (int c = 0; c < 3; ++c) {
            bmin[c] = std::min(bmin[c], poly[k * 3 + c]);
            bmax[c] = std::max(bmax[c], poly[k * 3 + c]);
        }
    const int x0 = static_cast<int>(std::floor(bmin[0] / sample_dist));
    const int x1 = static_cast<int>(std::ceil(bmax[0] / sample_dist));
    const int z0 = static_cast<int>(std::floor(bmin[2] / sample_dist));
    const int z1 = static_cast<int>(std::ceil(bmax[2] / sample_dist));
    const float mid_y = (bmin[1] + bmax[1]) * 0.5f;
    const float jit = chf.cs * 0.1f;
    samples.clear();
    int index = 0;  // jitter index: every grid point inside, with or without height data
    for (int z = z0; z < z1; ++z) {
        for (int x = x0; x < x1; ++x) {
            const float pt[3] = {static_cast<float>(x) * sample_dist, mid_y, static_cast<float>(z) * sample_dist};
            // Inside and far enough from the edges. As in the reference, the margin compares the
            // squared distance to sample_dist / 2.
            bool inside = false;
            float dmin = std::numeric_limits<float>::max();
            for (int i = 0, j = npoly - 1; i < npoly; j = i++) {
                const float* vi = &poly[i * 3];
                const float* vj = &poly[j * 3];
                if (((vi[2] > pt[2]) != (vj[2] > pt[2])) &&
                    (pt[0] < (vj[0] - vi[0]) * (pt[2] - vi[2]) / (vj[2] - vi[2]) + vi[0]))
                    inside = !inside;
                dmin = std::min(dmin, seg_dist_sq_2d(pt, vj, vi));
            }
            if (!inside || dmin < sample_dist / 2) continue;
            const int i = index++;
            const int h = patch_height(pt[0], pt[1], pt[2]);
            if (h == kUnsetHeight) continue;  // no height data near: never added
            Sample s{};
            s.p[0] = pt[0] + jitter_x(i) * jit;
            s.p[1] = static_cast<float>(h) * chf.ch;
            s.p[2] = pt[2] + jitter_z(i) * jit;
            s.added = false;
            samples.push_back(s);
        }
    }
    if (samples.empty()) return;
    measure_all();
    bool delaunay = false;
    while (nverts < kMaxDetailVerts) {
        float bestd = 0;
        int besti = -1;
        for (int k = 0; k < static_cast<int>(samples.size()); ++k) {
            const Sample& s = samples[k];
            if (!s.added && s.err > bestd) {
                bestd = s.err;
                besti = k;
            }
        }
        if (besti < 0 || bestd <= sample_max_error) break;
        Sample& s = samples[besti];
        s.added = true;
        const int pi = nverts++;
        std::memcpy(&verts[pi * 3], s.p, sizeof(s.p));
        edge_of[pi][0] = edge_of[pi][1] = -1;
        if (!delaunay) {
            // First interior point: Delaunay triangulation of hull + point from scratch.
            if (!build_delaunay()) {
                --nverts;  // cannot triangulate: keep the hull triangulation
                triangulate_hull();
                return;
            }
            delaunay = true;
            measure_all();
        } else {
            const int t0 = locate(s.p, s.tri);
            if (t0 < 0) {
                --nverts;  // over no triangle after all (rounding): leave it out
                continue;
            }
            insert_point(pi, t0);
        }
    }
}

void Work::build_polygon(int pidx, PolyMeshDetail& out) {
    const uint16_t* p = mesh.poly(pidx);
    const int nvp = mesh.nvp;
    npoly = 0;
    while (npoly < nvp && p[npoly] != kMeshNullIdx) ++npoly;
    const float cs = mesh.cs, ch = mesh.ch;
    int xmin = chf.width - 2 * bs, xmax = 0, zmin = chf.height - 2 * bs, zmax = 0;
    for (int j = 0; j < npoly; ++j) {
        const uint16_t* v = &mesh.verts[p[j] * 3u];
        poly[j * 3 + 0] = v[0] * cs;
        poly[j * 3 + 1] = v[1] * ch;
        poly[j * 3 + 2] = v[2] * cs;
        xmin = std::min<int>(xmin, v[0]);
        xmax = std::max<int>(xmax, v[0]);
        zmin = std::min<int>(zmin, v[2]);
        zmax = std::max<int>(zmax, v[2]);
    }
    // Cell bounds grown by one, inside the grid without its tile border.
    px0 = std::max(0, xmin - 1);
    pz0 = std::max(0, zmin - 1);
    pw = std::max(0, std::min(chf.width - 2 * bs, xmax + 1) - px0);
    ph = std::max(0, std::min(chf.height - 2 * bs, zmax + 1) - pz0);
    float area2 = 0;
    for (int i = 0, j = npoly - 1; i < npoly; j = i++)
        area2 += poly[j * 3 + 0] * poly[i * 3 + 2] - poly[i * 3 + 0] * poly[j * 3 + 2];
    poly_ccw = area2 >= 0;  // cross2 sense: counter-clockwise in (x, z)

    if (pw > 0 && ph > 0) {
        fill_patch(p, mesh.regs[pidx]);
    }

    std::memcpy(verts, poly, sizeof(float) * 3 * npoly);
    for (int j = 0; j < npoly; ++j) {
        edge_of[j][0] = j;
        edge_of[j][1] = j > 0 ? j - 1 : npoly - 1;
    }
    nverts = npoly;
    nhull = 0;
    tris.clear();
    if (npoly >= 3) {
        if (sample_dist > 0) {
            sample_hull_edges();
        } else {
            hull[nhull++] = npoly - 1;
            for (int j = 0; j + 1 < npoly; ++j) hull[nhull++] = j;
        }
        triangulate_hull();
        // Smallest width of the polygon: slivers get no interior points.
        float min_extent = std::numeric_limits<float>::max();
        for (int i = 0; i < npoly; ++i) {
            const int ni = (i + 1) % npoly;
            float maxd = 0;
            for (int j = 0; j < npoly; ++j)
                if (j != i && j != ni) maxd = std::max(maxd, seg_dist_sq_2d(&poly[j * 3], &poly[i * 3], &poly[ni * 3]));
            min_extent = std::min(min_extent, maxd);
        }
        min_extent = std::sqrt(min_extent);
        if (sample_dist > 0 && min_extent >= sample_dist * 2 && !tris.empty()) sample_interior();
    }

    // Store: world coordinates, triangles in the polygon's winding with hull-edge flags.
    const uint32_t vbase = static_cast<uint32_t>(out.verts.size() / 3);
    const uint32_t tbase = static_cast<uint32_t>(out.tris.size() / 4);
    for (int j = 0; j < nverts; ++j) {
        out.verts.push_back(verts[j * 3 + 0] + mesh.bmin[0]);
        out.verts.push_back(verts[j * 3 + 1] + mesh.bmin[1]);
        out.verts.push_back(verts[j * 3 + 2] + mesh.bmin[2]);
    }
    auto on_hull = [&](int a, int b) -> uint8_t {
        const int* ea = edge_of[a];
        const int* eb = edge_of[b];
        if (ea[0] < 0 || eb[0] < 0) return 0;
        return (ea[0] == eb[0] || ea[0] == eb[1] || ea[1] == eb[0] || ea[1] == eb[1]) ? 1 : 0;
    };
    uint32_t ntris = 0;
    for (const Tri& t : tris) {
        if (t.v[0] < 0) continue;
        if (ntris == static_cast<uint32_t>(kMaxDetailTris)) break;
        const int a = t.v[0], b = poly_ccw ? t.v[1] : t.v[2], c = poly_ccw ? t.v[2] : t.v[1];
        out.tris.push_back(static_cast<uint8_t>(a));
        out.tris.push_back(static_cast<uint8_t>(b));
        out.tris.push_back(static_cast<uint8_t>(c));
        out.tris.push_back(static_cast<uint8_t>(on_hull(a, b) | (on_hull(b, c) << 2) | (on_hull(c, a) << 4)));
        ++ntris;
    }
    out.meshes.push_back(vbase);
    out.meshes.push_back(static_cast<uint32_t>(nverts));
    out.meshes.push_back(tbase);
    out.meshes.push_back(ntris);
}

}  // namespace

Status build_poly_mesh_detail(const PolyMesh& mesh, const CompactHeightfield& chf, const Regions& regions,
                              float sample_dist, float sample_max_error, PolyMeshDetail& out,
                              const CancelFlag* cancel) {
    out.meshes.clear();
    out.verts.clear();
    out.tris.clear();
    out.nmeshes = out.nverts = out.ntris = 0;
    if (mesh.nvp < 3 || mesh.nvp > kMaxVertsPerPoly)
        return Status::bad_input("detail: verts per polygon must be in [3, " + std::to_string(kMaxVertsPerPoly) +
                                 "], got " + std::to_string(mesh.nvp));
    if (mesh.npolys < 0 || mesh.polys.size() < static_cast<size_t>(mesh.npolys) * 2 * static_cast<size_t>(mesh.nvp) ||
        mesh.regs.size() < static_cast<size_t>(mesh.npolys) || mesh.verts.size() < static_cast<size_t>(mesh.nverts) * 3)
        return Status::internal("detail: polygon mesh arrays do not match its counts");
    if (!(sample_max_error >= 0.0f) || !std::isfinite(sample_dist))
        return Status::bad_input("detail: sample_max_error must be >= 0 and sample_dist finite");
    if (chf.width < 0 || chf.height < 0 ||
        chf.cells.size() != static_cast<size_t>(chf.width) * static_cast<size_t>(chf.height) ||
        regions.reg.size() != chf.spans.size())
        return Status::internal("detail: compact heightfield and regions do not match");
    if (mesh.npolys == 0 || mesh.nverts == 0) return Status::ok();
    for (int i = 0; i < mesh.npolys; ++i) {
        const uint16_t* p = mesh.poly(i);
        for (int j = 0; j < mesh.nvp && p[j] != kMeshNullIdx; ++j)
            if (p[j] >= mesh.nverts) return Status::internal("detail: polygon " + std::to_string(i) + " has a bad vertex index");
    }
    if (mesh.border_size < 0 || mesh.border_size * 2 > std::min(chf.width, chf.height))
        return Status::internal("detail: bad border size");

    Work w(mesh, chf, regions, sample_dist < 0.9f * chf.cs ? 0.0f : sample_dist, sample_max_error);
    // Patch size: the largest polygon bounds, grown by one cell each side.
    size_t max_patch = 0;
    for (int i = 0; i < mesh.npolys; ++i) {
        const uint16_t* p = mesh.poly(i);
        const int gw = chf.width - 2 * mesh.border_size, gh = chf.height - 2 * mesh.border_size;
        int xmin = gw, xmax = 0, zmin = gh, zmax = 0;
        for (int j = 0; j < mesh.nvp && p[j] != kMeshNullIdx; ++j) {
            const uint16_t* v = &mesh.verts[p[j] * 3u];
            xmin = std::min<int>(xmin, v[0]);
            xmax = std::max<int>(xmax, v[0]);
            zmin = std::min<int>(zmin, v[2]);
            zmax = std::max<int>(zmax, v[2]);
        }
        const int pw = std::min(gw, xmax + 1) - std::max(0, xmin - 1);
        const int ph = std::min(gh, zmax + 1) - std::max(0, zmin - 1);
        if (pw > 0 && ph > 0) max_patch = std::max(max_patch, static_cast<size_t>(pw + 2) * static_cast<size_t>(ph + 2));
    }
    w.patch.resize(max_patch);
    w.queue.resize(max_patch * 3);
    w.tris.reserve(kMaxDetailTris + 8);
    w.gedges.reserve(kMaxDetailVerts * 10 + 8);
    w.stamp.assign(kMaxDetailTris + 8, 0);
    out.meshes.reserve(static_cast<size_t>(mesh.npolys) * 4);

    for (int i = 0; i < mesh.npolys; ++i) {
        if ((i & 63) == 0 && is_cancelled(cancel)) return Status::cancelled();
        w.build_polygon(i, out);
    }
    out.nmeshes = mesh.npolys;
    out.nverts = static_cast<int>(out.verts.size() / 3);
    out.ntris = static_cast<int>(out.tris.size() / 4);
    return Status::ok();
}

}  // namespace nav
