#include "render/replay_draw.h"

#include <algorithm>

#include "render/layers.h"

namespace nav::render {

void build_region_replay(const CompactHeightfield& chf, const RegionTrace& t, int step, DrawList& out,
                         DrawList& points) {
    out.clear();
    points.clear();
    out.shade = Shade::CellGrid;
    out.grid_origin[0] = chf.bmin[0];
    out.grid_origin[1] = chf.bmin[1];
    out.grid_origin[2] = chf.bmin[2];
    out.grid_cell = chf.cs;
    out.line_width = 1.6f;
    points.point_size = 8.0f;
    if (t.pre_reg.size() != chf.span_count || t.span_step.size() != chf.span_count) return;
    step = std::clamp(step, 0, replay_step_count(t) - 1);
    const ReplayPhase phase = replay_phase(t, step);
    const auto removed = [&](uint16_t pre) {
        return !(pre & kBorderRegion) && pre < t.removed.size() && t.removed[pre] != 0;
    };
    const auto floor_color = [&](uint32_t i) {
        const uint16_t pre = t.pre_reg[i];
        switch (phase) {
            case ReplayPhase::Growth: {
                const uint32_t s = t.span_step[i];
                if (s == RegionTrace::kNotReached) return colors::kRegionNone;
                return s <= static_cast<uint32_t>(step) ? region_color(pre) : colors::kReplayPending;
            }
            case ReplayPhase::Filter:
                if (pre == 0) return colors::kRegionNone;
                return removed(pre) ? colors::kReplayRemoved : region_color(pre);
            case ReplayPhase::Merge: break;
        }
        return region_color(t.final_of(pre));
    };

    out.tri_verts.reserve(static_cast<size_t>(chf.span_count) * 4);
    out.tri_indices.reserve(static_cast<size_t>(chf.span_count) * 6);
    // the regions layer's height, so the replay sits where the layer it replaces would
    const float lift = floor_lift(chf, Layer::Regions);
    const uint16_t nseeds = t.pre_max_id();
    for (int z = 0; z < chf.height; ++z) {
        for (int x = 0; x < chf.width; ++x) {
            const CompactCell& cell = chf.cells[static_cast<size_t>(x + z * chf.width)];
            const float x0 = chf.bmin[0] + static_cast<float>(x) * chf.cs, z0 = chf.bmin[2] + static_cast<float>(z) * chf.cs;
            const float x1 = x0 + chf.cs, z1 = z0 + chf.cs;
            for (uint32_t i = cell.index, end = cell.index + cell.count; i < end; ++i) {
                const CompactSpan& s = chf.spans[i];
                const float y = chf.bmin[1] + static_cast<float>(s.y) * chf.ch + lift;
                out.add_floor_quad(x0, z0, x1, z1, y, floor_color(i));
                // outlines where the shown region changes, as the regions layer draws them; at
                // the filter step the dropped regions keep theirs, in red
                const auto outline_id = [&](uint32_t j) {
                    return phase == ReplayPhase::Filter ? t.pre_reg[j] : replay_region(t, step, j);
                };
                const uint16_t r = outline_id(i);
                const uint32_t edge = phase == ReplayPhase::Filter && removed(r) ? colors::kReplayRemovedEdge
                                                                                  : colors::kRegionEdge;
                for (int dir = 0; dir < 4 && r != 0; ++dir) {
                    uint16_t nr = 0;
                    if (get_con(s, dir) != kNotConnected) nr = outline_id(chf.neighbour(x, z, i, dir));
                    if (nr == r) continue;
                    switch (dir) {
                        case 0: out.add_line(x0, y, z0, x0, y, z1, edge); break;
                        case 1: out.add_line(x0, y, z1, x1, y, z1, edge); break;
                        case 2: out.add_line(x1, y, z0, x1, y, z1, edge); break;
                        default: out.add_line(x0, y, z0, x1, y, z0, edge); break;
                    }
                }
                // the region's seed, once seeded (and, after the filter, only if it survived)
                const uint16_t pre = t.pre_reg[i];
                if ((pre & kBorderRegion) || pre >= nseeds || t.seeds[pre].span != i) continue;
                const uint32_t seed_step = t.seeds[pre].step;
                uint32_t color = colors::kReplaySeed;
                if (phase == ReplayPhase::Growth) {
                    if (seed_step > static_cast<uint32_t>(step)) continue;
                    if (seed_step == static_cast<uint32_t>(step)) color = colors::kReplaySeedNow;
                } else if (removed(pre)) {
                    if (phase == ReplayPhase::Merge) continue;
                    color = colors::kReplaySeedRemoved;
                }
                const float p[3] = {(x0 + x1) * 0.5f, y + chf.ch, (z0 + z1) * 0.5f};
                points.add_point(p, color);
            }
        }
    }
}

}  // namespace nav::render
