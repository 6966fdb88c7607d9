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
    j["mesh_loaded"] = !pub_.mesh_pending && pub_.bake && pub_.bake->mesh != nullptr;
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
    for (const nav::Obstacle& o : edit_.desired.obstacles) obs.push_back(nlohmann::json::array({o.pos[0], o.pos[1], o.pos[2]}));
    j["obstacles"] = obs;
    j["obstacle_selected"] = sel_.obstacle.selected();
    // the volumes (EditState's: what the worker is given), the volume tool's selection and points
    nlohmann::json vols = nlohmann::json::array();
    for (const nav::ConvexVolume& v : edit_.desired.volumes) {
        const std::string_view name = edit_.desired.areas.name_of(v.area);
        nlohmann::json xz = nlohmann::json::array();
        for (size_t k = 0; k + 2 < v.verts.size(); k += 3) xz.push_back({v.verts[k], v.verts[k + 2]});
        vols.push_back({{"area", name.empty() ? nlohmann::json(v.area) : nlohmann::json(std::string(name))},
                        {"hmin", v.hmin},
                        {"hmax", v.hmax},
                        {"points", v.verts.size() / 3},
                        {"xz", xz}});
    }
    j["volumes"] = vols;
    j["volume_selected"] = sel_.volume.selected();
    j["volume_points"] = sel_.volume.points().size() / 3;
    j["volume_dragging"] = sel_.volume.dragging();
    j["bake_volumes"] = pub_.bake ? static_cast<int>(pub_.bake->inputs.volumes.size()) : 0;
    // the manual links as edited (the link tool) and as in the bake on screen
    nlohmann::json links = nlohmann::json::array();
    for (const nav::OffMeshLink& l : edit_.desired.links)
        links.push_back({{"start", {l.start[0], l.start[1], l.start[2]}},
                         {"end", {l.end[0], l.end[1], l.end[2]}},
                         {"radius", l.radius},
                         {"bidirectional", l.bidir},
                         {"area", l.area},
                         {"flags", l.flags},
                         {"user_id", l.user_id}});
    j["links"] = links;
    j["link_selected"] = sel_.link.selected();
    j["link_pending"] = sel_.link.pending() ? nlohmann::json::array({(*sel_.link.pending())[0], (*sel_.link.pending())[1],
                                                                     (*sel_.link.pending())[2]})
                                            : nlohmann::json();
    // the path tool's straight path: its corners, and those where it takes an off-mesh link
    nlohmann::json pts = nlohmann::json::array(), via = nlohmann::json::array();
    const std::vector<float> pp = sel_.path.path_points();
    const std::vector<uint8_t> pf = sel_.path.path_flags();
    for (size_t k = 0; k + 2 < pp.size(); k += 3) {
        pts.push_back({pp[k], pp[k + 1], pp[k + 2]});
        if (k / 3 < pf.size() && (pf[k / 3] & nav::kStraightOffMesh)) via.push_back(k / 3);
    }
    j["path_points"] = pts;
    j["path_offmesh_corners"] = via;  // the corner where each link traversal starts (the next corner is its end)
    j["path_reached"] = sel_.path.path_reached();
    {  // the agent type the path tool queries for ("" : any polygon)
        const int t = sel_.path.agent_type();
        const auto* types = pub_.bake ? &pub_.bake->inputs.agent_types : nullptr;
        j["path_agent_type"] = types && t >= 0 && t < static_cast<int>(types->size()) ? (*types)[static_cast<size_t>(t)].name : "";
    }
    j["bake_links"] = pub_.bake ? static_cast<int>(pub_.bake->inputs.links.size()) : 0;
    const nav::NavMesh* nm = pub_.bake ? pub_.bake->navmesh.get() : nullptr;
    j["navmesh_links"] = nm ? nm->nlinks : 0;
    j["navmesh_links_connected"] = nm ? nm->nlinks_connected : 0;
    // the bake on screen: its obstacles, generation and the tiles its last run re-baked
    j["bake_obstacles"] = pub_.bake ? static_cast<int>(pub_.bake->inputs.obstacles.size()) : 0;
    j["bake_generation"] = pub_.bake ? pub_.bake->generation : 0;
    j["tiles_rebaked"] = pub_.bake ? nlohmann::json(pub_.bake->tiles_rebaked) : nlohmann::json::array();
    j["tile_grid"] = {{"cols", pub_.bake ? pub_.bake->layout.cols : 0}, {"rows", pub_.bake ? pub_.bake->layout.rows : 0}};
    nlohmann::json areas = nlohmann::json::array();
    for (const nav::AreaType& a : edit_.desired.areas.types)
        areas.push_back({{"name", a.name}, {"id", a.id}, {"cost", a.cost}, {"flags", a.flags}});
    j["areas"] = areas;
    nlohmann::json costs = nlohmann::json::object();
    for (const nav::AreaType& a : edit_.desired.areas.types) costs[a.name] = sel_.path.filter().area_cost[a.id];
    j["path_filter"] = {{"include", sel_.path.filter().include_flags},
                        {"exclude", sel_.path.filter().exclude_flags},
                        {"costs", costs}};
    j["path_tests"] = nlohmann::json::parse(sel_.path_tests.state_json());
    return j.dump();
}

}  // namespace navdebug
