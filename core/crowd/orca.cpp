#include "core/crowd/orca.h"

#include <algorithm>
#include <cmath>

namespace nav::orca {
namespace {

constexpr float kEps = 1e-5f;

inline Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
inline Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
inline Vec2 operator*(Vec2 a, float s) { return {a.x * s, a.y * s}; }
inline float dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
inline float det(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
inline float len_sq(Vec2 a) { return dot(a, a); }
inline Vec2 normalize(Vec2 a) {
    const float l = std::sqrt(len_sq(a));
    return l > 0 ? a * (1.0f / l) : Vec2{};
}

// The best point on line `i` under lines [0, i) and the speed circle.
bool lp1(const Line* lines, int i, float radius, Vec2 opt, bool direction_opt, Vec2& result) {
    const float dp = dot(lines[i].point, lines[i].direction);
    const float disc = dp * dp + radius * radius - len_sq(lines[i].point);
    if (disc < 0) return false;  // the speed circle misses the line
    const float sq = std::sqrt(disc);
    float t_left = -dp - sq, t_right = -dp + sq;
    for (int j = 0; j < i; ++j) {
        const float den = det(lines[i].direction, lines[j].direction);
        const float num = det(lines[j].direction, lines[i].point - lines[j].point);
        if (std::fabs(den) <= kEps) {
            if (num < 0) return false;  // parallel and on the wrong side
            continue;
        }
        const float t = num / den;
        if (den >= 0)
            t_right = std::min(t_right, t);
        else
            t_left = std::max(t_left, t);
        if (t_left > t_right) return false;
    }
    if (direction_opt) {
        result = lines[i].point + lines[i].direction * (dot(opt, lines[i].direction) > 0 ? t_right : t_left);
    } else {
        const float t = std::clamp(dot(lines[i].direction, opt - lines[i].point), t_left, t_right);
        result = lines[i].point + lines[i].direction * t;
    }
    return true;
}

// Incremental LP: returns the count of lines satisfied (count when all are).
int lp2(const Line* lines, int count, float radius, Vec2 opt, bool direction_opt, Vec2& result) {
    if (direction_opt)
        result = opt * radius;
    else if (len_sq(opt) > radius * radius)
        result = normalize(opt) * radius;
    else
        result = opt;
    for (int i = 0; i < count; ++i) {
        if (det(lines[i].direction, lines[i].point - result) > 0) {
            const Vec2 keep = result;
            if (!lp1(lines, i, radius, opt, direction_opt, result)) {
                result = keep;
                return i;
            }
        }
    }
    return count;
}

// Infeasible: minimise the largest violation of lines [begin, count), keeping [0, hard).
void lp3(const Line* lines, int count, int hard, int begin, float radius, Vec2& result) {
    float distance = 0;
    Line proj[kMaxLines];
    for (int i = begin; i < count; ++i) {
        if (det(lines[i].direction, lines[i].point - result) <= distance) continue;
        int n = 0;
        for (int j = 0; j < hard; ++j) proj[n++] = lines[j];
        for (int j = hard; j < i; ++j) {
            Line l;
            const float d = det(lines[i].direction, lines[j].direction);
            if (std::fabs(d) <= kEps) {
                if (dot(lines[i].direction, lines[j].direction) > 0) continue;  // same direction
                l.point = (lines[i].point + lines[j].point) * 0.5f;
            } else {
                l.point = lines[i].point + lines[i].direction * (det(lines[j].direction, lines[i].point - lines[j].point) / d);
            }
            l.direction = normalize(lines[j].direction - lines[i].direction);
            proj[n++] = l;
        }
        const Vec2 keep = result;
        if (lp2(proj, n, radius, Vec2{-lines[i].direction.y, lines[i].direction.x}, true, result) < n) result = keep;
        distance = det(lines[i].direction, lines[i].point - result);
    }
}

}  // namespace

Line agent_line(Vec2 pos, Vec2 vel, float r, Vec2 npos, Vec2 nvel, float nr, float horizon, float dt, float share) {
    const Vec2 rel_pos = npos - pos;
    const Vec2 rel_vel = vel - nvel;
    const float dist_sq = len_sq(rel_pos);
    const float rr = r + nr;
    const float rr_sq = rr * rr;
    Line line;
    Vec2 u;
    if (dist_sq > rr_sq) {
        const float inv_h = 1.0f / horizon;
        const Vec2 w = rel_vel - rel_pos * inv_h;  // from the cut-off circle's centre
        const float w_sq = len_sq(w);
        const float dp1 = dot(w, rel_pos);
        if (dp1 < 0 && dp1 * dp1 > rr_sq * w_sq) {
            // Closest to the cut-off circle.
            const float wl = std::sqrt(w_sq);
            const Vec2 unit_w = wl > 0 ? w * (1.0f / wl) : Vec2{1, 0};
            line.direction = {unit_w.y, -unit_w.x};
            u = unit_w * (rr * inv_h - wl);
        } else {
            // Closest to a leg of the cone.
            const float leg = std::sqrt(dist_sq - rr_sq);
            if (det(rel_pos, w) > 0)
                line.direction = Vec2{rel_pos.x * leg - rel_pos.y * rr, rel_pos.x * rr + rel_pos.y * leg} * (1.0f / dist_sq);
            else
                line.direction = Vec2{rel_pos.x * leg + rel_pos.y * rr, -rel_pos.x * rr + rel_pos.y * leg} * (-1.0f / dist_sq);
            u = line.direction * dot(rel_vel, line.direction) - rel_vel;
        }
    } else {
        // Already overlapping: get apart within one step.
        const float inv_dt = 1.0f / dt;
        const Vec2 w = rel_vel - rel_pos * inv_dt;
        const float wl = std::sqrt(len_sq(w));
        const Vec2 unit_w = wl > 0 ? w * (1.0f / wl) : Vec2{1, 0};
        line.direction = {unit_w.y, -unit_w.x};
        u = unit_w * (rr * inv_dt - wl);
    }
    line.point = vel + u * share;
    return line;
}

bool wall_line(Vec2 pos, Vec2 a, Vec2 b, float horizon, Line* out) {
    const Vec2 ab = b - a;
    const float l2 = len_sq(ab);
    const float t = l2 > 0 ? std::clamp(dot(pos - a, ab) / l2, 0.0f, 1.0f) : 0.0f;
    const Vec2 c = a + ab * t;
    const Vec2 away = pos - c;
    const float d = std::sqrt(len_sq(away));
    if (d < kEps) {
        // On the wall: the normal of the segment toward the walkable side would be needed; the
        // surface move keeps the agent on the mesh, so no constraint rather than a guessed one.
        return false;
    }
    const Vec2 n = away * (1.0f / d);
    // v . n >= -d / horizon: the centre reaches the wall no sooner than `horizon`.
    out->direction = {n.y, -n.x};
    out->point = n * (-d / horizon);
    return true;
}

Vec2 solve(const Line* lines, int count, int hard, float max_speed, Vec2 preferred) {
    Vec2 result;
    const int ok = lp2(lines, count, max_speed, preferred, false, result);
    if (ok < count) lp3(lines, count, hard, std::max(ok, hard), max_speed, result);
    return result;
}

}  // namespace nav::orca
