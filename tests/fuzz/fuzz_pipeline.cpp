// The whole bake under random parameters on a small generated mesh. The first bytes pick every
// parameter in its range (the way a slider would), the rest place up to 12 boxes and floors in a
// 12 m cube; the pipeline runs every stage with a 256 MiB memory limit. Then the "why" answers on
// the bake: explain_point at four points from the input (one of them raw float bits: NaN,
// infinities, huge values), explain_path between two of them, and for one input in eight the
// verified fix of the first lost point (it bakes again). Any Status and any story is fine; a crash, a
// sanitizer report or an exception is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <cstring>

#include "core/pipeline/pipeline.h"
#include "core/explain/why.h"

namespace {
struct Bytes {
    const uint8_t* p;
    size_t n;
    uint8_t next() {
        if (n == 0) return 0;
        --n;
        return *p++;
    }
    float unit() { return next() / 255.0f; }
    float raw() {
        uint32_t u = 0;
        for (int i = 0; i < 4; ++i) u = (u << 8) | next();
        float f;
        std::memcpy(&f, &u, sizeof f);
        return f;
    }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Bytes in{data, size};
    nav::Params params;
    for (const nav::ParamDef& d : nav::param_table()) {
        if (nav::is_mesh_fix(d.id) && d.id == nav::ParamId::mesh_scale) continue;  // keep the scene's size
        double v = d.min + (d.max - d.min) * in.unit();
        if (d.kind != nav::ParamKind::Float) v = static_cast<double>(static_cast<int64_t>(v + 0.5));
        if (d.id == nav::ParamId::cell_size || d.id == nav::ParamId::cell_height) v = 0.1 + 0.9 * in.unit();
        (void)params.set(d.id, v);
    }
    float points[4][3];
    for (int k = 0; k < 3; ++k)
        for (float& x : points[k]) x = in.unit() * 14.0f - 1.0f;
    for (float& x : points[3]) x = in.raw();
    const bool want_fix = (in.next() & 7) == 0;
    nav::InputMesh m;
    const int shapes = 1 + in.next() % 12;
    for (int s = 0; s < shapes; ++s) {
        float c[6];
        for (float& x : c) x = in.unit() * 12.0f;
        const bool box = in.next() & 1;
        const int b = m.vert_count();
        const float x0 = std::min(c[0], c[3]), x1 = std::max(c[0], c[3]) + 0.01f;
        const float z0 = std::min(c[2], c[5]), z1 = std::max(c[2], c[5]) + 0.01f;
        const float y0 = std::min(c[1], c[4]), y1 = std::max(c[1], c[4]) + 0.01f;
        if (!box) {
            const float v[] = {x0, y0, z0, x0, y1, z1, x1, y1, z1, x1, y0, z0};  // a ramp or a floor
            m.verts.insert(m.verts.end(), v, v + 12);
            const int t[] = {b, b + 1, b + 2, b, b + 2, b + 3};
            m.tris.insert(m.tris.end(), t, t + 6);
        } else {
            const float v[] = {x0, y0, z0, x1, y0, z0, x1, y0, z1, x0, y0, z1,
                               x0, y1, z0, x1, y1, z0, x1, y1, z1, x0, y1, z1};
            m.verts.insert(m.verts.end(), v, v + 24);
            const int t[] = {0, 1, 2, 0, 2, 3, 4, 7, 6, 4, 6, 5, 0, 4, 5, 0, 5, 1,
                             1, 5, 6, 1, 6, 2, 2, 6, 7, 2, 7, 3, 3, 7, 4, 3, 4, 0};
            for (int i : t) m.tris.push_back(b + i);
        }
    }
    m.compute_bounds();
    nav::PipelineDef def = nav::default_pipeline_def();
    def.memory_limit = uint64_t(256) << 20;
    nav::Pipeline pipe(def);
    if (!pipe.set_mesh(std::move(m))) return 0;
    if (!pipe.set_input(&nav::BakeInputs::params, params)) return 0;  // refused: nothing to bake
    const nav::Status st = pipe.run();
    if (st.code == nav::Status::Code::Internal) std::abort();  // our own fault
    const auto bake = pipe.snapshot();
    bool fixed = false;
    for (const auto& pt : points) {
        const nav::WhyStory story = nav::explain_point(*bake, pt);
        if (story.cause_text.empty() && !story.on_navmesh) std::abort();  // every lost point is told why
        if (want_fix && !fixed && !story.on_navmesh && story.decider) {
            fixed = true;
            (void)nav::find_fix(*bake, story);
        }
    }
    (void)nav::explain_path(*bake, points[0], points[1], false);
    return 0;
}
