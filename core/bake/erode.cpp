// Stage 4: erode the walkable area by the agent radius.
//
// Same result as Recast's rcErodeWalkableArea: a chamfer distance (+2 orthogonal, +3 diagonal,
// saturating at 255) to the nearest boundary span, found with a forward and a backward raster
// sweep; spans nearer than radius*2 become kNullArea.
//
// The reference runs four passes over the spans (mark boundaries, sweep forward, sweep backward,
// threshold). Here the boundary test is folded into the forward sweep (the forward sweep only reads
// spans visited before the current one, whose values are final by then) and the threshold into
// the backward sweep (a span's value is final once the backward sweep has visited it), so the
// spans are walked twice. A span that is not a boundary has all four links, which lets the sweeps
// skip the link tests for the orthogonal neighbours.
#include "core/bake/erode.h"

#include <algorithm>
#include <string>

namespace nav {

namespace {

constexpr uint32_t kNc = static_cast<uint32_t>(kNotConnected);
inline uint32_t con_of(uint32_t con, unsigned dir) { return (con >> (dir * 6u)) & 0x3fu; }

}  // namespace

Status erode_walkable_area(int radius, const CompactHeightfield& chf, std::vector<uint8_t>& areas,
                           std::vector<uint8_t>& scratch, const CancelFlag* cancel) {
    if (radius < 0)
        return Status::bad_input("erode: walkable radius must be >= 0 cells, got " + std::to_string(radius));
    const int w = chf.width, h = chf.height;
    const size_t n = chf.spans.size();
    if (Status st = validate_compact_input(chf, areas.size(), "erode"); !st) return st;
    // Radius 0 erodes nothing (threshold 0). Distances saturate at 255, so a threshold above 255
    // could not tell more spans apart than 255 does: larger radii erode as radius 127.5 would.
    const int thr = std::min(radius * 2, 255);
    if (thr == 0 || n == 0) return Status::ok();

    scratch.resize(n);
    uint8_t* dist = scratch.data();
    uint8_t* area = areas.data();
    const CompactSpan* spans = chf.spans.data();
    const CompactCell* cells = chf.cells.data();

    // Forward sweep: boundary test, then the (-1,0), (0,-1) neighbours (+2) and the (-1,-1),
    // (+1,-1) diagonals (+3), the diagonals reached through the orthogonal neighbour as Recast does.
    for (int z = 0; z < h; ++z) {
        if (is_cancelled(cancel)) return Status::cancelled();
        const size_t row = static_cast<size_t>(z) * static_cast<size_t>(w);
        for (int x = 0; x < w; ++x) {
            const size_t ci = row + static_cast<size_t>(x);
            const CompactCell c = cells[ci];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                const uint32_t con = spans[i].con;
                const uint32_t c0 = con_of(con, 0), c1 = con_of(con, 1), c2 = con_of(con, 2), c3 = con_of(con, 3);
                if (area[i] == kNullArea || c0 == kNc || c1 == kNc || c2 == kNc || c3 == kNc) {
                    dist[i] = 0;
                    continue;
                }
                const uint32_t a0 = cells[ci - 1].index + c0;
                const uint32_t a1 = cells[ci + static_cast<size_t>(w)].index + c1;
                const uint32_t a2 = cells[ci + 1].index + c2;
                const uint32_t a3 = cells[ci - static_cast<size_t>(w)].index + c3;
                if (area[a0] == kNullArea || area[a1] == kNullArea || area[a2] == kNullArea ||
                    area[a3] == kNullArea) {
                    dist[i] = 0;
                    continue;
                }
                int d = std::min(static_cast<int>(dist[a0]), static_cast<int>(dist[a3])) + 2;
                const uint32_t d0 = con_of(spans[a0].con, 3);  // (-1,0) then -z: (-1,-1)
                if (d0 != kNc) d = std::min(d, dist[cells[ci - 1 - static_cast<size_t>(w)].index + d0] + 3);
                const uint32_t d3 = con_of(spans[a3].con, 2);  // (0,-1) then +x: (+1,-1)
                if (d3 != kNc) d = std::min(d, dist[cells[ci + 1 - static_cast<size_t>(w)].index + d3] + 3);
                dist[i] = static_cast<uint8_t>(std::min(d, 255));
            }
        }
    }

    // Backward sweep: the (+1,0), (0,+1) neighbours and the (+1,+1), (-1,+1) diagonals, then the
    // threshold. A span with a non-zero value is not a boundary, so it has all four links.
    for (int z = h - 1; z >= 0; --z) {
        if (is_cancelled(cancel)) return Status::cancelled();
        const size_t row = static_cast<size_t>(z) * static_cast<size_t>(w);
        for (int x = w - 1; x >= 0; --x) {
            const size_t ci = row + static_cast<size_t>(x);
            const CompactCell c = cells[ci];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                int d = dist[i];
                if (d > 2) {  // +2 and +3 steps cannot lower a value of 2 or less
                    const uint32_t con = spans[i].con;
                    const uint32_t a2 = cells[ci + 1].index + con_of(con, 2);
                    const uint32_t a1 = cells[ci + static_cast<size_t>(w)].index + con_of(con, 1);
                    d = std::min(d, std::min(static_cast<int>(dist[a2]), static_cast<int>(dist[a1])) + 2);
                    const uint32_t d2 = con_of(spans[a2].con, 1);  // (+1,0) then +z: (+1,+1)
                    if (d2 != kNc) d = std::min(d, dist[cells[ci + 1 + static_cast<size_t>(w)].index + d2] + 3);
                    const uint32_t d1 = con_of(spans[a1].con, 0);  // (0,+1) then -x: (-1,+1)
                    if (d1 != kNc) d = std::min(d, dist[cells[ci - 1 + static_cast<size_t>(w)].index + d1] + 3);
                    dist[i] = static_cast<uint8_t>(d);
                }
                if (d < thr) area[i] = kNullArea;
            }
        }
    }
    return Status::ok();
}

}  // namespace nav
