#include "why_job.h"

#include <chrono>
#include <exception>
#include <new>

#include "core/pipeline/pipeline.h"

namespace navdebug {

WhyResult run_why_job(const WhyJob& job, const nav::CancelFlag* cancel) {
    WhyResult r;
    r.id = job.id;
    r.kind = job.kind;
    const auto t0 = std::chrono::steady_clock::now();
    const nav::Bake* b = job.bake.get();
    if (!b || !b->mesh) {
        r.error = "no bake to explain";
        return r;
    }
    try {
        if (job.kind == WhyJob::Kind::Fix) {
            r.fix = nav::find_fix(*b, job.story, cancel);
        } else {
            r.path = nav::explain_path(*b, &job.start.x, &job.end.x, true, cancel);
        }
    } catch (const std::bad_alloc&) {
        r.fix.reset();
        r.path.reset();
        r.error = "out of memory while verifying";
    } catch (const std::exception& e) {
        r.fix.reset();
        r.path.reset();
        r.error = std::string("internal error while verifying: ") + e.what();
    }
    r.cancelled = nav::is_cancelled(cancel);
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

}  // namespace navdebug
