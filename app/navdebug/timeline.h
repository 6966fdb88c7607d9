// The stage driver: a timeline of the bake stages (input ... navmesh), each with its state, time
// and counts, a "build to here" button per stage and Previous / Next / Build all. The state of a
// stage is worked out from the latest bake, the state the UI wants (parameters, volumes, a mesh
// being opened) and the worker's progress; stage_states() is the pure part.
#pragma once
#include <array>

#include "core/pipeline/pipeline.h"

namespace navdebug {

enum class StageState {
    Clean,     // built from the parameters, volumes and mesh the UI wants
    Dirty,     // built, but a parameter it reads (or the volumes, or the mesh) changed since
    NotBuilt,  // no result (beyond the target stage, after a failure, or never baked)
    Building,  // the worker is building it now
    Failed,    // the last bake failed here (its error is shown)
};

struct TimelineInput {
    const nav::Bake* bake = nullptr;        // the latest bake (not trimmed to the target)
    const nav::Params* desired = nullptr;   // the parameters the UI wants
    bool volumes_changed = false;           // the UI's volumes or obstacles differ from the bake's
    bool mesh_pending = false;              // a mesh is being opened
    bool busy = false;                      // the worker has work
    int building = -1;                      // BakeWorker::building_stage()
    nav::Stage target = nav::kLastStage;    // the stage the UI bakes through
    const char* unavailable = nullptr;      // why no stage can be built (a navmesh loaded, not baked)
};

std::array<StageState, nav::kStageCount> stage_states(const TimelineInput& in);
const char* state_name(StageState s);

class Timeline {
public:
    // Draws the timeline (inside the right panel); changes `target` on Build to here / Previous /
    // Next / Build all.
    void panel(const TimelineInput& in, nav::Stage& target);

private:
    bool show_counts_ = true;
};

}  // namespace navdebug
