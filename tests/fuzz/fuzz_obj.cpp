// The OBJ reader on arbitrary text: a mesh it accepts must be one every stage can read.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/bake/input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    nav::InputMesh m;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (!nav::parse_obj(text, "fuzz.obj", m)) return 0;
    // Accepted: validated, indices in range, coordinates bounded, bounds inside the bound.
    if (!nav::validate_mesh(m, "fuzz")) std::abort();
    for (int k = 0; k < 3; ++k)
        if (!(m.bmin[k] <= m.bmax[k]) || m.bmax[k] > nav::kMaxCoordinate || m.bmin[k] < -nav::kMaxCoordinate)
            std::abort();
    return 0;
}
