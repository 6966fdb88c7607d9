#include "core/pipeline/params.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace nav {

namespace {

using K = ParamKind;
using V = VoxelRule;


// The table. Ranges are what the bake accepts; the UI uses the same ranges for its sliders.
const ParamDef kTable[kParamCount] = {
    // Mesh fixes, applied to the loaded mesh before any stage reads it: the warnings panel's
    // one-click fixes for a mesh in centimetres, modelled Z-up or wound the wrong way.
    {ParamId::mesh_scale, "mesh_scale", "mesh scale", "x", K::Float, 1.0, 0.001, 1000.0, Stage::Input, V::None,
     "Multiplies every vertex as the mesh is read (0.01 for a mesh modelled in centimetres).", {}},
    {ParamId::mesh_z_up, "mesh_z_up", "mesh is Z-up", "", K::Bool, 0, 0, 1, Stage::Input, V::None,
     "The mesh was modelled with Z up: rotate it to Y up, (x, y, z) -> (x, z, -y).", {}},
    {ParamId::mesh_flip_winding, "mesh_flip_winding", "flip winding", "", K::Bool, 0, 0, 1, Stage::Input, V::None,
     "Reverse every triangle's winding: for a mesh whose floors face down (read as ceilings, not walkable).", {}},
    {ParamId::cell_size, "cell_size", "cell size", "m", K::Float, 0.3, 0.02, 5.0, Stage::Rasterize,
     V::GridCells, "Width of a voxel column in x and z. Smaller is more precise and slower (grid grows with 1/cs^2).", {}},
    {ParamId::cell_height, "cell_height", "cell height", "m", K::Float, 0.2, 0.02, 5.0, Stage::Rasterize,
     V::GridLayers, "Height of a voxel. Keep it at most half of agent_max_climb, or stairs merge into walls.", {}},
    {ParamId::agent_height, "agent_height", "agent height", "m", K::Float, 2.0, 0.1, 50.0, Stage::Filter,
     V::CeilByCellHeight, "Clearance the agent needs above the floor; lower ceilings are filtered out.", {}},
    {ParamId::agent_radius, "agent_radius", "agent radius", "m", K::Float, 0.6, 0.0, 20.0, Stage::Erode,
     V::CeilByCellSize, "The walkable area is eroded by this distance from walls and ledges.", {}},
    {ParamId::agent_max_climb, "agent_max_climb", "agent max climb", "m", K::Float, 0.9, 0.0, 20.0,
     Stage::Rasterize, V::FloorByCellHeight, "Highest step the agent can climb; also the span merge threshold.", {}},
    {ParamId::agent_max_slope, "agent_max_slope", "agent max slope", "deg", K::Float, 45.0, 0.0, 89.0,
     Stage::Input, V::None, "Steepest triangle the agent can walk on.", {}},
    {ParamId::region_min_size, "region_min_size", "region min size", "cells", K::Int, 8, 0, 150, Stage::Regions,
     V::SquareCells, "Regions smaller than this squared (in cells) that touch no border are removed.", {}},
    {ParamId::region_merge_size, "region_merge_size", "region merge size", "cells", K::Int, 20, 0, 150,
     Stage::Regions, V::SquareCells, "Regions smaller than this squared (in cells) merge into a neighbour.", {}},
    {ParamId::partition, "partition", "partition", "", K::Enum, 0, 0, 2, Stage::Regions, V::None,
     "How walkable spans are split into regions: watershed (best shapes), monotone (fastest, long thin "
     "regions), layers (non-overlapping layers, for tiles).",
     kPartitionNames},
    {ParamId::filter_low_hanging, "filter_low_hanging", "filter low hanging obstacles", "", K::Bool, 1, 0, 1,
     Stage::Filter, V::None, "Let the agent step onto low obstacles (kerbs, stair nosing) within climb.", {}},
    {ParamId::filter_ledge, "filter_ledge", "filter ledges", "", K::Bool, 1, 0, 1, Stage::Filter, V::None,
     "Remove spans next to a drop deeper than the climb.", {}},
    {ParamId::filter_low_height, "filter_low_height", "filter low height", "", K::Bool, 1, 0, 1, Stage::Filter,
     V::None, "Remove spans with less than agent_height of free space above.", {}},
    {ParamId::edge_max_len, "edge_max_len", "edge max length", "m", K::Float, 12.0, 0.0, 50.0, Stage::Contours,
     V::FloorByCellSize, "Contour edges along walls longer than this are split (0: never split).", {}},
    {ParamId::edge_max_error, "edge_max_error", "edge max error", "cells", K::Float, 1.3, 0.1, 10.0,
     Stage::Contours, V::TimesCellSize, "How far a simplified contour may stray from the raw boundary.", {}},
    {ParamId::verts_per_poly, "verts_per_poly", "verts per poly", "", K::Int, 6, 3, 12, Stage::Polymesh, V::None,
     "Most vertices a convex polygon of the mesh may have.", {}},
    {ParamId::detail_sample_dist, "detail_sample_dist", "detail sample distance", "cells", K::Float, 6.0, 0.0,
     16.0, Stage::Detail, V::TimesCellSize, "Spacing of height samples for the detail mesh (below 0.9: none).", {}},
    {ParamId::detail_sample_max_error, "detail_sample_max_error", "detail sample max error", "cell heights",
     K::Float, 1.0, 0.0, 16.0, Stage::Detail, V::TimesCellHeight,
     "Largest height error the detail mesh may have against the heightfield.", {}},
    // Tiles: the same stages on a grid of bordered tiles, baked on every core. Neither changes a
    // tile's result: threads only changes how many tiles build at once.
    {ParamId::tile_size, "tile_size", "tile size", "cells", K::Int, 0, 0, 4096, Stage::Rasterize, V::None,
     "Cells per tile side (0: one tile over the whole mesh). A tile must be at least its border "
     "(ceil(agent_radius / cell_size) + 3 cells) and at most the grid.", {}},
    {ParamId::threads, "threads", "threads", "", K::Int, 0, 0, 256, Stage::Rasterize, V::None,
     "Tiles baked at once (0: all cores). The result is the same for any number.", {}},
    // Automatic off-mesh links (core/bake/auto_links.h), made by the navmesh step from the
    // navmesh's boundary edges against the level: changing them re-runs the navmesh step only.
    {ParamId::link_drop_height, "link_drop_height", "link drop height", "m", K::Float, 0.0, 0.0, 100.0,
     Stage::Navmesh, V::None,
     "Automatic drop-down links from navmesh ledges to walkable surfaces at most this far below (0: none).", {}},
    {ParamId::link_jump_distance, "link_jump_distance", "link jump distance", "m", K::Float, 0.0, 0.0, 100.0,
     Stage::Navmesh, V::None,
     "Automatic jump links across gaps at most this wide between navmesh ledges at about the same height "
     "(0: none).", {}},
    // Read by the path queries only: dirties no stage (dirties_no_stage), listed with the navmesh.
    {ParamId::path_mode, "path_mode", "path mode", "", K::Enum, 0, 0, 1, Stage::Navmesh, V::None,
     "How path queries find paths: funnel (A* over polygons, then the funnel) or optimal (Polyanya: the "
     "Euclidean-shortest path).",
     kPathModeNames},
    {ParamId::max_nodes, "max_nodes", "A* max nodes", "", K::Int, 0, 0, 1073741824, Stage::Navmesh, V::None,
     "Most A* search states a path query discovers (two per portal at most) before it stops with a partial "
     "path flagged out_of_nodes; 0: no limit, every reachable goal is reached. Bounds a query's time, not its "
     "memory. (Polyanya has its own cap of 2^23 search nodes.)",
     {}},
};

// float -> int with the range checked first (a NaN or a value beyond int saturates).
int to_int_sat(float v) {
    if (!(v > -2147483648.0f)) return v != v ? 0 : std::numeric_limits<int>::min();
    if (!(v < 2147483648.0f)) return std::numeric_limits<int>::max();
    return static_cast<int>(v);
}

std::string fmt_num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string range_text(const ParamDef& d) {
    switch (d.kind) {
        case K::Bool: return "true or false";
        case K::Enum: {
            std::string s;
            for (size_t i = 0; i < d.enum_names.size(); ++i) {
                if (i) s += " | ";
                s += d.enum_names[i];
            }
            return s;
        }
        case K::Int: return "a whole number in [" + fmt_num(d.min) + ", " + fmt_num(d.max) + "]";
        case K::Float: {
            std::string s = "a number in [" + fmt_num(d.min) + ", " + fmt_num(d.max) + "]";
            if (!d.unit.empty()) {
                s += ' ';
                s += d.unit;
            }
            return s;
        }
    }
    return {};
}

std::string lower(std::string_view s) {
    std::string r(s);
    for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return r;
}

}  // namespace

std::optional<Stage> stage_from_name(std::string_view name) {
    for (int i = 0; i < kStageCount; ++i)
        if (kStageNames[i] == name) return static_cast<Stage>(i);
    return std::nullopt;
}

std::span<const ParamDef> param_table() { return {kTable, kParamCount}; }
const ParamDef& param_def(ParamId id) { return kTable[static_cast<int>(id)]; }
const ParamDef* find_param(std::string_view name) {
    for (const ParamDef& d : kTable)
        if (d.name == name) return &d;
    return nullptr;
}

Params::Params() {
    for (const ParamDef& d : kTable) v_[static_cast<int>(d.id)] = d.def;
}

Status Params::set(ParamId id, double value) {
    const ParamDef& d = param_def(id);
    const bool integral = d.kind != K::Float;
    if (!std::isfinite(value) || value < d.min || value > d.max || (integral && value != std::floor(value)))
        return Status::bad_input("parameter " + std::string(d.name) + ": got " + fmt_num(value) + ", expected " +
                                 range_text(d));
    v_[static_cast<int>(id)] = value;
    return Status::ok();
}

Status Params::set_from_string(std::string_view name, std::string_view value) {
    const ParamDef* d = find_param(name);
    if (!d) {
        std::string known;
        for (const ParamDef& t : kTable) {
            if (!known.empty()) known += ", ";
            known += t.name;
        }
        return Status::bad_input("unknown parameter '" + std::string(name) + "' (known: " + known + ")");
    }
    const std::string v = lower(value);
    auto fail = [&] {
        return Status::bad_input("parameter " + std::string(d->name) + ": got '" + std::string(value) +
                                 "', expected " + range_text(*d));
    };
    if (d->kind == K::Bool) {
        if (v == "true" || v == "1" || v == "on" || v == "yes") return set(d->id, 1);
        if (v == "false" || v == "0" || v == "off" || v == "no") return set(d->id, 0);
        return fail();
    }
    if (d->kind == K::Enum) {
        for (size_t i = 0; i < d->enum_names.size(); ++i)
            if (d->enum_names[i] == v) return set(d->id, static_cast<double>(i));
        return fail();
    }
    if (v.empty()) return fail();
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (end != v.c_str() + v.size()) return fail();
    return set(d->id, x);
}

std::string Params::to_string(ParamId id) const {
    const ParamDef& d = param_def(id);
    switch (d.kind) {
        case K::Bool: return b(id) ? "true" : "false";
        case K::Enum: return std::string(d.enum_names[static_cast<size_t>(i(id))]);
        case K::Int: return std::to_string(i(id));
        case K::Float: return fmt_num(get(id));
    }
    return {};
}

std::string voxel_hint(ParamId id, const Params& p, const float* bmin, const float* bmax) {
    const ParamDef& d = param_def(id);
    const double cs = p.get(ParamId::cell_size), ch = p.get(ParamId::cell_height);
    const float v = p.f(id);
    switch (d.voxel) {
        case V::None: return {};
        case V::GridCells: {
            if (!bmin || !bmax) return {};
            const BakeConfig c = derive_config(p, bmin, bmax);
            return "= " + std::to_string(c.width) + " x " + std::to_string(c.height) + " cells";
        }
        case V::GridLayers: {
            if (!bmin || !bmax) return {};
            return "= " + std::to_string(to_int_sat(std::ceil((bmax[1] - bmin[1]) / v))) + " layers";
        }
        case V::CeilByCellHeight: return "= " + std::to_string(to_int_sat(std::ceil(v / static_cast<float>(ch)))) + " vx";
        case V::FloorByCellHeight: return "= " + std::to_string(to_int_sat(std::floor(v / static_cast<float>(ch)))) + " vx";
        case V::CeilByCellSize: return "= " + std::to_string(to_int_sat(std::ceil(v / static_cast<float>(cs)))) + " vx";
        case V::FloorByCellSize:
            return "= " + std::to_string(to_int_sat(v / static_cast<float>(cs))) + " cells";
        case V::TimesCellSize:
        case V::TimesCellHeight: {
            char buf[48];
            std::snprintf(buf, sizeof buf, "= %.2f m", static_cast<double>(v) * (d.voxel == V::TimesCellSize ? cs : ch));
            return buf;
        }
        case V::SquareCells: {
            const int n = p.i(id);
            char buf[48];
            std::snprintf(buf, sizeof buf, " = %.2f m2", static_cast<double>(n) * n * cs * cs);
            return "= " + std::to_string(n * n) + " cells" + buf;
        }
    }
    return {};
}

ParamRange slider_range(ParamId id, const Params& p, const float* bmin, const float* bmax) {
    const ParamDef& d = param_def(id);
    ParamRange r{d.min, d.max};
    if (id == ParamId::tile_size && bmin && bmax) {
        const BakeConfig c = derive_config(p, bmin, bmax);
        const double grid = std::max({c.grid_x, c.grid_z, double(c.walkable_radius) + 3.0});  // + 3: tile_border
        r.max = std::clamp(grid, d.min, d.max);
    }
    return r;
}

std::string params_help() {
    std::string s = "Parameters (--set NAME=VALUE, JSON config keys, debugger sliders):\n";
    for (const ParamDef& d : kTable) {
        Params defaults;
        s += "  " + std::string(d.name) + " (" + range_text(d) + ", default " + defaults.to_string(d.id) +
             (dirties_no_stage(d.id) ? std::string(", rebuilds nothing")
                                     : ", rebuilds from " + std::string(stage_name(d.stage))) +
             ")\n      " + std::string(d.help) + "\n";
    }
    return s;
}

BakeConfig derive_config(const Params& p, const float* bmin, const float* bmax) {
    BakeConfig c;
    c.cs = p.f(ParamId::cell_size);
    c.ch = p.f(ParamId::cell_height);
    c.walkable_slope_deg = p.f(ParamId::agent_max_slope);
    // Same float arithmetic as Recast (the differential tests rely on identical voxel units).
    c.walkable_height = to_int_sat(std::ceil(p.f(ParamId::agent_height) / c.ch));
    c.walkable_climb = to_int_sat(std::floor(p.f(ParamId::agent_max_climb) / c.ch));
    c.walkable_radius = to_int_sat(std::ceil(p.f(ParamId::agent_radius) / c.cs));
    c.min_region_area = p.i(ParamId::region_min_size) * p.i(ParamId::region_min_size);
    c.merge_region_area = p.i(ParamId::region_merge_size) * p.i(ParamId::region_merge_size);
    c.partition = p.partition();
    c.filter_low_hanging = p.b(ParamId::filter_low_hanging);
    c.filter_ledge = p.b(ParamId::filter_ledge);
    c.filter_low_height = p.b(ParamId::filter_low_height);
    c.max_edge_len = to_int_sat(p.f(ParamId::edge_max_len) / c.cs);
    c.max_simplification_error = p.f(ParamId::edge_max_error);
    c.verts_per_poly = p.i(ParamId::verts_per_poly);
    const float sd = p.f(ParamId::detail_sample_dist);
    c.detail_sample_dist = sd < 0.9f ? 0.0f : c.cs * sd;
    c.detail_sample_max_error = c.ch * p.f(ParamId::detail_sample_max_error);
    c.border_size = 0;
    c.tile_size = p.i(ParamId::tile_size);
    c.threads = p.i(ParamId::threads);
    for (int i = 0; i < 3; ++i) {
        c.bmin[i] = bmin[i];
        c.bmax[i] = bmax[i];
    }
    // Recast's float arithmetic (the differential tests rely on the same grid), range-checked.
    const float gx = (c.bmax[0] - c.bmin[0]) / c.cs + 0.5f, gz = (c.bmax[2] - c.bmin[2]) / c.cs + 0.5f;
    c.grid_x = std::floor(static_cast<double>(gx));
    c.grid_z = std::floor(static_cast<double>(gz));
    c.width = to_int_sat(gx);
    c.height = to_int_sat(gz);
    return c;
}

Status check_grid(const BakeConfig& c, const Params& p) {
    auto num = [](double v) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return std::string(buf);
    };
    const double ex = static_cast<double>(c.bmax[0]) - c.bmin[0], ez = static_cast<double>(c.bmax[2]) - c.bmin[2];
    const double ey = static_cast<double>(c.bmax[1]) - c.bmin[1];
    const std::string cs = "cell_size = " + p.to_string(ParamId::cell_size) + " m";
    if (!(c.grid_x >= 1.0) || !(c.grid_z >= 1.0))
        return Status::bad_input("the mesh bounds are " + fmt_num(ex) + " x " + fmt_num(ez) +
                                 " m in x and z: less than one cell of " + cs);
    const double cells = c.grid_x * c.grid_z;
    if (c.grid_x > kMaxGridSide || c.grid_z > kMaxGridSide || cells > static_cast<double>(kMaxGridCells))
        return Status::bad_input("grid of " + num(c.grid_x) + " x " + num(c.grid_z) + " cells (" + num(cells) +
                                 " in total, " + fmt_num(ex) + " x " + fmt_num(ez) + " m at " + cs +
                                 ") is too large: at most " + std::to_string(kMaxGridSide) + " cells per side (polygon "
                                 "vertices hold cell coordinates in 16 bits) and " + std::to_string(kMaxGridCells) +
                                 " cells in total (cell and span indices are 32-bit); raise cell_size or bake a part of "
                                 "the mesh");
    if (!(ey / c.ch < kMaxGridLayers))
        return Status::bad_input("the mesh is " + fmt_num(ey) + " m tall: more than " + std::to_string(kMaxGridLayers) +
                                 " cells of cell_height = " + p.to_string(ParamId::cell_height) +
                                 " m (span heights are 16-bit); raise cell_height");
    return Status::ok();
}

}  // namespace nav
