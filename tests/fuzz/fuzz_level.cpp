// The assimp level reader (core/formats/level_import.h) on arbitrary bytes: the first byte picks the
// format assimp is told to expect, the rest is the file. A mesh it accepts must be one every stage
// can read. The path names a directory that does not exist, so a .gltf's external buffers are never
// found (the fuzzer reads nothing but its input). Seeds: corpus/level/ (a 4 x 4 m floor in each
// format, the first byte its index below).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/formats/level_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static constexpr std::string_view kFormats[] = {"gltf", "glb", "fbx", "dae", "ply", "stl", "3ds"};
    if (size < 1) return 0;
    const std::string_view format = kFormats[data[0] % (sizeof kFormats / sizeof kFormats[0])];
    const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    nav::InputMesh m;
    if (!nav::parse_level(bytes, format, "/nonexistent/fuzz." + std::string(format), m, 1 << 20)) return 0;
    // Accepted: validated, indices in range, coordinates bounded, names for every triangle.
    if (!nav::validate_mesh(m, "fuzz")) std::abort();
    if (m.tri_mesh.size() != static_cast<size_t>(m.tri_count())) std::abort();
    for (int k = 0; k < 3; ++k)
        if (!(m.bmin[k] <= m.bmax[k]) || m.bmax[k] > nav::kMaxCoordinate || m.bmin[k] < -nav::kMaxCoordinate)
            std::abort();
    return 0;
}
