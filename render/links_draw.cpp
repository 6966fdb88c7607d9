#include "render/links_draw.h"

#include <algorithm>
#include <cmath>

namespace nav::render {

namespace {

// Two short wings at `tip`, pointing back along `dir` (not normalized), in the plane of `dir` and
// `side` (not normalized).
void arrowhead(DrawList& out, const float* tip, const float* dir, const float* side, uint32_t color) {
    const float dl = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    const float sl = std::sqrt(side[0] * side[0] + side[1] * side[1] + side[2] * side[2]);
    if (!(dl > 1e-6f) || !(sl > 1e-6f)) return;
    for (int s = -1; s <= 1; s += 2) {
        float w[3];
        for (int k = 0; k < 3; ++k) w[k] = tip[k] - 0.3f * dir[k] / dl + 0.15f * static_cast<float>(s) * side[k] / sl;
        out.add_line(tip, w, color);
    }
}

// The parabola from s to e rising `apex` above the chord at its middle, in kSegs segments, with the
// directions at its two ends (pointing out of the arc: first_dir back at s, last_dir on at e).
template <int kSegs>
void arc(DrawList& lines, const float* s, const float* e, float apex, uint32_t c, float* first_dir, float* last_dir) {
    const float hx = e[0] - s[0], hz = e[2] - s[2];
    float prev[3] = {s[0], s[1], s[2]};
    for (int k = 1; k <= kSegs; ++k) {
        const float t = static_cast<float>(k) / kSegs;
        const float p[3] = {s[0] + hx * t, s[1] + (e[1] - s[1]) * t + 4 * apex * t * (1 - t), s[2] + hz * t};
        if (k == 1)
            for (int j = 0; j < 3; ++j) first_dir[j] = prev[j] - p[j];
        if (k == kSegs)
            for (int j = 0; j < 3; ++j) last_dir[j] = p[j] - prev[j];
        lines.add_line(prev, p, c);
        std::copy(p, p + 3, prev);
    }
}

}  // namespace

void build_manual_links(std::span<const OffMeshLink> links, int selected, DrawList& lines, DrawList& points) {
    for (size_t i = 0; i < links.size(); ++i) {
        const OffMeshLink& l = links[i];
        const uint32_t c = static_cast<int>(i) == selected ? colors::kLinkManualSelected : colors::kLinkManual;
        const float hx = l.end[0] - l.start[0], hz = l.end[2] - l.start[2];
        const float hd = std::sqrt(hx * hx + hz * hz);
        float first_dir[3], last_dir[3];
        arc<16>(lines, l.start, l.end, 0.3f + 0.25f * hd, c, first_dir, last_dir);
        // wings across the link (horizontal); a link straight up or down: along x
        const float side[3] = {hd > 1e-4f ? -hz : 1.0f, 0, hd > 1e-4f ? hx : 0.0f};
        arrowhead(lines, l.end, last_dir, side, c);
        if (l.bidir) arrowhead(lines, l.start, first_dir, side, c);
        points.add_point(l.start, c);
        points.add_point(l.end, c);
    }
}

void build_links_layer(const AutoLinks& links, DrawList& lines, DrawList& points, bool with_rejected) {
    constexpr int kSegs = 12;
    for (size_t i = 0; i < links.links.size(); ++i) {
        const OffMeshLink& l = links.links[i];
        const bool jump = i < links.link_is_jump.size() && links.link_is_jump[i];
        const uint32_t c = jump ? colors::kLinkJump : colors::kLinkDrop;
        const float* s = l.start;
        const float* e = l.end;
        const float hx = e[0] - s[0], hz = e[2] - s[2];
        const float hd = std::sqrt(hx * hx + hz * hz);
        const float side[3] = {-hz, 0, hx};  // horizontal, across the link
        float first_dir[3], last_dir[3];
        if (jump) {  // the parabola auto_links checked: apex 0.25 * horizontal length above the chord
            const float apex = 0.25f * hd;
            float prev[3] = {s[0], s[1], s[2]};
            for (int k = 1; k <= kSegs; ++k) {
                const float t = static_cast<float>(k) / kSegs;
                const float p[3] = {s[0] + hx * t, s[1] + (e[1] - s[1]) * t + 4 * apex * t * (1 - t), s[2] + hz * t};
                if (k == 1)
                    for (int j = 0; j < 3; ++j) first_dir[j] = prev[j] - p[j];
                if (k == kSegs)
                    for (int j = 0; j < 3; ++j) last_dir[j] = p[j] - prev[j];
                lines.add_line(prev, p, c);
                std::copy(p, p + 3, prev);
            }
        } else {  // out at the start's height, then down
            const float corner[3] = {e[0], s[1], e[2]};
            lines.add_line(s, corner, c);
            lines.add_line(corner, e, c);
            for (int j = 0; j < 3; ++j) first_dir[j] = s[j] - corner[j], last_dir[j] = e[j] - corner[j];
        }
        // A drop's last leg is vertical: its wings spread along the link's horizontal direction.
        const float along[3] = {hx, 0, hz};
        arrowhead(lines, e, last_dir, jump ? side : along, c);
        if (l.bidir) arrowhead(lines, s, first_dir, side, c);
    }
    if (!with_rejected) return;
    for (const RejectedLink& r : links.rejected) {
        lines.add_line(r.start, r.end, colors::kLinkRejected);
        uint32_t c = colors::kLinkTooFar;
        if (r.reason == LinkReject::ArcBlocked) c = colors::kLinkBlocked;
        else if (r.reason == LinkReject::LandingNotWalkable) c = colors::kLinkNotWalkable;
        points.add_point(r.point, c);
    }
}

}  // namespace nav::render
