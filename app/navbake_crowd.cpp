#include "app/navbake_crowd.h"

#include <algorithm>
#include <cstdio>

namespace navbake {

nav::Status run_crowd(const nav::NavMesh& nm, const Job& job, const nav::Params& params,
                      const std::vector<nav::AgentType>& types, CrowdRun& out) {
    if (!job.crowd) return nav::Status::ok();
    nav::ScenarioSpec spec;
    spec.kind = job.crowd_kind;
    spec.agents = job.crowd_agents;
    spec.seed = job.seed;
    spec.params.radius = params.f(nav::ParamId::agent_radius);
    spec.params.height = params.f(nav::ParamId::agent_height);
    if (job.agent_type >= 0) {
        const nav::AgentType& t = types[static_cast<size_t>(job.agent_type)];
        // One type alone is the bake's own agent: its polygons carry no type bits to select.
        spec.params.type = types.size() > 1 ? job.agent_type : -1;
        spec.params.radius = t.radius;
        spec.params.height = t.height;
        out.agent_type = t.name;
    }
    // A bake for agents of no size (radius 0) still needs bodies to keep apart: a tenth of a metre.
    spec.params.radius = std::max(spec.params.radius, 0.1f);
    out.radius = spec.params.radius;
    nav::ScenarioAgents sc;
    if (nav::Status st = nav::make_crowd_scenario(nm, spec, sc); !st) return nav::Status::bad_input("--crowd " + std::string(nav::crowd_scenario_name(spec.kind)) + ": " + st.message);
    nav::Crowd crowd;
    nav::CrowdConfig cfg;
    cfg.max_agents = sc.count();
    if (nav::Status st = crowd.init(&nm, cfg); !st) return st;
    if (nav::Status st = nav::run_crowd_scenario(crowd, sc, spec.params, job.crowd_ticks, out.figures); !st)
        return nav::Status::bad_input("--crowd: " + st.message);
    out.last = crowd.stats();
    out.ran = true;
    return nav::Status::ok();
}

nlohmann::json crowd_json(const Job& job, const CrowdRun& run) {
    const nav::CrowdFigures& f = run.figures;
    nlohmann::json stuck = nlohmann::json::object();
    for (int r = 1; r < nav::kStuckReasons; ++r) stuck[nav::stuck_reason_name(static_cast<nav::StuckReason>(r))] = f.stuck[r];
    nlohmann::json j = {{"scenario", nav::crowd_scenario_name(job.crowd_kind)},
                        {"agents", f.agents},
                        {"ticks", f.ticks},
                        {"dt", 1.0 / 30.0},
                        {"seed", job.seed},
                        {"radius", run.radius},
                        {"reached", f.reached},
                        {"time_to_goal_s", {{"mean", f.time_to_goal_mean}, {"max", f.time_to_goal_max}}},
                        {"min_pair_distance", f.min_pair_distance},
                        {"overlap_agent_ticks", f.overlap_agent_ticks},
                        {"off_mesh_agent_ticks", f.off_mesh_agent_ticks},
                        {"stuck", stuck},
                        {"ms_per_tick", f.ms_per_tick}};
    if (!run.agent_type.empty()) j["agent_type"] = run.agent_type;
    return j;
}

void print_crowd_text(const Job& job, const CrowdRun& run) {
    if (!run.ran) return;
    const nav::CrowdFigures& f = run.figures;
    std::printf("crowd %s: %d agents%s%s, %d ticks (%.1f s): reached %d, time to goal mean %.2f s max %.2f s, "
                "min distance %.3f m, overlaps %lld agent-ticks, off the navmesh %lld, %.3f ms per tick\n",
                nav::crowd_scenario_name(job.crowd_kind), f.agents, run.agent_type.empty() ? "" : " of type ",
                run.agent_type.c_str(), f.ticks, f.ticks / 30.0, f.reached, f.time_to_goal_mean, f.time_to_goal_max,
                static_cast<double>(f.min_pair_distance), static_cast<long long>(f.overlap_agent_ticks),
                static_cast<long long>(f.off_mesh_agent_ticks), f.ms_per_tick);
    for (int r = 1; r < nav::kStuckReasons; ++r)
        if (f.stuck[r]) std::printf("  stuck, %s: %d\n", nav::stuck_reason_name(static_cast<nav::StuckReason>(r)), f.stuck[r]);
}

}  // namespace navbake
