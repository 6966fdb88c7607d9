// Stage 3: the compact (open) heightfield: the walkable tops of solid spans as open spans with
// floor y and clearance h, and 4 packed neighbour links (6 bits each; kNotConnected = none).
#pragma once
#include <cstdint>
#include <vector>

#include "core/common.h"
#include "core/bake/rasterize.h"

namespace nav {

struct CompactCell {
    uint32_t index = 0;  // first span of the cell in CompactHeightfield::spans
    uint32_t count = 0;  // number of spans in the cell
};

struct CompactSpan {
    uint16_t y = 0;    // floor (top of the solid span below), cell-height units
    uint8_t h = 0;     // clearance above the floor, clamped to 255
    uint8_t pad = 0;
    uint32_t con = 0;  // 4 x 6 bits: layer index of the neighbour in each direction
};

inline int get_con(const CompactSpan& s, int dir) { return static_cast<int>((s.con >> (dir * 6)) & 0x3f); }
inline void set_con(CompactSpan& s, int dir, int i) {
    const unsigned shift = static_cast<unsigned>(dir) * 6u;
    s.con = (s.con & ~(0x3fu << shift)) | ((static_cast<uint32_t>(i) & 0x3fu) << shift);
}

struct CompactHeightfield {
    int width = 0, height = 0;
    uint32_t span_count = 0;
    int walkable_height = 0, walkable_climb = 0;
    int border_size = 0;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
    float cs = 0.3f, ch = 0.2f;
    std::vector<CompactCell> cells;  // x + z * width
    std::vector<CompactSpan> spans;
    std::vector<uint8_t> areas;      // per span, from the filtered heightfield

    // Index of the neighbour span of span i (in cell x,z) in direction dir; requires a link.
    uint32_t neighbour(int x, int z, uint32_t i, int dir) const {
        const int nx = x + dir_offset_x(dir), nz = z + dir_offset_z(dir);
        return cells[static_cast<size_t>(nx + nz * width)].index + static_cast<uint32_t>(get_con(spans[i], dir));
    }
};

// Checks what a stage receives: the cell array matches the grid and a per-span array (areas)
// has one entry per compact span. `stage` prefixes the Internal error.
Status validate_compact_input(const CompactHeightfield& chf, size_t per_span_count, const char* stage);

// Builds the compact heightfield from the walkable spans of hf (spans with area != kNullArea).
// Two open spans link when their floors differ by at most walkable_climb and the gap between
// them is at least walkable_height. Fails (BadInput) when a column has more layers than a link
// can address. Polls cancel every few thousand cells (Status::cancelled, out then unusable).
Status build_compact_heightfield(int walkable_height, int walkable_climb, const Heightfield& hf,
                                 CompactHeightfield& out, const CancelFlag* cancel = nullptr);

}  // namespace nav
