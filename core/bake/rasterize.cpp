// Stage 1: triangle rasterization into the solid heightfield.
//
// Semantics follow Recast's rasterizer exactly (the differential tests compare span for span):
// each triangle is split into grid rows (z) and then columns (x) by successive convex polygon
// splits, the y extent of each cell's piece is snapped down/up to cell-height units, and the
// resulting span is merged into its column (overlapping or touching spans merge; the area of the
// merged span takes the max of the two when their tops are within the merge threshold).
// One intentional difference from Recast 1.5.1: geometry left of / below the grid (x or z < 0)
// is cut off at the grid edge (later Recast does this too); 1.5.1 clamped it into column / row
// 0. Bounds taken from the mesh never have such geometry, so full-mesh bakes are identical.
//
// The splits are done by two-chain sweeps (see rasterize_row) that perform exactly the generic
// split's arithmetic for each cut point, bit for bit, at a fraction of the work.
//
// Speed: instead of inserting every span into a linked list as it is produced (pointer chasing
// over the whole pool), rasterize_triangles works in three passes over flat memory:
//   A. clip every triangle and append its raw spans (column, smin, smax, area) to the pool's
//      storage as packed 8-byte records (12-byte Spans on grids of more than 2^24 columns),
//      counting spans per column;
//   B. counting-sort the raw spans by column (stable, so each column keeps triangle order);
//   C. replay each column's raw spans in order with the same merge rule as add_span, writing the
//      final spans column by column at the front of the pool.
// The result is identical to calling add_span for every raw span in triangle order, and the final
// pool is column-contiguous (span i's next is i + 1 within a column), which makes the filters and
// the compact build stream through memory. All scratch lives in the pool itself, so a rebuild into
// the same Heightfield allocates nothing once the pool has grown; the pool never initialises the
// elements it grows by (SpanPoolAllocator), and with 8-byte records the sort needs 16 bytes per
// raw span instead of 24.
#include "core/bake/rasterize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace nav {

void Heightfield::reset(int w, int h, const float* bmin_, const float* bmax_, float cs_, float ch_,
                        int border) {
    width = std::max(0, w);
    height = std::max(0, h);
    border_size = border;
    for (int i = 0; i < 3; ++i) {
        bmin[i] = bmin_[i];
        bmax[i] = bmax_[i];
    }
    cs = cs_;
    ch = ch_;
    columns.assign(static_cast<size_t>(width) * static_cast<size_t>(height), kNullSpan);
    pool.clear();
    free_list = kNullSpan;
    span_count = 0;
}

namespace {

uint32_t alloc_span(Heightfield& hf) {
    if (hf.free_list != kNullSpan) {
        const uint32_t i = hf.free_list;
        hf.free_list = hf.pool[i].next;
        return i;
    }
    hf.pool.emplace_back();
    return static_cast<uint32_t>(hf.pool.size() - 1);
}

void free_span(Heightfield& hf, uint32_t i) {
    hf.pool[i].next = hf.free_list;
    hf.free_list = i;
}

inline int iabs(int v) { return v < 0 ? -v : v; }

// Merges the span [smin, smax) with `area` into the sorted array a[0..n) (the working copy of one
// column, bottom to top), with add_span's rule. Returns the new count. `a` must have room for n+1.
inline uint32_t merge_into(Span* a, uint32_t n, uint16_t smin, uint16_t smax, uint8_t area, int thr) {
    // Fast path: above everything (the common case when triangles arrive bottom-up or in one layer).
    if (n == 0 || a[n - 1].smax < smin) {
        a[n].smin = smin;
        a[n].smax = smax;
        a[n].area = area;
        return n + 1;
    }
    uint32_t i = 0;
    while (a[i].smax < smin) ++i;  // terminates: a[n-1].smax >= smin
    uint32_t j = i;
    int lo = smin, hi = smax;
    int ar = area;
    while (j < n && a[j].smin <= hi) {
        if (a[j].smin < lo) lo = a[j].smin;
        if (a[j].smax > hi) hi = a[j].smax;
        if (iabs(hi - static_cast<int>(a[j].smax)) <= thr) ar = std::max(ar, static_cast<int>(a[j].area));
        ++j;
    }
    const uint32_t merged = j - i;
    if (merged == 0) {  // insert at i (columns are short: plain loops beat memmove calls)
        for (uint32_t k = n; k > i; --k) a[k] = a[k - 1];
        ++n;
    } else if (merged > 1) {  // a[i] takes the merged span, a[i + 1 .. j) go
        for (uint32_t k = j; k < n; ++k) a[k - (merged - 1)] = a[k];
        n -= merged - 1;
    }
    a[i].smin = static_cast<uint16_t>(lo);
    a[i].smax = static_cast<uint16_t>(hi);
    a[i].area = static_cast<uint8_t>(ar);
    return n;
}

// Everything rasterize_tri needs, computed once per call (same float expressions as Recast so
// the cell boundaries and snapped heights agree bit for bit).
struct RasterCtx {
    const float* bmin;
    const float* bmax;
    float cs, ics, ich, by;
    int w, h;
    // Pass A's output: raw span records written from `out` on into hf.pool's storage (whose size
    // is its capacity during pass A), and the per-column raw span counts (hf.columns). Kept here
    // so the hot loop holds them in registers instead of reloading the vector around every span.
    // A record is 8 bytes when the column index fits 24 bits (narrow: column << 40 | area << 32 |
    // smin << 16 | smax), else a 12-byte Span whose next holds the column: the sort then moves
    // two thirds of the bytes.
    unsigned char* out;
    unsigned char* out_end;
    uint32_t* counts;
    bool narrow;
};

inline unsigned char* pool_bytes(Heightfield& hf) { return reinterpret_cast<unsigned char*>(hf.pool.data()); }

// Makes hf.pool hold at least `bytes` bytes; a reallocation copies only the spans under the first
// `used` bytes (new elements are left uninitialised).
inline void pool_reserve_bytes(Heightfield& hf, size_t used, size_t bytes) {
    const size_t need = (bytes + sizeof(Span) - 1) / sizeof(Span);
    if (need <= hf.pool.size()) return;
    hf.pool.resize((used + sizeof(Span) - 1) / sizeof(Span));
    hf.pool.resize(need);
}

// Grows pass A's output when fewer than 12 bytes are left.
[[gnu::noinline]] void grow_raw(Heightfield& hf, RasterCtx& c) {
    const size_t used = static_cast<size_t>(c.out - pool_bytes(hf));
    pool_reserve_bytes(hf, used, std::max<size_t>(1024, hf.pool.size() * 2) * sizeof(Span));
    c.out = pool_bytes(hf) + used;
    c.out_end = pool_bytes(hf) + hf.pool.size() * sizeof(Span);
}

inline void put_raw(Heightfield& hf, RasterCtx& c, uint32_t col, uint16_t smin, uint16_t smax, uint8_t area) {
    if (c.out_end - c.out < static_cast<std::ptrdiff_t>(sizeof(Span))) [[unlikely]]
        grow_raw(hf, c);
    if (c.narrow) {
        const uint64_t r = (static_cast<uint64_t>(col) << 40) | (static_cast<uint64_t>(area) << 32) |
                           (static_cast<uint64_t>(smin) << 16) | smax;
        std::memcpy(c.out, &r, sizeof r);
        c.out += sizeof r;
    } else {
        const Span s{smin, smax, area, 0, col};
        std::memcpy(c.out, &s, sizeof s);
        c.out += sizeof s;
    }
    ++c.counts[col];
}

constexpr size_t kMaxNarrowColumns = size_t{1} << 24;

constexpr int kMaxPolyVerts = 16;  // a triangle cut by 4 lines has at most 7 vertices

// Polygon splits, as Recast's dividePoly: walking the edges (j -> i) of a convex polygon, an edge
// whose ends lie on different sides of the line (side: d >= 0 versus d < 0, d = line - coord)
// contributes the cut point  p_j + (p_i - p_j) * (d_j / (d_j - d_i))  to both parts; vertex i then
// goes to part 1 if d_i > 0 and to part 2 if d_i < 0 (a vertex on the line is the cut point
// already). Without a cut, vertex i goes to part 1 if d_i >= 0 and to part 2 if d_i <= 0.
// The parts keep the cyclic order of the input; only the cyclic order matters to later splits.

// Splits `in` (xyz, n verts) by the plane z = line. Part 1 is stored as (x, y) pairs (all the
// column splits need), part 2 as xyz.
inline void split_row(const float* in, int n, float line, float* out1, int& n1, float* out2, int& n2) {
    float d[kMaxPolyVerts];
    for (int i = 0; i < n; ++i) d[i] = line - in[i * 3 + 2];
    int m = 0, k = 0;
    for (int i = 0, j = n - 1; i < n; j = i, ++i) {
        const bool ina = d[j] >= 0;
        const bool inb = d[i] >= 0;
        if (ina != inb) {
            const float s = d[j] / (d[j] - d[i]);
            const float px = in[j * 3 + 0] + (in[i * 3 + 0] - in[j * 3 + 0]) * s;
            const float py = in[j * 3 + 1] + (in[i * 3 + 1] - in[j * 3 + 1]) * s;
            const float pz = in[j * 3 + 2] + (in[i * 3 + 2] - in[j * 3 + 2]) * s;
            out1[m * 2 + 0] = px;
            out1[m * 2 + 1] = py;
            ++m;
            out2[k * 3 + 0] = px;
            out2[k * 3 + 1] = py;
            out2[k * 3 + 2] = pz;
            ++k;
            if (d[i] > 0) {
                out1[m * 2 + 0] = in[i * 3 + 0];
                out1[m * 2 + 1] = in[i * 3 + 1];
                ++m;
            } else if (d[i] < 0) {
                out2[k * 3 + 0] = in[i * 3 + 0];
                out2[k * 3 + 1] = in[i * 3 + 1];
                out2[k * 3 + 2] = in[i * 3 + 2];
                ++k;
            }
        } else {
            if (d[i] >= 0) {
                out1[m * 2 + 0] = in[i * 3 + 0];
                out1[m * 2 + 1] = in[i * 3 + 1];
                ++m;
                if (d[i] != 0) continue;
            }
            out2[k * 3 + 0] = in[i * 3 + 0];
            out2[k * 3 + 1] = in[i * 3 + 1];
            out2[k * 3 + 2] = in[i * 3 + 2];
            ++k;
        }
    }
    n1 = m;
    n2 = k;
}

// Splits `in` ((x, y) pairs) by the plane x = line. Of part 1 only the vertex count and the y
// range are kept; part 2 is stored as (x, y) pairs.
inline void split_col(const float* in, int n, float line, int& n1, float& ymin, float& ymax, float* out2,
                      int& n2) {
    float d[kMaxPolyVerts];
    for (int i = 0; i < n; ++i) d[i] = line - in[i * 2];
    int m = 0, k = 0;
    float lo = INFINITY, hi = -INFINITY;
    for (int i = 0, j = n - 1; i < n; j = i, ++i) {
        const bool ina = d[j] >= 0;
        const bool inb = d[i] >= 0;
        if (ina != inb) {
            const float s = d[j] / (d[j] - d[i]);
            const float px = in[j * 2 + 0] + (in[i * 2 + 0] - in[j * 2 + 0]) * s;
            const float py = in[j * 2 + 1] + (in[i * 2 + 1] - in[j * 2 + 1]) * s;
            lo = std::min(lo, py);
            hi = std::max(hi, py);
            ++m;
            out2[k * 2 + 0] = px;
            out2[k * 2 + 1] = py;
            ++k;
            if (d[i] > 0) {
                lo = std::min(lo, in[i * 2 + 1]);
                hi = std::max(hi, in[i * 2 + 1]);
                ++m;
            } else if (d[i] < 0) {
                out2[k * 2 + 0] = in[i * 2 + 0];
                out2[k * 2 + 1] = in[i * 2 + 1];
                ++k;
            }
        } else {
            if (d[i] >= 0) {
                lo = std::min(lo, in[i * 2 + 1]);
                hi = std::max(hi, in[i * 2 + 1]);
                ++m;
                if (d[i] != 0) continue;
            }
            out2[k * 2 + 0] = in[i * 2 + 0];
            out2[k * 2 + 1] = in[i * 2 + 1];
            ++k;
        }
    }
    n1 = m;
    n2 = k;
    ymin = lo;
    ymax = hi;
}

// Float to grid index, clamped to [lo, hi] without undefined conversions for huge values.
inline int grid_index(float f, int lo, int hi) {
    if (!(f < static_cast<float>(hi))) return hi;  // also catches NaN
    if (f < static_cast<float>(lo)) return lo;
    return std::clamp(static_cast<int>(f), lo, hi);  // truncation toward zero, as Recast's (int)
}

// Appends the raw span for cell (x, z) with world-space y range [ymin, ymax] (Recast's clamping
// and snapping) to the pool and counts it in its column.
inline void emit_span(Heightfield& hf, RasterCtx& c, int x, int z, float ymin, float ymax, uint8_t area) {
    ymin -= c.bmin[1];
    ymax -= c.bmin[1];
    if (ymax < 0.0f) return;
    if (ymin > c.by) return;
    if (ymin < 0.0f) ymin = 0.0f;
    if (ymax > c.by) ymax = c.by;
    // floor / ceil of non-negative values by truncation (exactly floorf / ceilf here).
    const float fmin = ymin * c.ich;
    const float fmax = ymax * c.ich;
    int smin = fmin < static_cast<float>(kSpanMaxHeight) ? static_cast<int>(fmin) : kSpanMaxHeight;
    int smax = fmax < static_cast<float>(kSpanMaxHeight) ? static_cast<int>(fmax) : kSpanMaxHeight;
    smax += static_cast<int>(static_cast<float>(smax) < fmax);
    smin = std::min(smin, kSpanMaxHeight - 1);
    smax = std::clamp(smax, smin + 1, kSpanMaxHeight);
    put_raw(hf, c, static_cast<uint32_t>(x + z * c.w), static_cast<uint16_t>(smin), static_cast<uint16_t>(smax), area);
}

inline bool finite3(const float* v) {
    // x - x is 0 for finite x and NaN for inf / NaN.
    return (v[0] - v[0]) == 0.0f && (v[1] - v[1]) == 0.0f && (v[2] - v[2]) == 0.0f;
}

// Splits a row polygon ((x, y) pairs, poly[0..n)) into the columns x0..x1 and emits a span for
// every cell piece with at least 3 vertices. lm / rm index its leftmost / rightmost vertex (the
// first of equals); `scratch` is a second polygon buffer.
//
// Most row polygons are x-monotone: walking forward from the leftmost vertex x never decreases
// until the rightmost one, then never increases back. For those, each successive split is fully
// described by two chains: split k's remainder is [cut A, the vertices right of line k in order,
// cut B], and split k+1 cuts the edge from cut A (or the last vertex it passes) forward to the
// first vertex right of line k+1, and the edge from the last vertex right of line k+1 on the way
// back to cut B (or the last vertex passed). The cut points are computed with exactly the
// operands and operations of the generic split, so results are bit-identical, at two divisions
// per cell instead of a pass over the whole polygon. Anything degenerate (a vertex exactly on a
// line, a cut point not strictly left of the next line) hands the identical polygon state to the
// generic split for the rest of the row.
void rasterize_row(Heightfield& hf, RasterCtx& c, float* poly, float* scratch, int n, int lm, int rm, int z,
                   int x0, int x1, uint8_t area) {
    int x = x0;
    bool mono = true;
    for (int i = lm; i != rm;) {
        const int k = i + 1 == n ? 0 : i + 1;
        mono &= poly[k * 2] >= poly[i * 2];
        i = k;
    }
    for (int i = rm; i != lm;) {
        const int k = i + 1 == n ? 0 : i + 1;
        mono &= poly[k * 2] <= poly[i * 2];
        i = k;
    }
    if (mono) {
        float ax = poly[lm * 2], ay = poly[lm * 2 + 1];  // chain A's current point (forward side)
        float bx = ax, by = ay;                          // chain B's current point (backward side)
        int ia = lm + 1 == n ? 0 : lm + 1;               // next unconsumed vertex going forward
        int ib = lm == 0 ? n - 1 : lm - 1;               // next unconsumed vertex going backward
        int remaining = n - 1;                           // unconsumed vertices
        bool cut = false;                                // A and B are cut points (not poly[lm])
        bool done = false;
        for (; x <= x1; ++x) {
            const float line = c.bmin[0] + static_cast<float>(x) * c.cs + c.cs;
            float da = line - ax, db = line - bx;
            if (!(da > 0) || !(db > 0)) break;
            float lo = std::min(ay, by), hi = std::max(ay, by);
            float nax = ax, nay = ay;
            int ja = ia, rem = remaining;
            float dv = 0;
            bool degenerate = false;
            while (rem > 0) {
                dv = line - poly[ja * 2];
                if (dv > 0) {
                    nax = poly[ja * 2];
                    nay = poly[ja * 2 + 1];
                    da = dv;
                    lo = std::min(lo, nay);
                    hi = std::max(hi, nay);
                    ja = ja + 1 == n ? 0 : ja + 1;
                    --rem;
                } else {
                    degenerate = dv == 0;
                    break;
                }
            }
            if (degenerate) break;
            if (rem == 0) {  // the rest of the polygon lies left of the line: one last piece
                if (x >= 0) emit_span(hf, c, x, z, lo, hi, area);
                done = true;
                break;
            }
            float nbx = bx, nby = by;
            int jb = ib;
            float du;
            for (;;) {  // stops at poly[ja] at the latest (dv < 0)
                du = line - poly[jb * 2];
                if (!(du > 0)) break;
                nbx = poly[jb * 2];
                nby = poly[jb * 2 + 1];
                db = du;
                lo = std::min(lo, nby);
                hi = std::max(hi, nby);
                jb = jb == 0 ? n - 1 : jb - 1;
                --rem;
            }
            if (du == 0) break;
            // Edge (A point -> poly[ja]) in polygon order, and edge (poly[jb] -> B point).
            const float sa = da / (da - dv);
            const float cax = nax + (poly[ja * 2] - nax) * sa;
            const float cay = nay + (poly[ja * 2 + 1] - nay) * sa;
            const float sb = du / (du - db);
            const float cbx = poly[jb * 2] + (nbx - poly[jb * 2]) * sb;
            const float cby = poly[jb * 2 + 1] + (nby - poly[jb * 2 + 1]) * sb;
            lo = std::min(lo, std::min(cay, cby));
            hi = std::max(hi, std::max(cay, cby));
            if (x >= 0) emit_span(hf, c, x, z, lo, hi, area);
            ax = cax;
            ay = cay;
            bx = cbx;
            by = cby;
            ia = ja;
            ib = jb;
            remaining = rem;
            cut = true;
        }
        if (done || x > x1) return;
        if (cut) {
            // Rebuild the generic split's polygon for column x: [A, unconsumed vertices, B].
            int k = 0;
            scratch[k * 2] = ax;
            scratch[k * 2 + 1] = ay;
            ++k;
            for (int r = 0, i = ia; r < remaining; ++r, i = i + 1 == n ? 0 : i + 1) {
                scratch[k * 2] = poly[i * 2];
                scratch[k * 2 + 1] = poly[i * 2 + 1];
                ++k;
            }
            scratch[k * 2] = bx;
            scratch[k * 2 + 1] = by;
            ++k;
            std::swap(poly, scratch);
            n = k;
        }
    }
    // Generic splits for what is left of the row.
    for (; x <= x1; ++x) {
        const float cx = c.bmin[0] + static_cast<float>(x) * c.cs;
        int ncell = 0, nnext = 0;
        float ymin, ymax;
        split_col(poly, n, cx + c.cs, ncell, ymin, ymax, scratch, nnext);
        std::swap(poly, scratch);
        n = nnext;
        if (ncell < 3) continue;
        if (x < 0) continue;
        emit_span(hf, c, x, z, ymin, ymax, area);
    }
}

// Finds the x range of a row polygon ((x, y) pairs) and splits it into its cells.
inline void rasterize_row_poly(Heightfield& hf, RasterCtx& c, float* row, float* scratch, int n, int z,
                               uint8_t area) {
    int lm = 0, rm = 0;
    float ylo = row[1], yhi = row[1];
    for (int i = 1; i < n; ++i) {
        if (row[i * 2] < row[lm * 2]) lm = i;
        if (row[i * 2] > row[rm * 2]) rm = i;
        ylo = std::min(ylo, row[i * 2 + 1]);
        yhi = std::max(yhi, row[i * 2 + 1]);
    }
    const float minx = row[lm * 2], maxx = row[rm * 2];
    const float fx0 = (minx - c.bmin[0]) * c.ics;
    const float fx1 = (maxx - c.bmin[0]) * c.ics;
    if (fx1 <= -1.0f) return;  // the row ends left of the grid
    const int x0 = grid_index(fx0, -1, c.w - 1);
    const int x1 = grid_index(fx1, 0, c.w - 1);
    // One column, and the whole piece on the kept side of its line: the split keeps it all.
    if (x0 == x1 && x0 >= 0 && c.bmin[0] + static_cast<float>(x0) * c.cs + c.cs - maxx >= 0) {
        emit_span(hf, c, x0, z, ylo, yhi, area);
        return;
    }
    rasterize_row(hf, c, row, scratch, n, lm, rm, z, x0, x1, area);
}

// Fast path: the whole triangle lies inside one cell, so none of the splits would change it
// (every vertex is on the kept side of the row and column lines). True when it emitted the span.
inline bool rasterize_tri_in_one_cell(const float* tmin, const float* tmax, uint8_t area, Heightfield& hf,
                                      RasterCtx& c) {
    const float fz0 = (tmin[2] - c.bmin[2]) * c.ics, fz1 = (tmax[2] - c.bmin[2]) * c.ics;
    const float fx0 = (tmin[0] - c.bmin[0]) * c.ics, fx1 = (tmax[0] - c.bmin[0]) * c.ics;
    if (fz0 >= 0.0f && fx0 >= 0.0f && fz1 < static_cast<float>(c.h) && fx1 < static_cast<float>(c.w)) {
        const int z = static_cast<int>(fz0), x = static_cast<int>(fx0);
        if (z == static_cast<int>(fz1) && x == static_cast<int>(fx1)) {
            const float zline = c.bmin[2] + static_cast<float>(z) * c.cs + c.cs;
            const float xline = c.bmin[0] + static_cast<float>(x) * c.cs + c.cs;
            if (zline - tmax[2] >= 0 && xline - tmax[0] >= 0) {
                emit_span(hf, c, x, z, tmin[1], tmax[1], area);
                return true;
            }
        }
    }
    return false;
}

// Where the row splits by two chains stopped: the remainder is [cut A, the `remaining` triangle
// vertices from ia on, cut B] when `cut`, else the whole triangle.
struct TriChains {
    float a[3], b[3];
    int ia, ib, remaining;
    bool cut;
};

// Row splits by two chains, as the column splits in rasterize_row (a triangle is always monotone
// along z): the remainder after a split is [cut A, vertices above the line, cut B] and the row
// piece is [A, vertices passed by A, new cut A, new cut B, vertices passed by B (in polygon order),
// B]. Rasterizes rows from z on; returns the row it stopped at (past z1, or a degenerate row:
// `done` false) with the remainder in ch, or with `done` set when the triangle is finished.
inline int rasterize_rows_by_chains(const float* tri, int z, int z1, uint8_t area, Heightfield& hf,
                                    RasterCtx& c, TriChains& ch, bool& done) {
    float row[kMaxPolyVerts * 2], scratch[kMaxPolyVerts * 2];
    const int lm = tri[5] < tri[2] ? (tri[8] < tri[5] ? 2 : 1) : (tri[8] < tri[2] ? 2 : 0);
    float* a = ch.a;
    float* b = ch.b;
    for (int k = 0; k < 3; ++k) a[k] = b[k] = tri[lm * 3 + k];
    ch.ia = lm == 2 ? 0 : lm + 1;
    ch.ib = lm == 0 ? 2 : lm - 1;
    ch.remaining = 2;
    ch.cut = false;
    done = false;
    for (; z <= z1; ++z) {
        const float line = c.bmin[2] + static_cast<float>(z) * c.cs + c.cs;
        float da = line - a[2], db = line - b[2];
        if (!(da > 0) || !(db > 0)) break;
        int n = 0;
        row[n * 2] = a[0];
        row[n * 2 + 1] = a[1];
        ++n;
        const float* pa = a;
        int ja = ch.ia, rem = ch.remaining;
        float dv = 0;
        bool degenerate = false;
        while (rem > 0) {
            dv = line - tri[ja * 3 + 2];
            if (dv > 0) {
                pa = tri + ja * 3;
                da = dv;
                row[n * 2] = pa[0];
                row[n * 2 + 1] = pa[1];
                ++n;
                ja = ja == 2 ? 0 : ja + 1;
                --rem;
            } else {
                degenerate = dv == 0;
                break;
            }
        }
        if (degenerate) break;
        if (rem == 0) {  // everything left lies below the line: one last row piece
            if (ch.cut) {
                row[n * 2] = b[0];
                row[n * 2 + 1] = b[1];
                ++n;
            }
            if (z >= 0) rasterize_row_poly(hf, c, row, scratch, n, z, area);
            done = true;
            break;
        }
        const float* pb = b;
        int jb = ch.ib;
        int passed_b[3];
        int npb = 0;
        float du;
        for (;;) {  // stops at tri[ja] at the latest (dv < 0)
            du = line - tri[jb * 3 + 2];
            if (!(du > 0)) break;
            pb = tri + jb * 3;
            db = du;
            passed_b[npb++] = jb;
            jb = jb == 0 ? 2 : jb - 1;
            --rem;
        }
        if (du == 0) break;
        // Edge (A point -> tri[ja]) in polygon order, and edge (tri[jb] -> B point).
        const float* va = tri + ja * 3;
        const float* vb = tri + jb * 3;
        const float sa = da / (da - dv);
        const float sb = du / (du - db);
        const float na[3] = {pa[0] + (va[0] - pa[0]) * sa, pa[1] + (va[1] - pa[1]) * sa,
                             pa[2] + (va[2] - pa[2]) * sa};
        const float nb[3] = {vb[0] + (pb[0] - vb[0]) * sb, vb[1] + (pb[1] - vb[1]) * sb,
                             vb[2] + (pb[2] - vb[2]) * sb};
        row[n * 2] = na[0];
        row[n * 2 + 1] = na[1];
        ++n;
        row[n * 2] = nb[0];
        row[n * 2 + 1] = nb[1];
        ++n;
        for (int k = npb - 1; k >= 0; --k) {
            row[n * 2] = tri[passed_b[k] * 3];
            row[n * 2 + 1] = tri[passed_b[k] * 3 + 1];
            ++n;
        }
        if (ch.cut) {
            row[n * 2] = b[0];
            row[n * 2 + 1] = b[1];
            ++n;
        }
        for (int k = 0; k < 3; ++k) {
            a[k] = na[k];
            b[k] = nb[k];
        }
        ch.ia = ja;
        ch.ib = jb;
        ch.remaining = rem;
        ch.cut = true;
        if (z >= 0) rasterize_row_poly(hf, c, row, scratch, n, z, area);
    }
    return z;
}

// Degenerate rows (a vertex on a row line): generic splits from row z on, of the polygon the
// chains left (ch).
inline void rasterize_rows_generic(const float* tri, int z, int z1, uint8_t area, Heightfield& hf,
                                   RasterCtx& c, const TriChains& ch) {
    float row[kMaxPolyVerts * 2], scratch[kMaxPolyVerts * 2];
    float bufa[kMaxPolyVerts * 3], bufb[kMaxPolyVerts * 3];
    float* in = bufa;
    float* rest = bufb;
    int nin = 0;
    if (ch.cut) {
        std::memcpy(in, ch.a, sizeof(ch.a));
        nin = 1;
        for (int r = 0, i = ch.ia; r < ch.remaining; ++r, i = i == 2 ? 0 : i + 1, ++nin)
            std::memcpy(in + nin * 3, tri + i * 3, 3 * sizeof(float));
        std::memcpy(in + nin * 3, ch.b, sizeof(ch.b));
        ++nin;
    } else {
        std::memcpy(in, tri, 9 * sizeof(float));
        nin = 3;
    }
    for (; z <= z1; ++z) {
        const float cz = c.bmin[2] + static_cast<float>(z) * c.cs;
        int nrow = 0, nrest = 0;
        split_row(in, nin, cz + c.cs, row, nrow, rest, nrest);
        std::swap(in, rest);
        nin = nrest;
        if (nrow < 3) continue;
        if (z < 0) continue;
        rasterize_row_poly(hf, c, row, scratch, nrow, z, area);
    }
}

void rasterize_tri(const float* v0, const float* v1, const float* v2, uint8_t area, Heightfield& hf,
                   RasterCtx& c) {
    float tmin[3], tmax[3];
    for (int i = 0; i < 3; ++i) {
        tmin[i] = std::min(std::min(v0[i], v1[i]), v2[i]);
        tmax[i] = std::max(std::max(v0[i], v1[i]), v2[i]);
    }
    // Skip triangles that do not touch the heightfield's box.
    for (int i = 0; i < 3; ++i)
        if (tmin[i] > c.bmax[i] || tmax[i] < c.bmin[i]) return;
    if (rasterize_tri_in_one_cell(tmin, tmax, area, hf, c)) return;
    const int z0 = grid_index((tmin[2] - c.bmin[2]) * c.ics, -1, c.h - 1);
    const int z1 = grid_index((tmax[2] - c.bmin[2]) * c.ics, 0, c.h - 1);

    const float tri[9] = {v0[0], v0[1], v0[2], v1[0], v1[1], v1[2], v2[0], v2[1], v2[2]};
    TriChains ch;
    bool done = false;
    const int z = rasterize_rows_by_chains(tri, z0, z1, area, hf, c, ch, done);
    if (done || z > z1) return;
    rasterize_rows_generic(tri, z, z1, area, hf, c, ch);
}

}  // namespace

void add_span(Heightfield& hf, int x, int z, uint16_t smin, uint16_t smax, uint8_t area,
              int flag_merge_threshold) {
    if (x < 0 || z < 0 || x >= hf.width || z >= hf.height) return;
    if (smax <= smin) smax = static_cast<uint16_t>(std::min<int>(smin + 1, kSpanMaxHeight));
    if (smax <= smin) smin = static_cast<uint16_t>(smax - 1);
    const size_t col = static_cast<size_t>(x) + static_cast<size_t>(z) * static_cast<size_t>(hf.width);

    // Skip the spans entirely below the new one.
    uint32_t prev = kNullSpan;
    uint32_t cur = hf.columns[col];
    while (cur != kNullSpan && hf.pool[cur].smax < smin) {
        prev = cur;
        cur = hf.pool[cur].next;
    }
    if (cur == kNullSpan || hf.pool[cur].smin > smax) {
        // No overlap: link a new span between prev and cur.
        const uint32_t s = alloc_span(hf);
        Span& n = hf.pool[s];
        n.smin = smin;
        n.smax = smax;
        n.area = area;
        n.filtered_by = 0;
        n.next = cur;
        if (prev == kNullSpan)
            hf.columns[col] = s;
        else
            hf.pool[prev].next = s;
        ++hf.span_count;
        return;
    }
    // Merge every span that overlaps or touches the growing span into the first of them (the
    // same result as Recast's allocate-new / free-merged sequence, one allocation fewer).
    const uint32_t keep = cur;
    int lo = smin, hi = smax, ar = area;
    while (cur != kNullSpan && hf.pool[cur].smin <= hi) {
        const Span& s = hf.pool[cur];
        if (s.smin < lo) lo = s.smin;
        if (s.smax > hi) hi = s.smax;
        if (iabs(hi - static_cast<int>(s.smax)) <= flag_merge_threshold) ar = std::max(ar, static_cast<int>(s.area));
        const uint32_t next = s.next;
        if (cur != keep) {
            free_span(hf, cur);
            --hf.span_count;
        }
        cur = next;
    }
    Span& k = hf.pool[keep];
    k.smin = static_cast<uint16_t>(lo);
    k.smax = static_cast<uint16_t>(hi);
    k.area = static_cast<uint8_t>(ar);
    k.filtered_by = 0;
    k.next = cur;
}

Status rasterize_triangles(const float* verts, int nverts, const int* tris, const uint8_t* tri_areas,
                           int ntris, Heightfield& hf, int flag_merge_threshold, const CancelFlag* cancel) {
    const size_t ncols = static_cast<size_t>(hf.width) * static_cast<size_t>(hf.height);
    if (hf.columns.size() != ncols)
        return Status::bad_input("rasterize: heightfield not reset (columns " + std::to_string(hf.columns.size()) +
                                 ", expected " + std::to_string(ncols) + ")");
    if (ntris < 0 || nverts < 0 || (ntris > 0 && (!verts || !tris || !tri_areas)))
        return Status::bad_input("rasterize: missing vertex, triangle or area arrays");
    if (!(hf.cs > 0.0f) || !(hf.ch > 0.0f))
        return Status::bad_input("rasterize: cell size and cell height must be positive");
    for (int i = 0; i < ntris * 3; ++i)
        if (tris[i] < 0 || tris[i] >= nverts)
            return Status::bad_input("rasterize: triangle " + std::to_string(i / 3) + " has vertex index " +
                                     std::to_string(tris[i]) + " outside [0, " + std::to_string(nverts) + ")");

    // Spans already in the heightfield come first in every column (as if added before these
    // triangles); collect them in column order so the pool can be rebuilt from scratch.
    std::vector<Span> existing;
    if (hf.span_count > 0) {
        existing.reserve(hf.span_count);
        for (size_t col = 0; col < ncols; ++col)
            for (uint32_t s = hf.columns[col]; s != kNullSpan; s = hf.pool[s].next) {
                Span e = hf.pool[s];
                e.next = static_cast<uint32_t>(col);
                existing.push_back(e);
            }
    }
    hf.pool.clear();
    hf.free_list = kNullSpan;
    hf.span_count = 0;
    std::fill(hf.columns.begin(), hf.columns.end(), 0u);  // per-column raw span counts for now

    RasterCtx c;
    c.bmin = hf.bmin;
    c.bmax = hf.bmax;
    c.cs = hf.cs;
    c.ics = 1.0f / hf.cs;
    c.ich = 1.0f / hf.ch;
    c.by = hf.bmax[1] - hf.bmin[1];
    c.w = hf.width;
    c.h = hf.height;
    c.narrow = ncols <= kMaxNarrowColumns;
    hf.pool.resize(std::max<size_t>(hf.pool.capacity(), 1024));  // no element is written here
    c.out = pool_bytes(hf);
    c.out_end = c.out + hf.pool.size() * sizeof(Span);
    c.counts = hf.columns.data();
    for (const Span& e : existing) put_raw(hf, c, e.next, e.smin, e.smax, e.area);

    // Pass A: clip triangles into raw spans.
    if (ncols > 0) {
        for (int t = 0; t < ntris; ++t) {
            if ((t & 4095) == 4095 && is_cancelled(cancel)) {
                std::fill(hf.columns.begin(), hf.columns.end(), kNullSpan);
                hf.pool.clear();
                return Status::cancelled();
            }
            const float* v0 = verts + static_cast<size_t>(tris[t * 3 + 0]) * 3;
            const float* v1 = verts + static_cast<size_t>(tris[t * 3 + 1]) * 3;
            const float* v2 = verts + static_cast<size_t>(tris[t * 3 + 2]) * 3;
            if (!finite3(v0) || !finite3(v1) || !finite3(v2)) continue;
            rasterize_tri(v0, v1, v2, tri_areas[t], hf, c);
        }
    }
    const size_t rs = c.narrow ? sizeof(uint64_t) : sizeof(Span);  // bytes per raw record
    const size_t nraw = static_cast<size_t>(c.out - pool_bytes(hf)) / rs;
    if (nraw >= static_cast<size_t>(kNullSpan / 2)) {
        std::fill(hf.columns.begin(), hf.columns.end(), kNullSpan);
        hf.pool.clear();
        return Status::bad_input("rasterize: too many spans (" + std::to_string(nraw) + ")");
    }

    // Pass B: stable counting sort by column into bytes [nraw * rs, 2 * nraw * rs) of the pool.
    // columns[col] ends up as the end offset of the column's run.
    uint32_t sum = 0;
    for (size_t col = 0; col < ncols; ++col) {
        const uint32_t n = hf.columns[col];
        hf.columns[col] = sum;
        sum += n;
    }
    pool_reserve_bytes(hf, nraw * rs, 2 * nraw * rs);
    unsigned char* bytes = pool_bytes(hf);
    uint32_t* cols = hf.columns.data();
    if (c.narrow) {
        unsigned char* sorted = bytes + nraw * sizeof(uint64_t);
        for (size_t i = 0; i < nraw; ++i) {
            uint64_t r;
            std::memcpy(&r, bytes + i * sizeof r, sizeof r);
            std::memcpy(sorted + static_cast<size_t>(cols[r >> 40]++) * sizeof r, &r, sizeof r);
        }
    } else {
        Span* pool = hf.pool.data();
        for (size_t i = 0; i < nraw; ++i) {
            const Span s = pool[i];
            pool[nraw + cols[s.next]++] = s;
        }
    }

    // Pass C: merge each column's run in order into the front of the pool, as Spans. The output
    // never catches up with the records still to read: after reading record r of the sorted run
    // at most r + 1 spans are written, (r + 1) * 12 bytes, and the next record starts at
    // nraw * rs + (r + 1) * rs bytes, which is at least that for rs >= 8 and r < nraw.
    const int thr = flag_merge_threshold;
    Span* pool = hf.pool.data();
    const unsigned char* sorted_bytes = bytes + nraw * rs;
    uint32_t out = 0, begin = 0;
    for (size_t col = 0; col < ncols; ++col) {
        const uint32_t end = cols[col];
        if (begin == end) {
            cols[col] = kNullSpan;
            continue;
        }
        Span* a = pool + out;
        uint32_t n = 0;
        if (c.narrow) {
            for (uint32_t r = begin; r < end; ++r) {
                uint64_t rec;
                std::memcpy(&rec, sorted_bytes + static_cast<size_t>(r) * sizeof rec, sizeof rec);
                n = merge_into(a, n, static_cast<uint16_t>(rec >> 16), static_cast<uint16_t>(rec),
                               static_cast<uint8_t>(rec >> 32), thr);
            }
        } else {
            for (uint32_t r = begin; r < end; ++r) {
                Span s;
                std::memcpy(&s, sorted_bytes + static_cast<size_t>(r) * sizeof s, sizeof s);
                n = merge_into(a, n, s.smin, s.smax, s.area, thr);
            }
        }
        for (uint32_t k = 0; k < n; ++k) {
            a[k].filtered_by = 0;
            a[k].next = out + k + 1;
        }
        a[n - 1].next = kNullSpan;
        cols[col] = out;
        out += n;
        begin = end;
    }
    hf.pool.resize(out);
    hf.span_count = out;
    return Status::ok();
}

}  // namespace nav
