// Hand-made compact heightfields drawn as ASCII maps, for the unit tests of the stages that work
// on the compact heightfield (erode, areas, distance).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/bake/compact.h"

namespace navtest {

// One floor of a hand-made compact heightfield: a map with one string per z row and one char
// per x: '.' no span, '#' ground (63), 'w' water (1), 'x' null area; all its spans sit at floor y.
struct Layer {
    int y;
    std::vector<std::string> map;
};

inline uint8_t area_of(char c) { return c == '#' ? nav::kWalkableArea : c == 'w' ? nav::kAreaWater : nav::kNullArea; }
inline char char_of(uint8_t a) { return a == nav::kWalkableArea ? '#' : a == nav::kAreaWater ? 'w' : a == nav::kNullArea ? 'x' : '?'; }

// Builds the compact heightfield of the layers (all maps the same size). A cell's spans are in
// layer order; two spans of the same layer in adjacent cells are linked, nothing else is.
inline nav::CompactHeightfield make_chf(const std::vector<Layer>& layers) {
    nav::CompactHeightfield chf;
    chf.height = static_cast<int>(layers[0].map.size());
    chf.width = static_cast<int>(layers[0].map[0].size());
    const int w = chf.width, h = chf.height, nl = static_cast<int>(layers.size());
    chf.cells.resize(static_cast<size_t>(w * h));
    std::vector<int> slot(static_cast<size_t>(w * h * nl), -1);  // layer index within the cell, or -1
    for (int z = 0; z < h; ++z) {
        for (int x = 0; x < w; ++x) {
            nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * w)];
            c.index = static_cast<uint32_t>(chf.spans.size());
            for (int l = 0; l < nl; ++l) {
                const char ch = layers[static_cast<size_t>(l)].map[static_cast<size_t>(z)][static_cast<size_t>(x)];
                if (ch == '.') continue;
                slot[static_cast<size_t>((x + z * w) * nl + l)] = static_cast<int>(c.count);
                nav::CompactSpan s;
                s.y = static_cast<uint16_t>(layers[static_cast<size_t>(l)].y);
                s.h = 255;
                s.con = 0xffffff;
                chf.spans.push_back(s);
                chf.areas.push_back(area_of(ch));
                ++c.count;
            }
        }
    }
    for (int z = 0; z < h; ++z)
        for (int x = 0; x < w; ++x)
            for (int l = 0; l < nl; ++l) {
                const int k = slot[static_cast<size_t>((x + z * w) * nl + l)];
                if (k < 0) continue;
                nav::CompactSpan& s = chf.spans[chf.cells[static_cast<size_t>(x + z * w)].index + static_cast<uint32_t>(k)];
                for (int dir = 0; dir < 4; ++dir) {
                    const int nx = x + nav::dir_offset_x(dir), nz = z + nav::dir_offset_z(dir);
                    if (nx < 0 || nz < 0 || nx >= w || nz >= h) continue;
                    const int nk = slot[static_cast<size_t>((nx + nz * w) * nl + l)];
                    if (nk >= 0) nav::set_con(s, dir, nk);
                }
            }
    chf.span_count = static_cast<uint32_t>(chf.spans.size());
    return chf;
}

// The areas of one layer drawn like the input maps.
inline std::vector<std::string> draw(const nav::CompactHeightfield& chf, const std::vector<uint8_t>& areas, int y) {
    std::vector<std::string> rows(static_cast<size_t>(chf.height), std::string(static_cast<size_t>(chf.width), '.'));
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < chf.width; ++x) {
            const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            for (uint32_t i = c.index; i < c.index + c.count; ++i)
                if (chf.spans[i].y == y) rows[static_cast<size_t>(z)][static_cast<size_t>(x)] = char_of(areas[i]);
        }
    return rows;
}

}  // namespace navtest
