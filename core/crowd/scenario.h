// Crowd scenarios and the figures that judge a crowd run: what navbake --crowd, the tests, the
// debugger and the benchmark against DetourCrowd share.
//
// Scenarios on any navmesh (deterministic for a seed):
//   circle    N agents evenly on a circle (at least ten radii across, room allowing) around the
//             most open point found, each walking to the
//             opposite point (the classic symmetric swap: a deadlock shows as agents that never arrive)
//   corridor  two groups of N/2 at the two ends of a long path, each walking to the other's end
//   doorway   N agents in a cluster, all walking to one goal past the narrowest part of the path
//   random    N agents, each from a random point to a random point it can reach
// Starts are spread so no two agents overlap where the navmesh has room.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/crowd/crowd.h"

namespace nav {

enum class CrowdScenario : uint8_t { Circle, Corridor, Doorway, Random };
const char* crowd_scenario_name(CrowdScenario s);
// "circle" | "corridor" | "doorway" | "random"; anything else is BadInput listing the names.
Status parse_crowd_scenario(const std::string& name, CrowdScenario* out);

struct ScenarioSpec {
    CrowdScenario kind = CrowdScenario::Circle;
    int agents = 32;          // 1 .. kMaxCrowdAgents
    uint64_t seed = 1;
    AgentParams params;       // every agent's (type, radius, speed...)
};

struct ScenarioAgents {
    std::vector<float> starts, goals;   // x y z per agent, on the navmesh
    int count() const { return static_cast<int>(starts.size() / 3); }
};

// Starts and goals for the scenario on this mesh. BadInput when the mesh has no polygon the
// agents' type may use, or no two points far enough apart for the scenario.
Status make_crowd_scenario(const NavMesh& mesh, const ScenarioSpec& spec, ScenarioAgents& out);

// The figures of a run, fed one tick at a time with every agent's position (x y z each), so a
// crowd of ours and DetourCrowd's are judged by the same code.
struct CrowdFigures {
    int agents = 0, ticks = 0, reached = 0;
    double time_to_goal_mean = 0, time_to_goal_max = 0;  // seconds, over the agents that reached
    float min_pair_distance = 0;          // least centre distance over all ticks / (r1 + r2)... in metres
    int64_t overlap_agent_ticks = 0;      // agent-ticks closer than 0.9 (r1 + r2) to some other agent
    int64_t off_mesh_agent_ticks = 0;     // agent-ticks not on a polygon of the navmesh
    int stuck[kStuckReasons] = {};        // agents that never reached, by the reason flagged at the end (ours only)
    double ms_per_tick = 0;
};

class CrowdMeter {
public:
    // arrive: an agent within this xz distance of its goal has reached it.
    void begin(const ScenarioAgents& sc, float radius, float dt, float arrive);
    // positions: x y z per agent; on_mesh: per agent 1 when it stands on a navmesh polygon.
    void tick(const float* positions, const uint8_t* on_mesh);
    CrowdFigures figures() const;
    bool all_reached() const { return figures_.reached == figures_.agents; }
    bool reached(int i) const { return reached_at_[static_cast<size_t>(i)] >= 0; }

private:
    ScenarioAgents sc_;
    float radius_ = 0, dt_ = 0, arrive_ = 0;
    std::vector<double> reached_at_;
    std::vector<uint32_t> grid_head_, grid_next_;
    CrowdFigures figures_;
};

// Whether pos stands on polygon p (xz inside, with a millimetre of slack, and within the agent's
// height of its surface).
bool on_polygon(const NavMesh& mesh, PolyRef p, const float* pos, float height);

// Adds the scenario's agents to the crowd and sets their goals.
Status start_crowd_scenario(Crowd& crowd, const ScenarioAgents& sc, const AgentParams& params, std::vector<AgentId>* ids);
// Runs it for `ticks` ticks (stopping early once every agent arrived), measuring.
Status run_crowd_scenario(Crowd& crowd, const ScenarioAgents& sc, const AgentParams& params, int ticks, CrowdFigures& out);

}  // namespace nav
