#include "render/span_lod.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace nav::render {

namespace {

constexpr uint32_t kC = kSpanChunkCells;
// Counting-sort keys beyond this (a grid of about 5800 x 5800 cells) are not organised: the list
// is drawn whole. Such grids are refused by the pipeline's memory limit long before.
constexpr size_t kMaxKeys = size_t(1) << 25;

// Column (x, z) of a level whose chunks are `cpc` columns a side, as a key in chunk-major order:
// the chunk (row-major over `cw` chunks a row), then the column inside it (row-major).
struct Keys {
    size_t cw;
    uint32_t cpc;
    size_t operator()(uint32_t x, uint32_t z) const {
        return ((static_cast<size_t>(z / cpc) * cw + x / cpc) * cpc + z % cpc) * cpc + x % cpc;
    }
};

// Face bits of the unit mesh (renderer.cpp unit_mesh): top, bottom, -x, +z, +x, -z.
constexpr uint32_t kFaceNegX = 1u << 2, kFacePosZ = 1u << 3, kFacePosX = 1u << 4, kFaceNegZ = 1u << 5;

// Sets, on each span of `sp` (grouped by column: `start[key]` .. `start[key + 1]`), the bit of each
// side face that a span of the neighbouring column covers from its bottom to its top.
void mark_hidden(std::vector<SpanInstance>& sp, const std::vector<uint32_t>& start, uint32_t w, uint32_t h,
                 const Keys& key) {
    const auto covered = [&](const SpanInstance& s, int64_t nx, int64_t nz) {
        if (nx < 0 || nz < 0 || nx >= w || nz >= h) return false;
        const size_t k = key(static_cast<uint32_t>(nx), static_cast<uint32_t>(nz));
        for (uint32_t j = start[k]; j < start[k + 1]; ++j)
            if (sp[j].y0 <= s.y0 && sp[j].y1 >= s.y1) return true;
        return false;
    };
    for (SpanInstance& s : sp) {
        const int64_t x = s.x, z = s.z & kSpanCellMask;
        uint32_t bits = 0;
        if (covered(s, x - 1, z)) bits |= kFaceNegX;
        if (covered(s, x + 1, z)) bits |= kFacePosX;
        if (covered(s, x, z - 1)) bits |= kFaceNegZ;
        if (covered(s, x, z + 1)) bits |= kFacePosZ;
        s.z = (s.z & kSpanCellMask) | (bits << kSpanCellBits);
    }
}

// Moves `from` into d.span_pos / d.span_color and hashes the positions.
void split(DrawList& d, std::vector<SpanInstance>& from) {
    std::vector<SpanPos> pos(from.size());
    d.span_color.resize(from.size());
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (from.size() * 0x100000001b3ull) ^ static_cast<uint64_t>(d.span_shape);
    for (size_t i = 0; i < from.size(); ++i) {
        const SpanInstance& s = from[i];
        pos[i] = {s.x, s.z, s.y0, s.y1};
        d.span_color[i] = s.color;
        const uint64_t a = (static_cast<uint64_t>(s.x) << 32) | s.z, b = (static_cast<uint64_t>(s.y0) << 16) | s.y1;
        h = (h ^ a) * 0x9fb21c651e98df25ull;
        h = (h ^ b ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull;
    }
    d.span_pos_hash = h | 1;
    from.clear();
    from.shrink_to_fit();
    d.span_pos.assign(std::move(pos));
}

}  // namespace

void organize_spans(DrawList& d) {
    d.span_chunks.clear();
    d.span_full = 0;
    d.span_pos.clear();
    d.span_color.clear();
    d.span_pos_hash = 0;
    const size_t n = d.spans.size();
    if (n == 0) return;
    if (n > 0xffffffffu / 2) return split(d, d.spans);
    uint32_t w = 0, h = 0;
    for (const SpanInstance& s : d.spans) {
        if (s.x > kSpanCellMask || s.z > kSpanCellMask) return split(d, d.spans);
        w = std::max(w, s.x + 1);
        h = std::max(h, s.z + 1);
    }
    const size_t cw = (w + kC - 1) / kC, chn = (h + kC - 1) / kC, nchunks = cw * chn;
    const size_t nkeys = nchunks * kC * kC;
    if (nkeys > kMaxKeys) return split(d, d.spans);
    const Keys key0{cw, kC};

    // level 0: a counting sort by column key (stable: a column's spans stay bottom-up)
    std::vector<uint32_t> start(nkeys + 1, 0);
    for (const SpanInstance& s : d.spans) ++start[key0(s.x, s.z) + 1];
    for (size_t k = 0; k < nkeys; ++k) start[k + 1] += start[k];
    std::vector<SpanInstance> full(n);
    {
        std::vector<uint32_t>& next = start;  // start[k] walks to start[k + 1] while placing
        for (const SpanInstance& s : d.spans) full[next[key0(s.x, s.z)]++] = s;
        for (size_t k = nkeys; k > 0; --k) start[k] = start[k - 1];
        start[0] = 0;
    }
    d.spans.clear();
    d.spans.shrink_to_fit();
    const bool boxes = d.span_shape == SpanShape::Box;
    if (boxes) mark_hidden(full, start, w, h, key0);

    // coarse levels: per block, the column with the most spans (then the highest top) stretched
    std::vector<SpanInstance> coarse[kSpanLevels];
    std::vector<uint32_t> cstart[kSpanLevels];
    for (int lv = 1; lv < kSpanLevels; ++lv) {
        const uint32_t k = kSpanLevelScale[lv], cpc = kC / k;
        const Keys key{cw, cpc};
        std::vector<uint32_t>& st = cstart[lv];
        std::vector<SpanInstance>& out = coarse[lv];
        st.assign(nchunks * cpc * cpc + 1, 0);
        out.reserve(n / (k * k) + 16);
        size_t kk = 0;
        for (size_t c = 0; c < nchunks; ++c) {
            const uint32_t cx = static_cast<uint32_t>(c % cw) * kC, cz = static_cast<uint32_t>(c / cw) * kC;
            for (uint32_t bz = 0; bz < cpc; ++bz) {
                for (uint32_t bx = 0; bx < cpc; ++bx, ++kk) {
                    st[kk] = static_cast<uint32_t>(out.size());
                    const uint32_t gx = cx + bx * k, gz = cz + bz * k;
                    if (gx >= w || gz >= h) continue;
                    uint32_t best_cnt = 0, best_top = 0;
                    size_t best = 0;
                    for (uint32_t z = gz; z < std::min(gz + k, h); ++z) {
                        for (uint32_t x = gx; x < std::min(gx + k, w); ++x) {
                            const size_t col = key0(x, z);
                            const uint32_t cnt = start[col + 1] - start[col];
                            if (cnt == 0) continue;
                            const uint32_t top = full[start[col + 1] - 1].y1;
                            if (cnt > best_cnt || (cnt == best_cnt && top > best_top)) best_cnt = cnt, best_top = top, best = col;
                        }
                    }
                    for (uint32_t j = start[best]; j < start[best] + best_cnt; ++j) {
                        SpanInstance s = full[j];
                        s.x = gx / k;
                        s.z = gz / k;
                        out.push_back(s);
                    }
                }
            }
        }
        st[kk] = static_cast<uint32_t>(out.size());
        if (boxes) mark_hidden(out, st, (w + k - 1) / k, (h + k - 1) / k, key);
    }

    // the chunk table: non-empty chunks, each level's range
    const size_t offset[kSpanLevels] = {0, n, n + coarse[1].size()};
    for (size_t c = 0; c < nchunks; ++c) {
        const uint32_t a = start[c * kC * kC], b = start[(c + 1) * kC * kC];
        if (a == b) continue;
        SpanChunk ch{};
        ch.x0 = static_cast<uint32_t>(c % cw) * kC;
        ch.z0 = static_cast<uint32_t>(c / cw) * kC;
        ch.ymin = 0xffff;
        ch.ymax = 0;
        for (uint32_t j = a; j < b; ++j) {
            ch.ymin = std::min(ch.ymin, full[j].y0);
            ch.ymax = std::max(ch.ymax, full[j].y1);
        }
        ch.first[0] = a;
        ch.count[0] = b - a;
        for (int lv = 1; lv < kSpanLevels; ++lv) {
            const uint32_t cpc = kC / kSpanLevelScale[lv];
            const uint32_t ca = cstart[lv][c * cpc * cpc], cb = cstart[lv][(c + 1) * cpc * cpc];
            ch.first[lv] = static_cast<uint32_t>(offset[lv]) + ca;
            ch.count[lv] = cb - ca;
        }
        d.span_chunks.push_back(ch);
    }
    full.reserve(n + coarse[1].size() + coarse[2].size());
    full.insert(full.end(), coarse[1].begin(), coarse[1].end());
    full.insert(full.end(), coarse[2].begin(), coarse[2].end());
    split(d, full);
    d.span_full = static_cast<uint32_t>(n);
}

void plan_span_levels(const std::vector<SpanChunk>& chunks, size_t total, const float* origin, float cs, float ch,
                      float lift, const float* m, const float* eye, size_t budget, SpanPlan& plan) {
    SpanChunkSet set;
    set.chunks = &chunks;
    set.total = total;
    for (int k = 0; k < 3; ++k) set.origin[k] = origin[k];
    set.cs = cs, set.ch = ch, set.lift = lift;
    set.level = &plan.level;
    set.stats = &plan.stats;
    SpanPlanScratch scratch;
    plan_span_sets({&set, 1}, m, eye, budget, scratch);
}

void plan_span_sets(std::span<const SpanChunkSet> sets, const float* m, const float* eye, size_t budget,
                    SpanPlanScratch& scratch) {
    // the six clip planes of view_proj (column-major: element (row r, column c) at m[c * 4 + r])
    float planes[6][4];
    for (int i = 0; i < 3; ++i) {
        for (int c = 0; c < 4; ++c) {
            planes[2 * i][c] = m[c * 4 + 3] + m[c * 4 + i];
            planes[2 * i + 1][c] = m[c * 4 + 3] - m[c * 4 + i];
        }
    }
    auto& order = scratch.order;
    order.clear();
    size_t visible = 0, base = 0;  // base: every visible chunk at the coarsest level
    for (size_t si = 0; si < sets.size(); ++si) {
        const SpanChunkSet& s = sets[si];
        const std::vector<SpanChunk>& chunks = *s.chunks;
        s.level->assign(chunks.size(), -1);
        *s.stats = SpanPlanStats{};
        s.stats->total = s.total;
        const float side = static_cast<float>(kC) * s.cs;
        for (size_t i = 0; i < chunks.size(); ++i) {
            const SpanChunk& c = chunks[i];
            const float lo[3] = {s.origin[0] + static_cast<float>(c.x0) * s.cs,
                                 s.origin[1] + static_cast<float>(c.ymin) * s.ch + s.lift,
                                 s.origin[2] + static_cast<float>(c.z0) * s.cs};
            const float hi[3] = {lo[0] + side, s.origin[1] + static_cast<float>(c.ymax + 1) * s.ch + s.lift, lo[2] + side};
            bool outside = false;
            for (const float* p : planes) {
                // the box corner farthest along the plane's normal
                const float d = p[0] * (p[0] >= 0 ? hi[0] : lo[0]) + p[1] * (p[1] >= 0 ? hi[1] : lo[1]) +
                                p[2] * (p[2] >= 0 ? hi[2] : lo[2]) + p[3];
                if (d < 0) { outside = true; break; }
            }
            if (outside) { ++s.stats->chunks_culled; continue; }
            s.stats->visible += c.count[0];
            visible += c.count[0];
            base += c.count[kSpanLevels - 1];
            float d2 = 0;
            for (int k = 0; k < 3; ++k) {
                const float e = eye[k] < lo[k] ? lo[k] - eye[k] : (eye[k] > hi[k] ? eye[k] - hi[k] : 0.0f);
                d2 += e * e;
            }
            order.push_back({d2, static_cast<uint32_t>(si), static_cast<uint32_t>(i)});
        }
    }
    if (budget == 0 || visible <= budget) {
        for (const auto& v : order) (*sets[v.set].level)[v.chunk] = 0;
        for (const SpanChunkSet& s : sets) s.stats->drawn[0] = s.stats->visible;
        return;
    }
    // nearest first: each chunk takes the finest level that still leaves the rest at the coarsest
    std::sort(order.begin(), order.end());
    size_t used = base;
    for (const auto& v : order) {
        const SpanChunkSet& s = sets[v.set];
        const SpanChunk& c = (*s.chunks)[v.chunk];
        const size_t coarsest = c.count[kSpanLevels - 1];
        int lv = kSpanLevels - 1;
        for (int k = 0; k < kSpanLevels - 1; ++k) {
            if (used - coarsest + c.count[k] <= budget) { lv = k; break; }
        }
        used = used - coarsest + c.count[lv];
        (*s.level)[v.chunk] = static_cast<int8_t>(lv);
        s.stats->drawn[lv] += c.count[lv];
        if (lv > 0) s.stats->merged = true;
    }
}

}  // namespace nav::render
