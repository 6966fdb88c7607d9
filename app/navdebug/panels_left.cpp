// The left panel (panels.h): Files, Warnings, 2D map, Layers with readability and seeing inside,
// Parameters.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <climits>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "edit_state.h"
#include "gpu_scene.h"
#include "map2d_view.h"
#include "panel_fit.h"
#include "panels.h"
#include "published_bake.h"
#include "replay.h"
#include "ui_common.h"
#include "view_cache.h"
#include "view_state.h"
#include "worker.h"

namespace navdebug {

namespace r = nav::render;

namespace {

std::string escape_percent(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '%') out += '%';
        out += c;
    }
    return out;
}

}  // namespace

PanelActions left_panel(const PanelContext& c, float H) {
    PanelActions asked;
    // resizable by its right edge (full height, 220 px to 45% of the window); the width is kept in
    // ImGui's ini file between runs
    const float w = std::clamp(c.view.win_w * 0.27f, 300.0f, 380.0f);
    ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, H), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(220.0f, H), ImVec2(std::max(c.view.win_w * 0.45f, 220.0f), H));
    ImGui::SetNextWindowBgAlpha(0.90f);
    ImGui::Begin("navdebug", nullptr, ImGuiWindowFlags_NoMove);
    c.panels.left_w = ImGui::IsWindowCollapsed() ? 0.0f : ImGui::GetWindowWidth();

    if (ImGui::CollapsingHeader("Files", ImGuiTreeNodeFlags_DefaultOpen)) {
        const float bw = 52.0f;
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - bw - ImGui::GetStyle().ItemSpacing.x);
        const bool enter = ImGui::InputTextWithHint("##mesh", "mesh.obj (or drop a file)", &c.panels.mesh_field,
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if (ImGui::Button("Open", ImVec2(bw, 0)) || enter) asked.push_back(ask::OpenMesh{c.panels.mesh_field});
        ImGui::Checkbox("keep settings", &c.edit.keep_settings);
        ImGui::SameLine();
        if (ImGui::Button("Browse...")) {
            std::error_code ec;
            const std::filesystem::path cur(c.panels.mesh_field);
            const std::string dir = !c.panels.mesh_field.empty() && std::filesystem::is_directory(cur.parent_path(), ec)
                                        ? std::filesystem::absolute(cur.parent_path(), ec).string()
                                        : std::string();
            c.panels.open_dialog.open(dir);
        }
        if (ImGui::IsItemHovered()) {
            const std::string tool = OpenDialog::desktop_tool();
            ImGui::SetTooltip("%s", tool.empty() ? "Choose a level mesh in a file browser (install zenity or kdialog for the desktop's own)"
                                                 : ("Choose a level mesh with " + tool).c_str());
        }
        if (const auto chosen = c.panels.open_dialog.poll()) asked.push_back(ask::OpenMesh{*chosen});
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Off: a mesh you open starts from its own settings (MESH.json next to it, else the\n"
                              "defaults), without the volumes, mesh fixes or prune of the last one. On: they carry over.");
        if (!c.panels.asset_files.empty()) {
            ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - bw - ImGui::GetStyle().ItemSpacing.x);
            if (ImGui::BeginCombo("assets", "demo scenes")) {
                for (const std::string& a : c.panels.asset_files)
                    if (ImGui::Selectable(std::filesystem::path(a).filename().string().c_str()))
                        asked.push_back(ask::OpenMesh{a});
                ImGui::EndCombo();
            }
        }
        const float cw = (bw - ImGui::GetStyle().ItemSpacing.x) * 0.5f + 14.0f;
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 2 * cw - 2 * ImGui::GetStyle().ItemSpacing.x);
        const bool cfg_enter = ImGui::InputTextWithHint("##config", "config.json", &c.panels.config_field,
                                                        ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if (ImGui::Button("Load", ImVec2(cw, 0)) || cfg_enter) asked.push_back(ask::LoadConfig{c.panels.config_field});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Load parameters and convex volumes from a JSON config.");
        ImGui::SameLine();
        if (ImGui::Button("Save", ImVec2(cw, 0))) asked.push_back(ask::SaveConfig{c.panels.config_field});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Write the current parameters and volumes as a JSON config.");
        {
            ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 2 * cw - 2 * ImGui::GetStyle().ItemSpacing.x);
            const bool ses_enter = ImGui::InputTextWithHint("##session", "session.json", &c.panels.session_field,
                                                            ImGuiInputTextFlags_EnterReturnsTrue);
            ImGui::SameLine();
            if (ImGui::Button("Load##session", ImVec2(cw, 0)) || ses_enter)
                asked.push_back(ask::LoadSession{c.panels.session_field});
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Load a session: mesh, parameters, volumes, path, camera and layers.");
            ImGui::SameLine();
            if (ImGui::Button("Save##session", ImVec2(cw, 0)) && !c.panels.session_field.empty())
                asked.push_back(ask::SaveSession{c.panels.session_field});
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Write the session (mesh, parameters, volumes, path, camera, layers) as JSON.");
        }
        const bool can_export = c.pub.bake && c.pub.bake->polymesh && c.pub.bake->mesh;
        ImGui::BeginDisabled(!can_export);
        if (ImGui::Button("Export OBJ")) asked.push_back(ask::ExportObj{});
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip(can_export ? "Write the polygon mesh (group polymesh) and detail mesh (group detail)\n"
                                           "as NAME.navmesh.obj next to the mesh."
                                         : c.map2d.scene() ? kNotABake : "Bake through the polymesh stage to export.");
        // Detour's navmesh file of the whole bake: solo, or tiled once every tile is baked
        const bool can_save = c.pub.bake && c.pub.bake->mesh && !c.map2d.scene() &&
                              c.pub.bake->built_through >= static_cast<int>(nav::Stage::Detail) &&
                              (c.pub.bake->tiled() ? c.pub.bake->tiles_done == c.pub.bake->layout.count() && !c.pub.bake->partial
                                                   : c.pub.bake->polymesh && c.pub.bake->detail);
        ImGui::SameLine();
        ImGui::BeginDisabled(!can_save);
        if (ImGui::Button("Save navmesh")) asked.push_back(ask::SaveNavmesh{});
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip(can_save ? "Write the navmesh as Detour 1.5.1 tile data in RecastDemo's all-tiles file\n"
                                         "(MSET) as NAME.navmesh.bin next to the mesh (verts_per_poly at most 6).\n"
                                         "The bake's polygons; an Islands prune is in the file (disabled flag)."
                                       : c.map2d.scene() ? kNotABake : "Bake through the detail stage (every tile) to save.");
        ImGui::SameLine();
        const bool can_gltf = c.pub.bake && c.pub.bake->mesh && !c.map2d.scene();
        ImGui::BeginDisabled(!can_gltf);
        if (ImGui::Button("Export glTF")) asked.push_back(ask::ExportGltf{});
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) && !can_gltf && c.map2d.scene())
            ImGui::SetTooltip("%s", kNotABake);
        else if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("Write the visible layers (input, regions, contours, polymesh, detail, path) as\n"
                              "named glTF nodes with vertex colours: NAME.navmesh.glb next to the mesh (opens in Blender).");
        if (c.pub.bake && c.pub.bake->mesh) {
            const nav::InputMesh& m = *c.pub.bake->mesh;
            ImGui::TextColored(kDimColor, "%s", std::filesystem::path(m.path).filename().string().c_str());
            ImGui::SameLine();
            ImGui::TextColored(kDimColor, "%s verts, %s tris", fmt_count(m.vert_count()).c_str(),
                               fmt_count(m.tri_count()).c_str());
        }
    }
    // warnings first: a setting known to go wrong should be seen before the picture is trusted
    {
        const int nw = c.panels.warnings.count();
        const std::string title = nw > 0 ? "Warnings (" + std::to_string(nw) + ")###warnings" : "Warnings###warnings";
        if (nw > 0) ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
        const bool open = ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen);
        if (nw > 0) ImGui::PopStyleColor();
        if (open) {
            ImGui::PushID("warnings");
            c.panels.warnings.panel(c.edit.desired.params, c.log);
            ImGui::PopID();
        }
    }
    if (ImGui::CollapsingHeader("2D map", c.map2d.scene() ? ImGuiTreeNodeFlags_DefaultOpen : 0)) c.map2d.ui();
    if (ImGui::CollapsingHeader("Layers", ImGuiTreeNodeFlags_DefaultOpen)) {
        layers_section(c);
        ImGui::PushID("replay");
        c.replay.panel(c.pub.bake.get());
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen))
        for (PanelAction& a : params_section(c.edit, c.pub.bake.get(), c.log)) asked.push_back(std::move(a));
    if (c.headless) report_overflow(c.log, "left", window_overflow());  // panel_fit.h
    ImGui::End();
    return asked;
}

PanelActions params_section(EditState& edit, const nav::Bake* bake, Log& log) {
    PanelActions asked;
    // undo / redo of parameter changes, fixes and prunes (Ctrl+Z, Ctrl+Shift+Z)
    ImGui::BeginDisabled(!edit.undo.can_undo());
    if (ImGui::SmallButton(("Undo (" + std::to_string(edit.undo.undo_steps()) + ")").c_str())) asked.push_back(ask::Undo{});
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Ctrl+Z: back one edit (a parameter, a fix, a prune, volumes)");
    ImGui::SameLine();
    ImGui::BeginDisabled(!edit.undo.can_redo());
    if (ImGui::SmallButton(("Redo (" + std::to_string(edit.undo.redo_steps()) + ")").c_str())) asked.push_back(ask::Redo{});
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Ctrl+Shift+Z or Ctrl+Y: forward one edit");
    // the sliders leave room for the longest label beside them (a fixed 60% cut the longer labels off
    // at the panel's edge at 1280 x 800), but keep at least 45% of the width for their values
    float label_w = 0.0f;
    for (const nav::ParamDef& d : nav::param_table())
        if (d.kind != nav::ParamKind::Bool) label_w = std::max(label_w, ImGui::CalcTextSize(std::string(d.label).c_str()).x);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float slider_w = std::max(avail * 0.45f, avail - label_w - ImGui::GetStyle().ItemInnerSpacing.x - 1.0f);
    // once per stage, in pipeline order, whatever the order of the parameter table
    std::vector<const nav::ParamDef*> ordered;
    for (const nav::ParamDef& d : nav::param_table()) ordered.push_back(&d);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const nav::ParamDef* a, const nav::ParamDef* b) { return a->stage < b->stage; });
    nav::Stage group = nav::Stage::Count;
    for (const nav::ParamDef* dp : ordered) {
        const nav::ParamDef& d = *dp;
        if (d.stage != group) {
            group = d.stage;
            ImGui::TextColored(kDimColor, "%s", std::string(nav::stage_name(group)).c_str());
        }
        ImGui::PushID(static_cast<int>(d.id));
        const std::string label(d.label);
        const nav::InputMesh* mesh = bake && bake->mesh ? bake->mesh.get() : nullptr;
        const std::string hint = nav::voxel_hint(d.id, edit.desired.params, mesh ? mesh->bmin : nullptr, mesh ? mesh->bmax : nullptr);
        std::string unit = d.unit.empty() || d.unit == "cells" ? "" : " " + std::string(d.unit);
        bool changed = false;
        double value = edit.desired.params.get(d.id);
        ImGui::SetNextItemWidth(slider_w);
        switch (d.kind) {
            case nav::ParamKind::Float: {
                float v = static_cast<float>(value);
                const bool deg = d.unit == "deg";
                // degrees to a tenth; ranges reaching below 0.01 (mesh_scale) to a thousandth
                const char* prec = deg ? "%.1f" : d.min < 0.01 && d.min > 0.0 ? "%.3f" : "%.2f";
                const std::string fmt = prec + escape_percent(unit) +
                                        (hint.empty() ? "" : "  " + escape_percent(hint));
                const ImGuiSliderFlags flags = deg ? ImGuiSliderFlags_None : ImGuiSliderFlags_Logarithmic;
                changed = ImGui::SliderFloat(label.c_str(), &v, static_cast<float>(d.min), static_cast<float>(d.max),
                                             fmt.c_str(), flags | ImGuiSliderFlags_AlwaysClamp);
                // float(0.02) is a hair below the double 0.02: clamp in double so the ends are accepted
                value = std::clamp(static_cast<double>(v), d.min, d.max);
                break;
            }
            case nav::ParamKind::Int: {
                int v = static_cast<int>(value);
                const std::string fmt = "%d" + escape_percent(unit) + (hint.empty() ? "" : "  " + escape_percent(hint));
                // tile_size's top follows the grid (nav::slider_range)
                const nav::ParamRange r = nav::slider_range(d.id, edit.desired.params, mesh ? mesh->bmin : nullptr,
                                                            mesh ? mesh->bmax : nullptr);
                // ImGui's int sliders assert on a bound beyond INT_MAX / 2 (max_nodes' 2^30 crashed the
                // panel once scrolled into view); a range that wide is dragged on a log scale
                const double top = std::min(r.max, static_cast<double>(INT_MAX / 2));
                const ImGuiSliderFlags flags =
                    ImGuiSliderFlags_AlwaysClamp | (top - r.min > 100000.0 ? ImGuiSliderFlags_Logarithmic : 0);
                changed = ImGui::SliderInt(label.c_str(), &v, static_cast<int>(r.min), static_cast<int>(top),
                                           fmt.c_str(), flags);
                value = v;
                break;
            }
            case nav::ParamKind::Bool: {
                bool v = value != 0.0;
                changed = ImGui::Checkbox(label.c_str(), &v);
                value = v ? 1.0 : 0.0;
                break;
            }
            case nav::ParamKind::Enum: {
                int v = static_cast<int>(value);
                const std::string cur(v >= 0 && v < static_cast<int>(d.enum_names.size()) ? d.enum_names[static_cast<size_t>(v)] : "");
                if (ImGui::BeginCombo(label.c_str(), cur.c_str())) {
                    for (size_t k = 0; k < d.enum_names.size(); ++k) {
                        const bool sel = static_cast<int>(k) == v;
                        if (ImGui::Selectable(std::string(d.enum_names[k]).c_str(), sel)) {
                            v = static_cast<int>(k);
                            changed = true;
                        }
                    }
                    ImGui::EndCombo();
                }
                value = v;
                break;
            }
        }
        if (ImGui::IsItemHovered()) {
            nav::Params defaults;
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(360.0f);
            ImGui::Text("%s (%s)", std::string(d.name).c_str(), label.c_str());
            ImGui::TextUnformatted(std::string(d.help).c_str());
            ImGui::TextColored(kDimColor, "default %s, range %g..%g%s; rebuilds from %s. Right-click: reset.",
                               defaults.to_string(d.id).c_str(), d.min, d.max, unit.c_str(),
                               std::string(nav::stage_name(d.stage)).c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
            value = nav::Params().get(d.id);
            changed = true;
        }
        if (changed) {
            const nav::Status st = edit.desired.params.set(d.id, value);
            if (!st) log.warn(st.message);
        }
        ImGui::PopID();
    }
    if (ImGui::Button("Reset all")) edit.desired.params = nav::Params();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every parameter back to its default (the Stages timeline steps the bake).");
    return asked;
}

void layers_section(const PanelContext& c) {
    const nav::Bake* b = c.pub.bake.get();
    for (int i = 0; i < r::kLayerCount; ++i) {
        const auto l = static_cast<r::Layer>(i);
        if (i % 2) ImGui::SameLine(150.0f);
        bool on = c.layers[static_cast<size_t>(i)];
        const bool avail = b && r::layer_available(l, *b);
        if (!avail) ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
        if (ImGui::Checkbox(std::string(r::layer_name(l)).c_str(), &on)) c.layers[static_cast<size_t>(i)] = on;
        if (!avail) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) {
            const auto& info = c.scene.layers.info(l);
            // a tiled level's per-grid layers are drawn in parts (blocks of tiles): a re-bake
            // re-uploads the parts whose tiles changed
            const std::string parts = info.parts > 1 ? ", " + std::to_string(info.parts_uploaded) + " of its " +
                                                           std::to_string(info.parts) + " tile parts" : "";
            ImGui::SetTooltip("%s\nstage: %s%s\n%s triangles, %s lines, %s spans\nlast rebuild: built in %.1f ms (%s), "
                              "uploaded in %.2f ms%s",
                              std::string(r::layer_help(l)).c_str(),
                              std::string(nav::stage_name(r::layer_stage(l))).c_str(), avail ? "" : " (not built)",
                              fmt_count(static_cast<int64_t>(info.triangles)).c_str(),
                              fmt_count(static_cast<int64_t>(info.lines)).c_str(),
                              fmt_count(static_cast<int64_t>(info.spans)).c_str(), info.build_ms,
                              info.on_ui ? "UI thread" : "worker", info.upload_ms, parts.c_str());
        }
    }
    ImGui::Checkbox("ground grid", &c.view.show_ground);
    ImGui::SameLine(150.0f);
    ImGui::Checkbox("inspect spans", &c.view.inspect);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hover highlights the element under the cursor; its values show in a tooltip with the inspect "
                                                      "tool or while Alt is held.");
    readability_section(c);
    see_inside_section(c.view, c.pub.bake && c.pub.bake->mesh ? c.pub.bake->mesh.get() : nullptr);

    // legend of the visible layers
    for (int i = 0; i < r::kLayerCount; ++i) {
        if (!c.layers[static_cast<size_t>(i)]) continue;
        const auto l = static_cast<r::Layer>(i);
        ImGui::TextColored(kDimColor, "%s", std::string(r::layer_name(l)).c_str());
        if (l == r::Layer::Regions) regions_legend(c.panels, c.pub.drawn.get());
        int n = 0;
        for (const r::LegendEntry& e : c.scene.layers.legend(l)) {  // only what the layer draws now
            // two entries a row where the second fits (a long label gets a row of its own at 1280 x 800)
            const float entry_w = 16.0f + ImGui::CalcTextSize(std::string(e.label).c_str()).x;
            if (n++ % 2) {
                if (160.0f + entry_w <= ImGui::GetWindowContentRegionMax().x) ImGui::SameLine(160.0f);
                else n = 1;
            }
            ImGui::ColorButton(("##lg" + std::to_string(i) + "_" + std::to_string(n)).c_str(), to_imvec(e.color),
                               ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker, ImVec2(12, 12));
            ImGui::SameLine();
            ImGui::TextUnformatted(std::string(e.label).c_str());
        }
    }
}

void regions_legend(Panels& panels, const nav::Bake* b) {
    // every region drawn, by its colour: a count, then the swatches in a scrolled box
    const nav::Regions* reg = b && b->regions ? b->regions.get() : nullptr;
    if (!reg) {
        if (b && b->tiled())
            ImGui::Text("%lld regions over %d tiles, one colour each", static_cast<long long>(b->count("regions")),
                        b->tiles_done);
        return;
    }
    ImGui::Text("%d regions, one colour each", reg->region_count);
    if (reg->max_region_id <= 1) return;
    // which ids the spans use (ids can have gaps after merging): read once per bake, not per frame
    // (a scan of every span each frame on a level of millions)
    if (panels.regions_legend_of != b->regions) {
        std::vector<uint8_t> used(reg->max_region_id, 0);
        for (const uint16_t id : reg->reg)
            if (const uint16_t rid = static_cast<uint16_t>(id & ~nav::kBorderRegion); rid != 0 && rid < used.size()) used[rid] = 1;
        panels.regions_legend_ids.clear();
        for (uint16_t id = 1; id < reg->max_region_id; ++id)
            if (used[id]) panels.regions_legend_ids.push_back(id);
        panels.regions_legend_of = b->regions;
    }
    const float rows = std::min(6.0f, std::ceil(static_cast<float>(reg->region_count) / 6.0f));
    ImGui::BeginChild("##regions_legend", ImVec2(0.0f, rows * (ImGui::GetFrameHeight() + 2.0f) + 6.0f), true);
    int n = 0;
    for (const uint16_t id : panels.regions_legend_ids) {
        if (n++ % 6) ImGui::SameLine();
        ImGui::ColorButton(("##rg" + std::to_string(id)).c_str(), to_imvec(r::region_color(id)),
                           ImGuiColorEditFlags_NoPicker, ImVec2(ImGui::GetFrameHeight() * 1.6f, ImGui::GetFrameHeight()));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("region %u", id);
    }
    ImGui::EndChild();
}

void readability_section(const PanelContext& c) {
    if (!ImGui::TreeNodeEx("Readability", ImGuiTreeNodeFlags_DefaultOpen)) return;
    // per-layer opacity: one compact slider per visible layer
    const float sw = ImGui::GetContentRegionAvail().x * 0.55f;
    for (int i = 0; i < r::kLayerCount; ++i) {
        const auto l = static_cast<r::Layer>(i);
        if (!c.layers[static_cast<size_t>(i)] || !r::layer_from_bake(l)) continue;
        ImGui::PushID(i);
        ImGui::SetNextItemWidth(sw);
        ImGui::SliderFloat(std::string(r::layer_name(l)).c_str(), &c.view.draw_opts.opacity[static_cast<size_t>(i)], 0.0f, 1.0f,
                           "opacity %.2f", ImGuiSliderFlags_AlwaysClamp);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("How opaque this layer is drawn. Right-click: back to 1.");
        if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) c.view.draw_opts.opacity[static_cast<size_t>(i)] = 1.0f;
        ImGui::PopID();
    }
    {
        // the span budget in thousands (0: no limit)
        int k = static_cast<int>(c.view.draw_opts.span_budget / 1000);
        ImGui::SetNextItemWidth(sw);
        if (ImGui::SliderInt("span budget", &k, 0, 20000, k ? "%d k a frame" : "no limit", ImGuiSliderFlags_AlwaysClamp))
            c.view.draw_opts.span_budget = static_cast<size_t>(k) * 1000;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Spans drawn at full detail per frame, shared by the span layers shown (voxels, filtered,\n"
                              "compact ... regions). Beyond it the chunks farthest from the camera are drawn merged:\n"
                              "each 4 x 4 or 16 x 16 block of cells as its most layered column. Chunks outside the view\n"
                              "are never drawn. 0: no limit. Right-click: back to %d k.",
                              static_cast<int>(r::LayerDrawOptions::kDefaultSpanBudget / 1000));
        if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) c.view.draw_opts.span_budget = r::LayerDrawOptions::kDefaultSpanBudget;
        const std::string lod = lod_text(c.scene.layers, c.view.draw_opts.span_budget, c.cache, false);
        if (!lod.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
            ImGui::TextWrapped("%s", lod.c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::Checkbox("x-ray edges", &c.view.draw_opts.xray);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Draw the layers' lines a second time, faint, through the geometry in front.");
    ImGui::SameLine(150.0f);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60.0f);
    ImGui::SliderFloat("stack", &c.view.draw_opts.lift_step, 0.0f, 1.0f, "%.2f m", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Stack offset: each visible layer after the first is drawn this much higher than the one\n"
                          "before, so layers shown together do not hide each other.");
    if (ImGui::Checkbox("Highlight changes", &c.view.highlight_changes)) {
        c.worker.set_highlight_changes(c.view.highlight_changes);
        if (!c.view.highlight_changes && c.pub.highlight) {
            c.pub.highlight.reset();
            c.scene.diff_upload = true;
        }
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("After a re-bake, show which regions and polygons it added, removed or reshaped\n"
                          "(kept until the next bake).");
    if (c.view.highlight_changes) {
        auto swatch = [](const char* id, uint32_t c) {
            ImGui::ColorButton(id, to_imvec(c), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker, ImVec2(12, 12));
            ImGui::SameLine();
        };
        swatch("##dadd", r::colors::kDiffAdded);
        ImGui::TextUnformatted("added");
        ImGui::SameLine();
        swatch("##dresh", r::colors::kDiffReshaped);
        ImGui::TextUnformatted("reshaped");
        ImGui::SameLine();
        swatch("##drem", r::colors::kDiffRemoved);
        ImGui::TextUnformatted("removed");
        if (c.pub.highlight) {
            ImGui::TextWrapped("#%llu -> #%llu: %s", static_cast<unsigned long long>(c.pub.highlight->changes.from_generation),
                               static_cast<unsigned long long>(c.pub.highlight->changes.to_generation), c.pub.highlight->text.c_str());
            ImGui::TextColored(kDimColor, "diff %.2f ms", c.pub.highlight->changes.ms);
        } else {
            ImGui::TextColored(kDimColor, "move a slider: the next bake is compared with this one");
        }
    }
    ImGui::TreePop();
}

void see_inside_section(ViewState& view, const nav::InputMesh* mesh) {
    if (!ImGui::TreeNodeEx("See inside", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::Checkbox("cull back faces", &view.see.cull);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Input triangles seen from behind are not drawn: rooms whose walls face inward\n"
                          "open up when seen from outside (--cull on|off).");
    ImGui::SameLine(170.0f);
    ImGui::Checkbox("hide ceilings", &view.see.hide_ceilings);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Input triangles facing down are not drawn where the camera is above them\n"
                          "(--hide-ceilings on|off).");
    const float lo = mesh ? mesh->bmin[1] - 1.0f : -10.0f, hi = mesh ? mesh->bmax[1] + 1.0f : 10.0f;
    bool clip = view.see.clip.has_value();
    if (ImGui::Checkbox("height clip", &clip)) {
        if (clip) view.see.clip = std::make_pair(lo, hi);
        else view.see.clip.reset();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Draw only what lies between two heights (every layer). The floor click tool sets\n"
                          "the range around the floor you click (--clip YMIN,YMAX, --clip-floor X,Y,Z).");
    if (view.see.clip) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 8.0f);
        ImGui::DragFloatRange2("##clip", &view.see.clip->first, &view.see.clip->second, 0.05f, lo, hi, "min %.2f m",
                               "max %.2f m", ImGuiSliderFlags_AlwaysClamp);
    }
    bool section = view.see.section.has_value();
    if (ImGui::Checkbox("section plane", &section)) {
        if (section) {
            glm::vec3 c(0.0f);
            if (mesh) c = glm::vec3((mesh->bmin[0] + mesh->bmax[0]) * 0.5f, (mesh->bmin[1] + mesh->bmax[1]) * 0.5f,
                                    (mesh->bmin[2] + mesh->bmax[2]) * 0.5f);
            view.see.section = std::make_pair(c, glm::vec3(0.0f, 0.0f, 1.0f));
        } else {
            view.see.section.reset();
        }
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Cut away everything on the side the plane's normal points to. The section click tool\n"
                          "places it facing the camera; drag the numbers or the tool to move it\n"
                          "(--section PX,PY,PZ,NX,NY,NZ).");
    if (view.see.section) {
        ImGui::DragFloat3("point", &view.see.section->first.x, 0.05f);
        glm::vec3 n = view.see.section->second;
        if (ImGui::DragFloat3("normal", &n.x, 0.01f, -1.0f, 1.0f) && glm::length(n) > 1e-3f) view.see.section->second = n;
    }
    floor_tint_section(view);
    ImGui::TreePop();
}

void floor_tint_section(ViewState& view) {
    bool tint = view.floor_tint_on();
    if (ImGui::Checkbox("floor tint", &tint)) {  // the user's choice from now on
        view.see.floor_tint = tint;
        view.see.floor_tint_auto = false;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Tint every layer by height band so stacked floors read apart: one colour per band of\n"
                          "the given height from the bottom of the mesh; walls keep their colour. On by itself\n"
                          "where the navmesh has several floors, until set here (--floor-tint, --floor-tint-auto\n"
                          "on|off, --floor-height M).");
    if (view.see.floor_tint_auto) {
        ImGui::SameLine();
        ImGui::TextColored(kDimColor, view.floors.several ? "(auto: several floors)" : "(auto: one floor)");
    }
    if (!tint) return;
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 8.0f);
    ImGui::SliderFloat("##band", &view.see.floor_height, 0.5f, 20.0f, "band %.2f m", ImGuiSliderFlags_AlwaysClamp);
    // legend: the bands the navmesh stands in, with their height ranges
    const auto& f = view.floors;
    if (f.bands.empty()) ImGui::TextColored(kDimColor, "no navmesh yet: bands from %.2f m", f.origin);
    for (const int k : f.bands) {
        float rgb[3];
        r::floor_tint_color(k, rgb);
        ImGui::ColorButton(("##band" + std::to_string(k)).c_str(), ImVec4(rgb[0], rgb[1], rgb[2], 1.0f),
                           ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker, ImVec2(12, 12));
        ImGui::SameLine();
        ImGui::Text("floor band %d: %.2f .. %.2f m", k, f.origin + static_cast<float>(k) * f.band,
                    f.origin + static_cast<float>(k + 1) * f.band);
    }
}

std::string lod_text(const r::LayerCache& layers, size_t span_budget, const ViewCache& cache, bool brief) {
    size_t total = 0, full = 0, merged = 0;
    std::string names;
    for (int i = 0; i < r::kLayerCount; ++i) {
        const r::SpanPlanStats& st = layers.lod(static_cast<r::Layer>(i));
        if (!st.merged) continue;
        names += (names.empty() ? "" : ", ") + std::string(r::layer_name(static_cast<r::Layer>(i)));
        total += st.visible;
        full += st.drawn[0];
        merged += st.visible - st.drawn[0];
    }
    if (names.empty()) return {};
    auto millions = [](size_t v) {
        char b[32];
        std::snprintf(b, sizeof b, v >= 100000 ? "%.1f M" : "%.0f k", v >= 100000 ? static_cast<double>(v) / 1e6 : static_cast<double>(v) / 1e3);
        return std::string(b);
    };
    // the view's frame time lowered the budget while the camera moves (ViewCache, view_cache.h)
    const size_t user = span_budget;
    std::string lowered;
    if (user > 0 && cache.drawn_span_budget() > 0 && cache.drawn_span_budget() < user) {
        char b[160];
        std::snprintf(b, sizeof b, "budget lowered to %s of %s while the camera moves (the scene took %.0f ms)",
                      millions(cache.drawn_span_budget()).c_str(), millions(user).c_str(), cache.last_scene_ms());
        lowered = b;
    }
    if (brief)
        return "level of detail: " + millions(full) + " of " + millions(total) + " spans in view at full detail, the farther merged " +
               "4 x 4 or 16 x 16 (" + names + "; " + (lowered.empty() ? "span budget: Layers > Readability" : lowered) + ")";
    return "Level of detail on " + names + ": " + millions(full) + " of the " + millions(total) +
           " spans in view drawn at full detail (nearest the camera); the farther " + millions(merged) +
           " drawn merged, 4 x 4 or 16 x 16 cells as one column. " +
           (lowered.empty() ? "" : "The span " + lowered + "; a still camera draws the whole budget. ") +
           "Raise the span budget or move closer for full detail.";
}

}  // namespace navdebug
