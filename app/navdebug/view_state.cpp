#include "view_state.h"

#include <algorithm>
#include <cmath>

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
    c.floor_tint = floor_tint_on();
    c.tint_band = see.floor_height;
    c.tint_origin = tint_origin(mesh);
    return c;
}

bool ViewState::walkable_bounds(const nav::InputMesh& mesh, const std::vector<uint8_t>* tri_areas, glm::vec3& bmin,
                                glm::vec3& bmax) {
    const int nt = mesh.tri_count();
    const bool by_area = tri_areas && tri_areas->size() == static_cast<size_t>(nt);
    glm::vec3 lo(1e30f), hi(-1e30f);
    bool any = false;
    for (int t = 0; t < nt; ++t) {
        const float* v[3];
        for (int k = 0; k < 3; ++k) v[k] = &mesh.verts[static_cast<size_t>(mesh.tris[static_cast<size_t>(t) * 3 + k]) * 3];
        if (by_area) {
            if ((*tri_areas)[static_cast<size_t>(t)] == nav::kNullArea) continue;
        } else {
            const glm::vec3 a(v[0][0], v[0][1], v[0][2]), b(v[1][0], v[1][1], v[1][2]), c(v[2][0], v[2][1], v[2][2]);
            const glm::vec3 n = glm::cross(b - a, c - a);
            const float len = glm::length(n);
            if (len <= 0.0f || std::fabs(n.y) / len < 0.7071f) continue;
        }
        for (int k = 0; k < 3; ++k) {
            lo = glm::min(lo, glm::vec3(v[k][0], v[k][1], v[k][2]));
            hi = glm::max(hi, glm::vec3(v[k][0], v[k][1], v[k][2]));
        }
        any = true;
    }
    if (!any) return false;
    bmin = lo;
    bmax = hi + glm::vec3(0.0f, 2.0f, 0.0f);  // an agent standing on the highest floor
    return true;
}

float ViewState::tint_origin(const nav::InputMesh* mesh) {
    // band 0 starts a little under the lowest point, so the lowest floor is band 0 whatever rounding
    return mesh ? mesh->bmin[1] - 0.25f : 0.0f;
}

void ViewState::update_floors(const nav::NavMesh* navmesh, const nav::InputMesh* mesh) {
    const float origin = tint_origin(mesh), band = std::max(see.floor_height, 0.01f);
    if (navmesh == floors.navmesh && origin == floors.origin && band == floors.band) return;
    floors = Floors{navmesh, origin, band, {}, false};
    if (!navmesh || navmesh->npolys <= 0) return;
    const nav::NavMesh& m = *navmesh;
    // a coarse xz grid over the navmesh: each polygon marks its band (of its middle height) in the
    // cells its bounds cover; a cell with two bands lies under two floors
    float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
    const auto np = static_cast<size_t>(m.npolys);
    for (size_t p = 0; p < np; ++p) {
        const float* b = &m.poly_bounds[p * 6];
        lo[0] = std::min(lo[0], b[0]), lo[1] = std::min(lo[1], b[2]);
        hi[0] = std::max(hi[0], b[3]), hi[1] = std::max(hi[1], b[5]);
    }
    constexpr int kGrid = 64;
    const float sx = std::max(hi[0] - lo[0], 1e-3f) / kGrid, sz = std::max(hi[1] - lo[1], 1e-3f) / kGrid;
    std::vector<uint64_t> cells(kGrid * kGrid, 0);  // bit k: band k (bands past 63 share bit 63)
    std::vector<int> bands;
    for (size_t p = 0; p < np; ++p) {
        const float* b = &m.poly_bounds[p * 6];
        const int k = std::max(0, static_cast<int>(std::floor(((b[1] + b[4]) * 0.5f - origin) / band)));
        bands.push_back(k);
        const uint64_t bit = uint64_t(1) << std::min(k, 63);
        auto cell = [](float v, float l, float s) { return std::clamp(static_cast<int>((v - l) / s), 0, kGrid - 1); };
        // the middle half of its bounds: neighbours on a slope (a hillside crossing a band) touch
        // at their edges and must not count as two floors
        const float qx = (b[3] - b[0]) * 0.25f, qz = (b[5] - b[2]) * 0.25f;
        const int x0 = cell(b[0] + qx, lo[0], sx), x1 = cell(b[3] - qx, lo[0], sx);
        const int z0 = cell(b[2] + qz, lo[1], sz), z1 = cell(b[5] - qz, lo[1], sz);
        for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x) cells[static_cast<size_t>(z * kGrid + x)] |= bit;
    }
    std::sort(bands.begin(), bands.end());
    bands.erase(std::unique(bands.begin(), bands.end()), bands.end());
    floors.bands = std::move(bands);
    size_t used = 0, stacked = 0;
    for (uint64_t c : cells) {
        used += c != 0;
        stacked += (c & (c - 1)) != 0;  // two bits or more
    }
    floors.several = floors.bands.size() > 1 && stacked * 10 >= used;
}

}  // namespace navdebug
