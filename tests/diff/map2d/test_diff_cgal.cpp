// Our constrained Delaunay triangulation (core/map2d/cdt.*) against CGAL's
// Constrained_Delaunay_triangulation_2 (Debian's libcgal-dev, test-only), with the same points
// and constraints: the free space of random maps (outline minus the union of obstacles).
//  - in general position (random real coordinates) the same set of triangles;
//  - every triangle constrained Delaunay: no vertex visible from it inside its circumcircle
//    (brute force);
//  - holes and the outside empty: every triangle's centroid lies in the free space;
//  - the triangulated area equals the free area; on grid maps (cocircular points, no unique
//    answer) the same number of triangles as CGAL.
#include <doctest/doctest.h>

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Constrained_triangulation_face_base_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "core/map2d/cdt.h"
#include "core/map2d/weiler.h"

namespace {

using namespace nav::map2d;

struct FaceInfo {
    int level = -1;
};
using K = CGAL::Exact_predicates_inexact_constructions_kernel;
using Fbi = CGAL::Triangulation_face_base_with_info_2<FaceInfo, K>;
using Fb = CGAL::Constrained_triangulation_face_base_2<K, Fbi>;
using Tds = CGAL::Triangulation_data_structure_2<CGAL::Triangulation_vertex_base_2<K>, Fb>;
using CDT = CGAL::Constrained_Delaunay_triangulation_2<K, Tds, CGAL::Exact_predicates_tag>;

using TriKey = std::array<double, 6>;

TriKey key(double ax, double az, double bx, double bz, double cx, double cz) {
    std::array<std::pair<double, double>, 3> p{{{ax, az}, {bx, bz}, {cx, cz}}};
    std::sort(p.begin(), p.end());
    return {p[0].first, p[0].second, p[1].first, p[1].second, p[2].first, p[2].second};
}

// CGAL's CDT of the same input, the domain marked by nesting level (odd = inside).
std::vector<TriKey> cgal_triangles(const CdtInput& in) {
    CDT cdt;
    std::vector<CDT::Vertex_handle> vh;
    for (size_t i = 0; i < in.xz.size() / 2; ++i) vh.push_back(cdt.insert(K::Point_2(in.xz[2 * i], in.xz[2 * i + 1])));
    for (size_t k = 0; k + 1 < in.constraints.size(); k += 2)
        if (vh[in.constraints[k]] != vh[in.constraints[k + 1]])
            cdt.insert_constraint(vh[in.constraints[k]], vh[in.constraints[k + 1]]);
    std::deque<std::pair<CDT::Face_handle, int>> q;
    q.push_back({cdt.infinite_face(), 0});
    while (!q.empty()) {
        auto [f, lv] = q.front();
        q.pop_front();
        if (f->info().level != -1 && f->info().level <= lv) continue;
        f->info().level = lv;
        for (int i = 0; i < 3; ++i) {
            const CDT::Face_handle n = f->neighbor(i);
            const bool c = cdt.is_constrained(CDT::Edge(f, i));
            if (n->info().level == -1 || n->info().level > lv + (c ? 1 : 0)) {
                if (c) q.push_back({n, lv + 1});
                else q.push_front({n, lv});
            }
        }
    }
    std::vector<TriKey> out;
    for (auto f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) {
        if (f->info().level % 2 != 1) continue;
        const auto &a = f->vertex(0)->point(), &b = f->vertex(1)->point(), &c = f->vertex(2)->point();
        out.push_back(key(a.x(), a.y(), b.x(), b.y(), c.x(), c.y()));
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<TriKey> our_keys(const CdtResult& r) {
    std::vector<TriKey> out;
    for (size_t t = 0; t < r.tris.size() / 3; ++t) {
        const uint32_t a = r.tris[3 * t], b = r.tris[3 * t + 1], c = r.tris[3 * t + 2];
        out.push_back(key(r.xz[2 * a], r.xz[2 * a + 1], r.xz[2 * b], r.xz[2 * b + 1], r.xz[2 * c], r.xz[2 * c + 1]));
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool proper_cross(const double* a, const double* b, const double* c, const double* d) {
    const double o1 = orient2d(a[0], a[1], b[0], b[1], c[0], c[1]), o2 = orient2d(a[0], a[1], b[0], b[1], d[0], d[1]);
    const double o3 = orient2d(c[0], c[1], d[0], d[1], a[0], a[1]), o4 = orient2d(c[0], c[1], d[0], d[1], b[0], b[1]);
    return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

int winding(const Rings& r, double qx, double qz) {
    int w = 0;
    for (size_t k = 0; k < r.count(); ++k) {
        const double* p = r.ring(k);
        const uint32_t n = r.size(k);
        for (uint32_t i = 0; i < n; ++i) {
            const double *a = p + 2 * i, *b = p + 2 * ((i + 1) % n);
            const double o = orient2d(a[0], a[1], b[0], b[1], qx, qz);
            if (a[1] <= qz) {
                if (b[1] > qz && o > 0) ++w;
            } else if (b[1] <= qz && o < 0) {
                --w;
            }
        }
    }
    return w;
}

// The checks that hold whatever the position: constrained Delaunay (brute force), holes empty,
// area equals the free area.
void check_cdt_properties(const CdtInput& in, const CdtResult& r, const Rings& free) {
    const size_t nt = r.tris.size() / 3;
    double area = 0;
    for (size_t t = 0; t < nt; ++t) {
        const double* A = &r.xz[2 * r.tris[3 * t]];
        const double* B = &r.xz[2 * r.tris[3 * t + 1]];
        const double* C = &r.xz[2 * r.tris[3 * t + 2]];
        const double a2 = orient2d(A[0], A[1], B[0], B[1], C[0], C[1]);
        CHECK(a2 > 0);
        area += 0.5 * a2;
        const double cen[2] = {(A[0] + B[0] + C[0]) / 3, (A[1] + B[1] + C[1]) / 3};
        CHECK(winding(free, cen[0], cen[1]) > 0);
        for (size_t v = 0; v < in.xz.size() / 2; ++v) {
            const double* P = &in.xz[2 * v];
            if (incircle(A[0], A[1], B[0], B[1], C[0], C[1], P[0], P[1]) <= 1e-9 * a2 * a2) continue;
            // inside the circumcircle: must be hidden from the triangle by a constraint
            bool hidden = false;
            for (size_t k = 0; k + 1 < in.constraints.size() && !hidden; k += 2)
                hidden = proper_cross(P, cen, &in.xz[2 * in.constraints[k]], &in.xz[2 * in.constraints[k + 1]]);
            CHECK_MESSAGE(hidden, "point " << v << " inside the circumcircle of triangle " << t);
        }
    }
    CHECK(area == doctest::Approx(rings_area(free)).epsilon(1e-9));
}

Rings star(std::mt19937& rng, double cx, double cz, double r0, double r1, int n, bool integer) {
    std::uniform_real_distribution<double> ang(0, 6.283185307179586), rad(r0, r1);
    std::vector<double> a(static_cast<size_t>(n));
    for (auto& x : a) x = ang(rng);
    std::sort(a.begin(), a.end());
    std::vector<double> p;
    for (double x : a) {
        const double r = rad(rng);
        double px = cx + r * std::cos(x), pz = cz + r * std::sin(x);
        if (integer) px = std::round(px), pz = std::round(pz);
        p.push_back(px);
        p.push_back(pz);
    }
    Rings out;
    out.add(p.data(), static_cast<size_t>(n));
    return out;
}

Rings random_free(std::mt19937& rng, int nobs, bool integer) {
    const Rings outline = star(rng, 50, 50, 35, 50, 16, integer);
    Rings obs;
    std::uniform_real_distribution<double> c(20, 80);
    for (int k = 0; k < nobs; ++k) obs.append(star(rng, c(rng), c(rng), 2, 9, 3 + k % 5, integer));
    Rings blocked, free;
    REQUIRE(clip_polygons(obs, Rings{}, ClipOp::Union, FillRule::NonZero, blocked));
    REQUIRE(clip_polygons(outline, blocked, ClipOp::Difference, FillRule::NonZero, free));
    return free;
}

}  // namespace

TEST_CASE("diff cgal: CDT of random maps in general position, same triangles as CGAL") {
    std::mt19937 rng(2024);
    int maps = 0;
    size_t tris = 0;
    for (int iter = 0; iter < 150; ++iter) {
        const Rings free = random_free(rng, 1 + iter % 12, false);
        if (free.count() == 0) continue;
        const CdtInput in = cdt_input_from_rings(free);
        CdtResult ours;
        REQUIRE(cdt_build(in, ours));
        const std::vector<TriKey> a = our_keys(ours), b = cgal_triangles(in);
        INFO("map " << iter << ": " << a.size() << " triangles, CGAL " << b.size());
        CHECK(a == b);
        if (iter < 60) check_cdt_properties(in, ours, free);
        ++maps;
        tris += a.size();
    }
    MESSAGE(maps << " maps in general position, " << tris << " triangles, all equal to CGAL's");
}

TEST_CASE("diff cgal: CDT of grid maps (cocircular points), properties and triangle count") {
    std::mt19937 rng(77);
    for (int iter = 0; iter < 80; ++iter) {
        const Rings free = random_free(rng, 1 + iter % 10, true);
        if (free.count() == 0) continue;
        const CdtInput in = cdt_input_from_rings(free);
        CdtResult ours;
        const nav::Status st = cdt_build(in, ours);
        INFO("grid map " << iter << ": " << st.message);
        REQUIRE(st);
        check_cdt_properties(in, ours, free);
        CHECK(our_keys(ours).size() == cgal_triangles(in).size());
    }
}
