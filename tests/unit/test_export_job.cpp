// navdebug's exports (app/navdebug/export_job.h) run on the bake worker, not on the UI thread: the
// UI asks with the bake it shows (BakeWorker::request_export), the worker writes the file and
// publishes the line the UI logs (take_exports). These drive the worker alone, no app, no GL.
#include <doctest/doctest.h>

#ifdef NAV_HAVE_RENDER
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "app/navdebug/worker.h"
#include "core/pipeline/pipeline.h"

namespace fs = std::filesystem;

namespace {

// A copy of the demo level in a directory of its own: OBJ exports are written next to the mesh.
struct DemoCopy {
    fs::path dir, mesh;
    DemoCopy() {
        dir = fs::temp_directory_path() / ("navtest_export_" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        mesh = dir / "demo.obj";
        fs::copy_file(fs::path(NAV_SOURCE_DIR) / "assets" / "demo.obj", mesh);
    }
    ~DemoCopy() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

}  // namespace

TEST_CASE("worker: exports asked by the UI run on the worker and publish their result") {
    DemoCopy demo;
    navdebug::Log log;
    navdebug::BakeWorker worker(log);
    REQUIRE(worker.pipeline().load_mesh(demo.mesh.string()));
    worker.start();
    worker.request(nav::BakeInputs{}, nav::kLastStage);
    worker.wait_idle();
    const std::shared_ptr<const nav::Bake> bake = worker.latest();
    REQUIRE(bake);
    REQUIRE(bake->polymesh);

    navdebug::ExportJob obj;
    obj.kind = navdebug::ExportJob::Kind::Obj;
    obj.bake = bake;
    navdebug::ExportJob detour;
    detour.kind = navdebug::ExportJob::Kind::Detour;
    detour.bake = bake;
    detour.path = (demo.dir / "out.bin").string();
    navdebug::ExportJob gltf;
    gltf.kind = navdebug::ExportJob::Kind::Gltf;
    gltf.bake = bake;
    gltf.path = (demo.dir / "out.glb").string();
    gltf.which = nav::GltfBakeLayers{};
    gltf.which.input = gltf.which.regions = gltf.which.contours = gltf.which.detail = false;  // the polymesh layer alone shown
    gltf.which.polymesh = true;
    const uint64_t obj_id = worker.request_export(obj);
    const uint64_t detour_id = worker.request_export(detour);
    const uint64_t gltf_id = worker.request_export(gltf);
    CHECK(obj_id != detour_id);
    CHECK(detour_id != gltf_id);
    worker.wait_idle();
    CHECK_FALSE(worker.busy());

    const std::vector<navdebug::ExportResult> done = worker.take_exports();
    REQUIRE(done.size() == 3);
    CHECK(done[0].id == obj_id);
    CHECK(done[1].id == detour_id);
    CHECK(done[2].id == gltf_id);
    for (const navdebug::ExportResult& r : done) {
        INFO(r.text);
        CHECK(r.ok);
        REQUIRE(fs::exists(r.out));
        CHECK(fs::file_size(r.out) > 0);
    }
    CHECK(done[0].out == (demo.dir / "demo.navmesh.obj").string());
    CHECK(done[0].text.rfind("exported " + done[0].out + " (", 0) == 0);
    CHECK(done[1].text.rfind("saved " + detour.path + " (Detour navmesh, 1 tile, ", 0) == 0);
    CHECK(done[2].text == "exported " + gltf.path + " (nodes polymesh)");
    CHECK(worker.take_exports().empty());  // taken once
}

TEST_CASE("worker: an export without a bake, or of a 2D map, publishes the reason and writes nothing") {
    navdebug::Log log;
    navdebug::BakeWorker worker(log);
    worker.start();
    navdebug::ExportJob obj;
    obj.kind = navdebug::ExportJob::Kind::Obj;
    navdebug::ExportJob detour;
    detour.kind = navdebug::ExportJob::Kind::Detour;
    detour.map2d = true;
    navdebug::ExportJob gltf;
    gltf.kind = navdebug::ExportJob::Kind::Gltf;
    worker.request_export(obj);
    worker.request_export(detour);
    worker.request_export(gltf);
    worker.wait_idle();
    const std::vector<navdebug::ExportResult> done = worker.take_exports();
    REQUIRE(done.size() == 3);
    for (const navdebug::ExportResult& r : done) {
        CHECK_FALSE(r.ok);
        CHECK(r.out.empty());
    }
    CHECK(done[0].text == "export OBJ: no polygon mesh yet (bake through the polymesh stage first)");
    CHECK(done[1].text == std::string("save navmesh: ") + navdebug::kNotABake);
    CHECK(done[2].text == "export glTF: no bake yet (open a mesh first)");
}
#endif
