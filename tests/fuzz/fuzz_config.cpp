// The JSON config reader (navbake --config, the debugger's config files and the "config" part of
// its sessions) on arbitrary text: any input is a Status, and accepted values are in range.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "core/pipeline/params.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/navmesh.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    nav::BakeInputs in;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (!nav::parse_config_json(text, "fuzz.json", in)) return 0;
    const nav::Params& p = in.params;
    // Accepted links pass the runtime's own check (Pipeline::set_inputs / build_navmesh take them).
    for (size_t i = 0; i < in.links.size(); ++i)
        if (!nav::check_offmesh_link(in.links[i], "links")) std::abort();
    for (const nav::ParamDef& d : nav::param_table()) {
        const double v = p.get(d.id);
        if (!(v >= d.min && v <= d.max)) std::abort();
    }
    // The accepted parameters must convert to voxel units without overflow (UBSan watches).
    const float bmin[3] = {0, 0, 0}, bmax[3] = {10, 10, 10};
    const nav::BakeConfig c = nav::derive_config(p, bmin, bmax);
    (void)nav::check_grid(c, p);
    return 0;
}
