#include "core/crowd/crowd.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <numbers>

#include "core/crowd/corridor.h"
#include "core/crowd/orca.h"

namespace nav {

namespace {

constexpr uint32_t kIndexBits = 17;
constexpr uint32_t kIndexMask = (1u << kIndexBits) - 1;
constexpr uint32_t kSaltMask15 = (1u << (32 - kIndexBits)) - 1;
static_assert(kMaxCrowdAgents <= static_cast<int>(kIndexMask));

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

bool finite3(const float* p) { return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]); }
// sqrt of the sum: std::hypot guards against overflow at several times the cost, and positions on
// a navmesh are far from overflowing a square.
inline float hyp(float x, float z) { return std::sqrt(x * x + z * z); }
float dist_xz(const float* a, const float* b) { return hyp(a[0] - b[0], a[2] - b[2]); }

std::string num(float v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", static_cast<double>(v));
    return b;
}

// How each avoidance quality looks ahead and how many neighbours it weighs.
struct Quality {
    int neighbours;
    float horizon;
};
constexpr Quality kQuality[4] = {{0, 0}, {4, 1.0f}, {6, 1.5f}, {kCrowdMaxNeighbours, 2.0f}};

// Avoidance plans with this much more room than the bodies take (see avoid).
constexpr float kAvoidMargin = 1.2f;
// A blocked agent sidesteps after this long (seconds), when no wall is within this distance (m).
constexpr float kSidestepAfter = 1.0f;
constexpr float kSidestepWallClearance = 3.0f;

// Whether a wall of the agent's lies within d (xz) of it.
bool wall_within(const Agent& a, float d) {
    for (int k = 0; k < a.nwalls; ++k) {
        const float* s = &a.walls[k * 6];
        const float ex = s[3] - s[0], ez = s[5] - s[2];
        const float l2 = ex * ex + ez * ez;
        const float t = l2 > 0 ? std::clamp(((a.pos[0] - s[0]) * ex + (a.pos[2] - s[2]) * ez) / l2, 0.0f, 1.0f) : 0.0f;
        if (hyp(s[0] + ex * t - a.pos[0], s[2] + ez * t - a.pos[2]) < d) return true;
    }
    return false;
}

// Who gives way: the priority (0 most important), and an agent that has arrived makes way for
// every agent still walking (it walks back to its goal after).
int rank(const Agent& a) { return a.params.priority + (a.state == AgentState::Arrived ? 100 : 0); }

// Neighbour search range: where another agent can matter within the horizon.
float query_range(const AgentParams& p) { return std::max(p.radius * 8.0f, p.radius + p.max_speed * 1.0f); }

}  // namespace

const char* agent_state_name(AgentState s) {
    switch (s) {
        case AgentState::Idle: return "idle";
        case AgentState::Walking: return "walking";
        case AgentState::WaitingPath: return "waiting_path";
        case AgentState::OnLink: return "on_link";
        case AgentState::Arrived: return "arrived";
        case AgentState::Lost: return "lost";
    }
    return "?";
}

const char* stuck_reason_name(StuckReason r) {
    switch (r) {
        case StuckReason::None: return "none";
        case StuckReason::BlockedByNeighbours: return "blocked_by_neighbours";
        case StuckReason::PinnedAgainstWall: return "pinned_against_wall";
        case StuckReason::CorridorLost: return "corridor_lost";
        case StuckReason::GoalUnreachable: return "goal_unreachable";
        case StuckReason::WaitingAtLink: return "waiting_at_link";
        case StuckReason::WaitingForPath: return "waiting_for_path";
        case StuckReason::Oscillating: return "oscillating";
        case StuckReason::NoProgress: return "no_progress";
    }
    return "?";
}

QueryFilter agent_filter(const AgentParams& p) {
    QueryFilter f;
    for (int i = 0; i < kMaxAreas; ++i) f.area_cost[i] = p.area_cost[i];
    f.include_flags = p.include_flags;
    f.exclude_flags = p.exclude_flags;
    f.agent_type = p.type;
    return f;
}

Status validate_agent_params(const AgentParams& p) {
    auto bad = [](const char* field, float v, const char* expected) {
        return Status::bad_input(std::string("agent: ") + field + " is " + num(v) + ", expected " + expected);
    };
    if (p.type < -1 || p.type >= 16) return bad("type", static_cast<float>(p.type), "-1 (any) or an agent type index 0..15");
    if (!std::isfinite(p.radius) || p.radius <= 0 || p.radius > 50) return bad("radius", p.radius, "a finite number in (0, 50] m");
    if (!std::isfinite(p.height) || p.height <= 0 || p.height > 100) return bad("height", p.height, "a finite number in (0, 100] m");
    if (!std::isfinite(p.max_speed) || p.max_speed < 0 || p.max_speed > 100)
        return bad("max_speed", p.max_speed, "a finite number in [0, 100] m/s");
    if (!std::isfinite(p.max_accel) || p.max_accel <= 0 || p.max_accel > 1000)
        return bad("max_accel", p.max_accel, "a finite number in (0, 1000] m/s^2");
    if (!std::isfinite(p.angular_speed) || p.angular_speed <= 0)
        return bad("angular_speed", p.angular_speed, "a finite number > 0 degrees/s");
    if (!std::isfinite(p.stopping_distance) || p.stopping_distance < 0)
        return bad("stopping_distance", p.stopping_distance, "a finite number >= 0 m");
    if (p.avoidance_quality < 0 || p.avoidance_quality > 3)
        return bad("avoidance_quality", static_cast<float>(p.avoidance_quality), "0 (none), 1, 2 or 3 (high)");
    if (p.priority < 0 || p.priority > 99) return bad("priority", static_cast<float>(p.priority), "0 (most important) .. 99");
    if (!std::isfinite(p.separation_weight) || p.separation_weight < 0)
        return bad("separation_weight", p.separation_weight, "a finite number >= 0");
    for (int i = 0; i < kMaxAreas; ++i)
        if (!std::isfinite(p.area_cost[i]) || p.area_cost[i] < 0)
            return bad(("area_cost[" + std::to_string(i) + "]").c_str(), p.area_cost[i], "a finite number >= 0");
    return Status::ok();
}

// Per worker: its own query object and scratch, so workers never share mutable state.
struct CrowdWorker {
    NavQuery query;
    StraightPath straight;
    SurfaceMove move;
    RaycastHit hit;
    std::vector<float> walls;
    PathResult path;
};

struct Crowd::Impl {
    std::vector<CrowdWorker> workers;
    std::deque<uint32_t> path_queue;     // agent indices, oldest first
    bool mesh_changed = false;
    // Neighbour grid: a dense grid over the agents' bounds, each cell a linked list of agent
    // indices in index order (no hashing, so no two cells share a list).
    float cell = 1, x0 = 0, z0 = 0;
    int nx = 1, nz = 1;
    std::vector<uint32_t> cell_head, next;
    int cx(float x) const { return std::clamp(static_cast<int>(std::floor((x - x0) / cell)), 0, nx - 1); }
    int cz(float z) const { return std::clamp(static_cast<int>(std::floor((z - z0) / cell)), 0, nz - 1); }
    std::vector<float> npos, disp;       // x z per agent: tentative positions, overlap pushes
    std::vector<uint32_t> order;         // active agent indices, ascending
};

// The phases, as free functions over the crowd's arrays (friend of Crowd).
struct CrowdPhases {
    Crowd& c;
    Crowd::Impl& im;
    const NavMesh& m;

    template <class Fn>
    void parallel(Fn&& fn) {
        const int n = static_cast<int>(im.order.size());
        const int w = static_cast<int>(im.workers.size());
        struct Ctx {
            Fn* fn;
            int n, w;
        } ctx{&fn, n, w};
        auto task = [](void* p, int k) {
            Ctx& x = *static_cast<Ctx*>(p);
            const int b = static_cast<int>(static_cast<int64_t>(x.n) * k / x.w);
            const int e = static_cast<int>(static_cast<int64_t>(x.n) * (k + 1) / x.w);
            for (int i = b; i < e; ++i) (*x.fn)(i, k);
        };
        const CrowdTaskHook& h = c.config_.task_hook;
        if (w > 1 && h.run != nullptr && n > 1)
            h.run(w, task, &ctx, h.user);
        else
            for (int k = 0; k < w; ++k) task(&ctx, k);
    }

    Agent& at(uint32_t i) { return c.agents_[i]; }
    AgentId id(uint32_t i) const { return c.id_at(static_cast<int>(i)); }

    void request_path(uint32_t i) {
        Agent& a = at(i);
        if (!a.has_target || a.path_pending) return;
        a.path_pending = true;
        if (a.state != AgentState::OnLink) a.state = AgentState::WaitingPath;
        im.path_queue.push_back(i);
    }

    // ---- 1. validate ---------------------------------------------------------------------
    // Whether the corridor still names live polygons joined as it says. Returns the length of
    // its valid prefix.
    size_t valid_prefix(const Agent& a) const {
        size_t k = 0;
        for (; k < a.polys.size(); ++k) {
            const uint32_t p = m.poly_index(a.polys[k]);
            if (p == kNoPoly) break;
            if (k > 0 && a.links[k] != kNoLink) {
                const uint32_t t = a.links[k];
                if (t >= 2u * static_cast<uint32_t>(m.nlinks) || m.trav_from_poly(t) != m.poly_index(a.polys[k - 1]) ||
                    m.trav_to_poly(t) != p)
                    break;
            }
        }
        return k;
    }

    void validate(uint32_t i, CrowdWorker& w, std::vector<uint8_t>& wants) {
        Agent& a = at(i);
        if (a.state == AgentState::OnLink || (a.state == AgentState::Lost && !im.mesh_changed)) return;
        const bool full = im.mesh_changed;
        const size_t check = full ? a.polys.size() : std::min<size_t>(a.polys.size(), 3);
        size_t k = 0;
        if (full) {
            k = valid_prefix(a);
        } else {
            for (; k < check; ++k)
                if (m.poly_index(a.polys[k]) == kNoPoly) break;
            if (k == check && !a.polys.empty() && m.poly_index(a.polys.back()) == kNoPoly) k = a.polys.size() - 1;
            else if (k == check) k = a.polys.size();
        }
        if (k == a.polys.size() && !a.polys.empty()) return;
        if (k == 0) {
            // The polygon under the agent is gone: find one near where it stands.
            const float ext[3] = {std::max(a.params.radius * 2, 0.5f), a.params.height, std::max(a.params.radius * 2, 0.5f)};
            NearestPoly np;
            const QueryFilter f = agent_filter(a.params);
            if (!w.query.find_nearest_poly(a.pos, ext, f, np) || np.poly == kNoRef) {
                a.state = AgentState::Lost;
                a.polys.clear(), a.links.clear();
                a.ncorners = 0;
                a.vel[0] = a.vel[1] = a.vel[2] = 0;
                return;
            }
            std::memcpy(a.pos, np.point, sizeof a.pos);
            corridor_reset(a, np.poly, a.pos);
            if (a.state == AgentState::Lost) a.state = AgentState::Idle;
        } else {
            a.polys.resize(k);
            a.links.resize(k);
            std::memcpy(a.target, a.pos, sizeof a.target);
            // Fails only on a stale reference, and polys.back() was just checked: target stays at pos then.
            (void)w.query.closest_point_on_poly_boundary(a.polys.back(), a.goal, a.target);
        }
        a.nwalls = 0;
        a.walls_center[0] = std::numeric_limits<float>::infinity();
        wants[i] = 1;
    }

    // ---- 2. paths --------------------------------------------------------------------------
    void plan(uint32_t i, CrowdWorker& w) {
        Agent& a = at(i);
        a.path_pending = false;
        if (!a.has_target || a.polys.empty() || a.state == AgentState::Lost) return;
        const QueryFilter f = agent_filter(a.params);
        const float ext[3] = {std::max(a.params.radius * 4, 2.0f), std::max(a.params.height, 4.0f), std::max(a.params.radius * 4, 2.0f)};
        NearestPoly goal;
        if (!w.query.find_nearest_poly(a.goal, ext, f, goal) || goal.poly == kNoRef) {
            // The goal left the navmesh (a re-bake): stay, and say the goal cannot be reached.
            a.goal_unreachable = true;
            corridor_reset(a, a.polys.front(), a.pos);
            std::memcpy(a.target, a.pos, sizeof a.target);
            a.state = AgentState::Arrived;
            return;
        }
        const OnLinkKeep keep{a.state == AgentState::OnLink};
        if (!w.query.find_path(a.polys.front(), goal.poly, a.pos, goal.point, f, w.path)) {
            a.state = keep.on_link ? AgentState::OnLink : AgentState::Arrived;
            return;
        }
        corridor_set(a, w.path, kCrowdMaxCorridor);
        if (w.path.reached && !a.corridor_truncated) {
            std::memcpy(a.target, goal.point, sizeof a.target);
            a.goal_unreachable = false;
        } else {
            // The nearest reachable point, or the end of a plan cut short (re-planned near its end).
            a.goal_unreachable = !w.path.out_of_nodes && !a.corridor_truncated && !w.path.reached;
            if (w.path.out_of_nodes) a.corridor_truncated = true;
            (void)w.query.closest_point_on_poly(a.polys.back(), a.goal, a.target);  // live polygon: cannot fail
        }
        a.ncorners = 0;
        a.state = keep.on_link ? AgentState::OnLink : AgentState::Walking;
    }
    struct OnLinkKeep {
        bool on_link;
    };

    // ---- 3. neighbours ---------------------------------------------------------------------
    void build_grid() {
        float range = 0.5f;
        float lo[2] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
        float hi[2] = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::lowest()};
        for (uint32_t i : im.order) {
            const Agent& a = at(i);
            range = std::max(range, query_range(a.params));
            lo[0] = std::min(lo[0], a.pos[0]), lo[1] = std::min(lo[1], a.pos[2]);
            hi[0] = std::max(hi[0], a.pos[0]), hi[1] = std::max(hi[1], a.pos[2]);
        }
        if (im.order.empty()) lo[0] = lo[1] = hi[0] = hi[1] = 0;
        // Cells half the largest query range; coarser when the agents are spread so far that the
        // grid would outgrow a few cells per agent.
        im.cell = range * 0.5f;
        const double budget = 4.0 * static_cast<double>(im.order.size()) + 4096;
        for (;;) {
            const double w = std::floor((hi[0] - lo[0]) / im.cell) + 1, h = std::floor((hi[1] - lo[1]) / im.cell) + 1;
            if (w * h <= budget) break;
            im.cell *= 2;
        }
        im.x0 = lo[0], im.z0 = lo[1];
        im.nx = static_cast<int>(std::floor((hi[0] - lo[0]) / im.cell)) + 1;
        im.nz = static_cast<int>(std::floor((hi[1] - lo[1]) / im.cell)) + 1;
        im.cell_head.assign(static_cast<size_t>(im.nx) * static_cast<size_t>(im.nz), kNoPoly);
        im.next.assign(c.agents_.size(), kNoPoly);
        // Reverse index order into the heads, so every list runs in ascending index order.
        for (auto it = im.order.rbegin(); it != im.order.rend(); ++it) {
            const Agent& a = at(*it);
            const size_t h = static_cast<size_t>(im.cz(a.pos[2])) * static_cast<size_t>(im.nx) + static_cast<size_t>(im.cx(a.pos[0]));
            im.next[*it] = im.cell_head[h];
            im.cell_head[h] = *it;
        }
    }

    // The nearest few within range, by (distance, index): exact, so the answer never depends on
    // the grid. Cells are visited ring by ring outward, and a ring wholly farther than the farthest
    // neighbour kept ends the search (in a packed crowd, after the first ring or two).
    void neighbours(uint32_t i) {
        Agent& a = at(i);
        a.nneighbours = 0;
        const float range = query_range(a.params);
        const float range_sq = range * range;
        const int maxn = std::max(kQuality[a.params.avoidance_quality].neighbours, 4);
        float dist[kCrowdMaxNeighbours];
        const int ax = im.cx(a.pos[0]), az = im.cz(a.pos[2]);
        const int rings = static_cast<int>(std::ceil(range / im.cell)) + 1;
        for (int r = 0; r <= rings; ++r) {
            // Every cell of ring r lies at least (r - 1) cells from the agent.
            const float ring_d = std::max(0, r - 1) * im.cell;
            if (ring_d * ring_d > range_sq || (a.nneighbours == maxn && ring_d * ring_d > dist[maxn - 1])) break;
            for (int gz = az - r; gz <= az + r; ++gz) {
                if (gz < 0 || gz >= im.nz) continue;
                const bool edge_row = gz == az - r || gz == az + r;
                for (int gx = ax - r; gx <= ax + r; gx += edge_row ? 1 : 2 * std::max(r, 1)) {
                    if (gx < 0 || gx >= im.nx) continue;
                    // The cell's nearest point to the agent.
                    const float cx0 = im.x0 + gx * im.cell, cz0 = im.z0 + gz * im.cell;
                    const float ex = std::max({0.0f, cx0 - a.pos[0], a.pos[0] - (cx0 + im.cell)});
                    const float ez = std::max({0.0f, cz0 - a.pos[2], a.pos[2] - (cz0 + im.cell)});
                    const float cd = ex * ex + ez * ez;
                    if (cd > range_sq || (a.nneighbours == maxn && cd > dist[maxn - 1])) continue;
                    for (uint32_t j = im.cell_head[static_cast<size_t>(gz) * static_cast<size_t>(im.nx) + static_cast<size_t>(gx)];
                         j != kNoPoly; j = im.next[j]) {
                        if (j == i) continue;
                        const Agent& b = at(j);
                        if (std::fabs(a.pos[1] - b.pos[1]) > std::max(a.params.height, b.params.height)) continue;  // another floor
                        const float dx = b.pos[0] - a.pos[0], dz = b.pos[2] - a.pos[2];
                        const float d = dx * dx + dz * dz;  // squared: the order is the same
                        if (d > range_sq) continue;
                        if (a.nneighbours == maxn && (d > dist[maxn - 1] || (d == dist[maxn - 1] && j > a.neighbours[maxn - 1]))) continue;
                        int k = a.nneighbours;
                        while (k > 0 && (dist[k - 1] > d || (dist[k - 1] == d && a.neighbours[k - 1] > j))) --k;
                        const int last = std::min(a.nneighbours, maxn - 1);
                        for (int q = last; q > k; --q) dist[q] = dist[q - 1], a.neighbours[q] = a.neighbours[q - 1];
                        dist[k] = d;
                        a.neighbours[k] = j;
                        a.nneighbours = std::min(a.nneighbours + 1, maxn);
                    }
                }
            }
        }
    }

    // ---- 4. steer --------------------------------------------------------------------------
    void steer(uint32_t i, CrowdWorker& w) {
        Agent& a = at(i);
        a.desired_vel[0] = a.desired_vel[1] = a.desired_vel[2] = 0;
        if (a.state == AgentState::Lost || a.state == AgentState::OnLink || a.polys.empty()) return;
        const QueryFilter f = agent_filter(a.params);
        // Walls: refreshed once the agent has moved a radius from where they were gathered.
        const float wall_range = a.params.radius * 4 + a.params.max_speed * 0.25f;
        if (!(dist_xz(a.pos, a.walls_center) < a.params.radius * 0.5f)) {
            a.nwalls = 0;
            if (w.query.find_local_walls(a.polys.front(), a.pos, wall_range, f, w.walls, kCrowdMaxWalls)) {
                a.nwalls = static_cast<int>(w.walls.size() / 6);
                std::copy(w.walls.begin(), w.walls.end(), a.walls);
            }
            std::memcpy(a.walls_center, a.pos, sizeof a.pos);
        }
        if (!a.has_target || a.state == AgentState::Idle) return;
        corridor_corners(a, w.query, w.straight);
        // A shortcut where the corridor bends: cut straight to the corner after next when nothing
        // walls it off.
        if (a.ncorners >= 2 && !(a.corner_flags[0] & kStraightOffMesh)) {
            if (corridor_shortcut(a, &a.corners[3], f, w.query, w.hit, a.params.radius * 30)) corridor_corners(a, w.query, w.straight);
        }
        if (a.ncorners == 0) return;
        // Near the end of a truncated plan, plan again from here.
        const bool at_end = (a.corner_flags[a.ncorners - 1] & kStraightEnd) != 0;
        if (at_end && a.ncorners == 1 && a.corridor_truncated && dist_xz(a.pos, a.target) < a.params.radius * 4) {
            a.corridor_truncated = false;
            want_plan = true;
        }
        // Remaining distance along the corners (to the end when it is among them).
        float rem = dist_xz(a.pos, a.corners);
        for (int k = 1; k < a.ncorners; ++k) rem += dist_xz(&a.corners[(k - 1) * 3], &a.corners[k * 3]);
        if (at_end) {
            const float stop = std::max(a.params.stopping_distance, 0.05f);
            if (rem <= stop) {
                if (a.state != AgentState::WaitingPath) a.state = AgentState::Arrived;
                std::memcpy(a.steer_target, a.target, sizeof a.target);
                return;
            }
            if (a.state == AgentState::Arrived && rem > stop + a.params.radius * 0.5f) a.state = AgentState::Walking;
            if (a.state == AgentState::Arrived) return;
        }
        // Toward the first corner, bending toward the second (Detour's anticipated turns).
        float dx = a.corners[0] - a.pos[0], dz = a.corners[2] - a.pos[2];
        if (a.ncorners >= 2) {
            const float l0 = hyp(dx, dz);
            float ex = a.corners[3] - a.pos[0], ez = a.corners[5] - a.pos[2];
            const float l1 = hyp(ex, ez);
            if (l1 > 1e-3f) ex /= l1, ez /= l1;
            dx -= ex * l0 * 0.5f;
            dz -= ez * l0 * 0.5f;
        }
        std::memcpy(a.steer_target, a.corners, sizeof(float) * 3);
        const float len = hyp(dx, dz);
        if (len < 1e-6f) return;
        float speed = a.params.max_speed;
        if (at_end && a.params.auto_braking) {
            // Brake at half the acceleration so the stop lands on the stopping distance.
            const float d = std::max(0.0f, rem - a.params.stopping_distance);
            speed = std::min(speed, std::sqrt(2.0f * a.params.max_accel * 0.5f * d) + 0.05f);
        }
        a.desired_vel[0] = dx / len * speed;
        a.desired_vel[2] = dz / len * speed;
        if (a.params.separation_weight > 0) separate(a);
    }
    bool want_plan = false;  // set by steer on one thread at a time (see steer_all)

    void separate(Agent& a) {
        float sx = 0, sz = 0;
        int n = 0;
        for (int k = 0; k < a.nneighbours; ++k) {
            const Agent& b = at(a.neighbours[k]);
            const float range = (a.params.radius + b.params.radius) * 2;
            const float dx = a.pos[0] - b.pos[0], dz = a.pos[2] - b.pos[2];
            const float d = hyp(dx, dz);
            if (d > range || d < 1e-4f) continue;
            const float wgt = a.params.separation_weight * (1 - (d / range) * (d / range));
            sx += dx / d * wgt, sz += dz / d * wgt;
            ++n;
        }
        if (n == 0) return;
        a.desired_vel[0] += sx / static_cast<float>(n);
        a.desired_vel[2] += sz / static_cast<float>(n);
        const float s = hyp(a.desired_vel[0], a.desired_vel[2]);
        if (s > a.params.max_speed) a.desired_vel[0] *= a.params.max_speed / s, a.desired_vel[2] *= a.params.max_speed / s;
    }

    // ---- 5. avoid --------------------------------------------------------------------------
    // Whether an agent wants to walk toward this one within 8 m ahead, in its lane (the grid, not the
    // neighbour list: in a dense group the nearest few are all of the agent's own group).
    bool oncoming_ahead(uint32_t i) const {
        const Agent& a = c.agents_[i];
        const float dl = hyp(a.desired_vel[0], a.desired_vel[2]);
        if (dl < 1e-3f) return false;
        const float fx = a.desired_vel[0] / dl, fz = a.desired_vel[2] / dl;
        constexpr float kLook = 8.0f;
        const int cx0 = im.cx(a.pos[0] + std::min(0.0f, fx * kLook)), cx1 = im.cx(a.pos[0] + std::max(0.0f, fx * kLook));
        const int cz0 = im.cz(a.pos[2] + std::min(0.0f, fz * kLook)), cz1 = im.cz(a.pos[2] + std::max(0.0f, fz * kLook));
        for (int cz = cz0; cz <= cz1; ++cz)
            for (int cx = cx0; cx <= cx1; ++cx)
                for (uint32_t j = im.cell_head[static_cast<size_t>(cz) * static_cast<size_t>(im.nx) + static_cast<size_t>(cx)]; j != kNoPoly;
                     j = im.next[j]) {
                    if (j == i) continue;
                    const Agent& b = c.agents_[j];
                    const float ax = b.pos[0] - a.pos[0], az = b.pos[2] - a.pos[2];
                    const float ahead = ax * fx + az * fz;
                    if (ahead <= 0 || ahead > kLook || std::fabs(a.pos[1] - b.pos[1]) > a.params.height) continue;
                    if (std::fabs(-ax * fz + az * fx) > (a.params.radius + b.params.radius) * 1.5f) continue;
                    // Its intent, not its motion: in a jam nobody moves, and that is when keeping
                    // right matters most.
                    if (b.desired_vel[0] * fx + b.desired_vel[2] * fz < -0.25f * b.params.max_speed) return true;
                }
        return false;
    }

    void avoid(uint32_t i) {
        Agent& a = at(i);
        std::memcpy(a.avoid_vel, a.desired_vel, sizeof a.desired_vel);
        if (a.state == AgentState::Lost || a.state == AgentState::OnLink) return;
        const Quality q = kQuality[a.params.avoidance_quality];
        if (q.neighbours == 0) return;
        orca::Line lines[orca::kMaxLines];
        int n = 0;
        const orca::Vec2 pos{a.pos[0], a.pos[2]};
        const float wall_h = std::max(c.config_.dt * 3, 0.1f);
        for (int k = 0; k < a.nwalls && n < kCrowdMaxWalls; ++k) {
            const float* s = &a.walls[k * 6];
            if (wall_line(pos, {s[0], s[2]}, {s[3], s[5]}, wall_h, &lines[n])) ++n;
        }
        const int hard = n;
        const orca::Vec2 vel{a.vel[0], a.vel[2]};
        for (int k = 0; k < a.nneighbours && k < q.neighbours; ++k) {
            const Agent& b = at(a.neighbours[k]);
            // The less important agent (the higher number) takes all of the avoidance.
            const float share = rank(a) == rank(b) ? 0.5f : rank(a) > rank(b) ? 1.0f : 0.0f;
            if (share == 0) continue;
            // Avoidance plans with 20% more room than the bodies take: when a crowd leaves no room
            // the linear program gives way a little, and that slack keeps the bodies apart.
            lines[n++] = orca::agent_line(pos, vel, a.params.radius * kAvoidMargin, {b.pos[0], b.pos[2]}, {b.vel[0], b.vel[2]},
                                          b.params.radius * kAvoidMargin, q.horizon, c.config_.dt, share);
        }
        // Keep right: with agents coming the other way ahead, the preference turns a little to
        // the right, so two streams meeting head-on settle into lanes instead of pressing into each
        // other. A slight, fixed turn per agent breaks the perfect symmetry in which reciprocal
        // avoidance can stall (two agents met exactly head-on).
        float ang = (static_cast<float>((i * 2654435761u) >> 24) / 255.0f - 0.5f) * 0.02f;
        const bool oncoming = oncoming_ahead(i);
        if (oncoming) ang += 0.35f;  // to the right: the preference turns from (fx, fz) toward (-fz, fx)
        // Blocked for a second by agents coming the other way, away from walls: sidestep to the
        // right (a queue behind agents walking the same way just waits its turn, and beside a wall
        // a sidestep only presses into it). Where agents press in from all sides
        // (the middle of a circle swap) every half-plane meets at one point on the line to the
        // goal, and a preference turned by less than the wedge's half-angle lands on that point:
        // a standstill. Turned well past it, all of them walk round the same way, a roundabout.
        const float want = hyp(a.desired_vel[0], a.desired_vel[2]);
        const float have = hyp(a.vel[0], a.vel[2]);
        a.blocked_time = want > 0.5f && have < want / 3 ? a.blocked_time + c.config_.dt : 0.0f;
        if (a.blocked_time > kSidestepAfter && oncoming && !wall_within(a, kSidestepWallClearance)) ang += 1.2f;
        const float ca = std::cos(ang), sa = std::sin(ang);
        const orca::Vec2 pref{a.desired_vel[0] * ca - a.desired_vel[2] * sa, a.desired_vel[0] * sa + a.desired_vel[2] * ca};
        const orca::Vec2 v = orca::solve(lines, n, hard, a.params.max_speed, pref);
        a.avoid_vel[0] = v.x;
        a.avoid_vel[2] = v.y;
    }

    // ---- 6. move ---------------------------------------------------------------------------
    void integrate(uint32_t i) {
        Agent& a = at(i);
        float* np = &im.npos[static_cast<size_t>(i) * 2];
        np[0] = a.pos[0], np[1] = a.pos[2];
        if (a.state == AgentState::Lost || a.state == AgentState::OnLink) return;
        const float dt = c.config_.dt;
        float dvx = a.avoid_vel[0] - a.vel[0], dvz = a.avoid_vel[2] - a.vel[2];
        const float dv = hyp(dvx, dvz), maxdv = a.params.max_accel * dt;
        if (dv > maxdv) dvx *= maxdv / dv, dvz *= maxdv / dv;
        a.vel[0] += dvx;
        a.vel[2] += dvz;
        a.vel[1] = 0;
        const float sp = hyp(a.vel[0], a.vel[2]);
        if (sp > 0.05f) {
            // The facing turns toward the velocity at the angular speed.
            const float want = std::atan2(a.vel[2], a.vel[0]);
            float d = want - a.facing;
            while (d > std::numbers::pi_v<float>) d -= 2 * std::numbers::pi_v<float>;
            while (d < -std::numbers::pi_v<float>) d += 2 * std::numbers::pi_v<float>;
            const float step = a.params.angular_speed * (std::numbers::pi_v<float> / 180.0f) * dt;
            a.facing += std::clamp(d, -step, step);
        }
        if (a.params.velocity_only) return;
        np[0] += a.vel[0] * dt;
        np[1] += a.vel[2] * dt;
    }

    // Overlaps pushed apart (one Jacobi step over the tentative positions).
    void push(uint32_t i) {
        Agent& a = at(i);
        float* d = &im.disp[static_cast<size_t>(i) * 2];
        d[0] = d[1] = 0;
        if (a.state == AgentState::Lost || a.state == AgentState::OnLink || a.params.velocity_only) return;
        const float* p = &im.npos[static_cast<size_t>(i) * 2];
        // The sum of the pushes, not their mean (DetourCrowd's): an agent pressed on one side by
        // several others gets out of all of them, and pushes from opposite sides cancel anyway.
        for (int k = 0; k < a.nneighbours; ++k) {
            const uint32_t j = a.neighbours[k];
            const Agent& b = at(j);
            if (b.state == AgentState::OnLink) continue;
            const float* q = &im.npos[static_cast<size_t>(j) * 2];
            float dx = p[0] - q[0], dz = p[1] - q[1];
            const float dist = hyp(dx, dz);
            const float rr = a.params.radius + b.params.radius;
            if (dist >= rr) continue;
            if (dist < 1e-4f) {
                // On top of each other: apart sideways to their motion, the lower index to the left.
                dx = i < j ? -a.vel[2] : a.vel[2];
                dz = i < j ? a.vel[0] : -a.vel[0];
                if (hyp(dx, dz) < 1e-4f) dx = i < j ? 1.0f : -1.0f, dz = 0;
            }
            const float l = std::max(hyp(dx, dz), 1e-4f);
            // The more important agent moves less.
            const float share = rank(a) == rank(b) ? 0.5f : rank(a) > rank(b) ? 0.8f : 0.2f;
            const float pen = (rr - dist) * share * 0.7f;
            d[0] += dx / l * pen;
            d[1] += dz / l * pen;
        }
    }

    void move(uint32_t i, CrowdWorker& w) {
        Agent& a = at(i);
        if (a.state == AgentState::Lost || a.state == AgentState::OnLink || a.params.velocity_only || a.polys.empty()) return;
        const float* np = &im.npos[static_cast<size_t>(i) * 2];
        if (np[0] == a.pos[0] && np[1] == a.pos[2]) return;
        const float to[3] = {np[0], a.pos[1], np[1]};
        move_on_surface(a, to, w);
    }

    void move_on_surface(Agent& a, const float* to, CrowdWorker& w) {
        const QueryFilter f = agent_filter(a.params);
        if (!w.query.move_along_surface(a.polys.front(), a.pos, to, f, w.move)) return;
        corridor_merge_start(a, w.move.visited);
        std::memcpy(a.pos, w.move.pos, sizeof a.pos);
    }

    // ---- 7. links --------------------------------------------------------------------------
    void links(uint32_t i) {
        Agent& a = at(i);
        if (a.state == AgentState::OnLink) {
            if (a.params.game_links) {
                a.link_time += c.config_.dt;
                return;
            }
            a.link_time += c.config_.dt;
            const float t = std::min(1.0f, a.link_duration > 0 ? a.link_time / a.link_duration : 1.0f);
            const float len = dist_xz(a.link_from, a.link_to);
            for (int k = 0; k < 3; ++k) a.pos[k] = a.link_from[k] + (a.link_to[k] - a.link_from[k]) * t;
            a.pos[1] += std::sin(t * std::numbers::pi_v<float>) * std::min(1.0f, 0.25f * len);
            if (t >= 1.0f) land(i);
            return;
        }
        if (a.state != AgentState::Walking || a.ncorners == 0 || !(a.corner_flags[0] & kStraightOffMesh)) return;
        if (a.polys.size() < 2 || a.links[1] == kNoLink) return;  // not yet in the link's polygon
        if (dist_xz(a.pos, a.corners) > std::max(a.params.radius, 0.25f)) return;
        const uint32_t t = a.links[1];
        a.link_trav = t;
        std::memcpy(a.link_from, a.pos, sizeof a.pos);
        std::memcpy(a.link_to, m.trav_to(t), sizeof a.link_to);
        a.link_time = 0;
        const float speed = std::max(a.params.max_speed * c.config_.link_speed_scale, 0.1f);
        a.link_duration = std::max(c.config_.dt, m.link_length[t >> 1] / speed);
        a.polys.erase(a.polys.begin());
        a.links.erase(a.links.begin());
        a.links[0] = kNoLink;
        a.state = AgentState::OnLink;
        a.vel[0] = a.vel[1] = a.vel[2] = 0;
        a.ncorners = 0;
        const LinkCallbacks& cb = c.config_.links;
        if (cb.begin) cb.begin(id(i), static_cast<int>(t >> 1), m.link_user_id[t >> 1], cb.user);
    }

    void land(uint32_t i) {
        Agent& a = at(i);
        std::memcpy(a.pos, a.link_to, sizeof a.pos);
        a.state = a.path_pending ? AgentState::WaitingPath : AgentState::Walking;
        a.walls_center[0] = std::numeric_limits<float>::infinity();
        const uint32_t t = a.link_trav;
        a.link_trav = kNoLink;
        const LinkCallbacks& cb = c.config_.links;
        if (cb.end) cb.end(id(i), static_cast<int>(t >> 1), m.link_user_id[t >> 1], cb.user);
    }

    // ---- 8. progress -----------------------------------------------------------------------
    void progress(uint32_t i) {
        Agent& a = at(i);
        const float dt = c.config_.dt;
        if (!a.has_target || a.state == AgentState::Idle || (a.state == AgentState::Arrived && !a.goal_unreachable)) {
            a.stuck = StuckReason::None;
            a.window_time = 0;
            a.flips = 0;
            a.best_remaining = std::numeric_limits<float>::infinity();
            return;
        }
        float rem = dist_xz(a.pos, a.goal);
        if (a.ncorners > 0) {
            rem = dist_xz(a.pos, a.corners);
            for (int k = 1; k < a.ncorners; ++k) rem += dist_xz(&a.corners[(k - 1) * 3], &a.corners[k * 3]);
            rem += dist_xz(&a.corners[(a.ncorners - 1) * 3], a.goal);
        }
        a.waiting_path_time = a.state == AgentState::WaitingPath ? a.waiting_path_time + dt : 0;
        const float dl = hyp(a.desired_vel[0], a.desired_vel[2]);
        if (dl > 1e-3f) {
            const float ux = a.desired_vel[0] / dl, uz = a.desired_vel[2] / dl;
            if (ux * a.last_desired[0] + uz * a.last_desired[1] < -0.2f) ++a.flips;
            a.last_desired[0] = ux, a.last_desired[1] = uz;
        }
        const bool moving_on = a.state == AgentState::OnLink && !a.params.game_links;
        if (rem < a.best_remaining - 0.1f || moving_on) {
            a.best_remaining = std::min(rem, a.best_remaining);
            if (moving_on) a.best_remaining = rem;
            a.window_time = 0;
            a.flips = 0;
            a.stuck = StuckReason::None;
            return;
        }
        a.window_time += dt;
        if (a.window_time < c.config_.stuck_seconds) return;
        a.stuck = classify(a);
    }

    StuckReason classify(Agent& a) {
        if (a.state == AgentState::Lost) return StuckReason::CorridorLost;
        if (a.state == AgentState::OnLink) return StuckReason::WaitingAtLink;
        if (a.goal_unreachable && a.state == AgentState::Arrived) return StuckReason::GoalUnreachable;
        if (a.state == AgentState::WaitingPath && a.waiting_path_time >= c.config_.stuck_seconds) return StuckReason::WaitingForPath;
        if (a.flips >= 3) return StuckReason::Oscillating;
        const float dl = hyp(a.desired_vel[0], a.desired_vel[2]);
        const float ux = dl > 1e-3f ? a.desired_vel[0] / dl : a.last_desired[0];
        const float uz = dl > 1e-3f ? a.desired_vel[2] / dl : a.last_desired[1];
        a.stuck_by_count = 0;
        for (int k = 0; k < a.nneighbours && a.stuck_by_count < 4; ++k) {
            const Agent& b = at(a.neighbours[k]);
            const float dx = b.pos[0] - a.pos[0], dz = b.pos[2] - a.pos[2];
            const float d = hyp(dx, dz);
            if (d > a.params.radius + b.params.radius + 0.3f || d < 1e-4f) continue;
            if ((dx * ux + dz * uz) / d > 0.3f) a.stuck_by[a.stuck_by_count++] = a.neighbours[k];
        }
        if (a.stuck_by_count > 0) return StuckReason::BlockedByNeighbours;
        for (int k = 0; k < a.nwalls; ++k) {
            const float* s = &a.walls[k * 6];
            const float ex = s[3] - s[0], ez = s[5] - s[2];
            const float l2 = ex * ex + ez * ez;
            const float t = l2 > 0 ? std::clamp(((a.pos[0] - s[0]) * ex + (a.pos[2] - s[2]) * ez) / l2, 0.0f, 1.0f) : 0.0f;
            const float cx = s[0] + ex * t, cz = s[2] + ez * t;
            const float d = hyp(cx - a.pos[0], cz - a.pos[2]);
            if (d > 0.1f + a.params.radius * 0.25f) continue;
            if (d < 1e-4f || ((cx - a.pos[0]) * ux + (cz - a.pos[2]) * uz) / d > 0.3f) {
                a.stuck_at[0] = cx, a.stuck_at[1] = s[1] + (s[4] - s[1]) * t, a.stuck_at[2] = cz;
                return StuckReason::PinnedAgainstWall;
            }
        }
        return StuckReason::NoProgress;
    }

    // ---- the tick ----------------------------------------------------------------------------
    Status run() {
        CrowdStats& st = c.stats_;
        st = CrowdStats{.tick = st.tick + 1};
        const auto t_all = Clock::now();
        im.order.clear();
        for (size_t i = 0; i < c.agents_.size(); ++i)
            if (c.agents_[i].active) im.order.push_back(static_cast<uint32_t>(i));
        im.npos.resize(c.agents_.size() * 2);
        im.disp.resize(c.agents_.size() * 2);

        auto t0 = Clock::now();
        std::vector<uint8_t> wants(c.agents_.size(), 0);
        parallel([&](int k, int wk) { validate(im.order[static_cast<size_t>(k)], im.workers[static_cast<size_t>(wk)], wants); });
        for (uint32_t i : im.order)
            if (wants[i]) {
                request_path(i);
                ++st.replans;
            }
        im.mesh_changed = false;
        st.validate_ms = ms_since(t0);

        t0 = Clock::now();
        int budget = c.config_.path_budget;
        while (budget > 0 && !im.path_queue.empty()) {
            const uint32_t i = im.path_queue.front();
            im.path_queue.pop_front();
            if (!at(i).active || !at(i).path_pending) continue;
            plan(i, im.workers[0]);
            --budget;
            ++st.path_searches;
        }
        st.path_queue = static_cast<int>(im.path_queue.size());
        st.paths_ms = ms_since(t0);

        t0 = Clock::now();
        build_grid();
        parallel([&](int k, int) { neighbours(im.order[static_cast<size_t>(k)]); });
        st.neighbours_ms = ms_since(t0);

        t0 = Clock::now();
        std::fill(wants.begin(), wants.end(), 0);
        parallel([&](int k, int wk) {
            const uint32_t i = im.order[static_cast<size_t>(k)];
            CrowdPhases local{c, im, m};
            local.steer(i, im.workers[static_cast<size_t>(wk)]);
            if (local.want_plan) wants[i] = 1;
        });
        for (uint32_t i : im.order)
            if (wants[i]) request_path(i);
        st.steer_ms = ms_since(t0);

        t0 = Clock::now();
        parallel([&](int k, int) { avoid(im.order[static_cast<size_t>(k)]); });
        st.avoid_ms = ms_since(t0);

        t0 = Clock::now();
        parallel([&](int k, int) { integrate(im.order[static_cast<size_t>(k)]); });
        for (int iter = 0; iter < 4; ++iter) {
            parallel([&](int k, int) { push(im.order[static_cast<size_t>(k)]); });
            for (uint32_t i : im.order) {
                im.npos[i * 2] += im.disp[i * 2];
                im.npos[i * 2 + 1] += im.disp[i * 2 + 1];
            }
        }
        parallel([&](int k, int wk) { move(im.order[static_cast<size_t>(k)], im.workers[static_cast<size_t>(wk)]); });
        st.move_ms = ms_since(t0);

        t0 = Clock::now();
        for (uint32_t i : im.order) links(i);
        st.links_ms = ms_since(t0);

        t0 = Clock::now();
        parallel([&](int k, int) { progress(im.order[static_cast<size_t>(k)]); });
        st.progress_ms = ms_since(t0);
        st.total_ms = ms_since(t_all);
        return Status::ok();
    }
};

// ---------------------------------------------------------------------------------------------

Crowd::Crowd() : impl_(new Impl) {}
Crowd::~Crowd() { delete impl_; }

AgentId Crowd::id_at(int i) const {
    if (i < 0 || i >= capacity() || !agents_[static_cast<size_t>(i)].active) return kNoAgent;
    return AgentId{(agents_[static_cast<size_t>(i)].salt & kSaltMask15) << kIndexBits | static_cast<uint32_t>(i)};
}

const Agent* Crowd::agent(AgentId id) const {
    const uint32_t i = id.bits & kIndexMask;
    if (id == kNoAgent || i >= agents_.size()) return nullptr;
    const Agent& a = agents_[i];
    if (!a.active || (a.salt & kSaltMask15) != id.bits >> kIndexBits) return nullptr;
    return &a;
}

namespace {
Status stale(const char* what, AgentId id) {
    return Status::bad_input(std::string(what) + ": agent id " + std::to_string(id.bits) + " names no agent (removed, or never added)");
}
}  // namespace

Status Crowd::init(const NavMesh* mesh, const CrowdConfig& config) {
    if (!mesh) return Status::bad_input("crowd: no navmesh");
    if (config.max_agents < 1 || config.max_agents > kMaxCrowdAgents)
        return Status::bad_input("crowd: max_agents is " + std::to_string(config.max_agents) + ", expected 1.." +
                                 std::to_string(kMaxCrowdAgents));
    if (!std::isfinite(config.dt) || config.dt <= 0 || config.dt > 0.25f)
        return Status::bad_input("crowd: dt is " + num(config.dt) + ", expected a time step in (0, 0.25] s");
    if (config.path_budget < 1) return Status::bad_input("crowd: path_budget is " + std::to_string(config.path_budget) + ", expected >= 1");
    if (config.path_max_nodes < 0) return Status::bad_input("crowd: path_max_nodes must be >= 0");
    if (!std::isfinite(config.stuck_seconds) || config.stuck_seconds <= 0)
        return Status::bad_input("crowd: stuck_seconds is " + num(config.stuck_seconds) + ", expected > 0");
    if (!std::isfinite(config.link_speed_scale) || config.link_speed_scale <= 0)
        return Status::bad_input("crowd: link_speed_scale must be > 0");
    if (config.task_hook.workers < 1 || config.task_hook.workers > 256)
        return Status::bad_input("crowd: task_hook.workers is " + std::to_string(config.task_hook.workers) + ", expected 1..256");
    mesh_ = mesh;
    config_ = config;
    agents_.clear();
    agents_.resize(static_cast<size_t>(config.max_agents));
    active_ = 0;
    stats_ = CrowdStats{};
    impl_->workers = std::vector<CrowdWorker>(static_cast<size_t>(config.task_hook.workers));
    for (CrowdWorker& w : impl_->workers) w.query.init(mesh, config.path_max_nodes);
    impl_->path_queue.clear();
    impl_->mesh_changed = false;
    return Status::ok();
}

void Crowd::set_navmesh(const NavMesh* mesh, bool refs_carried) {
    if (!mesh) return;
    mesh_ = mesh;
    for (CrowdWorker& w : impl_->workers) w.query.init(mesh, config_.path_max_nodes);
    impl_->mesh_changed = true;
    if (!refs_carried)
        for (Agent& a : agents_)
            if (a.active && a.state != AgentState::OnLink) a.polys.assign(1, kNoRef), a.links.assign(1, kNoLink);
}

Status Crowd::add_agent(const float* pos, const AgentParams& params, AgentId* out) {
    if (out) *out = kNoAgent;
    if (!mesh_) return Status::bad_input("crowd: add_agent before init");
    if (!pos || !finite3(pos)) return Status::bad_input("crowd: add_agent: position is not finite");
    if (Status s = validate_agent_params(params); !s) return s;
    size_t slot = agents_.size();
    for (size_t i = 0; i < agents_.size(); ++i)
        if (!agents_[i].active) {
            slot = i;
            break;
        }
    if (slot == agents_.size())
        return Status::bad_input("crowd: add_agent: the crowd is full (max_agents " + std::to_string(config_.max_agents) + ")");
    const float ext[3] = {std::max(params.radius * 2, 0.5f), params.height, std::max(params.radius * 2, 0.5f)};
    NearestPoly np;
    const QueryFilter f = agent_filter(params);
    if (Status s = impl_->workers[0].query.find_nearest_poly(pos, ext, f, np); !s) return s;
    if (np.poly == kNoRef)
        return Status::bad_input("crowd: add_agent: no navmesh for this agent (type " + std::to_string(params.type) + ") within " +
                                 num(ext[0]) + " m across and " + num(ext[1]) + " m up or down of (" + num(pos[0]) + ", " +
                                 num(pos[1]) + ", " + num(pos[2]) + ")");
    Agent& a = agents_[slot];
    const uint32_t salt = a.salt + 1;
    a = Agent{};
    a.salt = salt;
    a.active = true;
    a.params = params;
    a.polys.reserve(64);
    a.links.reserve(64);
    std::memcpy(a.pos, np.point, sizeof a.pos);
    corridor_reset(a, np.poly, a.pos);
    a.walls_center[0] = std::numeric_limits<float>::infinity();
    a.best_remaining = std::numeric_limits<float>::infinity();
    ++active_;
    if (out) *out = id_at(static_cast<int>(slot));
    return Status::ok();
}

Status Crowd::remove_agent(AgentId id) {
    if (!agent(id)) return stale("remove_agent", id);
    Agent& a = agents_[id.bits & kIndexMask];
    a.active = false;
    a.path_pending = false;
    --active_;
    return Status::ok();
}

Status Crowd::set_params(AgentId id, const AgentParams& params) {
    if (!agent(id)) return stale("set_params", id);
    if (Status s = validate_agent_params(params); !s) return s;
    Agent& a = agents_[id.bits & kIndexMask];
    const bool replan = params.type != a.params.type || params.include_flags != a.params.include_flags ||
                        params.exclude_flags != a.params.exclude_flags ||
                        std::memcmp(params.area_cost, a.params.area_cost, sizeof params.area_cost) != 0;
    a.params = params;
    a.walls_center[0] = std::numeric_limits<float>::infinity();
    if (replan && a.has_target) {
        CrowdPhases ph{*this, *impl_, *mesh_};
        ph.request_path(id.bits & kIndexMask);
    }
    return Status::ok();
}

Status Crowd::set_destination(AgentId id, const float* pos) {
    if (!agent(id)) return stale("set_destination", id);
    if (!pos || !finite3(pos)) return Status::bad_input("crowd: set_destination: the destination is not finite");
    const uint32_t i = id.bits & kIndexMask;
    Agent& a = agents_[i];
    if (a.state == AgentState::Lost) return Status::bad_input("crowd: set_destination: the agent is lost (no navmesh under it): warp it first");
    CrowdWorker& w = impl_->workers[0];
    const QueryFilter f = agent_filter(a.params);
    const float ext[3] = {std::max(a.params.radius * 4, 2.0f), std::max(a.params.height, 4.0f), std::max(a.params.radius * 4, 2.0f)};
    NearestPoly np;
    if (Status s = w.query.find_nearest_poly(pos, ext, f, np); !s) return s;
    if (np.poly == kNoRef)
        return Status::bad_input("crowd: set_destination: no navmesh for this agent within " + num(ext[0]) + " m of (" + num(pos[0]) +
                                 ", " + num(pos[1]) + ", " + num(pos[2]) + ")");
    std::memcpy(a.goal, np.point, sizeof a.goal);
    CrowdPhases ph{*this, *impl_, *mesh_};
    // Re-targeting: the new goal in the corridor's last polygon, or a short walk from the old one.
    const bool walking = a.has_target && !a.path_pending && !a.goal_unreachable && !a.corridor_truncated && !a.polys.empty() &&
                         (a.state == AgentState::Walking || a.state == AgentState::Arrived || a.state == AgentState::OnLink);
    if (walking && np.poly == a.polys.back()) {
        std::memcpy(a.target, np.point, sizeof a.target);
        if (a.state == AgentState::Arrived) a.state = AgentState::Walking;
        return Status::ok();
    }
    if (walking && dist_xz(a.target, np.point) < a.params.radius * 4) {
        if (w.query.move_along_surface(a.polys.back(), a.target, np.point, f, w.move) && dist_xz(w.move.pos, np.point) < 1e-3f) {
            corridor_merge_end(a, w.move.visited);
            std::memcpy(a.target, np.point, sizeof a.target);
            if (a.state == AgentState::Arrived) a.state = AgentState::Walking;
            return Status::ok();
        }
    }
    a.has_target = true;
    a.goal_unreachable = false;
    a.corridor_truncated = false;
    if (a.state == AgentState::Idle || a.state == AgentState::Arrived) std::memcpy(a.target, a.pos, sizeof a.target);
    ph.request_path(i);
    return Status::ok();
}

Status Crowd::clear_destination(AgentId id) {
    if (!agent(id)) return stale("clear_destination", id);
    Agent& a = agents_[id.bits & kIndexMask];
    a.has_target = false;
    a.path_pending = false;
    a.goal_unreachable = false;
    if (!a.polys.empty()) corridor_reset(a, a.polys.front(), a.pos);
    if (a.state != AgentState::OnLink && a.state != AgentState::Lost) a.state = AgentState::Idle;
    a.ncorners = 0;
    return Status::ok();
}

Status Crowd::warp(AgentId id, const float* pos) {
    if (!agent(id)) return stale("warp", id);
    if (!pos || !finite3(pos)) return Status::bad_input("crowd: warp: the position is not finite");
    const uint32_t i = id.bits & kIndexMask;
    Agent& a = agents_[i];
    const float ext[3] = {std::max(a.params.radius * 2, 0.5f), a.params.height, std::max(a.params.radius * 2, 0.5f)};
    NearestPoly np;
    if (Status s = impl_->workers[0].query.find_nearest_poly(pos, ext, agent_filter(a.params), np); !s) return s;
    if (np.poly == kNoRef)
        return Status::bad_input("crowd: warp: no navmesh for this agent within " + num(ext[0]) + " m of (" + num(pos[0]) + ", " +
                                 num(pos[1]) + ", " + num(pos[2]) + ")");
    std::memcpy(a.pos, np.point, sizeof a.pos);
    a.vel[0] = a.vel[1] = a.vel[2] = 0;
    corridor_reset(a, np.poly, a.pos);
    a.link_trav = kNoLink;
    a.walls_center[0] = std::numeric_limits<float>::infinity();
    a.best_remaining = std::numeric_limits<float>::infinity();
    a.state = AgentState::Idle;
    a.path_pending = false;
    a.ncorners = 0;
    if (a.has_target) {
        CrowdPhases ph{*this, *impl_, *mesh_};
        ph.request_path(i);
    }
    return Status::ok();
}

Status Crowd::report_position(AgentId id, const float* pos) {
    if (!agent(id)) return stale("report_position", id);
    if (!pos || !finite3(pos)) return Status::bad_input("crowd: report_position: the position is not finite");
    Agent& a = agents_[id.bits & kIndexMask];
    if (a.polys.empty() || a.state == AgentState::OnLink) return Status::ok();
    CrowdPhases ph{*this, *impl_, *mesh_};
    ph.move_on_surface(a, pos, impl_->workers[0]);
    return Status::ok();
}

Status Crowd::finish_link(AgentId id) {
    if (!agent(id)) return stale("finish_link", id);
    const uint32_t i = id.bits & kIndexMask;
    if (agents_[i].state != AgentState::OnLink) return Status::bad_input("crowd: finish_link: the agent is not on a link");
    CrowdPhases ph{*this, *impl_, *mesh_};
    ph.land(i);
    return Status::ok();
}

Status Crowd::update() {
    if (!mesh_) return Status::bad_input("crowd: update before init");
    CrowdPhases ph{*this, *impl_, *mesh_};
    return ph.run();
}

}  // namespace nav
