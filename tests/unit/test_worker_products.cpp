// The bake worker (app/navdebug/worker.h) publishes, with each bake, what the debugger's view derives
// from it: the change highlight against the bake before, and the draw lists; the island prune is
// the pipeline's (a prune request goes to the pipeline as a parameter change does). The UI thread only takes them;
// these checks drive the worker alone, no app, no islands panel, no GL.
#include <doctest/doctest.h>

#ifdef NAV_HAVE_RENDER
#include <array>
#include <memory>
#include <string>

#include "app/navdebug/worker.h"
#include "core/bake/palette.h"
#include "core/pipeline/pipeline.h"
#include "core/explain/why.h"
#include "render/layers.h"
#include "why_scenes.h"

namespace {

// The worker's pipeline with the demo level loaded.
void load_demo(navdebug::BakeWorker& worker) {
    REQUIRE(worker.pipeline().load_mesh(std::string(NAV_SOURCE_DIR) + "/assets/demo.obj"));
}

std::optional<std::array<float, 3>> point(const glm::vec3& p) { return std::array<float, 3>{p.x, p.y, p.z}; }

int disabled_polys(const nav::NavMesh& m) {
    int n = 0;
    for (int i = 0; i < m.npolys; ++i) n += (m.flags[static_cast<size_t>(i)] & nav::kPolyFlagDisabled) != 0;
    return n;
}

}  // namespace

TEST_CASE("worker: a prune request goes to the pipeline: the bake comes pruned, no tile re-baked, no highlight") {
    navdebug::Log log;
    navdebug::BakeWorker worker(log);
    load_demo(worker);
    nav::render::LayerMask shown{};
    shown[static_cast<size_t>(nav::render::Layer::Islands)] = true;
    worker.init_layers(shown);
    worker.set_highlight_changes(true);
    worker.start();
    nav::BakeInputs in;
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto unpruned = worker.latest_published();
    REQUIRE(unpruned.bake);
    REQUIRE(unpruned.bake->navmesh);
    CHECK_FALSE(unpruned.bake->prune.point);
    CHECK(disabled_polys(*unpruned.bake->navmesh) == 0);

    const glm::vec3 plaza(0.0f, 0.2f, 0.0f);
    const std::array<float, 3> plaza_a{plaza.x, plaza.y, plaza.z};
    in.prune = point(plaza);
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto pub = worker.latest_published();
    REQUIRE(pub.bake);
    REQUIRE(pub.bake->navmesh);
    CHECK(pub.bake != unpruned.bake);  // a new bake of the pipeline, no stage run
    CHECK(pub.bake->stages_run.empty());
    CHECK(pub.bake->polymesh == unpruned.bake->polymesh);
    REQUIRE(pub.bake->prune.point);
    CHECK(*pub.bake->prune.point == plaza_a);
    CHECK(pub.bake->prune.applied);
    CHECK(pub.bake->prune.message.empty());
    // the unreachable platform is off in the published navmesh; the earlier bake keeps its flags
    CHECK(disabled_polys(*pub.bake->navmesh) > 0);
    CHECK(disabled_polys(*pub.bake->navmesh) == static_cast<int>(pub.bake->prune.stats.disabled));
    CHECK(disabled_polys(*unpruned.bake->navmesh) == 0);
    // the draw lists are built from the pruned bake: the UI uploads them as they are
    CHECK(pub.view == pub.bake);
    REQUIRE(pub.layers);
    CHECK(pub.layers->find(nav::render::Layer::Islands, *pub.bake) != nullptr);
    // a prune is no tile change: the change highlight stays what it was (none: the first bake had
    // nothing to compare)
    CHECK_FALSE(pub.highlight);

    // clearing the prune (the panel's Clear, an undo): every flag back
    in.prune.reset();
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto cleared = worker.latest_published();
    CHECK_FALSE(cleared.bake->prune.point);
    CHECK(cleared.bake->navmesh->flags == unpruned.bake->navmesh->flags);
    CHECK(cleared.view == cleared.bake);
    CHECK_FALSE(cleared.highlight);

    // redo: the same point prunes again
    in.prune = point(plaza);
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto redone = worker.latest_published();
    CHECK(redone.bake->prune.applied);
    CHECK(redone.bake->prune.stats.disabled == pub.bake->prune.stats.disabled);

    // a point with no polygon near: nothing pruned, the reason published for the panel
    in.prune = point(glm::vec3(0.0f, 50.0f, 0.0f));
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto off = worker.latest_published();
    CHECK_FALSE(off.bake->prune.applied);
    CHECK(disabled_polys(*off.bake->navmesh) == 0);
    CHECK(off.bake->prune.message.find("Not pruned") == 0);

    // a re-bake keeps the prune point: the new bake is published pruned, highlighted as a re-bake
    in.prune = point(plaza);
    worker.request(in, nav::kLastStage);
    REQUIRE(in.params.set_from_string("agent_radius", "0.9"));
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto rebaked = worker.latest_published();
    CHECK(rebaked.bake != pub.bake);
    CHECK_FALSE(rebaked.bake->stages_run.empty());
    CHECK(rebaked.bake->prune.applied);
    REQUIRE(rebaked.highlight);
    CHECK(rebaked.highlight->changes.any());
    // then a prune alone keeps that highlight
    in.prune.reset();
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    CHECK(worker.latest_published().highlight == rebaked.highlight);
}

TEST_CASE("worker: an area colour change republishes the bake with it, no stage run, its layers redrawn") {
    navdebug::Log log;
    navdebug::BakeWorker worker(log);
    load_demo(worker);
    nav::render::LayerMask shown{};
    shown[static_cast<size_t>(nav::render::Layer::Polymesh)] = true;
    shown[static_cast<size_t>(nav::render::Layer::Regions)] = true;
    worker.init_layers(shown);
    worker.start();
    nav::BakeInputs in;
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto before = worker.latest_published();
    REQUIRE(before.bake);
    REQUIRE(before.layers);
    using nav::render::Layer;
    const nav::render::BuiltLayer* poly0 = before.layers->find(Layer::Polymesh, *before.bake);
    REQUIRE(poly0);

    // ground turns red: only a colour
    nav::AreaType* ground = nullptr;
    for (nav::AreaType& a : in.areas.types)
        if (a.id == nav::kWalkableArea) ground = &a;
    REQUIRE(ground);
    const uint32_t red = nav::palette_rgba(230, 20, 20);
    ground->color = red;
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto after = worker.latest_published();
    REQUIRE(after.bake);
    CHECK(after.bake != before.bake);
    CHECK(after.bake->stages_run.empty());               // no stage re-run
    CHECK(after.bake->polymesh == before.bake->polymesh);  // the same results
    CHECK(after.bake->inputs.areas.color_of(nav::kWalkableArea) == red);
    REQUIRE(after.layers);
    const nav::render::BuiltLayer* poly1 = after.layers->find(Layer::Polymesh, *after.bake);
    REQUIRE(poly1);
    CHECK(poly1 != poly0);  // redrawn in the new colour
    CHECK(poly1->colors != poly0->colors);
    bool red_drawn = false;
    for (const auto& part : poly1->parts)
        for (const nav::render::Vertex& v : part->cpu.tri_verts) red_drawn = red_drawn || (v.color & 0xffffffu) == (red & 0xffffffu);
    CHECK(red_drawn);
    // a layer drawn in no area colour is shared as it was
    CHECK(after.layers->find(Layer::Regions, *after.bake) == before.layers->find(Layer::Regions, *before.bake));
    // the old bake's layer keeps its key: the old picture is never taken for the new one
    CHECK(nav::render::layer_part_keys(Layer::Polymesh, *after.bake) != nav::render::layer_part_keys(Layer::Polymesh, *before.bake));
    CHECK(nav::render::layer_part_keys(Layer::Regions, *after.bake) == nav::render::layer_part_keys(Layer::Regions, *before.bake));
}

TEST_CASE("worker: the change highlight arrives with the bake it compares") {
    navdebug::Log log;
    navdebug::BakeWorker worker(log);
    load_demo(worker);
    worker.set_highlight_changes(true);
    worker.start();
    nav::BakeInputs in;
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto first = worker.latest_published();
    REQUIRE(first.bake);
    // the first bake of a mesh follows its input alone, which has nothing to compare
    CHECK_FALSE(first.highlight);

    REQUIRE(in.params.set_from_string("agent_radius", "0.9"));
    worker.request(in, nav::kLastStage);
    worker.wait_idle();
    const auto second = worker.latest_published();
    REQUIRE(second.highlight);
    const navdebug::BakeHighlight& h = *second.highlight;
    CHECK(h.changes.from_generation == first.bake->generation);
    CHECK(h.changes.to_generation == second.bake->generation);
    CHECK(h.changes.have_regions);
    CHECK(h.changes.have_polys);
    CHECK(h.changes.any());
    CHECK(h.text == nav::render::diff_summary(h.changes));
    CHECK_FALSE(h.overlay.empty());
    // the same as computing it from the two bakes
    const nav::render::BakeChanges direct = nav::render::diff_bakes(*first.bake, *second.bake);
    CHECK(direct.polys.added == h.changes.polys.added);
    CHECK(direct.polys.removed == h.changes.polys.removed);
    CHECK(direct.regions.added == h.changes.regions.added);

    // switched off: dropped
    worker.set_highlight_changes(false);
    CHECK_FALSE(worker.latest_published().highlight);
}
TEST_CASE("worker: a Why job verifies a fix after the bake and publishes it; a stale job is answered cancelled") {
    whyscene::Scene erosion;
    for (const whyscene::Scene& s : whyscene::why_scenes())
        if (s.name == "erosion") erosion = s;
    REQUIRE(!erosion.verts.empty());
    nav::InputMesh mesh;
    mesh.verts = erosion.verts;
    mesh.tris = erosion.tris;
    navdebug::Log log;
    navdebug::BakeWorker worker(log);
    REQUIRE(worker.pipeline().set_mesh(std::move(mesh)).is_ok());
    worker.start();
    worker.request(nav::BakeInputs{}, nav::kLastStage);
    worker.wait_idle();
    const std::shared_ptr<const nav::Bake> b = worker.latest();
    REQUIRE(b);
    REQUIRE(b->navmesh);
    CHECK(worker.latest_why() == nullptr);

    // the story told on the UI thread, the fix verified by the worker
    navdebug::WhyJob job;
    job.id = 7;
    job.kind = navdebug::WhyJob::Kind::Fix;
    job.bake = b;
    job.story = nav::explain_point(*b, erosion.point);
    REQUIRE(!job.story.on_navmesh);
    worker.request_why(job);
    worker.wait_idle();
    CHECK(!worker.busy());
    CHECK(!worker.why_running());
    std::shared_ptr<const navdebug::WhyResult> r = worker.latest_why();
    REQUIRE(r);
    CHECK(r->id == 7);
    CHECK(!r->cancelled);
    CHECK_MESSAGE(r->error.empty(), r->error);
    REQUIRE(r->fix);
    CHECK(r->fix->verified);
    REQUIRE(r->fix->param);
    CHECK(*r->fix->param == nav::ParamId::agent_radius);
    CHECK(worker.latest() == b);  // verifying bakes elsewhere: the published bake stays

    // a job asked on a bake that is no longer the latest is not run
    nav::BakeInputs in;
    REQUIRE(in.params.set(nav::ParamId::agent_radius, 0.3).is_ok());
    worker.request(in, nav::kLastStage);
    job.id = 8;
    worker.request_why(job);
    worker.wait_idle();
    REQUIRE(worker.latest() != b);
    r = worker.latest_why();
    REQUIRE(r);
    CHECK(r->id == 8);
    CHECK(r->cancelled);
    CHECK(!r->fix);
}

#endif
