// Temporary obstacles stamped onto the walkable spans (see obstacles.h).
#include "core/bake/obstacles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nav {

namespace {

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

void obstacle_to_local(const Obstacle& o, float x, float z, float* lx, float* lz) {
    const float dx = x - o.pos[0], dz = z - o.pos[2];
    if (o.shape != ObstacleShape::RotatedBox || o.yaw == 0.0f) {
        *lx = dx;
        *lz = dz;
        return;
    }
    // Counter-clockwise seen from +y turns +x toward -z: undo it.
    const float c = std::cos(o.yaw), s = std::sin(o.yaw);
    *lx = c * dx - s * dz;
    *lz = s * dx + c * dz;
}

void obstacle_to_world(const Obstacle& o, float lx, float lz, float* x, float* z) {
    if (o.shape != ObstacleShape::RotatedBox || o.yaw == 0.0f) {
        *x = o.pos[0] + lx;
        *z = o.pos[2] + lz;
        return;
    }
    const float c = std::cos(o.yaw), s = std::sin(o.yaw);
    *x = o.pos[0] + c * lx + s * lz;
    *z = o.pos[2] - s * lx + c * lz;
}

bool Obstacle::operator==(const Obstacle& o) const {
    return shape == o.shape && pos[0] == o.pos[0] && pos[1] == o.pos[1] && pos[2] == o.pos[2] && radius == o.radius &&
           height == o.height && half[0] == o.half[0] && half[1] == o.half[1] && half[2] == o.half[2] && yaw == o.yaw;
}

std::string_view obstacle_shape_name(ObstacleShape s) {
    switch (s) {
        case ObstacleShape::Cylinder: return "cylinder";
        case ObstacleShape::Box: return "box";
        case ObstacleShape::RotatedBox: return "rotated_box";
    }
    return "?";
}

bool obstacle_shape_from_name(std::string_view name, ObstacleShape& out) {
    for (ObstacleShape s : {ObstacleShape::Cylinder, ObstacleShape::Box, ObstacleShape::RotatedBox}) {
        if (obstacle_shape_name(s) == name) {
            out = s;
            return true;
        }
    }
    return false;
}

void obstacle_bounds(const Obstacle& o, float grow, float* box4, float* y0, float* y1) {
    float ex = 0, ez = 0;
    switch (o.shape) {
        case ObstacleShape::Cylinder:
            ex = ez = o.radius;
            *y0 = o.pos[1];
            *y1 = o.pos[1] + o.height;
            break;
        case ObstacleShape::Box:
            ex = o.half[0];
            ez = o.half[2];
            *y0 = o.pos[1] - o.half[1];
            *y1 = o.pos[1] + o.half[1];
            break;
        case ObstacleShape::RotatedBox: {
            const float c = std::fabs(std::cos(o.yaw)), s = std::fabs(std::sin(o.yaw));
            ex = c * o.half[0] + s * o.half[2];
            ez = s * o.half[0] + c * o.half[2];
            *y0 = o.pos[1] - o.half[1];
            *y1 = o.pos[1] + o.half[1];
            break;
        }
    }
    box4[0] = o.pos[0] - ex - grow;
    box4[1] = o.pos[2] - ez - grow;
    box4[2] = o.pos[0] + ex + grow;
    box4[3] = o.pos[2] + ez + grow;
}

bool obstacle_contains_xz(const Obstacle& o, float grow, float x, float z) {
    if (o.shape == ObstacleShape::Cylinder) {
        const float dx = x - o.pos[0], dz = z - o.pos[2], r = o.radius + grow;
        return dx * dx + dz * dz <= r * r;
    }
    float lx, lz;
    obstacle_to_local(o, x, z, &lx, &lz);
    const float dx = std::max(std::fabs(lx) - o.half[0], 0.0f), dz = std::max(std::fabs(lz) - o.half[2], 0.0f);
    return dx * dx + dz * dz <= grow * grow;
}

namespace {

// Calls fn(i) for every span i of chf inside o grown by `grow` (mark_obstacle's test) for which
// keep(i) holds; returns how many.
template <class Keep, class Fn>
int64_t for_obstacle_spans(const CompactHeightfield& chf, const Obstacle& o, float grow, float climb, Keep keep, Fn fn) {
    if (!(chf.cs > 0.0f) || !(chf.ch > 0.0f)) return 0;
    if (chf.cells.size() != static_cast<size_t>(chf.width) * static_cast<size_t>(chf.height)) return 0;
    float box[4], y0, y1;
    obstacle_bounds(o, grow, box, &y0, &y1);
    y0 -= climb;
    // Cells whose centre may lie inside: centre (i + 0.5) * cs within [box0, box2].
    const double lx = std::ceil((box[0] - chf.bmin[0]) / chf.cs - 0.5), hx = std::floor((box[2] - chf.bmin[0]) / chf.cs - 0.5);
    const double lz = std::ceil((box[1] - chf.bmin[2]) / chf.cs - 0.5), hz = std::floor((box[3] - chf.bmin[2]) / chf.cs - 0.5);
    if (!(hx >= 0) || !(hz >= 0) || !(lx < chf.width) || !(lz < chf.height) || lx > hx || lz > hz) return 0;
    const int x0 = static_cast<int>(std::max(lx, 0.0)), x1 = static_cast<int>(std::min(hx, chf.width - 1.0));
    const int z0 = static_cast<int>(std::max(lz, 0.0)), z1 = static_cast<int>(std::min(hz, chf.height - 1.0));
    int64_t marked = 0;
    for (int z = z0; z <= z1; ++z) {
        const float pz = chf.bmin[2] + (static_cast<float>(z) + 0.5f) * chf.cs;
        for (int x = x0; x <= x1; ++x) {
            const float px = chf.bmin[0] + (static_cast<float>(x) + 0.5f) * chf.cs;
            const CompactCell c = chf.cells[static_cast<size_t>(x) + static_cast<size_t>(z) * static_cast<size_t>(chf.width)];
            if (c.count == 0 || !obstacle_contains_xz(o, grow, px, pz)) continue;
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                if (!keep(i)) continue;
                const float fy = chf.bmin[1] + static_cast<float>(chf.spans[i].y) * chf.ch;
                if (fy < y0 || fy > y1) continue;
                fn(i);
                ++marked;
            }
        }
    }
    return marked;
}

}  // namespace

int64_t mark_obstacle(const CompactHeightfield& chf, const Obstacle& o, float grow, float climb,
                      std::vector<uint8_t>& areas) {
    if (areas.size() != chf.spans.size()) return 0;
    return for_obstacle_spans(
        chf, o, grow, climb, [&](uint32_t i) { return areas[i] != kNullArea; }, [&](uint32_t i) { areas[i] = kNullArea; });
}

int64_t clear_obstacle_types(const CompactHeightfield& chf, const Obstacle& o, float grow, float climb, uint16_t bits,
                             std::vector<uint16_t>& types) {
    if (types.size() != chf.spans.size()) return 0;
    return for_obstacle_spans(
        chf, o, grow, climb, [&](uint32_t i) { return (types[i] & bits) != 0; },
        [&](uint32_t i) { types[i] = static_cast<uint16_t>(types[i] & ~bits); });
}

Status validate_obstacle(const Obstacle& o, const std::string& what) {
    for (int k = 0; k < 3; ++k)
        if (!std::isfinite(o.pos[k])) return Status::bad_input(what + ": pos is not finite");
    switch (o.shape) {
        case ObstacleShape::Cylinder:
            if (!(o.radius > 0.0f) || !std::isfinite(o.radius))
                return Status::bad_input(what + ": radius " + fmt(o.radius) + " must be a finite number > 0");
            if (!(o.height > 0.0f) || !std::isfinite(o.height))
                return Status::bad_input(what + ": height " + fmt(o.height) + " must be a finite number > 0");
            break;
        case ObstacleShape::Box:
        case ObstacleShape::RotatedBox:
            for (int k = 0; k < 3; ++k)
                if (!(o.half[k] > 0.0f) || !std::isfinite(o.half[k]))
                    return Status::bad_input(what + ": half[" + std::to_string(k) + "] " + fmt(o.half[k]) +
                                             " must be a finite number > 0");
            if (!std::isfinite(o.yaw)) return Status::bad_input(what + ": yaw is not finite");
            break;
    }
    return Status::ok();
}

}  // namespace nav
