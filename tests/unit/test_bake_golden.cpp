// Bakes byte-identical to a recorded state (issue 24: speed work must not change a single output
// byte). For each shared mesh, each region partition, solo and tiled (tile sizes 32 and 64, 1 and 2
// bake threads), a 64-bit FNV-1a hash over every stage's result is compared with the value recorded
// at commit c43de16, before the speed work. Hashed: the solid and filtered heightfields walked
// column by column (span order in the pool is an implementation detail, the columns are the result),
// the compact heightfield, eroded and marked areas, distance field, regions, raw and simplified
// contours, polygon mesh, detail mesh and the runtime polygons (solo); per tile the polygon mesh,
// detail mesh and runtime tile (tiled: the bake keeps only these). The landmark tables are not
// hashed: they are a query accelerator, checked by the ALT tests instead.
//
// A change that is meant to alter the output updates the table below and says why in its commit.
// Set NAV_GOLDEN_PRINT=1 to print the current values in the table's format.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "test_scenes.h"

namespace {

struct Fnv {
    uint64_t h = 1469598103934665603ull;
    void bytes(const void* p, size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i) {
            h ^= b[i];
            h *= 1099511628211ull;
        }
    }
    template <class T>
    void pod(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    template <class T>
    void vec(const std::vector<T>& v) {
        const uint64_t n = v.size();
        pod(n);
        if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
    }
};

void hash_hf(Fnv& f, const nav::Heightfield* hf) {
    if (!hf) return f.pod(uint32_t{0xdead});
    f.pod(hf->width);
    f.pod(hf->height);
    for (size_t c = 0; c < hf->columns.size(); ++c)
        for (uint32_t i = hf->columns[c]; i != nav::kNullSpan; i = hf->pool[i].next) {
            const nav::Span& s = hf->pool[i];
            f.pod(static_cast<uint32_t>(c));
            f.pod(s.smin);
            f.pod(s.smax);
            f.pod(s.area);
            f.pod(s.filtered_by);
        }
}

void hash_chf(Fnv& f, const nav::CompactHeightfield* c) {
    if (!c) return f.pod(uint32_t{0xdead});
    f.pod(c->width);
    f.pod(c->height);
    for (const nav::CompactCell& cell : c->cells) {
        f.pod(cell.index);
        f.pod(cell.count);
    }
    for (const nav::CompactSpan& s : c->spans) {
        f.pod(s.y);
        f.pod(s.h);
        f.pod(s.con);
    }
    f.vec(c->areas);
}

void hash_poly(Fnv& f, const nav::PolyMesh* pm) {
    if (!pm) return f.pod(uint32_t{0xdead});
    f.vec(pm->verts);
    f.vec(pm->polys);
    f.vec(pm->regs);
    f.vec(pm->flags);
    f.vec(pm->areas);
    f.pod(pm->nverts);
    f.pod(pm->npolys);
}

void hash_detail(Fnv& f, const nav::PolyMeshDetail* d) {
    if (!d) return f.pod(uint32_t{0xdead});
    f.vec(d->meshes);
    f.vec(d->verts);
    f.vec(d->tris);
}

void hash_tile(Fnv& f, const nav::NavTile* t) {
    if (!t) return f.pod(uint32_t{0xdead});
    f.pod(t->x);
    f.pod(t->z);
    f.bytes(t->bmin, sizeof t->bmin);
    f.bytes(t->bmax, sizeof t->bmax);
    f.vec(t->verts);
    f.vec(t->poly_first);
    f.vec(t->edge_vert);
    f.vec(t->edge_nei);
    f.vec(t->areas);
    f.vec(t->flags);
    f.vec(t->detail_first);
    f.vec(t->detail_tris);
}

uint64_t hash_bake(const nav::Bake& b) {
    Fnv f;
    if (!b.tiled()) {
        hash_hf(f, b.solid.get());
        hash_hf(f, b.filtered.get());
        hash_chf(f, b.compact.get());
        if (b.eroded) f.vec(*b.eroded);
        if (b.areas) f.vec(*b.areas);
        if (b.distance) f.vec(b.distance->dist);
        if (b.regions) f.vec(b.regions->reg);
        if (b.contours) {
            f.vec(b.contours->verts);
            f.vec(b.contours->raw_verts);
        }
        hash_poly(f, b.polymesh.get());
        hash_detail(f, b.detail.get());
    } else {
        for (const auto& t : b.tiles) {
            if (!t) {
                f.pod(uint32_t{0xbeef});
                continue;
            }
            hash_poly(f, t->polymesh.get());
            hash_detail(f, t->detail.get());
            hash_tile(f, t->tile.get());
        }
    }
    if (b.navmesh) {
        const nav::NavMesh& m = *b.navmesh;
        f.vec(m.verts);
        f.vec(m.poly_first);
        f.vec(m.edge_vert);
        f.vec(m.edge_nei);
        f.vec(m.areas);
        f.vec(m.flags);
        f.vec(m.dtris);
    }
    return f.h;
}

struct Golden {
    const char* mesh;
    int partition;  // nav::Partition
    int tile_size;
    uint64_t hash;
};

// Recorded at c43de16 (before the issue 24 speed work). Tiled values hold for 1 and 2 threads.
constexpr Golden kGolden[] = {
#include "test_bake_golden.inc"
};

}  // namespace

TEST_CASE("golden: bakes are byte-identical to the recorded ones (solo, tiled 32 and 64, 1 and 2 threads)") {
    const bool print = std::getenv("NAV_GOLDEN_PRINT") != nullptr;
    for (const char* name : {"dungeon", "nav_test", "undulating"}) {
        const std::string path = navtest::shared_mesh_or_skip(std::string(name) + ".obj");
        if (path.empty()) continue;
        for (int part = 0; part < 3; ++part)
            for (int ts : {0, 32, 64})
                for (int threads : {1, 2}) {
                    if (ts == 0 && threads == 2) continue;
                    nav::PipelineDef def = nav::default_pipeline_def();
                    def.keep_intermediates = ts == 0;  // solo: every stage hashed
                    nav::Pipeline pipe(def);
                    REQUIRE(pipe.load_mesh(path));
                    REQUIRE(pipe.set_param(nav::ParamId::partition, part));
                    REQUIRE(pipe.set_param(nav::ParamId::tile_size, ts));
                    REQUIRE(pipe.set_param(nav::ParamId::threads, threads));
                    REQUIRE(pipe.run());
                    const uint64_t h = hash_bake(*pipe.snapshot());
                    if (print && threads == 1)
                        std::printf("    {\"%s\", %d, %d, 0x%016llxull},\n", name, part, ts,
                                    static_cast<unsigned long long>(h));
                    bool found = false;
                    for (const Golden& g : kGolden)
                        if (std::strcmp(g.mesh, name) == 0 && g.partition == part && g.tile_size == ts) {
                            found = true;
                            INFO(name << " partition " << part << " tile_size " << ts << " threads " << threads);
                            CHECK(h == g.hash);
                        }
                    if (!print) CHECK(found);
                }
    }
}
