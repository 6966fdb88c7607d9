// The chamfer distance erosion measures with (Recast's rcErodeWalkableArea: +2 orthogonal, +3
// diagonal, saturating at 255) from every span of a compact heightfield to the nearest boundary
// span, in a forward and a backward raster sweep. The erode stage (erode.cpp) and the agent types'
// clearance (clearance.cpp) differ only in what a boundary is and what they do with the distance,
// so both run this one loop. Internal to the two: not part of a stage's interface.
//
// The boundary test is folded into the forward sweep (it reads only spans visited before, whose
// values are final by then) and the caller's use of the final value into the backward sweep (final
// once that sweep has visited the span), so the spans are walked twice. A span that is not a
// boundary has all four links, which lets the sweeps skip the link tests for the orthogonal
// neighbours.
#pragma once
#include <algorithm>
#include <cstdint>

#include "core/bake/compact.h"

namespace nav::chamfer {

inline uint32_t con_of(uint32_t con, unsigned dir) { return (con >> (dir * 6u)) & 0x3fu; }

// boundary(i, a0, a1, a2, a3): whether span i, whose four neighbours (directions 0..3) are a0..a3,
// is a boundary (spans without all four links always are). done(i, d): span i's final distance.
// dist: one byte per span (the caller's scratch). Polls cancel once a row.
template <class Boundary, class Done>
Status sweeps(const CompactHeightfield& chf, uint8_t* dist, Boundary boundary, Done done, const CancelFlag* cancel) {
    constexpr uint32_t kNc = static_cast<uint32_t>(kNotConnected);
    const int w = chf.width, h = chf.height;
    const CompactSpan* spans = chf.spans.data();
    const CompactCell* cells = chf.cells.data();
    const size_t sw = static_cast<size_t>(w);
    // Forward: the boundary test, then the (-1,0), (0,-1) neighbours (+2) and the (-1,-1), (+1,-1)
    // diagonals (+3), the diagonals reached through the orthogonal neighbour as Recast does.
    for (int z = 0; z < h; ++z) {
        if (is_cancelled(cancel)) return Status::cancelled();
        const size_t row = static_cast<size_t>(z) * sw;
        for (int x = 0; x < w; ++x) {
            const size_t ci = row + static_cast<size_t>(x);
            const CompactCell c = cells[ci];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                const uint32_t con = spans[i].con;
                const uint32_t c0 = con_of(con, 0), c1 = con_of(con, 1), c2 = con_of(con, 2), c3 = con_of(con, 3);
                if (c0 == kNc || c1 == kNc || c2 == kNc || c3 == kNc) {
                    dist[i] = 0;
                    continue;
                }
                const uint32_t a0 = cells[ci - 1].index + c0;
                const uint32_t a1 = cells[ci + sw].index + c1;
                const uint32_t a2 = cells[ci + 1].index + c2;
                const uint32_t a3 = cells[ci - sw].index + c3;
                if (boundary(i, a0, a1, a2, a3)) {
                    dist[i] = 0;
                    continue;
                }
                int d = std::min(static_cast<int>(dist[a0]), static_cast<int>(dist[a3])) + 2;
                const uint32_t d0 = con_of(spans[a0].con, 3);  // (-1,0) then -z: (-1,-1)
                if (d0 != kNc) d = std::min(d, dist[cells[ci - 1 - sw].index + d0] + 3);
                const uint32_t d3 = con_of(spans[a3].con, 2);  // (0,-1) then +x: (+1,-1)
                if (d3 != kNc) d = std::min(d, dist[cells[ci + 1 - sw].index + d3] + 3);
                dist[i] = static_cast<uint8_t>(std::min(d, 255));
            }
        }
    }
    // Backward: the (+1,0), (0,+1) neighbours and the (+1,+1), (-1,+1) diagonals, then done(). A
    // span with a non-zero value is not a boundary, so it has all four links.
    for (int z = h - 1; z >= 0; --z) {
        if (is_cancelled(cancel)) return Status::cancelled();
        const size_t row = static_cast<size_t>(z) * sw;
        for (int x = w - 1; x >= 0; --x) {
            const size_t ci = row + static_cast<size_t>(x);
            const CompactCell c = cells[ci];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                int d = dist[i];
                if (d > 2) {  // +2 and +3 steps cannot lower a value of 2 or less
                    const uint32_t con = spans[i].con;
                    const uint32_t a2 = cells[ci + 1].index + con_of(con, 2);
                    const uint32_t a1 = cells[ci + sw].index + con_of(con, 1);
                    d = std::min(d, std::min(static_cast<int>(dist[a2]), static_cast<int>(dist[a1])) + 2);
                    const uint32_t d2 = con_of(spans[a2].con, 1);  // (+1,0) then +z: (+1,+1)
                    if (d2 != kNc) d = std::min(d, dist[cells[ci + 1 + sw].index + d2] + 3);
                    const uint32_t d1 = con_of(spans[a1].con, 0);  // (0,+1) then -x: (-1,+1)
                    if (d1 != kNc) d = std::min(d, dist[cells[ci - 1 + sw].index + d1] + 3);
                    dist[i] = static_cast<uint8_t>(d);
                }
                done(i, d);
            }
        }
    }
    return Status::ok();
}

}  // namespace nav::chamfer
