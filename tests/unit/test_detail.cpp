// Stage 10: the detail (height) mesh, on hand-made compact heightfields and polygons, and as
// properties on the shared benchmark meshes (through our own stages).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/bake/contours.h"
#include "core/bake/detail.h"
#include "core/pipeline/pipeline.h"
#include "core/bake/polymesh.h"
#include "test_scenes.h"

namespace {

constexpr float kCs = 0.3f, kCh = 0.2f;
constexpr float kSampleDist = kCs * 6;      // the pipeline's default detail_sample_dist 6
constexpr float kSampleMaxError = kCh * 1;  // and detail_sample_max_error 1

// A one-layer compact heightfield: floor(x, z) gives the span height in cells (< 0: no span);
// region(x, z) its region id. Neighbouring spans are linked when their floors differ by at most
// `climb` cells.
struct Field {
    nav::CompactHeightfield chf;
    nav::Regions regions;
};

Field make_field(int w, int h, const std::function<int(int, int)>& floor, const std::function<uint16_t(int, int)>& region,
                 int climb = 1000) {
    Field f;
    nav::CompactHeightfield& chf = f.chf;
    chf.width = w;
    chf.height = h;
    chf.cs = kCs;
    chf.ch = kCh;
    chf.walkable_height = 10;
    chf.walkable_climb = climb;
    chf.cells.resize(static_cast<size_t>(w * h));
    for (int z = 0; z < h; ++z)
        for (int x = 0; x < w; ++x) {
            nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * w)];
            c.index = static_cast<uint32_t>(chf.spans.size());
            const int y = floor(x, z);
            if (y < 0) continue;
            nav::CompactSpan s;
            s.y = static_cast<uint16_t>(y);
            s.h = 255;
            s.con = 0xffffff;
            chf.spans.push_back(s);
            chf.areas.push_back(nav::kWalkableArea);
            f.regions.reg.push_back(region(x, z));
            c.count = 1;
        }
    for (int z = 0; z < h; ++z)
        for (int x = 0; x < w; ++x) {
            const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * w)];
            if (!c.count) continue;
            nav::CompactSpan& s = chf.spans[c.index];
            for (int dir = 0; dir < 4; ++dir) {
                const int nx = x + nav::dir_offset_x(dir), nz = z + nav::dir_offset_z(dir);
                if (nx < 0 || nz < 0 || nx >= w || nz >= h) continue;
                const nav::CompactCell& nc = chf.cells[static_cast<size_t>(nx + nz * w)];
                if (!nc.count) continue;
                if (std::abs(static_cast<int>(chf.spans[nc.index].y) - static_cast<int>(s.y)) <= climb) nav::set_con(s, dir, 0);
            }
        }
    chf.span_count = static_cast<uint32_t>(chf.spans.size());
    chf.bmax[0] = static_cast<float>(w) * kCs;
    chf.bmax[1] = 100.0f;
    chf.bmax[2] = static_cast<float>(h) * kCs;
    uint16_t maxr = 0;
    for (uint16_t r : f.regions.reg) maxr = std::max<uint16_t>(maxr, static_cast<uint16_t>(r + 1));
    f.regions.max_region_id = maxr;
    f.regions.region_count = maxr > 1 ? maxr - 1 : 0;
    return f;
}

// A polygon mesh of polygons given as (x, y, z) voxel corners, in Recast's winding (clockwise
// seen from above, i.e. negative signed area in x-z).
struct PolyIn {
    std::vector<int> xyz;
    uint16_t reg = 1;
};

nav::PolyMesh make_mesh(const std::vector<PolyIn>& polys, int nvp = 6) {
    nav::PolyMesh m;
    m.nvp = nvp;
    m.cs = kCs;
    m.ch = kCh;
    m.max_edge_error = 1.3f;
    for (const PolyIn& p : polys) {
        const size_t base = m.polys.size();
        m.polys.resize(base + static_cast<size_t>(2 * nvp), nav::kMeshNullIdx);
        for (size_t k = 0; k < p.xyz.size() / 3; ++k) {
            m.polys[base + k] = static_cast<uint16_t>(m.verts.size() / 3);
            for (int c = 0; c < 3; ++c) m.verts.push_back(static_cast<uint16_t>(p.xyz[k * 3 + static_cast<size_t>(c)]));
        }
        m.regs.push_back(p.reg);
        m.areas.push_back(nav::kWalkableArea);
        m.flags.push_back(0);
    }
    m.nverts = static_cast<int>(m.verts.size() / 3);
    m.npolys = static_cast<int>(polys.size());
    return m;
}

// The corners (x0,z0)-(x1,z1) of a rectangle in Recast's winding, all at height y.
std::vector<int> rect(int x0, int z0, int x1, int z1, int y) { return {x0, y, z0, x0, y, z1, x1, y, z1, x1, y, z0}; }

int poly_vert_count(const nav::PolyMesh& m, int i) {
    const uint16_t* p = m.poly(i);
    int n = 0;
    while (n < m.nvp && p[n] != nav::kMeshNullIdx) ++n;
    return n;
}

const float* dverts(const nav::PolyMeshDetail& d, int poly) { return &d.verts[d.meshes[static_cast<size_t>(poly) * 4] * 3u]; }
const uint8_t* dtris(const nav::PolyMeshDetail& d, int poly) { return &d.tris[d.meshes[static_cast<size_t>(poly) * 4 + 2] * 4u]; }
int dnverts(const nav::PolyMeshDetail& d, int poly) { return static_cast<int>(d.meshes[static_cast<size_t>(poly) * 4 + 1]); }
int dntris(const nav::PolyMeshDetail& d, int poly) { return static_cast<int>(d.meshes[static_cast<size_t>(poly) * 4 + 3]); }

double tri_area2(const float* a, const float* b, const float* c, const float* origin) {
    const double ax = double(a[0]) - origin[0], az = double(a[2]) - origin[2];
    const double bx = double(b[0]) - origin[0], bz = double(b[2]) - origin[2];
    const double cx = double(c[0]) - origin[0], cz = double(c[2]) - origin[2];
    return (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
}

// |signed xz area| of polygon i of the mesh, in world units squared.
double poly_area(const nav::PolyMesh& m, int i) {
    const uint16_t* p = m.poly(i);
    const int n = poly_vert_count(m, i);
    double a2 = 0;
    for (int k = 0, j = n - 1; k < n; j = k++) {
        const uint16_t* vj = &m.verts[p[j] * 3u];
        const uint16_t* vk = &m.verts[p[k] * 3u];
        a2 += double(vj[0]) * vk[2] - double(vk[0]) * vj[2];
    }
    return std::fabs(a2) * 0.5 * double(m.cs) * double(m.cs);
}

// Sum of the |xz areas| of the detail triangles of polygon i.
double detail_area(const nav::PolyMeshDetail& d, int i, const float* origin) {
    const float* v = dverts(d, i);
    const uint8_t* t = dtris(d, i);
    double sum = 0;
    for (int k = 0; k < dntris(d, i); ++k)
        sum += std::fabs(tri_area2(&v[t[k * 4] * 3], &v[t[k * 4 + 1] * 3], &v[t[k * 4 + 2] * 3], origin));
    return sum * 0.5;
}

// Height of the detail surface of polygon i at world (x, z); false when no triangle is there.
bool detail_height(const nav::PolyMeshDetail& d, int i, float x, float z, float& y) {
    const float* v = dverts(d, i);
    const uint8_t* t = dtris(d, i);
    for (int k = 0; k < dntris(d, i); ++k) {
        const float* a = &v[t[k * 4] * 3];
        const float* b = &v[t[k * 4 + 1] * 3];
        const float* c = &v[t[k * 4 + 2] * 3];
        const double den = (double(b[0]) - a[0]) * (double(c[2]) - a[2]) - (double(b[2]) - a[2]) * (double(c[0]) - a[0]);
        if (std::fabs(den) < 1e-9) continue;
        const double u = ((double(x) - a[0]) * (double(c[2]) - a[2]) - (double(z) - a[2]) * (double(c[0]) - a[0])) / den;
        const double w = ((double(b[0]) - a[0]) * (double(z) - a[2]) - (double(b[2]) - a[2]) * (double(x) - a[0])) / den;
        if (u >= -1e-5 && w >= -1e-5 && u + w <= 1 + 1e-5) {
            y = static_cast<float>(a[1] + u * (double(b[1]) - a[1]) + w * (double(c[1]) - a[1]));
            return true;
        }
    }
    return false;
}

// Structural checks every detail mesh must pass: one sub-mesh per polygon, the polygon's vertices
// first, indices in range, at most 127 vertices, edge flags only on edges along the polygon's
// boundary, and triangles covering the polygon exactly (sum of |xz areas| = polygon area).
void check_detail(const nav::PolyMesh& m, const nav::PolyMeshDetail& d, double area_rel_tol = 1e-3) {
    REQUIRE(d.nmeshes == m.npolys);
    REQUIRE(d.meshes.size() == static_cast<size_t>(m.npolys) * 4);
    REQUIRE(d.verts.size() == static_cast<size_t>(d.nverts) * 3);
    REQUIRE(d.tris.size() == static_cast<size_t>(d.ntris) * 4);
    // Float rounding of world coordinates (the shared meshes sit thousands of units from 0).
    float mag = 0;
    for (float c : d.verts) mag = std::max(mag, std::fabs(c));
    const double coord_eps = double(mag) * 1.2e-7;
    uint32_t next_v = 0, next_t = 0;
    for (int i = 0; i < m.npolys; ++i) {
        CAPTURE(i);
        const uint32_t* sm = &d.meshes[static_cast<size_t>(i) * 4];
        CHECK(sm[0] == next_v);
        CHECK(sm[2] == next_t);
        next_v += sm[1];
        next_t += sm[3];
        const int n = poly_vert_count(m, i);
        const int nv = dnverts(d, i);
        REQUIRE(nv >= n);
        CHECK(nv <= 127);
        const float* v = dverts(d, i);
        const uint16_t* p = m.poly(i);
        for (int k = 0; k < n; ++k) {
            const uint16_t* pv = &m.verts[p[k] * 3u];
            CHECK(v[k * 3 + 0] == doctest::Approx(m.bmin[0] + pv[0] * m.cs).epsilon(1e-6));
            CHECK(v[k * 3 + 1] == doctest::Approx(m.bmin[1] + pv[1] * m.ch).epsilon(1e-6));
            CHECK(v[k * 3 + 2] == doctest::Approx(m.bmin[2] + pv[2] * m.cs).epsilon(1e-6));
        }
        if (n < 3) continue;
        CHECK(dntris(d, i) >= nv - 2);
        const uint8_t* t = dtris(d, i);
        double perimeter = 0;
        for (int k = 0, j = n - 1; k < n; j = k++) {
            const double dx = (double(v[k * 3]) - v[j * 3]), dz = (double(v[k * 3 + 2]) - v[j * 3 + 2]);
            perimeter += std::sqrt(dx * dx + dz * dz);
        }
        auto on_boundary = [&](const float* a) {
            for (int k = 0, j = n - 1; k < n; j = k++) {
                const float* pj = &v[j * 3];
                const float* pk = &v[k * 3];
                const double ex = double(pk[0]) - pj[0], ez = double(pk[2]) - pj[2];
                const double len = std::sqrt(ex * ex + ez * ez);
                const double dist = std::fabs(ex * (double(a[2]) - pj[2]) - ez * (double(a[0]) - pj[0])) / len;
                if (dist < 1e-3 + 4 * coord_eps) return true;
            }
            return false;
        };
        for (int k = 0; k < dntris(d, i); ++k) {
            const uint8_t* tr = &t[k * 4];
            for (int e = 0; e < 3; ++e) {
                REQUIRE(tr[e] < nv);
                if ((tr[3] >> (e * 2)) & 3) {
                    CHECK(on_boundary(&v[tr[e] * 3]));
                    CHECK(on_boundary(&v[tr[(e + 1) % 3] * 3]));
                }
            }
        }
        const double pa = poly_area(m, i);
        const double da = detail_area(d, i, m.bmin);
        CHECK(std::fabs(da - pa) <= area_rel_tol * pa + 4 * perimeter * coord_eps);
    }
    CHECK(next_v == static_cast<uint32_t>(d.nverts));
    CHECK(next_t == static_cast<uint32_t>(d.ntris));
}

}  // namespace

TEST_CASE("detail: flat square polygon on a flat floor gives two triangles at the floor height") {
    const int floor_y = 7;
    Field f = make_field(14, 14, [&](int, int) { return floor_y; }, [](int, int) { return uint16_t{1}; });
    for (float bmin_y : {0.0f, -3.5f}) {
        CAPTURE(bmin_y);
        nav::PolyMesh m = make_mesh({{rect(1, 1, 13, 13, floor_y)}});
        m.bmin[1] = bmin_y;
        f.chf.bmin[1] = bmin_y;
        for (float sd : {kSampleDist, 0.0f}) {
            CAPTURE(sd);
            nav::PolyMeshDetail d;
            REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, sd, kSampleMaxError, d).is_ok());
            check_detail(m, d);
            CHECK(d.nmeshes == 1);
            CHECK(d.nverts == 4);
            CHECK(d.ntris == 2);
            for (int k = 0; k < d.nverts; ++k) CHECK(d.verts[static_cast<size_t>(k) * 3 + 1] == doctest::Approx(bmin_y + floor_y * kCh));
            // Each triangle of a split square has two edges on the square's boundary.
            for (int k = 0; k < d.ntris; ++k) {
                const uint8_t fl = d.tris[static_cast<size_t>(k) * 4 + 3];
                CHECK(((fl & 3) + ((fl >> 2) & 3) + ((fl >> 4) & 3)) == 2);
            }
            // Same winding as the polygon.
            for (int k = 0; k < d.ntris; ++k) {
                const uint8_t* t = &d.tris[static_cast<size_t>(k) * 4];
                CHECK(tri_area2(&d.verts[t[0] * 3u], &d.verts[t[1] * 3u], &d.verts[t[2] * 3u], m.bmin) < 0);
            }
        }
    }
}

TEST_CASE("detail: polygon over a ramp stays within sample_max_error + ch of the surface") {
    // True surface y = slope * x (world); the floor of a cell is its highest point rounded up to a
    // whole cell height, as rasterization makes it; a polygon corner takes the highest floor of
    // the cells around it, as contours do.
    for (float slope : {0.25f, 0.5f}) {
        CAPTURE(slope);
        auto cell_floor = [&](int x, int) { return static_cast<int>(std::ceil(slope * static_cast<float>(x + 1) * kCs / kCh - 1e-4f)); };
        Field f = make_field(42, 42, cell_floor, [](int, int) { return uint16_t{1}; });
        const int x0 = 2, z0 = 3, x1 = 40, z1 = 37;
        auto corner = [&](int x, int z) { return std::vector<int>{x, cell_floor(x, z), z}; };
        std::vector<int> xyz;
        for (auto c : {corner(x0, z0), corner(x0, z1), corner(x1, z1), corner(x1, z0)}) xyz.insert(xyz.end(), c.begin(), c.end());
        const nav::PolyMesh m = make_mesh({{xyz}});
        nav::PolyMeshDetail d;
        REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, d).is_ok());
        check_detail(m, d);
        const float tol = kSampleMaxError + kCh;
        for (int k = 0; k < d.nverts; ++k) {
            const float* v = &d.verts[static_cast<size_t>(k) * 3];
            CHECK(std::fabs(v[1] - slope * v[0]) <= tol);
        }
        // And the surface between the vertices, at every cell centre inside the polygon.
        for (int z = z0; z < z1; ++z)
            for (int x = x0; x < x1; ++x) {
                const float wx = (static_cast<float>(x) + 0.5f) * kCs, wz = (static_cast<float>(z) + 0.5f) * kCs;
                float y = 0;
                REQUIRE(detail_height(d, 0, wx, wz, y));
                CHECK(std::fabs(y - slope * wx) <= tol);
            }
    }
}

TEST_CASE("detail: a bumpy surface gets more interior samples as sample_max_error decreases") {
    // Two hills and a dip, about 2 m high, under one 12 m x 12 m polygon.
    auto bump = [](int x, int z) {
        const float fx = static_cast<float>(x) * kCs, fz = static_cast<float>(z) * kCs;
        const float h = 1.0f + std::sin(fx * 0.7f) * std::cos(fz * 0.5f) + 0.4f * std::sin(fz * 1.3f + 0.5f);
        return static_cast<int>(std::lround(h / kCh)) + 5;
    };
    Field f = make_field(44, 44, bump, [](int, int) { return uint16_t{1}; });
    std::vector<int> xyz;
    for (int c : rect(2, 2, 42, 42, 0)) xyz.push_back(c);
    for (size_t k = 0; k < 4; ++k) xyz[k * 3 + 1] = bump(xyz[k * 3], xyz[k * 3 + 2]);
    const nav::PolyMesh m = make_mesh({{xyz}});
    int prev = 0, first = 0, last = 0;
    nav::PolyMeshDetail d;
    for (float err : {4.0f, 1.0f, 0.5f, 0.3f, 0.2f, 0.1f}) {
        CAPTURE(err);
        REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, err, d).is_ok());
        check_detail(m, d);
        // Interior vertices are those not on the polygon's boundary.
        int interior = 0, boundary = 0;
        for (int k = 0; k < d.nverts; ++k) {
            const float* v = &d.verts[static_cast<size_t>(k) * 3];
            const bool edge = std::fabs(v[0] - 2 * kCs) < 1e-4f || std::fabs(v[0] - 42 * kCs) < 1e-4f ||
                              std::fabs(v[2] - 2 * kCs) < 1e-4f || std::fabs(v[2] - 42 * kCs) < 1e-4f;
            interior += edge ? 0 : 1;
            boundary += edge ? 1 : 0;
        }
        CHECK(d.nverts >= prev);
        if (err == 4.0f) {
            first = d.nverts;
            CHECK(interior == 0);  // the whole bump is within 4 m of the corners' plane
        }
        if (err == 0.1f) {
            last = d.nverts;
            CHECK(interior > 10);
            CHECK(boundary > 4 + 8);  // the edges are sampled too
        }
        prev = d.nverts;
        // Every interior grid cell centre is within err of the surface (the sampling guarantee holds
        // at the samples; between them a cell of slope adds at most ~0.3 m here).
        for (int z = 8; z < 36; z += 3)
            for (int x = 8; x < 36; x += 3) {
                const float wx = (static_cast<float>(x) + 0.5f) * kCs, wz = (static_cast<float>(z) + 0.5f) * kCs;
                float y = 0;
                REQUIRE(detail_height(d, 0, wx, wz, y));
                CHECK(std::fabs(y - static_cast<float>(bump(x, z)) * kCh) <= err + 0.5f);
            }
    }
    CHECK(last > first + 20);
}

TEST_CASE("detail: no spikes where the polygon's region has no spans under it") {
    const int floor_y = 10;
    SUBCASE("spans of another region: seeded from the centre") {
        Field f = make_field(20, 20, [&](int, int) { return floor_y; }, [](int, int) { return uint16_t{2}; });
        const nav::PolyMesh m = make_mesh({{rect(2, 2, 18, 18, floor_y), 5}});
        nav::PolyMeshDetail d;
        REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, d).is_ok());
        check_detail(m, d);
        for (int k = 0; k < d.nverts; ++k) CHECK(d.verts[static_cast<size_t>(k) * 3 + 1] == doctest::Approx(floor_y * kCh));
    }
    SUBCASE("region 0 (a polygon merged from several regions): seeded from the centre") {
        // Two layers: the polygon's floor at 10 and, under part of it, nothing else; the seed
        // must start at the span nearest the polygon's vertex heights.
        Field f = make_field(20, 20, [&](int x, int) { return x < 10 ? floor_y : floor_y + 1; }, [](int x, int) { return uint16_t(x < 10 ? 1 : 2); });
        const nav::PolyMesh m = make_mesh({{rect(2, 2, 18, 18, floor_y), 0}});
        nav::PolyMeshDetail d;
        REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, d).is_ok());
        check_detail(m, d);
        for (int k = 0; k < d.nverts; ++k) {
            const float y = d.verts[static_cast<size_t>(k) * 3 + 1];
            CHECK(y >= floor_y * kCh - 1e-4f);
            CHECK(y <= (floor_y + 1) * kCh + 1e-4f);
        }
    }
    SUBCASE("a hole wider than the height search radius inside the polygon") {
        // The floor has no spans in a 14 x 14 hole; Recast would read its unset marker there
        // (65535 cells high). Interior samples without data are never added and edge samples keep
        // the height between the polygon's vertices.
        auto hole = [&](int x, int z) { return (x >= 3 && x < 17 && z >= 3 && z < 17) ? -1 : floor_y; };
        Field f = make_field(20, 20, hole, [](int, int) { return uint16_t{1}; });
        const nav::PolyMesh m = make_mesh({{rect(1, 1, 19, 19, floor_y)}});
        nav::PolyMeshDetail d;
        REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, d).is_ok());
        check_detail(m, d);
        for (int k = 0; k < d.nverts; ++k) CHECK(d.verts[static_cast<size_t>(k) * 3 + 1] == doctest::Approx(floor_y * kCh));
    }
    SUBCASE("no spans anywhere under the polygon: the polygon's own heights") {
        Field f = make_field(30, 30, [&](int x, int) { return x >= 20 ? floor_y : -1; }, [](int, int) { return uint16_t{1}; });
        std::vector<int> xyz = rect(1, 1, 12, 12, 0);
        const int ys[4] = {4, 9, 12, 6};  // a tilted polygon
        for (int k = 0; k < 4; ++k) xyz[static_cast<size_t>(k) * 3 + 1] = ys[k];
        const nav::PolyMesh m = make_mesh({{xyz}});
        nav::PolyMeshDetail d;
        REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, d).is_ok());
        check_detail(m, d);
        CHECK(d.nverts == 4);
        CHECK(d.ntris == 2);
        for (int k = 0; k < d.nverts; ++k) {
            const float y = d.verts[static_cast<size_t>(k) * 3 + 1];
            CHECK(y >= 4 * kCh - 1e-4f);
            CHECK(y <= 12 * kCh + 1e-4f);
        }
    }
}

TEST_CASE("detail: triangles cover triangles, hexagons and adjacent polygons") {
    auto bump = [](int x, int z) { return 20 + static_cast<int>(std::lround(6.0 * std::sin(x * 0.25) * std::sin(z * 0.2))); };
    Field f = make_field(60, 60, bump, [](int, int) { return uint16_t{1}; });
    auto p3 = [&](int x, int z) { return std::vector<int>{x, bump(x, z), z}; };
    auto join = [](std::initializer_list<std::vector<int>> l) {
        std::vector<int> r;
        for (const auto& v : l) r.insert(r.end(), v.begin(), v.end());
        return r;
    };
    // Clockwise seen from above (negative signed area), as Recast winds them.
    const nav::PolyMesh m = make_mesh({
        {join({p3(5, 5), p3(10, 40), p3(45, 20)})},                                      // a big triangle
        {join({p3(30, 40), p3(30, 55), p3(42, 58), p3(55, 50), p3(55, 42), p3(45, 36)})},  // a hexagon
        {join({p3(2, 45), p3(2, 58), p3(20, 58), p3(20, 45)})},                          // a rectangle
        {join({p3(20, 45), p3(20, 58), p3(28, 58)})},                                    // its thin neighbour
    });
    nav::PolyMeshDetail d;
    REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, d).is_ok());
    check_detail(m, d);
    CHECK(d.nverts > 4 * 6);  // the bumps need samples
    // The edge shared by polygons 2 and 3 is sampled identically from both sides.
    auto on_shared = [&](int poly) {
        std::vector<std::pair<float, float>> pts;
        const float* v = dverts(d, poly);
        for (int k = 0; k < dnverts(d, poly); ++k)
            if (std::fabs(v[k * 3] - 20 * kCs) < 1e-4f && v[k * 3 + 2] >= 45 * kCs - 1e-4f && v[k * 3 + 2] <= 58 * kCs + 1e-4f)
                pts.emplace_back(v[k * 3 + 2], v[k * 3 + 1]);
        std::sort(pts.begin(), pts.end());
        return pts;
    };
    const auto a = on_shared(2), b = on_shared(3);
    CHECK(a.size() > 2);  // the bumps add samples on the shared edge
    CHECK(a == b);
}

TEST_CASE("detail: deterministic, reuses its output buffers, honours cancel and rejects bad input") {
    auto bump = [](int x, int z) { return 20 + static_cast<int>(std::lround(5.0 * std::sin(x * 0.3) * std::cos(z * 0.25))); };
    Field f = make_field(40, 40, bump, [](int, int) { return uint16_t{1}; });
    std::vector<int> xyz = rect(1, 1, 39, 39, 0);
    for (size_t k = 0; k < 4; ++k) xyz[k * 3 + 1] = bump(xyz[k * 3], xyz[k * 3 + 2]);
    nav::PolyMesh m = make_mesh({{xyz}});
    nav::PolyMeshDetail a, b;
    REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, a).is_ok());
    REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, b).is_ok());
    CHECK(a.verts == b.verts);
    CHECK(a.tris == b.tris);
    CHECK(a.meshes == b.meshes);
    const float* vdata = a.verts.data();
    const uint8_t* tdata = a.tris.data();
    REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, a).is_ok());
    CHECK(a.verts.data() == vdata);
    CHECK(a.tris.data() == tdata);
    CHECK(a.verts == b.verts);

    // sample_dist below 0.9 cells means no sampling: the polygon's own vertices only.
    REQUIRE(nav::build_poly_mesh_detail(m, f.chf, f.regions, 0.5f * kCs, kSampleMaxError, a).is_ok());
    CHECK(a.nverts == 4);
    CHECK(a.ntris == 2);

    nav::CancelFlag cancel{true};
    CHECK(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, kSampleMaxError, a, &cancel).code ==
          nav::Status::Code::Cancelled);

    nav::PolyMesh bad = m;
    bad.nvp = 2;
    CHECK(nav::build_poly_mesh_detail(bad, f.chf, f.regions, kSampleDist, kSampleMaxError, a).code == nav::Status::Code::BadInput);
    CHECK(nav::build_poly_mesh_detail(m, f.chf, f.regions, kSampleDist, -1.0f, a).code == nav::Status::Code::BadInput);
    nav::Regions short_regions;
    CHECK_FALSE(nav::build_poly_mesh_detail(m, f.chf, short_regions, kSampleDist, kSampleMaxError, a).is_ok());

    // An empty polygon mesh gives an empty detail mesh.
    nav::PolyMesh empty;
    REQUIRE(nav::build_poly_mesh_detail(empty, f.chf, f.regions, kSampleDist, kSampleMaxError, a).is_ok());
    CHECK(a.nmeshes == 0);
    CHECK(a.nverts == 0);
    CHECK(a.ntris == 0);
}

TEST_CASE("detail: properties on the shared meshes (our stages end to end)") {
    for (const std::string name : {"dungeon.obj", "nav_test.obj", "undulating.obj"}) {
        CAPTURE(name);
        const std::string path = navtest::shared_mesh_or_skip(name);
        if (path.empty()) continue;
        nav::Pipeline pl;
        REQUIRE(pl.load_mesh(path).is_ok());
        for (const std::string part : {"watershed", "monotone", "layers"}) {
            CAPTURE(part);
            REQUIRE(pl.set_param("partition", part).is_ok());
            const nav::Status st = pl.run(nav::Stage::Regions);
            REQUIRE_MESSAGE(st.is_ok(), st.message);
            const auto bake = pl.snapshot();
            REQUIRE(bake->compact);
            REQUIRE(bake->areas);
            REQUIRE(bake->regions);
            const nav::CompactHeightfield& chf = *bake->compact;
            const float cs = bake->config.cs, ch = bake->config.ch;
            nav::ContourSet cset;
            REQUIRE(nav::build_contours(chf, *bake->areas, *bake->regions, 1.3f, static_cast<int>(std::lround(12.0f / cs)), nav::kTessWallEdges, cset).is_ok());
            nav::PolyMesh pm;
            REQUIRE(nav::build_poly_mesh(cset, 6, pm).is_ok());
            REQUIRE(pm.npolys > 10);
            nav::PolyMeshDetail d;
            REQUIRE(nav::build_poly_mesh_detail(pm, chf, *bake->regions, cs * 6, ch * 1, d).is_ok());
            INFO(name << " " << part << ": " << pm.npolys << " polygons, " << d.nverts << " detail vertices, " << d.ntris << " detail triangles");
            check_detail(pm, d);
            // No spikes: every detail height lies within the heightfield's floors.
            int ymax = 0, ymin = 0xffff;
            for (const nav::CompactSpan& s : chf.spans) {
                ymax = std::max<int>(ymax, s.y);
                ymin = std::min<int>(ymin, s.y);
            }
            for (int k = 0; k < d.nverts; ++k) {
                const float y = d.verts[static_cast<size_t>(k) * 3 + 1];
                CHECK(y >= chf.bmin[1] + static_cast<float>(ymin) * ch - 1e-3f);
                CHECK(y <= chf.bmin[1] + static_cast<float>(ymax) * ch + 1e-3f);
            }
            CHECK(d.nverts >= pm.nverts);
            CHECK(d.ntris >= pm.npolys);
        }
    }
}
