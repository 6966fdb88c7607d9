// The right panel (panels.h): Stages, timings, the tools' panels, inspector, islands, areas, path,
// path tests, log; the Why panel and the Tile section.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "areas_state.h"
#include "edit_state.h"
#include "map2d_view.h"
#include "panel_fit.h"
#include "panels.h"
#include "panels_path_tests.h"
#include "published_bake.h"
#include "selection.h"
#include "session.h"
#include "tile_tool.h"
#include "ui_common.h"
#include "worker.h"

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

PanelActions right_panel(const PanelContext& c, float W, float H) {
    PanelActions asked;
    // resizable by its left edge; kept against the window's right edge at last frame's width
    const float w = std::clamp(W * 0.25f, 280.0f, 380.0f);
    const float cur = c.panels.right_size > 0.0f ? c.panels.right_size : w;
    ImGui::SetNextWindowPos(ImVec2(W - cur, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, H), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(220.0f, H), ImVec2(std::max(W * 0.45f, 220.0f), H));
    ImGui::SetNextWindowBgAlpha(0.90f);
    ImGui::Begin("Bake", nullptr, ImGuiWindowFlags_NoMove);
    c.panels.right_size = ImGui::GetWindowWidth();
    c.panels.right_w = ImGui::IsWindowCollapsed() ? 0.0f : c.panels.right_size;

    bake_summary(c.pub.bake.get(), c.worker.busy());

    if (ImGui::CollapsingHeader("Stages", ImGuiTreeNodeFlags_DefaultOpen)) {
        TimelineInput in;
        in.bake = c.pub.raw.get();
        in.desired = &c.edit.desired.params;
        in.volumes_changed = c.pub.raw && (c.edit.desired.volumes != c.pub.raw->inputs.volumes ||
                                           c.edit.desired.obstacles != c.pub.raw->inputs.obstacles ||
                                           c.edit.desired.links != c.pub.raw->inputs.links);
        in.mesh_pending = c.pub.mesh_pending;
        in.busy = c.worker.busy();
        in.building = c.worker.building_stage();
        in.target = c.edit.run_to;
        if (c.map2d.scene() && c.map2d.scene()->detour)
            in.unavailable = "Not available: a Detour navmesh is loaded, not baked (no input mesh to run the stages "
                             "on; the parameters do not re-bake it).";
        bake_status(c, true);
        ImGui::PushID("timeline");
        c.panels.timeline.panel(in, c.edit.run_to);
        ImGui::PopID();
        if (c.pub.raw && c.pub.raw->tiled()) tile_times_text(*c.pub.raw);
    }
    if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("timings");
        c.panels.timings.panel(c.pub.raw.get());
        ImGui::PopID();
    }

    tool_picker(c.sel);
    if (c.pub.raw && c.pub.raw->tiled() &&
        ImGui::CollapsingHeader("Tile", c.sel.tile ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        ImGui::PushID("tile");
        tile_section(*c.pub.raw, c.sel, c.worker, c.log);
        ImGui::PopID();
    }
    if ((c.sel.tool == Selection::Tool::Obstacle || !c.edit.desired.obstacles.empty()) && !c.map2d.scene() &&
        ImGui::CollapsingHeader("Obstacles", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("obstacles");
        c.sel.obstacle.panel(c.edit.desired.obstacles);
        ImGui::PopID();
    }
    if (c.sel.tool == Selection::Tool::Volume && !c.map2d.scene() && ImGui::CollapsingHeader("Volumes", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("volumes");
        c.sel.volume.panel(c.edit.desired.volumes, c.edit.desired.areas);
        ImGui::PopID();
    }
    if ((c.sel.tool == Selection::Tool::Link || !c.edit.desired.links.empty()) && !c.map2d.scene() &&
        ImGui::CollapsingHeader("Links", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("links");
        c.sel.link.panel(c.edit.desired.links, c.edit.desired.areas, c.edit.desired.params.f(nav::ParamId::agent_radius));
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("Inspector", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("inspector");
        c.sel.inspector.panel();
        ImGui::PopID();
    }
    // open while a prune is set or the islands layer is shown, until the user folds it
    const bool islands_open = c.edit.desired.prune.has_value() || c.layers[static_cast<size_t>(r::Layer::Islands)];
    if (ImGui::CollapsingHeader("Islands", islands_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        ImGui::PushID("islands");
        c.edit.islands.panel(c.pub.bake.get(), c.edit.desired.prune);
        ImGui::PopID();
        // a new prune's result (kept, disabled, or a point off the navmesh) scrolls into sight once
        if (c.pub.bake && c.pub.bake->prune.point && c.pub.bake.get() != c.panels.prune_shown.get()) ImGui::SetScrollHereY(1.0f);
    }
    c.panels.prune_shown = c.pub.bake && c.pub.bake->prune.point ? c.pub.bake : nullptr;
    if (ImGui::CollapsingHeader("Areas", c.areas.open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        ImGui::PushID("areas");
        if (areas_panel(c.areas)) asked.push_back(ask::SetAreas{c.areas.edit});
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("Path", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("pathtool");
        if (c.sel.path.failed(nav::WhyPath::kDetourRatio) && !c.map2d.scene()) {
            const bool explain = ImGui::Button("Why?");
            const bool hovered = ImGui::IsItemHovered();
            ImGui::SameLine();
            ImGui::TextColored(kWarnColor, "the path fails or detours");
            if (explain) {
                c.sel.why.set_path(c.sel.path.start(), c.sel.path.end());
                c.log.info("why: explaining the path");
            }
            if (hovered)
                ImGui::SetTooltip("Why can't the start reach the end: the two islands, the gap between them, what\n"
                                  "lost the gap and a verified fix; for a long detour, what blocks the straight\n"
                                  "line (Why panel).");
        }
        c.sel.path.ui();
        if (c.sel.path.mode() == PathTool::Mode::Path) c.sel.optimal.ui();
        ImGui::PopID();
    }
    // a file just opened (--path-tests, the field): the section opens and scrolls to the top once
    const bool reveal = c.sel.path_tests.take_reveal();
    if (reveal) ImGui::SetNextItemOpen(true);
    if (!c.map2d.scene() && ImGui::CollapsingHeader("Path tests")) {
        if (reveal) ImGui::SetScrollHereY(0.0f);
        ImGui::PushID("pathtests");
        path_tests_section(c.sel, c.layers, c.pub.bake ? c.pub.bake->navmesh : nullptr, c.edit.desired.areas, c.log);
        ImGui::PopID();
    }

    log_panel(c.panels, c.log);
    if (c.headless) report_overflow(c.log, "right", window_overflow());  // panel_fit.h
    ImGui::End();
    return asked;
}

PanelActions why_window(const PanelContext& c, float W, float H) {
    PanelActions asked;
    if (!c.sel.why.active() && c.sel.tool != Selection::Tool::Why) return asked;
    // over the lower part of the left panel (the layers' settings), so the view stays clear for the
    // culprits; it grows upwards with the story and folds by its title bar
    const float w = std::clamp(c.panels.left_w - 8.0f, 320.0f, std::max(W * 0.4f, 320.0f));
    ImGui::SetNextWindowPos(ImVec2(4.0f, H - 4.0f), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0.0f), ImVec2(w, H * 0.75f));
    ImGui::SetNextWindowBgAlpha(1.0f);
    if (ImGui::Begin("Why?", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        const WhyTool::Action act = c.sel.why.panel();
        if (act.show_stage) asked.push_back(ask::ShowStage{*act.show_stage});
        if (act.apply) asked.push_back(ask::ApplyFix{*act.apply});
        if (c.headless) report_overflow(c.log, "Why?", window_overflow());  // panel_fit.h
    }
    ImGui::End();
    return asked;
}

void tile_section(const nav::Bake& b, Selection& sel, BakeWorker& worker, Log& log) {
    const int idx = sel.tile ? tile_index(b, *sel.tile) : -1;
    if (ImGui::Checkbox("only selected tile", &sel.tile_only) && sel.tile_only && idx < 0)
        log.warn("only selected tile: select a tile first (Click: tile)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Draw every per-grid layer (voxels .. detail) for the selected tile only, on its\n"
                          "bordered grid; the input, navmesh, islands and tiles layers stay whole.");
    if (idx < 0) {
        ImGui::TextWrapped(sel.tile ? "The selected tile is outside this bake's %d x %d tiles."
                                    : "No tile selected: choose Click: tile and click the level (%d x %d tiles).",
                           b.layout.cols, b.layout.rows);
        return;
    }
    const nav::TileBake* t = b.tiles[static_cast<size_t>(idx)].get();
    ImGui::Text("tile %d,%d  (index %d of %d x %d)", sel.tile->first, sel.tile->second, idx, b.layout.cols, b.layout.rows);
    float box[4];
    nav::tile_box(b.config, b.layout, sel.tile->first, sel.tile->second, box);
    ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);  // wrapped: these lines are wider than a 1280 x 800 panel
    ImGui::TextWrapped("box x %.1f..%.1f  z %.1f..%.1f m, border %d cells", box[0], box[2], box[1], box[3], b.layout.border);
    ImGui::PopStyleColor();
    const bool busy = worker.busy();
    if (ImGui::Button("Rebuild tile")) {
        worker.rebuild_tile(*sel.tile);
        log.info("rebuilding tile " + std::to_string(sel.tile->first) + "," + std::to_string(sel.tile->second));
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
