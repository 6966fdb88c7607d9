// navkit crowd: agents that walk the navmesh (navkit::crowd, pkg-config navkit). Links the runtime
// only (standard library, no thread library: give CrowdConfig::task_hook your job system to spread
// a tick over threads). Everything is in namespace nav.
//
// Include this header, not the ones it gathers (installed as <navkit/detail/core/...>).
//
//   Crowd            init(&navmesh, CrowdConfig), add_agent(pos, AgentParams) -> AgentId,
//                    set_destination (cheap every tick), warp, report_position (games that move
//                    characters themselves), finish_link (games that animate links), update() once
//                    per fixed step, agent(id) -> Agent (position, velocity, corridor, corners,
//                    neighbours, walls, state, stuck reason), stats() (phase times).
//   AgentParams      type (the bake's agent type), radius, height, max_speed, max_accel,
//                    angular_speed, stopping_distance, auto_braking, avoidance_quality, priority,
//                    separation_weight, velocity_only, area costs and flags.
//   StuckReason      why an agent made no progress for CrowdConfig::stuck_seconds.
//   Scenarios        make_crowd_scenario (circle, corridor, doorway, random), CrowdMeter and
//                    run_crowd_scenario: the figures navbake --crowd prints.
#pragma once

#include "core/crowd/crowd.h"
#include "core/crowd/scenario.h"
#include <navkit/runtime.h>
