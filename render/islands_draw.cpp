#include "render/islands_draw.h"

#include "render/layers.h"

namespace nav::render {

uint32_t island_color(uint32_t island) { return hash_color(island + 1); }

void build_islands_layer(const NavMesh&, DrawList& out, DrawList& edges) {
    out.clear();
    edges.clear();
}

}  // namespace nav::render
