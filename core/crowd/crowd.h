// Agents and the crowd (navkit::crowd, <navkit/crowd.h>): what walks the navmesh. Each agent has
// an agent type (core/runtime/query.h QueryFilter::agent_type), a path corridor that follows it,
// and steering; the crowd advances every agent by a fixed time step.
//
// One tick, in order (Crowd::stats times each phase):
//   1. validate   corridors checked against the mesh: a stale polygon (its tile rebuilt), a link
//                 that is gone or a target polygon that vanished asks for a new path; an agent
//                 whose own polygon vanished is found again near where it stood (or lost).
//   2. paths      the path queue: at most CrowdConfig::path_budget A* searches per tick, oldest
//                 request first, so a thousand agents asking at once spread over ticks. A goal
//                 no path reaches sends the agent to the reachable point nearest it, and says so
//                 (Agent::goal_unreachable).
//   3. neighbours a uniform grid over the agents; each keeps its nearest few within its range.
//   4. steer      walls near the agent (find_local_walls), the corridor's next corners (the
//                 funnel, a few corners deep), a visibility shortcut (raycast) when the corridor
//                 bends, the desired velocity toward the next corner with braking that stops at the
//                 stopping distance, separation.
//   5. avoid      ORCA (core/crowd/orca.h): neighbours and walls as half-planes, priorities as the
//                 share of the avoidance each takes.
//   6. move       acceleration and turn limits, then overlaps pushed apart, then the move along
//                 the surface from the corridor's first polygon (NavQuery::move_along_surface):
//                 an agent can never leave the navmesh, whatever avoidance asked for.
//   7. links      an agent at an off-mesh link takes it: the begin callback, a timed arc (or
//                 the game's own animation, ended by Crowd::finish_link), the end callback.
//   8. progress   an agent that has not come closer to its goal for CrowdConfig::stuck_seconds
//                 is flagged stuck, with its reason (StuckReason).
// Phases 3 to 6 and 8 run per agent over the task hook (CrowdConfig::task_hook); every agent
// reads the others' state of the previous phase only, so the result is bit-identical whatever
// the number of threads.
//
// Agents are named by AgentId (index + salt): removing an agent makes its id stale, and a stale
// id is refused by every call (BadInput), never taken for the agent that reuses the slot.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/common.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"

namespace nav {

constexpr int kMaxCrowdAgents = 100000;
constexpr int kCrowdMaxNeighbours = 10;
constexpr int kCrowdMaxWalls = 16;
constexpr int kCrowdMaxCorners = 4;
constexpr int kCrowdMaxCorridor = 1024;

struct AgentId {
    uint32_t bits = 0xffffffffu;
    friend bool operator==(AgentId a, AgentId b) { return a.bits == b.bits; }
    friend bool operator!=(AgentId a, AgentId b) { return a.bits != b.bits; }
};
constexpr AgentId kNoAgent{};

// What an agent is (Unity's NavMeshAgent fields). Crowd::add_agent checks every field.
struct AgentParams {
    int type = -1;                  // agent type (index into the bake's agent_types; -1: any polygon)
    float radius = 0.6f;            // metres, > 0
    float height = 2.0f;            // metres, > 0 (drawing and the overlap test's vertical reach)
    float max_speed = 3.5f;         // m/s, >= 0
    float max_accel = 8.0f;         // m/s^2, > 0
    float angular_speed = 360.0f;   // degrees/s the facing turns at (> 0); the velocity turns no faster
    float stopping_distance = 0.0f; // stop this far from the goal (>= 0)
    bool auto_braking = true;       // slow down to stop at the goal (off: arrive at full speed)
    int avoidance_quality = 3;      // 0 none (overlaps resolved only), 1 low, 2 medium, 3 high
    int priority = 50;              // 0 most important .. 99 least: the less important gives way
    float separation_weight = 0.0f; // >= 0: push away from neighbours beyond avoidance
    bool velocity_only = false;     // the crowd computes the velocity; the game moves the agent
                                    // and reports where it is (Crowd::report_position)
    bool game_links = false;        // off-mesh links: the game animates and calls finish_link
    float area_cost[kMaxAreas];     // per area traversal cost (QueryFilter)
    uint16_t include_flags = 0xffff, exclude_flags = kPolyFlagDisabled;
    AgentParams() {
        for (float& c : area_cost) c = 1.0f;
    }
};

enum class AgentState : uint8_t {
    Idle,         // no destination
    Walking,      // following its corridor
    WaitingPath,  // its path request is queued
    OnLink,       // crossing an off-mesh link
    Arrived,      // within the stopping distance of the goal (or of the nearest reachable point)
    Lost,         // no polygon under it: it stays where it is until warped
};
const char* agent_state_name(AgentState s);

enum class StuckReason : uint8_t {
    None,
    BlockedByNeighbours,  // neighbours stand in the way (Agent::stuck_by)
    PinnedAgainstWall,    // it pushes into a wall or corner (Agent::stuck_at)
    CorridorLost,         // its polygon vanished (a re-bake) and none is near
    GoalUnreachable,      // it stands at the reachable point nearest a goal no path reaches
    WaitingAtLink,        // an off-mesh link the game has not finished
    WaitingForPath,       // its path request waited in the queue the whole time
    Oscillating,          // its steering flipped back and forth
    NoProgress,           // none of the above
};
constexpr int kStuckReasons = 9;
const char* stuck_reason_name(StuckReason r);

// An agent's state (read-only for the game; Crowd::agent returns it).
struct Agent {
    AgentParams params;
    AgentState state = AgentState::Idle;
    float pos[3] = {0, 0, 0};
    float vel[3] = {0, 0, 0};            // velocity of the last tick
    float desired_vel[3] = {0, 0, 0};    // toward the next corner, before avoidance
    float avoid_vel[3] = {0, 0, 0};      // after avoidance, before acceleration limits
    float facing = 0;                    // radians about y, 0 = +x
    float goal[3] = {0, 0, 0};           // the destination asked for (set_destination)
    float target[3] = {0, 0, 0};         // where the corridor ends: the goal on the navmesh, or the
                                         // nearest reachable point, or the end of a truncated plan
    bool has_target = false;
    bool path_pending = false;           // a path request is queued
    bool goal_unreachable = false;       // the last plan could not reach the goal: target is the nearest reachable point
    // The corridor: polygons from the one under the agent to the target's; links[i] says how
    // polys[i] is entered (kNoLink: through a portal; else a link traversal, as PathResult).
    std::vector<PolyRef> polys;
    std::vector<uint32_t> links;
    bool corridor_truncated = false;     // the plan was longer than kCrowdMaxCorridor: re-planned near its end
    // The next corners (the funnel over the corridor), x y z each, and their flags (kStraight*).
    float corners[kCrowdMaxCorners * 3] = {};
    uint8_t corner_flags[kCrowdMaxCorners] = {};
    int ncorners = 0;
    float steer_target[3] = {0, 0, 0};
    // Neighbours (agent indices) nearest first, and the walls near it (6 floats each).
    uint32_t neighbours[kCrowdMaxNeighbours] = {};
    int nneighbours = 0;
    float walls[kCrowdMaxWalls * 6] = {};
    int nwalls = 0;
    float walls_center[3] = {0, 0, 0};
    // Off-mesh link in progress: the traversal, its ends and how far along (seconds).
    uint32_t link_trav = kNoLink;
    float link_from[3] = {0, 0, 0}, link_to[3] = {0, 0, 0};
    float link_time = 0, link_duration = 0;
    // Progress and the stuck flag.
    float best_remaining = 0;            // least remaining distance seen in the current window
    float window_time = 0;               // seconds since it last came closer
    int flips = 0;                       // steering reversals in the window
    float last_desired[2] = {0, 0};
    float waiting_path_time = 0;
    float blocked_time = 0;              // seconds it has moved at under a third of the speed it wants
    StuckReason stuck = StuckReason::None;
    uint32_t stuck_by[4] = {};           // BlockedByNeighbours: agent indices (stuck_by_count of them)
    int stuck_by_count = 0;
    float stuck_at[3] = {0, 0, 0};       // PinnedAgainstWall: the wall point
    uint32_t salt = 0;
    bool active = false;
};

// Runs task(ctx, i) for i in [0, count) and returns when all are done (any order, any threads).
struct CrowdTaskHook {
    void (*run)(int count, void (*task)(void* ctx, int index), void* ctx, void* user) = nullptr;
    void* user = nullptr;
    int workers = 1;  // how many tasks may run at once (each gets its own NavQuery)
};

// Off-mesh link callbacks (game thread, inside Crowd::update): begin when an agent steps onto a
// link, end when it lands. link = NavMesh link index, user_id = its OffMeshLink::user_id.
struct LinkCallbacks {
    void (*begin)(AgentId agent, int link, uint32_t user_id, void* user) = nullptr;
    void (*end)(AgentId agent, int link, uint32_t user_id, void* user) = nullptr;
    void* user = nullptr;
};

struct CrowdConfig {
    int max_agents = 1024;          // 1 .. kMaxCrowdAgents
    float dt = 1.0f / 30.0f;        // the fixed step, seconds (0 < dt <= 0.25)
    int path_budget = 16;           // A* searches per tick
    int path_max_nodes = 8192;      // node limit of each search (0: none): a bound on a tick's time
    float stuck_seconds = 2.0f;     // no progress for this long flags an agent stuck
    float link_speed_scale = 1.0f;  // the default arc crosses a link at this times max_speed
    CrowdTaskHook task_hook;
    LinkCallbacks links;
};

// Wall time of the last tick's phases, milliseconds.
struct CrowdStats {
    double validate_ms = 0, paths_ms = 0, neighbours_ms = 0, steer_ms = 0, avoid_ms = 0, move_ms = 0, links_ms = 0,
           progress_ms = 0, total_ms = 0;
    int path_searches = 0;    // A* searches run this tick
    int path_queue = 0;       // requests still waiting after it
    int replans = 0;          // requests made this tick because the mesh changed under a corridor
    uint64_t tick = 0;
};

class Crowd {
public:
    Crowd();
    ~Crowd();
    Crowd(const Crowd&) = delete;
    Crowd& operator=(const Crowd&) = delete;

    // Binds the crowd to a mesh (not owned) and sizes it. Clears every agent.
    Status init(const NavMesh* mesh, const CrowdConfig& config);
    // The mesh was rebuilt or replaced (obstacles, a re-bake, links). refs_carried: it was built
    // with the previous mesh as build_navmesh's `previous` (a tiled pipeline's rebuild does), so a
    // reference into an unchanged tile still names the same polygon: corridors through changed
    // tiles or links gone are re-planned on the next tick, the rest walk on. Otherwise (a solo
    // re-bake numbers its polygons afresh) every agent is placed again where it stands and
    // re-plans. The pointer may be the same object.
    void set_navmesh(const NavMesh* mesh, bool refs_carried = false);
    const NavMesh* navmesh() const { return mesh_; }
    const CrowdConfig& config() const { return config_; }

    // Places an agent on the navmesh nearest pos (within 2 radii across and a height up and down).
    Status add_agent(const float* pos, const AgentParams& params, AgentId* out);
    Status remove_agent(AgentId id);
    Status set_params(AgentId id, const AgentParams& params);
    // Sets the goal. Cheap when called every tick: a goal within the corridor's last polygon, or
    // a short walk from the last goal, moves the corridor's end; anything else queues a re-plan.
    Status set_destination(AgentId id, const float* pos);
    Status clear_destination(AgentId id);
    // Teleports the agent (same id, same destination, re-planned).
    Status warp(AgentId id, const float* pos);
    // velocity_only agents: where the game moved the agent to (kept on the navmesh).
    Status report_position(AgentId id, const float* pos);
    // game_links agents: the game's own link animation is done; the agent lands at the link's end.
    Status finish_link(AgentId id);

    // Advances every agent by config().dt.
    Status update();

    // The agent (null for a stale id).
    const Agent* agent(AgentId id) const;
    // Slots, for walking all agents: index i is active when agent_at(i).active.
    int capacity() const { return static_cast<int>(agents_.size()); }
    const Agent& agent_at(int i) const { return agents_[static_cast<size_t>(i)]; }
    AgentId id_at(int i) const;
    int active_count() const { return active_; }
    const CrowdStats& stats() const { return stats_; }

private:
    struct Impl;
    Impl* impl_ = nullptr;
    const NavMesh* mesh_ = nullptr;
    CrowdConfig config_;
    std::vector<Agent> agents_;
    CrowdStats stats_;
    int active_ = 0;
    friend struct CrowdPhases;
};

// The filter an agent's queries use (its type, area costs, flags).
QueryFilter agent_filter(const AgentParams& p);
// Checks every field: the message names it ("agent: radius is -1, expected a finite number > 0").
Status validate_agent_params(const AgentParams& p);

}  // namespace nav
