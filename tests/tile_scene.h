// The tiled-bake tests' shared scene and their byte-for-byte comparison of two tiled bakes.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "test_scenes.h"

namespace navtest {

// A 40 x 30 m floor with a few boxes and a raised platform: enough for several tiles of 32 cells.
inline nav::InputMesh tile_scene() {
    nav::InputMesh m;
    add_floor(m, 0, 0, 40, 30, 0);
    add_box(m, 5, 0, 5, 8, 3, 9);
    add_box(m, 20, 0, 12, 23, 3, 14);
    add_box(m, 30, 0, 20, 36, 0.4f, 26);
    add_box(m, 12, 0, 22, 13, 2.5f, 29);
    return m;
}

// Every byte of every tile's polygon and detail mesh, in tile order.
inline std::vector<uint8_t> tile_mesh_bytes(const nav::Bake& b) {
    std::vector<uint8_t> out;
    auto put = [&out](const auto& v) {
        const auto* p = reinterpret_cast<const uint8_t*>(v.data());
        out.insert(out.end(), p, p + v.size() * sizeof(v[0]));
    };
    for (const auto& t : b.tiles) {
        REQUIRE(t);
        REQUIRE(t->polymesh);
        REQUIRE(t->detail);
        put(t->polymesh->verts);
        put(t->polymesh->polys);
        put(t->polymesh->regs);
        put(t->polymesh->areas);
        put(t->detail->meshes);
        put(t->detail->verts);
        put(t->detail->tris);
    }
    return out;
}

}  // namespace navtest
