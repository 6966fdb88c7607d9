// Stage 1 (rasterize): hand-made inputs with known answers, the span merge rules, and properties
// on generated scenes (sorted disjoint columns; the batch rasterizer equals span-by-span merging).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <random>
#include <tuple>
#include <vector>

#include "core/bake/rasterize.h"
#include "test_scenes.h"

namespace {

using nav::Heightfield;
using nav::kNullSpan;
using nav::Span;

struct S {
    int smin, smax, area;
    bool operator==(const S&) const = default;
};

std::vector<S> column(const Heightfield& hf, int x, int z) {
    std::vector<S> out;
    for (uint32_t i = hf.columns[static_cast<size_t>(x + z * hf.width)]; i != kNullSpan; i = hf.pool[i].next)
        out.push_back({hf.pool[i].smin, hf.pool[i].smax, hf.pool[i].area});
    return out;
}

std::string show(const std::vector<S>& c) {
    std::string s;
    for (const S& v : c)
        s += "[" + std::to_string(v.smin) + "," + std::to_string(v.smax) + ")a" + std::to_string(v.area) + " ";
    return s.empty() ? "(empty)" : s;
}

// A heightfield of w x h unit cells (cs = 1, ch = 1) over [0,w] x [0,top] x [0,h].
Heightfield unit_grid(int w, int h, float top = 10.0f) {
    Heightfield hf;
    const float bmin[3] = {0, 0, 0}, bmax[3] = {static_cast<float>(w), top, static_cast<float>(h)};
    hf.reset(w, h, bmin, bmax, 1.0f, 1.0f, 0);
    return hf;
}

nav::Status raster(Heightfield& hf, const std::vector<float>& v, const std::vector<int>& t,
                   const std::vector<uint8_t>& a, int thr = 1, const nav::CancelFlag* cancel = nullptr) {
    return nav::rasterize_triangles(v.data(), static_cast<int>(v.size() / 3), t.data(), a.data(),
                                    static_cast<int>(t.size() / 3), hf, thr, cancel);
}

// Every column sorted bottom-up, spans non-empty and strictly apart (touching spans merge), every
// live span reached exactly once, span_count consistent.
void check_columns_well_formed(const Heightfield& hf) {
    std::vector<uint8_t> seen(hf.pool.size(), 0);
    uint32_t live = 0;
    for (size_t c = 0; c < hf.columns.size(); ++c) {
        int prev_top = -1;
        for (uint32_t i = hf.columns[c]; i != kNullSpan; i = hf.pool[i].next) {
            REQUIRE(i < hf.pool.size());
            REQUIRE(seen[i] == 0);
            seen[i] = 1;
            ++live;
            const Span& s = hf.pool[i];
            CHECK(s.smin < s.smax);
            CHECK(static_cast<int>(s.smin) > prev_top);
            prev_top = s.smax;
        }
    }
    CHECK(live == hf.span_count);
}

// Random triangles scattered over a box, some steep, some flat, some partly outside the grid.
void random_soup(std::mt19937& rng, int ntris, float extent, std::vector<float>& v, std::vector<int>& t,
                 std::vector<uint8_t>& a) {
    std::uniform_real_distribution<float> pos(-0.5f, extent + 0.5f), off(-1.2f, 1.2f), hy(0.0f, 4.0f);
    for (int i = 0; i < ntris; ++i) {
        const float cx = pos(rng), cz = pos(rng), cy = hy(rng);
        const bool flat = rng() % 2 == 0;
        for (int k = 0; k < 3; ++k) {
            v.push_back(cx + off(rng));
            v.push_back(flat ? cy : cy + off(rng));
            v.push_back(cz + off(rng));
            t.push_back(i * 3 + k);
        }
        a.push_back(rng() % 3 == 0 ? nav::kNullArea : static_cast<uint8_t>(rng() % 4 == 0 ? 1 + rng() % 5 : 63));
    }
}

// Reference rasterizer: the plain algorithm, one polygon split per row and per cell (keep the
// part with coord <= line, pass the rest on; a vertex exactly on the line goes to both parts),
// snapping each cell's y range down/up to cell heights and merging through add_span. The real
// rasterizer takes shortcuts (two-chain sweeps, single-cell triangles, batched merging) that must
// give bit-identical spans.
void ref_split(const std::vector<std::array<float, 3>>& in, float line, int axis, std::vector<std::array<float, 3>>& keep,
               std::vector<std::array<float, 3>>& rest) {
    keep.clear();
    rest.clear();
    const size_t n = in.size();
    for (size_t i = 0, j = n - 1; i < n; j = i, ++i) {
        const float dj = line - in[j][static_cast<size_t>(axis)], di = line - in[i][static_cast<size_t>(axis)];
        if ((dj >= 0) != (di >= 0)) {
            const float s = dj / (dj - di);
            std::array<float, 3> p{};
            for (int k = 0; k < 3; ++k) p[k] = in[j][k] + (in[i][k] - in[j][k]) * s;
            keep.push_back(p);
            rest.push_back(p);
            if (di > 0) keep.push_back(in[i]);
            if (di < 0) rest.push_back(in[i]);
        } else {
            if (di >= 0) keep.push_back(in[i]);
            if (di <= 0) rest.push_back(in[i]);
        }
    }
}

void ref_rasterize(const std::vector<float>& v, const std::vector<int>& t, const std::vector<uint8_t>& a, int thr,
                   Heightfield& hf) {
    const float ics = 1.0f / hf.cs, ich = 1.0f / hf.ch, by = hf.bmax[1] - hf.bmin[1];
    for (size_t k = 0; k < a.size(); ++k) {
        std::vector<std::array<float, 3>> poly, row, cell, rest;
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int c = 0; c < 3; ++c) {
            const float* p = &v[static_cast<size_t>(t[k * 3 + static_cast<size_t>(c)]) * 3];
            poly.push_back({p[0], p[1], p[2]});
            for (int d = 0; d < 3; ++d) {
                lo[d] = std::min(lo[d], p[d]);
                hi[d] = std::max(hi[d], p[d]);
            }
        }
        bool outside = false;
        for (int d = 0; d < 3; ++d) outside |= lo[d] > hf.bmax[d] || hi[d] < hf.bmin[d];
        if (outside) continue;
        const int z0 = std::clamp(static_cast<int>((lo[2] - hf.bmin[2]) * ics), -1, hf.height - 1);
        const int z1 = std::clamp(static_cast<int>((hi[2] - hf.bmin[2]) * ics), 0, hf.height - 1);
        for (int z = z0; z <= z1; ++z) {
            ref_split(poly, hf.bmin[2] + static_cast<float>(z) * hf.cs + hf.cs, 2, row, rest);
            poly = rest;
            if (row.size() < 3 || z < 0) continue;
            float minx = row[0][0], maxx = row[0][0];
            for (const auto& p : row) {
                minx = std::min(minx, p[0]);
                maxx = std::max(maxx, p[0]);
            }
            const int x1raw = static_cast<int>((maxx - hf.bmin[0]) * ics);
            if (x1raw < 0) continue;
            const int x0 = std::clamp(static_cast<int>((minx - hf.bmin[0]) * ics), -1, hf.width - 1);
            const int x1 = std::clamp(x1raw, 0, hf.width - 1);
            for (int x = x0; x <= x1; ++x) {
                ref_split(row, hf.bmin[0] + static_cast<float>(x) * hf.cs + hf.cs, 0, cell, rest);
                row = rest;
                if (cell.size() < 3 || x < 0) continue;
                float ymin = cell[0][1], ymax = cell[0][1];
                for (const auto& p : cell) {
                    ymin = std::min(ymin, p[1]);
                    ymax = std::max(ymax, p[1]);
                }
                ymin -= hf.bmin[1];
                ymax -= hf.bmin[1];
                if (ymax < 0.0f || ymin > by) continue;
                ymin = std::max(ymin, 0.0f);
                ymax = std::min(ymax, by);
                const int smin = std::clamp(static_cast<int>(std::floor(ymin * ich)), 0, nav::kSpanMaxHeight);
                const int smax = std::clamp(static_cast<int>(std::ceil(ymax * ich)), smin + 1, nav::kSpanMaxHeight);
                nav::add_span(hf, x, z, static_cast<uint16_t>(smin), static_cast<uint16_t>(smax), a[k], thr);
            }
        }
    }
}

}  // namespace

TEST_CASE("rasterize: one flat triangle into a 3x3 grid covers the expected cells") {
    Heightfield hf = unit_grid(3, 3);
    // Right triangle with legs along x and z; its hypotenuse x + z = 2.8 leaves (2,1), (1,2) and
    // (2,2) untouched.
    const std::vector<float> v = {0.2f, 2.5f, 0.2f, 0.2f, 2.5f, 2.6f, 2.6f, 2.5f, 0.2f};
    REQUIRE(raster(hf, v, {0, 1, 2}, {63}).is_ok());
    const std::vector<S> floor = {{2, 3, 63}};  // y = 2.5: floor 2, ceil 3
    const std::vector<S> none;
    CHECK(column(hf, 0, 0) == floor);
    CHECK(column(hf, 1, 0) == floor);
    CHECK(column(hf, 2, 0) == floor);
    CHECK(column(hf, 0, 1) == floor);
    CHECK(column(hf, 1, 1) == floor);
    CHECK(column(hf, 2, 1) == none);
    CHECK(column(hf, 0, 2) == floor);
    CHECK(column(hf, 1, 2) == none);
    CHECK(column(hf, 2, 2) == none);
    CHECK(hf.span_count == 6);
}

TEST_CASE("rasterize: a ramp gives each cell the y range of its piece of the triangle") {
    Heightfield hf = unit_grid(3, 1);
    // The plane y = x + 0.5 over a thin triangle in row 0: the cut lines x = 1 and x = 2 meet
    // it at y = 1.5 and 2.5, well away from cell-height boundaries.
    const std::vector<float> v = {0.25f, 0.75f, 0.25f, 0.25f, 0.75f, 0.75f, 2.75f, 3.25f, 0.5f};
    REQUIRE(raster(hf, v, {0, 1, 2}, {63}).is_ok());
    CHECK(column(hf, 0, 0) == std::vector<S>{{0, 2, 63}});  // y in [0.75, 1.5]
    CHECK(column(hf, 1, 0) == std::vector<S>{{1, 3, 63}});  // y in [1.5, 2.5]
    CHECK(column(hf, 2, 0) == std::vector<S>{{2, 4, 63}});  // y in [2.5, 3.25]
}

TEST_CASE("rasterize: snapping and clamping of span heights") {
    SUBCASE("a flat triangle on a cell-height boundary is one cell tall") {
        Heightfield hf = unit_grid(1, 1);
        const std::vector<float> v = {0.1f, 2.0f, 0.1f, 0.1f, 2.0f, 0.9f, 0.9f, 2.0f, 0.1f};
        REQUIRE(raster(hf, v, {0, 1, 2}, {63}).is_ok());
        CHECK(column(hf, 0, 0) == std::vector<S>{{2, 3, 63}});
    }
    SUBCASE("parts below and above the box are clamped; wholly outside is skipped") {
        Heightfield hf = unit_grid(2, 1, 4.0f);
        // Cell 0: a wall from y = -3 to y = 9 is clamped to [0, 4]. Cell 1: below the box.
        const std::vector<float> v = {0.5f, -3.0f, 0.2f, 0.5f, 9.0f, 0.5f, 0.5f, -3.0f, 0.8f,
                                      1.2f, -2.0f, 0.2f, 1.2f, -2.0f, 0.8f, 1.8f, -1.0f, 0.5f};
        REQUIRE(raster(hf, v, {0, 1, 2, 3, 4, 5}, {0, 63}).is_ok());
        CHECK(column(hf, 0, 0) == std::vector<S>{{0, 4, 0}});
        CHECK(column(hf, 1, 0).empty());
    }
    SUBCASE("geometry left of the grid is cut off, not smeared into the first column") {
        Heightfield hf = unit_grid(2, 1);
        // A slope from y = 9 at x = -3 down to y = 5 at x = 0.5: inside column 0 (x >= 0) it
        // only reaches y = 5.57. (Recast 1.5.1 clamped the first column to 0 and kept the
        // whole triangle there, [5, 9); later Recast cuts at the grid edge, as we do.)
        const std::vector<float> v = {-3.0f, 9.0f, 0.2f, -3.0f, 9.0f, 0.8f, 0.5f, 5.0f, 0.5f};
        REQUIRE(raster(hf, v, {0, 1, 2}, {63}).is_ok());
        CHECK(column(hf, 0, 0) == std::vector<S>{{5, 6, 63}});
        CHECK(column(hf, 1, 0).empty());
    }
}

TEST_CASE("add_span: merge rules") {
    SUBCASE("disjoint spans stay sorted") {
        Heightfield hf = unit_grid(1, 1);
        nav::add_span(hf, 0, 0, 6, 8, 63, 1);
        nav::add_span(hf, 0, 0, 2, 4, 63, 1);
        nav::add_span(hf, 0, 0, 10, 12, 0, 1);
        CHECK(column(hf, 0, 0) == std::vector<S>{{2, 4, 63}, {6, 8, 63}, {10, 12, 0}});
        CHECK(hf.span_count == 3);
    }
    SUBCASE("overlapping spans merge") {
        Heightfield hf = unit_grid(1, 1);
        nav::add_span(hf, 0, 0, 2, 5, 0, 1);
        nav::add_span(hf, 0, 0, 4, 8, 0, 1);
        CHECK(column(hf, 0, 0) == std::vector<S>{{2, 8, 0}});
    }
    SUBCASE("touching spans merge") {
        Heightfield hf = unit_grid(1, 1);
        nav::add_span(hf, 0, 0, 2, 5, 0, 1);
        nav::add_span(hf, 0, 0, 5, 7, 0, 1);
        nav::add_span(hf, 0, 0, 0, 2, 0, 1);
        CHECK(column(hf, 0, 0) == std::vector<S>{{0, 7, 0}});
        CHECK(hf.span_count == 1);
    }
    SUBCASE("a span bridging two spans merges all three") {
        Heightfield hf = unit_grid(1, 1);
        nav::add_span(hf, 0, 0, 2, 4, 0, 1);
        nav::add_span(hf, 0, 0, 6, 8, 0, 1);
        nav::add_span(hf, 0, 0, 10, 11, 0, 1);
        nav::add_span(hf, 0, 0, 3, 7, 0, 1);
        CHECK(column(hf, 0, 0) == std::vector<S>{{2, 8, 0}, {10, 11, 0}});
        CHECK(hf.span_count == 2);
    }
    SUBCASE("area is the max when the tops are within the threshold") {
        Heightfield hf = unit_grid(1, 1);
        nav::add_span(hf, 0, 0, 0, 10, 63, 1);
        nav::add_span(hf, 0, 0, 0, 9, 0, 1);  // merged top 10, |10 - 10| <= 1
        CHECK(column(hf, 0, 0) == std::vector<S>{{0, 10, 63}});
        nav::add_span(hf, 0, 0, 0, 11, 0, 1);  // merged top 11, |11 - 10| = 1 <= 1
        CHECK(column(hf, 0, 0) == std::vector<S>{{0, 11, 63}});
    }
    SUBCASE("beyond the threshold the new span's area wins") {
        Heightfield hf = unit_grid(1, 1);
        nav::add_span(hf, 0, 0, 0, 10, 63, 1);
        nav::add_span(hf, 0, 0, 0, 12, 0, 1);  // merged top 12, |12 - 10| = 2 > 1
        CHECK(column(hf, 0, 0) == std::vector<S>{{0, 12, 0}});
        nav::add_span(hf, 0, 0, 5, 8, 63, 1);  // inside: top stays 12, |12 - 12| <= 1: max area
        CHECK(column(hf, 0, 0) == std::vector<S>{{0, 12, 63}});
        nav::add_span(hf, 0, 0, 5, 8, 2, 3);  // max(2, 63)
        CHECK(column(hf, 0, 0) == std::vector<S>{{0, 12, 63}});
    }
    SUBCASE("freed spans are reused") {
        Heightfield hf = unit_grid(1, 1);
        nav::add_span(hf, 0, 0, 0, 1, 0, 1);
        nav::add_span(hf, 0, 0, 3, 4, 0, 1);
        nav::add_span(hf, 0, 0, 6, 7, 0, 1);
        const size_t pool_size = hf.pool.size();
        nav::add_span(hf, 0, 0, 0, 7, 0, 1);  // swallows all three
        CHECK(hf.span_count == 1);
        CHECK(hf.free_list != kNullSpan);
        nav::add_span(hf, 0, 0, 9, 10, 0, 1);
        nav::add_span(hf, 0, 0, 12, 13, 0, 1);
        CHECK(hf.span_count == 3);
        CHECK(hf.pool.size() == pool_size);
        check_columns_well_formed(hf);
    }
    SUBCASE("outside the grid is ignored") {
        Heightfield hf = unit_grid(1, 1);
        nav::add_span(hf, 1, 0, 0, 1, 0, 1);
        nav::add_span(hf, 0, -1, 0, 1, 0, 1);
        CHECK(hf.span_count == 0);
    }
}

TEST_CASE("rasterize: equals merging each triangle's spans one by one, in triangle order") {
    std::mt19937 rng(7);
    for (int scene = 0; scene < 20; ++scene) {
        std::vector<float> v;
        std::vector<int> t;
        std::vector<uint8_t> a;
        random_soup(rng, 60, 8.0f, v, t, a);
        const int thr = static_cast<int>(rng() % 4);
        Heightfield all = unit_grid(8, 8, 5.0f);
        all.ch = 0.25f;  // finer heights: more overlaps and merges
        REQUIRE(raster(all, v, t, a, thr).is_ok());
        check_columns_well_formed(all);

        // Reference: each triangle alone (one span per column, no merging), replayed through
        // add_span in triangle order.
        Heightfield ref = unit_grid(8, 8, 5.0f);
        ref.ch = 0.25f;
        for (size_t k = 0; k < a.size(); ++k) {
            Heightfield one = unit_grid(8, 8, 5.0f);
            one.ch = 0.25f;
            REQUIRE(nav::rasterize_triangles(v.data(), static_cast<int>(v.size() / 3), t.data() + k * 3, &a[k], 1, one,
                                             thr)
                        .is_ok());
            for (int z = 0; z < 8; ++z)
                for (int x = 0; x < 8; ++x) {
                    const std::vector<S> c = column(one, x, z);
                    REQUIRE(c.size() <= 1);
                    for (const S& s : c)
                        nav::add_span(ref, x, z, static_cast<uint16_t>(s.smin), static_cast<uint16_t>(s.smax),
                                      static_cast<uint8_t>(s.area), thr);
                }
        }
        CHECK(ref.span_count == all.span_count);
        for (int z = 0; z < 8; ++z)
            for (int x = 0; x < 8; ++x) {
                INFO("scene " << scene << " column " << x << "," << z << ": batch " << show(column(all, x, z))
                              << " vs one by one " << show(column(ref, x, z)));
                CHECK(column(all, x, z) == column(ref, x, z));
            }
    }
}

TEST_CASE("rasterize: a grid of more than 2^24 columns (12-byte raw records) equals a small one (8-byte)") {
    // rasterize_triangles sorts its raw spans as 8-byte records when the column index fits 24 bits
    // and as 12-byte ones otherwise; the same triangles in the corner of a 4100 x 4100 grid and in a
    // 12 x 12 grid (same origin and cell size) must give the same columns.
    std::mt19937 rng(11);
    for (int scene = 0; scene < 3; ++scene) {
        std::vector<float> v;
        std::vector<int> t;
        std::vector<uint8_t> a;
        random_soup(rng, 60, 8.0f, v, t, a);  // inside [-1.7, 9.7]
        const int thr = static_cast<int>(rng() % 4);
        Heightfield small = unit_grid(12, 12, 5.0f), big = unit_grid(4100, 4100, 5.0f);
        REQUIRE(big.columns.size() > (size_t{1} << 24));
        small.ch = big.ch = 0.25f;
        REQUIRE(raster(small, v, t, a, thr).is_ok());
        REQUIRE(raster(big, v, t, a, thr).is_ok());
        check_columns_well_formed(small);
        CHECK(big.span_count == small.span_count);
        CHECK(small.span_count > 0);
        for (int z = 0; z < 12; ++z)
            for (int x = 0; x < 12; ++x) {
                INFO("scene " << scene << " column " << x << "," << z);
                CHECK(column(big, x, z) == column(small, x, z));
            }
    }
}

TEST_CASE("rasterize: a generated scene has sorted, disjoint columns") {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 12, 0.0f);
    navtest::add_box(m, 2, 0, 2, 5, 1.2f, 4);
    navtest::add_box(m, 6, 0.5f, 6, 9, 3.0f, 10);
    navtest::add_box(m, 1, 2.0f, 7, 4, 2.4f, 11);  // a table top
    navtest::add_floor(m, 0, 0, 12, 12, 4.0f);       // a second storey
    std::vector<uint8_t> areas(static_cast<size_t>(m.tri_count()), 63);
    Heightfield hf;
    const float bmin[3] = {0, 0, 0}, bmax[3] = {12, 5, 12};
    hf.reset(40, 40, bmin, bmax, 0.3f, 0.2f, 0);
    REQUIRE(nav::rasterize_triangles(m.verts.data(), m.vert_count(), m.tris.data(), areas.data(), m.tri_count(), hf, 4)
                .is_ok());
    check_columns_well_formed(hf);
    // Every column has the ground and the second storey.
    for (size_t c = 0; c < hf.columns.size(); ++c) {
        int n = 0;
        for (uint32_t i = hf.columns[c]; i != kNullSpan; i = hf.pool[i].next) ++n;
        CHECK(n >= 2);
    }
    // Column-contiguous output: each span's next is the following pool entry.
    for (size_t c = 0; c < hf.columns.size(); ++c)
        for (uint32_t i = hf.columns[c]; i != kNullSpan; i = hf.pool[i].next)
            if (hf.pool[i].next != kNullSpan) CHECK(hf.pool[i].next == i + 1);
}

TEST_CASE("rasterize: reset keeps capacity and a rebuild gives the same result") {
    std::mt19937 rng(3);
    std::vector<float> v;
    std::vector<int> t;
    std::vector<uint8_t> a;
    random_soup(rng, 200, 10.0f, v, t, a);
    Heightfield hf = unit_grid(10, 10);
    REQUIRE(raster(hf, v, t, a).is_ok());
    const uint32_t count = hf.span_count;
    std::vector<std::vector<S>> first;
    for (int z = 0; z < 10; ++z)
        for (int x = 0; x < 10; ++x) first.push_back(column(hf, x, z));
    const size_t pool_cap = hf.pool.capacity(), col_cap = hf.columns.capacity();
    const Span* pool_data = hf.pool.data();

    const float bmin[3] = {0, 0, 0}, bmax[3] = {10, 10, 10};
    hf.reset(10, 10, bmin, bmax, 1.0f, 1.0f, 0);
    CHECK(hf.span_count == 0);
    CHECK(hf.pool.empty());
    CHECK(hf.pool.capacity() == pool_cap);
    CHECK(hf.columns.capacity() == col_cap);
    REQUIRE(raster(hf, v, t, a).is_ok());
    CHECK(hf.pool.data() == pool_data);  // no reallocation
    CHECK(hf.span_count == count);
    size_t k = 0;
    for (int z = 0; z < 10; ++z)
        for (int x = 0; x < 10; ++x) CHECK(column(hf, x, z) == first[k++]);
}

TEST_CASE("rasterize: a second batch merges into the spans already there") {
    Heightfield hf = unit_grid(1, 1);
    nav::add_span(hf, 0, 0, 0, 3, 63, 1);
    nav::add_span(hf, 0, 0, 8, 9, 0, 1);
    // A flat triangle at y = 2.5 ([2, 3)) merges into [0, 3); its area max applies (tops equal).
    const std::vector<float> v = {0.1f, 2.5f, 0.1f, 0.1f, 2.5f, 0.9f, 0.9f, 2.5f, 0.1f};
    REQUIRE(raster(hf, v, {0, 1, 2}, {5}).is_ok());
    CHECK(column(hf, 0, 0) == std::vector<S>{{0, 3, 63}, {8, 9, 0}});
    CHECK(hf.span_count == 2);
}

TEST_CASE("rasterize: bad input and cancellation") {
    SUBCASE("vertex index out of range") {
        Heightfield hf = unit_grid(2, 2);
        const std::vector<float> v = {0, 0, 0, 1, 0, 0, 0, 0, 1};
        const nav::Status st = raster(hf, v, {0, 1, 3}, {63});
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(st.message.find("vertex index 3") != std::string::npos);
    }
    SUBCASE("heightfield not reset") {
        Heightfield hf;
        hf.width = 4;
        hf.height = 4;
        const std::vector<float> v = {0, 0, 0, 1, 0, 0, 0, 0, 1};
        CHECK(raster(hf, v, {0, 1, 2}, {63}).code == nav::Status::Code::BadInput);
    }
    SUBCASE("non-finite vertices are skipped") {
        Heightfield hf = unit_grid(2, 2);
        const std::vector<float> v = {0.5f, NAN, 0.5f, 1.5f, 1, 0.5f, 0.5f, 1, 1.5f};
        REQUIRE(raster(hf, v, {0, 1, 2}, {63}).is_ok());
        CHECK(hf.span_count == 0);
    }
    SUBCASE("a set cancel flag stops the build and leaves an empty heightfield") {
        std::mt19937 rng(11);
        std::vector<float> v;
        std::vector<int> t;
        std::vector<uint8_t> a;
        random_soup(rng, 10000, 10.0f, v, t, a);
        Heightfield hf = unit_grid(10, 10);
        nav::CancelFlag cancel{true};
        CHECK(raster(hf, v, t, a, 1, &cancel).code == nav::Status::Code::Cancelled);
        CHECK(hf.span_count == 0);
        for (uint32_t head : hf.columns) CHECK(head == kNullSpan);
        cancel = false;
        CHECK(raster(hf, v, t, a, 1, &cancel).is_ok());
        CHECK(hf.span_count > 0);
    }
}

TEST_CASE("rasterize: bit-identical to the plain polygon-split rasterizer") {
    std::mt19937 rng(2024);
    // Free coordinates, and coordinates snapped to the cell grid (vertices exactly on the cut
    // lines, edges along them: the degenerate cases of the splits).
    for (const float snap : {0.0f, 0.25f, 0.125f, 0.5f}) {
        for (int scene = 0; scene < 60; ++scene) {
            std::vector<float> v;
            std::vector<int> t;
            std::vector<uint8_t> a;
            random_soup(rng, 40, 6.0f, v, t, a);
            if (snap > 0)  // y too, so that cut points fall on cell-height boundaries
                for (float& c : v) c = std::round(c / snap) * snap;
            const float cs = scene % 2 ? 0.5f : 0.25f;
            const float ch = snap > 0 ? (scene % 3 ? 0.25f : 0.125f) : (scene % 3 ? 0.2f : 0.1f);
            const int w = static_cast<int>(6.0f / cs) - scene % 3;  // sometimes short of the box
            const int thr = scene % 4;
            const float bmin[3] = {0, 0, 0}, bmax[3] = {6, 3, 6};
            Heightfield fast, ref;
            fast.reset(w, w, bmin, bmax, cs, ch, 0);
            ref.reset(w, w, bmin, bmax, cs, ch, 0);
            REQUIRE(raster(fast, v, t, a, thr).is_ok());
            ref_rasterize(v, t, a, thr, ref);
            CHECK(fast.span_count == ref.span_count);
            for (int z = 0; z < w; ++z)
                for (int x = 0; x < w; ++x) {
                    INFO("snap " << snap << " scene " << scene << " column " << x << "," << z << ": "
                                 << show(column(fast, x, z)) << " vs reference " << show(column(ref, x, z)));
                    CHECK(column(fast, x, z) == column(ref, x, z));
                }
        }
    }
}
