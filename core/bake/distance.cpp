// Stage 6: distance field to region boundaries.
//
// Same result as Recast's rcBuildDistanceField: a chamfer distance (+2 orthogonal, +3 diagonal)
// to the nearest boundary span (one that lacks a link or has a neighbour of another area), found
// with a forward and a backward raster sweep; max_dist is the largest value before the blur; then
// a 3x3 box blur where spans with a distance of 2 or less keep it.
//
// The boundary test is folded into the forward sweep and the maximum into the backward sweep, so
// the spans are walked three times (forward, backward, blur) instead of five. A span that is not a
// boundary has all four links; a span whose distance exceeds 2 has no boundary span among its
// four neighbours (a boundary neighbour would have given it at most 0 + 2 in the forward or the
// backward sweep), so its neighbours have all their links too and the blur needs no link tests.
#include "core/bake/distance.h"

#include <algorithm>
#include <string>

namespace nav {

namespace {

constexpr uint32_t kNc = static_cast<uint32_t>(kNotConnected);
inline uint32_t con_of(uint32_t con, unsigned dir) { return (con >> (dir * 6u)) & 0x3fu; }
// Poll the cancel flag every this many rows.
constexpr int kCancelRows = 16;

}  // namespace

Status build_distance_field(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                            DistanceField& out, const CancelFlag* cancel) {
    const int w = chf.width, h = chf.height;
    const size_t n = chf.spans.size();
    if (Status st = validate_compact_input(chf, areas.size(), "distance"); !st) return st;
    out.max_dist = 0;
    // The raw field lives in `raw` and the blur writes out.dist, whose buffer is reused.
    std::vector<uint16_t> raw(n);
    out.dist.resize(n);
    uint16_t* src = raw.data();
    uint16_t* dst = out.dist.data();
    const uint8_t* area = areas.data();
    const CompactSpan* spans = chf.spans.data();
    const CompactCell* cells = chf.cells.data();
    const size_t sw = static_cast<size_t>(w);

    // Forward sweep: boundary test, then (-1,0), (0,-1) (+2) and (-1,-1), (+1,-1) (+3), the
    // diagonals reached through the orthogonal neighbour as Recast does.
    for (int z = 0; z < h; ++z) {
        if (z % kCancelRows == 0 && is_cancelled(cancel)) return Status::cancelled();
        const size_t row = static_cast<size_t>(z) * sw;
        for (int x = 0; x < w; ++x) {
            const size_t ci = row + static_cast<size_t>(x);
            const CompactCell c = cells[ci];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                const uint32_t con = spans[i].con;
                const uint32_t c0 = con_of(con, 0), c1 = con_of(con, 1), c2 = con_of(con, 2), c3 = con_of(con, 3);
                if (c0 == kNc || c1 == kNc || c2 == kNc || c3 == kNc) {
                    src[i] = 0;
                    continue;
                }
                const uint32_t a0 = cells[ci - 1].index + c0;
                const uint32_t a1 = cells[ci + sw].index + c1;
                const uint32_t a2 = cells[ci + 1].index + c2;
                const uint32_t a3 = cells[ci - sw].index + c3;
                const uint8_t ar = area[i];
                if (area[a0] != ar || area[a1] != ar || area[a2] != ar || area[a3] != ar) {
                    src[i] = 0;
                    continue;
                }
                int d = std::min(static_cast<int>(src[a0]), static_cast<int>(src[a3])) + 2;
                const uint32_t d0 = con_of(spans[a0].con, 3);  // (-1,0) then -z: (-1,-1)
                if (d0 != kNc) d = std::min(d, src[cells[ci - 1 - sw].index + d0] + 3);
                const uint32_t d3 = con_of(spans[a3].con, 2);  // (0,-1) then +x: (+1,-1)
                if (d3 != kNc) d = std::min(d, src[cells[ci + 1 - sw].index + d3] + 3);
                src[i] = static_cast<uint16_t>(std::min(d, 0xffff));
            }
        }
    }

    // Backward sweep: (+1,0), (0,+1) and (+1,+1), (-1,+1); the maximum is taken as values settle.
    int max_dist = 0;
    for (int z = h - 1; z >= 0; --z) {
        if (z % kCancelRows == 0 && is_cancelled(cancel)) return Status::cancelled();
        const size_t row = static_cast<size_t>(z) * sw;
        for (int x = w - 1; x >= 0; --x) {
            const size_t ci = row + static_cast<size_t>(x);
            const CompactCell c = cells[ci];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                int d = src[i];
                if (d > 2) {  // +2 and +3 steps cannot lower a value of 2 or less
                    const uint32_t con = spans[i].con;
                    const uint32_t a2 = cells[ci + 1].index + con_of(con, 2);
                    const uint32_t a1 = cells[ci + sw].index + con_of(con, 1);
                    d = std::min(d, std::min(static_cast<int>(src[a2]), static_cast<int>(src[a1])) + 2);
                    const uint32_t d2 = con_of(spans[a2].con, 1);  // (+1,0) then +z: (+1,+1)
                    if (d2 != kNc) d = std::min(d, src[cells[ci + 1 + sw].index + d2] + 3);
                    const uint32_t d1 = con_of(spans[a1].con, 0);  // (0,+1) then -x: (-1,+1)
                    if (d1 != kNc) d = std::min(d, src[cells[ci - 1 + sw].index + d1] + 3);
                    src[i] = static_cast<uint16_t>(d);
                }
                max_dist = std::max(max_dist, d);
            }
        }
    }
    out.max_dist = static_cast<uint16_t>(max_dist);

    // Box blur (Recast's threshold 1, doubled): a span above 2 takes the rounded mean of its 3x3
    // neighbourhood; the diagonal of direction d is reached through the neighbour in d, turning
    // to d+1.
    for (int z = 0; z < h; ++z) {
        if (z % kCancelRows == 0 && is_cancelled(cancel)) return Status::cancelled();
        const size_t row = static_cast<size_t>(z) * sw;
        for (int x = 0; x < w; ++x) {
            const size_t ci = row + static_cast<size_t>(x);
            const CompactCell c = cells[ci];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                const int cd = src[i];
                if (cd <= 2) {
                    dst[i] = static_cast<uint16_t>(cd);
                    continue;
                }
                const uint32_t con = spans[i].con;
                const uint32_t a0 = cells[ci - 1].index + con_of(con, 0);
                const uint32_t a1 = cells[ci + sw].index + con_of(con, 1);
                const uint32_t a2 = cells[ci + 1].index + con_of(con, 2);
                const uint32_t a3 = cells[ci - sw].index + con_of(con, 3);
                const uint32_t b0 = cells[ci - 1 + sw].index + con_of(spans[a0].con, 1);  // (-1,+1)
                const uint32_t b1 = cells[ci + 1 + sw].index + con_of(spans[a1].con, 2);  // (+1,+1)
                const uint32_t b2 = cells[ci + 1 - sw].index + con_of(spans[a2].con, 3);  // (+1,-1)
                const uint32_t b3 = cells[ci - 1 - sw].index + con_of(spans[a3].con, 0);  // (-1,-1)
                const int sum = cd + src[a0] + src[a1] + src[a2] + src[a3] + src[b0] + src[b1] + src[b2] + src[b3];
                dst[i] = static_cast<uint16_t>((sum + 5) / 9);
            }
        }
    }
    return Status::ok();
}

}  // namespace nav
