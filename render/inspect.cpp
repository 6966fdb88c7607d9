#include "render/inspect.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "core/bake/filter.h"

namespace nav::render {

namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

std::string area_text(uint8_t a) {
    const std::string_view n = area_name(a);
    return n.empty() ? fmt("user area %d", a) : fmt("%s (%d)", std::string(n).c_str(), a);
}


// The span at `level` of column c, or kNullSpan.
uint32_t span_at_level(const Heightfield& hf, size_t c, uint32_t level) {
    uint32_t i = hf.columns[c];
    for (uint32_t k = 0; k < level && i != kNullSpan; ++k) i = hf.pool[i].next;
    return i;
}

std::string filter_text(const Span& s) {
    std::string r;
    if (s.filtered_by & kFilteredLedge) r = "ledge";
    if (s.filtered_by & kFilteredLowHeight) r += r.empty() ? "low height" : " + low height";
    return r;
}

void describe_span_box(const Bake& b, const Element& e, ElementText& out) {
    const Heightfield* hf = e.layer == Layer::Voxels ? b.solid.get() : b.filtered.get();
    if (!hf || e.x < 0 || e.z < 0 || e.x >= hf->width || e.z >= hf->height || e.index >= hf->pool.size()) return;
    const size_t c = static_cast<size_t>(e.x + e.z * hf->width);
    const Span& s = hf->pool[e.index];
    uint32_t n = 0;
    for (uint32_t i = hf->columns[c]; i != kNullSpan; i = hf->pool[i].next) ++n;
    out.title = fmt("%s span, cell (%d, %d)", e.layer == Layer::Voxels ? "solid" : "filtered", e.x, e.z);
    out.lines.push_back(fmt("cell (%d, %d), span %u of %u in the column (from the bottom)", e.x, e.z, e.sub + 1, n));
    out.lines.push_back(fmt("y %d .. %d voxels = %.2f .. %.2f m", s.smin, s.smax, hf->bmin[1] + s.smin * hf->ch,
                            hf->bmin[1] + s.smax * hf->ch));
    if (s.next != kNullSpan) {
        const int gap = static_cast<int>(hf->pool[s.next].smin) - static_cast<int>(s.smax);
        out.lines.push_back(fmt("free above: %d voxels (%.2f m) to the next span", gap, gap * hf->ch));
    } else {
        out.lines.push_back("free above: open (top span of the column)");
    }
    // the same span before (solid) and after (filtered) the filters: they change areas in place
    const Span* before = nullptr;
    const Span* after = nullptr;
    if (b.solid && b.solid->columns.size() == hf->columns.size()) {
        const uint32_t i = span_at_level(*b.solid, c, e.sub);
        if (i != kNullSpan) before = &b.solid->pool[i];
    }
    if (b.filtered && b.filtered->columns.size() == hf->columns.size()) {
        const uint32_t i = span_at_level(*b.filtered, c, e.sub);
        if (i != kNullSpan) after = &b.filtered->pool[i];
    }
    if (before) out.lines.push_back("area (rasterized): " + area_text(before->area));
    if (after) {
        out.lines.push_back("area (filtered): " + area_text(after->area));
        const std::string f = filter_text(*after);
        if (!f.empty()) out.lines.push_back("removed by the " + f + " filter");
        else if (before && before->area == kNullArea && after->area != kNullArea)
            out.lines.push_back("made walkable by the low-hanging obstacle filter");
        else if (after->area == kNullArea) out.lines.push_back("not walkable before the filters (slope or merged)");
        else out.lines.push_back("kept by every filter");
    } else {
        out.lines.push_back("filters: not run yet");
    }
}

void describe_compact(const Bake& b, const Element& e, ElementText& out) {
    if (!b.compact || e.index >= b.compact->spans.size()) return;
    out.title = fmt("compact span %u, cell (%d, %d)", e.index, e.x, e.z);
    const std::string s = describe_span(b, SpanRef{e.x, e.z, e.index});
    size_t pos = 0;
    while (pos <= s.size()) {
        size_t nl = s.find('\n', pos);
        if (nl == std::string::npos) nl = s.size();
        out.lines.push_back(s.substr(pos, nl - pos));
        pos = nl + 1;
    }
}

void describe_contour_vertex(const Bake& b, const Element& e, ElementText& out) {
    if (!b.contours || e.index >= b.contours->contours.size()) return;
    const ContourSet& cs = *b.contours;
    const Contour& c = cs.contours[e.index];
    const bool raw = e.layer == Layer::RawContours;
    const uint32_t n = raw ? c.nraw : c.nverts;
    if (e.sub >= n) return;
    const int32_t* v = raw ? &cs.raw_verts[(static_cast<size_t>(c.raw_start) + e.sub) * 4]
                           : &cs.verts[(static_cast<size_t>(c.vert_start) + e.sub) * 4];
    out.title = fmt("%s contour vertex %u of contour %u", raw ? "raw" : "simplified", e.sub, e.index);
    out.lines.push_back(fmt("contour %u: region %d, area %s, %u simplified / %u raw vertices", e.index,
                            c.reg & ~kBorderRegion, area_text(c.area).c_str(), c.nverts, c.nraw));
    out.lines.push_back(fmt("vertex %u of %u: voxel (%d, %d, %d)", e.sub, n, v[0], v[1], v[2]));
    out.lines.push_back(fmt("position (%.2f, %.2f, %.2f) m", cs.bmin[0] + v[0] * cs.cs, cs.bmin[1] + v[1] * cs.ch,
                            cs.bmin[2] + v[2] * cs.cs));
    const int flags = v[3];
    out.lines.push_back(fmt("flags 0x%05x: %s, %s", flags, (flags & kBorderVertex) ? "border vertex" : "not border",
                            (flags & kAreaBorder) ? "area border" : "no area border"));
    const int nreg = flags & kContourRegMask;
    if (nreg == 0) out.lines.push_back("next edge: wall (no region beyond)");
    else
        out.lines.push_back(fmt("next edge: neighbour region %d%s", nreg & ~kBorderRegion,
                                (nreg & kBorderRegion) ? " (tile border)" : ""));
}

void describe_polygon(const Bake& b, const Element& e, ElementText& out) {
    if (!b.polymesh || e.index >= static_cast<uint32_t>(b.polymesh->npolys)) return;
    const PolyMesh& m = *b.polymesh;
    const int pi = static_cast<int>(e.index);
    const uint16_t* p = m.poly(pi);
    const int n = m.poly_vert_count(pi);
    double a2 = 0.0;
    for (int k = 0; k < n; ++k) {
        const uint16_t* va = &m.verts[static_cast<size_t>(p[k]) * 3];
        const uint16_t* vb = &m.verts[static_cast<size_t>(p[(k + 1) % n]) * 3];
        a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
    }
    out.title = fmt("polygon %d", pi);
    out.lines.push_back(fmt("area %s, region %d, flags 0x%04x", area_text(m.areas[e.index]).c_str(),
                            m.regs[e.index] & ~kBorderRegion, m.flags[e.index]));
    out.lines.push_back(fmt("size %.2f m^2 (xz), %d vertices", std::fabs(a2) * 0.5 * m.cs * m.cs, n));
    for (int k = 0; k < n; ++k) {
        const uint16_t* v = &m.verts[static_cast<size_t>(p[k]) * 3];
        out.lines.push_back(fmt("v%d = vertex %d (%.2f, %.2f, %.2f) m", k, p[k], m.bmin[0] + v[0] * m.cs,
                                m.bmin[1] + v[1] * m.ch, m.bmin[2] + v[2] * m.cs));
    }
    for (int k = 0; k < n; ++k) {
        const uint16_t nei = p[m.nvp + k];
        std::string what;
        if (nei == kMeshNullIdx) what = "wall";
        else if ((nei & 0x8000) && m.border_size > 0) what = fmt("tile border (side %d)", nei & 0xf);
        else what = fmt("polygon %d", nei);
        out.lines.push_back(fmt("edge v%d-v%d: %s", k, (k + 1) % n, what.c_str()));
    }
}

void describe_detail(const Bake& b, const Element& e, ElementText& out) {
    if (!b.detail || e.index >= static_cast<uint32_t>(b.detail->nmeshes)) return;
    const PolyMeshDetail& d = *b.detail;
    const uint32_t* md = &d.meshes[static_cast<size_t>(e.index) * 4];
    if (e.sub >= md[3]) return;
    const uint8_t* tri = &d.tris[static_cast<size_t>(md[2] + e.sub) * 4];
    out.title = fmt("detail triangle %u of polygon %u", e.sub, e.index);
    out.lines.push_back(fmt("polygon %u: %u detail triangles, %u detail vertices", e.index, md[3], md[1]));
    const float* v[3];
    for (int k = 0; k < 3; ++k) v[k] = &d.verts[static_cast<size_t>(md[0] + tri[k]) * 3];
    out.lines.push_back(fmt("heights %.3f, %.3f, %.3f m", v[0][1], v[1][1], v[2][1]));
    for (int k = 0; k < 3; ++k)
        out.lines.push_back(fmt("vertex %d (local %d): (%.2f, %.3f, %.2f) m", k, tri[k], v[k][0], v[k][1], v[k][2]));
    std::string hull;
    for (int k = 0; k < 3; ++k)
        if ((tri[3] >> (2 * k)) & 3) hull += fmt("%s%d-%d", hull.empty() ? "" : ", ", k, (k + 1) % 3);
    out.lines.push_back("edges on the polygon outline: " + (hull.empty() ? std::string("none") : hull));
}

void describe_navpoly(const Bake& b, const Element& e, ElementText& out) {
    if (!b.navmesh || e.index >= static_cast<uint32_t>(b.navmesh->npolys)) return;
    const NavMesh& m = *b.navmesh;
    const uint32_t p = e.index;
    const int n = m.poly_vert_count(p);
    double a2 = 0.0;
    for (int k = 0; k < n; ++k) {
        const float* va = m.vert(m.edge_vert[m.poly_first[p] + static_cast<uint32_t>(k)]);
        const float* vb = m.vert(m.edge_vert[m.poly_first[p] + static_cast<uint32_t>((k + 1) % n)]);
        a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
    }
    out.title = fmt("navmesh polygon %u", p);
    if (p < m.poly_island.size()) out.lines.push_back(fmt("island %u of %d", m.poly_island[p], m.nislands));
    const uint16_t fl = m.flags[p];
    out.lines.push_back(fmt("flags 0x%04x%s", fl, (fl & kPolyFlagDisabled) ? " (disabled)" : ""));
    out.lines.push_back("area " + area_text(m.areas[p]));
    out.lines.push_back(fmt("size %.2f m^2 (xz), %d vertices, %d portals", std::fabs(a2) * 0.5, n,
                            p < m.poly_portals.size() ? m.poly_portals[p] : 0));
    for (int k = 0; k < n; ++k) {
        const uint32_t slot = m.poly_first[p] + static_cast<uint32_t>(k);
        const uint32_t nei = m.edge_nei[slot];
        out.lines.push_back(fmt("edge %d: %s", k, nei == kNoPoly ? "wall" : fmt("polygon %u", nei).c_str()));
    }
}

void describe_input(const Bake& b, const Element& e, ElementText& out) {
    if (!b.mesh || e.index >= static_cast<uint32_t>(b.mesh->tri_count())) return;
    const InputMesh& m = *b.mesh;
    const int* tri = &m.tris[static_cast<size_t>(e.index) * 3];
    const float* v[3];
    for (int k = 0; k < 3; ++k) v[k] = &m.verts[static_cast<size_t>(tri[k]) * 3];
    const float e1[3] = {v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]};
    const float e2[3] = {v[2][0] - v[0][0], v[2][1] - v[0][1], v[2][2] - v[0][2]};
    const float nrm[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    const float len = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    out.title = fmt("input triangle %u", e.index);
    int in_mesh = 0;  // the level's own mesh name (assimp formats): find the wall in the editor
    if (const std::string* name = m.tri_mesh_name(static_cast<int>(e.index), &in_mesh))
        out.lines.push_back(fmt("triangle %d of mesh `%s`", in_mesh, name->c_str()));
    for (int k = 0; k < 3; ++k)
        out.lines.push_back(fmt("vertex %d: (%.2f, %.2f, %.2f)", tri[k], v[k][0], v[k][1], v[k][2]));
    if (len > 0.0f) {
        const float slope = std::acos(std::fmax(-1.0f, std::fmin(1.0f, nrm[1] / len))) * 57.2957795f;
        out.lines.push_back(fmt("slope %.1f deg (walkable up to %.1f), area %.2f m^2", slope,
                                b.config.walkable_slope_deg, 0.5 * len));
    }
    if (b.tri_areas && e.index < b.tri_areas->size()) out.lines.push_back("area " + area_text((*b.tri_areas)[e.index]));
}

// ---- overlay ----

struct Pen {
    DrawList& out;
    bool thick;
    float ribbon;  // world width of the ribbon under thick lines
    void line(const float* a, const float* b, uint32_t color) const {
        out.add_line(a, b, color);
        if (!thick) return;
        const float d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        float s[3] = {-d[2], 0.0f, d[0]};  // horizontal, across the segment
        float l = std::sqrt(s[0] * s[0] + s[2] * s[2]);
        if (l < 1e-6f) {  // vertical segment
            s[0] = 1.0f;
            s[2] = 0.0f;
            l = 1.0f;
        }
        const float k = ribbon * 0.5f / l;
        const float p0[3] = {a[0] - s[0] * k, a[1], a[2] - s[2] * k}, p1[3] = {b[0] - s[0] * k, b[1], b[2] - s[2] * k};
        const float p2[3] = {b[0] + s[0] * k, b[1], b[2] + s[2] * k}, p3[3] = {a[0] + s[0] * k, a[1], a[2] + s[2] * k};
        out.add_quad(p0, p1, p2, p3, color);
    }
    void line(float ax, float ay, float az, float bx, float by, float bz, uint32_t color) const {
        const float a[3] = {ax, ay, az}, b[3] = {bx, by, bz};
        line(a, b, color);
    }
};

void polymesh_poly_loop(const PolyMesh& m, int pi, const Pen& pen, uint32_t color) {
    const uint16_t* p = m.poly(pi);
    const int n = m.poly_vert_count(pi);
    for (int k = 0; k < n; ++k) {
        float a[3], b[3];
        const uint16_t* va = &m.verts[static_cast<size_t>(p[k]) * 3];
        const uint16_t* vb = &m.verts[static_cast<size_t>(p[(k + 1) % n]) * 3];
        voxel_to_world(m.bmin, m.cs, m.ch, va[0], va[1], va[2], a);
        voxel_to_world(m.bmin, m.cs, m.ch, vb[0], vb[1], vb[2], b);
        pen.line(a, b, color);
    }
}

void navmesh_poly_loop(const NavMesh& m, uint32_t p, const Pen& pen, uint32_t color) {
    const int n = m.poly_vert_count(p);
    for (int k = 0; k < n; ++k) {
        const float* va = m.vert(m.edge_vert[m.poly_first[p] + static_cast<uint32_t>(k)]);
        const float* vb = m.vert(m.edge_vert[m.poly_first[p] + static_cast<uint32_t>((k + 1) % n)]);
        pen.line(va[0], va[1] + kNavmeshLift, va[2], vb[0], vb[1] + kNavmeshLift, vb[2], color);
    }
}

// The grid an element's indices are in: its tile's (as a solo bake, in `scratch`) on a tiled
// bake, else the bake itself; null when the tile is not there.
const Bake* grid_of(const Bake& b, const Element& e, Bake& scratch) {
    if (e.tile < 0) return &b;
    if (!b.tiled() || static_cast<size_t>(e.tile) >= b.tiles.size() || !b.tiles[static_cast<size_t>(e.tile)])
        return nullptr;
    scratch = tile_view(b, *b.tiles[static_cast<size_t>(e.tile)]);
    return &scratch;
}

bool element_exists_in(const Bake& b, const Element& e);

}  // namespace

bool element_exists(const Bake& bake, const Element& e) {
    Bake scratch;
    const Bake* g = grid_of(bake, e, scratch);
    return g && element_exists_in(*g, e);
}

namespace {
bool element_exists_in(const Bake& b, const Element& e) {
    switch (e.kind) {
        case ElementKind::None: return false;
        case ElementKind::InputTri: return b.mesh && e.index < static_cast<uint32_t>(b.mesh->tri_count());
        case ElementKind::Span: {
            const Heightfield* hf = e.layer == Layer::Voxels ? b.solid.get() : b.filtered.get();
            return hf && e.x >= 0 && e.z >= 0 && e.x < hf->width && e.z < hf->height && e.index < hf->pool.size();
        }
        case ElementKind::CompactSpan:
            return b.compact && e.x >= 0 && e.z >= 0 && e.x < b.compact->width && e.z < b.compact->height &&
                   e.index < b.compact->spans.size();
        case ElementKind::ContourVertex: {
            if (!b.contours || e.index >= b.contours->contours.size()) return false;
            const Contour& c = b.contours->contours[e.index];
            return e.sub < (e.layer == Layer::RawContours ? c.nraw : c.nverts);
        }
        case ElementKind::Polygon: return b.polymesh && e.index < static_cast<uint32_t>(b.polymesh->npolys);
        case ElementKind::DetailTri:
            return b.detail && e.index < static_cast<uint32_t>(b.detail->nmeshes) &&
                   e.sub < b.detail->meshes[static_cast<size_t>(e.index) * 4 + 3];
        case ElementKind::NavPoly: return b.navmesh && e.index < static_cast<uint32_t>(b.navmesh->npolys);
    }
    return false;
}
}  // namespace

void element_anchor(const Bake& bake, const Element& e, float* p) {
    for (int i = 0; i < 3; ++i) p[i] = e.point[i];
    if (!element_exists(bake, e)) return;
    Bake scratch;
    const Bake& b = *grid_of(bake, e, scratch);
    if (e.kind == ElementKind::Span) {
        const Heightfield& hf = e.layer == Layer::Voxels ? *b.solid : *b.filtered;
        const Span& s = hf.pool[e.index];
        p[0] = hf.bmin[0] + (static_cast<float>(e.x) + 0.5f) * hf.cs;
        p[2] = hf.bmin[2] + (static_cast<float>(e.z) + 0.5f) * hf.cs;
        p[1] = std::fmin(std::fmax(p[1], hf.bmin[1] + s.smin * hf.ch), hf.bmin[1] + s.smax * hf.ch);
    } else if (e.kind == ElementKind::CompactSpan) {
        const CompactHeightfield& chf = *b.compact;
        p[0] = chf.bmin[0] + (static_cast<float>(e.x) + 0.5f) * chf.cs;
        p[2] = chf.bmin[2] + (static_cast<float>(e.z) + 0.5f) * chf.cs;
    }
}

ElementText describe_element(const Bake& whole, const Element& e) {
    ElementText t;
    Bake scratch;
    const Bake* g = grid_of(whole, e, scratch);
    if (!g) return t;
    const Bake& bake = *g;
    switch (e.kind) {
        case ElementKind::None: break;
        case ElementKind::InputTri: describe_input(bake, e, t); break;
        case ElementKind::Span: describe_span_box(bake, e, t); break;
        case ElementKind::CompactSpan: describe_compact(bake, e, t); break;
        case ElementKind::ContourVertex: describe_contour_vertex(bake, e, t); break;
        case ElementKind::Polygon: describe_polygon(bake, e, t); break;
        case ElementKind::DetailTri: describe_detail(bake, e, t); break;
        case ElementKind::NavPoly: describe_navpoly(bake, e, t); break;
    }
    if (e.tile >= 0 && !t.title.empty()) {
        const TileBake& tb = *whole.tiles[static_cast<size_t>(e.tile)];
        t.title = "tile " + std::to_string(tb.tx) + "," + std::to_string(tb.tz) + ": " + t.title;
    }
    return t;
}

std::string element_text(const ElementText& t) {
    std::string s = t.title;
    for (const std::string& l : t.lines) {
        s += '\n';
        s += l;
    }
    return s;
}

void build_element_overlay(const Bake& bake, const Element& e, bool pinned, DrawList& out) {
    if (!element_exists(bake, e)) return;
    Bake scratch;
    const Bake& b = *grid_of(bake, e, scratch);
    const uint32_t color = pinned ? colors::kInspectPinned : colors::kInspectHover;
    const float cs = b.config.cs > 0.0f ? b.config.cs : 0.3f;
    const Pen pen{out, pinned, 0.22f * cs};
    const Pen thin{out, false, 0.0f};
    if (pinned) {  // a pin standing on the element, so it is found at any zoom
        const float top[3] = {e.point[0], e.point[1] + std::fmax(1.5f, 6.0f * cs), e.point[2]};
        const Pen stalk{out, true, 0.5f * cs};
        stalk.line(e.point, top, color);
        out.add_point(top, color);
    }
    switch (e.kind) {
        case ElementKind::None: break;
        case ElementKind::InputTri: {
            const int* tri = &b.mesh->tris[static_cast<size_t>(e.index) * 3];
            for (int k = 0; k < 3; ++k)
                pen.line(&b.mesh->verts[static_cast<size_t>(tri[k]) * 3],
                         &b.mesh->verts[static_cast<size_t>(tri[(k + 1) % 3]) * 3], color);
            break;
        }
        case ElementKind::Span: {
            const Heightfield& hf = e.layer == Layer::Voxels ? *b.solid : *b.filtered;
            const Span& s = hf.pool[e.index];
            const float x0 = hf.bmin[0] + e.x * hf.cs, z0 = hf.bmin[2] + e.z * hf.cs;
            const float x1 = x0 + hf.cs, z1 = z0 + hf.cs;
            const float y0 = hf.bmin[1] + s.smin * hf.ch, y1 = hf.bmin[1] + s.smax * hf.ch;
            const float xs[4] = {x0, x1, x1, x0}, zs[4] = {z0, z0, z1, z1};
            for (int k = 0; k < 4; ++k) {
                const int j = (k + 1) % 4;
                pen.line(xs[k], y1, zs[k], xs[j], y1, zs[j], color);
                thin.line(xs[k], y0, zs[k], xs[j], y0, zs[j], color);
                thin.line(xs[k], y0, zs[k], xs[k], y1, zs[k], color);
            }
            break;
        }
        case ElementKind::CompactSpan: {
            const CompactHeightfield& chf = *b.compact;
            const float lift = floor_lift(chf, e.layer);
            const SpanRef s{e.x, e.z, e.index};
            // links (pinned) with the neighbour floors marked; the outline drawn by the pen
            build_span_overlay(chf, s, out, color, colors::kInspectNeighbour, pinned, lift);
            const float x0 = chf.bmin[0] + e.x * chf.cs, z0 = chf.bmin[2] + e.z * chf.cs;
            const float x1 = x0 + chf.cs, z1 = z0 + chf.cs;
            const float y = chf.bmin[1] + chf.spans[e.index].y * chf.ch + lift;
            if (pinned) {
                pen.line(x0, y, z0, x1, y, z0, color);
                pen.line(x1, y, z0, x1, y, z1, color);
                pen.line(x1, y, z1, x0, y, z1, color);
                pen.line(x0, y, z1, x0, y, z0, color);
            }
            break;
        }
        case ElementKind::ContourVertex: {
            const ContourSet& cset = *b.contours;
            const Contour& c = cset.contours[e.index];
            const bool raw = e.layer == Layer::RawContours;
            const uint32_t n = raw ? c.nraw : c.nverts;
            const int32_t* v = raw ? &cset.raw_verts[static_cast<size_t>(c.raw_start) * 4]
                                   : &cset.verts[static_cast<size_t>(c.vert_start) * 4];
            // the whole contour thin, the vertex as a dot inside a diamond
            const uint32_t loop = pinned ? colors::kInspectNeighbour : color;
            for (uint32_t i = 0; i < n; ++i) {
                const int32_t* a = &v[i * 4];
                const int32_t* bb = &v[((i + 1) % n) * 4];
                float pa[3], pb[3];
                voxel_to_world(cset.bmin, cset.cs, cset.ch, a[0], a[1], a[2], pa);
                voxel_to_world(cset.bmin, cset.cs, cset.ch, bb[0], bb[1], bb[2], pb);
                thin.line(pa, pb, loop);
            }
            const int32_t* a = &v[e.sub * 4];
            float p[3];
            voxel_to_world(cset.bmin, cset.cs, cset.ch, a[0], a[1], a[2], p);
            const float r = 0.6f * cset.cs;
            const float q[4][3] = {{p[0] - r, p[1], p[2]}, {p[0], p[1], p[2] - r}, {p[0] + r, p[1], p[2]}, {p[0], p[1], p[2] + r}};
            for (int k = 0; k < 4; ++k) pen.line(q[k], q[(k + 1) % 4], color);
            out.add_point(p, color);
            break;
        }
        case ElementKind::Polygon: {
            const PolyMesh& m = *b.polymesh;
            const int pi = static_cast<int>(e.index);
            if (pinned) {
                const uint16_t* p = m.poly(pi);
                const int n = m.poly_vert_count(pi);
                for (int k = 0; k < n; ++k) {
                    const uint16_t nei = p[m.nvp + k];
                    if (nei == kMeshNullIdx || static_cast<int>(nei) >= m.npolys) continue;
                    polymesh_poly_loop(m, nei, thin, colors::kInspectNeighbour);
                }
            }
            polymesh_poly_loop(m, pi, pen, color);
            break;
        }
        case ElementKind::DetailTri: {
            const PolyMeshDetail& d = *b.detail;
            const uint32_t* md = &d.meshes[static_cast<size_t>(e.index) * 4];
            const uint8_t* tri = &d.tris[static_cast<size_t>(md[2] + e.sub) * 4];
            const float lift = b.polymesh ? b.polymesh->ch : 0.0f;
            if (pinned && b.polymesh && e.index < static_cast<uint32_t>(b.polymesh->npolys))
                polymesh_poly_loop(*b.polymesh, static_cast<int>(e.index), thin, colors::kInspectNeighbour);
            for (int k = 0; k < 3; ++k) {
                const float* va = &d.verts[static_cast<size_t>(md[0] + tri[k]) * 3];
                const float* vb = &d.verts[static_cast<size_t>(md[0] + tri[(k + 1) % 3]) * 3];
                pen.line(va[0], va[1] + lift, va[2], vb[0], vb[1] + lift, vb[2], color);
            }
            break;
        }
        case ElementKind::NavPoly: {
            const NavMesh& m = *b.navmesh;
            if (pinned) {
                for (uint32_t s = m.poly_first[e.index]; s < m.poly_first[e.index + 1]; ++s)
                    if (m.edge_nei[s] != kNoPoly) navmesh_poly_loop(m, m.edge_nei[s], thin, colors::kInspectNeighbour);
            }
            navmesh_poly_loop(m, e.index, pen, color);
            break;
        }
    }
}

}  // namespace nav::render
