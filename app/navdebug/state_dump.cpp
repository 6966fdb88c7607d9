// App: the window's state as JSON for the window tests (--state-dump, test only;
// tests/e2e/window_input.sh asserts on it).
#include <imgui.h>
#include <imgui_internal.h>

#include <nlohmann/json.hpp>

#include "app.h"

namespace navdebug {

namespace r = nav::render;

std::string App::state_json() const {
    nlohmann::ordered_json j;
    auto vec = [](const glm::vec3& v) { return nlohmann::json::array({v.x, v.y, v.z}); };
    nlohmann::json layers = nlohmann::json::array();
    for (int i = 0; i < r::kLayerCount; ++i)
        if (opts_.layers[static_cast<size_t>(i)]) layers.push_back(std::string(r::kLayerNames[static_cast<size_t>(i)]));
    j["layers"] = layers;
    j["camera"] = {{"eye", vec(view_.cam.eye)}, {"target", vec(view_.cam.eye + view_.cam.forward())}};
    j["path"] = {{"start", sel_.path.has_start() ? vec(sel_.path.start()) : nlohmann::json()},
                 {"end", sel_.path.has_end() ? vec(sel_.path.end()) : nlohmann::json()}};
    j["mesh"] = panels_.mesh_field;
    j["mesh_loaded"] = !mesh_pending_ && bake_ && bake_->mesh != nullptr;
    j["stage"] = std::string(nav::stage_name(edit_.run_to));
    // the left panel (Files, Layers, Parameters) scrolls as one window
    const ImGuiWindow* left = ImGui::FindWindowByName("navdebug");
    j["params_scroll_y"] = left ? left->Scroll.y : 0.0f;
    j["open_dialog"] = panels_.open_dialog.browser_open();
    j["shortcuts_shown"] = show_shortcuts_;
    j["panels_shown"] = view_.show_ui;
    j["bake_busy"] = worker_.busy();
    j["tool"] = static_cast<int>(sel_.tool);
    nlohmann::json obs = nlohmann::json::array();
    for (const nav::Obstacle& o : edit_.obstacles) obs.push_back(nlohmann::json::array({o.pos[0], o.pos[1], o.pos[2]}));
    j["obstacles"] = obs;
    j["obstacle_selected"] = sel_.obstacle.selected();
    // the volumes (EditState's: what the worker is given), the volume tool's selection and points
    nlohmann::json vols = nlohmann::json::array();
    for (const nav::ConvexVolume& v : edit_.volumes) {
        const std::string_view name = areas_.name_of(v.area);
        vols.push_back({{"area", name.empty() ? nlohmann::json(v.area) : nlohmann::json(std::string(name))},
                        {"hmin", v.hmin},
                        {"hmax", v.hmax},
                        {"points", v.verts.size() / 3}});
    }
    j["volumes"] = vols;
    j["volume_selected"] = sel_.volume.selected();
    j["volume_points"] = sel_.volume.points().size() / 3;
    j["bake_volumes"] = bake_ ? static_cast<int>(bake_->volumes.size()) : 0;
    // the bake on screen: its obstacles, generation and the tiles its last run re-baked
    j["bake_obstacles"] = bake_ ? static_cast<int>(bake_->obstacles.size()) : 0;
    j["bake_generation"] = bake_ ? bake_->generation : 0;
    j["tiles_rebaked"] = bake_ ? nlohmann::json(bake_->tiles_rebaked) : nlohmann::json::array();
    j["tile_grid"] = {{"cols", bake_ ? bake_->layout.cols : 0}, {"rows", bake_ ? bake_->layout.rows : 0}};
    nlohmann::json areas = nlohmann::json::array();
    for (const nav::AreaType& a : areas_.types)
        areas.push_back({{"name", a.name}, {"id", a.id}, {"cost", a.cost}, {"flags", a.flags}});
    j["areas"] = areas;
    nlohmann::json costs = nlohmann::json::object();
    for (const nav::AreaType& a : areas_.types) costs[a.name] = sel_.path.filter().area_cost[a.id];
    j["path_filter"] = {{"include", sel_.path.filter().include_flags},
                        {"exclude", sel_.path.filter().exclude_flags},
                        {"costs", costs}};
    j["path_tests"] = nlohmann::json::parse(sel_.path_tests.state_json());
    return j.dump();
}

}  // namespace navdebug
