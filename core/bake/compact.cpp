// Stage 3: the compact (open) heightfield, with Recast's rules: every walkable solid span gives
// an open span whose floor is the solid span's top and whose clearance reaches the next solid
// span's bottom (or the top of the height range); neighbouring open spans link when their floors
// differ by at most walkable_climb and the shared gap is at least walkable_height.
#include "core/bake/compact.h"

#include <algorithm>
#include <string>

namespace nav {

namespace {
constexpr int kOpenTop = kSpanMaxHeight;  // clearance above a column's top span (Recast's 0xffff)
constexpr int kMaxLayer = kNotConnected - 1;  // highest layer index a link can name
constexpr uint32_t kAllUnconnected = static_cast<uint32_t>(kNotConnected) |
                                     (static_cast<uint32_t>(kNotConnected) << 6) |
                                     (static_cast<uint32_t>(kNotConnected) << 12) |
                                     (static_cast<uint32_t>(kNotConnected) << 18);
}  // namespace

Status build_compact_heightfield(int walkable_height, int walkable_climb, const Heightfield& hf,
                                 CompactHeightfield& out, const CancelFlag* cancel) {
    const int w = hf.width, h = hf.height;
    const size_t ncols = static_cast<size_t>(w) * static_cast<size_t>(h);
    if (hf.columns.size() != ncols)
        return Status::bad_input("compact: heightfield columns (" + std::to_string(hf.columns.size()) +
                                 ") do not match its " + std::to_string(w) + "x" + std::to_string(h) + " grid");

    out.width = w;
    out.height = h;
    out.walkable_height = walkable_height;
    out.walkable_climb = walkable_climb;
    out.border_size = hf.border_size;
    for (int i = 0; i < 3; ++i) {
        out.bmin[i] = hf.bmin[i];
        out.bmax[i] = hf.bmax[i];
    }
    out.bmax[1] += static_cast<float>(walkable_height) * hf.ch;  // room for an agent on the top span
    out.cs = hf.cs;
    out.ch = hf.ch;

    // Cells and spans in one pass over the columns (the span count is at most the solid count).
    out.cells.resize(ncols);
    out.spans.resize(hf.span_count);
    out.areas.resize(hf.span_count);
    const Span* pool = hf.pool.data();
    CompactSpan* spans = out.spans.data();
    uint8_t* areas = out.areas.data();
    uint32_t idx = 0;
    for (size_t col = 0; col < ncols; ++col) {
        if (col % (1u << 14) == 0 && is_cancelled(cancel)) return Status::cancelled();
        CompactCell& cell = out.cells[col];
        cell.index = idx;
        for (uint32_t i = hf.columns[col]; i != kNullSpan;) {
            const Span& s = pool[i];
            if (s.area != kNullArea) {
                if (idx >= hf.span_count)
                    return Status::internal("compact: heightfield holds more spans than its span_count " +
                                            std::to_string(hf.span_count));
                const int bot = s.smax;
                const int top = s.next != kNullSpan ? static_cast<int>(pool[s.next].smin) : kOpenTop;
                CompactSpan& cs = spans[idx];
                cs.y = static_cast<uint16_t>(bot);
                cs.h = static_cast<uint8_t>(std::clamp(top - bot, 0, 0xff));
                cs.pad = 0;
                cs.con = kAllUnconnected;
                areas[idx] = s.area;
                ++idx;
            }
            i = s.next;
        }
        cell.count = idx - cell.index;
    }
    out.spans.resize(idx);
    out.areas.resize(idx);
    out.span_count = idx;

    // Links: for each span and direction, the first span of the neighbour cell (bottom up) whose
    // floor is within walkable_climb and whose shared gap is at least walkable_height. Floors
    // rise through a cell, so the scan stops at the first floor above ours + walkable_climb.
    const CompactCell* cells = out.cells.data();
    for (int z = 0; z < h; ++z) {
        if (is_cancelled(cancel)) return Status::cancelled();
        for (int x = 0; x < w; ++x) {
            const size_t ci = static_cast<size_t>(x) + static_cast<size_t>(z) * static_cast<size_t>(w);
            const CompactCell c = cells[ci];
            if (c.count == 0) continue;
            // Neighbour cells in Recast's direction order (-x, +z, +x, -z); empty off the grid.
            uint32_t nbeg[4] = {0, 0, 0, 0}, nend[4] = {0, 0, 0, 0};
            if (x > 0) {
                nbeg[0] = cells[ci - 1].index;
                nend[0] = nbeg[0] + cells[ci - 1].count;
            }
            if (z + 1 < h) {
                nbeg[1] = cells[ci + static_cast<size_t>(w)].index;
                nend[1] = nbeg[1] + cells[ci + static_cast<size_t>(w)].count;
            }
            if (x + 1 < w) {
                nbeg[2] = cells[ci + 1].index;
                nend[2] = nbeg[2] + cells[ci + 1].count;
            }
            if (z > 0) {
                nbeg[3] = cells[ci - static_cast<size_t>(w)].index;
                nend[3] = nbeg[3] + cells[ci - static_cast<size_t>(w)].count;
            }
            for (uint32_t i = c.index, iend = c.index + c.count; i < iend; ++i) {
                const int sy = spans[i].y, stop = sy + spans[i].h;
                const int lo = sy - walkable_climb, hi = sy + walkable_climb;
                uint32_t con = kAllUnconnected;
                int bad_dir = -1;
                uint32_t bad_layer = 0;
                auto link = [&]<int dir>() {
                    for (uint32_t k = nbeg[dir]; k < nend[dir]; ++k) {
                        const int ny = spans[k].y;
                        if (ny > hi) break;
                        if (ny < lo) continue;
                        if (std::min(stop, ny + static_cast<int>(spans[k].h)) - std::max(sy, ny) >= walkable_height) {
                            const uint32_t layer = k - nbeg[dir];
                            if (layer > static_cast<uint32_t>(kMaxLayer)) {
                                bad_dir = dir;
                                bad_layer = layer;
                            }
                            // The field holds kNotConnected (all ones) until set.
                            con ^= (static_cast<uint32_t>(kNotConnected) ^ (layer & 0x3fu)) << (dir * 6);
                            break;
                        }
                    }
                };
                link.template operator()<0>();
                link.template operator()<1>();
                link.template operator()<2>();
                link.template operator()<3>();
                if (bad_dir >= 0)
                    return Status::bad_input("compact: cell (" + std::to_string(x + dir_offset_x(bad_dir)) + ", " +
                                             std::to_string(z + dir_offset_z(bad_dir)) + ") needs a link to layer " +
                                             std::to_string(bad_layer) + ", more than the " +
                                             std::to_string(kMaxLayer) + " a link can address");
                spans[i].con = con;
            }
        }
    }
    return Status::ok();
}

Status validate_compact_input(const CompactHeightfield& chf, size_t per_span_count, const char* stage) {
    const int w = chf.width, h = chf.height;
    if (w < 0 || h < 0 || chf.cells.size() != static_cast<size_t>(w) * static_cast<size_t>(h))
        return Status::internal(std::string(stage) + ": compact heightfield has " + std::to_string(chf.cells.size()) +
                                " cells for a " + std::to_string(w) + " x " + std::to_string(h) + " grid");
    if (per_span_count != chf.spans.size())
        return Status::internal(std::string(stage) + ": " + std::to_string(per_span_count) + " areas for " +
                                std::to_string(chf.spans.size()) + " compact spans");
    return Status::ok();
}

}  // namespace nav
