// Level of detail for the span layers (voxels, filtered, and the compact family): what keeps a
// 7 M-span level drawable. Two parts, both plain functions over a DrawList's span instances:
// - organize_spans (the worker, after a layer is built): sorts the instances into chunks of
//   kSpanChunkCells x kSpanChunkCells cells, marks the box faces a neighbouring span covers (the GPU
//   leaves them out: on a solid level most side faces), and appends two coarse levels in which a
//   block of 4 x 4 or 16 x 16 cells is drawn as one column (the block's most layered column,
//   stretched), so stacked floors stay stacked when merged.
// - plan_span_levels (the renderer, every frame): chunks outside the view are skipped, and when
//   the visible full-resolution spans exceed the frame's budget, the nearest chunks keep full
//   detail and the farther ones are drawn merged. The plan says how many spans it drew at each
//   level, which the debugger states on screen.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "render/draw_list.h"

namespace nav::render {

// Sorts d.spans into chunks, sets the hidden-face bits (boxes only) and appends the coarse levels;
// fills d.span_chunks and d.span_full, and moves the instances into d.span_pos / d.span_color (with
// d.span_pos_hash), leaving d.spans empty. A list with cells beyond kSpanCellMask or a grid too big
// to sort is moved as it is (no chunks: drawn whole).
void organize_spans(DrawList& d);

struct SpanPlanStats {
    size_t total = 0;             // full-resolution spans of the list
    size_t visible = 0;           // of those, in chunks inside the view
    size_t drawn[kSpanLevels]{};  // instances drawn at each level
    size_t chunks_culled = 0;
    bool merged = false;          // some visible chunk was drawn at a coarse level (the budget applied)
};
// Per chunk of d's span_chunks: the level to draw (0 full .. kSpanLevels-1), or -1 outside the view.
// `view_proj` column-major; `lift` added to every y (the list's and the draw's); budget 0: no limit.
struct SpanPlan {
    std::vector<int8_t> level;
    SpanPlanStats stats;
};
void plan_span_levels(const std::vector<SpanChunk>& chunks, size_t total, const float* origin, float cs, float ch,
                      float lift, const float* view_proj, const float* eye, size_t budget, SpanPlan& plan);

// Several span lists planned together under one budget (the parts of a tiled level's span layers,
// and the span layers shown): the nearest chunks of any list keep full detail first.
struct SpanChunkSet {
    const std::vector<SpanChunk>* chunks = nullptr;
    size_t total = 0;                // full-resolution spans of the list
    float origin[3] = {0, 0, 0};
    float cs = 1.0f, ch = 1.0f, lift = 0.0f;
    std::vector<int8_t>* level = nullptr;  // out: per chunk, as SpanPlan::level
    SpanPlanStats* stats = nullptr;        // out
};
// Reused between frames (no allocation per frame once grown).
struct SpanPlanScratch {
    struct Visible {
        float d2;
        uint32_t set, chunk;
        bool operator<(const Visible& o) const { return d2 < o.d2; }
    };
    std::vector<Visible> order;
};
void plan_span_sets(std::span<const SpanChunkSet> sets, const float* view_proj, const float* eye, size_t budget,
                    SpanPlanScratch& scratch);

}  // namespace nav::render
