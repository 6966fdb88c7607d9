// Stage 2 (filters): the edge cases of each filter, on heightfields built span by span.
// Boundary rules are Recast 1.5.1's (the version the differential tests compare against):
// a ledge or reachable neighbour needs a shared gap of MORE than walkable_height, and a span
// with AT MOST walkable_height of clearance is too low.
#include <doctest/doctest.h>

#include <array>
#include <map>
#include <utility>
#include <vector>

#include "core/bake/filter.h"

namespace {

using nav::Heightfield;
using nav::kNullSpan;

constexpr int kHeight = 4;  // walkable_height used throughout
constexpr int kClimb = 2;   // walkable_climb used throughout

Heightfield grid(int w, int h) {
    Heightfield hf;
    const float bmin[3] = {0, 0, 0}, bmax[3] = {static_cast<float>(w), 100.0f, static_cast<float>(h)};
    hf.reset(w, h, bmin, bmax, 1.0f, 1.0f, 0);
    return hf;
}

using Column = std::vector<std::array<int, 3>>;  // spans {smin, smax, area}, bottom up
using Overrides = std::map<std::pair<int, int>, Column>;

void add_column(Heightfield& hf, int x, int z, const Column& spans) {
    for (const auto& s : spans)
        nav::add_span(hf, x, z, static_cast<uint16_t>(s[0]), static_cast<uint16_t>(s[1]), static_cast<uint8_t>(s[2]),
                      1);
}

// A 5 x 5 grid with a walkable floor [0, 10) in every column, except the overridden ones.
Heightfield flat5(const Overrides& overrides = {}) {
    Heightfield hf = grid(5, 5);
    for (int z = 0; z < 5; ++z)
        for (int x = 0; x < 5; ++x) {
            const auto it = overrides.find({x, z});
            add_column(hf, x, z, it != overrides.end() ? it->second : Column{{0, 10, nav::kWalkableArea}});
        }
    return hf;
}

const nav::Span& span_at(const Heightfield& hf, int x, int z, int k = 0) {
    uint32_t i = hf.columns[static_cast<size_t>(x + z * hf.width)];
    for (int n = 0; n < k; ++n) i = hf.pool[i].next;
    return hf.pool[i];
}

int area_at(const Heightfield& hf, int x, int z, int k = 0) { return span_at(hf, x, z, k).area; }

}  // namespace

TEST_CASE("filter low hanging obstacles: kerbs within a climb become walkable") {
    Heightfield hf = grid(4, 1);
    add_column(hf, 0, 0, {{0, 5, 63}, {6, 8, 0}});            // top 8 - 5 = 3 > climb 2: stays
    add_column(hf, 1, 0, {{0, 5, 63}, {6, 7, 0}});            // 7 - 5 = 2: exactly a climb
    add_column(hf, 2, 0, {{0, 5, 4}, {6, 7, 0}, {8, 9, 0}});  // only one level is lifted
    add_column(hf, 3, 0, {{0, 5, 0}, {6, 7, 0}});             // nothing walkable below
    nav::filter_low_hanging_obstacles(kClimb, hf);
    CHECK(area_at(hf, 0, 0, 1) == 0);
    CHECK(area_at(hf, 1, 0, 1) == 63);
    CHECK(area_at(hf, 2, 0, 1) == 4);  // takes the area of the span below
    CHECK(area_at(hf, 2, 0, 2) == 0);  // the span below it was not walkable originally
    CHECK(area_at(hf, 3, 0, 1) == 0);
    CHECK(span_at(hf, 1, 0, 1).filtered_by == 0);
}

TEST_CASE("filter ledges: a step of exactly walkable_climb is kept, one more is a ledge") {
    SUBCASE("step down of exactly a climb") {
        Heightfield hf = flat5({{{3, 2}, {{0, 10 - kClimb, 63}}}});
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == 63);
        CHECK(span_at(hf, 2, 2).filtered_by == 0);
    }
    SUBCASE("step down of a climb + 1") {
        Heightfield hf = flat5({{{3, 2}, {{0, 10 - kClimb - 1, 63}}}});
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == nav::kNullArea);
        CHECK(span_at(hf, 2, 2).filtered_by == nav::kFilteredLedge);
        // The low side of the step has no drop: steps up are not ledges.
        CHECK(area_at(hf, 3, 2) == 63);
    }
    SUBCASE("a hole next to the span is a drop") {
        Heightfield hf = flat5({{{2, 3}, {}}});
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == nav::kNullArea);
        CHECK(area_at(hf, 1, 1) == 63);
    }
}

TEST_CASE("filter ledges: reachable neighbour floors spread over more than a climb is too steep") {
    SUBCASE("spread of two climbs") {
        Heightfield hf = flat5({{{1, 2}, {{0, 10 - kClimb, 63}}}, {{3, 2}, {{0, 10 + kClimb, 63}}}});
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == nav::kNullArea);
        CHECK(span_at(hf, 2, 2).filtered_by == nav::kFilteredLedge);
    }
    SUBCASE("spread of exactly a climb") {
        Heightfield hf = flat5({{{1, 2}, {{0, 9, 63}}}, {{3, 2}, {{0, 11, 63}}}});
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == 63);
    }
}

TEST_CASE("filter ledges: spans on the grid edge are ledges") {
    Heightfield hf = flat5();
    nav::filter_ledge_spans(kHeight, kClimb, hf);
    for (int z = 0; z < 5; ++z)
        for (int x = 0; x < 5; ++x) {
            const bool edge = x == 0 || z == 0 || x == 4 || z == 4;
            INFO("column " << x << "," << z);
            CHECK(area_at(hf, x, z) == (edge ? nav::kNullArea : 63));
            CHECK(span_at(hf, x, z).filtered_by == (edge ? nav::kFilteredLedge : 0));
        }
}

TEST_CASE("filter ledges: a drop only counts where there is room to pass") {
    // Column (3,2): a deep floor (top 2) under a solid block; the centre's floor is at 10.
    SUBCASE("the gap under the block is walkable_height + 1: a ledge") {
        Heightfield hf = flat5({{{3, 2}, {{0, 2, 63}, {10 + kHeight + 1, 30, 0}}}});
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == nav::kNullArea);
    }
    SUBCASE("the gap under the block is exactly walkable_height: no way down") {
        Heightfield hf = flat5({{{3, 2}, {{0, 2, 63}, {10 + kHeight, 30, 0}}}});
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == 63);
    }
    SUBCASE("open space under a neighbour's raised first span is a drop") {
        Heightfield hf = flat5({{{3, 2}, {{10 + kHeight + 1, 30, 0}}}});  // nothing below it
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == nav::kNullArea);
    }
    SUBCASE("a ceiling over the span itself hides the drop") {
        // Clearance exactly walkable_height over the centre; a deep floor next to it.
        Heightfield hf = flat5({{{2, 2}, {{0, 10, 63}, {10 + kHeight, 40, 0}}}, {{3, 2}, {{0, 2, 63}}}});
        nav::filter_ledge_spans(kHeight, kClimb, hf);
        CHECK(area_at(hf, 2, 2) == 63);
    }
}

TEST_CASE("filter ledges: non-walkable spans are left alone") {
    Heightfield hf = flat5({{{2, 2}, {{0, 10, 0}}}, {{3, 2}, {}}});
    nav::filter_ledge_spans(kHeight, kClimb, hf);
    CHECK(area_at(hf, 2, 2) == 0);
    CHECK(span_at(hf, 2, 2).filtered_by == 0);
}

TEST_CASE("filter low height: a table too low to walk under") {
    Heightfield hf = grid(3, 1);
    add_column(hf, 0, 0, {{0, 10, 63}, {10 + kHeight, 15, 0}});      // clearance exactly wh
    add_column(hf, 1, 0, {{0, 10, 63}, {10 + kHeight + 1, 16, 0}});  // clearance wh + 1
    add_column(hf, 2, 0, {{0, 10, 0}, {12, 13, 63}});                // non-walkable under a low table
    nav::filter_walkable_low_height_spans(kHeight, hf);
    CHECK(area_at(hf, 0, 0) == nav::kNullArea);
    CHECK(span_at(hf, 0, 0).filtered_by == nav::kFilteredLowHeight);
    CHECK(area_at(hf, 1, 0) == 63);
    CHECK(span_at(hf, 1, 0).filtered_by == 0);
    CHECK(span_at(hf, 2, 0).filtered_by == 0);  // was never walkable: not "removed"
    CHECK(area_at(hf, 2, 0, 1) == 63);           // the table top has open sky
}

TEST_CASE("filters in pipeline order record the first filter that cleared a span") {
    // (0,2): on the grid edge and under a low ceiling; (1,1): only under a low ceiling.
    Heightfield hf = flat5({{{0, 2}, {{0, 10, 63}, {12, 20, 0}}}, {{1, 1}, {{0, 10, 63}, {12, 20, 0}}}});
    nav::filter_low_hanging_obstacles(kClimb, hf);
    nav::filter_ledge_spans(kHeight, kClimb, hf);
    nav::filter_walkable_low_height_spans(kHeight, hf);
    CHECK(span_at(hf, 0, 2).filtered_by == nav::kFilteredLedge);
    CHECK(span_at(hf, 1, 1).filtered_by == nav::kFilteredLowHeight);
    CHECK(area_at(hf, 1, 1) == nav::kNullArea);
    CHECK(span_at(hf, 1, 2).filtered_by == 0);
    CHECK(area_at(hf, 1, 2) == 63);
}

TEST_CASE("filter low height: the pool-order sweep and the column walk agree") {
    // The filter sweeps the pool in order when every entry is a live span, and walks the columns
    // when the pool has free entries (add_span freed the spans it merged). Both must give the
    // same areas and causes on the same columns.
    const std::vector<Column> columns = {
        {{0, 10, 63}, {10 + kHeight, 15, 0}},            // clearance exactly wh: cleared
        {{0, 10, 63}, {10 + kHeight + 1, 16, 63}},       // wh + 1: kept; the top has open sky
        {{0, 10, 0}, {12, 13, 63}, {16, 20, 63}},        // non-walkable bottom; 13 -> 16 too low
        {{5, 6, 63}},                                    // alone: open sky
        {{0, 3, 63}, {4, 5, 63}, {9, 10, 63}, {30, 31, 0}},
    };
    // One more column than the list: `walk` ends with a merge there, so its free list is not
    // empty (a later add_span would take the freed span back).
    Heightfield sweep = grid(static_cast<int>(columns.size()) + 1, 1), walk = sweep;
    for (size_t x = 0; x < columns.size(); ++x) {
        add_column(sweep, static_cast<int>(x), 0, columns[x]);
        // The same column; a span of 3 or more first as its two end voxels (non-walkable), which
        // the whole span then joins: add_span frees one of them (the merged area is the max).
        for (const auto& s : columns[x]) {
            const int x_ = static_cast<int>(x);
            if (s[1] - s[0] >= 3) {
                nav::add_span(walk, x_, 0, static_cast<uint16_t>(s[0]), static_cast<uint16_t>(s[0] + 1), 0, 1);
                nav::add_span(walk, x_, 0, static_cast<uint16_t>(s[1] - 1), static_cast<uint16_t>(s[1]), 0, 1);
            }
            nav::add_span(walk, x_, 0, static_cast<uint16_t>(s[0]), static_cast<uint16_t>(s[1]),
                          static_cast<uint8_t>(s[2]), 1);
        }
    }
    const int last = static_cast<int>(columns.size());
    nav::add_span(walk, last, 0, 0, 1, 0, 1);
    nav::add_span(walk, last, 0, 5, 6, 0, 1);
    nav::add_span(walk, last, 0, 0, 6, 0, 1);  // joins the two: one goes on the free list
    REQUIRE(sweep.free_list == kNullSpan);
    REQUIRE(sweep.pool.size() == sweep.span_count);
    REQUIRE(walk.free_list != kNullSpan);
    nav::filter_walkable_low_height_spans(kHeight, sweep);
    nav::filter_walkable_low_height_spans(kHeight, walk);
    int cleared = 0;
    for (size_t x = 0; x < columns.size(); ++x)
        for (size_t k = 0; k < columns[x].size(); ++k) {
            const nav::Span& a = span_at(sweep, static_cast<int>(x), 0, static_cast<int>(k));
            const nav::Span& b = span_at(walk, static_cast<int>(x), 0, static_cast<int>(k));
            CHECK(a.smin == b.smin);
            CHECK(a.smax == b.smax);
            CHECK(a.area == b.area);
            CHECK(a.filtered_by == b.filtered_by);
            cleared += a.filtered_by == nav::kFilteredLowHeight;
        }
    CHECK(cleared == 4);  // (0): the floor; (2): the 13 span; (4): the 3 and 5 spans
    CHECK(area_at(sweep, 1, 0) == 63);
    CHECK(area_at(sweep, 1, 0, 1) == 63);
}
