#include "core/pipeline/pipeline.h"

#include "core/formats/level_import.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <new>

#include <oneapi/tbb/info.h>

#include "core/pipeline/pipeline_impl.h"
#include "core/pipeline/voxel_values.h"

namespace nav {

namespace {

double polymesh_area(const PolyMesh& pm) {
    double area = 0.0;
    for (int i = 0; i < pm.npolys; ++i) {
        const uint16_t* p = pm.poly(i);
        const int n = pm.poly_vert_count(i);
        double a2 = 0.0;  // shoelace in voxel units
        for (int k = 0; k < n; ++k) {
            const uint16_t* va = &pm.verts[static_cast<size_t>(p[k]) * 3];
            const uint16_t* vb = &pm.verts[static_cast<size_t>(p[(k + 1) % n]) * 3];
            a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
        }
        area += std::abs(a2) * 0.5;
    }
    return area * static_cast<double>(pm.cs) * static_cast<double>(pm.cs);
}

}  // namespace

// ---- Bake ---------------------------------------------------------------------------------------

int64_t TileBake::count(std::string_view name) const {
    for (const StageStats& s : stats)
        for (const StageCount& c : s.counts)
            if (c.name == name) return c.value;
    return 0;
}


Bake tile_view(const Bake& b, const TileBake& t) {
    Bake v;
    static_cast<StageResults<true>&>(v) = static_cast<const StageResults<true>&>(t);
    v.mesh = b.mesh;
    v.inputs = b.inputs;
    v.config = t.config;
    v.generation = b.generation;
    v.stats = t.stats;
    v.built_through = t.built_through;
    return v;
}

void Bake::drop_after(int stage) {
    drop_results_after(*this, stage);
    if (stage < static_cast<int>(Stage::Navmesh)) auto_links.reset();
    for (auto& t : tiles) {
        if (!t || t->built_through <= stage) continue;
        auto trimmed = std::make_shared<TileBake>(*t);
        drop_results_after(*trimmed, stage);
        if (trimmed->contours || stage < static_cast<int>(Stage::Contours))  // the warnings of what is left
            trimmed->warnings = stage_warnings(*trimmed, "tile " + std::to_string(t->tx) + "," + std::to_string(t->tz) + ": ");
        trimmed->built_through = stage;
        t = std::move(trimmed);
    }
    built_through = std::min(built_through, stage);
}

int64_t Bake::count(std::string_view name) const {
    for (const StageStats& s : stats)
        for (const StageCount& c : s.counts)
            if (c.name == name) return c.value;
    return 0;
}

double Bake::walkable_area() const {
    double a = polymesh ? polymesh_area(*polymesh) : 0.0;
    for (const auto& t : tiles)
        if (t && t->polymesh) a += polymesh_area(*t->polymesh);
    return a;
}

std::vector<std::string> Bake::warnings() const {
    std::vector<std::string> w = stage_warnings(*this, "");
    // A tile's warnings were taken when it finished baking: a lean bake drops its contours right after.
    for (const auto& t : tiles)
        if (t) w.insert(w.end(), t->warnings.begin(), t->warnings.end());
    return w;
}

// ---- Pipeline -----------------------------------------------------------------------------------

PipelineDef default_pipeline_def() { return PipelineDef{}; }

Pipeline::Pipeline(PipelineDef def) : impl_(std::make_unique<Impl>()) {
    impl_->def = std::move(def);
    impl_->snap = std::make_shared<Bake>();
}
Pipeline::~Pipeline() = default;

const PipelineDef& Pipeline::def() const { return impl_->def; }

bool Pipeline::has_mesh() const { return impl_->mesh != nullptr; }

Status Pipeline::load_mesh(const std::string& path) {
    InputMesh m;
    if (Status st = load_level(path, m); !st) return st;  // OBJ, or a format assimp reads
    return set_mesh(std::move(m));
}

Status Pipeline::set_mesh(InputMesh mesh) {
    if (Status st = validate_mesh(mesh, mesh.path.empty() ? std::string("mesh") : mesh.path); !st) return st;
    mesh.compute_bounds();
    impl_->source = std::make_shared<const InputMesh>(std::move(mesh));
    impl_->refresh_mesh();
    mark_dirty(Stage::Input);
    return Status::ok();
}

MeshFix mesh_fix(const Params& p) {
    MeshFix f;
    f.scale = p.f(ParamId::mesh_scale);
    f.z_up = p.b(ParamId::mesh_z_up);
    f.flip_winding = p.b(ParamId::mesh_flip_winding);
    return f;
}

void Pipeline::Impl::refresh_mesh() {
    Impl& I = *this;
    if (!I.source) return;
    const MeshFix fix = mesh_fix(I.in.params);
    if (fix.identity()) {
        I.mesh = I.source;
        return;
    }
    // a fresh copy each time: a published snapshot may still hold the previous one
    auto m = std::make_shared<InputMesh>();
    apply_mesh_fix(*I.source, fix, *m);
    I.mesh = std::move(m);
}

Status Pipeline::set_param(ParamId id, double value) {
    Params p = impl_->in.params;
    if (Status st = p.set(id, value); !st) return st;
    return set_input(&BakeInputs::params, std::move(p));
}

Status Pipeline::set_param(std::string_view name, std::string_view value) {
    Params p = impl_->in.params;
    if (Status st = p.set_from_string(name, value); !st) return st;
    return set_input(&BakeInputs::params, std::move(p));
}

const BakeInputs& Pipeline::inputs() const { return impl_->in; }

namespace {

// derive_config and what the agent types add: a tile border wide enough for the largest radius
// (its erosion must see as far past the tile's edge as a bake at that radius would).
BakeConfig bake_config(const BakeInputs& in, const float* bmin, const float* bmax) {
    BakeConfig c = derive_config(in.params, bmin, bmax);
    for (const AgentType& t : in.agent_types)
        c.clearance_radius = std::max(c.clearance_radius, static_cast<int>(std::ceil(t.radius / c.cs)));
    return c;
}

// The inputs set_inputs refuses: a manual link check_offmesh_link refuses, a prune point not finite
// or beyond +-1e6 m, agent types validate_agent_types refuses.
Status validate_inputs(const BakeInputs& in) {
    if (Status st = validate_agent_types(in.agent_types, in.params); !st) return st;
    for (size_t i = 0; i < in.links.size(); ++i)
        if (Status st = check_offmesh_link(in.links[i], "links[" + std::to_string(i) + "]"); !st) return st;
    if (in.prune)
        for (float v : *in.prune)
            if (!(std::fabs(v) <= kMaxCoordinate))
                return Status::bad_input("prune: the point must be 3 finite numbers within +-1e6 m");
    return Status::ok();
}

// The xz boxes of the volumes in one list and not the other (tiled bakes re-bake the tiles under
// them); every volume's when the same volumes come in another order (later volumes win, so every
// tile under two of them may change).
std::vector<std::array<float, 4>> changed_volume_boxes(const std::vector<ConvexVolume>& was, const std::vector<ConvexVolume>& now) {
    std::vector<const ConvexVolume*> changed;
    for (const ConvexVolume& v : was)
        if (std::find(now.begin(), now.end(), v) == now.end()) changed.push_back(&v);
    for (const ConvexVolume& v : now)
        if (std::find(was.begin(), was.end(), v) == was.end()) changed.push_back(&v);
    if (changed.empty() && now != was)
        for (const ConvexVolume& v : now) changed.push_back(&v);
    std::vector<std::array<float, 4>> boxes;
    for (const ConvexVolume* v : changed) {
        std::array<float, 4> b{1e30f, 1e30f, -1e30f, -1e30f};
        for (size_t k = 0; k + 2 < v->verts.size(); k += 3) {
            b[0] = std::min(b[0], v->verts[k]);
            b[2] = std::max(b[2], v->verts[k]);
            b[1] = std::min(b[1], v->verts[k + 2]);
            b[3] = std::max(b[3], v->verts[k + 2]);
        }
        boxes.push_back(b);
    }
    return boxes;
}

// The xz boxes (grown by agent_radius) of the obstacles in one list and not the other: obstacles
// only clear spans and clearing is order-free, so only the added, removed or moved ones matter, at
// their old and their new place.
std::vector<std::array<float, 4>> changed_obstacle_boxes(const std::vector<Obstacle>& was, const std::vector<Obstacle>& now,
                                                         float agent_radius) {
    std::vector<std::array<float, 4>> boxes;
    auto add = [&](const Obstacle& o) {
        std::array<float, 4> b;
        float y0, y1;
        obstacle_bounds(o, agent_radius, b.data(), &y0, &y1);
        boxes.push_back(b);
    };
    for (const Obstacle& o : was)
        if (std::find(now.begin(), now.end(), o) == now.end()) add(o);
    for (const Obstacle& o : now)
        if (std::find(was.begin(), was.end(), o) == was.end()) add(o);
    return boxes;
}

}  // namespace

Status Pipeline::set_inputs(const BakeInputs& next) {
    if (Status st = validate_inputs(next); !st) return st;
    Impl& I = *impl_;
    // Every field by name: a field added to BakeInputs makes this binding fail to compile until the
    // diff below handles it (and the count here is raised).
    const auto& [params, volumes, areas, obstacles, links, prune, agent_types] = next;
    // The agent_* parameters follow the types' base type: a stale value is corrected, not baked.
    Params base = params;
    apply_agent_types(agent_types, base);
    I.set_params(base);
    // The types beyond the base: the areas stage marks which fit where (every tile).
    if (agent_types != I.in.agent_types) {
        mark_dirty(kEditStage);
        I.in.agent_types = agent_types;
    }
    // Volumes and obstacles: the areas stage onward (solo), or the tiles under what changed.
    if (volumes != I.in.volumes) {
        if (I.tiles.empty()) mark_dirty(kEditStage);
        else I.dirty_tiles_in(changed_volume_boxes(I.in.volumes, volumes));
        I.in.volumes = volumes;
    }
    if (obstacles != I.in.obstacles) {
        if (I.tiles.empty()) mark_dirty(kEditStage);
        else I.dirty_tiles_in(changed_obstacle_boxes(I.in.obstacles, obstacles, I.in.params.f(ParamId::agent_radius)));
        I.in.obstacles = obstacles;
    }
    // Areas: only the tiles' last step reads the flags; names, colours and costs change no result.
    const AreaFlagTable flags = areas.flag_table();
    if (flags != I.area_flags) {
        I.area_flags = flags;
        mark_dirty(Stage::Navmesh);
    }
    I.in.areas = areas;
    // Links: the next run relinks the navmesh; prune: it prunes again. Neither re-bakes a tile.
    if (links != I.in.links) {
        I.links_changed = true;
        I.in.links = links;
    }
    if (prune != I.in.prune) {
        I.prune_changed = true;
        I.in.prune = prune;
    }
    return Status::ok();
}

void Pipeline::Impl::set_params(const Params& p) {
    // A change of such parameters that leaves every derived voxel value equal (agent_radius 0.6 ->
    // 0.5 m at 0.3 m cells: 2 cells either way) dirties nothing; the next run re-runs no stage.
    const bool same_voxels = mesh && same_voxel_values(derive_config(in.params, mesh->bmin, mesh->bmax),
                                                       derive_config(p, mesh->bmin, mesh->bmax));
    for (const ParamDef& d : param_table())
        if (!dirties_no_stage(d.id) && p.get(d.id) != in.params.get(d.id) && !(same_voxels && rounded_to_voxels(d.voxel)))
            mark_dirty(d.stage);  // threads, path_mode: same bake
    const bool refix = !(mesh_fix(p) == mesh_fix(in.params));
    in.params = p;
    if (refix) refresh_mesh();
}

void Pipeline::Impl::relink_current() {
    Impl& I = *this;
    if (!I.links_changed) return;
    const bool tiled = I.config.tile_size > 0;
    if (!tiled) {
        // A navmesh the stage built in this run took I.in.links already; one not built yet will.
        if (!I.solo.navmesh || I.solo.dirty_from <= static_cast<int>(Stage::Navmesh)) return;
        I.links_changed = false;
        if (std::find(I.stages_run.begin(), I.stages_run.end(), Stage::Navmesh) != I.stages_run.end()) return;
        // A new navmesh object (a snapshot still held keeps its own, and whoever caches by the
        // navmesh's identity sees the change): a copy, sharing every tile, relinked.
        I.solo.navmesh = std::make_shared<NavMesh>(*I.solo.navmesh);
        I.prune_stale = true;
        const Status st = link_all(*I.solo.navmesh, I.in.links, I.solo.auto_links.get(),
                                   I.solo.stats[static_cast<size_t>(Stage::Navmesh)].counts);
        (void)st;  // set_inputs validated every link: relinking cannot fail
        return;
    }
    if (!I.tiled_navmesh) return;
    I.links_changed = false;
    const auto t0 = clock_type::now();
    auto nm = std::make_shared<NavMesh>(*I.tiled_navmesh);  // the tiles are shared, not copied
    const Status st = link_all(*nm, I.in.links, I.tiled_links.get(), I.assembly.counts);
    (void)st;  // set_inputs validated every link
    I.assembly.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    I.tiled_navmesh = std::move(nm);
    I.prune_stale = true;
}

void Pipeline::Impl::publish_prune(Bake& b) {
    Impl& I = *this;
    const std::weak_ptr<const NavMesh>& src = I.prune_src;
    const bool same_src = !src.owner_before(b.navmesh) && !b.navmesh.owner_before(src) && (b.navmesh || !src.expired());
    const bool rebuilt = std::find(I.stages_run.begin(), I.stages_run.end(), Stage::Navmesh) != I.stages_run.end();
    if (I.prune_changed || I.prune_stale || rebuilt || !same_src) {
        I.prune_src = b.navmesh;
        I.prune_stale = false;
        I.prune_changed = false;
        std::shared_ptr<const NavMesh> out = prune_at(b.navmesh, I.in.prune, I.prune);
        I.pruned = I.prune.applied ? std::move(out) : nullptr;
    }
    b.prune = I.prune;
    if (I.pruned) b.navmesh = I.pruned;
}

void Pipeline::Impl::dirty_tiles_in(const std::vector<std::array<float, 4>>& boxes) {
    for (auto& t : tiles) {
        const BakeConfig& c = t->config;
        for (const std::array<float, 4>& b : boxes) {
            if (b[2] < c.bmin[0] || b[0] > c.bmax[0] || b[3] < c.bmin[2] || b[1] > c.bmax[2]) continue;
            t->dirty_from = std::min(t->dirty_from, static_cast<int>(kEditStage));
            for (int k = t->dirty_from; k < kStageCount; ++k) t->stats[static_cast<size_t>(k)].built = false;
            t->stats_changed = true;
            break;
        }
    }
}

void Pipeline::set_record_region_trace(bool on) {
    Impl& I = *impl_;
    if (on == I.def.record_region_trace) return;
    I.def.record_region_trace = on;
    mark_dirty(Stage::Regions);
}

void Pipeline::set_focus(float x, float z) {
    impl_->focus[0] = x;
    impl_->focus[1] = z;
}

void Pipeline::mark_dirty(Stage from) { impl_->mark_dirty(from); }

void Pipeline::Impl::mark_dirty(Stage from) {
    Impl& I = *this;
    const int s = static_cast<int>(from);
    auto lower = [](Unit& u, int first) {
        if (first < u.dirty_from) u.dirty_from = first;
        for (int k = u.dirty_from; k < kStageCount; ++k) u.stats[static_cast<size_t>(k)].built = false;
        u.stats_changed = true;
    };
    lower(I.solo, s);
    // A tile's stages start at rasterize: the input stage reads the whole mesh and runs once, on
    // the solo unit (run per tile it repeated the whole mesh's work once for every tile).
    for (auto& t : I.tiles) lower(*t, std::max(s, static_cast<int>(Stage::Rasterize)));
}

bool Pipeline::mark_tile_dirty(int tx, int tz, Stage from) {
    Impl& I = *impl_;
    const int s = std::max(static_cast<int>(from), static_cast<int>(Stage::Rasterize));
    for (auto& t : I.tiles) {
        if (t->tx != tx || t->tz != tz) continue;
        if (t->trimmed) t->dirty_from = static_cast<int>(Stage::Rasterize);  // its inputs were dropped
        t->dirty_from = std::min(t->dirty_from, s);
        for (int k = t->dirty_from; k < kStageCount; ++k) t->stats[static_cast<size_t>(k)].built = false;
            t->stats_changed = true;
        return true;
    }
    return false;
}

bool Pipeline::corrupt_obstacle_cache_for_test(int tx, int tz, size_t offset) {
    for (auto& t : impl_->tiles)
        if (t->tx == tx && t->tz == tz && offset < t->chf_cache.size()) {
            t->chf_cache[offset] ^= 0xff;
            return true;
        }
    return false;
}

Stage Pipeline::first_dirty() const {
    const Impl& I = *impl_;
    int d = solo_start(I.solo);
    if (I.in.params.i(ParamId::tile_size) > 0 && !I.tiles.empty()) {
        // Tiled: the solo grid only does the input stage (dirty_from stays at rasterize after it);
        // every other stage is the tiles'. A change at rasterize or later marks every tile.
        if (d > static_cast<int>(Stage::Input)) d = kStageCount;
        for (const auto& t : I.tiles)
            if (t->dirty_from <= kLastTileStage) d = std::min(d, t->dirty_from);
    }
    if (I.links_changed) d = std::min(d, static_cast<int>(Stage::Navmesh));  // the relink (no tile re-bakes)
    if (I.prune_changed) d = std::min(d, static_cast<int>(Stage::Navmesh));  // the prune (no tile re-bakes)
    return static_cast<Stage>(d);
}

uint64_t Pipeline::estimate_memory() const {
    const Impl& I = *impl_;
    if (!I.mesh) return 0;
    const BakeConfig c = bake_config(I.in, I.mesh->bmin, I.mesh->bmax);
    if (c.tile_size <= 0) return estimate_bake_memory(*I.mesh, c, !I.def.keep_intermediates);
    // Tiled: the estimate the tiled bake checks against the limit (the tiles' stages, state and
    // outputs, the assembled navmesh), never the solo grid's.
    TileLayout L;
    if (!make_tile_layout(c, L)) return 0;  // no tile grid: the bake refuses it
    const int threads = c.threads > 0 ? c.threads : tbb::info::default_concurrency();
    TriangleBins bins;
    bins.build(*I.mesh, c, L);
    return estimate_tiled_memory(*I.mesh, c, L, bins, threads, I.def.keep_intermediates, nullptr, nullptr,
                                 I.def.obstacle_cache == ObstacleCache::Compressed);
}

std::shared_ptr<const Bake> Pipeline::snapshot() const {
    std::lock_guard lk(impl_->snap_mutex);
    return impl_->snap;
}


Status Pipeline::run(Stage to, const CancelFlag* cancel) {
    Impl& I = *impl_;
    I.stages_run.clear();
    I.rebaked.clear();
    Status result;
    int error_stage = -1, error_tile = -1;
    bool tiled = false;
    if (!I.mesh) {
        result = Status::bad_input("no mesh loaded");
        error_stage = 0;
    } else {
        {
            std::lock_guard lk(I.snap_mutex);
            I.snap.reset();  // our own hold must not keep stage buffers from being reused
        }
        I.config = bake_config(I.in, I.mesh->bmin, I.mesh->bmax);
        I.solo.config = I.config;
        I.solo.scratch = &I.solo_scratch;
        const InputMesh& m = *I.mesh;
        const bool lean = !I.def.keep_intermediates && I.config.tile_size <= 0;
        I.solo.dirty_from = solo_start(I.solo);
        // Rebuilt from rasterize below (re-trimmed as it goes when lean), or the tiles' bake now.
        if (I.solo.dirty_from <= kStageRasterize || I.config.tile_size > 0) I.solo.trimmed = false;
        const Ctx solo_ctx{m,      I.in.params, I.in.volumes, I.in.obstacles, I.in.links, I.in.agent_types, I.area_flags, I.solo, nullptr, false,
                           I.def.record_region_trace, I.def.memory_limit, cancel, lean};
        tiled = I.config.tile_size > 0;
        // Stages of the solo grid (all of them), or only the mesh-wide ones before the tiles.
        const int solo_to = tiled ? static_cast<int>(Stage::Input) : static_cast<int>(to);
        for (int s = I.solo.dirty_from; s <= solo_to; ++s) {
            if (is_cancelled(cancel)) {
                result = Status::cancelled();
                break;
            }
            if (I.def.progress) I.def.progress->store(s, std::memory_order_relaxed);
            const Status st = run_one(static_cast<Stage>(s), I.solo, solo_ctx);
            if (!st) {
                result = st;
                error_stage = s;
                break;
            }
            I.solo.dirty_from = s + 1;
            I.stages_run.push_back(static_cast<Stage>(s));
            if (lean) drop_consumed(I.solo, s);
        }
        if (!tiled) {
            I.tiles.clear();
            I.bins_current = false;
            if (result) I.relink_current();
        } else if (result && static_cast<int>(to) >= static_cast<int>(Stage::Rasterize)) {
            result = I.run_tiles(to, cancel, error_stage, error_tile);
            if (result && to == Stage::Navmesh) result = I.assemble_navmesh(error_stage);
        }
        if (!tiled) I.tiled_navmesh.reset(), I.navmesh_spare.reset();
    }

    auto b = std::make_shared<Bake>();
    b->generation = ++I.generation;
    b->inputs = I.in;
    b->config = I.config;
    b->area_flags = I.area_flags;
    b->stats = I.solo.stats;
    b->error = result;
    b->error_stage = error_stage;
    b->error_tile = error_tile;
    b->stages_run = I.stages_run;
    b->mesh = I.mesh;
    b->tri_areas = I.solo.tri_areas;
    if (!tiled) {
        b->built_through = I.solo.dirty_from - 1;
        copy_results(*b, I.solo, I.def.record_region_trace);
        b->drop_after(b->built_through);  // results past the last current stage are stale
        if (b->navmesh) b->auto_links = I.solo.auto_links;
    } else {
        b->layout = I.layout;
        b->built_through = std::min(I.solo.dirty_from - 1, static_cast<int>(Stage::Input));
        if (!I.tiles.empty() && b->built_through >= static_cast<int>(Stage::Input)) {
            int through = kLastTileStage;
            for (const auto& t : I.tiles) through = std::min(through, t->dirty_from - 1);
            b->built_through = through;
        }
        I.stats_blocks.aggregate(I.tiles, I.config, I.layout, b->stats);
        const bool assembled = I.tiled_navmesh && !I.tiles.empty() && b->built_through >= static_cast<int>(Stage::Navmesh);
        StageStats& ns = b->stats[static_cast<size_t>(Stage::Navmesh)];
        if (assembled) {
            b->navmesh = I.tiled_navmesh;
            b->auto_links = I.tiled_links;
            ns.ms += I.assembly.ms;
            for (const StageCount& k : I.assembly.counts) ns.counts.push_back(k);
        } else {
            ns.built = false;  // the navmesh stage's whole-mesh step (the assembly) has not run
            b->built_through = std::min(b->built_through, kLastTileStage - 1);
        }
        std::lock_guard lk(I.snap_mutex);
        for (auto& t : I.tiles) {
            if (!t->published && t->dirty_from > static_cast<int>(Stage::Rasterize))
                t->published = publish_tile(*t, I.def.record_region_trace);
            b->tiles.push_back(t->published);
            b->tiles_done += t->dirty_from > kLastTileStage;
        }
        b->tiles_rebaked = I.rebaked;
    }
    I.publish_prune(*b);
    std::lock_guard lk(I.snap_mutex);
    I.snap = std::move(b);
    return result;
}

bool Pipeline::complete_landmarks(const CancelFlag* cancel) {
    const std::shared_ptr<const Bake> b = snapshot();
    return !b || !b->navmesh || nav::complete_landmarks(*b->navmesh, cancel);
}

Status Pipeline::Impl::assemble_navmesh(int& error_stage) {
    Impl& I = *this;
    bool all = !I.tiles.empty(), changed = !I.tiled_navmesh || !I.rebaked.empty();
    std::vector<std::shared_ptr<const NavTile>> tiles;
    for (const auto& t : I.tiles) {
        all = all && t->dirty_from > kLastTileStage && t->tile;
        if (t->tile && t->tile->npolys() > 0) tiles.push_back(t->tile);
    }
    if (!all) return Status::ok();  // some tile is not baked (a bake of chosen tiles): no navmesh
    if (!changed) {
        relink_current();  // only the manual links changed, if anything
        return Status::ok();
    }
    const auto t0 = clock_type::now();
    // Only we hold the spare: nothing reads it, so it may be written (it was made mutable).
    auto nm = sole_owner(I.navmesh_spare) ? std::const_pointer_cast<NavMesh>(std::move(I.navmesh_spare)) : std::make_shared<NavMesh>();
    I.navmesh_spare.reset();
    Status st;
    try {
        st = build_navmesh(tiles, I.tiled_navmesh.get(), *nm, {}, I.def.defer_landmarks);
    } catch (const std::bad_alloc&) {
        st = out_of_memory("navmesh assembly", true);
    }
    I.assembly.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    if (!st) {
        error_stage = static_cast<int>(Stage::Navmesh);
        I.tiled_navmesh.reset();
        return st;
    }
    I.assembly.counts = {{"navmesh_polys", nm->npolys}, {"islands", nm->nislands}};
    try {
        st = make_auto_links(*nm, *I.mesh, I.in.params, I.in.links, I.tiled_links, I.tiled_links_spare, I.assembly.counts, nullptr);
    } catch (const std::bad_alloc&) {
        st = out_of_memory("automatic links", true);
    }
    I.assembly.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    if (!st) {
        error_stage = static_cast<int>(Stage::Navmesh);
        I.tiled_navmesh.reset();
        I.tiled_links.reset();
        return st;
    }
    I.navmesh_spare = std::move(I.tiled_navmesh);
    I.tiled_navmesh = std::move(nm);
    I.links_changed = false;  // the assembly linked I.in.links
    if (std::find(I.stages_run.begin(), I.stages_run.end(), Stage::Navmesh) == I.stages_run.end())
        I.stages_run.push_back(Stage::Navmesh);
    return Status::ok();
}

}  // namespace nav
