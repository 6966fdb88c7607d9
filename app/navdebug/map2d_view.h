// The debugger's 2D mode: an orthographic top view (automatic for 2D maps, a toggle otherwise)
// and the layers of the 2D-map pipeline: the input polygons, the clipped free space
// (Weiler-Atherton), the triangulation, the merged polygons, and the Weiler-Atherton and CDT
// traces at a chosen step. Their --draw names are kMap2DLayerNames; the main layer set (navmesh,
// islands, path) keeps working on the scene's navmesh (map2d_scene.h).
#pragma once
#include <glm/glm.hpp>

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "camera.h"
#include "map2d_scene.h"
#include "render/draw_list.h"
#include "render/renderer.h"

namespace navdebug {

enum class Map2DLayer : int { Input, Clipped, Cdt, Merged, WaStep, CdtStep, Count };
constexpr int kMap2DLayerCount = static_cast<int>(Map2DLayer::Count);
constexpr std::array<std::string_view, kMap2DLayerCount> kMap2DLayerNames = {
    "map_input", "map_clipped", "map_cdt", "map_merged", "wa_step", "cdt_step"};
using Map2DLayerMask = std::array<bool, kMap2DLayerCount>;

// Takes the 2D layer names out of a --draw comma list into `out` (set to true) and leaves the
// rest in `list` for nav::render::parse_layer_list.
void take_map2d_layers(std::string& list, Map2DLayerMask& out);

class Map2DView {
public:
    void set_scene(std::shared_ptr<const Map2DScene> scene);
    void clear_scene();
    const std::shared_ptr<const Map2DScene>& scene() const { return scene_; }

    bool top_view() const { return top_view_; }
    void set_top_view(bool on) { top_view_ = on, framed_ = false; }
    void set_layers(const Map2DLayerMask& m) { layers_ = m, dirty_ = true; }
    const Map2DLayerMask& layers() const { return layers_; }
    // Steps of the traces: Weiler-Atherton (union of the obstacles, then the clip to the outline)
    // and the CDT. Clamped to the scene's traces when drawn.
    void set_wa_step(int s) { wa_step_ = s, dirty_ = true; }
    void set_cdt_step(int s) { cdt_step_ = s, dirty_ = true; }
    int wa_steps() const;
    int cdt_steps() const;

    // The top view: the camera looking straight down; its height sets the scale (the ground at
    // y = 0 appears as large as in the perspective view from the same eye). Frames the box once
    // per scene / toggle.
    glm::mat4 view_proj(Camera& cam, const glm::vec3& bmin, const glm::vec3& bmax, const ViewRect& rect, float W,
                        float H);

    // The "2D map" panel section (inside an open ImGui window).
    void ui();
    void draw(nav::render::Renderer& r);

private:
    void rebuild();

    std::shared_ptr<const Map2DScene> scene_;
    bool top_view_ = false, framed_ = false;
    Map2DLayerMask layers_{};
    int wa_step_ = 0, cdt_step_ = 0;
    bool dirty_ = true;
    std::array<nav::render::DrawList, 2 * kMap2DLayerCount> cpu_;
    std::array<nav::render::GpuDrawList, 2 * kMap2DLayerCount> gpu_;
};

}  // namespace navdebug
