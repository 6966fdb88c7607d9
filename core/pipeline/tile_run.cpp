// The tiled bake: the tiles laid out over the grid, baked in parallel nearest the focus first, each
// published as it finishes, and their per-stage stats summed.
#include "core/pipeline/pipeline_impl.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>

#include <oneapi/tbb/info.h>

#include "core/pipeline/chf_cache.h"

namespace nav {

namespace {

// Counts of one stage summed over tiles (max_* counts: the maximum).
// Every tile lists a stage's counts in the same order under the same literals: try the count at
// the same position, by pointer, before searching by name (this runs tiles x stages times per run).
void add_counts(std::vector<StageCount>& into, const std::vector<StageCount>& from) {
    for (size_t i = 0; i < from.size(); ++i) {
        const StageCount& c = from[i];
        auto it = i < into.size() && into[i].name.data() == c.name.data() && into[i].name.size() == c.name.size()
                      ? into.begin() + static_cast<ptrdiff_t>(i)
                      : std::find_if(into.begin(), into.end(), [&](const StageCount& k) { return k.name == c.name; });
        if (it == into.end()) into.push_back(c);
        else if (c.name.starts_with("max_")) it->value = std::max(it->value, c.value);
        else it->value += c.value;
    }
}

// Adds the tile stages' stats of `from` into `into`: built when both are, ms and counts summed.
void add_stats(std::array<StageStats, kStageCount>& into, const std::array<StageStats, kStageCount>& from) {
    for (int s = kFirstTileStage; s < kStageCount; ++s) {
        StageStats& st = into[static_cast<size_t>(s)];
        const StageStats& ts = from[static_cast<size_t>(s)];
        st.built = st.built && ts.built;
        st.ms += ts.ms;
        add_counts(st.counts, ts.counts);
    }
}

void clear_stats(std::array<StageStats, kStageCount>& st) {
    for (int s = kFirstTileStage; s < kStageCount; ++s) st[static_cast<size_t>(s)] = StageStats{true, 0.0, {}};
}

}  // namespace

void StatsBlocks::aggregate(const std::vector<std::unique_ptr<Unit>>& tiles, const BakeConfig& c, const TileLayout& L,
                            std::array<StageStats, kStageCount>& out) {
    const size_t nb = (tiles.size() + kTiles - 1) / kTiles;
    const bool fresh = blocks.size() != nb;
    blocks.resize(nb);
    for (size_t b = 0; b < nb; ++b) {
        const size_t t0 = b * kTiles, t1 = std::min(tiles.size(), t0 + kTiles);
        bool changed = fresh;
        for (size_t t = t0; t < t1; ++t) changed = changed || tiles[t]->stats_changed;
        if (!changed) continue;
        clear_stats(blocks[b]);
        for (size_t t = t0; t < t1; ++t) {
            add_stats(blocks[b], tiles[t]->stats);
            tiles[t]->stats_changed = false;
        }
    }
    clear_stats(out);
    for (int s = kFirstTileStage; s < kStageCount; ++s) out[static_cast<size_t>(s)].built = !tiles.empty();
    out[static_cast<size_t>(kFirstTileStage)].counts = {{"grid_width", c.width}, {"grid_height", c.height}, {"tiles", L.count()}};
    for (const auto& b : blocks) add_stats(out, b);
}

std::shared_ptr<const TileBake> publish_tile(const Unit& t, bool with_trace) {
    auto tb = std::make_shared<TileBake>();
    tb->tx = t.tx;
    tb->tz = t.tz;
    tb->config = t.config;
    tb->stats = t.stats;
    tb->built_through = t.dirty_from - 1;
    tb->ms = t.ms;
    tb->warnings = t.warnings;
    copy_results(*tb, t, with_trace);
    drop_results_after(*tb, tb->built_through);
    tb->tri_areas.reset();
    tb->navmesh.reset();
    return tb;
}


// Lays out the tiles for config c (kept when the grid is the same, else made anew, dirty from
// rasterize) and gives each its current bordered config; first: the earliest dirty stage of any.
void Pipeline::Impl::lay_out_tiles(const BakeConfig& c, const TileLayout& L, bool cache_on, int& first) {
    const bool same_grid = !tiles.empty() && layout.tile_size == L.tile_size && layout.border == L.border &&
                           layout.cols == L.cols && layout.rows == L.rows && tiles_config.cs == c.cs &&
                           std::equal(c.bmin, c.bmin + 3, tiles_config.bmin) &&
                           std::equal(c.bmax, c.bmax + 3, tiles_config.bmax);
    if (!same_grid) {
        tiles.clear();
        for (int tz = 0; tz < L.rows; ++tz)
            for (int tx = 0; tx < L.cols; ++tx) {
                auto u = std::make_unique<Unit>();
                u->tx = tx;
                u->tz = tz;
                u->dirty_from = static_cast<int>(Stage::Rasterize);
                tiles.push_back(std::move(u));
            }
        layout = L;
        tiles_config = c;
        bins_current = false;
    }
    first = kStageCount;
    for (auto& t : tiles) {
        t->config = tile_config(c, L, t->tx, t->tz);  // the parameters may have changed
        // A trimmed tile keeps only polymesh, detail and its runtime tile: every stage before the
        // navmesh reads a dropped result (polymesh the contours, detail the compact heightfield and
        // regions, ...), so a change at any of them re-bakes the tile from rasterize; with its
        // obstacle cache, a change at the areas stage or later re-bakes it from there (bake_tile
        // unpacks the cache first). The cache is current whenever dirty_from is past erode: every
        // change before it lowers dirty_from, and the erode stage remakes the cache.
        if (!cache_on) {
            t->chf_cache.clear();
            t->chf_cache.shrink_to_fit();
        }
        if (t->trimmed && t->dirty_from < static_cast<int>(Stage::Navmesh))
            t->dirty_from = !t->chf_cache.empty() && t->dirty_from >= static_cast<int>(kEditStage)
                                ? static_cast<int>(kEditStage)
                                : static_cast<int>(Stage::Rasterize);
        first = std::min(first, t->dirty_from);
    }
}

// The tiles to bake through stage `last` (only those in the rectangle only[0..3] = x0, z0, x1, z1
// when only_some), nearest the focus first (ties in tile order).
std::vector<int> Pipeline::Impl::bake_order(const BakeConfig& c, const TileLayout& L, int last, bool only_some,
                                            const int* only, const float* focus) const {
    std::vector<int> order;
    for (size_t i = 0; i < tiles.size(); ++i)
        if (tiles[i]->dirty_from <= last &&
            (!only_some || (tiles[i]->tx >= only[0] && tiles[i]->tx <= only[2] && tiles[i]->tz >= only[1] &&
                            tiles[i]->tz <= only[3])))
            order.push_back(static_cast<int>(i));
    std::vector<float> dist(tiles.size(), 0.0f);
    for (int i : order) {
        float box[4];
        tile_box(c, L, tiles[static_cast<size_t>(i)]->tx, tiles[static_cast<size_t>(i)]->tz, box);
        const float dx = 0.5f * (box[0] + box[2]) - focus[0], dz = 0.5f * (box[1] + box[3]) - focus[1];
        dist[static_cast<size_t>(i)] = dx * dx + dz * dz;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return dist[static_cast<size_t>(a)] < dist[static_cast<size_t>(b)]; });
    return order;
}

// The tiled run's result from the tiles it baked, in tile order whatever order they finished in:
// the first failure that is not a cancel (naming its tile), else a cancel; the stages it ran.
Status Pipeline::Impl::collect_tile_results(int last, int& error_stage, int& error_tile) {
    Status result;
    bool ran_stage[kStageCount] = {};
    for (size_t i = 0; i < tiles.size(); ++i) {
        Unit& t = *tiles[i];
        if (!t.ran) continue;
        rebaked.push_back(static_cast<int>(i));
        if (!t.error.is_ok() && (result.is_ok() || result.code == Status::Code::Cancelled) &&
            t.error.code != Status::Code::Cancelled) {
            result = Status{t.error.code, "tile " + std::to_string(t.tx) + "," + std::to_string(t.tz) + ": " +
                                              t.error.message};
            error_stage = t.error_stage;
            error_tile = static_cast<int>(i);
        } else if (!t.error.is_ok() && result.is_ok()) {
            result = t.error;
        }
    }
    for (const auto& t : tiles)
        if (t->ran)
            for (int s = t->ran_from; s < t->dirty_from; ++s) ran_stage[s] = true;
    for (int s = static_cast<int>(Stage::Rasterize); s <= last; ++s)
        if (ran_stage[s]) stages_run.push_back(static_cast<Stage>(s));
    return result;
}

Status Pipeline::Impl::prepare_tiles(const BakeConfig& c, int threads, bool cache_on, TileLayout& L, int& error_stage) {
    const InputMesh& m = *mesh;
    // Before any per-tile state exists: the whole grid (its sides and height), the tile count and
    // what every tile holds whatever it contains (a failed check leaves no tiles behind).
    Status layout_ok = check_tile_grid(c, in.params, L);
    if (layout_ok) layout_ok = check_tile_overhead(m, c, L, in.params, def.memory_limit);
    if (!layout_ok) {
        tiles.clear();
        layout = TileLayout{};
        bins_current = false;
        tiled_navmesh.reset(), navmesh_spare.reset();
        error_stage = static_cast<int>(Stage::Rasterize);
        return layout_ok;
    }
    int first = kStageCount;
    lay_out_tiles(c, L, cache_on, first);
    if (first <= static_cast<int>(Stage::Rasterize)) {
        if (Status st = check_tiled_grid(m, c, L, in.params, def.memory_limit, threads, def.keep_intermediates, cache_on,
                                         bins, bins_current);
            !st) {
            error_stage = static_cast<int>(Stage::Rasterize);
            return st;
        }
    }
    const int* R = def.only_tiles.data();
    const bool only_some = R[0] >= 0 || R[1] >= 0 || R[2] >= 0 || R[3] >= 0;
    if (only_some && (R[0] < 0 || R[1] < 0 || R[2] >= L.cols || R[3] >= L.rows || R[0] > R[2] || R[1] > R[3])) {
        error_stage = static_cast<int>(Stage::Rasterize);
        const bool one = R[0] == R[2] && R[1] == R[3];
        return Status::bad_input((one ? "tile " + std::to_string(R[0]) + "," + std::to_string(R[1])
                                      : "tiles " + std::to_string(R[0]) + "," + std::to_string(R[1]) + ":" +
                                            std::to_string(R[2]) + "," + std::to_string(R[3])) +
                                 " is outside the tile grid of " + std::to_string(L.cols) + " x " +
                                 std::to_string(L.rows) + " tiles (x in 0.." + std::to_string(L.cols - 1) +
                                 ", z in 0.." + std::to_string(L.rows - 1) + ")");
    }
    return Status::ok();
}

bool Pipeline::Impl::unpack_obstacle_cache(Unit& t) {
    Status st = t.chf_cache.empty() ? Status::bad_input("obstacle cache: none") : Status::ok();
    try {
        if (st) st = decompress_chf(t.chf_cache, writable(t.compact, t.spare.compact), writable(t.eroded, t.spare.eroded),
                                    t.scratch->cache_raw);
    } catch (const std::bad_alloc&) {
        st = out_of_memory("obstacle cache", true);
    }
    if (st && (t.compact->width != t.config.width || t.compact->height != t.config.height ||
               t.compact->border_size != t.config.border_size))
        st = Status::bad_input("obstacle cache: made for another grid");
    if (st) return true;
    t.compact.reset();
    t.eroded.reset();
    t.chf_cache.clear();
    t.dirty_from = static_cast<int>(Stage::Rasterize);
    return false;
}

std::shared_ptr<Bake> Pipeline::Impl::partial_snapshot(const BakeConfig& c, const TileLayout& L) const {
    auto b = std::make_shared<Bake>();
    b->inputs = in;
    b->config = c;
    b->area_flags = area_flags;
    b->mesh = mesh;
    b->tri_areas = solo.tri_areas;  // the input stays drawn while the tiles fill in
    b->stats[static_cast<size_t>(Stage::Input)] = solo.stats[static_cast<size_t>(Stage::Input)];
    b->layout = L;
    b->partial = true;
    b->generation = generation + 1;
    b->built_through = solo.tri_areas ? static_cast<int>(Stage::Input) : -1;
    for (auto& u : tiles) {
        b->tiles.push_back(u->published);
        b->tiles_done += u->published != nullptr && u->published->built_through >= kLastTileStage;
    }
    return b;
}

void Pipeline::Impl::bake_tile(Unit& t, const Ctx& ctx, int last, const TileLayout& L) {
    const auto t0 = clock_type::now();
    t.ran = true;
    // A trimmed tile re-baking from the areas stage: its compact heightfield and eroded areas from
    // the obstacle cache. One that does not unpack re-bakes from rasterize (and makes a new cache
    // at its erode).
    double unpack_ms = 0;
    bool fell_back = false;
    if (t.dirty_from == static_cast<int>(kEditStage) && t.trimmed && !t.compact) {
        const auto u0 = clock_type::now();
        fell_back = !unpack_obstacle_cache(t);
        unpack_ms = std::chrono::duration<double, std::milli>(clock_type::now() - u0).count();
    }
    t.ran_from = t.dirty_from;
    for (int s = t.dirty_from; s <= last; ++s) {
        if (is_cancelled(ctx.cancel)) {
            t.error = Status::cancelled();
            break;
        }
        const Status st = run_one(static_cast<Stage>(s), t, ctx);
        if (!st) {
            t.error = st;
            t.error_stage = s;
            break;
        }
        t.dirty_from = s + 1;
        // the unpacking is the areas stage's time; a fallback is counted where the re-bake began
        if (s == static_cast<int>(kEditStage) && !fell_back) t.stats[static_cast<size_t>(s)].ms += unpack_ms;
        if (s == kStageRasterize && fell_back) t.stats[static_cast<size_t>(s)].counts.push_back({"obstacle_cache_fallbacks", 1});
    }
    t.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    // The tile's warnings, taken while its contours are still there (a trimmed tile that only
    // re-ran its navmesh has no contours and keeps the warnings it had).
    if (t.contours) t.warnings = stage_warnings(t, "tile " + std::to_string(t.tx) + "," + std::to_string(t.tz) + ": ");
    const bool keep = def.keep_intermediates;
    if (!keep && t.dirty_from > kLastTileStage) {  // keep only the tile's output
        for_each_result([](Stage s, Stage, auto& p, auto& spare) {
            if (s < Stage::Polymesh) {
                p.reset();
                spare.reset();
            }
        }, t, t.spare);
        t.trimmed = true;
    } else if (keep && t.ran_from <= static_cast<int>(Stage::Rasterize) && t.dirty_from > kLastTileStage) {
        t.trimmed = false;  // rebuilt from rasterize with every intermediate kept
    }
    if (!t.error.is_ok()) return;
    std::shared_ptr<Bake> b;
    {
        std::lock_guard lk(snap_mutex);
        t.published = publish_tile(t, def.record_region_trace);
        if (def.on_tile) b = partial_snapshot(config, L);
    }
    // outside the snapshot lock: the callback may take its time (draw lists) while the other
    // tiles go on baking and publishing
    if (b) {
        std::lock_guard lk(on_tile_mutex);
        def.on_tile(std::move(b));
    }
}

Status Pipeline::Impl::bake_tiles(const std::vector<int>& order, const Ctx& ctx, int last, const TileLayout& L, int threads,
                                  int& error_stage) {
    // The hand-over to and from the bake threads goes through our own atomics as well as through
    // oneTBB's join: the tiles' state is written here, read there and back.
    std::atomic<size_t> next{0};
    std::atomic<int> workers_done{0};
    next.store(0, std::memory_order_release);
    const bool background = def.background_threads && !def.task_hook.set();  // not the game's threads
    const std::function<void()> worker = [&] {
        if (background) lower_thread_priority();
        // This thread's working memory for every tile it bakes: one from the pool (kept across
        // runs), returned when the queue is empty.
        std::unique_ptr<BakeScratch> scratch;
        {
            std::lock_guard lk(tile_scratch_mutex);
            if (!tile_scratch.empty()) {
                scratch = std::move(tile_scratch.back());
                tile_scratch.pop_back();
            }
        }
        if (!scratch) scratch = std::make_unique<BakeScratch>();
        for (size_t k; (k = next.fetch_add(1, std::memory_order_acq_rel)) < order.size();) {
            Unit& t = *tiles[static_cast<size_t>(order[k])];
            t.scratch = scratch.get();
            bake_tile(t, ctx, last, L);
            t.scratch = nullptr;
        }
        {
            std::lock_guard lk(tile_scratch_mutex);
            tile_scratch.push_back(std::move(scratch));
        }
        workers_done.fetch_add(1, std::memory_order_release);
    };
    try {
        run_workers(def.task_hook, threads, worker);
        (void)workers_done.load(std::memory_order_acquire);
    } catch (const std::bad_alloc&) {  // out of memory while publishing
        error_stage = static_cast<int>(Stage::Rasterize);
        return out_of_memory("tiled bake", true);
    } catch (const std::exception& e) {  // the on_tile callback
        error_stage = static_cast<int>(Stage::Rasterize);
        return Status::internal(std::string("tiled bake: ") + e.what());
    }
    return Status::ok();
}

Status Pipeline::Impl::run_tiles(Stage to, const CancelFlag* cancel, int& error_stage, int& error_tile) {
    const BakeConfig& c = config;
    // Solo results are stale once tiled: free them (tri_areas stays, the tiles read it).
    drop_results_after(solo, static_cast<int>(Stage::Input));
    drop_results_after(solo.spare, static_cast<int>(Stage::Input));
    const int threads = c.threads > 0 ? c.threads : tbb::info::default_concurrency();
    const bool cache_on = def.obstacle_cache == ObstacleCache::Compressed && !def.keep_intermediates;
    TileLayout L;
    if (Status st = prepare_tiles(c, threads, cache_on, L, error_stage); !st) return st;
    const int last = std::min(static_cast<int>(to), kLastTileStage);
    const int* R = def.only_tiles.data();
    const bool only_some = R[0] >= 0 || R[1] >= 0 || R[2] >= 0 || R[3] >= 0;
    const std::vector<int> order = bake_order(c, L, last, only_some, R, focus);
    for (auto& t : tiles) {
        t->ran = false;
        t->error = Status::ok();
        t->error_stage = -1;
    }
    {
        std::lock_guard lk(snap_mutex);
        for (int i : order) tiles[static_cast<size_t>(i)]->published.reset();  // its buffers may be reused
    }
    if (def.progress) def.progress->store(static_cast<int>(Stage::Rasterize), std::memory_order_relaxed);
    const Ctx ctx{*mesh, in.params, in.volumes, in.obstacles, in.links, in.agent_types, area_flags, solo, &bins, true, def.record_region_trace,
                  def.memory_limit, cancel, false, cache_on};
    if (Status st = bake_tiles(order, ctx, last, L, threads, error_stage); !st) return st;
    return collect_tile_results(last, error_stage, error_tile);
}

}  // namespace nav
