// NavMesh::poly_height through the per-polygon detail grid (polygons with many detail triangles)
// answers exactly what a scan of the polygon's triangles in order answers: the same triangle (the
// first containing the point), so the same height, and the same verdict outside.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/pipeline/pipeline.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "test_scenes.h"

namespace {

// The scan poly_height did before the grid (same tolerance, same order).
bool scan_height(const nav::NavMesh& m, uint32_t p, float x, float z, float* y) {
    constexpr float eps = 1e-4f;
    for (uint32_t t = m.dtri_first[p]; t < m.dtri_first[p + 1]; ++t) {
        const float* f = &m.dtri_fast[static_cast<size_t>(t) * 9];
        const float px = x - f[0], pz = z - f[1];
        const float u = f[3] * px + f[4] * pz;
        const float v = f[5] * px + f[6] * pz;
        if (u >= -eps && v >= -eps && u + v <= 1 + eps) {
            *y = f[2] + u * f[7] + v * f[8];
            return true;
        }
    }
    return false;
}

}  // namespace

TEST_CASE("detail grid: poly_height through the grid equals the scan of every triangle") {
    const std::string path = navtest::shared_mesh_or_skip("undulating.obj");
    if (path.empty()) return;
    nav::Pipeline pipe;
    REQUIRE(pipe.load_mesh(path));
    REQUIRE(pipe.run());
    const auto bake = pipe.snapshot();
    REQUIRE(bake->navmesh);
    const nav::NavMesh& m = *bake->navmesh;
    REQUIRE(m.poly_dgrid.size() == static_cast<size_t>(m.npolys));
    REQUIRE(!m.dgrids.empty());  // undulating has polygons of hundreds of detail triangles
    nav::Rng rng(42);
    int checked = 0, inside = 0;
    for (uint32_t p = 0; p < static_cast<uint32_t>(m.npolys); ++p) {
        if (m.poly_dgrid[p] == nav::kNoPoly) {
            CHECK(m.dtri_first[p + 1] - m.dtri_first[p] < nav::NavMesh::kGridMinTris);
            continue;
        }
        const float* b = &m.poly_bounds[static_cast<size_t>(p) * 6];
        for (int i = 0; i < 400; ++i) {
            // Points over the polygon's bounds and a little beyond; some exactly on triangle
            // vertices and edge midpoints (where neighbouring triangles meet).
            float x = b[0] - 0.5f + (b[3] - b[0] + 1.0f) * rng.next_float();
            float z = b[2] - 0.5f + (b[5] - b[2] + 1.0f) * rng.next_float();
            if (i % 4 == 0) {
                const uint32_t t0 = m.dtri_first[p], n = m.dtri_first[p + 1] - t0;
                const float* v = &m.dtris[static_cast<size_t>(t0 + rng.next_u64() % n) * 9];
                const int a = static_cast<int>(rng.next_u64() % 3), c = (a + 1) % 3;
                x = i % 8 == 0 ? v[a * 3] : 0.5f * (v[a * 3] + v[c * 3]);
                z = i % 8 == 0 ? v[a * 3 + 2] : 0.5f * (v[a * 3 + 2] + v[c * 3 + 2]);
            }
            float y0 = std::numeric_limits<float>::quiet_NaN(), y1 = y0;
            const bool a0 = scan_height(m, p, x, z, &y0);
            const bool a1 = m.poly_height(p, x, z, &y1);
            REQUIRE(a0 == a1);
            if (a0) {
                CHECK(std::memcmp(&y0, &y1, sizeof y0) == 0);  // the same triangle: bit for bit
                ++inside;
            }
            ++checked;
        }
    }
    MESSAGE(checked << " points over " << m.dgrids.size() << " gridded polygons, " << inside << " inside a triangle");
    CHECK(inside > checked / 2);
}
