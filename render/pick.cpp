#include "render/pick.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/bake/filter.h"

namespace nav::render {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Elements are hit at the heights layers.cpp draws them (floor_lift, voxel_to_world, kNavmeshLift
// in render/layers.h); detail triangles one cell height above their vertices.

// The best candidate so far. Ray mode: nearest along the ray. Point mode (a vertical ray from
// above p): the candidate whose y range is nearest p's height, then the higher one.
struct Best {
    bool point_mode = false;
    float py = 0.0f;
    float score = kInf, t = kInf;
    Element e;

    void offer(float t_hit, float ylo, float yhi, const Element& cand, const float* o, const float* d) {
        float s = t_hit;
        if (point_mode) s = py < ylo ? ylo - py : (py > yhi ? py - yhi : 0.0f);
        if (s < score || (s == score && t_hit < t)) {
            score = s;
            t = t_hit;
            e = cand;
            for (int i = 0; i < 3; ++i) e.point[i] = o[i] + d[i] * t_hit;
        }
    }
};

// Visits the cells of an xz grid the ray crosses, in order along it, with the ray's t range
// inside each cell (t >= 0); stops when fn(x, z, t0, t1) returns true.
template <class Fn>
void walk_grid(const float* bmin, float cs, int w, int h, const float* o, const float* d, Fn&& fn) {
    if (w <= 0 || h <= 0 || !(cs > 0.0f)) return;
    float t0 = 0.0f, t1 = kInf;
    const int n[3] = {w, 0, h};
    for (int a = 0; a < 3; a += 2) {
        const float lo = bmin[a], hi = bmin[a] + static_cast<float>(n[a]) * cs;
        if (std::fabs(d[a]) < 1e-12f) {
            if (o[a] < lo || o[a] >= hi) return;
            continue;
        }
        float ta = (lo - o[a]) / d[a], tb = (hi - o[a]) / d[a];
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
    }
    if (t0 > t1) return;
    auto cell_of = [&](int a, int count) {
        const float p = o[a] + d[a] * t0;
        return std::clamp(static_cast<int>(std::floor((p - bmin[a]) / cs)), 0, count - 1);
    };
    int cx = cell_of(0, w), cz = cell_of(2, h);
    const int sx = d[0] > 0 ? 1 : -1, sz = d[2] > 0 ? 1 : -1;
    auto next_t = [&](int a, int c, int s) {
        if (std::fabs(d[a]) < 1e-12f) return kInf;
        return (bmin[a] + static_cast<float>(c + (s > 0 ? 1 : 0)) * cs - o[a]) / d[a];
    };
    float tx = next_t(0, cx, sx), tz = next_t(2, cz, sz);
    const float dtx = std::fabs(d[0]) < 1e-12f ? kInf : cs / std::fabs(d[0]);
    const float dtz = std::fabs(d[2]) < 1e-12f ? kInf : cs / std::fabs(d[2]);
    float t = t0;
    for (;;) {
        const float tn = std::min({tx, tz, t1});
        if (fn(cx, cz, t, tn)) return;
        if (tn >= t1) return;
        if (tx < tz) {
            cx += sx;
            tx += dtx;
        } else {
            cz += sz;
            tz += dtz;
        }
        if (cx < 0 || cz < 0 || cx >= w || cz >= h) return;
        t = tn;
    }
}

void pick_spans(const Heightfield& hf, Layer l, const float* o, const float* d, Best& best) {
    walk_grid(hf.bmin, hf.cs, hf.width, hf.height, o, d, [&](int x, int z, float ta, float tb) {
        uint32_t level = 0;
        for (uint32_t i = hf.columns[static_cast<size_t>(x + z * hf.width)]; i != kNullSpan; i = hf.pool[i].next, ++level) {
            const Span& s = hf.pool[i];
            const float y0 = hf.bmin[1] + s.smin * hf.ch, y1 = hf.bmin[1] + s.smax * hf.ch;
            float enter = ta, exit = tb;
            if (std::fabs(d[1]) < 1e-12f) {
                if (o[1] < y0 || o[1] > y1) continue;
            } else {
                float a = (y0 - o[1]) / d[1], b = (y1 - o[1]) / d[1];
                if (a > b) std::swap(a, b);
                enter = std::max(enter, a);
                exit = std::min(exit, b);
            }
            if (enter > exit) continue;
            Element e;
            e.kind = ElementKind::Span;
            e.layer = l;
            e.x = x;
            e.z = z;
            e.index = i;
            e.sub = level;
            best.offer(enter, y0, y1, e, o, d);
        }
        return !best.point_mode && best.e.valid();  // cells come in ray order: the first hit is the nearest
    });
}

void pick_floors(const CompactHeightfield& chf, Layer l, const float* o, const float* d, Best& best) {
    if (std::fabs(d[1]) < 1e-12f) return;
    const float lift = floor_lift(chf, l);
    walk_grid(chf.bmin, chf.cs, chf.width, chf.height, o, d, [&](int x, int z, float ta, float tb) {
        const CompactCell& cell = chf.cells[static_cast<size_t>(x + z * chf.width)];
        for (uint32_t i = cell.index, end = cell.index + cell.count; i < end; ++i) {
            const float y = chf.bmin[1] + chf.spans[i].y * chf.ch + lift;
            const float t = (y - o[1]) / d[1];
            if (t < ta || t > tb) continue;
            Element e;
            e.kind = ElementKind::CompactSpan;
            e.layer = l;
            e.x = x;
            e.z = z;
            e.index = i;
            best.offer(t, y, y, e, o, d);
        }
        return !best.point_mode && best.e.valid();
    });
}

void offer_triangle(const float* a, const float* b, const float* c, const Element& e, const float* o, const float* d,
                    Best& best) {
    float t = 0.0f;
    if (!ray_triangle(o, d, a, b, c, t)) return;
    const float y = o[1] + d[1] * t;
    best.offer(t, y, y, e, o, d);
}

void pick_input(const InputMesh& mesh, const float* o, const float* d, Best& best) {
    const int ntris = mesh.tri_count();
    for (int t = 0; t < ntris; ++t) {
        const int* tri = &mesh.tris[static_cast<size_t>(t) * 3];
        Element e;
        e.kind = ElementKind::InputTri;
        e.layer = Layer::Input;
        e.index = static_cast<uint32_t>(t);
        offer_triangle(&mesh.verts[static_cast<size_t>(tri[0]) * 3], &mesh.verts[static_cast<size_t>(tri[1]) * 3],
                       &mesh.verts[static_cast<size_t>(tri[2]) * 3], e, o, d, best);
    }
}

void pick_polymesh(const PolyMesh& mesh, const float* o, const float* d, Best& best) {
    float p[kMaxVertsPerPoly][3];
    for (int i = 0; i < mesh.npolys; ++i) {
        const uint16_t* poly = mesh.poly(i);
        const int n = mesh.poly_vert_count(i);
        for (int k = 0; k < n; ++k) {
            const uint16_t* v = &mesh.verts[static_cast<size_t>(poly[k]) * 3];
            voxel_to_world(mesh.bmin, mesh.cs, mesh.ch, v[0], v[1], v[2], p[k]);
        }
        Element e;
        e.kind = ElementKind::Polygon;
        e.layer = Layer::Polymesh;
        e.index = static_cast<uint32_t>(i);
        for (int k = 1; k + 1 < n; ++k) offer_triangle(p[0], p[k], p[k + 1], e, o, d, best);
    }
}

void pick_detail(const PolyMeshDetail& detail, float lift, const float* o, const float* d, Best& best) {
    for (int m = 0; m < detail.nmeshes; ++m) {
        const uint32_t* md = &detail.meshes[static_cast<size_t>(m) * 4];
        for (uint32_t t = 0; t < md[3]; ++t) {
            const uint8_t* tri = &detail.tris[static_cast<size_t>(md[2] + t) * 4];
            float p[3][3];
            for (int k = 0; k < 3; ++k) {
                const float* v = &detail.verts[static_cast<size_t>(md[0] + tri[k]) * 3];
                p[k][0] = v[0];
                p[k][1] = v[1] + lift;
                p[k][2] = v[2];
            }
            Element e;
            e.kind = ElementKind::DetailTri;
            e.layer = Layer::Detail;
            e.index = static_cast<uint32_t>(m);
            e.sub = t;
            offer_triangle(p[0], p[1], p[2], e, o, d, best);
        }
    }
}

void pick_navmesh(const NavMesh& mesh, Layer l, const float* o, const float* d, Best& best) {
    const bool have_detail = mesh.dtri_first.size() == static_cast<size_t>(mesh.npolys) + 1;
    for (uint32_t p = 0; p < static_cast<uint32_t>(mesh.npolys); ++p) {
        Element e;
        e.kind = ElementKind::NavPoly;
        e.layer = l;
        e.index = p;
        if (have_detail && mesh.dtri_first[p + 1] > mesh.dtri_first[p]) {
            for (uint32_t t = mesh.dtri_first[p]; t < mesh.dtri_first[p + 1]; ++t) {
                const float* v = &mesh.dtris[static_cast<size_t>(t) * 9];
                const float a[3] = {v[0], v[1] + kNavmeshLift, v[2]}, b[3] = {v[3], v[4] + kNavmeshLift, v[5]},
                            c[3] = {v[6], v[7] + kNavmeshLift, v[8]};
                offer_triangle(a, b, c, e, o, d, best);
            }
        } else {
            const int n = mesh.poly_vert_count(p);
            float q[kMaxPolyEdges][3];
            for (int k = 0; k < n && k < kMaxPolyEdges; ++k) {
                const float* v = mesh.vert(mesh.edge_vert[mesh.poly_first[p] + static_cast<uint32_t>(k)]);
                q[k][0] = v[0];
                q[k][1] = v[1] + kNavmeshLift;
                q[k][2] = v[2];
            }
            for (int k = 1; k + 1 < n && k + 1 < kMaxPolyEdges; ++k) offer_triangle(q[0], q[k], q[k + 1], e, o, d, best);
        }
    }
}

// Contour vertices: in ray mode the vertex nearest the ray (perpendicular distance within a cell
// or ~6 pixels at 60 degrees field of view), in point mode the vertex nearest p within two cells.
Element pick_contour_vertex(const ContourSet& cset, Layer l, const float* o, const float* d, const float* point) {
    const bool raw = l == Layer::RawContours;
    Element best;
    float best_score = kInf, best_t = kInf;
    const float dl = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (size_t ci = 0; ci < cset.contours.size(); ++ci) {
        const Contour& c = cset.contours[ci];
        const uint32_t n = raw ? c.nraw : c.nverts;
        if (n < 2) continue;  // not drawn
        const int32_t* v = raw ? &cset.raw_verts[static_cast<size_t>(c.raw_start) * 4]
                               : &cset.verts[static_cast<size_t>(c.vert_start) * 4];
        for (uint32_t i = 0; i < n; ++i) {
            float p[3];
            voxel_to_world(cset.bmin, cset.cs, cset.ch, v[i * 4], v[i * 4 + 1], v[i * 4 + 2], p);
            const float w[3] = {p[0] - (point ? point[0] : o[0]), p[1] - (point ? point[1] : o[1]),
                                p[2] - (point ? point[2] : o[2])};
            float score = 0.0f, t = 0.0f;
            if (point) {
                score = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
                if (score > 2.0f * cset.cs) continue;
            } else {
                if (dl <= 0.0f) continue;
                t = (w[0] * d[0] + w[1] * d[1] + w[2] * d[2]) / dl;  // distance along the unit ray
                if (t < 0.0f) continue;
                const float q[3] = {w[0] - d[0] / dl * t, w[1] - d[1] / dl * t, w[2] - d[2] / dl * t};
                score = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
                if (score > std::max(cset.cs, 0.006f * t)) continue;
            }
            if (score < best_score || (score == best_score && t < best_t)) {
                best_score = score;
                best_t = t;
                best.kind = ElementKind::ContourVertex;
                best.layer = l;
                best.index = static_cast<uint32_t>(ci);
                best.sub = i;
                std::copy(p, p + 3, best.point);
            }
        }
    }
    return best;
}

Element pick_grid(const Bake& b, Layer l, const float* o, const float* d, const float* point) {
    Best best;
    if (point) {
        best.point_mode = true;
        best.py = point[1];
    }
    switch (l) {
        case Layer::Input:
            if (b.mesh) pick_input(*b.mesh, o, d, best);
            break;
        case Layer::Voxels:
            if (b.solid) pick_spans(*b.solid, l, o, d, best);
            break;
        case Layer::Filtered:
            if (b.filtered) pick_spans(*b.filtered, l, o, d, best);
            break;
        case Layer::Compact:
        case Layer::Eroded:
        case Layer::Areas:
        case Layer::Distance:
        case Layer::Regions:
            if (b.compact) pick_floors(*b.compact, l, o, d, best);
            break;
        case Layer::RawContours:
        case Layer::Contours:
            if (b.contours) return pick_contour_vertex(*b.contours, l, o, d, point);
            break;
        case Layer::Polymesh:
            if (b.polymesh) pick_polymesh(*b.polymesh, o, d, best);
            break;
        case Layer::Detail:
            if (b.detail && b.polymesh) pick_detail(*b.detail, b.polymesh->ch, o, d, best);
            break;
        case Layer::Navmesh:
        case Layer::Islands:
        case Layer::AgentTypes:
            if (b.navmesh) pick_navmesh(*b.navmesh, l, o, d, best);
            break;
        case Layer::Tiles:  // an overlay, not a surface
        case Layer::Path:
        case Layer::Links:  // lines and markers, no surface
        case Layer::Count: break;
    }
    return best.e;
}

// A tiled bake's per-grid layers: the pick in each tile's grid, the nearest along the ray (point
// mode: nearest p's height) among the tiles whose own box holds the hit, else among all.
Element pick(const Bake& b, Layer l, const float* o, const float* d, const float* point) {
    if (!b.tiled() || !layer_per_grid(l)) return pick_grid(b, l, o, d, point);
    Element best;
    float best_key = 0.0f;
    bool best_inside = false;
    const float dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    for (size_t i = 0; i < b.tiles.size(); ++i) {
        const TileBake* t = b.tiles[i].get();
        if (!t) continue;
        const Bake v = tile_view(b, *t);
        Element e = pick_grid(v, l, o, d, point);
        if (!e.valid()) continue;
        e.tile = static_cast<int>(i);
        float box[4];
        tile_box(b.config, b.layout, t->tx, t->tz, box);
        const bool inside = e.point[0] >= box[0] && e.point[0] <= box[2] && e.point[2] >= box[1] && e.point[2] <= box[3];
        const float key = point ? std::fabs(e.point[1] - point[1])
                                : ((e.point[0] - o[0]) * d[0] + (e.point[1] - o[1]) * d[1] + (e.point[2] - o[2]) * d[2]) /
                                      std::max(dd, 1e-12f);
        if (!best.valid() || (inside && !best_inside) || (inside == best_inside && key < best_key)) {
            best = e;
            best_key = key;
            best_inside = inside;
        }
    }
    return best;
}

}  // namespace

bool ray_triangle(const float* o, const float* d, const float* a, const float* b, const float* c, float& t_out) {
    const float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const float p[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
    const float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (std::fabs(det) < 1e-12f) return false;
    const float inv = 1.0f / det;
    const float s[3] = {o[0] - a[0], o[1] - a[1], o[2] - a[2]};
    const float u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
    if (u < 0.0f || u > 1.0f) return false;
    const float q[3] = {s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]};
    const float w = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
    if (w < 0.0f || u + w > 1.0f) return false;
    const float tt = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
    if (tt < 0.0f) return false;
    t_out = tt;
    return true;
}

bool raycast_mesh(const InputMesh& mesh, const float* o, const float* d, float& t_out) {
    float best = kInf;
    const int ntris = mesh.tri_count();
    const float* v = mesh.verts.data();
    for (int t = 0; t < ntris; ++t) {
        const int* tri = &mesh.tris[static_cast<size_t>(t) * 3];
        float tt = 0.0f;
        if (ray_triangle(o, d, v + static_cast<size_t>(tri[0]) * 3, v + static_cast<size_t>(tri[1]) * 3,
                         v + static_cast<size_t>(tri[2]) * 3, tt) &&
            tt < best)
            best = tt;
    }
    if (!std::isfinite(best)) return false;
    t_out = best;
    return true;
}

bool raycast_mesh(const InputMesh& mesh, const float* o, const float* d, float& t_out, const PickVisibility& vis) {
    float best = kInf;
    const int ntris = mesh.tri_count();
    const float* v = mesh.verts.data();
    for (int t = 0; t < ntris; ++t) {
        const int* tri = &mesh.tris[static_cast<size_t>(t) * 3];
        const float* a = v + static_cast<size_t>(tri[0]) * 3;
        const float* b = v + static_cast<size_t>(tri[1]) * 3;
        const float* c = v + static_cast<size_t>(tri[2]) * 3;
        float tt = 0.0f;
        if (!ray_triangle(o, d, a, b, c, tt) || tt >= best) continue;
        const float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        const float nlen = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (vis.cull_back && n[0] * d[0] + n[1] * d[1] + n[2] * d[2] > 0.0f) continue;
        const float p[3] = {o[0] + d[0] * tt, o[1] + d[1] * tt, o[2] + d[2] * tt};
        if (vis.hide_ceilings && nlen > 0.0f && n[1] / nlen < -0.5f && o[1] > p[1]) continue;
        if (vis.clip && (p[1] < vis.clip_min || p[1] > vis.clip_max)) continue;
        if (vis.section) {
            const float* q = vis.point;
            const float* m = vis.normal;
            if (m[0] * (p[0] - q[0]) + m[1] * (p[1] - q[1]) + m[2] * (p[2] - q[2]) > 0.0f) continue;
        }
        best = tt;
    }
    if (!std::isfinite(best)) return false;
    t_out = best;
    return true;
}

bool raycast_drawn(const Bake& bake, const LayerMask& shown, const float* o, const float* d, float& t_out,
                   const PickVisibility& vis) {
    float best = kInf;
    const float dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (!(dd > 0.0f)) return false;
    // clip and section cut every layer the way the shaders do; culling and ceilings are the input's
    auto cut = [&](const float* p) {
        if (vis.clip && (p[1] < vis.clip_min || p[1] > vis.clip_max)) return true;
        if (!vis.section) return false;
        const float* q = vis.point;
        const float* m = vis.normal;
        return m[0] * (p[0] - q[0]) + m[1] * (p[1] - q[1]) + m[2] * (p[2] - q[2]) > 0.0f;
    };
    for (int i = 0; i < kLayerCount; ++i) {
        const auto l = static_cast<Layer>(i);
        if (!shown[static_cast<size_t>(i)] || l == Layer::Path || l == Layer::Tiles || !layer_available(l, bake)) continue;
        if (l == Layer::Input) {
            float t = 0.0f;
            if (bake.mesh && raycast_mesh(*bake.mesh, o, d, t, vis) && t < best) best = t;
            continue;
        }
        // pick_ray's nearest element of the layer; when the cut hides it, the ray goes on from just
        // past it (a clipped upper floor does not hide the lower floor the view shows through it)
        float from = 0.0f;  // along d, from o: where this search starts
        const float step = 0.01f / std::sqrt(dd);  // 1 cm past a hidden element
        for (int hidden = 0; hidden < 64; ++hidden) {
            const float oo[3] = {o[0] + d[0] * from, o[1] + d[1] * from, o[2] + d[2] * from};
            const Element e = pick(bake, l, oo, d, nullptr);
            if (!e.valid()) break;
            const float t = ((e.point[0] - o[0]) * d[0] + (e.point[1] - o[1]) * d[1] + (e.point[2] - o[2]) * d[2]) / dd;
            if (!cut(e.point)) {
                if (t >= 0.0f && t < best) best = t;
                break;
            }
            if (!(t + step > from)) break;  // no progress along the ray: stop
            from = t + step;
        }
    }
    if (!std::isfinite(best)) return false;
    t_out = best;
    return true;
}

SpanRef find_compact_span(const CompactHeightfield& chf, const float* p, float max_dy) {
    SpanRef r;
    if (chf.cs <= 0 || chf.width <= 0) return r;
    const int x = static_cast<int>(std::floor((p[0] - chf.bmin[0]) / chf.cs));
    const int z = static_cast<int>(std::floor((p[2] - chf.bmin[2]) / chf.cs));
    if (x < 0 || z < 0 || x >= chf.width || z >= chf.height) return r;
    const CompactCell& cell = chf.cells[static_cast<size_t>(x + z * chf.width)];
    float best = max_dy;
    for (uint32_t i = cell.index, end = cell.index + cell.count; i < end; ++i) {
        const float y = chf.bmin[1] + chf.spans[i].y * chf.ch;
        const float dy = std::fabs(y - p[1]);
        if (dy <= best) {
            best = dy;
            r = {x, z, i};
        }
    }
    return r;
}

std::string describe_span(const Bake& b, const SpanRef& s) {
    if (!b.compact || !s.valid()) return {};
    const CompactHeightfield& chf = *b.compact;
    const CompactSpan& sp = chf.spans[s.index];
    char buf[200];
    std::string out;
    std::snprintf(buf, sizeof buf, "cell (%d, %d)  span %u\nfloor y %d (%.2f m)  clearance %d%s (%s%.2f m)\n", s.x, s.z,
                  s.index, sp.y, chf.bmin[1] + sp.y * chf.ch, sp.h, sp.h == 255 ? "+" : "", sp.h == 255 ? "open, >= " : "",
                  sp.h * chf.ch);
    out += buf;
    static constexpr const char* dirs[4] = {"-x", "+z", "+x", "-z"};
    for (int d = 0; d < 4; ++d) {
        const int c = get_con(sp, d);
        const int nx = s.x + dir_offset_x(d), nz = s.z + dir_offset_z(d);
        if (c == kNotConnected || nx < 0 || nz < 0 || nx >= chf.width || nz >= chf.height) {
            std::snprintf(buf, sizeof buf, "link %s: none\n", dirs[d]);
        } else {
            const uint32_t ni = chf.neighbour(s.x, s.z, s.index, d);
            const CompactSpan& ns = chf.spans[ni];
            std::snprintf(buf, sizeof buf, "link %s: span %u (layer %d), floor %d (%+d)\n", dirs[d], ni, c, ns.y,
                          static_cast<int>(ns.y) - static_cast<int>(sp.y));
        }
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "area (compact) %s (%d)\n", std::string(area_name(chf.areas[s.index])).c_str(),
                  chf.areas[s.index]);
    out += buf;
    if (b.eroded && s.index < b.eroded->size())
        out += (*b.eroded)[s.index] != kNullArea ? "erosion: kept\n" : "erosion: eroded\n";
    if (b.areas && s.index < b.areas->size()) {
        std::snprintf(buf, sizeof buf, "area (final) %s (%d)\n", std::string(area_name((*b.areas)[s.index])).c_str(),
                      (*b.areas)[s.index]);
        out += buf;
    }
    if (b.distance && s.index < b.distance->dist.size()) {
        std::snprintf(buf, sizeof buf, "distance %d / %d\n", b.distance->dist[s.index], b.distance->max_dist);
        out += buf;
    }
    if (b.regions && s.index < b.regions->reg.size()) {
        const uint16_t r = b.regions->reg[s.index];
        std::snprintf(buf, sizeof buf, "region %d%s\n", r & ~kBorderRegion, (r & kBorderRegion) ? " (border)" : "");
        out += buf;
    }
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

void build_span_overlay(const CompactHeightfield& chf, const SpanRef& s, DrawList& out, uint32_t hi, uint32_t link,
                        bool links, float lift) {
    if (!s.valid()) return;
    const CompactSpan& sp = chf.spans[s.index];
    if (lift < 0.0f) lift = chf.ch * 0.9f;
    const float x0 = chf.bmin[0] + s.x * chf.cs, z0 = chf.bmin[2] + s.z * chf.cs;
    const float x1 = x0 + chf.cs, z1 = z0 + chf.cs;
    const float y = chf.bmin[1] + sp.y * chf.ch + lift;
    out.add_line(x0, y, z0, x1, y, z0, hi);
    out.add_line(x1, y, z0, x1, y, z1, hi);
    out.add_line(x1, y, z1, x0, y, z1, hi);
    out.add_line(x0, y, z1, x0, y, z0, hi);
    const float c[3] = {(x0 + x1) * 0.5f, y, (z0 + z1) * 0.5f};
    out.add_point(c, hi);
    if (!links) return;
    for (int d = 0; d < 4; ++d) {
        if (get_con(sp, d) == kNotConnected) continue;
        const int nx = s.x + dir_offset_x(d), nz = s.z + dir_offset_z(d);
        if (nx < 0 || nz < 0 || nx >= chf.width || nz >= chf.height) continue;
        const uint32_t ni = chf.neighbour(s.x, s.z, s.index, d);
        const float ny = chf.bmin[1] + chf.spans[ni].y * chf.ch + lift;
        const float nc[3] = {chf.bmin[0] + (static_cast<float>(nx) + 0.5f) * chf.cs, ny,
                             chf.bmin[2] + (static_cast<float>(nz) + 0.5f) * chf.cs};
        out.add_line(c, nc, link);
        // the neighbour's cell outline, a little inside it
        const float nx0 = chf.bmin[0] + nx * chf.cs + 0.1f * chf.cs, nz0 = chf.bmin[2] + nz * chf.cs + 0.1f * chf.cs;
        const float nx1 = nx0 + 0.8f * chf.cs, nz1 = nz0 + 0.8f * chf.cs;
        out.add_line(nx0, ny, nz0, nx1, ny, nz0, link);
        out.add_line(nx1, ny, nz0, nx1, ny, nz1, link);
        out.add_line(nx1, ny, nz1, nx0, ny, nz1, link);
        out.add_line(nx0, ny, nz1, nx0, ny, nz0, link);
    }
}

std::optional<Layer> top_pick_layer(const Bake& bake, const LayerMask& enabled) {
    for (int i = kLayerCount - 1; i >= 0; --i) {
        const auto l = static_cast<Layer>(i);
        if (l == Layer::Path || l == Layer::Tiles || l == Layer::Links || !enabled[static_cast<size_t>(i)])
            continue;  // tiles, links: overlays
        if (layer_available(l, bake)) return l;
    }
    return std::nullopt;
}

Element pick_ray(const Bake& bake, Layer l, const float* orig, const float* dir) {
    return pick(bake, l, orig, dir, nullptr);
}

Element pick_point(const Bake& bake, Layer l, const float* p) {
    // a vertical ray from above everything the bake draws, through p
    float top = p[1];
    if (bake.mesh) top = std::max(top, bake.mesh->bmax[1]);
    if (bake.solid) top = std::max(top, bake.solid->bmax[1]);
    if (bake.tiled()) top = std::max(top, bake.config.bmax[1]);
    top += 2.0f;
    const float o[3] = {p[0], top, p[2]}, d[3] = {0.0f, -1.0f, 0.0f};
    return pick(bake, l, o, d, p);
}

}  // namespace nav::render
