// agentbench: agent types (issue 35). For 1, 3 and 6 agent types: the bake time, the peak memory
// and the polygon count of one bake serving every type, beside the sum over one bake per type, as
// ratios to a single-type bake, with Recast's single-type bake (watershed, solo, as RecastDemo's
// Sample_SoloMesh) in the same run. Each bake runs in a child process of its own (fork), so its
// peak RSS (wait4's ru_maxrss) is its own: the mesh loaded, the bake, the navmesh.
// Usage: agentbench [--reps N] [--tile-size N] MESH.obj...   (markdown on stdout; tests/bench/run_agents.sh)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/runtime/islands.h"
#include "diff/recast_ref.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Measured {
    double ms = 0;       // median bake time
    double rss_mib = 0;  // peak RSS of the process that baked
    double polys = 0;    // polygons of the navmesh
    bool ok = false;
};

nav::AgentType type(const char* name, float r, float h) {
    nav::AgentType t;
    t.name = name;
    t.radius = r;
    t.height = h;
    return t;
}

const std::vector<nav::AgentType> kTypes6 = {type("r0.3", 0.3f, 1.6f),  type("r0.45", 0.45f, 1.8f), type("r0.6", 0.6f, 2.0f),
                                             type("r0.9", 0.9f, 2.4f), type("r1.2", 1.2f, 3.0f),   type("r1.5", 1.5f, 3.5f)};
const std::vector<nav::AgentType> kTypes3 = {kTypes6[0], kTypes6[2], kTypes6[4]};

// Runs fn (which fills ms and polys) in a child process; the parent adds the child's peak RSS.
template <class F>
Measured in_child(F fn) {
    int fd[2];
    if (pipe(fd) != 0) return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        Measured m = fn();
        const ssize_t w = write(fd[1], &m, sizeof m);
        _exit(w == static_cast<ssize_t>(sizeof m) ? 0 : 1);
    }
    close(fd[1]);
    Measured m;
    const ssize_t r = read(fd[0], &m, sizeof m);
    close(fd[0]);
    int status = 0;
    rusage ru{};
    if (wait4(pid, &status, 0, &ru) < 0 || r != static_cast<ssize_t>(sizeof m) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return {};
    m.rss_mib = double(ru.ru_maxrss) / 1024.0;
    return m;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Our bake of `types` (empty: the agent_* parameters as given), --reps times, each in a new Pipeline.
Measured ours(const std::string& path, const std::vector<nav::AgentType>& types, const nav::Params& params, int reps) {
    return in_child([&] {
        Measured m;
        nav::InputMesh mesh;
        if (!nav::load_obj(path, mesh)) return m;
        std::vector<double> ms;
        for (int r = 0; r < reps; ++r) {
            nav::Pipeline p;
            nav::BakeInputs in;
            in.params = params;
            in.agent_types = types;
            if (!p.set_mesh(mesh) || !p.set_inputs(in)) return m;
            const auto t0 = Clock::now();
            if (!p.run()) return m;
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            const auto b = p.snapshot();
            if (!b || !b->navmesh) return m;
            m.polys = b->navmesh->npolys;
        }
        m.ms = median(ms);
        m.ok = true;
        return m;
    });
}

// One bake per type, each at that type's agent_* parameters: the times, memories and polygons summed.
Measured separate(const std::string& path, const std::vector<nav::AgentType>& types, const nav::Params& base, int reps) {
    Measured sum;
    sum.ok = true;
    for (const nav::AgentType& t : types) {
        nav::Params p = base;
        if (!p.set(nav::ParamId::agent_radius, t.radius) || !p.set(nav::ParamId::agent_height, t.height)) return {};
        const Measured m = ours(path, {}, p, reps);
        if (!m.ok) return {};
        sum.ms += m.ms, sum.rss_mib += m.rss_mib, sum.polys += m.polys;
    }
    return sum;
}

Measured recast(const std::string& path, const nav::Params& params, int reps) {
    return in_child([&] {
        Measured m;
        nav::InputMesh mesh;
        if (!nav::load_obj(path, mesh)) return m;
        const nav::BakeConfig cfg = nav::derive_config(params, mesh.bmin, mesh.bmax);
        std::vector<double> ms;
        for (int r = 0; r < reps; ++r) {
            navdiff::RecastVoxels rv;
            const auto t0 = Clock::now();
            const navdiff::VoxelRun run = navdiff::run_recast(mesh, cfg, rv, navdiff::partition_bit(nav::Partition::Watershed));
            ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (!run.error.empty()) return m;
            const int w = static_cast<int>(nav::Partition::Watershed);
            m.polys = rv.pmesh[w] ? rv.pmesh[w]->npolys : 0;
        }
        m.ms = median(ms);
        m.ok = true;
        return m;
    });
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 5, tile_size = 0;
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--tile-size" && i + 1 < argc) tile_size = std::max(0, std::atoi(argv[++i]));
        else meshes.push_back(a);
    }
    if (meshes.empty()) {
        std::fprintf(stderr, "usage: agentbench [--reps N] [--tile-size N] MESH.obj...\n");
        return 2;
    }
    nav::Params params;
    if (!params.set(nav::ParamId::tile_size, tile_size)) return 2;
    std::printf("Agent types, %s, median of %d bakes each in a fresh pipeline; ratios to the single-type bake.\n\n",
                tile_size ? ("tiled (tile_size " + std::to_string(tile_size) + ")").c_str() : "solo", reps);
    std::printf("| mesh | types | one bake ms | separate ms | one / single | separate / single | one bake MiB | separate MiB "
                "| MiB one / single | polys one | polys separate | polys one / single | Recast 1 type ms |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    int rc = 0;
    for (const std::string& path : meshes) {
        const std::string name = path.substr(path.find_last_of('/') + 1);
        nav::Params single = params;  // the single type: the middle one of the three
        if (!single.set(nav::ParamId::agent_radius, kTypes3[1].radius) || !single.set(nav::ParamId::agent_height, kTypes3[1].height))
            return 2;
        const Measured one = ours(path, {}, single, reps);
        const Measured rc1 = recast(path, single, reps);
        if (!one.ok || !rc1.ok) {
            std::fprintf(stderr, "agentbench: %s: the single-type bake failed\n", path.c_str());
            rc = 1;
            continue;
        }
        std::printf("| %s | 1 | %.1f | %.1f | 1.00 | 1.00 | %.0f | %.0f | 1.00 | %.0f | %.0f | 1.00 | %.1f |\n", name.c_str(),
                    one.ms, one.ms, one.rss_mib, one.rss_mib, one.polys, one.polys, rc1.ms);
        for (const auto* types : {&kTypes3, &kTypes6}) {
            const Measured sh = ours(path, *types, params, reps);
            const Measured sep = separate(path, *types, params, reps);
            if (!sh.ok || !sep.ok) {
                std::fprintf(stderr, "agentbench: %s: a bake of %zu types failed\n", path.c_str(), types->size());
                rc = 1;
                continue;
            }
            std::printf("| %s | %zu | %.1f | %.1f | %.2f | %.2f | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f | %.1f |\n", name.c_str(),
                        types->size(), sh.ms, sep.ms, sh.ms / one.ms, sep.ms / one.ms, sh.rss_mib, sep.rss_mib,
                        sh.rss_mib / one.rss_mib, sh.polys, sep.polys, sh.polys / one.polys, rc1.ms);
        }
    }
    return rc;
}
