// Stage 8: contours. See contours.h. Follows the behaviour of Recast 1.5.1's rcBuildContours so
// that the differential tests can expect identical output; the code is our own. One deliberate
// difference: a simplified outline that crosses itself gets raw wall vertices back until it does
// not (untangle_contour); Recast leaves it crossed.
#include "core/bake/contours.h"
#include "core/bake/geom_int.h"

#include <algorithm>
#include <memory>
#include <string>

namespace nav {
namespace {

using namespace ixz;

constexpr int kVertStride = 4;



// Does the segment d0-d1 cross any edge of the closed polygon verts[0..n), ignoring edges that
// share an end point (in xz) with the segment?
bool segment_crosses_contour(const int32_t* d0, const int32_t* d1, int n, const int32_t* verts) {
    const int minx = std::min(d0[0], d1[0]), maxx = std::max(d0[0], d1[0]);
    const int minz = std::min(d0[2], d1[2]), maxz = std::max(d0[2], d1[2]);
    for (int k = 0; k < n; ++k) {
        const int32_t* p0 = verts + k * kVertStride;
        const int32_t* p1 = verts + next_idx(k, n) * kVertStride;
        // Closed bounding boxes that do not overlap cannot intersect.
        if (std::max(p0[0], p1[0]) < minx || std::min(p0[0], p1[0]) > maxx || std::max(p0[2], p1[2]) < minz ||
            std::min(p0[2], p1[2]) > maxz)
            continue;
        if (same_xz(d0, p0) || same_xz(d1, p0) || same_xz(d0, p1) || same_xz(d1, p1)) continue;
        if (segments_intersect(d0, d1, p0, p1)) return true;
    }
    return false;
}

// Is point p strictly inside the cone formed at vertex i of the polygon by its two edges?
bool in_cone(int i, int n, const int32_t* verts, const int32_t* p) {
    const int32_t* pi = verts + i * kVertStride;
    const int32_t* pnext = verts + next_idx(i, n) * kVertStride;
    const int32_t* pprev = verts + prev_idx(i, n) * kVertStride;
    if (left_on(pprev, pi, pnext)) return left(pi, p, pprev) && left(p, pi, pnext);  // convex corner
    return !(left_on(pi, p, pnext) && left_on(p, pi, pprev));                         // reflex corner
}

// Twice the signed xz area, halved the way Recast does (rounding toward zero of (a+1)/2).
int64_t polygon_area(const int32_t* verts, int n) {
    int64_t a = 0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        const int32_t* vi = verts + i * kVertStride;
        const int32_t* vj = verts + j * kVertStride;
        a += int64_t(vi[0]) * vj[2] - int64_t(vj[0]) * vi[2];
    }
    return (a + 1) / 2;
}

// Squared distance from (x,z) to the segment p-q, in float as the reference does (the rounding
// decides ties against max_error, so it must match).
float dist_pt_seg_sq(int x, int z, int px, int pz, int qx, int qz) {
    const float pqx = static_cast<float>(qx - px);
    const float pqz = static_cast<float>(qz - pz);
    float dx = static_cast<float>(x - px);
    float dz = static_cast<float>(z - pz);
    const float d = pqx * pqx + pqz * pqz;
    float t = pqx * dx + pqz * dz;
    if (d > 0) t /= d;
    if (t < 0)
        t = 0;
    else if (t > 1)
        t = 1;
    dx = static_cast<float>(px) + t * pqx - static_cast<float>(x);
    dz = static_cast<float>(pz) + t * pqz - static_cast<float>(z);
    return dx * dx + dz * dz;
}

// ---------------------------------------------------------------------------------------------
// Raw contour extraction.

struct Grid {
    const CompactCell* cells;
    const CompactSpan* spans;
    const uint8_t* areas;
    const uint16_t* reg;
    ptrdiff_t off[4];  // cell index offset per direction
    uint64_t max_iter;

    Grid(const CompactHeightfield& chf, const uint8_t* a, const uint16_t* r)
        : cells(chf.cells.data()), spans(chf.spans.data()), areas(a), reg(r),
          off{-1, chf.width, 1, -static_cast<ptrdiff_t>(chf.width)},
          max_iter(static_cast<uint64_t>(chf.span_count) * 4u + 4u) {}
    // Key combining region and area, so that a corner between two areas is never a border vertex.
    uint32_t key(uint32_t i) const { return static_cast<uint32_t>(reg[i]) | (static_cast<uint32_t>(areas[i]) << 16); }
    // Neighbour span of span i (in cell ci) in direction dir; requires a link (k != kNotConnected).
    uint32_t nb(size_t ci, int dir, uint32_t k) const {
        return cells[static_cast<size_t>(static_cast<ptrdiff_t>(ci) + off[dir])].index + k;
    }
};

inline uint32_t link(const CompactSpan& s, int dir) { return (s.con >> (dir * 6)) & 0x3fu; }
constexpr uint32_t kNc = static_cast<uint32_t>(kNotConnected);

// Height of the corner at the start of edge `dir` of span i (the clockwise end when walking the
// boundary), the highest floor of the up to four spans around the corner. Sets border_vertex
// when the corner separates two cells of the same tile-border region from two interior cells of
// one area: such vertices lie on the tile border and the polymesh removes them.
int corner_height(const Grid& g, size_t ci, uint32_t i, int dir, bool& border_vertex) {
    const CompactSpan& s = g.spans[i];
    int y = s.y;
    const int dirp = (dir + 1) & 3;
    uint32_t k[4] = {g.key(i), 0, 0, 0};
    const uint32_t l0 = link(s, dir);
    if (l0 != kNc) {
        const size_t ac = static_cast<size_t>(static_cast<ptrdiff_t>(ci) + g.off[dir]);
        const uint32_t ai = g.cells[ac].index + l0;
        const CompactSpan& as = g.spans[ai];
        y = std::max(y, static_cast<int>(as.y));
        k[1] = g.key(ai);
        const uint32_t l1 = link(as, dirp);
        if (l1 != kNc) {
            const uint32_t ai2 = g.nb(ac, dirp, l1);
            y = std::max(y, static_cast<int>(g.spans[ai2].y));
            k[2] = g.key(ai2);
        }
    }
    const uint32_t l2 = link(s, dirp);
    if (l2 != kNc) {
        const size_t ac = static_cast<size_t>(static_cast<ptrdiff_t>(ci) + g.off[dirp]);
        const uint32_t ai = g.cells[ac].index + l2;
        const CompactSpan& as = g.spans[ai];
        y = std::max(y, static_cast<int>(as.y));
        k[3] = g.key(ai);
        const uint32_t l3 = link(as, dir);
        if (l3 != kNc) {
            const uint32_t ai2 = g.nb(ac, dir, l3);
            y = std::max(y, static_cast<int>(g.spans[ai2].y));
            k[2] = g.key(ai2);
        }
    }
    // Only possible next to the tile border; skip the test when no key carries the flag.
    if (((k[0] | k[1] | k[2] | k[3]) & kBorderRegion) == 0) return y;
    for (int j = 0; j < 4; ++j) {
        const uint32_t a = k[j], b = k[(j + 1) & 3], c = k[(j + 2) & 3], d = k[(j + 3) & 3];
        const bool two_same_exterior = (a & b & kBorderRegion) != 0 && a == b;
        const bool two_interior = ((c | d) & kBorderRegion) == 0;
        const bool interior_same_area = (c >> 16) == (d >> 16);
        const bool no_zeros = a != 0 && b != 0 && c != 0 && d != 0;
        if (two_same_exterior && two_interior && interior_same_area && no_zeros) {
            border_vertex = true;
            break;
        }
    }
    return y;
}

// Walks the boundary of span i's region starting at its first boundary edge, appending one raw
// vertex per boundary edge to `pts` and clearing the visited edge bits in `flags`. On a boundary
// edge the walk emits the edge's corner and turns clockwise; on an internal edge it steps into
// the neighbour and turns counter-clockwise.
void walk_contour(const Grid& g, int x, int z, int w, uint32_t i, uint8_t* flags, std::vector<int32_t>& pts) {
    size_t ci = static_cast<size_t>(x) + static_cast<size_t>(z) * static_cast<size_t>(w);
    int dir = 0;
    while ((flags[i] & (1u << dir)) == 0) ++dir;
    const int start_dir = dir;
    const uint32_t start_i = i;
    const uint8_t area = g.areas[i];
    // Every (span, direction) state is visited at most once per walk; the bound only guards
    // against inconsistent links.
    for (uint64_t iter = 0; iter < g.max_iter; ++iter) {
        const CompactSpan& s = g.spans[i];
        const uint32_t l = link(s, dir);
        if (flags[i] & (1u << dir)) {
            bool border_vertex = false;
            const int py = corner_height(g, ci, i, dir, border_vertex);
            // The corner at the start of the edge, clockwise around the cell.
            const int px = x + (dir == 1 || dir == 2 ? 1 : 0);
            const int pz = z + (dir == 0 || dir == 1 ? 1 : 0);
            int32_t r = 0;
            if (l != kNc) {
                const uint32_t ai = g.nb(ci, dir, l);
                r = g.reg[ai];
                if (area != g.areas[ai]) r |= kAreaBorder;
            }
            if (border_vertex) r |= kBorderVertex;
            const size_t n = pts.size();
            pts.resize(n + 4);
            int32_t* v = pts.data() + n;
            v[0] = px;
            v[1] = py;
            v[2] = pz;
            v[3] = r;
            flags[i] = static_cast<uint8_t>(flags[i] & ~(1u << dir));
            dir = (dir + 1) & 3;
        } else {
            if (l == kNc) return;  // inconsistent flags; cannot continue
            i = g.nb(ci, dir, l);
            ci = static_cast<size_t>(static_cast<ptrdiff_t>(ci) + g.off[dir]);
            x += dir_offset_x(dir);
            z += dir_offset_z(dir);
            dir = (dir + 3) & 3;
        }
        if (i == start_i && dir == start_dir) break;
    }
}

// ---------------------------------------------------------------------------------------------
// Simplification: `raw` holds pn raw vertices; the simplified vertices are appended to `out`
// from index `base` (ints) on. While simplifying, the 4th int of a simplified vertex is the
// index of its raw vertex; at the end it becomes the flags of the edge that starts there.

void insert_vertex(std::vector<int32_t>& out, size_t base, int after, const int32_t* raw, int raw_idx) {
    const int32_t v[4] = {raw[raw_idx * 4 + 0], raw[raw_idx * 4 + 1], raw[raw_idx * 4 + 2], raw_idx};
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(base + static_cast<size_t>(after + 1) * 4), v, v + 4);
}

// The raw vertex farthest from the wall segment that starts at simplified vertex i (n vertices
// from `base`), strictly between its ends on the raw loop, with its squared distance; -1 when the
// segment is not a wall (it has a neighbour region, so another contour shares it) or has no raw
// vertex in between.
int farthest_wall_vertex(const int32_t* raw, int pn, const int32_t* sv, int n, int i, float& maxd) {
    const int ai = sv[i * 4 + 3], bi = sv[next_idx(i, n) * 4 + 3];
    maxd = -1;
    int ci = (ai + 1) % pn;
    if ((raw[ci * 4 + 3] & kContourRegMask) != 0) return -1;
    int maxi = -1;
    for (; ci != bi; ci = (ci + 1) % pn) {
        const float d = dist_pt_seg_sq(raw[ci * 4 + 0], raw[ci * 4 + 2], sv[i * 4 + 0], sv[i * 4 + 2],
                                       sv[next_idx(i, n) * 4 + 0], sv[next_idx(i, n) * 4 + 2]);
        if (d > maxd) {
            maxd = d;
            maxi = ci;
        }
    }
    return maxi;
}

// max_error bounds each segment's distance to its own raw path, not its distance to the rest of
// the outline: at a large max_error a long wall chord can pass beyond another stretch of the same
// outline, which then crosses itself (a bowtie). Its signed area no longer says outline or hole,
// and the polymesh stage's ear clipping turns the crossed lobe into a polygon wound the wrong way
// (Recast 1.5.1 does all the same; Detour takes such a tile, our runtime refuses it). So while two
// segments of the outline cross, the crossing wall segment whose raw path strays farthest gets
// that farthest raw vertex back. The raw loop itself never crosses, so this ends (at the latest
// with every raw vertex of the walls back); a simple outline is left as it was. Only walls are
// refined: a portal or area border is shared with the neighbour region's contour, which must keep
// the same vertices. Vertices still hold their raw index (4th int).
void untangle_contour(const int32_t* raw, int pn, std::vector<int32_t>& out, size_t base) {
    std::vector<int> order;
    for (int guard = 0; guard < pn; ++guard) {
        const int n = static_cast<int>((out.size() - base) / 4);
        if (n < 4) return;  // a triangle cannot cross itself
        const int32_t* sv = out.data() + base;
        // Sweep the segments in order of their lowest x; only pairs whose x ranges overlap are tested.
        auto lo_x = [sv, n](int i) { return std::min(sv[i * 4], sv[next_idx(i, n) * 4]); };
        order.resize(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
        std::sort(order.begin(), order.end(),
                  [&lo_x](int a, int b) { return lo_x(a) < lo_x(b) || (lo_x(a) == lo_x(b) && a < b); });
        int fix_seg = -1, fix_raw = -1;
        for (int oa = 0; oa < n && fix_seg < 0; ++oa) {
            const int i = order[static_cast<size_t>(oa)];
            const int32_t* p0 = sv + i * 4;
            const int32_t* p1 = sv + next_idx(i, n) * 4;
            const int hi_x = std::max(p0[0], p1[0]);
            for (int ob = oa + 1; ob < n; ++ob) {
                const int k = order[static_cast<size_t>(ob)];
                if (lo_x(k) > hi_x) break;
                if (k == next_idx(i, n) || i == next_idx(k, n)) continue;  // adjacent segments
                const int32_t* q0 = sv + k * 4;
                const int32_t* q1 = sv + next_idx(k, n) * 4;
                if (!intersect_proper(p0, p1, q0, q1)) continue;
                float di = 0, dk = 0;
                const int ri = farthest_wall_vertex(raw, pn, sv, n, i, di);
                const int rk = farthest_wall_vertex(raw, pn, sv, n, k, dk);
                if (ri < 0 && rk < 0) continue;  // two portals crossing: nothing this stage may move
                const bool take_i = rk < 0 || (ri >= 0 && (di > dk || (di == dk && i < k)));
                fix_seg = take_i ? i : k;
                fix_raw = take_i ? ri : rk;
                break;
            }
        }
        if (fix_seg < 0) return;
        insert_vertex(out, base, fix_seg, raw, fix_raw);
    }
}

void simplify_contour(const int32_t* raw, int pn, std::vector<int32_t>& out, size_t base, float max_error,
                      int max_edge_len, int tess_flags) {
    auto push = [&](int idx) {
        const int32_t v[4] = {raw[idx * 4 + 0], raw[idx * 4 + 1], raw[idx * 4 + 2], idx};
        out.insert(out.end(), v, v + 4);
    };

    bool has_connections = false;
    for (int i = 0; i < pn; ++i) {
        if ((raw[i * 4 + 3] & kContourRegMask) != 0) {
            has_connections = true;
            break;
        }
    }
    if (has_connections) {
        // Mandatory vertices wherever the neighbour region (or the area-border bit) changes.
        for (int i = 0; i < pn; ++i) {
            const int ii = next_idx(i, pn);
            const bool diff_reg = (raw[i * 4 + 3] & kContourRegMask) != (raw[ii * 4 + 3] & kContourRegMask);
            const bool diff_area = (raw[i * 4 + 3] & kAreaBorder) != (raw[ii * 4 + 3] & kAreaBorder);
            if (diff_reg || diff_area) push(i);
        }
    }
    if (out.size() == base) {
        // No portal at all: seed with the lower-left and upper-right vertices.
        int lli = 0, uri = 0;
        int llx = raw[0], llz = raw[2], urx = raw[0], urz = raw[2];
        for (int i = 0; i < pn; ++i) {
            const int x = raw[i * 4 + 0], z = raw[i * 4 + 2];
            if (x < llx || (x == llx && z < llz)) {
                llx = x;
                llz = z;
                lli = i;
            }
            if (x > urx || (x == urx && z > urz)) {
                urx = x;
                urz = z;
                uri = i;
            }
        }
        push(lli);
        push(uri);
    }

    // Insert the farthest raw vertex of each wall / area-border segment while it is farther than
    // max_error. The segment is always scanned in lexicographic order of its end points so that
    // the two regions sharing an edge simplify it the same way.
    const float max_err_sq = max_error * max_error;
    for (int i = 0; i < static_cast<int>((out.size() - base) / 4);) {
        const int n = static_cast<int>((out.size() - base) / 4);
        const int ii = next_idx(i, n);
        const int32_t* sv = out.data() + base;
        int ax = sv[i * 4 + 0], az = sv[i * 4 + 2];
        const int ai = sv[i * 4 + 3];
        int bx = sv[ii * 4 + 0], bz = sv[ii * 4 + 2];
        const int bi = sv[ii * 4 + 3];
        int ci, cinc, endi;
        if (bx > ax || (bx == ax && bz > az)) {
            cinc = 1;
            ci = (ai + cinc) % pn;
            endi = bi;
        } else {
            cinc = pn - 1;
            ci = (bi + cinc) % pn;
            endi = ai;
            std::swap(ax, bx);
            std::swap(az, bz);
        }
        float maxd = 0;
        int maxi = -1;
        if ((raw[ci * 4 + 3] & kContourRegMask) == 0 || (raw[ci * 4 + 3] & kAreaBorder)) {
            while (ci != endi) {
                const float d = dist_pt_seg_sq(raw[ci * 4 + 0], raw[ci * 4 + 2], ax, az, bx, bz);
                if (d > maxd) {
                    maxd = d;
                    maxi = ci;
                }
                ci = (ci + cinc) % pn;
            }
        }
        if (maxi != -1 && maxd > max_err_sq)
            insert_vertex(out, base, i, raw, maxi);
        else
            ++i;
    }

    // Split long wall (and, when asked, area-border) edges at their middle raw vertex.
    if (max_edge_len > 0 && (tess_flags & (kTessWallEdges | kTessAreaEdges)) != 0) {
        const int64_t max_len_sq = int64_t(max_edge_len) * max_edge_len;
        for (int i = 0; i < static_cast<int>((out.size() - base) / 4);) {
            const int n = static_cast<int>((out.size() - base) / 4);
            const int ii = next_idx(i, n);
            const int32_t* sv = out.data() + base;
            const int ax = sv[i * 4 + 0], az = sv[i * 4 + 2], ai = sv[i * 4 + 3];
            const int bx = sv[ii * 4 + 0], bz = sv[ii * 4 + 2], bi = sv[ii * 4 + 3];
            int maxi = -1;
            const int ci = (ai + 1) % pn;
            const bool tess = ((tess_flags & kTessWallEdges) && (raw[ci * 4 + 3] & kContourRegMask) == 0) ||
                              ((tess_flags & kTessAreaEdges) && (raw[ci * 4 + 3] & kAreaBorder));
            if (tess) {
                const int dx = bx - ax, dz = bz - az;
                if (dist_sq(dx, dz) > max_len_sq) {
                    const int span = bi < ai ? (bi + pn - ai) : (bi - ai);
                    if (span > 1) {
                        // Round toward the lexicographically smaller end so both sides agree.
                        if (bx > ax || (bx == ax && bz > az))
                            maxi = (ai + span / 2) % pn;
                        else
                            maxi = (ai + (span + 1) / 2) % pn;
                    }
                }
            }
            if (maxi != -1)
                insert_vertex(out, base, i, raw, maxi);
            else
                ++i;
        }
    }

    untangle_contour(raw, pn, out, base);

    // Final flags: the neighbour region and area-border bit of the edge that starts at the
    // vertex come from the next raw vertex; the border-vertex bit from the vertex itself.
    const int n = static_cast<int>((out.size() - base) / 4);
    int32_t* sv = out.data() + base;
    for (int i = 0; i < n; ++i) {
        const int bi = sv[i * 4 + 3];
        const int ai = (bi + 1) % pn;
        sv[i * 4 + 3] = (raw[ai * 4 + 3] & (kContourRegMask | kAreaBorder)) | (raw[bi * 4 + 3] & kBorderVertex);
    }
}

// Removes a vertex equal in xz to the vertex after it (the triangulator cannot handle zero-length
// edges). One pass, as the reference does.
void remove_degenerate_segments(std::vector<int32_t>& out, size_t base) {
    int n = static_cast<int>((out.size() - base) / 4);
    for (int i = 0; i < n; ++i) {
        const int ni = next_idx(i, n);
        int32_t* sv = out.data() + base;
        if (same_xz(sv + i * 4, sv + ni * 4)) {
            out.erase(out.begin() + static_cast<std::ptrdiff_t>(base + static_cast<size_t>(i) * 4),
                      out.begin() + static_cast<std::ptrdiff_t>(base + static_cast<size_t>(i) * 4 + 4));
            --n;
        }
    }
}

// Boundary bits of the spans in rows [z0, z1): bit dir set when the neighbour in dir is not in
// the span's region. Spans with some but not all bits set are where a walk can start; they are
// listed in scan order (span and cell index). A span whose four sides are all boundary is an
// isolated cell and yields no contour (as in the reference). Returns the number listed.
size_t mark_boundaries(const CompactHeightfield& chf, const uint16_t* __restrict reg, int z0, int z1,
                       uint8_t* __restrict flags, uint32_t* __restrict starts, uint32_t* __restrict start_cells) {
    const int w = chf.width, h = chf.height;
    const CompactCell* __restrict cells = chf.cells.data();
    const CompactSpan* __restrict spans = chf.spans.data();
    size_t n = 0;
    for (int z = z0; z < z1; ++z) {
        const CompactCell* row = cells + static_cast<size_t>(z) * static_cast<size_t>(w);
        // Neighbour rows; an unlinked side never reads them, so the edge rows may alias.
        const CompactCell* row_up = z + 1 < h ? row + w : row;
        const CompactCell* row_dn = z > 0 ? row - w : row;
        for (int x = 0; x < w; ++x) {
            const CompactCell c = row[x];
            if (c.count == 0) continue;
            const int xl = x > 0 ? x - 1 : x, xr = x + 1 < w ? x + 1 : x;
            const uint32_t base0 = row[xl].index, base1 = row_up[x].index, base2 = row[xr].index,
                           base3 = row_dn[x].index;
            for (uint32_t i = c.index, ni = c.index + c.count; i < ni; ++i) {
                const uint16_t r = reg[i];
                if (r == 0 || (r & kBorderRegion)) continue;
                const uint32_t con = spans[i].con;
                // Branch-free: an unlinked side reads the span itself and is masked out.
                const uint32_t k0 = con & 0x3fu, k1 = (con >> 6) & 0x3fu, k2 = (con >> 12) & 0x3fu,
                               k3 = (con >> 18) & 0x3fu;
                const uint32_t n0 = k0 != kNc ? base0 + k0 : i, n1 = k1 != kNc ? base1 + k1 : i,
                               n2 = k2 != kNc ? base2 + k2 : i, n3 = k3 != kNc ? base3 + k3 : i;
                const unsigned diff = static_cast<unsigned>(k0 == kNc || reg[n0] != r) |
                                      (static_cast<unsigned>(k1 == kNc || reg[n1] != r) << 1) |
                                      (static_cast<unsigned>(k2 == kNc || reg[n2] != r) << 2) |
                                      (static_cast<unsigned>(k3 == kNc || reg[n3] != r) << 3);
                if (diff != 0 && diff != 0xf) {
                    flags[i] = static_cast<uint8_t>(diff);
                    starts[n] = i;
                    start_cells[n] = static_cast<uint32_t>(x + z * w);
                    ++n;
                }
            }
        }
    }
    return n;
}

// ---------------------------------------------------------------------------------------------
// Hole merging.

struct Hole {
    uint32_t contour = 0;
    int minx = 0, minz = 0, leftmost = 0;
};

struct Diagonal {
    int vert = 0;
    int64_t dist = 0;
};

Status check_contour_inputs(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, const Regions& regions,
                            float max_error, int max_edge_len) {
    const int w = chf.width, h = chf.height;
    if (w < 0 || h < 0 || chf.cells.size() != static_cast<size_t>(w) * static_cast<size_t>(h))
        return Status::bad_input("contours: compact heightfield cells do not match its size");
    if (chf.spans.size() != chf.span_count || areas.size() != chf.span_count || regions.reg.size() != chf.span_count)
        return Status::bad_input("contours: areas / regions do not match the compact heightfield (" +
                                 std::to_string(areas.size()) + " areas, " + std::to_string(regions.reg.size()) +
                                 " regions, " + std::to_string(chf.span_count) + " spans)");
    if (!(max_error >= 0.0f)) return Status::bad_input("contours: edge_max_error must be >= 0");
    if (max_edge_len < 0) return Status::bad_input("contours: edge_max_len must be >= 0");
    const int border = chf.border_size;
    if (border < 0 || 2 * border > w || 2 * border > h)
        return Status::bad_input("contours: border_size does not fit the grid");
    return Status::ok();
}

// Empties out and sets its box (the grid without its border), cell sizes and grid size.
void start_contour_set(const CompactHeightfield& chf, float max_error, ContourSet& out) {
    const int w = chf.width, h = chf.height, border = chf.border_size;
    out.contours.clear();
    out.verts.clear();
    out.raw_verts.clear();
    out.warnings.clear();
    for (int k = 0; k < 3; ++k) {
        out.bmin[k] = chf.bmin[k];
        out.bmax[k] = chf.bmax[k];
    }
    if (border > 0) {
        const float pad = static_cast<float>(border) * chf.cs;
        out.bmin[0] += pad;
        out.bmin[2] += pad;
        out.bmax[0] -= pad;
        out.bmax[2] -= pad;
    }
    out.cs = chf.cs;
    out.ch = chf.ch;
    out.width = w - 2 * border;
    out.height = h - 2 * border;
    out.border_size = border;
    out.max_error = max_error;
}

// Walks every region boundary that still has unvisited edges, in scan order: one raw and one
// simplified contour each (in grid coordinates without the border); a contour simplified to fewer
// than 3 vertices is dropped and its region reported.
Status trace_contours(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, const uint16_t* reg,
                      float max_error, int max_edge_len, int tess_flags, ContourSet& out, const CancelFlag* cancel) {
    const int w = chf.width, h = chf.height, border = chf.border_size;
    const Grid g(chf, areas.data(), reg);

    // Boundary bits per span and the spans where a walk can start (see mark_boundaries).
    std::vector<uint8_t> flags(chf.span_count, 0);
    // Start candidates: span index and cell index, at most one per span.
    std::unique_ptr<uint32_t[]> start_buf(new uint32_t[static_cast<size_t>(chf.span_count) * 2 + 2]);
    uint32_t* starts = start_buf.get();
    uint32_t* start_cells = starts + chf.span_count + 1;
    size_t nstarts = 0;
    for (int z0 = 0; z0 < h; z0 += 64) {
        if (is_cancelled(cancel)) return Status::cancelled();
        nstarts += mark_boundaries(chf, reg, z0, std::min(h, z0 + 64), flags.data(), starts + nstarts,
                                   start_cells + nstarts);
    }

    for (size_t si = 0; si < nstarts; ++si) {
        if ((si & 255) == 0 && is_cancelled(cancel)) return Status::cancelled();
        const uint32_t i = starts[si];
        if (flags[i] == 0) continue;
        const int x = static_cast<int>(start_cells[si] % static_cast<uint32_t>(w));
        const int z = static_cast<int>(start_cells[si] / static_cast<uint32_t>(w));
        const uint16_t r = reg[i];

        const size_t raw_base = out.raw_verts.size();
        const size_t simp_base = out.verts.size();
        walk_contour(g, x, z, w, i, flags.data(), out.raw_verts);
        const int pn = static_cast<int>((out.raw_verts.size() - raw_base) / 4);
        if (pn == 0) continue;
        simplify_contour(out.raw_verts.data() + raw_base, pn, out.verts, simp_base, max_error, max_edge_len,
                         tess_flags);
        remove_degenerate_segments(out.verts, simp_base);
        const size_t ns = (out.verts.size() - simp_base) / 4;
        if (ns < 3) {
            out.verts.resize(simp_base);
            out.raw_verts.resize(raw_base);
            if (std::find(out.warnings.begin(), out.warnings.end(), static_cast<int>(r)) == out.warnings.end())
                out.warnings.push_back(static_cast<int>(r));
            continue;
        }
        if (border > 0) {
            for (size_t k = simp_base; k < out.verts.size(); k += 4) {
                out.verts[k + 0] -= border;
                out.verts[k + 2] -= border;
            }
            for (size_t k = raw_base; k < out.raw_verts.size(); k += 4) {
                out.raw_verts[k + 0] -= border;
                out.raw_verts[k + 2] -= border;
            }
        }
        Contour ct;
        ct.vert_start = static_cast<uint32_t>(simp_base / 4);
        ct.nverts = static_cast<uint32_t>(ns);
        ct.raw_start = static_cast<uint32_t>(raw_base / 4);
        ct.nraw = static_cast<uint32_t>(pn);
        ct.reg = r;
        ct.area = areas[i];
        out.contours.push_back(ct);
    }
    return Status::ok();
}

// Sorts holes [h0, h1) by their lowest-leftmost vertex (stable, as the reference's qsort on glibc),
// noting that vertex in each.
void sort_holes(const ContourSet& out, std::vector<Hole>& holes, uint32_t h0, uint32_t h1) {
    for (uint32_t hi = h0; hi < h1; ++hi) {
        Hole& hole = holes[hi];
        const Contour& ct = out.contours[hole.contour];
        const int32_t* v = out.verts.data() + ct.vert_start * 4;
        hole.minx = v[0];
        hole.minz = v[2];
        hole.leftmost = 0;
        for (int k = 1; k < static_cast<int>(ct.nverts); ++k) {
            const int x = v[k * 4 + 0], z = v[k * 4 + 2];
            if (x < hole.minx || (x == hole.minx && z < hole.minz)) {
                hole.minx = x;
                hole.minz = z;
                hole.leftmost = k;
            }
        }
    }
    std::stable_sort(holes.begin() + h0, holes.begin() + h1, [](const Hole& a, const Hole& b) {
        return a.minx != b.minx ? a.minx < b.minx : a.minz < b.minz;
    });
}

// The outline vertex the diagonal from hole holes[hi] reaches without crossing the outline or a
// hole not merged yet (holes [hi, h1)), the shortest such from the first hole vertex (from the
// leftmost on) that has one; -1 when none. `best` receives the hole vertex.
int find_bridge(const ContourSet& out, const Contour& ol, const std::vector<Hole>& holes, uint32_t hi, uint32_t h1,
                std::vector<Diagonal>& diags, int& best) {
    const Contour& hc = out.contours[holes[hi].contour];
    const int hn = static_cast<int>(hc.nverts);
    int index = -1;
    best = holes[hi].leftmost;
    for (int iter = 0; iter < hn; ++iter) {
        const int on = static_cast<int>(ol.nverts);
        const int32_t* ov = out.verts.data() + ol.vert_start * 4;
        const int32_t* corner = out.verts.data() + (hc.vert_start + static_cast<uint32_t>(best)) * 4;
        diags.clear();
        for (int j = 0; j < on; ++j) {
            if (in_cone(j, on, ov, corner)) {
                const int dx = ov[j * 4 + 0] - corner[0], dz = ov[j * 4 + 2] - corner[2];
                diags.push_back({j, dist_sq(dx, dz)});
            }
        }
        std::stable_sort(diags.begin(), diags.end(),
                         [](const Diagonal& a, const Diagonal& b) { return a.dist < b.dist; });
        // A diagonal must not cross the outline or any hole not merged yet. (Recast 1.5.1
        // also skips the outline edges at an unrelated vertex, diags[i] for diags[j]; the
        // edges at the diagonal's own ends are skipped by the shared-end test anyway.)
        for (const Diagonal& dg : diags) {
            const int32_t* pt = ov + dg.vert * 4;
            bool crosses = segment_crosses_contour(pt, corner, on, ov);
            for (uint32_t hk = hi; hk < h1 && !crosses; ++hk) {
                const Contour& other = out.contours[holes[hk].contour];
                crosses = segment_crosses_contour(pt, corner, static_cast<int>(other.nverts),
                                                  out.verts.data() + other.vert_start * 4);
            }
            if (!crosses) {
                index = dg.vert;
                break;
            }
        }
        if (index != -1) break;
        best = (best + 1) % hn;
    }
    return index;
}

// Bridge: outline from `index` all the way round back to `index`, then the hole from `best` round
// back to `best`. Appended at the end of out.verts (compacted by the caller); the hole keeps no
// simplified vertices.
void bridge_hole(ContourSet& out, Contour& ol, Contour& hc, int index, int best, std::vector<int32_t>& merged) {
    const int on = static_cast<int>(ol.nverts), hn = static_cast<int>(hc.nverts);
    merged.clear();
    for (int k = 0; k <= on; ++k) {
        const int32_t* s = out.verts.data() + (ol.vert_start + static_cast<uint32_t>((index + k) % on)) * 4;
        merged.insert(merged.end(), s, s + 4);
    }
    for (int k = 0; k <= hn; ++k) {
        const int32_t* s = out.verts.data() + (hc.vert_start + static_cast<uint32_t>((best + k) % hn)) * 4;
        merged.insert(merged.end(), s, s + 4);
    }
    ol.vert_start = static_cast<uint32_t>(out.verts.size() / 4);
    ol.nverts = static_cast<uint32_t>(merged.size() / 4);
    out.verts.insert(out.verts.end(), merged.begin(), merged.end());
    hc.nverts = 0;
}

// Holes: contours wound the other way. Each region is expected to have one outline; its holes
// are bridged into it, leftmost hole first, by the shortest diagonal that crosses nothing. A
// merged hole stays in the set with its raw loop and nverts = 0 (as in Recast), so a caller
// can still draw it; the polymesh skips contours with fewer than 3 vertices.
void merge_holes(ContourSet& out) {
    const size_t nc = out.contours.size();
    if (nc == 0) return;
    std::vector<int8_t> winding(nc, 1);
    size_t nholes = 0;
    int max_reg = 0;
    for (size_t k = 0; k < nc; ++k) {
        const Contour& ct = out.contours[k];
        if (polygon_area(out.verts.data() + ct.vert_start * 4, static_cast<int>(ct.nverts)) < 0) {
            winding[k] = -1;
            ++nholes;
        }
        max_reg = std::max(max_reg, static_cast<int>(ct.reg));
    }
    if (nholes == 0) return;

    // Per region: the outline (or -1) and a range in `holes`.
    const size_t nreg = static_cast<size_t>(max_reg) + 1;
    std::vector<int> outline(nreg, -1);
    std::vector<uint32_t> hole_first(nreg + 1, 0);
    for (size_t k = 0; k < nc; ++k) {
        const Contour& ct = out.contours[k];
        if (winding[k] > 0) {
            // Several outlines for one region means the contour went bad; the last one wins (as
            // in the reference) and the region is reported.
            if (outline[ct.reg] >= 0) out.warnings.push_back(ct.reg);
            outline[ct.reg] = static_cast<int>(k);
        } else {
            ++hole_first[ct.reg + 1u];
        }
    }
    for (size_t r = 0; r < nreg; ++r) hole_first[r + 1] += hole_first[r];
    std::vector<Hole> holes(nholes);
    {
        std::vector<uint32_t> fill(hole_first.begin(), hole_first.end() - 1);
        for (size_t k = 0; k < nc; ++k)
            if (winding[k] < 0) holes[fill[out.contours[k].reg]++].contour = static_cast<uint32_t>(k);
    }

    std::vector<Diagonal> diags;
    std::vector<int32_t> merged;
    bool any_merged = false;
    for (size_t r = 0; r < nreg; ++r) {
        const uint32_t h0 = hole_first[r], h1 = hole_first[r + 1];
        if (h0 == h1) continue;
        if (outline[r] < 0) {
            // Holes without an outline: the simplification was too aggressive for this region.
            out.warnings.push_back(static_cast<int>(r));
            continue;
        }
        Contour& ol = out.contours[static_cast<size_t>(outline[r])];
        sort_holes(out, holes, h0, h1);
        for (uint32_t hi = h0; hi < h1; ++hi) {
            int best = 0;
            const int index = find_bridge(out, ol, holes, hi, h1, diags, best);
            if (index == -1) {
                out.warnings.push_back(static_cast<int>(r));
                continue;
            }
            bridge_hole(out, ol, out.contours[holes[hi].contour], index, best, merged);
            any_merged = true;
        }
    }

    if (any_merged) {
        // Compact the simplified vertices in contour order (merged holes keep their raw outline and
        // have no simplified vertices).
        merged.assign(out.verts.begin(), out.verts.end());
        out.verts.clear();
        for (Contour& ct : out.contours) {
            const size_t s = ct.vert_start * 4u;
            ct.vert_start = static_cast<uint32_t>(out.verts.size() / 4);
            out.verts.insert(out.verts.end(), merged.begin() + static_cast<std::ptrdiff_t>(s),
                             merged.begin() + static_cast<std::ptrdiff_t>(s + ct.nverts * 4u));
        }
    }
}

}  // namespace

Status build_contours(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, const Regions& regions,
                      float max_error, int max_edge_len, int tess_flags, ContourSet& out, const CancelFlag* cancel) {
    if (Status st = check_contour_inputs(chf, areas, regions, max_error, max_edge_len); !st) return st;
    start_contour_set(chf, max_error, out);
    if (Status st = trace_contours(chf, areas, regions.reg.data(), max_error, max_edge_len, tess_flags, out, cancel);
        !st)
        return st;
    merge_holes(out);
    return Status::ok();
}

}  // namespace nav
