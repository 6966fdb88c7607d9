// navbake --crowd: a crowd scenario (core/crowd/scenario.h) on the bake's navmesh, its figures as
// text or as the report's "crowd" object.
#pragma once
#include <nlohmann/json.hpp>

#include "app/navbake_args.h"
#include "core/crowd/scenario.h"
#include "core/pipeline/agent_types.h"
#include "core/runtime/navmesh.h"

namespace navbake {

struct CrowdRun {
    bool ran = false;
    nav::CrowdFigures figures;
    nav::CrowdStats last;          // the last tick's phase times
    std::string agent_type;        // --agent-type's name, "" for the bake's agent
    float radius = 0;
};

// The scenario's agents take the bake's agent (agent_radius, agent_height) or --agent-type's type.
nav::Status run_crowd(const nav::NavMesh& nm, const Job& job, const nav::Params& params,
                      const std::vector<nav::AgentType>& types, CrowdRun& out);
nlohmann::json crowd_json(const Job& job, const CrowdRun& run);
void print_crowd_text(const Job& job, const CrowdRun& run);

}  // namespace navbake
