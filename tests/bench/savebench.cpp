// savebench: the speed of writing Detour tile data (issue 20), our write_detour_tile against
// Detour 1.5.1's dtCreateNavMeshData on the same inputs (the DetourTileSource of every tile of our
// bake, solo and tiled). Not part of ctest (benchmarks never assert on time); run it with
// tests/bench/run_save.sh.
//
// Per mesh and tile size: the bake at default parameters, then each tile's DetourTileSource
// (detour_tile_source). One pass writes every tile once (ours into one reused buffer, as a caller
// saving many tiles would; Detour allocates each tile and we free it); passes alternate which side
// goes first. MB/s = the tiles' bytes (identical on both sides) / the pass's time, median over the
// passes; the ratio is the median of the per-pass ratios ours / Detour (above 1: ours is faster).
// Also: the whole MSET (make_detour_mesh + write_mset) per pass, for the file navbake writes.
//
// Usage: savebench [--reps N] [--tiles 0,32,64] mesh.obj...   (no mesh: the shared meshes)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/formats/detour_export.h"
#include "core/pipeline/pipeline.h"
#include "diff/detour_write_ref.h"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct TileInput {
    std::vector<uint16_t> flags;
    nav::DetourTileSource src;
};

}  // namespace

int main(int argc, char** argv) {
    int reps = 51;
    std::vector<int> tiles = {0, 32, 64};
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--tiles" && i + 1 < argc) {
            tiles.clear();
            std::stringstream ss(argv[++i]);
            std::string item;
            while (std::getline(ss, item, ',')) tiles.push_back(std::atoi(item.c_str()));
        } else meshes.push_back(a);
    }
    if (meshes.empty())
        for (const char* m : {"dungeon.obj", "nav_test.obj", "undulating.obj"})
            meshes.push_back(std::string(NAV_SHARED_MESHES) + "/" + m);

    std::printf("| mesh | tile size | tiles | bytes | ours MB/s | Detour MB/s | ours / Detour | MSET ms |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const std::string& path : meshes) {
        for (int ts : tiles) {
            nav::Pipeline pipe;
            if (nav::Status st = pipe.load_mesh(path); !st) {
                std::fprintf(stderr, "savebench: %s\n", st.message.c_str());
                return 2;
            }
            (void)pipe.set_param(nav::ParamId::tile_size, ts);
            if (nav::Status st = pipe.run(); !st) {
                std::fprintf(stderr, "savebench: %s: %s\n", path.c_str(), st.message.c_str());
                return 2;
            }
            const auto b = pipe.snapshot();
            std::vector<TileInput> in;
            auto add = [&](const nav::PolyMesh& pm, const nav::PolyMeshDetail& dm, int tx, int ty) {
                if (pm.npolys == 0) return;
                in.emplace_back();
                (void)nav::detour_tile_source(pm, dm, b->inputs.params, tx, ty, in.back().flags, in.back().src);
            };
            if (!b->tiled()) add(*b->polymesh, *b->detail, 0, 0);
            else
                for (const auto& t : b->tiles) add(*t->polymesh, *t->detail, t->tx, t->tz);
            // in.emplace_back may have moved the flags vectors: their buffers stay, the pointers hold
            size_t bytes = 0;
            std::vector<uint8_t> buf;
            for (const TileInput& t : in) {
                if (!nav::write_detour_tile(t.src, buf)) return 1;
                bytes += buf.size();
            }
            std::vector<double> ours_s, detour_s, ratio, mset_ms;
            size_t sink = 0;
            for (int r = 0; r < reps + 2; ++r) {  // two warm-up passes
                double to = 0, td = 0;
                for (int side = 0; side < 2; ++side) {
                    const bool do_ours = (side == 0) == (r % 2 == 0);
                    const auto t0 = Clock::now();
                    if (do_ours) {
                        for (const TileInput& t : in) {
                            (void)nav::write_detour_tile(t.src, buf);
                            sink += buf[0];
                        }
                        to = seconds_since(t0);
                    } else {
                        for (const TileInput& t : in) {
                            dtNavMeshCreateParams p = navdiff::detour_create_params(t.src);
                            unsigned char* data = nullptr;
                            int size = 0;
                            if (!dtCreateNavMeshData(&p, &data, &size)) return 1;
                            sink += data[0];
                            dtFree(data);
                        }
                        td = seconds_since(t0);
                    }
                }
                const auto t1 = Clock::now();
                nav::DetourMeshFile f;
                std::vector<uint8_t> file;
                if (!nav::make_detour_mesh(*b, f)) return 1;
                nav::write_mset(f, file);
                sink += file.size();
                if (r < 2) continue;
                mset_ms.push_back(1e3 * seconds_since(t1));
                ours_s.push_back(to);
                detour_s.push_back(td);
                ratio.push_back(td / to);
            }
            const double mb = static_cast<double>(bytes) / 1e6;
            std::printf("| %s | %d | %zu | %zu | %.0f | %.0f | %.2f | %.3f |\n",
                        path.substr(path.find_last_of('/') + 1).c_str(), ts, in.size(), bytes, mb / median(ours_s),
                        mb / median(detour_s), median(ratio), median(mset_ms));
            if (sink == 42) std::printf(" ");  // keeps the writes observable
        }
    }
    return 0;
}
