// levelbench: load time of a level through assimp (core/formats/level_import.cpp) against our own OBJ
// reader, for the same geometry: each OBJ given is exported by assimp to GLB and to FBX (ASCII:
// assimp 5.2.5's binary FBX writer makes files its reader refuses) next to a temp copy, then each
// file is loaded --reps times by load_level; the table gives the medians and the triangle counts
// (the same in every column, or the row says so).
// Usage: levelbench [--reps N] MESH.obj...   (markdown on stdout; tests/bench/run_level.sh)
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
#include <unistd.h>

#include "core/formats/level_import.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Timed {
    double median_ms = 0;
    int tris = 0;
    uint64_t bytes = 0;
    std::string error;
};

Timed time_load(const std::string& path, int reps) {
    Timed t;
    std::error_code ec;
    t.bytes = std::filesystem::file_size(path, ec);
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        nav::InputMesh m;
        const auto a = Clock::now();
        const nav::Status st = nav::load_level(path, m);
        const auto b = Clock::now();
        if (!st) {
            t.error = st.message;
            return t;
        }
        t.tris = m.tri_count();
        ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
    }
    std::sort(ms.begin(), ms.end());
    t.median_ms = ms[ms.size() / 2];
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 5;
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else meshes.push_back(a);
    }
    if (meshes.empty()) {
        std::fprintf(stderr, "usage: levelbench [--reps N] MESH.obj...\n");
        return 2;
    }
    const std::filesystem::path tmp = std::filesystem::temp_directory_path() / ("levelbench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(tmp);
    std::printf("| mesh | triangles | OBJ (ours) | GLB (assimp) | FBX ASCII (assimp) | GLB / OBJ | FBX / OBJ |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    int rc = 0;
    for (const std::string& obj : meshes) {
        const std::string stem = std::filesystem::path(obj).stem().string();
        Assimp::Importer imp;
        const aiScene* s = imp.ReadFile(obj, aiProcess_Triangulate);
        if (!s) {
            std::fprintf(stderr, "levelbench: %s: %s\n", obj.c_str(), imp.GetErrorString());
            rc = 1;
            continue;
        }
        const std::string glb = (tmp / (stem + ".glb")).string(), fbx = (tmp / (stem + ".fbx")).string();
        Assimp::Exporter ex;
        if (ex.Export(s, "glb2", glb) != AI_SUCCESS || ex.Export(s, "fbxa", fbx) != AI_SUCCESS) {
            std::fprintf(stderr, "levelbench: %s: export: %s\n", obj.c_str(), ex.GetErrorString());
            rc = 1;
            continue;
        }
        const Timed o = time_load(obj, reps), g = time_load(glb, reps), f = time_load(fbx, reps);
        for (const Timed* t : {&o, &g, &f})
            if (!t->error.empty()) {
                std::fprintf(stderr, "levelbench: %s\n", t->error.c_str());
                rc = 1;
            }
        const bool same = o.tris == g.tris && o.tris == f.tris;
        std::printf("| %s | %d%s | %.2f ms (%.0f KB) | %.2f ms (%.0f KB) | %.2f ms (%.0f KB) | %.2fx | %.2fx |\n",
                    stem.c_str(), o.tris, same ? "" : " (formats differ!)", o.median_ms, double(o.bytes) / 1024,
                    g.median_ms, double(g.bytes) / 1024, f.median_ms, double(f.bytes) / 1024,
                    g.median_ms / std::max(1e-9, o.median_ms), f.median_ms / std::max(1e-9, o.median_ms));
    }
    std::error_code ec;
    std::filesystem::remove_all(tmp, ec);
    return rc;
}
