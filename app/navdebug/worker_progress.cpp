#include "worker_progress.h"

namespace navdebug {

void WorkerProgress::track(const BakeWorker& worker, bool uploading) {
    const bool busy = worker.busy();
    const int st = worker.building_stage();
    const Clock::time_point now = Clock::now();
    // each phase the status line names has its own timer: the layers' build after the stages
    // (the worker's publish) and the upload of the new layers
    const bool publishing = busy && st < 0 && worker.publishing();
    if (publishing && !was_publishing_) layers_since = now;
    was_publishing_ = publishing;
    if (uploading && !was_uploading_) upload_since = now;
    was_uploading_ = uploading;
    if (busy && !was_busy_) {
        busy_since = now;
        run_first_stage = -1;
    }
    if (st != seen_stage_) {
        stage_since = now;
        if (st >= 0 && (run_first_stage < 0 || st < run_first_stage)) run_first_stage = st;
        seen_stage_ = st;
    }
    was_busy_ = busy;
}

}  // namespace navdebug
