// Draw builders for the 2D-map pipeline; see map2d_draw.h.
#include "render/map2d_draw.h"

#include <algorithm>

#include "render/layers.h"

namespace nav::render {

namespace mc = map2d_colors;

namespace {

void p3(const double* xz, float y, float* out) {
    out[0] = static_cast<float>(xz[0]);
    out[1] = y;
    out[2] = static_cast<float>(xz[1]);
}

}  // namespace

void add_rings(const map2d::Rings& rings, float y, uint32_t color, DrawList& out) {
    for (size_t r = 0; r < rings.count(); ++r) {
        const double* p = rings.ring(r);
        const uint32_t n = rings.size(r);
        for (uint32_t i = 0; i < n; ++i) {
            float a[3], b[3];
            p3(p + 2 * i, y, a);
            p3(p + 2 * ((i + 1) % n), y, b);
            out.add_line(a, b, color);
            out.add_point(a, color);
        }
    }
}

void build_map2d_input(const map2d::Map2D& map, DrawList& out) {
    out.clear();
    out.line_width = 2.5f;
    out.point_size = 5.0f;
    out.depth_test = false;
    add_rings(map.outline, kMap2DLiftInput, mc::kOutline, out);
    add_rings(map.obstacles, kMap2DLiftInput, mc::kObstacle, out);
}

void build_map2d_clipped(const map2d::Rings& free, DrawList& out) {
    out.clear();
    out.line_width = 3.0f;
    out.point_size = 6.0f;
    out.depth_test = false;
    for (size_t r = 0; r < free.count(); ++r) {
        map2d::Rings one;
        one.add(free.ring(r), free.size(r));
        add_rings(one, kMap2DLiftClipped,
                  map2d::ring_area(free.ring(r), free.size(r)) >= 0 ? mc::kFreeOuter : mc::kFreeHole, out);
    }
}

void build_map2d_cdt(const map2d::CdtResult& cdt, uint32_t nreal, DrawList& out, DrawList& lines) {
    out.clear();
    lines.clear();
    out.line_width = 1.2f;
    lines.line_width = 3.0f;
    lines.depth_test = false;
    const size_t nt = cdt.tris.size() / 3;
    for (size_t t = 0; t < nt; ++t) {
        const uint32_t* v = &cdt.tris[3 * t];
        if (v[0] >= nreal || v[1] >= nreal || v[2] >= nreal) continue;
        float a[3], b[3], c[3];
        p3(&cdt.xz[2 * size_t(v[0])], kMap2DLiftCdt, a);
        p3(&cdt.xz[2 * size_t(v[1])], kMap2DLiftCdt, b);
        p3(&cdt.xz[2 * size_t(v[2])], kMap2DLiftCdt, c);
        out.add_triangle(a, c, b, mc::kTriFill);  // counter-clockwise in xz: reversed to face up
        const float* corners[3] = {a, b, c};
        for (int i = 0; i < 3; ++i) {
            const uint32_t nb = cdt.nei.size() > 3 * t + i ? cdt.nei[3 * t + i] : UINT32_MAX;
            const bool con = cdt.constrained.size() > 3 * t + i && cdt.constrained[3 * t + i] != 0;
            // each shared edge once: from the triangle with the smaller index
            if (con) {
                if (nb == UINT32_MAX || nb > t) lines.add_line(corners[i], corners[(i + 1) % 3], mc::kConstraint);
            } else if (nb == UINT32_MAX || nb > t) {
                out.add_line(corners[i], corners[(i + 1) % 3], mc::kTriEdge);
            }
        }
    }
}

void build_map2d_merged(const map2d::PolyMesh2D& mesh, DrawList& out, DrawList& lines) {
    out.clear();
    lines.clear();
    lines.line_width = 2.5f;
    lines.point_size = 5.0f;
    lines.depth_test = false;
    for (uint32_t p = 0; p < mesh.npolys(); ++p) {
        const uint32_t f = mesh.poly_first[p], n = mesh.poly_first[p + 1] - f;
        const uint32_t fill = color_with_alpha(hash_color(p), 110);
        float first[3];
        p3(&mesh.xz[2 * size_t(mesh.poly_verts[f])], kMap2DLiftMerged, first);
        for (uint32_t k = 0; k < n; ++k) {
            float a[3], b[3];
            p3(&mesh.xz[2 * size_t(mesh.poly_verts[f + k])], kMap2DLiftMerged, a);
            p3(&mesh.xz[2 * size_t(mesh.poly_verts[f + (k + 1) % n])], kMap2DLiftMerged, b);
            if (k >= 1 && k + 1 < n) out.add_triangle(first, b, a, fill);
            const uint32_t nb = mesh.poly_nei.size() > f + k ? mesh.poly_nei[f + k] : map2d::kNoPoly2;
            if (nb == map2d::kNoPoly2 || nb > p) lines.add_line(a, b, mc::kMergedEdge);
            lines.add_point(a, mc::kMergedEdge);
        }
    }
}

size_t clip_steps(const map2d::ClipTrace& trace) { return trace.crossings.size() + trace.result.count(); }

void build_clip_step(const map2d::ClipTrace& trace, size_t step, DrawList& out) {
    out.clear();
    out.line_width = 2.0f;
    out.point_size = 9.0f;
    out.depth_test = false;
    const size_t nc = trace.crossings.size();
    step = std::min(step, clip_steps(trace));
    const float y = kMap2DLiftStep;
    for (size_t e = 0; e < trace.edges.size() / 2; ++e) {
        float a[3], b[3];
        p3(&trace.verts[2 * size_t(trace.edges[2 * e])], y, a);
        p3(&trace.verts[2 * size_t(trace.edges[2 * e + 1])], y, b);
        const bool kept = step > nc && e < trace.edge_kept.size() && trace.edge_kept[e] != 0;
        out.add_line(a, b, kept ? mc::kKeptEdge : mc::kSubEdge);
    }
    for (size_t i = 0; i < std::min(step, nc); ++i) {
        const map2d::ClipCrossing& c = trace.crossings[i];
        float p[3];
        p3(&trace.verts[2 * size_t(c.vertex)], y, p);
        out.add_point(p, c.kind == map2d::ClipCrossing::Entering  ? mc::kEntering
                         : c.kind == map2d::ClipCrossing::Leaving ? mc::kLeaving
                                                                  : mc::kOnBoundary);
    }
    if (step > nc) {
        map2d::Rings traced;
        for (size_t r = 0; r < step - nc; ++r) traced.add(trace.result.ring(r), trace.result.size(r));
        add_rings(traced, y + 0.01f, mc::kResultRing, out);
    }
}

void build_cdt_step_mark(const map2d::CdtResult& state, const map2d::CdtTrace& trace, size_t step, DrawList& out) {
    out.clear();
    out.line_width = 4.0f;
    out.point_size = 12.0f;
    out.depth_test = false;
    if (step == 0 || step > trace.steps.size()) return;
    const map2d::CdtStep& s = trace.steps[step - 1];
    const uint32_t np = static_cast<uint32_t>(state.xz.size() / 2);
    // the trace names points by their index in state.xz
    auto pt = [&](uint32_t k, float* p) {
        if (k >= np) return false;
        p3(&state.xz[2 * size_t(k)], kMap2DLiftStep, p);
        return true;
    };
    float a[3], b[3];
    switch (s.kind) {
        case map2d::CdtStep::InsertPoint:
            if (pt(s.a, a)) out.add_point(a, mc::kStepMark);
            break;
        case map2d::CdtStep::Flip:
        case map2d::CdtStep::InsertConstraint: {
            const uint32_t u = s.kind == map2d::CdtStep::Flip ? s.c : s.a, v = s.kind == map2d::CdtStep::Flip ? s.d : s.b;
            if (pt(u, a) && pt(v, b)) {
                out.add_line(a, b, mc::kStepMark);
                out.add_point(a, mc::kStepMark);
                out.add_point(b, mc::kStepMark);
            }
            break;
        }
        default: break;
    }
}

}  // namespace nav::render
