#include "view_state.h"

#include <algorithm>

namespace navdebug {

nav::render::PickVisibility ViewState::pick_visibility(const nav::render::LayerMask& layers) const {
    nav::render::PickVisibility v;
    const bool input_shown = layers[static_cast<size_t>(nav::render::Layer::Input)];
    v.cull_back = see.cull && input_shown;
    v.hide_ceilings = see.hide_ceilings && input_shown;
    if (see.clip) {
        v.clip = true;
        v.clip_min = std::min(see.clip->first, see.clip->second);
        v.clip_max = std::max(see.clip->first, see.clip->second);
    }
    if (see.section) {
        v.section = true;
        for (int i = 0; i < 3; ++i) {
            v.point[i] = see.section->first[i];
            v.normal[i] = see.section->second[i];
        }
    }
    return v;
}

nav::render::ViewCut ViewState::view_cut(const nav::InputMesh* mesh) const {
    nav::render::ViewCut c;
    if (see.clip) {
        c.clip = true;
        c.clip_min = see.clip->first;
        c.clip_max = see.clip->second;
    }
    if (see.section) {
        c.section = true;
        for (int i = 0; i < 3; ++i) {
            c.point[i] = see.section->first[i];
            c.normal[i] = see.section->second[i];
        }
    }
    c.floor_tint = see.floor_tint;
    c.tint_band = see.floor_height;
    // band 0 starts a little under the lowest point, so the lowest floor is band 0 whatever rounding
    c.tint_origin = mesh ? mesh->bmin[1] - 0.25f : 0.0f;
    return c;
}

}  // namespace navdebug
