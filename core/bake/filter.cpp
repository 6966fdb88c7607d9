// Stage 2: the three walkable filters, in place on the solid heightfield, with Recast's rules
// (as in the Recast 1.5.1 build the differential tests compare against).
//
// The filters walk columns through Span::next, so they work on any pool layout; after
// rasterize_triangles the pool is column-contiguous and these walks stream through memory. The
// low-height filter sweeps the pool in order instead when it has no free entries (its rule reads a
// span and the one above it only).
#include "core/bake/filter.h"

#include <algorithm>

namespace nav {

namespace {
// The open space above the top span of a column reaches this height (Recast's 0xffff).
constexpr int kOpenTop = kSpanMaxHeight;
// Columns between two looks at the cancel flag.
constexpr size_t kCancelPoll = 1u << 14;
}  // namespace

void filter_low_hanging_obstacles(int walkable_climb, Heightfield& hf, const CancelFlag* cancel) {
    Span* pool = hf.pool.data();
    for (size_t col = 0; col < hf.columns.size(); ++col) {
        if (col % kCancelPoll == 0 && is_cancelled(cancel)) return;
        const uint32_t head = hf.columns[col];
        bool prev_walkable = false;
        uint8_t prev_area = kNullArea;
        int prev_top = 0;
        for (uint32_t i = head; i != kNullSpan;) {
            Span& s = pool[i];
            const bool walkable = s.area != kNullArea;
            // A non-walkable span resting within climb of a walkable one below becomes walkable.
            // Only the span's own original flag is passed up, so one kerb cannot lift a stack.
            if (!walkable && prev_walkable && static_cast<int>(s.smax) - prev_top <= walkable_climb)
                s.area = prev_area;
            prev_walkable = walkable;
            prev_area = s.area;
            prev_top = s.smax;
            i = s.next;
        }
    }
}

void filter_ledge_spans(int walkable_height, int walkable_climb, Heightfield& hf, const CancelFlag* cancel) {
    const int w = hf.width, h = hf.height;
    Span* pool = hf.pool.data();
    const uint32_t* cols = hf.columns.data();
    // Neighbour spans are sorted, so once a neighbour floor is at or above our ceiling no later
    // one can leave a gap (valid whenever the gap threshold is not negative).
    const int stop_offset = walkable_height >= 0 ? 0 : 4 * kOpenTop;

    for (int z = 0; z < h; ++z) {
        if (is_cancelled(cancel)) return;
        for (int x = 0; x < w; ++x) {
            const size_t col = static_cast<size_t>(x) + static_cast<size_t>(z) * static_cast<size_t>(w);
            uint32_t i = cols[col];
            if (i == kNullSpan) continue;
            if (z == 0 || z == h - 1 || x == 0 || x == w - 1) {
                // Off the grid counts as a drop of more than walkable_climb (floors are >= 1).
                for (; i != kNullSpan; i = pool[i].next) {
                    Span& s = pool[i];
                    if (s.area == kNullArea) continue;
                    s.area = kNullArea;
                    s.filtered_by |= kFilteredLedge;
                }
                continue;
            }
            // The four neighbour columns in Recast's direction order (-x, +z, +x, -z).
            const uint32_t heads[4] = {cols[col - 1], cols[col + w], cols[col + 1], cols[col - w]};
            int below[4];  // bottom of each neighbour's lowest span (the top of the space below it)
            for (int dir = 0; dir < 4; ++dir)
                below[dir] = heads[dir] != kNullSpan ? static_cast<int>(pool[heads[dir]].smin) : kOpenTop;
            for (; i != kNullSpan; i = pool[i].next) {
                Span& s = pool[i];
                if (s.area == kNullArea) continue;
                const int bot = s.smax;
                const int top = s.next != kNullSpan ? static_cast<int>(pool[s.next].smin) : kOpenTop;
                const int stop = top + stop_offset;

                // The space below a neighbour's lowest span: any gap there is a drop too deep to
                // step down (Recast puts its floor at -walkable_climb).
                const int low = std::max(bot, -walkable_climb) + walkable_height;
                bool ledge = (std::min(top, below[0]) > low) | (std::min(top, below[1]) > low) |
                             (std::min(top, below[2]) > low) | (std::min(top, below[3]) > low);
                int asmin = bot, asmax = bot;  // floors of reachable neighbours, within a climb
                for (int dir = 0; dir < 4 && !ledge; ++dir) {
                    for (uint32_t n = heads[dir]; n != kNullSpan; n = pool[n].next) {
                        const Span& ns = pool[n];
                        const int nbot = ns.smax;
                        if (nbot >= stop) break;
                        const int ntop = ns.next != kNullSpan ? static_cast<int>(pool[ns.next].smin) : kOpenTop;
                        if (std::min(top, ntop) - std::max(bot, nbot) > walkable_height) {
                            const int diff = nbot - bot;
                            if (diff < -walkable_climb) {  // a drop too deep to step down
                                ledge = true;
                                break;
                            }
                            if (diff <= walkable_climb) {
                                asmin = std::min(asmin, nbot);
                                asmax = std::max(asmax, nbot);
                            }
                        }
                    }
                }
                // A drop too deep, or reachable floors spread over more than a climb (steep).
                if (ledge || asmax - asmin > walkable_climb) {
                    s.area = kNullArea;
                    s.filtered_by |= kFilteredLedge;
                }
            }
        }
    }
}

void filter_walkable_low_height_spans(int walkable_height, Heightfield& hf, const CancelFlag* cancel) {
    Span* pool = hf.pool.data();
    // The rule reads a span and the one above it only, so when every pool entry is a live span
    // (no free list: always so after rasterize_triangles) one sweep in pool order does it without
    // walking the columns; after rasterize_triangles that order is column-contiguous, so the span
    // above is the next entry and the sweep streams.
    const size_t n = hf.pool.size();
    if (hf.free_list == kNullSpan && n == hf.span_count) {
        for (size_t b = 0; b < n; b += kCancelPoll) {
            if (is_cancelled(cancel)) return;
            const size_t e = std::min(n, b + kCancelPoll);
            for (size_t i = b; i < e; ++i) {
                Span& s = pool[i];
                const int ceiling = s.next != kNullSpan ? static_cast<int>(pool[s.next].smin) : kOpenTop;
                if (ceiling - static_cast<int>(s.smax) <= walkable_height && s.area != kNullArea) {
                    s.area = kNullArea;
                    s.filtered_by |= kFilteredLowHeight;
                }
            }
        }
        return;
    }
    for (size_t col = 0; col < hf.columns.size(); ++col) {
        if (col % kCancelPoll == 0 && is_cancelled(cancel)) return;
        const uint32_t head = hf.columns[col];
        for (uint32_t i = head; i != kNullSpan;) {
            Span& s = pool[i];
            const int floor = s.smax;
            const int ceiling = s.next != kNullSpan ? static_cast<int>(pool[s.next].smin) : kOpenTop;
            if (ceiling - floor <= walkable_height && s.area != kNullArea) {
                s.area = kNullArea;
                s.filtered_by |= kFilteredLowHeight;
            }
            i = s.next;
        }
    }
}

}  // namespace nav
