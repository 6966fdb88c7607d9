#include "render/layers.h"
#include "render/span_lod.h"

#include "core/pipeline/tiling.h"
#include "render/islands_draw.h"
#include "render/links_draw.h"

#include "core/bake/filter.h"

#include <algorithm>
#include <iterator>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace nav::render {

namespace {

void set_cell_grid(DrawList& out, const float* bmin, float cs) {
    out.shade = Shade::CellGrid;
    out.grid_origin[0] = bmin[0];
    out.grid_origin[1] = bmin[1];
    out.grid_origin[2] = bmin[2];
    out.grid_cell = cs;
}

// Solid spans as boxes (top, bottom and four sides; sides hidden by the neighbours' boxes are
// left to the depth test), colour per span.
template <class ColorOf>
void build_span_boxes(const Heightfield& hf, DrawList& out, ColorOf&& color_of) {
    // one instance of the unit box per span (the GPU places and shades it; the bottom at 0.8)
    out.clear();
    set_cell_grid(out, hf.bmin, hf.cs);
    out.span_shape = SpanShape::Box;
    for (int k = 0; k < 3; ++k) out.span_origin[k] = hf.bmin[k];
    out.span_cs = hf.cs;
    out.span_ch = hf.ch;
    out.span_lift = 0.0f;
    out.spans.reserve(hf.span_count);
    for (int z = 0; z < hf.height; ++z) {
        for (int x = 0; x < hf.width; ++x) {
            const size_t c = static_cast<size_t>(x + z * hf.width);
            for (uint32_t i = hf.columns[c]; i != kNullSpan; i = hf.pool[i].next) {
                const Span& s = hf.pool[i];
                out.spans.push_back({static_cast<uint32_t>(x), static_cast<uint32_t>(z), s.smin, s.smax, color_of(c, i, s)});
            }
        }
    }
}

// One floor quad per compact span (an instance of the unit quad), colour per span index.
template <class ColorOf>
void build_span_floors(const CompactHeightfield& chf, Layer layer, DrawList& out, ColorOf&& color_of) {
    out.clear();
    set_cell_grid(out, chf.bmin, chf.cs);
    out.span_shape = SpanShape::Floor;
    for (int k = 0; k < 3; ++k) out.span_origin[k] = chf.bmin[k];
    out.span_cs = chf.cs;
    out.span_ch = chf.ch;
    out.span_lift = floor_lift(chf, layer);
    out.spans.reserve(static_cast<size_t>(chf.span_count));
    for (int z = 0; z < chf.height; ++z) {
        for (int x = 0; x < chf.width; ++x) {
            const CompactCell& cell = chf.cells[static_cast<size_t>(x + z * chf.width)];
            for (uint32_t i = cell.index, end = cell.index + cell.count; i < end; ++i) {
                const uint16_t y = chf.spans[i].y;
                out.spans.push_back({static_cast<uint32_t>(x), static_cast<uint32_t>(z), y, y, color_of(i)});
            }
        }
    }
}

// Blend towards white by t (0..1), keeps alpha.
uint32_t lighten(uint32_t c, float t) {
    auto ch = [t](int v) { return std::clamp(static_cast<int>(static_cast<float>(v) + (255.0f - static_cast<float>(v)) * t + 0.5f), 0, 255); };
    return rgba(ch(color_r(c)), ch(color_g(c)), ch(color_b(c)), color_a(c));
}


// Twice the signed xz area of a loop of contour vertices (4 ints each).
int64_t loop_area2(const int32_t* v, uint32_t n) {
    int64_t a = 0;
    for (uint32_t i = 0, j = n - 1; i < n; j = i++)
        a += static_cast<int64_t>(v[j * 4]) * v[i * 4 + 2] - static_cast<int64_t>(v[i * 4]) * v[j * 4 + 2];
    return a;
}

// Which side of its walking direction a contour's region lies on (+1 left, -1 right in x,z),
// the same for every loop of the set (holes wind the other way but keep the region on the same
// side): taken from the largest simplified outline, else the largest raw loop.
float contour_region_side(const ContourSet& cset) {
    int64_t best = 0;
    for (const Contour& c : cset.contours) {
        const bool simp = c.nverts >= 3;
        const int64_t a = simp ? loop_area2(&cset.verts[static_cast<size_t>(c.vert_start) * 4], c.nverts)
                               : (c.nraw >= 3 ? loop_area2(&cset.raw_verts[static_cast<size_t>(c.raw_start) * 4], c.nraw) : 0);
        // holes (raw-only loops) count with their sign flipped, outlines as they are
        const int64_t outline_sign_area = simp ? a : -a;
        if (std::llabs(outline_sign_area) > std::llabs(best)) best = outline_sign_area;
    }
    return best >= 0 ? 1.0f : -1.0f;
}

// Emits one contour loop as per-edge segments inset by `inset` (world units) towards the region.
// style_of(vertex flags) -> {colour, dashed}.
template <class StyleOf>
void emit_contour_loop(const ContourSet& cset, const int32_t* v, uint32_t n, float side, float inset, DrawList& out,
                       StyleOf&& style_of) {
    const float dash_on = 2.0f * cset.cs, dash_off = 1.1f * cset.cs;
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t* a = &v[i * 4];
        const int32_t* b = &v[((i + 1) % n) * 4];
        float pa[3], pb[3];
        voxel_to_world(cset.bmin, cset.cs, cset.ch, a[0], a[1], a[2], pa);
        voxel_to_world(cset.bmin, cset.cs, cset.ch, b[0], b[1], b[2], pb);
        const float dx = pb[0] - pa[0], dz = pb[2] - pa[2];
        const float len = std::sqrt(dx * dx + dz * dz);
        if (len > 1e-6f) {
            const float nx = -dz / len * side * inset, nz = dx / len * side * inset;
            pa[0] += nx; pa[2] += nz;
            pb[0] += nx; pb[2] += nz;
        }
        const auto [color, dashed] = style_of(a[3]);
        if (!dashed || len <= dash_on + dash_off) {
            out.add_line(pa, pb, color);
            continue;
        }
        // dashes with whole periods spread evenly, starting and ending with a dash
        const float period = dash_on + dash_off;
        const int count = std::max(1, static_cast<int>(std::lround((len + dash_off) / period)));
        const float on = len / (static_cast<float>(count) * period - dash_off) * dash_on;
        const float step = len / (static_cast<float>(count) * period - dash_off) * period;
        for (int k = 0; k < count; ++k) {
            const float t0 = static_cast<float>(k) * step / len, t1 = std::min(1.0f, t0 + on / len);
            const float q0[3] = {pa[0] + (pb[0] - pa[0]) * t0, pa[1] + (pb[1] - pa[1]) * t0, pa[2] + (pb[2] - pa[2]) * t0};
            const float q1[3] = {pa[0] + (pb[0] - pa[0]) * t1, pa[1] + (pb[1] - pa[1]) * t1, pa[2] + (pb[2] - pa[2]) * t1};
            out.add_line(q0, q1, color);
        }
    }
}

using LayerSources = std::array<std::shared_ptr<const void>, 3>;

template <class T>
std::shared_ptr<const void> as_void(const std::shared_ptr<const T>& p) {
    return std::static_pointer_cast<const void>(p);
}

namespace {
// One tile of a tiled bake seen as a bake: nav::tile_view (core/pipeline/pipeline.h).
void append(DrawList& dst, const DrawList& src) {
    const auto base = static_cast<uint32_t>(dst.tri_verts.size());
    dst.tri_verts.insert(dst.tri_verts.end(), src.tri_verts.begin(), src.tri_verts.end());
    for (uint32_t i : src.tri_indices) dst.tri_indices.push_back(base + i);
    dst.line_verts.insert(dst.line_verts.end(), src.line_verts.begin(), src.line_verts.end());
    dst.point_verts.insert(dst.point_verts.end(), src.point_verts.begin(), src.point_verts.end());
    // Span instances are cells of their list's grid: moved onto dst's grid (tiles share the lattice).
    const int dx = static_cast<int>(std::lround((src.span_origin[0] - dst.span_origin[0]) / src.span_cs));
    const int dz = static_cast<int>(std::lround((src.span_origin[2] - dst.span_origin[2]) / src.span_cs));
    const int dy = static_cast<int>(std::lround((src.span_origin[1] - dst.span_origin[1]) / src.span_ch));
    for (SpanInstance si : src.spans) {
        si.x = static_cast<uint32_t>(static_cast<int64_t>(si.x) + dx);
        si.z = static_cast<uint32_t>(static_cast<int64_t>(si.z) + dz);
        si.y0 = static_cast<uint16_t>(si.y0 + dy);
        si.y1 = static_cast<uint16_t>(si.y1 + dy);
        dst.spans.push_back(si);
    }
}
}  // namespace

// A tiled bake's tiles as a set: a fingerprint of their addresses (a re-baked tile is a new object)
// held as a pointer value that owns nothing, beside the navmesh and the first tile, which it keeps
// alive.
LayerSources tiles_fingerprint(const Bake& b) {
    uint64_t h = 1469598103934665603ull;
    for (const auto& t : b.tiles) h = (h ^ reinterpret_cast<uintptr_t>(t.get())) * 1099511628211ull;
    const void* print = reinterpret_cast<const void*>(static_cast<uintptr_t>(h | 1));
    return {as_void(b.navmesh), b.tiles.empty() ? nullptr : as_void(b.tiles.front()),
            std::shared_ptr<const void>(std::shared_ptr<const void>(), print)};
}

}  // namespace

uint32_t distance_color(uint16_t d, uint16_t max_dist) {
    const float t = max_dist ? static_cast<float>(d) / static_cast<float>(max_dist) : 0.0f;
    const int v = std::clamp(static_cast<int>(24.0f + 231.0f * t + 0.5f), 0, 255);
    return rgba(v, v, v);
}

void build_input(const InputMesh& mesh, const std::vector<uint8_t>& tri_areas, DrawList& out) {
    out.clear();
    out.shade = Shade::Checker;
    const float ext[3] = {mesh.bmax[0] - mesh.bmin[0], mesh.bmax[1] - mesh.bmin[1], mesh.bmax[2] - mesh.bmin[2]};
    const float diag = std::sqrt(ext[0] * ext[0] + ext[1] * ext[1] + ext[2] * ext[2]);
    // a round checker size (power of ten) giving roughly 20..200 cells across the mesh
    out.grid_cell = std::pow(10.0f, std::round(std::log10(std::max(diag, 1e-3f) / 60.0f)));
    for (int i = 0; i < 3; ++i) out.grid_origin[i] = 0.0f;
    const int ntris = mesh.tri_count();
    out.tri_verts.reserve(static_cast<size_t>(ntris) * 3);
    out.tri_indices.reserve(static_cast<size_t>(ntris) * 3);
    const bool have_areas = tri_areas.size() == static_cast<size_t>(ntris);
    for (int t = 0; t < ntris; ++t) {
        const int* tri = &mesh.tris[static_cast<size_t>(t) * 3];
        const bool walkable = have_areas && tri_areas[static_cast<size_t>(t)] != kNullArea;
        out.add_triangle(&mesh.verts[static_cast<size_t>(tri[0]) * 3], &mesh.verts[static_cast<size_t>(tri[1]) * 3],
                         &mesh.verts[static_cast<size_t>(tri[2]) * 3],
                         walkable ? colors::kInputWalkable : colors::kInputSteep);
    }
}

void build_voxels(const Heightfield& hf, DrawList& out) {
    build_span_boxes(hf, out, [](size_t, uint32_t, const Span& s) {
        return s.area != kNullArea ? colors::kSolidWalkable : colors::kSolidBlocked;
    });
}

void build_filtered(const Heightfield* solid, const Heightfield& filtered, DrawList& out) {
    const bool same_grid = solid && solid->width == filtered.width && solid->height == filtered.height &&
                           solid->columns.size() == filtered.columns.size();
    // The filters change areas in place, so both fields hold the same spans in the same order;
    // `before` follows the solid column in step with the filtered one.
    size_t cur_col = static_cast<size_t>(-1);
    uint32_t before = kNullSpan;
    build_span_boxes(filtered, out, [&](size_t c, uint32_t, const Span& s) {
        if (same_grid) {
            before = c != cur_col ? solid->columns[c] : (before != kNullSpan ? solid->pool[before].next : kNullSpan);
            cur_col = c;
        }
        if (s.area == kNullArea) {
            if (s.filtered_by & kFilteredLedge) return colors::kFilterLedge;
            if (s.filtered_by & kFilteredLowHeight) return colors::kFilterLowHeight;
            return colors::kFilterBlocked;
        }
        if (same_grid && before != kNullSpan) {
            const Span& o = solid->pool[before];
            if (o.smin == s.smin && o.smax == s.smax && o.area == kNullArea) return colors::kFilterRescued;
        }
        return colors::kFilterKept;
    });
}

void build_compact(const CompactHeightfield& chf, DrawList& out) {
    build_span_floors(chf, Layer::Compact, out, [&](uint32_t i) {
        return chf.areas[i] != kNullArea ? colors::kCompactWalkable : colors::kCompactNull;
    });
}

void build_eroded(const CompactHeightfield& chf, const std::vector<uint8_t>& eroded, DrawList& out) {
    build_span_floors(chf, Layer::Eroded, out, [&](uint32_t i) {
        if (chf.areas[i] == kNullArea) return colors::kCompactNull;
        return eroded[i] != kNullArea ? colors::kErodeKept : colors::kErodeRemoved;
    });
}

void build_areas(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, const AreaColors& area_rgb, DrawList& out) {
    build_span_floors(chf, Layer::Areas, out, [&](uint32_t i) { return area_rgb(areas[i]); });
}

void build_distance(const CompactHeightfield& chf, const DistanceField& df, DrawList& out) {
    build_span_floors(chf, Layer::Distance, out,
                      [&](uint32_t i) { return distance_color(df.dist[i], df.max_dist); });
}

void build_regions(const CompactHeightfield& chf, const Regions& regions, DrawList& out) {
    build_span_floors(chf, Layer::Regions, out, [&](uint32_t i) { return region_color(regions.reg[i]); });
    // outlines where the region changes (or the walkable surface ends)
    out.line_width = 1.6f;
    const float lift = floor_lift(chf, Layer::Regions);
    for (int z = 0; z < chf.height; ++z) {
        for (int x = 0; x < chf.width; ++x) {
            const CompactCell& cell = chf.cells[static_cast<size_t>(x + z * chf.width)];
            const float x0 = chf.bmin[0] + x * chf.cs, z0 = chf.bmin[2] + z * chf.cs;
            const float x1 = x0 + chf.cs, z1 = z0 + chf.cs;
            for (uint32_t i = cell.index, end = cell.index + cell.count; i < end; ++i) {
                const uint16_t r = regions.reg[i];
                if (r == 0) continue;
                const CompactSpan& s = chf.spans[i];
                const float y = chf.bmin[1] + s.y * chf.ch + lift;
                for (int dir = 0; dir < 4; ++dir) {
                    uint16_t nr = 0;
                    if (get_con(s, dir) != kNotConnected) nr = regions.reg[chf.neighbour(x, z, i, dir)];
                    if (nr == r) continue;
                    switch (dir) {
                        case 0: out.add_line(x0, y, z0, x0, y, z1, colors::kRegionEdge); break;
                        case 1: out.add_line(x0, y, z1, x1, y, z1, colors::kRegionEdge); break;
                        case 2: out.add_line(x1, y, z0, x1, y, z1, colors::kRegionEdge); break;
                        default: out.add_line(x0, y, z0, x1, y, z0, colors::kRegionEdge); break;
                    }
                }
            }
        }
    }
}

void build_raw_contours(const ContourSet& cset, DrawList& out) {
    out.clear();
    out.line_width = 1.5f;
    const float side = contour_region_side(cset), inset = 0.12f * cset.cs;
    for (const Contour& c : cset.contours) {
        if (c.nraw < 2) continue;
        const uint32_t color = color_with_alpha(color_scale(region_color(c.reg), 0.62f), 235);
        emit_contour_loop(cset, &cset.raw_verts[static_cast<size_t>(c.raw_start) * 4], c.nraw, side, inset, out,
                          [&](int32_t) { return std::pair<uint32_t, bool>{color, false}; });
    }
}

void build_contours(const ContourSet& cset, DrawList& out, DrawList& lines) {
    out.clear();
    lines.clear();
    out.line_width = 5.5f;  // dark halo under each coloured edge, so light colours read on light floors
    lines.line_width = 3.5f;
    lines.point_size = 7.0f;
    const float side = contour_region_side(cset), inset = 0.12f * cset.cs;
    for (const Contour& c : cset.contours) {
        if (c.nverts < 2) continue;  // merged holes keep only their raw loop
        const uint32_t base = region_color(c.reg), area_edge = lighten(base, 0.55f);
        const int32_t* v = &cset.verts[static_cast<size_t>(c.vert_start) * 4];
        auto is_portal = [](int32_t flags) {
            const auto nreg = static_cast<uint16_t>(flags & kContourRegMask);
            return nreg != 0 && !(nreg & kBorderRegion);
        };
        emit_contour_loop(cset, v, c.nverts, side, inset, out, [&](int32_t flags) {
            return std::pair<uint32_t, bool>{colors::kContourHalo, is_portal(flags)};
        });
        emit_contour_loop(cset, v, c.nverts, side, inset, lines, [&](int32_t flags) {
            return std::pair<uint32_t, bool>{(flags & kAreaBorder) ? area_edge : base, is_portal(flags)};
        });
        for (uint32_t i = 0; i < c.nverts; ++i) {
            const int32_t* a = &v[i * 4];
            float p[3];
            voxel_to_world(cset.bmin, cset.cs, cset.ch, a[0], a[1], a[2], p);
            lines.add_point(p, (a[3] & kBorderVertex) ? colors::kContourBorderVertex : colors::kContourVertex);
        }
    }
}

void build_polymesh(const PolyMesh& mesh, const AreaColors& area_rgb, DrawList& out, DrawList& edges) {
    out.clear();
    edges.clear();
    out.line_width = 1.5f;
    edges.line_width = 3.0f;
    out.point_size = 8.0f;
    const int nvp = mesh.nvp;
    out.tri_verts.reserve(static_cast<size_t>(mesh.npolys) * static_cast<size_t>(nvp));
    out.tri_indices.reserve(static_cast<size_t>(mesh.npolys) * static_cast<size_t>(nvp - 2) * 3);
    auto world = [&](uint16_t vi, float* p) {
        const uint16_t* v = &mesh.verts[static_cast<size_t>(vi) * 3];
        voxel_to_world(mesh.bmin, mesh.cs, mesh.ch, v[0], v[1], v[2], p);
    };
    for (int i = 0; i < mesh.npolys; ++i) {
        const uint16_t* p = mesh.poly(i);
        const int n = mesh.poly_vert_count(i);
        if (n < 3) continue;
        const uint32_t fill = color_with_alpha(area_rgb(mesh.areas[static_cast<size_t>(i)]), colors::kPolyFillAlpha);
        // convex: a fan from the first vertex
        const auto base = static_cast<uint32_t>(out.tri_verts.size());
        for (int k = 0; k < n; ++k) {
            float q[3];
            world(p[k], q);
            out.tri_verts.push_back({q[0], q[1], q[2], fill});
        }
        for (int k = 1; k + 1 < n; ++k) {
            out.tri_indices.push_back(base);
            out.tri_indices.push_back(base + static_cast<uint32_t>(k));
            out.tri_indices.push_back(base + static_cast<uint32_t>(k + 1));
        }
        for (int k = 0; k < n; ++k) {
            const uint16_t nei = p[nvp + k];
            const bool boundary = nei == kMeshNullIdx || (nei & 0x8000);
            // shared edges are listed by both polygons: draw them once
            if (!boundary && static_cast<int>(nei) < i) continue;
            float a[3], b[3];
            world(p[k], a);
            world(p[(k + 1) % n], b);
            if (boundary) edges.add_line(a, b, colors::kPolyBoundary);
            else out.add_line(a, b, colors::kPolyNeighbour);
        }
    }
    for (int v = 0; v < mesh.nverts; ++v) {
        float q[3];
        world(static_cast<uint16_t>(v), q);
        out.add_point(q, colors::kPolyVertex);
    }
}

void build_detail(const PolyMeshDetail& detail, const PolyMesh& mesh, DrawList& out, DrawList& edges) {
    out.clear();
    edges.clear();
    out.line_width = 1.0f;
    edges.line_width = 1.75f;
    const float lift = mesh.ch;  // detail vertices sit on the floor; draw them with the polygons
    out.tri_verts.reserve(static_cast<size_t>(detail.nverts));
    out.tri_indices.reserve(static_cast<size_t>(detail.ntris) * 3);
    for (int m = 0; m < detail.nmeshes; ++m) {
        const uint32_t* md = &detail.meshes[static_cast<size_t>(m) * 4];
        const uint32_t vbase = md[0], vcount = md[1], tbase = md[2], tcount = md[3];
        const uint32_t tint = hash_color(static_cast<uint32_t>(m));
        const auto first = static_cast<uint32_t>(out.tri_verts.size());
        for (uint32_t k = 0; k < vcount; ++k) {
            const float* v = &detail.verts[static_cast<size_t>(vbase + k) * 3];
            out.tri_verts.push_back({v[0], v[1] + lift, v[2], tint});
        }
        for (uint32_t t = 0; t < tcount; ++t) {
            const uint8_t* tri = &detail.tris[static_cast<size_t>(tbase + t) * 4];
            for (int e = 0; e < 3; ++e) out.tri_indices.push_back(first + tri[e]);
            for (int e = 0; e < 3; ++e) {
                const uint8_t a = tri[e], b = tri[(e + 1) % 3];
                const bool hull = ((tri[3] >> (2 * e)) & 3) != 0;
                if (!hull && a > b) continue;  // internal edges belong to two triangles: draw once
                const Vertex& va = out.tri_verts[first + a];
                const Vertex& vb = out.tri_verts[first + b];
                (hull ? edges : out).add_line(va.x, va.y, va.z, vb.x, vb.y, vb.z,
                                              hull ? colors::kDetailPolyEdge : colors::kDetailInternal);
            }
        }
    }
}

void add_navmesh_poly(const NavMesh& mesh, uint32_t p, uint32_t color, float lift, DrawList& out) {
    const bool have_detail = mesh.dtri_first.size() == static_cast<size_t>(mesh.npolys) + 1 &&
                             mesh.dtri_first[p + 1] > mesh.dtri_first[p];
    if (have_detail) {
        for (uint32_t t = mesh.dtri_first[p]; t < mesh.dtri_first[p + 1]; ++t) {
            const float* v = &mesh.dtris[static_cast<size_t>(t) * 9];
            const auto b = static_cast<uint32_t>(out.tri_verts.size());
            for (int k = 0; k < 3; ++k) out.tri_verts.push_back({v[k * 3], v[k * 3 + 1] + lift, v[k * 3 + 2], color});
            // detail triangles may wind either way; the shader lights both sides
            out.tri_indices.push_back(b);
            out.tri_indices.push_back(b + 1);
            out.tri_indices.push_back(b + 2);
        }
        return;
    }
    const auto base = static_cast<uint32_t>(out.tri_verts.size());
    const int n = mesh.poly_vert_count(p);
    for (int k = 0; k < n; ++k) {
        const float* v = mesh.vert(mesh.edge_vert[mesh.poly_first[p] + static_cast<uint32_t>(k)]);
        out.tri_verts.push_back({v[0], v[1] + lift, v[2], color});
    }
    for (int k = 1; k + 1 < n; ++k) {
        out.tri_indices.push_back(base);
        out.tri_indices.push_back(base + static_cast<uint32_t>(k));
        out.tri_indices.push_back(base + static_cast<uint32_t>(k + 1));
    }
}

void add_navmesh_hatch(const NavMesh& mesh, uint32_t p, uint32_t color, float lift, DrawList& out) {
    const int n = mesh.poly_vert_count(p);
    if (n < 3) return;
    const auto v = [&](int k) { return mesh.vert(mesh.edge_vert[mesh.poly_first[p] + static_cast<uint32_t>(k % n)]); };
    float lo = 1e30f, hi = -1e30f;
    for (int k = 0; k < n; ++k) {
        lo = std::min(lo, v(k)[0] + v(k)[2]);
        hi = std::max(hi, v(k)[0] + v(k)[2]);
    }
    const float step = colors::kHatchStep;
    // the polygon is convex: each stripe x + z = c crosses its outline at two points (vertices
    // count on the side s <= 0 only, so a stripe through one is met once per side)
    for (float c = std::ceil(lo / step) * step; c <= hi; c += step) {
        float pts[2][3];
        int found = 0;
        for (int k = 0; k < n && found < 2; ++k) {
            const float* a = v(k);
            const float* b = v(k + 1);
            const float sa = a[0] + a[2] - c, sb = b[0] + b[2] - c;
            if ((sa <= 0.0f) == (sb <= 0.0f)) continue;
            const float t = sa / (sa - sb);
            for (int i = 0; i < 3; ++i) pts[found][i] = a[i] + t * (b[i] - a[i]);
            pts[found][1] += lift;
            ++found;
        }
        if (found == 2) out.add_line(pts[0], pts[1], color);
    }
}

void add_navmesh_edges(const NavMesh& mesh, float lift, uint32_t wall_color, DrawList& walls, uint32_t portal_color,
                       DrawList* portals) {
    for (uint32_t e = 0; e < static_cast<uint32_t>(mesh.nedges); ++e) {
        const uint32_t nei = mesh.edge_nei[e];
        if (nei != kNoPoly && (!portals || nei < mesh.edge_poly[e])) continue;  // portals are listed by both polygons: draw once
        float a[3], b[3];
        mesh.edge_points(e, a, b);
        a[1] += lift;
        b[1] += lift;
        if (nei == kNoPoly) walls.add_line(a, b, wall_color);
        else portals->add_line(a, b, portal_color);
    }
}

void build_navmesh_layer(const NavMesh& mesh, const AreaColors& area_rgb, DrawList& out, DrawList& edges) {
    out.clear();
    edges.clear();
    out.line_width = 1.25f;
    edges.line_width = 3.0f;
    add_navmesh_fills(mesh, [&](uint32_t p) { return color_with_alpha(area_rgb(mesh.areas[p]), colors::kPolyFillAlpha); },
                      out);
    add_navmesh_edges(mesh, kNavmeshLift, colors::kNavBoundary, edges, colors::kNavPortal, &out);
}

namespace {
// Byte by byte (every channel, alpha included) from a to b.
uint32_t lerp_color(uint32_t a, uint32_t b, float k) {
    uint32_t out = 0;
    for (int sh = 0; sh < 32; sh += 8) {
        const float x = static_cast<float>((a >> sh) & 0xff), y = static_cast<float>((b >> sh) & 0xff);
        out |= static_cast<uint32_t>(std::lround(x + (y - x) * std::clamp(k, 0.0f, 1.0f))) << sh;
    }
    return out;
}
}  // namespace

void build_tiles_layer(const Bake& b, DrawList& out) {
    out.clear();
    out.depth_test = false;  // an overlay over the level: the squares lie in the bounds' top plane
    if (!b.tiled() && b.navmesh && b.navmesh->ntiles > 1) {
        // a navmesh loaded, not baked (a Detour file): each tile's own bounds, no bake times
        const NavMesh& m = *b.navmesh;
        const float y = m.bmax[1] + 0.02f * std::max(1.0f, m.bmax[1] - m.bmin[1]);
        for (const TileSlot& slot : m.slots) {
            if (!slot.tile) continue;
            const NavTile& t = *slot.tile;
            const float box[4] = {t.bmin[0], t.bmin[2], t.bmax[0], t.bmax[2]};
            const float gap = 0.04f * (box[2] - box[0]);
            out.add_floor_quad(box[0] + gap, box[1] + gap, box[2] - gap, box[3] - gap, y,
                               t.npolys() ? colors::kTileFast : colors::kTileEmpty);
            out.add_line(box[0], y, box[1], box[2], y, box[1], colors::kTileEdge);
            out.add_line(box[2], y, box[1], box[2], y, box[3], colors::kTileEdge);
            out.add_line(box[2], y, box[3], box[0], y, box[3], colors::kTileEdge);
            out.add_line(box[0], y, box[3], box[0], y, box[1], colors::kTileEdge);
        }
        return;
    }
    if (!b.tiled() || b.tiles.empty()) return;
    const BakeConfig& c = b.config;
    const float y = c.bmax[1] + 0.02f * std::max(1.0f, c.bmax[1] - c.bmin[1]);
    double max_ms = 0, min_ms = 1e300;
    for (const auto& t : b.tiles)
        if (t) max_ms = std::max(max_ms, t->ms), min_ms = std::min(min_ms, t->ms);
    for (int tz = 0; tz < b.layout.rows; ++tz)
        for (int tx = 0; tx < b.layout.cols; ++tx) {
            const int i = tx + tz * b.layout.cols;
            float box[4];
            tile_box(c, b.layout, tx, tz, box);
            const TileBake* t = static_cast<size_t>(i) < b.tiles.size() ? b.tiles[static_cast<size_t>(i)].get() : nullptr;
            uint32_t fill = colors::kTilePending;
            if (t && t->polymesh && t->polymesh->npolys == 0) {
                fill = colors::kTileEmpty;
            } else if (t) {
                const float k = max_ms > min_ms ? static_cast<float>((t->ms - min_ms) / (max_ms - min_ms)) : 0.0f;
                fill = lerp_color(colors::kTileFast, colors::kTileSlow, k);
            }
            // a small gap between squares keeps neighbours apart
            const float gap = 0.04f * (box[2] - box[0]);
            out.add_floor_quad(box[0] + gap, box[1] + gap, box[2] - gap, box[3] - gap, y, fill);
            const uint32_t edge = i == b.error_tile ? colors::kTileSlow | 0xff000000u : colors::kTileEdge;
            out.add_line(box[0], y, box[1], box[2], y, box[1], edge);
            out.add_line(box[2], y, box[1], box[2], y, box[3], edge);
            out.add_line(box[2], y, box[3], box[0], y, box[3], edge);
            out.add_line(box[0], y, box[3], box[0], y, box[1], edge);
        }
}


namespace {
// Each layer's legend (kLayerTable): built on first use (some colours come from functions).
std::span<const LegendEntry> legend_input(const AreaColors&) {
    static constexpr LegendEntry e[] = {{colors::kInputWalkable, "walkable slope"},
                                        {colors::kInputSteep, "too steep"}};
    return e;
}
std::span<const LegendEntry> legend_voxels(const AreaColors&) {
    static constexpr LegendEntry e[] = {{colors::kSolidWalkable, "walkable span"},
                                        {colors::kSolidBlocked, "not walkable"}};
    return e;
}
std::span<const LegendEntry> legend_filtered(const AreaColors&) {
    static constexpr LegendEntry e[] = {{colors::kFilterKept, "walkable"},
                                        {colors::kFilterLedge, "removed: ledge"},
                                        {colors::kFilterLowHeight, "removed: low height"},
                                        {colors::kFilterRescued, "made walkable: low-hanging"},
                                        {colors::kFilterBlocked, "not walkable"}};
    return e;
}
std::span<const LegendEntry> legend_compact(const AreaColors&) {
    static constexpr LegendEntry e[] = {{colors::kCompactWalkable, "open span"},
                                        {colors::kCompactNull, "null area"}};
    return e;
}
std::span<const LegendEntry> legend_eroded(const AreaColors&) {
    static constexpr LegendEntry e[] = {{colors::kErodeKept, "kept"}, {colors::kErodeRemoved, "eroded"}};
    return e;
}
std::span<const LegendEntry> legend_areas(const AreaColors& area_rgb) {
    // the colours follow the area table drawn: filled on every call
    thread_local LegendEntry e[] = {{0, "ground"}, {0, "water"}, {0, "road"}, {0, "door"},
                                    {0, "grass"},  {0, "jump"},  {0, "null"}};
    const uint8_t ids[] = {kWalkableArea, kAreaWater, kAreaRoad, kAreaDoor, kAreaGrass, kAreaJump, kNullArea};
    for (size_t i = 0; i < std::size(ids); ++i) e[i].color = area_rgb(ids[i]);
    return e;
}
std::span<const LegendEntry> legend_distance(const AreaColors&) {
    static const LegendEntry e[] = {{distance_color(0, 1), "boundary"}, {distance_color(1, 1), "max distance"}};
    return e;
}
std::span<const LegendEntry> legend_regions(const AreaColors&) {
    // one colour per region: the Layers panel lists them (regions_legend, panels_left.cpp), not three samples
    static const LegendEntry e[] = {{colors::kRegionNone, "no region"}};
    return e;
}
std::span<const LegendEntry> legend_raw_contours(const AreaColors&) {
    static const LegendEntry e[] = {{color_scale(hash_color(1), 0.62f), "raw edge (region 1)"},
                                    {color_scale(hash_color(2), 0.62f), "raw edge (region 2)"}};
    return e;
}
std::span<const LegendEntry> legend_contours(const AreaColors&) {
    static const LegendEntry e[] = {{hash_color(1), "wall (solid)"},
                                    {hash_color(2), "to region (dashed)"},
                                    {lighten(hash_color(1), 0.55f), "area border"},
                                    {colors::kContourVertex, "vertex"},
                                    {colors::kContourBorderVertex, "tile-border vertex"}};
    return e;
}
std::span<const LegendEntry> legend_polymesh(const AreaColors& area_rgb) {
    thread_local LegendEntry e[] = {{0, "ground"},   {0, "water"},
                                    {0, "road"},         {0, "grass"},
                                    {colors::kPolyBoundary, "boundary edge"}, {colors::kPolyNeighbour, "neighbour edge"},
                                    {colors::kPolyVertex, "vertex"}};
    const uint8_t ids[] = {kWalkableArea, kAreaWater, kAreaRoad, kAreaGrass};
    for (size_t i = 0; i < std::size(ids); ++i) e[i].color = area_rgb(ids[i]);
    return e;
}
std::span<const LegendEntry> legend_detail(const AreaColors&) {
    static const LegendEntry e[] = {{hash_color(0), "polygon 0"},
                                    {hash_color(1), "polygon 1"},
                                    {colors::kDetailPolyEdge, "polygon edge"},
                                    {colors::kDetailInternal, "internal edge"}};
    return e;
}
std::span<const LegendEntry> legend_navmesh(const AreaColors& area_rgb) {
    thread_local LegendEntry e[] = {{0, "ground"},  {0, "water"},
                                    {colors::kNavBoundary, "boundary edge"}, {colors::kNavPortal, "portal"},
                                    {colors::kNavDisabled, "pruned (hatched)"}};
    e[0].color = area_rgb(kWalkableArea);
    e[1].color = area_rgb(kAreaWater);
    return e;
}
std::span<const LegendEntry> legend_islands(const AreaColors&) {
    static const LegendEntry e[] = {{island_color(0), "island 0"}, {island_color(1), "island 1"},
                                    {colors::kNavDisabled, "pruned (hatched)"},
                                    {colors::kNavBoundary, "boundary edge"}};
    return e;
}
std::span<const LegendEntry> legend_agent_types(const AreaColors&) {
    static const LegendEntry e[] = {{agent_type_color(0), "fits 1st"},
                                    {agent_type_color(1), "fits 2nd"},
                                    {agent_type_color(2), "fits 3rd"},
                                    {agent_type_color(3), "fits 4th"},
                                    {agent_type_color(-1), "no list"},
                                    {colors::kNavBoundary, "boundary edge"}};
    return e;
}
std::span<const LegendEntry> legend_tiles(const AreaColors&) {
    static const LegendEntry e[] = {{colors::kTileFast, "fastest bake"}, {colors::kTileSlow, "slowest bake"},
                                    {colors::kTilePending, "not baked yet"}, {colors::kTileEmpty, "no polygons"}};
    return e;
}
std::span<const LegendEntry> legend_links(const AreaColors&) {
    static const LegendEntry e[] = {{colors::kLinkJump, "jump link"},
                                    {colors::kLinkDrop, "drop link"},
                                    {colors::kLinkRejected, "rejected candidate"},
                                    {colors::kLinkBlocked, "arc blocked here"},
                                    {colors::kLinkTooFar, "drop too high / gap too wide"},
                                    {colors::kLinkNotWalkable, "landing not walkable"}};
    return e;
}
std::span<const LegendEntry> legend_path(const AreaColors&) {
    static const LegendEntry e[] = {{colors::kPathCorridor, "corridor"}, {colors::kPathPortal, "portal"},
                                    {colors::kPathLine, "straight path"}, {colors::kPathCorner, "corner"},
                                    {colors::kPathStart, "start"},       {colors::kPathEnd, "end"},
                                    {colors::kNodeClosed, "A* closed"},  {colors::kNodeOpen, "A* open"}};
    return e;
}
}  // namespace

namespace {
// What a layer is, in one place: its tooltip, the stage data it is drawn from (compared by
// identity to tell when to rebuild), whether the bake holds that data, how it is drawn, and its
// legend. Its name and stage are its LAYER row in render/layer_names.h (NAV_LAYER_ROWS: the session
// reader needs the names without GL). Adding a layer: that row, and a row here with its builder and legend.
struct LayerInfo {
    Layer layer;
    std::string_view help;    // one-line tooltip
    // Drawn from one grid's stage results: a tiled bake draws it tile by tile (each tile seen as a
    // bake through tile_view), its sources being the tiles as a set.
    bool per_grid;
    // Tiled: region ids restart in every tile, so they are shifted per tile for drawing.
    bool shifts_region_ids;
    // Drawn in the area table's colours (AreaColors): rebuilt when they change.
    bool area_colored;
    LayerSources (*sources)(const Bake&);      // the data drawn (kept alive while drawn)
    bool (*available)(const Bake&);            // the bake holds it (of one grid for per_grid layers)
    void (*build)(const Bake&, DrawList& out, DrawList& extra);  // null: drawn by the app (path)
    std::span<const LegendEntry> (*legend)(const AreaColors&);
};

bool has_navmesh(const Bake& b) { return b.navmesh && !b.navmesh->empty(); }
LayerSources navmesh_sources(const Bake& b) { return {as_void(b.navmesh), nullptr, nullptr}; }
LayerSources contour_sources(const Bake& b) { return {as_void(b.contours), nullptr, nullptr}; }
bool has_contours(const Bake& b) { return b.contours != nullptr; }

// {layer, help, per_grid, shifts_region_ids, area_colored, sources, available, build, legend}
constexpr LayerInfo kLayerTable[] = {
    {Layer::Input,
     "Input triangles: walkable by slope vs too steep.",
     false, false, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.mesh), as_void(b.tri_areas), nullptr}; },
     [](const Bake& b) -> bool { return b.mesh && b.tri_areas; },
     [](const Bake& b, DrawList& out, DrawList&) { build_input(*b.mesh, *b.tri_areas, out); }, legend_input},
    {Layer::Voxels,
     "Solid heightfield: every rasterized span as a box (walkable tops blue).",
     true, false, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.solid), nullptr, nullptr}; },
     [](const Bake& b) { return b.solid != nullptr; },
     [](const Bake& b, DrawList& out, DrawList&) { build_voxels(*b.solid, out); }, legend_voxels},
    {Layer::Filtered,
     "Spans after the filters, coloured by the filter that removed them.",
     true, false, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.solid), as_void(b.filtered), nullptr}; },
     [](const Bake& b) { return b.filtered != nullptr; },
     [](const Bake& b, DrawList& out, DrawList&) { build_filtered(b.solid.get(), *b.filtered, out); }, legend_filtered},
    {Layer::Compact,
     "Open heightfield: the floor of every open span.",
     true, false, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.compact), nullptr, nullptr}; },
     [](const Bake& b) { return b.compact != nullptr; },
     [](const Bake& b, DrawList& out, DrawList&) { build_compact(*b.compact, out); }, legend_compact},
    {Layer::Eroded,
     "Walkable area after erosion by the agent radius: kept vs eroded.",
     true, false, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.compact), as_void(b.eroded), nullptr}; },
     [](const Bake& b) -> bool { return b.compact && b.eroded && b.eroded->size() == b.compact->spans.size(); },
     [](const Bake& b, DrawList& out, DrawList&) { build_eroded(*b.compact, *b.eroded, out); }, legend_eroded},
    {Layer::Areas,
     "Area ids after convex volumes are stamped.",
     true, false, true,
     [](const Bake& b) -> LayerSources { return {as_void(b.compact), as_void(b.areas), nullptr}; },
     [](const Bake& b) -> bool { return b.compact && b.areas && b.areas->size() == b.compact->spans.size(); },
     [](const Bake& b, DrawList& out, DrawList&) { build_areas(*b.compact, *b.areas, AreaColors(b.inputs.areas), out); }, legend_areas},
    {Layer::Distance,
     "Distance to the region boundary, black (edge) to white (centre).",
     true, false, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.compact), as_void(b.distance), nullptr}; },
     [](const Bake& b) -> bool {
         return b.compact && b.distance && b.distance->dist.size() == b.compact->spans.size();
     },
     [](const Bake& b, DrawList& out, DrawList&) { build_distance(*b.compact, *b.distance, out); }, legend_distance},
    {Layer::Regions,
     "Regions: one colour per region id, outlines between regions.",
     true, true, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.compact), as_void(b.regions), nullptr}; },
     [](const Bake& b) -> bool { return b.compact && b.regions && b.regions->reg.size() == b.compact->spans.size(); },
     [](const Bake& b, DrawList& out, DrawList&) { build_regions(*b.compact, *b.regions, out); }, legend_regions},
    {Layer::RawContours,
     "Raw contours: each region's boundary traced along cell corners (thin, darkened region colour).",
     true, true, false, contour_sources, has_contours,
     [](const Bake& b, DrawList& out, DrawList&) { build_raw_contours(*b.contours, out); }, legend_raw_contours},
    {Layer::Contours,
     "Simplified contours (thick, region colour): solid along walls, dashed towards another region, "
     "lighter along area borders; dots are the kept vertices (dark: tile border).",
     true, true, false, contour_sources, has_contours,
     [](const Bake& b, DrawList& out, DrawList& extra) { build_contours(*b.contours, out, extra); }, legend_contours},
    {Layer::Polymesh,
     "Convex polygons filled by area: thick edges are the mesh boundary, thin ones lead to a neighbour "
     "polygon; dots are the vertices.",
     true, false, true,
     [](const Bake& b) -> LayerSources { return {as_void(b.polymesh), nullptr, nullptr}; },
     [](const Bake& b) { return b.polymesh != nullptr; },
     [](const Bake& b, DrawList& out, DrawList& extra) { build_polymesh(*b.polymesh, AreaColors(b.inputs.areas), out, extra); }, legend_polymesh},
    {Layer::Detail,
     "Detail triangles following the surface height, one tint per polygon; polygon outlines dark, "
     "internal edges faint.",
     true, false, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.detail), as_void(b.polymesh), nullptr}; },
     [](const Bake& b) -> bool {
         return b.detail && b.polymesh && b.detail->meshes.size() == static_cast<size_t>(b.detail->nmeshes) * 4 &&
                b.detail->nmeshes == b.polymesh->npolys;
     },
     [](const Bake& b, DrawList& out, DrawList& extra) { build_detail(*b.detail, *b.polymesh, out, extra); },
     legend_detail},
    {Layer::Navmesh,
     "Runtime navmesh (what queries run on): polygons filled by area over their detail surface, thick "
     "boundary edges, thin portals.",
     false, false, true, navmesh_sources, has_navmesh,
     [](const Bake& b, DrawList& out, DrawList& extra) { build_navmesh_layer(*b.navmesh, AreaColors(b.inputs.areas), out, extra); },
     legend_navmesh},
    {Layer::Islands,
     "Islands: each connected part of the navmesh in its own colour (areas in the Islands panel); "
     "polygons a prune disabled are dark.",
     false, false, false, navmesh_sources, has_navmesh,
     [](const Bake& b, DrawList& out, DrawList& extra) { build_islands_layer(*b.navmesh, out, extra); },
     legend_islands},
    {Layer::AgentTypes,
     "Agent types (a config's \"agent_types\"): each polygon in the colour of the last type of the list "
     "that fits it (list them small to large: the largest); grey without a list.",
     false, false, false, navmesh_sources, has_navmesh,
     [](const Bake& b, DrawList& out, DrawList& extra) { build_agent_types_layer(*b.navmesh, out, extra); },
     legend_agent_types},
    // drawn over the whole bake, from every tile: its sources are the tiles as a set
    {Layer::Tiles,
     "Tiles (tile_size > 0, or a Detour navmesh file of several tiles: their bounds): each tile's square filled by its bake time, green fastest to red slowest; "
     "dark: not baked yet, grey: no polygons; a failed tile outlined red.",
     false, false, false,
     [](const Bake& b) -> LayerSources { return b.tiled() ? tiles_fingerprint(b) : navmesh_sources(b); },
     // a baked tiled navmesh, or a loaded one of several tiles (a Detour file: the tiles' bounds)
     [](const Bake& b) { return (b.tiled() && !b.tiles.empty()) || (b.navmesh && b.navmesh->ntiles > 1); },
     [](const Bake& b, DrawList& out, DrawList&) { build_tiles_layer(b, out); }, legend_tiles},
    // the app runs the query and draws it with build_path (render/path_draw.h)
    {Layer::Path,
     "Path tool: Shift+click start, click end. Corridor polygons amber, portals pale yellow, straight "
     "path magenta with white corners; start green, end red.",
     false, false, false, navmesh_sources, has_navmesh, nullptr, legend_path},
    // the automatic off-mesh links (link_drop_height, link_jump_distance > 0: Bake::auto_links)
    {Layer::Links,
     "Automatic off-mesh links: jumps violet, drops cyan, arrowheads where they can be taken; rejected "
     "candidates dim, with a marker: red where the arc is blocked, amber drop too high or gap too wide, "
     "yellow landing not walkable.",
     false, false, false,
     [](const Bake& b) -> LayerSources { return {as_void(b.auto_links), nullptr, nullptr}; },
     [](const Bake& b) { return b.auto_links != nullptr; },
     [](const Bake& b, DrawList& out, DrawList& extra) { build_links_layer(*b.auto_links, out, extra); },
     legend_links},
};
static_assert(std::size(kLayerTable) == kLayerCount, "one row per layer");
static_assert([] {
    for (int i = 0; i < kLayerCount; ++i) {
        const LayerInfo& r = kLayerTable[i];
        if (r.layer != static_cast<Layer>(i)) return false;  // rows in Layer order
        if ((r.build != nullptr) != layer_from_bake(r.layer)) return false;  // layers.h's layer_from_bake
        if (!r.sources || !r.available || !r.legend) return false;
    }
    return true;
}());

const LayerInfo& layer_info(Layer l) { return kLayerTable[static_cast<size_t>(l)]; }

// The row's builder on both lists, cleared first.
bool run_builder(const LayerInfo& row, const Bake& b, DrawList& out, DrawList& extra) {
    out.clear();
    extra.clear();
    if (!row.build) return false;
    row.build(b, out, extra);
    return true;
}

LayerSources layer_sources(Layer l, const Bake& b) {
    if (b.tiled() && layer_info(l).per_grid) return tiles_fingerprint(b);  // drawn from every tile
    return layer_info(l).sources(b);
}
}  // namespace

Stage layer_stage(Layer l) { return kLayerStages[static_cast<size_t>(l)]; }
std::string_view layer_help(Layer l) { return layer_info(l).help; }
std::span<const LegendEntry> layer_legend(Layer l, const AreaColors& area_rgb) { return layer_info(l).legend(area_rgb); }

uint64_t layer_colors_key(Layer l, const Bake& b) {
    return layer_info(l).area_colored ? AreaColors(b.inputs.areas).hash() : 0;
}

bool layer_available(Layer l, const Bake& b) {
    if (b.tiled() && layer_info(l).per_grid) {
        // the tiles' stage results are all `available` reads: a full tile_view per tile (its stats
        // copied) cost milliseconds a frame over a thousand tiles where no tile had the data
        Bake v;
        for (const auto& t : b.tiles) {
            if (!t) continue;
            static_cast<StageResults<true>&>(v) = static_cast<const StageResults<true>&>(*t);
            if (layer_info(l).available(v)) return true;
        }
        return false;
    }
    return layer_info(l).available(b);
}

namespace {
size_t tiles_present(const Bake& b) {
    size_t n = 0;
    for (const auto& t : b.tiles) n += t ? 1 : 0;
    return n;
}
// Tiles [tx0, tx1) x [tz0, tz1) of a tiled bake drawn for a per-grid layer, each into scratch lists
// appended to out / extra (the style of the first), span instances on the grid of tile (tx0, tz0).
// False when none of them has the layer's data.
bool build_tiles(Layer l, const Bake& b, int tx0, int tz0, int tx1, int tz1, DrawList& out, DrawList& extra) {
    const LayerInfo& row = layer_info(l);
    DrawList t_out, t_extra;
    bool any = false;
    // With more than one tile drawn, each tile's span instances are its own cells only: its
    // border cells are its neighbours' (drawn by them), and drawing both doubled the spans
    // of a tiled level (z-fighting, a third more memory and upload). A tile drawn alone (the
    // Tile panel's "only selected tile") keeps its bordered grid.
    const bool own_cells_only = b.layout.border > 0 && tiles_present(b) > 1;
    const auto lo = static_cast<uint32_t>(b.layout.border), hi = lo + static_cast<uint32_t>(b.layout.tile_size);
    const auto drop_border = [&](DrawList& d) {
        std::erase_if(d.spans, [&](const SpanInstance& s) { return s.x < lo || s.z < lo || s.x >= hi || s.z >= hi; });
    };
    for (int tz = tz0; tz < tz1; ++tz) {
        for (int tx = tx0; tx < tx1; ++tx) {
            const auto index = static_cast<size_t>(tx + tz * b.layout.cols);
            const TileBake* t = index < b.tiles.size() ? b.tiles[index].get() : nullptr;
            if (!t) continue;
            Bake v = tile_view(b, *t);
            if (row.shifts_region_ids) {
                // Region ids restart in every tile: shifted by a step per tile index, so neighbouring
                // tiles' regions differ in colour and a tile's colours do not depend on the others
                // (a copy for drawing; the tile keeps its ids).
                const auto base = static_cast<uint32_t>((index * 1237u) % 0x7ffeu);
                auto shift = [&](uint16_t id) -> uint16_t {
                    const uint16_t r = static_cast<uint16_t>(id & ~kBorderRegion);
                    if (r == 0) return id;
                    const uint16_t moved = static_cast<uint16_t>(1 + (r - 1 + base) % 0x7ffe);
                    return static_cast<uint16_t>(moved | (id & kBorderRegion));
                };
                if (v.regions) {
                    auto regs = std::make_shared<Regions>(*v.regions);
                    for (uint16_t& id : regs->reg) id = shift(id);
                    v.regions = std::move(regs);
                }
                if (v.contours) {
                    auto cs = std::make_shared<ContourSet>(*v.contours);
                    for (Contour& k : cs->contours) k.reg = shift(k.reg);
                    v.contours = std::move(cs);
                }
            }
            if (!layer_available(l, v) || !run_builder(row, v, t_out, t_extra)) continue;
            if (own_cells_only) {
                drop_border(t_out);
                drop_border(t_extra);
            }
            if (!any) {
                const DrawList so = t_out, se = t_extra;  // keep the style (widths, shading, grid)
                out = so, extra = se;
                out.clear(), extra.clear();
                // span instances on the grid of the first tile of the range, its lowest corner:
                // every tile's cells land at non-negative coordinates
                const BakeConfig c0 = tile_config(b.config, b.layout, tx0, tz0);
                for (DrawList* d : {&out, &extra}) d->span_origin[0] = c0.bmin[0], d->span_origin[2] = c0.bmin[2];
            }
            any = true;
            append(out, t_out);
            append(extra, t_extra);
        }
    }
    return any;
}

// The block of tiles part `index` of a per-grid layer draws: tiles [tx0, tx1) x [tz0, tz1).
struct TileBlock {
    int tx0, tz0, tx1, tz1;
};
TileBlock part_block(const TileLayout& L, size_t index) {
    const int g = layer_part_block(L), bcols = (L.cols + g - 1) / g;
    const int bx = static_cast<int>(index % static_cast<size_t>(bcols)), bz = static_cast<int>(index / static_cast<size_t>(bcols));
    return {bx * g, bz * g, std::min((bx + 1) * g, L.cols), std::min((bz + 1) * g, L.rows)};
}
bool parts_by_tile(Layer l, const Bake& b) { return b.tiled() && layer_info(l).per_grid; }

// A solo bake of a big grid draws each layer in parts too, blocks of cells (a multiple of the span
// chunk, at most 8 x 8 blocks), so that its layers upload a few parts a frame (LayerCache::update's
// budget) instead of 100 MB in one frame; so do a tiled bake's whole-level layers (input: 24 MB on
// the large level). Every part changes with every re-bake of what the layer draws.
constexpr uint64_t kSplitCells = uint64_t(1) << 20;
struct CellBlocks {
    int side = 0;  // cells; 0: one part
    int cols = 1, rows = 1;
    size_t count() const { return static_cast<size_t>(cols) * static_cast<size_t>(rows); }
};
CellBlocks cell_blocks(const Bake& b) {
    const int w = std::max(b.config.width, 0), h = std::max(b.config.height, 0);
    if (static_cast<uint64_t>(w) * static_cast<uint64_t>(h) <= kSplitCells) return {};
    const int per = (std::max(w, h) + 7) / 8;
    const int side = (per + static_cast<int>(kSpanChunkCells) - 1) / static_cast<int>(kSpanChunkCells) *
                     static_cast<int>(kSpanChunkCells);
    return {side, (w + side - 1) / side, (h + side - 1) / side};
}
// (a tiled bake's per-grid layers are in parts by tile; its whole-level layers, input and navmesh,
// by cells like a solo bake's)
bool parts_by_cells(Layer l, const Bake& b) { return layer_from_bake(l) && !parts_by_tile(l, b) && cell_blocks(b).side > 0; }

// Everything of a list but its arrays.
void copy_style(const DrawList& f, DrawList& t) {
    t.span_shape = f.span_shape;
    for (int k = 0; k < 3; ++k) t.span_origin[k] = f.span_origin[k], t.grid_origin[k] = f.grid_origin[k];
    t.span_cs = f.span_cs, t.span_ch = f.span_ch, t.span_lift = f.span_lift;
    t.line_width = f.line_width, t.point_size = f.point_size;
    t.shade = f.shade;
    t.grid_cell = f.grid_cell;
    t.depth_test = f.depth_test;
}

// Splits d into the blocks of cb over the grid at (x0, z0) with cells of cs metres: each triangle,
// line and point by its centre, each span by its cell (moved onto its block's own grid).
void split_list(const DrawList& d, const CellBlocks& cb, float x0, float z0, float cs, std::vector<DrawList>& parts) {
    const size_t n = cb.count();
    parts.assign(n, DrawList{});
    for (DrawList& p : parts) copy_style(d, p);
    const float block_m = static_cast<float>(cb.side) * cs;
    const auto block_of = [&](float x, float z) {
        const int bx = std::clamp(static_cast<int>(std::floor((x - x0) / block_m)), 0, cb.cols - 1);
        const int bz = std::clamp(static_cast<int>(std::floor((z - z0) / block_m)), 0, cb.rows - 1);
        return static_cast<size_t>(bx + bz * cb.cols);
    };
    // triangles: bucketed by block, each block's vertices renumbered (a shared vertex is copied)
    const size_t ntris = d.tri_indices.size() / 3;
    if (ntris) {
        std::vector<uint32_t> start(n + 1, 0), order(ntris);
        std::vector<uint32_t> tri_block(ntris);
        for (size_t t = 0; t < ntris; ++t) {
            float cx = 0, cz = 0;
            for (int k = 0; k < 3; ++k) {
                const Vertex& v = d.tri_verts[d.tri_indices[t * 3 + static_cast<size_t>(k)]];
                cx += v.x, cz += v.z;
            }
            tri_block[t] = static_cast<uint32_t>(block_of(cx / 3.0f, cz / 3.0f));
            ++start[tri_block[t] + 1];
        }
        for (size_t b = 0; b < n; ++b) start[b + 1] += start[b];
        std::vector<uint32_t> next(start.begin(), start.end() - 1);
        for (size_t t = 0; t < ntris; ++t) order[next[tri_block[t]]++] = static_cast<uint32_t>(t);
        std::vector<uint32_t> stamp(d.tri_verts.size(), 0), remap(d.tri_verts.size(), 0);
        for (size_t b = 0; b < n; ++b) {
            DrawList& p = parts[b];
            p.tri_indices.reserve(static_cast<size_t>(start[b + 1] - start[b]) * 3);
            for (uint32_t k = start[b]; k < start[b + 1]; ++k) {
                for (int c = 0; c < 3; ++c) {
                    const uint32_t v = d.tri_indices[static_cast<size_t>(order[k]) * 3 + static_cast<size_t>(c)];
                    if (stamp[v] != b + 1) {
                        stamp[v] = static_cast<uint32_t>(b + 1);
                        remap[v] = static_cast<uint32_t>(p.tri_verts.size());
                        p.tri_verts.push_back(d.tri_verts[v]);
                    }
                    p.tri_indices.push_back(remap[v]);
                }
            }
        }
    }
    for (size_t i = 0; i + 1 < d.line_verts.size(); i += 2) {
        const Vertex& a = d.line_verts[i];
        const Vertex& b = d.line_verts[i + 1];
        DrawList& p = parts[block_of((a.x + b.x) * 0.5f, (a.z + b.z) * 0.5f)];
        p.line_verts.push_back(a);
        p.line_verts.push_back(b);
    }
    for (const Vertex& v : d.point_verts) parts[block_of(v.x, v.z)].point_verts.push_back(v);
    if (!d.spans.empty()) {
        // the list's cells are the grid's (offset by whole cells): each block its own origin
        const int ox = static_cast<int>(std::lround((d.span_origin[0] - x0) / d.span_cs));
        const int oz = static_cast<int>(std::lround((d.span_origin[2] - z0) / d.span_cs));
        const float side_m = static_cast<float>(cb.side) * d.span_cs;
        for (size_t b = 0; b < n; ++b) {
            parts[b].span_origin[0] = x0 + static_cast<float>(b % static_cast<size_t>(cb.cols)) * side_m;
            parts[b].span_origin[2] = z0 + static_cast<float>(b / static_cast<size_t>(cb.cols)) * side_m;
        }
        for (SpanInstance s : d.spans) {
            const int cx = static_cast<int>(s.x) + ox, cz = static_cast<int>(s.z) + oz;
            const int bx = std::clamp(cx / cb.side, 0, cb.cols - 1), bz = std::clamp(cz / cb.side, 0, cb.rows - 1);
            s.x = static_cast<uint32_t>(cx - bx * cb.side);
            s.z = static_cast<uint32_t>(cz - bz * cb.side);
            parts[static_cast<size_t>(bx + bz * cb.cols)].spans.push_back(s);
        }
    }
}
}  // namespace

bool layer_per_grid(Layer l) { return layer_info(l).per_grid; }

int layer_part_block(const TileLayout& L) {
    if (!L.tiled()) return 1;
    int g = 1;
    while (static_cast<int64_t>((L.cols + g - 1) / g) * ((L.rows + g - 1) / g) > kMaxLayerParts) ++g;
    return g;
}

std::vector<uint64_t> layer_part_keys(Layer l, const Bake& b) {
    std::vector<uint64_t> keys;
    if (!layer_from_bake(l) || !layer_available(l, b)) return keys;
    const auto mix = [](uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; };
    const uint64_t colors = layer_colors_key(l, b);  // a colour change redraws every part
    if (!parts_by_tile(l, b)) {
        uint64_t h = mix(1469598103934665603ull, colors);
        for (const auto& p : layer_sources(l, b)) h = mix(h, reinterpret_cast<uintptr_t>(p.get()));
        const size_t n = parts_by_cells(l, b) ? cell_blocks(b).count() : 1;  // blocks of cells, or one
        for (size_t i = 0; i < n; ++i) keys.push_back(mix(h, i) | 1);
        return keys;
    }
    const TileLayout& L = b.layout;
    const int g = layer_part_block(L);
    const size_t nparts = static_cast<size_t>((L.cols + g - 1) / g) * static_cast<size_t>((L.rows + g - 1) / g);
    // whether tiles draw their own cells only (build_tiles) changes every part's picture
    const uint64_t own = b.layout.border > 0 && tiles_present(b) > 1 ? 1 : 2;
    for (size_t i = 0; i < nparts; ++i) {
        const TileBlock k = part_block(L, i);
        uint64_t h = mix(mix(mix(1469598103934665603ull, i + 1), own), colors);
        for (int tz = k.tz0; tz < k.tz1; ++tz)
            for (int tx = k.tx0; tx < k.tx1; ++tx) {
                const auto t = static_cast<size_t>(tx + tz * L.cols);
                h = mix(h, t < b.tiles.size() ? reinterpret_cast<uintptr_t>(b.tiles[t].get()) : 0);
            }
        keys.push_back(h | 1);
    }
    return keys;
}

bool build_layer(Layer l, const Bake& b, DrawList& out, DrawList& extra) {
    out.clear();
    extra.clear();
    if (parts_by_tile(l, b)) return build_tiles(l, b, 0, 0, b.layout.cols, b.layout.rows, out, extra);
    if (!layer_available(l, b)) return false;
    return run_builder(layer_info(l), b, out, extra);  // false for path: drawn by the app (build_path)
}


void build_ground(const float* bmin, const float* bmax, DrawList& out) {
    out.clear();
    out.line_width = 1.0f;
    const float ex = bmax[0] - bmin[0], ez = bmax[2] - bmin[2];
    const float size = std::max(ex, ez);
    // a round spacing giving 10..100 lines across the mesh, extended by a margin
    const float step = std::pow(10.0f, std::floor(std::log10(std::max(size, 1e-3f) / 10.0f)));
    const float margin = size * 0.15f;
    const float gx0 = std::floor((bmin[0] - margin) / step) * step, gx1 = std::ceil((bmax[0] + margin) / step) * step;
    const float gz0 = std::floor((bmin[2] - margin) / step) * step, gz1 = std::ceil((bmax[2] + margin) / step) * step;
    const float y = bmin[1] - 0.001f * size;
    const uint32_t minor = rgba(92, 100, 120, 110), major = rgba(120, 130, 156, 170);
    const int nx = static_cast<int>(std::lround((gx1 - gx0) / step)), nz = static_cast<int>(std::lround((gz1 - gz0) / step));
    for (int i = 0; i <= nx; ++i) {
        const float x = gx0 + static_cast<float>(i) * step;
        const bool is_major = std::lround(x / step) % 10 == 0;
        out.add_line(x, y, gz0, x, y, gz1, is_major ? major : minor);
    }
    for (int i = 0; i <= nz; ++i) {
        const float z = gz0 + static_cast<float>(i) * step;
        const bool is_major = std::lround(z / step) % 10 == 0;
        out.add_line(gx0, y, z, gx1, y, z, is_major ? major : minor);
    }
    out.add_box_lines(bmin, bmax, colors::kBounds);
}

namespace {
// Gives a big vector's memory back when what it holds shrank to a quarter of its capacity.
template <class T>
void trim_capacity(std::vector<T>& v) {
    if (v.capacity() * sizeof(T) > (size_t(1) << 20) && v.size() < v.capacity() / 4) v.shrink_to_fit();
}
void trim_capacity(DrawList& d) {
    trim_capacity(d.tri_verts);
    trim_capacity(d.tri_indices);
    trim_capacity(d.line_verts);
    trim_capacity(d.point_verts);
    trim_capacity(d.spans);
    trim_capacity(d.span_color);
}
}  // namespace

namespace {
bool same_sources(const std::array<std::shared_ptr<const void>, 3>& a, const std::array<std::shared_ptr<const void>, 3>& b) {
    for (size_t k = 0; k < a.size(); ++k)
        if (a[k].get() != b[k].get()) return false;
    return true;
}
size_t list_bytes(const DrawList& d) {
    return (d.tri_verts.capacity() + d.line_verts.capacity() + d.point_verts.capacity()) * sizeof(Vertex) +
           d.tri_indices.capacity() * sizeof(uint32_t) + d.spans.capacity() * sizeof(SpanInstance) +
           d.span_pos.capacity() * sizeof(SpanPos) + d.span_color.capacity() * sizeof(uint32_t) +
           d.span_chunks.capacity() * sizeof(SpanChunk);
}
// Bit k set when layer_legend(l)[k]'s colour (alpha aside) is one the lists draw.
uint32_t legend_bits(Layer l, const AreaColors& area_rgb, const DrawList& a, const DrawList& b) {
    const std::span<const LegendEntry> legend = layer_legend(l, area_rgb);
    const size_t n = std::min<size_t>(legend.size(), 32);
    const uint32_t all = n == 32 ? ~0u : (1u << n) - 1u;
    uint32_t bits = 0, last = ~0u;  // no rgb is ~0u: the first colour is always looked up
    const auto see = [&](uint32_t c) {
        c &= 0xffffffu;
        if (c == last) return;
        last = c;
        for (size_t k = 0; k < n; ++k)
            if ((legend[k].color & 0xffffffu) == c) bits |= 1u << k;
    };
    for (const DrawList* d : {&a, &b}) {
        for (const Vertex& v : d->tri_verts) see(v.color);
        if (bits == all) break;
        for (const Vertex& v : d->line_verts) see(v.color);
        for (const Vertex& v : d->point_verts) see(v.color);
        for (const SpanInstance& s : d->spans) see(s.color);
        for (uint32_t c : d->span_color) see(c);
    }
    return bits;
}
}  // namespace

namespace {
// Organised for drawing, with its size and legend.
void finish_part(Layer l, const Bake& bake, BuiltPart& out) {
    organize_spans(out.cpu);  // chunks, hidden faces and coarse levels (render/span_lod.h)
    organize_spans(out.cpu_extra);
    trim_capacity(out.cpu);
    trim_capacity(out.cpu_extra);
    out.cpu_bytes = list_bytes(out.cpu) + list_bytes(out.cpu_extra);
    out.legend_present = legend_bits(l, AreaColors(bake.inputs.areas), out.cpu, out.cpu_extra);
}

// Every part of a layer drawn in blocks of cells (parts_by_cells): the layer built once, split.
std::vector<std::shared_ptr<BuiltPart>> build_cell_parts(Layer l, const Bake& bake) {
    const CellBlocks cb = cell_blocks(bake);
    DrawList whole, whole_extra;
    build_layer(l, bake, whole, whole_extra);
    std::vector<DrawList> a, b;
    split_list(whole, cb, bake.config.bmin[0], bake.config.bmin[2], bake.config.cs, a);
    whole = DrawList{};
    split_list(whole_extra, cb, bake.config.bmin[0], bake.config.bmin[2], bake.config.cs, b);
    whole_extra = DrawList{};
    std::vector<std::shared_ptr<BuiltPart>> out(cb.count());
    for (size_t k = 0; k < out.size(); ++k) {
        out[k] = std::make_shared<BuiltPart>();
        out[k]->cpu = std::move(a[k]);
        out[k]->cpu_extra = std::move(b[k]);
        finish_part(l, bake, *out[k]);
    }
    return out;
}
}  // namespace

std::shared_ptr<BuiltPart> build_layer_part(Layer l, const Bake& bake, size_t index) {
    if (parts_by_cells(l, bake)) {
        auto all = build_cell_parts(l, bake);  // the layer is built whole either way
        return index < all.size() ? std::move(all[index]) : std::make_shared<BuiltPart>();
    }
    auto out = std::make_shared<BuiltPart>();
    if (parts_by_tile(l, bake)) {
        const TileBlock k = part_block(bake.layout, index);
        build_tiles(l, bake, k.tx0, k.tz0, k.tx1, k.tz1, out->cpu, out->cpu_extra);
    } else {
        build_layer(l, bake, out->cpu, out->cpu_extra);
    }
    finish_part(l, bake, *out);
    return out;
}

void BuiltPart::release_cpu() const {
    released.store(true);
    cpu = DrawList{};
    cpu_extra = DrawList{};
}

const BuiltPart* BuiltLayer::part(uint64_t key) const {
    for (const auto& p : parts)
        if (p->key == key) return p.get();
    return nullptr;
}

const BuiltLayer* BuiltLayers::find(Layer l, const Bake& bake) const {
    const auto& e = layers[static_cast<size_t>(l)];
    if (!e || !same_sources(e->sources, layer_sources(l, bake)) || e->colors != layer_colors_key(l, bake)) return nullptr;
    return e.get();
}

std::shared_ptr<const BuiltLayers> build_layers(const Bake& bake, const LayerMask& enabled, const BuiltLayers* prev) {
    auto out = std::make_shared<BuiltLayers>();
    // per layer built by this call, its parts built by this call (null where shared from `prev`)
    std::vector<std::vector<const BuiltPart*>> fresh;
    for (int li = 0; li < kLayerCount; ++li) {
        const auto l = static_cast<Layer>(li);
        const auto i = static_cast<size_t>(li);
        if (!enabled[i] || !layer_from_bake(l) || !layer_available(l, bake)) continue;
        // an unchanged layer's entry is shared even when released: the cache that released it
        // holds its picture (and one that does not builds the released parts itself)
        // (and its parts are this bake's: the same data split into other blocks, as the input's
        // blocks of cells after a cell_size change, is built again, or the UI thread would)
        const BuiltLayer* p = prev ? prev->layers[i].get() : nullptr;
        const std::vector<uint64_t> keys = layer_part_keys(l, bake);
        if (p && same_sources(p->sources, layer_sources(l, bake)) && p->colors == layer_colors_key(l, bake) &&
            p->parts.size() == keys.size() &&
            std::equal(keys.begin(), keys.end(), p->parts.begin(), [](uint64_t k, const auto& q) { return q && q->key == k; })) {
            out->layers[i] = prev->layers[i];
            continue;
        }
        const auto t0 = std::chrono::steady_clock::now();
        auto b = std::make_shared<BuiltLayer>();
        b->sources = layer_sources(l, bake);
        b->colors = layer_colors_key(l, bake);
        b->ok = true;
        std::vector<const BuiltPart*> built_now(keys.size(), nullptr);
        // blocks of cells: the layer is built once and split (its parts change together)
        std::vector<std::shared_ptr<BuiltPart>> cell_parts;
        if (parts_by_cells(l, bake)) cell_parts = build_cell_parts(l, bake);
        for (size_t j = 0; j < keys.size(); ++j) {
            // a part drawn from the same tiles as one of the last entry's: shared (the re-baked
            // tiles' blocks are rebuilt, and uploaded, alone)
            const BuiltPart* same = p ? p->part(keys[j]) : nullptr;
            if (same) {
                for (const auto& q : p->parts)
                    if (q.get() == same) b->parts.push_back(q);
            } else {
                std::shared_ptr<BuiltPart> part = j < cell_parts.size() ? std::move(cell_parts[j]) : build_layer_part(l, bake, j);
                part->key = keys[j];
                // layers drawn from the same spans (voxels and filtered; compact ... regions) hold
                // their positions once: an equal array built earlier in this call is shared
                // (parts shared from `prev` are not read: the UI thread may be releasing them)
                for (const auto& o : fresh) {
                    if (j >= o.size() || !o[j] || !part->cpu.span_pos_hash) continue;
                    const DrawList& oc = o[j]->cpu;
                    if (oc.span_pos_hash == part->cpu.span_pos_hash && oc.span_pos.size() == part->cpu.span_pos.size()) {
                        part->cpu.span_pos.share(oc.span_pos);
                        break;
                    }
                }
                built_now[j] = part.get();
                b->parts.push_back(std::move(part));
                ++b->parts_built;
            }
            b->cpu_bytes += b->parts.back()->cpu_bytes;
            b->legend_present |= b->parts.back()->legend_present;
        }
        b->build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        fresh.push_back(std::move(built_now));
        out->layers[i] = std::move(b);
    }
    return out;
}

BackgroundRelease::~BackgroundRelease() {
    {
        std::lock_guard lk(m_);
        stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void BackgroundRelease::drop(std::array<std::shared_ptr<const void>, 3>&& refs) {
    {
        std::lock_guard lk(m_);
        for (auto& r : refs)
            if (r) queue_.push_back(std::move(r));
        if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    }
    cv_.notify_one();
}

void BackgroundRelease::loop() {
    std::vector<std::shared_ptr<const void>> batch;
    std::unique_lock lk(m_);
    for (;;) {
        cv_.wait(lk, [&] { return stop_ || !queue_.empty(); });
        batch.swap(queue_);
        lk.unlock();
        batch.clear();  // the last references, freed here
        lk.lock();
        if (stop_ && queue_.empty()) return;
    }
}

void LayerCache::update(const std::shared_ptr<const Bake>& bake, const LayerMask& enabled, const BuiltLayers* prebuilt,
                        double budget_ms) {
    using clock = std::chrono::steady_clock;
    const auto t_update = clock::now();
    const auto ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
    bool ui_built = false;
    parts_pending_ = 0;
    // parts retired by earlier updates (drawn for the last time a frame ago or more), a few
    // milliseconds' worth a frame: deleting a whole level's parts at once took 28 ms
    while (!retired_.empty() && (budget_ms <= 0.0 || ms_since(t_update) < budget_ms * 0.25)) retired_.pop_back();
    if (bake) area_rgb_ = AreaColors(bake->inputs.areas);  // the legends' area swatches
    for (int li = 0; li < kLayerCount; ++li) {
        const auto l = static_cast<Layer>(li);
        Entry& e = entries_[static_cast<size_t>(li)];
        e.info.available = bake && layer_available(l, *bake);
        if (!layer_from_bake(l)) continue;
        const auto src = bake ? layer_sources(l, *bake) : std::array<std::shared_ptr<const void>, 3>{};
        const uint64_t colors = bake ? layer_colors_key(l, *bake) : 0;
        const bool same = same_sources(src, e.sources) && colors == e.colors;
        if (same && (e.info.built || !e.info.available || !enabled[static_cast<size_t>(li)])) continue;
        if (!same && !enabled[static_cast<size_t>(li)]) {
            // stale and hidden: release the data now, rebuild when shown
            for (auto& q : e.parts) retired_.push_back(std::move(q));
            e.parts.clear();
            release_.drop(std::exchange(e.sources, {}));
            e.colors = 0;
            release_.drop(std::exchange(e.target, {}));
            e.info.built = false;
            e.info.cpu_bytes = 0;
            e.info.gpu_bytes = 0;
            e.info.parts = 0;
            continue;
        }
        if (!same_sources(src, e.target) || colors != e.target_colors) {
            // a new rebuild (a rebuild left half done for older data starts over from the parts held)
            release_.drop(std::exchange(e.target, src));
            e.target_colors = colors;
            e.target_uploaded = 0;
            e.target_upload_ms = e.target_ui_build_ms = 0.0;
            e.target_on_ui = false;
        }
        const BuiltLayer* pre = bake && e.info.available && prebuilt ? prebuilt->find(l, *bake) : nullptr;
        const std::vector<uint64_t> keys = bake && e.info.available ? layer_part_keys(l, *bake) : std::vector<uint64_t>{};
        std::vector<std::shared_ptr<BuiltPart>> ui_cell_parts;
        size_t j = 0;
        for (; j < keys.size(); ++j) {
            // a part this cache holds already (its tiles were not re-baked, or uploaded by an earlier
            // call of this rebuild): kept as it is
            if (j < e.parts.size() && e.parts[j] && e.parts[j]->key == keys[j]) continue;
            if (budget_ms > 0.0 && ms_since(t_update) >= budget_ms) break;  // the next frame goes on
            const BuiltPart* bp = pre ? pre->part(keys[j]) : nullptr;
            std::shared_ptr<const BuiltPart> own;
            if (!bp || bp->released.load()) {
                // not built off the UI thread (or released by an upload this cache no longer holds);
                // a layer in blocks of cells is built once for all its parts
                const auto t0 = clock::now();
                if (parts_by_cells(l, *bake)) {
                    if (ui_cell_parts.size() != keys.size()) ui_cell_parts = build_cell_parts(l, *bake);
                    own = j < ui_cell_parts.size() ? std::move(ui_cell_parts[j]) : std::make_shared<BuiltPart>();
                } else {
                    own = build_layer_part(l, *bake, j);
                }
                bp = own.get();
                e.target_ui_build_ms += ms_since(t0);
                e.target_on_ui = true;
                ui_built = true;
            }
            auto part = std::make_unique<Part>();
            part->key = keys[j];
            // span layers drawn from the same spans (voxels and filtered; compact ... regions)
            // share one position buffer: another layer's part's, when it holds exactly these positions
            std::shared_ptr<SpanPosBuffer> shared;
            const uint64_t hash = bp->cpu.span_pos_hash;
            const size_t pos_bytes = bp->cpu.span_pos.size() * sizeof(SpanPos);
            for (const Entry& o : entries_) {
                if (&o == &e || !hash || shared) continue;
                for (const auto& q : o.parts) {
                    const auto& ob = q ? q->gpu.span_positions() : nullptr;
                    if (ob && ob->hash == hash && ob->bytes == pos_bytes) {
                        shared = ob;
                        break;
                    }
                }
            }
            const auto t0 = clock::now();
            part->gpu.upload(bp->cpu, std::move(shared));
            part->gpu_extra.upload(bp->cpu_extra);
            e.target_upload_ms += ms_since(t0);
            part->triangles = (bp->cpu.tri_indices.size() + bp->cpu_extra.tri_indices.size()) / 3;
            part->spans = bp->cpu.span_count() + bp->cpu_extra.span_count();
            part->lines = (bp->cpu.line_verts.size() + bp->cpu_extra.line_verts.size()) / 2;
            part->cpu_bytes = bp->cpu_bytes;
            part->legend_present = bp->legend_present;
            bp->release_cpu();  // on the GPU now: the CPU copy goes
            // in place of the block's old part (its picture until now)
            if (j < e.parts.size()) retired_.push_back(std::exchange(e.parts[j], std::move(part)));
            else e.parts.push_back(std::move(part));
            ++e.target_uploaded;
            ++part_counts_.uploaded;
        }
        const bool complete = j == keys.size();
        if (complete) {
            // parts of tiles no longer drawn go with their buffers
            for (size_t k = keys.size(); k < e.parts.size(); ++k) retired_.push_back(std::move(e.parts[k]));
            e.parts.resize(keys.size());
            release_.drop(std::exchange(e.sources, src));
            e.colors = colors;
            e.info.built = bake && e.info.available;
            e.info.on_ui = e.target_on_ui;
            e.info.parts_uploaded = e.target_uploaded;
            e.info.upload_ms = e.target_upload_ms;
            e.info.build_ms = (pre ? pre->build_ms : 0.0) + e.target_ui_build_ms;
            part_counts_.kept += keys.size() - std::min(keys.size(), e.target_uploaded);
        } else {
            for (size_t k = j; k < keys.size(); ++k)
                if (!(k < e.parts.size() && e.parts[k] && e.parts[k]->key == keys[k])) ++parts_pending_;
        }
        e.info.triangles = e.info.spans = e.info.lines = e.info.cpu_bytes = e.info.gpu_bytes = 0;
        e.info.legend_present = 0;
        for (const auto& q : e.parts) {
            e.info.triangles += q->triangles;
            e.info.spans += q->spans;
            e.info.lines += q->lines;
            e.info.cpu_bytes += q->cpu_bytes;
            e.info.gpu_bytes += q->gpu.gpu_bytes() + q->gpu_extra.gpu_bytes() +
                                (q->gpu.span_positions() ? q->gpu.span_positions()->bytes : 0);
            e.info.legend_present |= q->legend_present;
        }
        e.info.parts = e.parts.size();
    }
    if (ui_built) ++ui_waits_;
    if (bake && parts_pending_ == 0) generation_ = bake->generation;
    last_update_ms_ = ms_since(t_update);

}

size_t LayerCache::cpu_bytes() const {
    size_t n = 0;
    for (const Entry& e : entries_) n += e.info.cpu_bytes;
    return n;
}

std::vector<LegendEntry> LayerCache::legend(Layer l) const {
    const std::span<const LegendEntry> all = layer_legend(l, area_rgb_);
    if (!layer_from_bake(l)) return {all.begin(), all.end()};
    const Info& info = entries_[static_cast<size_t>(l)].info;
    std::vector<LegendEntry> out;
    if (!info.built) return out;
    for (size_t k = 0; k < all.size() && k < 32; ++k)
        if (info.legend_present & (1u << k)) out.push_back(all[k]);
    return out;
}

size_t LayerCache::gpu_bytes() const {
    size_t n = 0;
    std::vector<const SpanPosBuffer*> seen;  // shared position buffers count once
    for (const Entry& e : entries_) {
        for (const auto& q : e.parts) {
            n += q->gpu.gpu_bytes() + q->gpu_extra.gpu_bytes();
            for (const GpuDrawList* g : {&q->gpu, &q->gpu_extra}) {
                const SpanPosBuffer* b = g->span_positions().get();
                if (b && std::find(seen.begin(), seen.end(), b) == seen.end()) {
                    seen.push_back(b);
                    n += b->bytes;
                }
            }
        }
    }
    return n;
}

std::array<float, kLayerCount> LayerDrawOptions::lifts(const LayerMask& enabled) const {
    std::array<float, kLayerCount> out{};
    int k = 0;
    for (int li = 0; li < kLayerCount; ++li) {
        if (!enabled[static_cast<size_t>(li)] || static_cast<Layer>(li) == Layer::Input) continue;
        out[static_cast<size_t>(li)] = static_cast<float>(++k) * lift_step;
    }
    return out;
}

void LayerCache::draw(Renderer& r, const LayerMask& enabled, const LayerDrawOptions& opt) const {
    const DrawStyle saved = r.style();
    const std::array<float, kLayerCount> lift = opt.lifts(enabled);
    // a layer whose update is spread over frames draws the parts it holds
    const auto shown = [&](size_t i) { return enabled[i] && (entries_[i].info.built || !entries_[i].parts.empty()) && opt.opacity[i] > 0.0f; };
    // the span lists of every part of every span layer shown, planned together under the budget:
    // the chunks nearest the eye keep full detail, whichever layer or tile they belong to
    plan_sets_.clear();
    size_t nsets = 0;
    for (size_t i = 0; i < entries_.size(); ++i)
        if (shown(i) && entries_[i].info.spans)
            for (const auto& q : entries_[i].parts) nsets += q->gpu.has_span_chunks() + q->gpu_extra.has_span_chunks();
    plan_stats_.assign(nsets, SpanPlanStats{});
    for (size_t i = 0; i < entries_.size(); ++i) {
        lod_[i] = SpanPlanStats{};
        if (!shown(i) || !entries_[i].info.spans) continue;
        for (const auto& q : entries_[i].parts) {
            for (int pass = 0; pass < 2; ++pass) {
                const GpuDrawList& g = pass == 0 ? q->gpu : q->gpu_extra;
                if (!g.has_span_chunks()) continue;
                SpanChunkSet set = g.span_chunk_set();
                set.lift += saved.lift + lift[i];
                set.level = &q->level[pass];
                set.stats = &plan_stats_[plan_sets_.size()];
                plan_sets_.push_back(set);
            }
        }
    }
    plan_span_sets(plan_sets_, r.frame().view_proj, r.frame().eye, opt.span_budget, plan_scratch_);
    for (int pass = 0; pass < 2; ++pass) {
        for (int li = 0; li < kLayerCount; ++li) {
            const auto i = static_cast<size_t>(li);
            const Entry& e = entries_[i];
            if (!shown(i)) continue;
            DrawStyle s = saved;
            s.alpha = saved.alpha * std::clamp(opt.opacity[i], 0.0f, 1.0f);
            s.lift = saved.lift + lift[i];
            s.xray = opt.xray;
            s.cull = static_cast<Layer>(li) == Layer::Input && opt.cull_input;
            s.hide_ceilings = static_cast<Layer>(li) == Layer::Input && opt.hide_ceilings;
            s.grey = opt.grey_base ? 1.0f : 0.0f;
            s.span_budget = 0;  // planned above
            r.set_style(s);
            for (const auto& q : e.parts) {
                const GpuDrawList& g = pass == 0 ? q->gpu : q->gpu_extra;
                r.draw(g, g.has_span_chunks() ? &q->level[pass] : nullptr);
            }
        }
    }
    // what each layer drew of its spans: its parts' plans summed
    size_t k = 0;
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (!shown(i) || !entries_[i].info.spans) continue;
        SpanPlanStats& st = lod_[i];
        for (const auto& q : entries_[i].parts) {
            for (int pass = 0; pass < 2; ++pass) {
                const GpuDrawList& g = pass == 0 ? q->gpu : q->gpu_extra;
                if (!g.has_span_chunks()) {
                    // a list too big to organise (no chunks) is drawn whole
                    st.total += g.span_instances();
                    st.visible += g.span_instances();
                    st.drawn[0] += g.span_instances();
                    continue;
                }
                const SpanPlanStats& p = plan_stats_[k++];
                st.total += p.total;
                st.visible += p.visible;
                for (int lv = 0; lv < kSpanLevels; ++lv) st.drawn[lv] += p.drawn[lv];
                st.chunks_culled += p.chunks_culled;
                st.merged = st.merged || p.merged;
            }
        }
    }
    r.set_style(saved);
}

}  // namespace nav::render
