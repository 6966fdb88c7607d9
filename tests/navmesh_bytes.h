// Every array of an assembled navmesh a query reads, as bytes: for tests that a rebuild gives back
// a navmesh byte for byte (obstacles added then removed, the obstacle cache against a fresh bake).
#pragma once
#include <cstdint>
#include <vector>

#include "core/runtime/navmesh.h"

namespace navtest {

inline std::vector<uint8_t> navmesh_bytes(const nav::NavMesh& n) {
    std::vector<uint8_t> out;
    auto put = [&out](const auto& v) {
        const auto* p = reinterpret_cast<const uint8_t*>(v.data());
        out.insert(out.end(), p, p + v.size() * sizeof(v[0]));
    };
    put(n.verts), put(n.poly_first), put(n.edge_vert), put(n.edge_nei), put(n.areas), put(n.flags);
    put(n.dtri_first), put(n.dtris), put(n.poly_island), put(n.landmarks()->dist);
    return out;
}

}  // namespace navtest
