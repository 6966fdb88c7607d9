// The voxel stages run with the default parameters by calling the core stage functions directly,
// up to the regions of all three partitions: input for the tests of the later stages.
#pragma once
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "core/bake/compact.h"
#include "core/bake/distance.h"
#include "core/bake/erode.h"
#include "core/bake/filter.h"
#include "core/bake/input.h"
#include "core/pipeline/params.h"
#include "core/bake/rasterize.h"
#include "core/bake/regions.h"

namespace navtest {

struct Baked {
    nav::CompactHeightfield chf;
    std::vector<uint8_t> areas;
    std::array<nav::Regions, 3> regions;  // watershed, monotone, layers
};

// Runs the voxel stages with the default parameters (core stage functions called directly).
inline void bake(const nav::InputMesh& mesh, Baked& b) {
    const nav::Params params;
    const nav::BakeConfig cfg = nav::derive_config(params, mesh.bmin, mesh.bmax);
    std::vector<uint8_t> tri_areas(static_cast<size_t>(mesh.tri_count()));
    nav::mark_walkable_triangles(cfg.walkable_slope_deg, mesh.verts.data(), mesh.tris.data(), mesh.tri_count(),
                                 tri_areas.data());
    nav::Heightfield hf;
    hf.reset(cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch, cfg.border_size);
    REQUIRE(nav::rasterize_triangles(mesh.verts.data(), mesh.vert_count(), mesh.tris.data(), tri_areas.data(),
                                     mesh.tri_count(), hf, cfg.walkable_climb)
                .is_ok());
    nav::filter_low_hanging_obstacles(cfg.walkable_climb, hf);
    nav::filter_ledge_spans(cfg.walkable_height, cfg.walkable_climb, hf);
    nav::filter_walkable_low_height_spans(cfg.walkable_height, hf);
    REQUIRE(nav::build_compact_heightfield(cfg.walkable_height, cfg.walkable_climb, hf, b.chf).is_ok());
    b.areas = b.chf.areas;
    std::vector<uint8_t> scratch;
    REQUIRE(nav::erode_walkable_area(cfg.walkable_radius, b.chf, b.areas, scratch).is_ok());
    nav::DistanceField df;
    REQUIRE(nav::build_distance_field(b.chf, b.areas, df).is_ok());
    REQUIRE(nav::build_regions_watershed(b.chf, b.areas, df, 0, cfg.min_region_area, cfg.merge_region_area,
                                         b.regions[0])
                .is_ok());
    REQUIRE(nav::build_regions_monotone(b.chf, b.areas, 0, cfg.min_region_area, cfg.merge_region_area,
                                        b.regions[1])
                .is_ok());
    REQUIRE(nav::build_regions_layers(b.chf, b.areas, 0, cfg.min_region_area, b.regions[2]).is_ok());
}

}  // namespace navtest
