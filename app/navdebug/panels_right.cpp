// App's right panel (Stages, timings, warnings, inspector, islands, path, tiles, log).
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "app.h"
#include "panel_fit.h"
#include "ui_common.h"

namespace navdebug {

namespace r = nav::render;

namespace {

// The bake's line: "baking" while the worker runs, else its number and time; its grid.
void bake_summary(const nav::Bake* b, bool busy) {
    if (busy) {
        const char spin[4] = {'|', '/', '-', '\\'};
        ImGui::TextColored(kWarnColor, "baking %c", spin[static_cast<int>(ImGui::GetTime() * 8.0) & 3]);
    } else if (b) {
        double total = 0;
        for (nav::Stage s : b->stages_run) total += b->stats[static_cast<size_t>(s)].ms;
        ImGui::Text("bake #%llu  %.1f ms", static_cast<unsigned long long>(b->generation), total);
    }
    if (b && b->config.width > 0) {
        ImGui::SameLine();
        ImGui::TextColored(kDimColor, " grid %d x %d", b->config.width, b->config.height);
    }
}

// A tiled bake's per-tile times (the Stages section).
void tile_times_text(const nav::Bake& raw) {
    const TileTimes tt = tile_times(raw);
    if (tt.count > 0) {
        ImGui::Text("per tile (%d / %d tiles):", tt.count, raw.layout.count());
        // wrapped: wider than the panel at 1280 x 800 with times of 100 ms and more
        ImGui::TextWrapped("  min %.2f  median %.2f  max %.2f ms", tt.min_ms, tt.median_ms, tt.max_ms);
        ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
        ImGui::TextWrapped("slowest tile %d,%d; sum of tile times %.1f ms", tt.slowest.first, tt.slowest.second,
                           tt.sum_ms);
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Each tile's wall time for the stages it ran in its last bake; tiles bake in\n"
                              "parallel (threads), so the sum exceeds the bake's wall time.");
    }
}

// "Click in the view:": the tool the left click uses.
void tool_picker(Selection& sel) {
    int t = static_cast<int>(sel.tool);
    // three short rows under their label: at 1280 x 800 one row with the label ran past the panel
    ImGui::TextUnformatted("Click in the view:");
    ImGui::RadioButton("path", &t, static_cast<int>(Selection::Tool::Path));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Left click sets the path end, Shift+click the start.");
    ImGui::SameLine();
    ImGui::RadioButton("inspect", &t, static_cast<int>(Selection::Tool::Inspect));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hover shows the element's tooltip; left click pins it in the inspector.");
    ImGui::SameLine();
    ImGui::RadioButton("prune", &t, static_cast<int>(Selection::Tool::Prune));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Left click keeps only the navmesh reachable from there; the rest is disabled.");
    ImGui::RadioButton("clip to floor", &t, static_cast<int>(Selection::Tool::ClipFloor));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Clip to this floor: left click on a floor keeps only the heights from %.1f m below it\n"
                          "to %.1f m above it (Layers panel, See inside).", kFloorClipBelow, kFloorClipAbove);
    ImGui::SameLine();
    ImGui::RadioButton("section", &t, static_cast<int>(Selection::Tool::Section));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Left click puts a section plane through the surface there, facing you: what is in\n"
                          "front of it is cut away. Drag up / down to move it away / closer.");
    ImGui::RadioButton("tile", &t, static_cast<int>(Selection::Tool::Tile));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Tiled bakes: left click selects the tile under the cursor (Tile panel).");
    ImGui::SameLine();
    ImGui::RadioButton("why?", &t, static_cast<int>(Selection::Tool::Why));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Left click on the level: why is there no navmesh here? The story of the point\n"
                          "through every stage, the stage that lost it and a verified fix (Why panel).");
    ImGui::SameLine();
    ImGui::RadioButton("obstacle", &t, static_cast<int>(Selection::Tool::Obstacle));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Temporary obstacles: left click on the level places one, a press on one grabs it\n"
                          "and dragging moves it, Delete removes the selected one (Obstacles panel). Only the\n"
                          "tiles it touches re-bake.");
    ImGui::RadioButton("volume", &t, static_cast<int>(Selection::Tool::Volume));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Convex volumes: left clicks on the level add points, Enter (or a click on the first\n"
                          "point) makes their convex hull a volume of the Volumes panel's area, Esc drops the\n"
                          "points; a click on a volume selects it, Delete removes it. Only the tiles it\n"
                          "touches re-bake, from the areas stage.");
    ImGui::SameLine();
    ImGui::RadioButton("link", &t, static_cast<int>(Selection::Tool::Link));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Manual off-mesh links: left click on the level sets a link's start, a second click its\n"
                          "end (Esc cancels); a press on a link's end grabs it and dragging moves it; Delete\n"
                          "removes the selected one (Links panel). No tile re-bakes: only the navmesh is relinked.");
    if (t != static_cast<int>(Selection::Tool::Link)) sel.link.cancel();
    sel.tool = static_cast<Selection::Tool>(t);
}

// The log, below the sections: its lines fetched from `log` into the panel's state.
void log_panel(Panels& p, Log& log) {
    ImGui::Separator();
    ImGui::Text("Log");
    ImGui::SameLine(ImGui::GetContentRegionAvail().x - 40.0f);
    if (ImGui::SmallButton("clear")) p.log_lines.clear();
    const size_t before = p.log_lines.size();
    log.fetch(p.log_seen, p.log_lines);
    if (p.log_lines.size() != before) p.log_scroll = true;
    // the rest of the panel, never less than ten lines: the panel scrolls instead of squeezing it
    const float log_h = std::max(ImGui::GetContentRegionAvail().y, 10.0f * ImGui::GetTextLineHeightWithSpacing());
    ImGui::BeginChild("log", ImVec2(0, log_h), true, ImGuiWindowFlags_HorizontalScrollbar);
    for (const LogLine& l : p.log_lines) {
        ImGui::TextColored(kDimColor, "%s", l.stamp.c_str() + 3);  // mm:ss.mmm keeps the panel narrow
        ImGui::SameLine();
        const ImVec4 c = l.level == LogLevel::Error ? kErrorColor
                         : l.level == LogLevel::Warn ? kWarnColor
                                                     : ImGui::GetStyleColorVec4(ImGuiCol_Text);
        ImGui::PushStyleColor(ImGuiCol_Text, c);
        ImGui::TextWrapped("%s", l.text.c_str());
        ImGui::PopStyleColor();
    }
    if (p.log_scroll) {
        ImGui::SetScrollHereY(1.0f);
        p.log_scroll = false;
    }
    ImGui::EndChild();
}

}  // namespace

void App::ui_right_panel(float W, float H) {
    // resizable by its left edge; kept against the window's right edge at last frame's width
    const float w = std::clamp(W * 0.25f, 280.0f, 380.0f);
    const float cur = panels_.right_size > 0.0f ? panels_.right_size : w;
    ImGui::SetNextWindowPos(ImVec2(W - cur, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, H), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(220.0f, H), ImVec2(std::max(W * 0.45f, 220.0f), H));
    ImGui::SetNextWindowBgAlpha(0.90f);
    ImGui::Begin("Bake", nullptr, ImGuiWindowFlags_NoMove);
    panels_.right_size = ImGui::GetWindowWidth();
    panels_.right_w = ImGui::IsWindowCollapsed() ? 0.0f : panels_.right_size;

    bake_summary(pub_.bake.get(), worker_.busy());

    if (ImGui::CollapsingHeader("Stages", ImGuiTreeNodeFlags_DefaultOpen)) {
        TimelineInput in;
        in.bake = pub_.raw.get();
        in.desired = &edit_.desired.params;
        in.volumes_changed = pub_.raw && (edit_.desired.volumes != pub_.raw->inputs.volumes || edit_.desired.obstacles != pub_.raw->inputs.obstacles ||
                                         edit_.desired.links != pub_.raw->inputs.links);
        in.mesh_pending = pub_.mesh_pending;
        in.busy = worker_.busy();
        in.building = worker_.building_stage();
        in.target = edit_.run_to;
        if (map2d_.scene() && map2d_.scene()->detour)
            in.unavailable = "Not available: a Detour navmesh is loaded, not baked (no input mesh to run the stages "
                             "on; the parameters do not re-bake it).";
        bake_status(panel_context(), true);
        ImGui::PushID("timeline");
        panels_.timeline.panel(in, edit_.run_to);
        ImGui::PopID();
        if (pub_.raw && pub_.raw->tiled()) tile_times_text(*pub_.raw);
    }
    if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("timings");
        panels_.timings.panel(pub_.raw.get());
        ImGui::PopID();
    }

    tool_picker(sel_);
    if (pub_.raw && pub_.raw->tiled() &&
        ImGui::CollapsingHeader("Tile", sel_.tile ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        ImGui::PushID("tile");
        ui_tile_panel();
        ImGui::PopID();
    }
    if ((sel_.tool == Selection::Tool::Obstacle || !edit_.desired.obstacles.empty()) && !map2d_.scene() &&
        ImGui::CollapsingHeader("Obstacles", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("obstacles");
        sel_.obstacle.panel(edit_.desired.obstacles);
        ImGui::PopID();
    }
    if (sel_.tool == Selection::Tool::Volume && !map2d_.scene() && ImGui::CollapsingHeader("Volumes", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("volumes");
        sel_.volume.panel(edit_.desired.volumes, edit_.desired.areas);
        ImGui::PopID();
    }
    if ((sel_.tool == Selection::Tool::Link || !edit_.desired.links.empty()) && !map2d_.scene() &&
        ImGui::CollapsingHeader("Links", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("links");
        sel_.link.panel(edit_.desired.links, edit_.desired.areas, edit_.desired.params.f(nav::ParamId::agent_radius));
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("Inspector", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("inspector");
        sel_.inspector.panel();
        ImGui::PopID();
    }
    // open while a prune is set or the islands layer is shown, until the user folds it
    const bool islands_open = edit_.desired.prune.has_value() || opts_.layers[static_cast<size_t>(r::Layer::Islands)];
    if (ImGui::CollapsingHeader("Islands", islands_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        ImGui::PushID("islands");
        edit_.islands.panel(pub_.bake.get(), edit_.desired.prune);
        ImGui::PopID();
        // a new prune's result (kept, disabled, or a point off the navmesh) scrolls into sight once
        if (pub_.bake && pub_.bake->prune.point && pub_.bake.get() != panels_.prune_shown.get()) ImGui::SetScrollHereY(1.0f);
    }
    panels_.prune_shown = pub_.bake && pub_.bake->prune.point ? pub_.bake : nullptr;
    if (ImGui::CollapsingHeader("Areas", areas_.open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        ImGui::PushID("areas");
        if (areas_panel(areas_)) {
            const nav::AreaTable t = areas_.edit;
            set_areas(t);
        }
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("Path", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("pathtool");
        if (sel_.path.failed(nav::WhyPath::kDetourRatio) && !map2d_.scene()) {
            const bool ask = ImGui::Button("Why?");
            const bool hovered = ImGui::IsItemHovered();
            ImGui::SameLine();
            ImGui::TextColored(kWarnColor, "the path fails or detours");
            if (ask) {
                sel_.why.set_path(sel_.path.start(), sel_.path.end());
                log_.info("why: explaining the path");
            }
            if (hovered)
                ImGui::SetTooltip("Why can't the start reach the end: the two islands, the gap between them, what\n"
                                  "lost the gap and a verified fix; for a long detour, what blocks the straight\n"
                                  "line (Why panel).");
        }
        sel_.path.ui();
        if (sel_.path.mode() == PathTool::Mode::Path) sel_.optimal.ui();
        ImGui::PopID();
    }
    // a file just opened (--path-tests, the field): the section opens and scrolls to the top once
    const bool reveal = sel_.path_tests.take_reveal();
    if (reveal) ImGui::SetNextItemOpen(true);
    if (!map2d_.scene() && ImGui::CollapsingHeader("Path tests")) {
        if (reveal) ImGui::SetScrollHereY(0.0f);
        ImGui::PushID("pathtests");
        path_tests_section(sel_, opts_.layers, pub_.bake ? pub_.bake->navmesh : nullptr, edit_.desired.areas, log_);
        ImGui::PopID();
    }

    log_panel(panels_, log_);
    if (opts_.headless) report_overflow(log_, "right", window_overflow());  // panel_fit.h
    ImGui::End();
}

void App::ui_why_window(float W, float H) {
    if (!sel_.why.active() && sel_.tool != Selection::Tool::Why) return;
    // over the lower part of the left panel (the layers' settings), so the view stays clear for the
    // culprits; it grows upwards with the story and folds by its title bar
    const float w = std::clamp(panels_.left_w - 8.0f, 320.0f, std::max(W * 0.4f, 320.0f));
    ImGui::SetNextWindowPos(ImVec2(4.0f, H - 4.0f), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0.0f), ImVec2(w, H * 0.75f));
    ImGui::SetNextWindowBgAlpha(1.0f);
    if (ImGui::Begin("Why?", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        const WhyTool::Action act = sel_.why.panel();
        if (act.show_stage) show_stage(*act.show_stage);
        if (act.apply) apply_fix(*act.apply);
        if (opts_.headless) report_overflow(log_, "Why?", window_overflow());  // panel_fit.h
    }
    ImGui::End();
}

void App::ui_tile_panel() {
    const nav::Bake& b = *pub_.raw;
    const int idx = sel_.tile ? tile_index(b, *sel_.tile) : -1;
    if (ImGui::Checkbox("only selected tile", &sel_.tile_only) && sel_.tile_only && idx < 0)
        log_.warn("only selected tile: select a tile first (Click: tile)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Draw every per-grid layer (voxels .. detail) for the selected tile only, on its\n"
                          "bordered grid; the input, navmesh, islands and tiles layers stay whole.");
    if (idx < 0) {
        ImGui::TextWrapped(sel_.tile ? "The selected tile is outside this bake's %d x %d tiles."
                                     : "No tile selected: choose Click: tile and click the level (%d x %d tiles).",
                           b.layout.cols, b.layout.rows);
        return;
    }
    const nav::TileBake* t = b.tiles[static_cast<size_t>(idx)].get();
    ImGui::Text("tile %d,%d  (index %d of %d x %d)", sel_.tile->first, sel_.tile->second, idx, b.layout.cols, b.layout.rows);
    float box[4];
    nav::tile_box(b.config, b.layout, sel_.tile->first, sel_.tile->second, box);
    ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);  // wrapped: these lines are wider than a 1280 x 800 panel
    ImGui::TextWrapped("box x %.1f..%.1f  z %.1f..%.1f m, border %d cells", box[0], box[2], box[1], box[3], b.layout.border);
    ImGui::PopStyleColor();
    const bool busy = worker_.busy();
    if (ImGui::Button("Rebuild tile")) {
        worker_.rebuild_tile(*sel_.tile);
        log_.info("rebuilding tile " + std::to_string(sel_.tile->first) + "," + std::to_string(sel_.tile->second));
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Re-bake this tile alone, every stage from rasterize on.");
    if (!t) {
        ImGui::TextColored(kWarnColor, "%s", busy ? "not baked yet (baking)" : "not baked");
        return;
    }
    ImGui::SameLine();
    ImGui::Text("last bake %.2f ms", t->ms);
    ImGui::TextWrapped("spans %lld  regions %lld  polys %lld", static_cast<long long>(t->count("solid_spans")),
                static_cast<long long>(t->count("regions")), static_cast<long long>(t->count("polys")));
    ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
    ImGui::TextWrapped("compact spans %lld  contours %lld  detail tris %lld", static_cast<long long>(t->count("compact_spans")),
                       static_cast<long long>(t->count("contours")), static_cast<long long>(t->count("detail_tris")));
    ImGui::PopStyleColor();
    if (b.error_tile == idx) ImGui::TextColored(kErrorColor, "this tile failed: %s", b.error.message.c_str());
    if (ImGui::BeginTable("tile_stages", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        for (int s = static_cast<int>(nav::Stage::Rasterize); s <= static_cast<int>(nav::kLastStage); ++s) {
            const nav::StageStats& st = t->stats[static_cast<size_t>(s)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(std::string(nav::kStageNames[static_cast<size_t>(s)]).c_str());
            ImGui::TableNextColumn();
            if (st.built) ImGui::Text("%.2f ms", st.ms);
            else ImGui::TextColored(kDimColor, "-");
        }
        ImGui::EndTable();
    }
}

}  // namespace navdebug
