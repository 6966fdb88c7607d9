// The trimmed tiled bake's obstacle cache (PipelineDef::obstacle_cache, core/pipeline/chf_cache.h):
// the LZ4-packed compact heightfield round-trips exactly and a corrupt one fails cleanly; a touched
// tile re-bakes from the areas stage out of it, byte-identical to a fresh bake, and a cache that
// does not unpack falls back to a re-bake from rasterize.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "navmesh_bytes.h"
#include "core/pipeline/chf_cache.h"
#include "core/pipeline/pipeline.h"
#include "test_scenes.h"
#include "tile_scene.h"

using namespace nav;

namespace {

using navtest::navmesh_bytes;

// A box in the open within tile (1, 1)'s own box (tile 32 cells = 9.6 m at 0.3 m cells).
Obstacle box_obstacle() {
    Obstacle box;
    box.shape = ObstacleShape::RotatedBox;
    box.pos[0] = 14.4f, box.pos[1] = 1.0f, box.pos[2] = 14.4f;
    box.half[0] = 1.0f, box.half[1] = 1.0f, box.half[2] = 0.5f;
    box.yaw = 0.5f;
    return box;
}

// The options of a trimmed tiled bake (navbake's, or a game's where memory matters).
PipelineDef trimmed(ObstacleCache cache) {
    PipelineDef def = default_pipeline_def();
    def.keep_intermediates = false;
    def.obstacle_cache = cache;
    return def;
}

// Such a bake of the tile scene.
void setup(Pipeline& p, const Params* params = nullptr) {
    REQUIRE(p.set_mesh(navtest::tile_scene()));
    if (params) REQUIRE(p.set_input(&nav::BakeInputs::params, *params));
    REQUIRE(p.set_param(ParamId::tile_size, 32));
}

// What a bake from scratch with these obstacles and parameters gives.
std::vector<uint8_t> fresh_bytes(const std::vector<Obstacle>& obstacles, const Params* params = nullptr) {
    Pipeline f(trimmed(ObstacleCache::None));
    setup(f, params);
    REQUIRE(f.set_input(&nav::BakeInputs::obstacles, obstacles));
    REQUIRE(f.run());
    REQUIRE(f.snapshot()->navmesh);
    return navmesh_bytes(*f.snapshot()->navmesh);
}

}  // namespace

TEST_CASE("obstacle cache: the packed compact heightfield round-trips exactly and compresses") {
    Pipeline p;  // solo, every intermediate kept: a compact heightfield and its eroded areas to pack
    REQUIRE(p.set_mesh(navtest::tile_scene()));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    REQUIRE(b->compact);
    REQUIRE(b->eroded);
    const CompactHeightfield& chf = *b->compact;
    std::vector<uint8_t> blob, raw, packed;
    REQUIRE(compress_chf(chf, *b->eroded, blob, raw, packed));
    CHECK(blob.size() < chf_cache_raw_bytes(chf) / 3);  // a floor and boxes: long runs of the same spans

    CompactHeightfield back;
    std::vector<uint8_t> eroded;
    REQUIRE(decompress_chf(blob, back, eroded, raw));
    CHECK(back.width == chf.width);
    CHECK(back.height == chf.height);
    CHECK(back.span_count == chf.span_count);
    CHECK(back.walkable_height == chf.walkable_height);
    CHECK(back.walkable_climb == chf.walkable_climb);
    CHECK(back.border_size == chf.border_size);
    CHECK(std::memcmp(back.bmin, chf.bmin, sizeof chf.bmin) == 0);
    CHECK(std::memcmp(back.bmax, chf.bmax, sizeof chf.bmax) == 0);
    CHECK(back.cs == chf.cs);
    CHECK(back.ch == chf.ch);
    REQUIRE(back.cells.size() == chf.cells.size());
    CHECK(std::memcmp(back.cells.data(), chf.cells.data(), chf.cells.size() * sizeof(CompactCell)) == 0);
    REQUIRE(back.spans.size() == chf.spans.size());
    CHECK(std::memcmp(back.spans.data(), chf.spans.data(), chf.spans.size() * sizeof(CompactSpan)) == 0);
    CHECK(back.areas == chf.areas);
    CHECK(eroded == *b->eroded);

    // Mismatched arrays are refused, not packed.
    std::vector<uint8_t> short_eroded(eroded.begin(), eroded.end() - 1);
    CHECK_FALSE(compress_chf(chf, short_eroded, blob, raw, packed));
}

TEST_CASE("obstacle cache: a corrupt or truncated blob fails cleanly, whatever byte is wrong") {
    Pipeline p;
    REQUIRE(p.set_mesh(navtest::tile_scene()));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    REQUIRE(b->compact);
    std::vector<uint8_t> blob, raw, packed;
    REQUIRE(compress_chf(*b->compact, *b->eroded, blob, raw, packed));
    CompactHeightfield chf;
    std::vector<uint8_t> eroded;
    // Every byte flipped in turn (the header, the LZ4 block's tokens, literals and offsets): the
    // header checks, LZ4_decompress_safe or the checksum refuse each, unless the block still decodes
    // to the very same payload (a match offset moved to an identical run of this repetitive data).
    std::vector<uint8_t> payload, back;
    REQUIRE(decompress_chf(blob, chf, eroded, payload));
    int refused = 0, same = 0, tried = 0;
    for (size_t i = 0; i < blob.size(); i += i < 88 ? 1 : 5) {  // every header byte, every 5th of the block
        ++tried;
        std::vector<uint8_t> bad = blob;
        bad[i] ^= 0x5a;
        const Status st = decompress_chf(bad, chf, eroded, back);
        refused += !st;
        if (st) {
            same += back == payload;
            if (back != payload || i < 88) FAIL_CHECK("byte " << i << " of " << blob.size() << " flipped was accepted");
        } else {
            CHECK(st.message.rfind("obstacle cache: ", 0) == 0);
        }
    }
    CHECK(refused + same == tried);
    CHECK(refused > tried * 9 / 10);
    // Truncated anywhere, emptied, or grown by a byte.
    for (size_t n : {size_t(0), size_t(1), size_t(40), blob.size() / 2, blob.size() - 1}) {
        std::vector<uint8_t> cut(blob.begin(), blob.begin() + static_cast<std::ptrdiff_t>(n));
        CHECK_FALSE(decompress_chf(cut, chf, eroded, raw));
    }
    std::vector<uint8_t> longer = blob;
    longer.push_back(0);
    CHECK_FALSE(decompress_chf(longer, chf, eroded, raw));
    // A header asking for a huge grid is refused before anything is allocated for it.
    std::vector<uint8_t> huge = blob;
    const int32_t side = 1 << 20;
    std::memcpy(huge.data() + 8, &side, 4);
    std::memcpy(huge.data() + 12, &side, 4);
    const Status st = decompress_chf(huge, chf, eroded, raw);
    CHECK_FALSE(st);
    CHECK(raw.size() < (size_t(1) << 30));
    // And the untouched blob still unpacks.
    CHECK(decompress_chf(blob, chf, eroded, raw));
}

TEST_CASE("obstacle cache: trimmed tiles re-bake from the areas stage, byte-identical to a fresh bake") {
    Pipeline p(trimmed(ObstacleCache::Compressed));
    setup(p);
    REQUIRE(p.run());
    const auto before = p.snapshot();
    REQUIRE(before->navmesh);
    const std::vector<uint8_t> bytes = navmesh_bytes(*before->navmesh);
    CHECK(bytes == fresh_bytes({}));
    // Every tile's cache was made at its erode and is smaller than what it packs; the trimmed
    // tiles keep no intermediate.
    const int64_t cache = before->count("obstacle_cache_bytes"), raw = before->count("obstacle_cache_raw_bytes");
    CHECK(cache > 0);
    CHECK(cache * 3 < raw);
    for (const auto& t : before->tiles) {
        CHECK_FALSE(t->compact);
        CHECK_FALSE(t->eroded);
    }

    const Obstacle box = box_obstacle();
    REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {box}));
    REQUIRE(p.run());
    const auto with = p.snapshot();
    REQUIRE(with->navmesh);
    CHECK(with->stages_run.front() == Stage::Areas);  // not rasterize: the cache was unpacked
    CHECK(with->count("obstacle_spans") > 0);
    CHECK(with->count("obstacle_cache_fallbacks") == 0);
    CHECK(navmesh_bytes(*with->navmesh) == fresh_bytes({box}));
    CHECK(with->walkable_area() < before->walkable_area() - 1.0);
    // Only the tiles whose bordered box the obstacle meets re-baked; the others kept their objects.
    float bx[4], y0, y1;
    obstacle_bounds(box, p.params().f(ParamId::agent_radius), bx, &y0, &y1);
    std::vector<int> touched;
    for (size_t i = 0; i < with->tiles.size(); ++i) {
        const BakeConfig& c = with->tiles[i]->config;
        const bool meets = !(bx[2] < c.bmin[0] || bx[0] > c.bmax[0] || bx[3] < c.bmin[2] || bx[1] > c.bmax[2]);
        if (meets) touched.push_back(static_cast<int>(i));
        CHECK((with->tiles[i]->tile != before->tiles[i]->tile) == meets);
        CHECK_FALSE(with->tiles[i]->compact);  // trimmed again
    }
    CHECK(!touched.empty());
    CHECK(touched.size() < with->tiles.size());
    CHECK(with->tiles_rebaked == touched);
    CHECK(with->count("obstacle_cache_bytes") == cache);  // the caches were not remade

    // Removing it gives the navmesh back byte for byte.
    REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {}));
    REQUIRE(p.run());
    const auto after = p.snapshot();
    CHECK(after->stages_run.front() == Stage::Areas);
    CHECK(navmesh_bytes(*after->navmesh) == bytes);
    CHECK(navtest::tile_mesh_bytes(*after) == navtest::tile_mesh_bytes(*before));

    // A convex volume is stamped in the same stage: it re-bakes from the cache too.
    ConvexVolume v;
    v.verts = {2, 0, 2, 2, 0, 6, 6, 0, 6, 6, 0, 2};
    v.hmin = -1, v.hmax = 2, v.area = kAreaWater;
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, {v}));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Areas);
    Pipeline fv(trimmed(ObstacleCache::None));
    setup(fv);
    REQUIRE(fv.set_input(&nav::BakeInputs::volumes, {v}));
    REQUIRE(fv.run());
    CHECK(navmesh_bytes(*p.snapshot()->navmesh) == navmesh_bytes(*fv.snapshot()->navmesh));
}

TEST_CASE("obstacle cache: off, a trimmed tile re-bakes from rasterize, to the same navmesh") {
    Pipeline p(trimmed(ObstacleCache::None));
    setup(p);
    REQUIRE(p.run());
    CHECK(p.snapshot()->count("obstacle_cache_bytes") == 0);
    REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {box_obstacle()}));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Rasterize);
    CHECK(navmesh_bytes(*p.snapshot()->navmesh) == fresh_bytes({box_obstacle()}));
    // A bake that keeps its intermediates makes no cache (its tiles keep them uncompressed).
    PipelineDef keep = default_pipeline_def();
    keep.obstacle_cache = ObstacleCache::Compressed;
    Pipeline k(keep);
    REQUIRE(k.set_mesh(navtest::tile_scene()));
    REQUIRE(k.set_param(ParamId::tile_size, 32));
    REQUIRE(k.run());
    CHECK(k.snapshot()->count("obstacle_cache_bytes") == 0);
}

TEST_CASE("obstacle cache: a parameter change before the areas stage remakes it, one after reuses it") {
    Pipeline p(trimmed(ObstacleCache::Compressed));
    setup(p);
    REQUIRE(p.run());
    // A regions parameter: every tile re-bakes from its cache.
    Params q = p.params();
    REQUIRE(q.set(ParamId::region_min_size, 12));
    REQUIRE(p.set_input(&nav::BakeInputs::params, q));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Areas);
    CHECK(p.snapshot()->tiles_rebaked.size() == p.snapshot()->tiles.size());
    CHECK(navmesh_bytes(*p.snapshot()->navmesh) == fresh_bytes({}, &q));
    // The agent radius changes the erosion: every tile re-bakes from rasterize and remakes its
    // cache, and an obstacle afterwards gives what a fresh bake at the new radius gives.
    REQUIRE(q.set(ParamId::agent_radius, 0.9));
    REQUIRE(p.set_input(&nav::BakeInputs::params, q));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Rasterize);
    REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {box_obstacle()}));
    REQUIRE(p.run());
    CHECK(p.snapshot()->stages_run.front() == Stage::Areas);
    CHECK(navmesh_bytes(*p.snapshot()->navmesh) == fresh_bytes({box_obstacle()}, &q));
}

TEST_CASE("obstacle cache: a corrupt tile cache falls back to a re-bake from rasterize, never a crash") {
    const Obstacle box = box_obstacle();
    const std::vector<uint8_t> want = fresh_bytes({box});
    // The header's magic, its span count, its checksum, the LZ4 block's first token and a byte inside.
    for (size_t offset : {size_t(0), size_t(16), size_t(80), size_t(88), size_t(200)}) {
        CAPTURE(offset);
        Pipeline p(trimmed(ObstacleCache::Compressed));
        setup(p);
        REQUIRE(p.run());
        const auto before = p.snapshot();
        // Corrupt the cache of every tile the box touches (tile 1,1 and its neighbours).
        int corrupted = 0;
        for (const auto& t : before->tiles) corrupted += p.corrupt_obstacle_cache_for_test(t->tx, t->tz, offset);
        REQUIRE(corrupted == static_cast<int>(before->tiles.size()));
        CHECK_FALSE(p.corrupt_obstacle_cache_for_test(0, 0, size_t(1) << 30));  // past its end: nothing
        CHECK_FALSE(p.corrupt_obstacle_cache_for_test(99, 99, 0));              // no such tile
        REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {box}));
        const Status st = p.run();
        REQUIRE(st);
        const auto with = p.snapshot();
        CHECK(with->stages_run.front() == Stage::Rasterize);
        CHECK(with->count("obstacle_cache_fallbacks") == static_cast<int64_t>(with->tiles_rebaked.size()));
        CHECK(navmesh_bytes(*with->navmesh) == want);
        // The fallback made fresh caches: removing the box now re-bakes from them.
        REQUIRE(p.set_input(&nav::BakeInputs::obstacles, {}));
        REQUIRE(p.run());
        CHECK(p.snapshot()->stages_run.front() == Stage::Areas);
        CHECK(navmesh_bytes(*p.snapshot()->navmesh) == navmesh_bytes(*before->navmesh));
    }
}

TEST_CASE("obstacle cache: the memory estimate counts it") {
    Pipeline none(trimmed(ObstacleCache::None));
    setup(none);
    const uint64_t without = none.estimate_memory();
    Pipeline p(trimmed(ObstacleCache::Compressed));
    setup(p);
    const uint64_t with = p.estimate_memory();
    REQUIRE(p.run());
    const int64_t cache = p.snapshot()->count("obstacle_cache_bytes");
    REQUIRE(cache > 0);
    // At least what the caches hold, and not more than their uncompressed size.
    CHECK(with >= without + static_cast<uint64_t>(cache));
    CHECK(with <= without + static_cast<uint64_t>(p.snapshot()->count("obstacle_cache_raw_bytes")));
    PipelineDef keep = default_pipeline_def();  // the tiles keep their intermediates instead: no cache counted
    keep.obstacle_cache = ObstacleCache::Compressed;
    Pipeline k(keep);
    setup(k);
    CHECK(k.estimate_memory() > with);
}
