// The Why tool's background work (why.h): verifying a fix for a lost point (find_fix bakes the level
// or the point's tile again with each candidate value) and explaining a failed path (explain_path,
// with its fix). Both can take seconds, so the UI posts a WhyJob to the bake worker
// (BakeWorker::request_why), which runs it after the bake in hand and publishes an immutable
// WhyResult; the UI thread only draws it. No GL, no ImGui.
#pragma once
#include <glm/glm.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/explain/why.h"

namespace navdebug {

struct WhyJob {
    enum class Kind { Fix, Path };
    uint64_t id = 0;  // the UI's number for it: a result answers the job with the same id
    Kind kind = Kind::Fix;
    std::shared_ptr<const nav::Bake> bake;  // the snapshot the story was told on
    nav::WhyStory story;                    // Fix: explain_point(*bake, point)
    glm::vec3 start{0.0f}, end{0.0f};       // Path: the path tool's end points
};

struct WhyResult {
    uint64_t id = 0;
    WhyJob::Kind kind = WhyJob::Kind::Fix;
    bool cancelled = false;  // a newer bake was asked for while it ran (the UI asks again on it)
    std::string error;       // why nothing was computed (no bake, out of memory)
    std::optional<nav::WhyFix> fix;    // Fix: find_fix's answer (none: no candidate verified)
    std::optional<nav::WhyPath> path;  // Path: explain_path's answer
    double ms = 0;                     // wall time of the job
};

// Runs the job on the calling thread (the bake worker's). `cancel` is raised by a newer request.
WhyResult run_why_job(const WhyJob& job, const nav::CancelFlag* cancel);

}  // namespace navdebug
