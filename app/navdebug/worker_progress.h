// The bake worker's progress as the status line tells it: since when it is busy, which stage it
// builds and since when, the layers' build after the stages and their upload. No GL, no ImGui.
#pragma once
#include <chrono>

#include "worker.h"

namespace navdebug {

struct WorkerProgress {
    using Clock = std::chrono::steady_clock;
    Clock::time_point busy_since{}, stage_since{};
    int run_first_stage = -1;  // the first stage the current run built (-1: none yet)
    // the status line's own timers: the worker building the layers after the stages, the new
    // layers going to the GPU
    Clock::time_point layers_since{}, upload_since{};

    // Follows the worker (once a frame); `uploading`: the view's layers are being uploaded.
    void track(const BakeWorker& worker, bool uploading);

private:
    bool was_busy_ = false;
    int seen_stage_ = -1;
    bool was_publishing_ = false, was_uploading_ = false;
};

}  // namespace navdebug
