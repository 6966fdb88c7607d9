// Level of detail of the span layers (render/span_lod.h): chunks, hidden faces, coarse levels and
// the per-frame plan, on hand-made span lists with known answers.
#ifdef NAV_HAVE_RENDER
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "render/span_lod.h"

using namespace nav::render;

namespace {
constexpr uint32_t kNegX = 1u << 2, kPosZ = 1u << 3, kPosX = 1u << 4, kNegZ = 1u << 5;
uint32_t hidden(const SpanPos& s) { return s.z >> kSpanCellBits; }
uint32_t cell_z(const SpanPos& s) { return s.z & kSpanCellMask; }
const SpanPos* find(const DrawList& d, uint32_t x, uint32_t z, uint16_t y0) {
    for (size_t i = 0; i < d.span_count(); ++i)
        if (d.span_pos[i].x == x && cell_z(d.span_pos[i]) == z && d.span_pos[i].y0 == y0) return &d.span_pos[i];
    return nullptr;
}
uint32_t color_of(const DrawList& d, const SpanPos* p) { return d.span_color[static_cast<size_t>(p - d.span_pos.data())]; }
// An orthographic view_proj (column-major) mapping x in [x0, x1], y in [-100, 100], z in [z0, z1] to
// clip space.
void ortho(float x0, float x1, float z0, float z1, float* m) {
    std::fill(m, m + 16, 0.0f);
    m[0] = 2.0f / (x1 - x0);
    m[12] = -(x1 + x0) / (x1 - x0);
    m[9] = 2.0f / (z1 - z0);  // clip y from world z (row 1, column 2)
    m[13] = -(z1 + z0) / (z1 - z0);
    m[6] = 0.01f;  // clip z from world y (row 2, column 1)
    m[15] = 1.0f;
}
}  // namespace

TEST_CASE("organize_spans: a side face is hidden only where the neighbour covers it bottom to top") {
    DrawList d;
    d.span_shape = SpanShape::Box;
    // a row of three columns: 0..10, 0..10, 0..6 (the short one cannot cover its neighbour's face)
    d.spans = {{0, 0, 0, 10, 1}, {1, 0, 0, 10, 2}, {2, 0, 0, 6, 3}};
    organize_spans(d);
    REQUIRE(d.span_count() == 3);
    CHECK(d.spans.empty());  // moved into span_pos / span_color
    REQUIRE(d.span_color.size() == d.span_pos.size());
    CHECK(d.span_pos_hash != 0u);
    const SpanPos* a = find(d, 0, 0, 0);
    const SpanPos* b = find(d, 1, 0, 0);
    const SpanPos* c = find(d, 2, 0, 0);
    REQUIRE((a && b && c));
    CHECK(hidden(*a) == kPosX);          // covered by b on +x; -x is the grid's edge
    CHECK(hidden(*b) == kNegX);          // a covers -x; c (0..6) does not cover 0..10 on +x
    CHECK(hidden(*c) == kNegX);          // b (0..10) covers 0..6
    CHECK((hidden(*a) & (kPosZ | kNegZ)) == 0u);
    CHECK(color_of(d, a) == 1u);
    // floors have no side faces: nothing is marked
    DrawList f;
    f.span_shape = SpanShape::Floor;
    f.spans = {{0, 0, 4, 4, 1}, {1, 0, 4, 4, 2}};
    organize_spans(f);
    for (size_t i = 0; i < f.span_count(); ++i) CHECK(hidden(f.span_pos[i]) == 0u);
    // the same positions hash alike whatever the colours; other positions do not
    DrawList g;
    g.span_shape = SpanShape::Floor;
    g.spans = {{0, 0, 4, 4, 8}, {1, 0, 4, 4, 9}};
    organize_spans(g);
    CHECK(g.span_pos_hash == f.span_pos_hash);
    DrawList h;
    h.span_shape = SpanShape::Floor;
    h.spans = {{0, 0, 4, 4, 8}, {1, 0, 5, 5, 9}};
    organize_spans(h);
    CHECK(h.span_pos_hash != f.span_pos_hash);
}

TEST_CASE("organize_spans: chunks in order, each level's ranges, the most layered column stands for its block") {
    DrawList d;
    d.span_shape = SpanShape::Box;
    // chunk 0: column (1, 1) with two spans (a floor above a floor), column (2, 1) with one;
    // chunk 1 (x >= 64): one span at (70, 3)
    d.spans = {{70, 3, 0, 2, 9}, {2, 1, 0, 2, 7}, {1, 1, 0, 2, 5}, {1, 1, 10, 12, 6}};
    organize_spans(d);
    REQUIRE(d.span_chunks.size() == 2);
    REQUIRE(d.span_count() == 4);
    const SpanChunk& c0 = d.span_chunks[0];
    const SpanChunk& c1 = d.span_chunks[1];
    CHECK(c0.x0 == 0);
    CHECK(c1.x0 == 64);
    CHECK(c0.count[0] == 3);
    CHECK(c1.count[0] == 1);
    CHECK(c0.first[0] == 0);
    CHECK(c1.first[0] == 3);  // chunk order, full level first
    CHECK(c0.ymin == 0);
    CHECK(c0.ymax == 12);
    // a column's spans keep their bottom-up order
    CHECK(d.span_pos[0].x == 1);
    CHECK(d.span_pos[0].y0 == 0);
    CHECK(d.span_pos[1].y0 == 10);
    // level 1 (4 x 4): block (0, 0) is column (1, 1), two spans, stretched: x, z in blocks
    REQUIRE(c0.count[1] == 2);
    CHECK(c0.first[1] == 4);
    for (uint32_t k = 0; k < 2; ++k) {
        const SpanPos& s = d.span_pos[c0.first[1] + k];
        CHECK(s.x == 0);
        CHECK(cell_z(s) == 0);
        CHECK(d.span_color[c0.first[1] + k] == (k == 0 ? 5u : 6u));
    }
    REQUIRE(c1.count[1] == 1);
    CHECK(d.span_pos[c1.first[1]].x == 70 / 4);
    // level 2 (16 x 16)
    REQUIRE(c1.count[2] == 1);
    CHECK(d.span_pos[c1.first[2]].x == 70 / 16);
    CHECK(d.span_pos.size() == 4 + 3 + 3);
    // an empty list has no chunks
    DrawList e;
    organize_spans(e);
    CHECK(e.span_chunks.empty());
}

TEST_CASE("plan_span_levels: outside the view culled; over the budget the nearest chunks keep full detail") {
    DrawList d;
    d.span_shape = SpanShape::Floor;
    // four chunks in a row along x, each 64 x 64 columns of one span
    for (uint32_t x = 0; x < 256; ++x)
        for (uint32_t z = 0; z < 64; ++z) d.spans.push_back({x, z, 0, 0, 1});
    organize_spans(d);
    REQUIRE(d.span_chunks.size() == 4);
    const float origin[3] = {0, 0, 0};
    float vp[16];
    ortho(0.0f, 256.0f, 0.0f, 64.0f, vp);
    const float eye[3] = {-10.0f, 5.0f, 32.0f};  // west of chunk 0
    SpanPlan plan;
    plan_span_levels(d.span_chunks, d.span_count(), origin, 1.0f, 1.0f, 0.0f, vp, eye, 0, plan);
    CHECK(plan.stats.visible == 256u * 64u);
    CHECK(plan.stats.drawn[0] == 256u * 64u);
    CHECK_FALSE(plan.stats.merged);
    // a budget of one chunk and a bit: chunk 0 full, the next ones merged 4 x 4 while they fit,
    // the farthest 16 x 16
    plan_span_levels(d.span_chunks, d.span_count(), origin, 1.0f, 1.0f, 0.0f, vp, eye, 4096 + 300, plan);
    CHECK(plan.stats.merged);
    CHECK(plan.level[0] == 0);
    CHECK(plan.level[1] == 1);  // 256 instances at 4 x 4
    CHECK(plan.level[3] == 2);
    size_t drawn = 0;
    for (size_t k : plan.stats.drawn) drawn += k;
    CHECK(drawn <= 4096u + 300u);
    CHECK(plan.stats.drawn[0] == 4096u);
    // only the first two chunks in view: the others are culled, and the budget then fits them
    ortho(0.0f, 120.0f, 0.0f, 64.0f, vp);
    plan_span_levels(d.span_chunks, d.span_count(), origin, 1.0f, 1.0f, 0.0f, vp, eye, 2 * 4096, plan);
    CHECK(plan.stats.chunks_culled == 2u);
    CHECK(plan.level[2] == -1);
    CHECK(plan.level[3] == -1);
    CHECK(plan.stats.drawn[0] == 2u * 4096u);
    CHECK_FALSE(plan.stats.merged);
}
TEST_CASE("plan_span_sets: lists planned together, the nearest chunks of any list first") {
    // two lists of two chunks each, side by side along x (the second list's origin 128 cells east)
    DrawList a, b;
    for (DrawList* d : {&a, &b}) {
        d->span_shape = SpanShape::Floor;
        for (uint32_t x = 0; x < 128; ++x)
            for (uint32_t z = 0; z < 64; ++z) d->spans.push_back({x, z, 0, 0, 1});
        organize_spans(*d);
        REQUIRE(d->span_chunks.size() == 2);
    }
    float vp[16];
    ortho(0.0f, 256.0f, 0.0f, 64.0f, vp);
    std::vector<int8_t> level[2];
    SpanPlanStats stats[2];
    std::vector<SpanChunkSet> sets(2);
    for (int k = 0; k < 2; ++k) {
        const DrawList& d = k == 0 ? a : b;
        sets[k].chunks = &d.span_chunks;
        sets[k].total = d.span_count();
        sets[k].origin[0] = k == 0 ? 0.0f : 128.0f;
        sets[k].level = &level[k];
        sets[k].stats = &stats[k];
    }
    SpanPlanScratch scratch;
    // the eye east of everything: the second list's far chunk is the nearest; a budget of one
    // chunk and a bit keeps it whole and merges the rest, farthest (the first list's west chunk) most
    const float east[3] = {300.0f, 5.0f, 32.0f};
    plan_span_sets(sets, vp, east, 4096 + 300, scratch);
    CHECK(level[1][1] == 0);
    CHECK(level[1][0] == 1);
    CHECK(level[0][0] == 2);
    CHECK(stats[1].drawn[0] == 4096u);
    CHECK(stats[0].drawn[0] == 0u);
    CHECK(stats[0].merged);
    CHECK(stats[0].visible + stats[1].visible == 4u * 4096u);
    // no budget: every chunk whole, and the scratch reused
    plan_span_sets(sets, vp, east, 0, scratch);
    for (int k = 0; k < 2; ++k) {
        CHECK(level[k] == std::vector<int8_t>{0, 0});
        CHECK(stats[k].drawn[0] == 2u * 4096u);
        CHECK_FALSE(stats[k].merged);
    }
}
#endif
