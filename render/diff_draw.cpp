#include "render/diff_draw.h"

#include <chrono>
#include <vector>

#include "render/layers.h"

namespace nav::render {

namespace {

// Tints the spans of `chf` whose region id is marked in `mark` (1 = first colour, 2 = second).
void tint_region_spans(const CompactHeightfield& chf, const Regions& regions, const std::vector<uint8_t>& mark,
                       uint32_t c1, uint32_t c2, DrawList& out) {
    if (regions.reg.size() != chf.spans.size()) return;
    // a cell height above the regions layer's floors
    const float lift = floor_lift(chf, Layer::Regions) + chf.ch;
    for (int z = 0; z < chf.height; ++z) {
        for (int x = 0; x < chf.width; ++x) {
            const CompactCell& cell = chf.cells[static_cast<size_t>(x + z * chf.width)];
            const float x0 = chf.bmin[0] + static_cast<float>(x) * chf.cs, z0 = chf.bmin[2] + static_cast<float>(z) * chf.cs;
            for (uint32_t i = cell.index, end = cell.index + cell.count; i < end; ++i) {
                const uint16_t r = regions.reg[i];
                if (r == 0 || (r & kBorderRegion) || r >= mark.size() || !mark[r]) continue;
                const float y = chf.bmin[1] + static_cast<float>(chf.spans[i].y) * chf.ch + lift;
                out.add_floor_quad(x0, z0, x0 + chf.cs, z0 + chf.cs, y, mark[r] == 1 ? c1 : c2);
            }
        }
    }
}

// Outlines polygons `ids` of `mesh`, lifted `lift` metres above the vertices' cell tops.
void outline_polys(const PolyMesh& mesh, const std::vector<int>& ids, uint32_t color, float lift, DrawList& out) {
    for (int id : ids) {
        if (id < 0 || id >= mesh.npolys) continue;
        const uint16_t* p = mesh.poly(id);
        const int n = mesh.poly_vert_count(id);
        for (int k = 0; k < n; ++k) {
            const uint16_t* a = &mesh.verts[static_cast<size_t>(p[k]) * 3];
            const uint16_t* b = &mesh.verts[static_cast<size_t>(p[(k + 1) % n]) * 3];
            float pa[3], pb[3];  // where the polymesh layer draws its vertices, then `lift` higher
            voxel_to_world(mesh.bmin, mesh.cs, mesh.ch, a[0], a[1], a[2], pa);
            voxel_to_world(mesh.bmin, mesh.cs, mesh.ch, b[0], b[1], b[2], pb);
            pa[1] += lift;
            pb[1] += lift;
            out.add_line(pa, pb, color);
        }
    }
}

}  // namespace

BakeChanges diff_bakes(const Bake& old_bake, const Bake& new_bake) {
    const auto t0 = std::chrono::steady_clock::now();
    BakeChanges c;
    c.from_generation = old_bake.generation;
    c.to_generation = new_bake.generation;
    if (old_bake.compact && old_bake.regions && new_bake.compact && new_bake.regions &&
        old_bake.regions->reg.size() == old_bake.compact->spans.size() &&
        new_bake.regions->reg.size() == new_bake.compact->spans.size()) {
        c.have_regions = true;
        c.regions = diff_regions(*old_bake.compact, *old_bake.regions, *new_bake.compact, *new_bake.regions);
    }
    if (old_bake.polymesh && new_bake.polymesh) {
        c.have_polys = true;
        c.polys = diff_polymeshes(*old_bake.polymesh, *new_bake.polymesh);
    }
    c.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return c;
}

void build_diff_overlay(const BakeChanges& c, const Bake& old_bake, const Bake& new_bake, DrawList& out) {
    out.clear();
    out.line_width = 3.5f;
    out.depth_test = true;
    const uint32_t added_fill = color_with_alpha(colors::kDiffAdded, colors::kDiffFillAlpha);
    const uint32_t reshaped_fill = color_with_alpha(colors::kDiffReshaped, colors::kDiffFillAlpha);
    const uint32_t removed_fill = color_with_alpha(colors::kDiffRemoved, colors::kDiffFillAlpha);
    if (c.have_regions && new_bake.compact && new_bake.regions && old_bake.compact && old_bake.regions) {
        std::vector<uint8_t> mark(static_cast<size_t>(new_bake.regions->max_region_id) + 1, 0);
        for (uint16_t id : c.regions.added)
            if (id < mark.size()) mark[id] = 1;
        for (uint16_t id : c.regions.reshaped)
            if (id < mark.size()) mark[id] = 2;
        tint_region_spans(*new_bake.compact, *new_bake.regions, mark, added_fill, reshaped_fill, out);
        if (!c.regions.removed.empty()) {
            std::vector<uint8_t> old_mark(static_cast<size_t>(old_bake.regions->max_region_id) + 1, 0);
            for (uint16_t id : c.regions.removed)
                if (id < old_mark.size()) old_mark[id] = 1;
            tint_region_spans(*old_bake.compact, *old_bake.regions, old_mark, removed_fill, removed_fill, out);
        }
    }
    if (c.have_polys && new_bake.polymesh && old_bake.polymesh) {
        const float lift = new_bake.polymesh->ch * 0.5f;
        outline_polys(*old_bake.polymesh, c.polys.removed, colors::kDiffRemoved, lift, out);
        outline_polys(*new_bake.polymesh, c.polys.added, colors::kDiffAdded, lift, out);
    }
}

std::string diff_summary(const BakeChanges& c) {
    // "regions +1 ~2 -1, polygons +2 -1": added, reshaped, removed
    std::string s;
    if (c.have_regions) {
        s = "regions +" + std::to_string(c.regions.added.size()) + " ~" + std::to_string(c.regions.reshaped.size()) +
            " -" + std::to_string(c.regions.removed.size());
    }
    if (c.have_polys) {
        if (!s.empty()) s += ", ";
        s += "polygons +" + std::to_string(c.polys.added.size()) + " -" + std::to_string(c.polys.removed.size());
    }
    if (s.empty()) return "nothing to compare (both bakes need regions or polygons)";
    if (!c.any()) return "no change (" + s + ")";
    return s;
}

}  // namespace nav::render
