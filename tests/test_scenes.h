// Small scene builders for tests: axis-aligned boxes and quads appended to an InputMesh.
#pragma once
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/bake/input.h"
#include "skip.h"

namespace navtest {

// Appends a horizontal quad at height y covering [x0,x1] x [z0,z1], wound so its normal is +y.
inline void add_floor(nav::InputMesh& m, float x0, float z0, float x1, float z1, float y) {
    const int b = m.vert_count();
    const float v[] = {x0, y, z0, x0, y, z1, x1, y, z1, x1, y, z0};
    m.verts.insert(m.verts.end(), v, v + 12);
    const int t[] = {b, b + 1, b + 2, b, b + 2, b + 3};
    m.tris.insert(m.tris.end(), t, t + 6);
}

// Appends a closed box [x0,x1] x [y0,y1] x [z0,z1] with outward normals.
inline void add_box(nav::InputMesh& m, float x0, float y0, float z0, float x1, float y1, float z1) {
    const int b = m.vert_count();
    const float v[] = {x0, y0, z0, x1, y0, z0, x1, y0, z1, x0, y0, z1,
                       x0, y1, z0, x1, y1, z0, x1, y1, z1, x0, y1, z1};
    m.verts.insert(m.verts.end(), v, v + 24);
    const int t[] = {0, 1, 2, 0, 2, 3,   // bottom (-y)
                     4, 7, 6, 4, 6, 5,   // top (+y)
                     0, 4, 5, 0, 5, 1,   // -z
                     3, 2, 6, 3, 6, 7,   // +z
                     0, 3, 7, 0, 7, 4,   // -x
                     1, 5, 6, 1, 6, 2};  // +x
    for (int i : t) m.tris.push_back(b + i);
}

// Path of a shared benchmark mesh (../shared/meshes/NAME), or "" when the folder is absent.
// In CI (env CI set) the folder must exist; callers FAIL rather than skip there.
inline std::string shared_mesh(const char* name) {
#ifdef NAV_SHARED_MESHES
    const std::filesystem::path p = std::filesystem::path(NAV_SHARED_MESHES) / name;
    if (std::filesystem::exists(p)) return p.string();
#endif
    (void)name;
    return {};
}
inline bool in_ci() { return std::getenv("CI") != nullptr; }

// The project's rule for the shared meshes, in one place: the path when present; otherwise a
// MESSAGE that the check is skipped and "", except in CI, where a missing mesh FAILs the test.
inline std::string shared_mesh_or_skip(const std::string& name) {
    std::string path = shared_mesh(name.c_str());
    if (path.empty()) {
        if (in_ci()) FAIL("shared mesh " << name << " not found under ../shared/meshes (required in CI)");
        MESSAGE("shared mesh " << name << " not found under ../shared/meshes: skipped");
        note_skip("../shared/meshes not found");
    }
    return path;
}

}  // namespace navtest
