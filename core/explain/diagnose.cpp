#include "core/explain/diagnose.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/pipeline/pipeline.h"
#include "core/pipeline/voxel_values.h"

namespace nav {

namespace {

// A grid above 2048 x 2048 cells (or an estimated gigabyte) is "huge"; the fix aims at half that.
constexpr double kHugeCells = 2048.0 * 2048.0;
constexpr uint64_t kHugeBytes = uint64_t(1) << 30;
constexpr double kTargetCells = kHugeCells / 2.0;
// A tiled bake's grid is huge only beyond 16 times that (too many cells to draw); the tile side
// a huge solo grid's fallback fix offers (Recast's demo uses 32 to 128; larger tiles mean fewer
// portals to stitch).
constexpr double kTiledHugeCells = 16.0 * kHugeCells;
constexpr int kHugeFixTileSize = 256;
constexpr double kRadToDeg = 57.29577951308232;

// Metres rounded to the centimetre, down or up (as decimal values: 0.3, not 0.30000000000000004).
double floor_cm(double v) { return std::floor(v * 100.0 + 1e-6) / 100.0; }
double ceil_cm(double v) { return std::ceil(v * 100.0 - 1e-6) / 100.0; }

std::string num(double v, const char* fmt = "%g") {
    char buf[48];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string unit_of(ParamId id) {
    const std::string_view u = param_def(id).unit;
    return u.empty() || u == "x" ? "" : " " + std::string(u);
}

// A diagnostic whose fix is `fix`, described as "name old -> new unit". A value the parameter
// table refuses is never offered: the fix is dropped and the reason stands alone.
Diagnostic make(WarningKind k, std::string title, std::string reason, const Params& p, std::vector<ParamChange> fix) {
    Diagnostic d{k, std::move(title), std::move(reason), {}, {}, {}};
    Params q = p;
    std::string text;
    for (const ParamChange& c : fix) {
        if (!q.set(c.id, c.value)) return d;
        if (!text.empty()) text += ", ";
        text += std::string(param_def(c.id).name) + " " + p.to_string(c.id) + " -> " + q.to_string(c.id) + unit_of(c.id);
    }
    d.fix = std::move(fix);
    d.fix_text = std::move(text);
    return d;
}

ParamChange toggle(const Params& p, ParamId id) { return {id, p.b(id) ? 0.0 : 1.0}; }

}  // namespace

std::string_view warning_name(WarningKind k) {
    static constexpr std::array<std::string_view, static_cast<size_t>(WarningKind::Count)> names = {
        "radius_under_two_cells", "cell_size_over_radius", "cell_height_over_half_climb", "huge_grid", "mesh_z_up",
        "mesh_centimetres",       "mesh_wound_wrong",      "no_walkable_triangles",       "no_polygons",
        "grid_refused",           "regions_lost"};
    const auto i = static_cast<size_t>(k);
    return i < names.size() ? names[i] : std::string_view("unknown");
}

RegionLoss region_loss(const Regions& regions, const ContourSet& contours, const PolyMesh* polymesh) {
    RegionLoss l;
    l.grids = 1;
    const size_t n = regions.region_count;
    l.regions = static_cast<int64_t>(n);
    // per region id: 1 an outline contour, 2 a polygon
    std::vector<uint8_t> seen(n + 1, 0);
    for (const Contour& k : contours.contours)
        if (k.nverts > 0 && k.reg <= n) seen[k.reg] |= 1;
    if (polymesh)
        for (int i = 0; i < polymesh->npolys && static_cast<size_t>(i) < polymesh->regs.size(); ++i)
            if (polymesh->regs[static_cast<size_t>(i)] <= n) seen[polymesh->regs[static_cast<size_t>(i)]] |= 2;
    for (size_t r = 1; r <= n; ++r) {
        if ((seen[r] & 1) == 0) {
            const bool warned = std::find(contours.warnings.begin(), contours.warnings.end(), static_cast<int>(r)) !=
                                contours.warnings.end();
            ++(warned ? l.sliver : l.single_cell);
        } else if (polymesh && (seen[r] & 2) == 0) {
            ++l.no_polygon;
        }
    }
    return l;
}

RegionLoss region_loss(const Bake& bake) {
    RegionLoss total;
    const auto add = [&total](const auto& g) {
        if (!g.regions || !g.contours) {
            ++total.grids_without;
            return;
        }
        const RegionLoss l = region_loss(*g.regions, *g.contours, g.polymesh.get());
        total.regions += l.regions;
        total.sliver += l.sliver;
        total.single_cell += l.single_cell;
        total.no_polygon += l.no_polygon;
        total.grids += l.grids;
    };
    if (!bake.tiled()) add(bake);
    else
        for (const auto& t : bake.tiles)
            if (t) add(*t);
    return total;
}

MeshShape analyze_mesh(const InputMesh& m) {
    MeshShape s;
    s.tris = m.tri_count();
    for (int k = 0; k < 3; ++k) s.extent[k] = m.bmax[k] - m.bmin[k];
    std::vector<float> walls;  // y extent of each steep triangle
    double min_up = 90.0, min_down = 90.0;
    for (int t = 0; t < s.tris; ++t) {
        const float* v[3];
        for (int k = 0; k < 3; ++k) v[k] = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t * 3 + k)]) * 3];
        const double e0[3] = {double(v[1][0]) - v[0][0], double(v[1][1]) - v[0][1], double(v[1][2]) - v[0][2]};
        const double e1[3] = {double(v[2][0]) - v[0][0], double(v[2][1]) - v[0][1], double(v[2][2]) - v[0][2]};
        // Recast's normal: cross(e0, e1); +y means walkable as wound
        const double n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]};
        const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len <= 0.0) continue;
        const double area = 0.5 * len, ny = n[1] / len, nz = n[2] / len;
        if (std::abs(ny) < 0.3)
            walls.push_back(std::max({v[0][1], v[1][1], v[2][1]}) - std::min({v[0][1], v[1][1], v[2][1]}));
        s.area_total += area;
        if (ny >= 0.7) s.area_up += area;
        if (ny <= -0.7) s.area_down += area;
        if (std::abs(nz) >= 0.7) s.area_facing_z += area;
        const double slope = std::acos(std::clamp(std::abs(ny), 0.0, 1.0)) * kRadToDeg;
        if (ny > 0.0) min_up = std::min(min_up, slope);
        if (ny < 0.0) min_down = std::min(min_down, slope);
    }
    s.min_slope_up = static_cast<float>(min_up);
    s.min_slope_down = static_cast<float>(min_down);
    if (!walls.empty()) {
        auto mid = walls.begin() + static_cast<std::ptrdiff_t>(walls.size() / 2);
        std::nth_element(walls.begin(), mid, walls.end());
        s.median_wall_height = *mid;
    }
    return s;
}

namespace {
// Every warning on its own, each with the fix that clears it; diagnose() reconciles the fixes.
std::vector<Diagnostic> diagnose_each(const Params& p, const Bake* bake, const MeshShape* shape);
// Drops d's fix; its reason says why.
void withdraw_fix(Diagnostic& d, const std::string& why);
// "cell_size 0.3 -> 0.25 m, ..."
std::string describe_fix(const Params& p, const std::vector<ParamChange>& fix);
}  // namespace

std::vector<Diagnostic> diagnose(const Params& p, const Bake* bake, const MeshShape* shape) {
    std::vector<Diagnostic> out = diagnose_each(p, bake, shape);
    reconcile_fixes(out, p);
    // No ping-pong: a fix is offered only when the warnings on the fixed parameters no longer hold
    // its own and hold none that is not listed now (cell_size 0.3 -> 0.31 for a huge grid raised
    // "agent radius under two cells", whose fix went back to 0.3). Applying offered fixes then
    // only ever removes warnings, so a user clicking every fix in turn stops, with nothing undone.
    // The empty string: `fix` clears d and raises nothing new; otherwise why not.
    auto settles = [&](const Diagnostic& d, const std::vector<ParamChange>& fix) -> std::string {
        Params q = p;
        for (const ParamChange& c : fix)
            if (!q.set(c.id, c.value)) return "a value out of range";
        for (const Diagnostic& a : diagnose_each(q, bake, shape)) {
            if (a.kind == d.kind) return "the warning would stay";
            const bool listed = std::any_of(out.begin(), out.end(), [&](const Diagnostic& o) { return o.kind == a.kind; });
            if (!listed) return "it would raise '" + a.title + "'";
        }
        return {};
    };
    for (Diagnostic& d : out) {
        if (d.fix.empty()) continue;
        const std::string why = settles(d, d.fix);
        if (why.empty()) continue;
        if (!d.fallback.empty() && fix_matters(p, d.fallback) && settles(d, d.fallback).empty()) {
            d.fix = d.fallback;
            d.fix_text = describe_fix(p, d.fix);
            continue;
        }
        withdraw_fix(d, why);
    }
    return out;
}

namespace {
// --- parameters alone ---------------------------------------------------------------------------
void diagnose_params(const Params& p, std::vector<Diagnostic>& out) {
    using P = ParamId;
    const double cs = p.get(P::cell_size), ch = p.get(P::cell_height);
    const double radius = p.get(P::agent_radius), climb = p.get(P::agent_max_climb);
    if (radius > 0.0 && cs > radius) {
        const int cells = static_cast<int>(std::ceil(radius / cs));
        out.push_back(make(WarningKind::CellSizeOverRadius, "cell size above the agent radius",
                           "cell_size " + num(cs) + " m is wider than agent_radius " + num(radius) +
                               " m. Erosion works in whole cells, so the agent keeps " + std::to_string(cells) +
                               " cell = " + num(cells * cs) + " m off every wall and ledge, and doorways narrower than "
                               "about two cells close. Use cell_size = agent_radius / 2 (or / 3).",
                           p, {{P::cell_size, std::max(0.02, floor_cm(radius / 2.0))}}));
    } else if (radius > 0.0 && radius < 2.0 * cs) {
        const int cells = static_cast<int>(std::ceil(radius / cs));
        out.push_back(make(WarningKind::RadiusUnderTwoCells, "agent radius under two cells",
                           "agent_radius " + num(radius) + " m is " + num(radius / cs, "%.2f") + " cells of " + num(cs) +
                               " m. Erosion rounds it to " + std::to_string(cells) + (cells == 1 ? " cell = " : " cells = ") +
                               num(cells * cs) +
                               " m, and with so few cells per radius the eroded border is coarse: corners are cut "
                               "and narrow passages open or close when a parameter moves a little. Recast's rule "
                               "of thumb: cell_size = agent_radius / 2 to / 3.",
                           p, {{P::cell_size, std::max(0.02, floor_cm(radius / 2.0))}}));
    }
    if (climb > 0.0 && ch > climb / 2.0) {
        const int steps = static_cast<int>(std::floor(climb / ch));
        std::vector<ParamChange> fix;
        if (climb / 2.0 >= 0.02) fix.push_back({P::cell_height, floor_cm(climb / 2.0)});
        out.push_back(make(WarningKind::CellHeightOverHalfClimb, "cell height above half the climb",
                           "agent_max_climb " + num(climb) + " m is only " + std::to_string(steps) +
                               " cell height(s) of " + num(ch) + " m. Heights are rounded to whole cells, so a step the "
                               "agent can climb may come out one cell too high and be cut, and ledges merge, doubling "
                               "the step: stairs turn into walls. Keep the climb above two cell heights (seed 000).",
                           p, std::move(fix)));
    }

}

// --- the mesh, as the stages read it ---------------------------------------------------------------
// With only mesh_scale changed since the bake: the grid the new scale makes, refused or huge, named
// after mesh_scale (a slider move to 1000 makes a 20 km mesh the bake refuses). False when refused.
bool diagnose_scaled_grid(const Params& p, const Bake& bake, std::vector<Diagnostic>& out) {
    const MeshFix now = mesh_fix(p), was = mesh_fix(bake.inputs.params);
    if (now.z_up != was.z_up || now.flip_winding != was.flip_winding || !(was.scale > 0.0f)) return true;
    const float k = now.scale / was.scale;  // both positive: min stays min
    float bmin[3], bmax[3];
    for (int i = 0; i < 3; ++i) {
        bmin[i] = bake.mesh->bmin[i] * k;
        bmax[i] = bake.mesh->bmax[i] * k;
    }
    const BakeConfig c = derive_config(p, bmin, bmax);
    TileLayout L;
    const Status grid = c.tile_size > 0 ? check_tile_grid(c, p, L) : check_grid(c, p);
    const std::string scaled = "mesh_scale " + p.to_string(ParamId::mesh_scale) + " makes the mesh " +
                               num(bmax[0] - bmin[0], "%.3g") + " x " + num(bmax[2] - bmin[2], "%.3g") + " m: ";
    if (!grid) {
        out.push_back(make(WarningKind::GridRefused, "the bake will refuse this grid", scaled + grid.message + ".", p, {}));
        return false;
    }
    const double cells = c.grid_x * c.grid_z;
    if (c.tile_size > 0 ? cells > kTiledHugeCells : cells > kHugeCells)
        out.push_back(make(WarningKind::HugeGrid, "the grid will be huge",
                           scaled + "a grid of " + num(c.grid_x, "%.0f") + " x " + num(c.grid_z, "%.0f") +
                               " cells: slow to bake and heavy on memory.",
                           p, {}));
    return true;
}

// False when the bake will refuse the grid: it stops before rasterizing, there is no result to diagnose.
bool diagnose_mesh(const Params& p, const Bake& bake, const MeshShape& shape, std::vector<Diagnostic>& out) {
    using P = ParamId;
    const double cs = p.get(P::cell_size), ch = p.get(P::cell_height);
    // while p asks for other mesh fixes than the bake's, what they give is not known yet, but for
    // a new scale alone: the bounds scale with it, so the grid it makes is known before the bake
    if (mesh_fix(p) != mesh_fix(bake.inputs.params)) return diagnose_scaled_grid(p, bake, out);
    const InputMesh& m = *bake.mesh;
    const MeshShape& s = shape;
    const double horizontal = s.area_up + s.area_down;
    const bool z_up = s.area_total > 0.0 && s.area_facing_z > 2.0 * horizontal &&
                      s.area_facing_z > 0.25 * s.area_total && s.extent[2] < s.extent[1];
    if (z_up) {
        out.push_back(make(WarningKind::MeshZUp, "the mesh looks Z-up",
                           num(100.0 * s.area_facing_z / s.area_total, "%.0f") + "% of its surface faces along z and " +
                               num(100.0 * horizontal / s.area_total, "%.0f") +
                               "% along y, and it is taller (y: " + num(s.extent[1], "%.1f") + ") than deep (z: " +
                               num(s.extent[2], "%.1f") + "): it was probably modelled with Z up, so its floors are "
                               "walls to the baker (Y is up here).",
                           p, {toggle(p, P::mesh_z_up)}));
    }
    const float longest = std::max({s.extent[0], s.extent[1], s.extent[2]});
    // a large extent alone may be a big level in metres; walls hundreds of "metres" tall are not
    if (longest > 1000.0f && s.median_wall_height > 50.0f) {
        std::vector<ParamChange> fix;
        if (p.get(P::mesh_scale) * 0.01 >= param_def(P::mesh_scale).min) fix.push_back({P::mesh_scale, p.get(P::mesh_scale) * 0.01});
        out.push_back(make(WarningKind::MeshCentimetres, "the mesh looks like centimetres",
                           "it spans " + num(s.extent[0], "%.0f") + " x " + num(s.extent[1], "%.0f") + " x " +
                               num(s.extent[2], "%.0f") + " units and its walls are typically " +
                               num(s.median_wall_height, "%.0f") + " tall: read as metres that is a " +
                               num(longest / 1000.0, "%.1f") + " km scene with " + num(s.median_wall_height, "%.0f") +
                               " m walls. Agent sizes are in metres; a mesh modelled in centimetres wants "
                               "mesh_scale 0.01.",
                           p, std::move(fix)));
    }
    if (s.area_down > 1.5 * s.area_up && s.area_down > 0.1 * s.area_total) {
        out.push_back(make(WarningKind::MeshWoundWrong, "the mesh looks wound the wrong way",
                           "of its horizontal surface " + num(100.0 * s.area_down / horizontal, "%.0f") +
                               "% faces down and " + num(100.0 * s.area_up / horizontal, "%.0f") +
                               "% up: floors wound clockwise (seen from above) face down and read as ceilings, "
                               "so they are not walkable.",
                           p, {toggle(p, P::mesh_flip_winding)}));
    }
    const double slope = p.get(P::agent_max_slope);
    if (s.tris > 0 && s.min_slope_up >= slope) {
        std::vector<ParamChange> fix;
        std::string what;
        if (s.min_slope_down < slope) {
            fix = {toggle(p, P::mesh_flip_winding)};
            what = " Reversed, " + num(s.min_slope_down, "%.1f") + " deg triangles face up: flip the winding.";
        } else if (z_up) {
            fix = {toggle(p, P::mesh_z_up)};
            what = " The mesh looks Z-up: rotate it.";
        } else if (s.min_slope_up < 88.0f) {
            fix = {{P::agent_max_slope, std::min(89.0, std::ceil(double(s.min_slope_up) + 0.1))}};
            what = " The flattest triangle is " + num(s.min_slope_up, "%.1f") + " deg.";
        } else {
            what = " Every triangle is vertical or faces down.";
        }
        out.push_back(make(WarningKind::NoWalkableTriangles, "no walkable triangles",
                           "none of the " + std::to_string(s.tris) + " triangles faces up at " + num(slope) +
                               " deg (agent_max_slope) or flatter, so the bake stops at the input stage." + what,
                           p, std::move(fix)));
    }
    const BakeConfig c = derive_config(p, m.bmin, m.bmax);
    const double cells = std::max(c.grid_x, 0.0) * std::max(c.grid_z, 0.0);  // exact, not saturated
    // The bake's own grid check (nav::check_grid; a tiled bake's check_tile_grid, which has no
    // solo grid limit but a tile count): a grid it refuses is never called sane here.
    auto grid_check = [&m](const Params& q) {
        const BakeConfig g = derive_config(q, m.bmin, m.bmax);
        TileLayout L;
        return g.tile_size > 0 ? check_tile_grid(g, q, L) : check_grid(g, q);
    };
    if (const Status grid = grid_check(p); !grid) {
        std::vector<ParamChange> fix;
        // the smallest cell_size / cell_height (to the cm, up to the huge-grid target) that passes
        const double ex = s.extent[0], ez = s.extent[2], ey = s.extent[1];
        if (c.grid_x >= 1.0 && c.grid_z >= 1.0) {
            const double side = std::max(ex, ez) / (0.99 * kMaxGridSide);
            const double total = std::sqrt(ex * ez / (0.99 * static_cast<double>(kMaxGridCells)));
            const double huge = std::sqrt(std::max(cells, 1.0) / kTargetCells) * cs;
            const double want = std::max({cs, side, total, std::min(huge, 5.0)});
            const bool too_wide = c.grid_x > kMaxGridSide || c.grid_z > kMaxGridSide ||
                                  cells > static_cast<double>(kMaxGridCells);
            if (c.tile_size > 0) {  // tiled: the tile count (at most kMaxTiles) is the bound
                const double ts = c.tile_size;
                const double tiles = std::ceil(c.grid_x / ts) * std::ceil(c.grid_z / ts);
                const double need = std::sqrt(ex * ez / (0.98 * static_cast<double>(kMaxTiles))) / ts + 0.01;
                if (tiles > static_cast<double>(kMaxTiles) && need > cs) fix.push_back({P::cell_size, ceil_cm(need)});
            } else if (too_wide && want > cs) {
                fix.push_back({P::cell_size, ceil_cm(want)});
            }
            if (!(ey / ch < kMaxGridLayers)) fix.push_back({P::cell_height, ceil_cm(ey / (0.99 * kMaxGridLayers))});
        } else if (std::min(ex, ez) > 0.0) {
            fix.push_back({P::cell_size, floor_cm(std::min(ex, ez) / 2.0)});  // at least two cells
        }
        Params q = p;
        bool fixes = !fix.empty();
        for (const ParamChange& f : fix) fixes = fixes && q.set(f.id, f.value);
        if (!fixes || !grid_check(q)) fix.clear();  // no fix in range
        // the reason first: the fix is moved into make() (argument order is unspecified)
        std::string reason =
            grid.message + (fix.empty() ? ". No cell size in range fixes it: scale or cut the mesh." : ".");
        Diagnostic d = make(WarningKind::GridRefused, "the bake will refuse this grid", std::move(reason), p, std::move(fix));
        // a solo grid too wide whose coarser cells would put the radius under two cells: tiles
        // have no solo grid limit (check_tile_grid), only a tile count
        if (c.tile_size <= 0) {
            Params t = p;
            if (t.set(P::tile_size, kHugeFixTileSize) && grid_check(t)) d.fallback = {{P::tile_size, double(kHugeFixTileSize)}};
        }
        out.push_back(std::move(d));
        return false;  // the bake stops before rasterizing: there is no result to diagnose
    }
    // A tiled bake holds a few tiles' grids at a time, never the whole one: its grid is huge only
    // when it is too many cells to draw (kTiledHugeCells), whatever the memory.
    const bool tiled = c.tile_size > 0;
    const uint64_t bytes = cells > 0.0 && !tiled ? estimate_bake_memory(m, c) : 0;
    if (tiled ? cells > kTiledHugeCells : cells > kHugeCells || bytes > kHugeBytes) {
        const double k = std::sqrt(cells / (tiled ? kTiledHugeCells / 2.0 : kTargetCells));
        Diagnostic d = make(WarningKind::HugeGrid, "the grid will be huge",
                            "cell_size " + num(cs) + " m over " + num(s.extent[0], "%.0f") + " x " +
                                num(s.extent[2], "%.0f") + " m makes a grid of " + num(c.grid_x, "%.0f") + " x " +
                                num(c.grid_z, "%.0f") + " cells" +
                                (tiled ? ": heavy to draw."
                                       : ", about " + std::to_string(bytes >> 20) +
                                             " MiB in one piece: slow to bake and heavy on memory; tiles bake a few "
                                             "pieces at a time."),
                            p, {{P::cell_size, std::min(5.0, ceil_cm(cs * std::max(k, 1.0)))}});
        // when a coarser grid would put the agent radius under two cells: bake in tiles
        if (!tiled) d.fallback = {{P::tile_size, double(kHugeFixTileSize)}};
        out.push_back(std::move(d));
    }
    return true;
}

// --- the bake's result ------------------------------------------------------------------------------
void diagnose_result(const Params& p, const Bake& bake, std::vector<Diagnostic>& out) {
    using P = ParamId;
    const double ch = p.get(P::cell_height);
    const double radius = p.get(P::agent_radius), climb = p.get(P::agent_max_climb);
    const bool through_polys = bake.built_through >= static_cast<int>(Stage::Polymesh) && bake.polymesh;
    if (bake.error.is_ok() && through_polys && bake.polymesh->npolys == 0 && bake.inputs.params == p) {
        const int64_t walkable_solid = bake.count("walkable_solid_spans"), walkable = bake.count("walkable_spans");
        const int64_t regions = bake.count("regions");
        std::string why;
        std::vector<ParamChange> fix;
        if (walkable_solid == 0) {
            const int64_t low = bake.count("low_height_removed"), ledge = bake.count("ledge_removed");
            why = "the filters left no walkable span (" + std::to_string(low) + " removed for low height, " +
                  std::to_string(ledge) + " as ledges).";
            if (low >= ledge) fix = {{P::agent_height, std::max(0.1, floor_cm(p.get(P::agent_height) / 2.0))}};
            else fix = {{P::agent_max_climb, std::min(20.0, ceil_cm(std::max(climb, ch) * 2.0))}};
        } else if (walkable == 0) {
            why = "erosion by agent_radius " + num(radius) + " m removed all " + std::to_string(walkable_solid) +
                  " walkable spans: every floor is narrower than the agent.";
            fix = {{P::agent_radius, radius >= 0.04 ? floor_cm(radius / 2.0) : 0.0}};
        } else if (regions == 0) {
            why = "no region survived: every one was smaller than region_min_size^2 = " +
                  std::to_string(p.i(P::region_min_size) * p.i(P::region_min_size)) + " cells.";
            fix = {{P::region_min_size, 0.0}};
        } else {
            why = std::to_string(regions) + " regions gave no polygon: see the bake warnings in the log.";
        }
        out.push_back(make(WarningKind::NoPolygons, "the bake made no polygons", "the bake went through, but " + why, p,
                           std::move(fix)));
    }
}

// Regions that reached no polygon: counted per grid, explained, no fix offered (each cause has its
// own trade-off, the reason names the parameters).
void diagnose_region_loss(const Params& p, const Bake& bake, std::vector<Diagnostic>& out) {
    if (!bake.error.is_ok() || !(bake.inputs.params == p) || bake.built_through < static_cast<int>(Stage::Contours)) return;
    const RegionLoss l = region_loss(bake);
    if (l.lost() == 0) return;
    std::string why = std::to_string(l.regions) + " regions, " + std::to_string(l.regions - l.lost()) +
                      " reach a polygon (the Stages table's region and contour counts differ by these).";
    if (l.sliver > 0)
        why += " " + std::to_string(l.sliver) + (l.sliver == 1 ? " region is a sliver" : " regions are slivers") +
               ": the boundary simplified to fewer than 3 vertices at edge_max_error " +
               p.to_string(ParamId::edge_max_error) +
               " cells, so its contour is dropped (as in Recast). Its spans are not in the navmesh; a lower "
               "edge_max_error keeps more of them, a larger region_min_size / region_merge_size folds them into "
               "their neighbours before.";
    if (l.no_polygon > 0)
        why += " " + std::to_string(l.no_polygon) + (l.no_polygon == 1 ? " region has" : " regions have") +
               " a contour but no polygon: its triangulation failed (the bake warnings in the log name the region).";
    if (l.single_cell > 0)
        why += " " + std::to_string(l.single_cell) + (l.single_cell == 1 ? " region is" : " regions are") +
               " made of single cells walled off on all four sides, where no contour walk starts (as in Recast); "
               "tiles keep small regions that touch their border, so a larger region_min_size does not remove them.";
    if (l.grids_without > 0)
        why += " (" + std::to_string(l.grids_without) + " tiles' regions were not kept and are not counted.)";
    out.push_back(make(WarningKind::RegionsLost,
                       std::to_string(l.lost()) + " of " + std::to_string(l.regions) + " regions made no polygon",
                       std::move(why), p, {}));
}

std::vector<Diagnostic> diagnose_each(const Params& p, const Bake* bake, const MeshShape* shape) {
    std::vector<Diagnostic> out;
    diagnose_params(p, out);
    if (!bake || !bake->mesh || !shape) return out;
    if (!diagnose_mesh(p, *bake, *shape, out)) return out;
    diagnose_result(p, *bake, out);
    diagnose_region_loss(p, *bake, out);
    return out;
}
}  // namespace

bool fix_matters(const Params& p, const std::vector<ParamChange>& fix) {
    Params q = p;
    for (const ParamChange& c : fix)
        if (!q.set(c.id, c.value)) return false;
    bool changed = false;
    for (const ParamDef& d : param_table()) {
        if (q.get(d.id) == p.get(d.id)) continue;
        if (!rounded_to_voxels(d.voxel)) return true;
        changed = true;
    }
    if (!changed) return false;
    // the voxel values these parameters derive do not depend on the bounds
    const float bmin[3] = {0, 0, 0}, bmax[3] = {1, 1, 1};
    return !same_voxel_values(derive_config(p, bmin, bmax), derive_config(q, bmin, bmax));
}

namespace {
// Which warning keeps its fix when two fixes pull a parameter opposite ways: the lower rank.
int fix_rank(WarningKind k) {
    switch (k) {
        // the mesh as exported: every other number is wrong until it is fixed
        case WarningKind::MeshZUp:
        case WarningKind::MeshCentimetres:
        case WarningKind::MeshWoundWrong:
        case WarningKind::NoWalkableTriangles: return 0;
        // quality hints: the bake runs and gives polygons, a little coarser
        case WarningKind::RadiusUnderTwoCells:
        case WarningKind::CellSizeOverRadius:
        case WarningKind::CellHeightOverHalfClimb: return 2;
        // the bake stops, swamps memory or gives nothing (and any warning added later: it is
        // presumably about the bake running at all)
        default: return 1;
    }
}

std::string describe_fix(const Params& p, const std::vector<ParamChange>& fix) {
    Params q = p;
    std::string text;
    for (const ParamChange& c : fix) {
        (void)q.set(c.id, c.value);
        if (!text.empty()) text += ", ";
        text += std::string(param_def(c.id).name) + " " + p.to_string(c.id) + " -> " + q.to_string(c.id) + unit_of(c.id);
    }
    return text;
}

void withdraw_fix(Diagnostic& d, const std::string& why) {
    d.reason += " (" + d.fix_text + " is not offered: " + why + ")";
    d.fix.clear();
    d.fix_text.clear();
}
}  // namespace

void reconcile_fixes(std::vector<Diagnostic>& list, const Params& p) {
    for (Diagnostic& d : list)
        if (!d.fix.empty() && !fix_matters(p, d.fix))
            withdraw_fix(d, "it leaves every derived voxel value unchanged, too small to matter");

    std::vector<size_t> order(list.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return fix_rank(list[a].kind) < fix_rank(list[b].kind); });
    // per parameter, the value the kept fixes agree on and the first warning that set it
    struct Claim {
        double value;
        size_t owner;
    };
    std::array<std::optional<Claim>, kParamCount> claims{};
    std::vector<size_t> kept;
    for (size_t i : order) {
        Diagnostic& d = list[i];
        if (d.fix.empty()) continue;
        const Diagnostic* opposed = nullptr;
        for (const ParamChange& c : d.fix) {
            const auto& cl = claims[static_cast<size_t>(c.id)];
            if (!cl || cl->value == c.value) continue;
            const double now = p.get(c.id);
            if ((cl->value > now) != (c.value > now) || cl->value == now || c.value == now) {
                opposed = &list[cl->owner];
                break;
            }
        }
        if (opposed) {
            withdraw_fix(d, "it would undo the fix of '" + opposed->title + "' (" + opposed->fix_text + "), which comes first");
            continue;
        }
        for (const ParamChange& c : d.fix) {
            auto& cl = claims[static_cast<size_t>(c.id)];
            if (!cl) cl = Claim{c.value, i};
            else if (std::abs(c.value - p.get(c.id)) > std::abs(cl->value - p.get(c.id))) cl->value = c.value;  // the farther
        }
        kept.push_back(i);
    }
    // one value per parameter: every kept fix takes the agreed one
    for (size_t i : kept) {
        Diagnostic& d = list[i];
        bool moved = false;
        for (ParamChange& c : d.fix) {
            const double v = claims[static_cast<size_t>(c.id)]->value;
            moved |= v != c.value;
            c.value = v;
        }
        if (moved) d.fix_text = describe_fix(p, d.fix);
    }
}

bool apply_fix(const Diagnostic& d, Params& p) {
    if (d.fix.empty()) return false;
    Params q = p;
    for (const ParamChange& c : d.fix)
        if (!q.set(c.id, c.value)) return false;
    p = q;
    return true;
}

}  // namespace nav
