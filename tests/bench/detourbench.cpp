// detourbench: loading a Detour navmesh file, our reader against Detour's own loading (issue 20).
// The tiles: Detour's tiled navmesh of a shared mesh (tests/diff/detour_tiled.h: Recast's tile
// builds, dtCreateNavMeshData, addTile), and its solo tile, saved as RecastDemo's MSET file
// (tests/diff/detour_mset.h). Timed on those bytes, each the median of --reps runs:
//  - ours, read: read_detour_tiles (MSET layout, every tile checked and turned into a NavTile);
//  - ours, read + build: the same, then build_navmesh (stitching, BV trees, islands, landmarks):
//    what navbake --navmesh-in and navdebug do before the first query;
//  - Detour: dtNavMesh::init(params), then per tile a copy of its bytes (addTile takes ownership,
//    as RecastDemo's loadAll reads each tile into its own buffer) and addTile (which links it).
// MB/s = file bytes / time. Not part of ctest (benchmarks never assert on time).
//
// Usage: detourbench [--reps N] [--tile-size N] [mesh.obj] (default: dungeon.obj, the largest shared mesh, tile 32)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/runtime/detour_load.h"
#include "core/runtime/navmesh.h"
#include "diff/detour_mset.h"
#include "diff/detour_ref.h"
#include "diff/detour_tiled.h"
#include "diff/recast_ref.h"

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Detour's loadAll on bytes in memory: init, then per tile a buffer of its own and addTile.
bool detour_load(const std::vector<uint8_t>& mset, dtNavMesh*& out) {
    out = dtAllocNavMesh();
    dtNavMeshParams p;
    std::memcpy(&p, &mset[12], sizeof p);
    if (dtStatusFailed(out->init(&p))) return false;
    int32_t n = 0;
    std::memcpy(&n, &mset[8], 4);
    size_t at = 12 + sizeof p;
    for (int i = 0; i < n; ++i) {
        uint32_t ref = 0;
        int32_t size = 0;
        std::memcpy(&ref, &mset[at], 4);
        std::memcpy(&size, &mset[at + 4], 4);
        at += 8;
        auto* data = static_cast<unsigned char*>(dtAlloc(static_cast<size_t>(size), DT_ALLOC_PERM));
        std::memcpy(data, &mset[at], static_cast<size_t>(size));
        at += static_cast<size_t>(size);
        if (dtStatusFailed(out->addTile(data, size, DT_TILE_FREE_DATA, ref, nullptr))) return false;
    }
    return true;
}

void bench(const char* what, const std::vector<uint8_t>& mset, int reps) {
    std::vector<double> t_read, t_build, t_detour;
    int polys = 0, tiles = 0;
    for (int r = 0; r < reps; ++r) {
        std::vector<std::shared_ptr<const nav::NavTile>> ts;
        const double a = now_ms();
        if (!nav::read_detour_tiles(mset.data(), mset.size(), "bench", ts)) std::abort();
        const double b = now_ms();
        nav::NavMesh m;
        if (!nav::build_navmesh(ts, nullptr, m)) std::abort();
        const double c = now_ms();
        dtNavMesh* dm = nullptr;
        const double d = now_ms();
        if (!detour_load(mset, dm)) std::abort();
        const double e = now_ms();
        dtFreeNavMesh(dm);
        t_read.push_back(b - a), t_build.push_back(c - a), t_detour.push_back(e - d);
        polys = m.npolys, tiles = m.ntiles;
    }
    const double mb = static_cast<double>(mset.size()) / (1024.0 * 1024.0);
    const double r = median(t_read), rb = median(t_build), dt = median(t_detour);
    std::printf("| %s | %zu | %d | %d | %.3f ms, %.0f MB/s | %.3f ms, %.0f MB/s | %.3f ms, %.0f MB/s |\n", what, mset.size(), tiles,
                polys, r, mb / (r / 1000.0), rb, mb / (rb / 1000.0), dt, mb / (dt / 1000.0));
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 21, tile_size = 32;
    std::string mesh = std::string(NAV_SHARED_MESHES) + "/dungeon.obj";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--tile-size" && i + 1 < argc) tile_size = std::max(8, std::atoi(argv[++i]));
        else mesh = a;
    }
    nav::Pipeline pipe;
    if (!pipe.load_mesh(mesh) || !pipe.set_param(nav::ParamId::tile_size, tile_size) || !pipe.run()) {
        std::fprintf(stderr, "detourbench: cannot bake %s\n", mesh.c_str());
        return 1;
    }
    const auto bake = pipe.snapshot();
    std::string err;
    navdiff::DetourMesh tiled;
    int ntiles = 0;
    if (!navdiff::build_detour_tiled(*bake->mesh, bake->config, nav::Partition::Watershed, tiled, ntiles, err)) {
        std::fprintf(stderr, "detourbench: %s\n", err.c_str());
        return 1;
    }
    nav::InputMesh im;
    if (!navdiff::load_mesh(mesh, im)) return 1;
    const nav::BakeConfig cfg = nav::derive_config(nav::Params{}, im.bmin, im.bmax);
    navdiff::RecastVoxels rv;
    const auto part = static_cast<int>(nav::Partition::Watershed);
    if (!navdiff::run_recast(im, cfg, rv, navdiff::partition_bit(nav::Partition::Watershed)).ok) return 1;
    navdiff::DetourMesh solo;
    if (!navdiff::build_detour(*rv.pmesh[part], *rv.dmesh[part], cfg, solo, err)) return 1;

    std::printf("Loading Detour navmesh files, %s, median of %d runs\n\n", mesh.c_str(), reps);
    std::printf("| file | bytes | tiles | polygons | ours: read | ours: read + build_navmesh | Detour: init + addTile |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    bench(("tiled " + std::to_string(tile_size)).c_str(), navdiff::save_mset(*tiled.mesh), reps);
    bench("solo", navdiff::save_mset(*solo.mesh), reps);
    return 0;
}
