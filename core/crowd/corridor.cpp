#include "core/crowd/corridor.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace nav {

void corridor_reset(Agent& a, PolyRef poly, const float* pos) {
    a.polys.assign(1, poly);
    a.links.assign(1, kNoLink);
    std::memcpy(a.target, pos, sizeof a.target);
    a.corridor_truncated = false;
    a.ncorners = 0;
}

void corridor_set(Agent& a, const PathResult& path, int max_polys) {
    const size_t n = std::min(path.polys.size(), static_cast<size_t>(max_polys));
    a.polys.assign(path.polys.begin(), path.polys.begin() + static_cast<std::ptrdiff_t>(n));
    if (path.links.size() == path.polys.size())
        a.links.assign(path.links.begin(), path.links.begin() + static_cast<std::ptrdiff_t>(n));
    else
        a.links.assign(n, kNoLink);
    a.corridor_truncated = n < path.polys.size();
}

void corridor_merge_start(Agent& a, std::span<const PolyRef> visited) {
    if (visited.empty()) return;
    // The furthest corridor polygon the walk reached, and where in the walk.
    int fp = -1, fv = -1;
    for (int i = static_cast<int>(a.polys.size()) - 1; i >= 0 && fp < 0; --i)
        for (int j = static_cast<int>(visited.size()) - 1; j >= 0; --j)
            if (a.polys[static_cast<size_t>(i)] == visited[static_cast<size_t>(j)]) {
                fp = i, fv = j;
                break;
            }
    if (fp < 0) return;  // the walk never touched the corridor: keep it (cannot happen from its start)
    // New start: the walk from its end back to visited[fv], then the corridor after fp.
    const size_t req = visited.size() - static_cast<size_t>(fv);
    const size_t keep_from = static_cast<size_t>(fp) + 1;
    const size_t rest = a.polys.size() - keep_from;
    std::vector<PolyRef>& p = a.polys;
    std::vector<uint32_t>& l = a.links;
    if (req != keep_from) {
        // Shift the rest into place (the vectors only grow by what the walk added).
        if (req > keep_from) {
            p.resize(req + rest);
            l.resize(req + rest);
            std::move_backward(p.begin() + static_cast<std::ptrdiff_t>(keep_from), p.begin() + static_cast<std::ptrdiff_t>(keep_from + rest),
                               p.end());
            std::move_backward(l.begin() + static_cast<std::ptrdiff_t>(keep_from), l.begin() + static_cast<std::ptrdiff_t>(keep_from + rest),
                               l.end());
        } else {
            std::move(p.begin() + static_cast<std::ptrdiff_t>(keep_from), p.end(), p.begin() + static_cast<std::ptrdiff_t>(req));
            std::move(l.begin() + static_cast<std::ptrdiff_t>(keep_from), l.end(), l.begin() + static_cast<std::ptrdiff_t>(req));
            p.resize(req + rest);
            l.resize(req + rest);
        }
    }
    for (size_t k = 0; k < req; ++k) {
        p[k] = visited[visited.size() - 1 - k];
        l[k] = kNoLink;  // walked through portals
    }
}

void corridor_merge_end(Agent& a, std::span<const PolyRef> visited) {
    if (visited.empty()) return;
    int fp = -1, fv = -1;
    for (int i = static_cast<int>(a.polys.size()) - 1; i >= 0 && fp < 0; --i)
        for (int j = 0; j < static_cast<int>(visited.size()); ++j)
            if (a.polys[static_cast<size_t>(i)] == visited[static_cast<size_t>(j)]) {
                fp = i, fv = j;
                break;
            }
    if (fp < 0) return;
    a.polys.resize(static_cast<size_t>(fp) + 1);
    a.links.resize(static_cast<size_t>(fp) + 1);
    for (size_t j = static_cast<size_t>(fv) + 1; j < visited.size() && a.polys.size() < static_cast<size_t>(kCrowdMaxCorridor); ++j) {
        a.polys.push_back(visited[j]);
        a.links.push_back(kNoLink);
    }
}

void corridor_corners(Agent& a, NavQuery& query, StraightPath& sp) {
    a.ncorners = 0;
    if (a.polys.empty()) return;
    StraightPathOptions opt;
    opt.max_points = kCrowdMaxCorners + 2;  // the start, a corner the agent stands on, then kCrowdMaxCorners
    if (!query.find_straight_path(a.pos, a.target, a.polys, a.links, opt, sp)) return;
    for (int k = 1; k < sp.size() && a.ncorners < kCrowdMaxCorners; ++k) {
        const float* c = &sp.points[static_cast<size_t>(k) * 3];
        const uint8_t fl = sp.flags[static_cast<size_t>(k)];
        const bool last = k + 1 == sp.size();
        if (!(fl & (kStraightOffMesh | kStraightEnd)) && !last && std::hypot(c[0] - a.pos[0], c[2] - a.pos[2]) < 0.01f) continue;
        std::memcpy(&a.corners[a.ncorners * 3], c, sizeof(float) * 3);
        a.corner_flags[a.ncorners] = fl;
        ++a.ncorners;
    }
}

bool corridor_shortcut(Agent& a, const float* toward, const QueryFilter& filter, NavQuery& query, RaycastHit& hit, float range) {
    if (a.polys.size() < 3) return false;
    float goal[3] = {toward[0], toward[1], toward[2]};
    const float dx = goal[0] - a.pos[0], dz = goal[2] - a.pos[2];
    const float d = std::hypot(dx, dz);
    if (d < 0.01f) return false;
    if (d > range) goal[0] = a.pos[0] + dx / d * range, goal[2] = a.pos[2] + dz / d * range;
    if (!query.raycast(a.polys.front(), a.pos, goal, filter, hit)) return false;
    if (hit.hit || hit.polys.size() < 2) return false;
    // The furthest corridor polygon the ray reached.
    int fp = -1, fv = -1;
    for (int i = static_cast<int>(a.polys.size()) - 1; i >= 0 && fp < 0; --i)
        for (int j = static_cast<int>(hit.polys.size()) - 1; j >= 0; --j)
            if (a.polys[static_cast<size_t>(i)] == hit.polys[static_cast<size_t>(j)]) {
                fp = i, fv = j;
                break;
            }
    if (fp <= 0 || fv + 1 >= fp + 1) return false;  // no shorter
    for (int k = 1; k <= fp; ++k)
        if (a.links[static_cast<size_t>(k)] != kNoLink) return false;  // never cut across a link
    // corridor = ray polys [0, fv] + corridor (fp, end)
    const size_t req = static_cast<size_t>(fv) + 1, from = static_cast<size_t>(fp) + 1;
    std::move(a.polys.begin() + static_cast<std::ptrdiff_t>(from), a.polys.end(), a.polys.begin() + static_cast<std::ptrdiff_t>(req));
    std::move(a.links.begin() + static_cast<std::ptrdiff_t>(from), a.links.end(), a.links.begin() + static_cast<std::ptrdiff_t>(req));
    const size_t n = a.polys.size() - (from - req);
    a.polys.resize(n);
    a.links.resize(n);
    for (size_t k = 0; k < req; ++k) {
        a.polys[k] = hit.polys[k];
        a.links[k] = kNoLink;
    }
    return true;
}

}  // namespace nav
