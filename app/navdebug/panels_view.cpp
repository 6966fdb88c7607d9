// What is drawn over the 3D view (panels.h): the error banner, the bake status line, hints, tile
// labels.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "edit_state.h"
#include "gpu_scene.h"
#include "panels.h"
#include "published_bake.h"
#include "selection.h"
#include "ui_common.h"
#include "view_cache.h"
#include "view_state.h"
#include "worker.h"
#include "worker_progress.h"

namespace navdebug {

namespace r = nav::render;

void view_overlays(const PanelContext& c, float W, float H) {
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    // error banner across the top of the 3D view
    if (!c.panels.banner.empty()) {
        const float bw = std::min(c.view.rect.w - 24.0f, 620.0f);
        ImGui::SetNextWindowPos(ImVec2(c.view.rect.x + c.view.rect.w * 0.5f, 12.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(bw, 0.0f), ImGuiCond_Always);
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.55f, 0.08f, 0.08f, 0.94f));
        ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(1.0f, 0.4f, 0.4f, 1.0f));
        ImGui::Begin("##error", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize |
                         ImGuiWindowFlags_NoSavedSettings);
        ImGui::PushTextWrapPos(bw - 70.0f);
        ImGui::TextUnformatted(c.panels.banner.c_str());
        ImGui::PopTextWrapPos();
        ImGui::SameLine(bw - 54.0f);
        if (ImGui::Button("close")) c.panels.banner.clear();
        ImGui::End();
        ImGui::PopStyleColor(2);
    }
    // what the worker is doing, and whether the view is stale, across the top of the view
    if (c.worker.busy() || c.pub.stale(c.worker.busy()) || c.scene.layers.uploading()) {
        ImGui::SetNextWindowPos(ImVec2(c.view.rect.x + c.view.rect.w * 0.5f, c.panels.banner.empty() ? 12.0f : 96.0f), ImGuiCond_Always,
                                ImVec2(0.5f, 0.0f));
        ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(std::max(c.view.rect.w - 24.0f, 100.0f), 400.0f));
        const bool stale = c.pub.stale(c.worker.busy());
        ImGui::PushStyleColor(ImGuiCol_WindowBg, stale ? ImVec4(0.30f, 0.22f, 0.02f, 0.92f) : ImVec4(0.05f, 0.07f, 0.10f, 0.88f));
        ImGui::PushStyleColor(ImGuiCol_Border, stale ? kWarnColor : ImVec4(0.4f, 0.45f, 0.55f, 1.0f));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 2.0f);
        ImGui::Begin("##bake_status", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize |
                         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
        bake_status(c, false);
        ImGui::End();
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
    }
    tile_labels(c, fg, W, H);
    // the level of detail, when it applies, in the view's top-left corner
    if (const std::string lod = lod_text(c.scene.layers, c.view.draw_opts.span_budget, c.cache, true);
        !lod.empty() && c.pub.bake && c.pub.bake->mesh) {
        const ImVec2 at(c.view.rect.x + 10.0f, 10.0f);
        const float wrap = std::max(c.view.rect.w - 28.0f, 120.0f);
        const ImVec2 sz = ImGui::CalcTextSize(lod.c_str(), nullptr, false, wrap);
        fg->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 2.0f), ImVec2(at.x + sz.x + 4.0f, at.y + sz.y + 2.0f), IM_COL32(30, 24, 4, 210), 3.0f);
        fg->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, ImGui::GetColorU32(kWarnColor), lod.c_str(), nullptr, wrap);
    }
    // hover inspection tooltip
    if (!c.sel.node_tip.empty()) {
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(c.sel.node_tip.c_str());
        ImGui::EndTooltip();
    } else if (c.sel.tool == Selection::Tool::Inspect || ImGui::GetIO().KeyAlt) {
        // the element's tooltip would cover the view at every hover: only with the inspect tool
        // or while Alt is held (the hover highlight shows either way)
        c.sel.inspector.tooltip();
    }
    // orbit pivot marker
    if (c.view.drag == ViewState::Drag::Orbit || c.view.drag == ViewState::Drag::Pan) {
        const glm::vec4 q = c.view.view_proj * glm::vec4(c.view.pivot, 1.0f);
        if (q.w > 0) {
            const ImVec2 p((q.x / q.w * 0.5f + 0.5f) * W, (0.5f - q.y / q.w * 0.5f) * H);
            fg->AddCircle(p, 7.0f, IM_COL32(255, 230, 80, 255), 16, 2.0f);
            fg->AddCircleFilled(p, 2.5f, IM_COL32(255, 230, 80, 255));
        }
    }
    // controls help at the bottom of the view: the camera, then what a left click does with the
    // chosen tool; two lines when one does not fit between the panels
    const bool have = c.pub.bake && c.pub.bake->mesh;
    const std::string camera = "RMB look  WASD QE fly  MMB/Alt+LMB orbit  Shift+MMB pan  wheel dolly  F frame  Tab panels";
    const std::string click = c.sel.tool == Selection::Tool::Inspect ? "LMB pin the element under the cursor"
                              : c.sel.tool == Selection::Tool::Prune ? "LMB keep only the island under the cursor"
                              : c.sel.tool == Selection::Tool::ClipFloor ? "LMB clip to the floor under the cursor"
                              : c.sel.tool == Selection::Tool::Section ? "LMB section plane here  drag up/down to move it"
                              : c.sel.tool == Selection::Tool::Tile ? "LMB select the tile under the cursor"
                              : c.sel.tool == Selection::Tool::Why ? "LMB why is there (no) navmesh here?"
                              : c.sel.tool == Selection::Tool::Obstacle ? "LMB place / grab an obstacle  drag move  Delete remove"
                              : c.sel.tool == Selection::Tool::Volume
                                  ? (!c.sel.volume.points().empty() ? "LMB add a volume point  LMB first point / Enter close  Esc cancel"
                                     : c.sel.volume.selected() >= 0
                                         ? "drag a corner move that point (dragged inside the hull it drops out)  drag inside move the volume  "
                                           "LMB elsewhere select / new volume  Delete remove"
                                         : "LMB add a volume point / select a volume  Enter close  Esc cancel  Delete remove")
                              : c.sel.tool == Selection::Tool::Link ? (c.sel.link.pending() ? "LMB the link's end  Esc cancel"
                                                                                          : "LMB link start, then end  drag an end  Delete remove")
                                                     : "LMB path end  Shift+LMB start  drag markers";
    std::vector<std::string> lines;
    if (!have) {
        lines = {"Open a mesh: type a path and press Open, or drop a level (.obj .gltf .glb .fbx .dae .ply .stl .3ds) on the window"};
    } else {
        // as many "  "-separated items per line as fit between the panels
        const std::string all = camera + "  " + click;
        size_t at = 0;
        std::string line;
        while (at <= all.size()) {
            size_t next = all.find("  ", at);
            if (next == std::string::npos) next = all.size();
            const std::string item = all.substr(at, next - at);
            const std::string joined = line.empty() ? item : line + "  " + item;
            if (!line.empty() && ImGui::CalcTextSize(joined.c_str()).x + 24.0f > c.view.rect.w) {
                lines.push_back(line);
                line = item;
            } else {
                line = joined;
            }
            at = next + 2;
        }
        if (!line.empty()) lines.push_back(line);
    }
    float y = H - 10.0f;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        const ImVec2 ts = ImGui::CalcTextSize(it->c_str());
        y -= ts.y + 8.0f;
        const ImVec2 pos(c.view.rect.x + std::max((c.view.rect.w - ts.x) * 0.5f, 8.0f), y);
        fg->AddRectFilled(ImVec2(pos.x - 8, pos.y - 4), ImVec2(pos.x + ts.x + 8, pos.y + ts.y + 4), IM_COL32(0, 0, 0, 120), 4.0f);
        fg->AddText(pos, IM_COL32(220, 224, 232, 230), it->c_str());
    }
}

void bake_status(const PanelContext& c, bool panel) {
    const bool busy = c.worker.busy(), stale = c.pub.stale(c.worker.busy());
    if (!busy && !stale) {
        // the bake is done and its layers are going to the GPU a few parts a frame
        if (c.scene.layers.uploading()) {
            char line[160];
            std::snprintf(line, sizeof line, "uploading the new layers: %zu parts left (%.0f ms a frame)  %.1f s",
                          c.scene.layers.parts_pending(), c.cache.upload_budget(c.scene.upload_budget_ms),
                          std::chrono::duration<double>(WorkerProgress::Clock::now() - c.progress.upload_since).count());
            if (panel) ImGui::TextWrapped("%s", line);
            else ImGui::TextUnformatted(line);
        }
        return;
    }
    const WorkerProgress::Clock::time_point now = WorkerProgress::Clock::now();
    auto secs = [&](WorkerProgress::Clock::time_point since) { return std::chrono::duration<double>(now - since).count(); };
    const char* head = nullptr;
    if (stale) head = c.pub.cancelled && !busy ? (c.pub.raw->partial ? "STALE - bake cancelled: only the tiles done by then are shown"
                                                                 : "STALE - bake cancelled: the view shows the last bake")
                                          : "STALE, re-baking: the view shows the last bake";
    else if (c.pub.raw && c.pub.raw->partial) head = "tiled bake: the tiles done so far are shown, the rest fill in";
    else if (c.pub.raw && c.pub.raw->built_through == 0) head = "first bake: the input is shown, the rest is being built";
    if (head) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
        if (panel) ImGui::TextWrapped("%s", head);
        else ImGui::TextUnformatted(head);
        ImGui::PopStyleColor();
    }
    if (busy) {
        if (ImGui::SmallButton(panel ? "Cancel##panel" : "Cancel##view")) {
            c.worker.cancel();
            c.pub.cancelled = true;
            c.log.warn("bake cancelled: the view shows the last bake; Re-bake or change a parameter to build again");
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Stop this bake. The last finished bake stays on screen, marked stale.");
        ImGui::SameLine();
        const int st = c.worker.building_stage();
        char line[256];
        const nav::Bake* pb = c.pub.raw && c.pub.raw->partial ? c.pub.raw.get() : nullptr;
        if (pb && st >= static_cast<int>(nav::Stage::Rasterize)) {
            // tiles publish as they finish: tiles done of all, and the time so far
            const int done = tiles_present(*pb), all = pb->layout.count();
            std::snprintf(line, sizeof line, "tiles %d / %d", done, all);
            ImGui::ProgressBar(static_cast<float>(done) / static_cast<float>(std::max(all, 1)), ImVec2(panel ? -1.0f : 180.0f, 0.0f),
                               line);
            if (!panel) ImGui::SameLine();
            std::snprintf(line, sizeof line, "baking tiles, nearest the camera first  %.1f s", secs(c.progress.busy_since));
        } else if (st >= 0) {
            // stage-level progress: no stage reports progress within itself yet
            const int first = std::max(c.progress.run_first_stage, 0), last = std::max(static_cast<int>(c.edit.run_to), st);
            const int n = last - first + 1, k = st - first + 1;
            std::snprintf(line, sizeof line, "%s: stage %d/%d (%d%% of the stages done)  %.1f s, total %.1f s",
                          std::string(nav::kStageNames[static_cast<size_t>(st)]).c_str(), k, n, (k - 1) * 100 / std::max(n, 1),
                          secs(c.progress.stage_since), secs(c.progress.busy_since));
        } else if (c.worker.publishing()) {
            // after the last stage: the worker builds the layers' draw lists (and the prune and
            // change highlight) before the bake is shown
            if (c.progress.run_first_stage >= 0)
                std::snprintf(line, sizeof line, "stages done in %.1f s; building the layers  %.1f s",
                              std::chrono::duration<double>(c.progress.layers_since - c.progress.busy_since).count(), secs(c.progress.layers_since));
            else
                std::snprintf(line, sizeof line, "building the layers  %.1f s", secs(c.progress.layers_since));
        } else {
            std::snprintf(line, sizeof line, "%s %.1f s",
                          c.pub.mesh_pending ? "loading the mesh" : c.progress.run_first_stage >= 0 ? "finishing the bake" : "preparing the bake",
                          secs(c.progress.busy_since));
        }
        if (panel) ImGui::TextWrapped("%s", line);
        else ImGui::TextUnformatted(line);
    } else if (c.pub.cancelled) {
        if (ImGui::SmallButton(panel ? "Re-bake##panel" : "Re-bake##view")) {
            c.pub.cancelled = false;
            c.worker.request(c.edit.desired, c.edit.run_to);
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Build with the current parameters again.");
    }
}

void tile_labels(const PanelContext& c, ImDrawList* fg, float W, float H) {
    // tile ids over the tiles layer, where a tile is wide enough on screen to hold its label
    if (!c.layers[static_cast<size_t>(r::Layer::Tiles)] || !c.pub.bake || !c.pub.bake->tiled()) return;
    const nav::Bake& b = *c.pub.bake;
    const nav::BakeConfig& cfg = b.config;
    const float y = cfg.bmax[1] + 0.02f * std::max(1.0f, cfg.bmax[1] - cfg.bmin[1]);
    auto screen = [&](float x, float z, ImVec2& p) {
        const glm::vec4 q = c.view.view_proj * glm::vec4(x, y, z, 1.0f);
        if (q.w <= 0.0f) return false;
        p = ImVec2((q.x / q.w * 0.5f + 0.5f) * W, (0.5f - q.y / q.w * 0.5f) * H);
        return true;
    };
    for (int tz = 0; tz < b.layout.rows; ++tz)
        for (int tx = 0; tx < b.layout.cols; ++tx) {
            float box[4];
            nav::tile_box(cfg, b.layout, tx, tz, box);
            ImVec2 a, e, m;
            if (!screen(box[0], box[1], a) || !screen(box[2], box[3], e) ||
                !screen(0.5f * (box[0] + box[2]), 0.5f * (box[1] + box[3]), m))
                continue;
            char id[24];
            std::snprintf(id, sizeof id, "%d,%d", tx, tz);
            const ImVec2 ts = ImGui::CalcTextSize(id);
            if (std::hypot(e.x - a.x, e.y - a.y) < 2.0f * ts.x || m.x < c.view.rect.x || m.x > c.view.rect.x + c.view.rect.w) continue;
            const bool sel = c.sel.tile && c.sel.tile->first == tx && c.sel.tile->second == tz;
            fg->AddText(ImVec2(m.x - ts.x * 0.5f + 1, m.y - ts.y * 0.5f + 1), IM_COL32(0, 0, 0, 200), id);
            fg->AddText(ImVec2(m.x - ts.x * 0.5f, m.y - ts.y * 0.5f), sel ? IM_COL32(255, 200, 40, 255) : IM_COL32(240, 240, 248, 230), id);
        }
}

}  // namespace navdebug
