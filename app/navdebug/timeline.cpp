#include "timeline.h"
#include "panel_fit.h"
#include "ui_common.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace navdebug {

namespace {

ImVec4 state_color(StageState s) {
    switch (s) {
        case StageState::Clean: return {0.40f, 0.85f, 0.45f, 1.0f};
        case StageState::Dirty: return {1.0f, 0.75f, 0.25f, 1.0f};
        case StageState::NotBuilt: return {0.42f, 0.44f, 0.50f, 1.0f};
        case StageState::Building: return {0.35f, 0.65f, 1.0f, 1.0f};
        case StageState::Failed: return {1.0f, 0.35f, 0.32f, 1.0f};
    }
    return {1, 1, 1, 1};
}

// The count shown on the timeline row of each stage (the first one when a stage lacks it).
constexpr const auto& kKeyCount = nav::kStageKeyCounts;

// Every count of a stage, one per line (inside a tooltip).
void count_lines(const nav::StageStats& stats) {
    for (const nav::StageCount& c : stats.counts) ImGui::Text("%s %s", std::string(c.name).c_str(), fmt_count(c.value).c_str());
}

}  // namespace

const char* state_name(StageState s) {
    switch (s) {
        case StageState::Clean: return "clean";
        case StageState::Dirty: return "dirty";
        case StageState::NotBuilt: return "not built";
        case StageState::Building: return "building";
        case StageState::Failed: return "FAILED";
    }
    return "?";
}

std::array<StageState, nav::kStageCount> stage_states(const TimelineInput& in) {
    std::array<StageState, nav::kStageCount> out{};
    const nav::Bake* b = in.bake;
    // the earliest stage whose result no longer matches what the UI wants
    int stale_from = nav::kStageCount;
    if (b && in.desired) {
        for (const nav::ParamDef& d : nav::param_table())
            if (!nav::dirties_no_stage(d.id) && in.desired->get(d.id) != b->inputs.params.get(d.id)) stale_from = std::min(stale_from, static_cast<int>(d.stage));
    }
    if (in.volumes_changed) stale_from = std::min(stale_from, static_cast<int>(nav::Stage::Areas));
    if (in.mesh_pending) stale_from = 0;
    const bool failed = b && !b->error.is_ok() && b->error.code != nav::Status::Code::Cancelled;
    for (int s = 0; s < nav::kStageCount; ++s) {
        StageState st;
        if (in.busy && in.building == s) st = StageState::Building;
        else if (failed && b->error_stage == s) st = StageState::Failed;
        else if (!b || !b->stats[static_cast<size_t>(s)].built || s > b->built_through) st = StageState::NotBuilt;
        else if (s >= stale_from) st = StageState::Dirty;
        else st = StageState::Clean;
        out[static_cast<size_t>(s)] = st;
    }
    return out;
}

void Timeline::panel(const TimelineInput& in, nav::Stage& target) {
    const auto states = stage_states(in);
    const int t = static_cast<int>(target);
    const nav::Bake* b = in.bake;
    if (in.unavailable) ImGui::TextWrapped("%s", in.unavailable);
    ImGui::BeginDisabled(in.unavailable != nullptr);  // greyed: nothing to step through or build
    struct EndDisabled {
        ~EndDisabled() { ImGui::EndDisabled(); }
    } end_disabled;

    ImGui::BeginDisabled(t == 0);
    if (ImGui::Button("< Prev")) target = static_cast<nav::Stage>(t - 1);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Step back one stage: the view shows the pipeline as it was after it.");
    ImGui::SameLine();
    ImGui::BeginDisabled(t == nav::kStageCount - 1);
    if (ImGui::Button("Next >")) target = static_cast<nav::Stage>(t + 1);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Build one stage further.");
    ImGui::SameLine();
    if (ImGui::Button("Build all")) target = nav::kLastStage;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Build every stage through the navmesh.");
    ImGui::SameLine();
    ImGui::Checkbox("counts", &show_counts_);

    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("timeline", show_counts_ ? 5 : 4, flags)) {
        ImGui::TableSetupColumn("##go");
        ImGui::TableSetupColumn("stage");
        ImGui::TableSetupColumn("state");
        ImGui::TableSetupColumn("ms");
        if (show_counts_) ImGui::TableSetupColumn("counts", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (int s = 0; s < nav::kStageCount; ++s) {
            const auto stage = static_cast<nav::Stage>(s);
            const StageState st = states[static_cast<size_t>(s)];
            const nav::StageStats* stats = b ? &b->stats[static_cast<size_t>(s)] : nullptr;
            const bool beyond = s > t;
            ImGui::PushID(s);
            ImGui::TableNextRow();
            if (s == t) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(70, 90, 140, 110));
            ImGui::TableNextColumn();
            if (ImGui::SmallButton(">")) target = stage;
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Build to here: bake through %s and show the pipeline as it is after it.",
                                  std::string(nav::stage_name(stage)).c_str());
            ImGui::TableNextColumn();
            // state badge
            const ImVec4 col = state_color(st);
            ImVec2 p = ImGui::GetCursorScreenPos();
            const float sz = ImGui::GetTextLineHeight() * 0.7f;
            const float dy = (ImGui::GetTextLineHeight() - sz) * 0.5f;
            ImDrawList* dl = ImGui::GetWindowDrawList();
            if (st == StageState::Building) {
                const float a = static_cast<float>(ImGui::GetTime()) * 6.0f;
                dl->PathArcTo(ImVec2(p.x + sz * 0.5f, p.y + dy + sz * 0.5f), sz * 0.5f, a, a + 4.2f, 12);
                dl->PathStroke(ImGui::GetColorU32(col), 0, 2.0f);
            } else {
                dl->AddRectFilled(ImVec2(p.x, p.y + dy), ImVec2(p.x + sz, p.y + dy + sz), ImGui::GetColorU32(col), 2.0f);
            }
            ImGui::Dummy(ImVec2(sz, ImGui::GetTextLineHeight()));
            ImGui::SameLine();
            const ImVec4 text = beyond ? kDimColor : ImGui::GetStyleColorVec4(ImGuiCol_Text);
            ImGui::TextColored(text, "%s", std::string(nav::stage_name(stage)).c_str());
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                ImGui::Text("%s: %s%s", std::string(nav::stage_name(stage)).c_str(), state_name(st),
                            beyond ? " (beyond the target stage)" : "");
                if (stats) count_lines(*stats);
                ImGui::EndTooltip();
            }
            ImGui::TableNextColumn();
            ImGui::TextColored(col, "%s", state_name(st));
            ImGui::TableNextColumn();
            const bool timed = stats && (stats->built || st == StageState::Failed);
            if (timed) ImGui::Text(stats->ms < 10 ? "%.2f" : "%.1f", stats->ms);
            else ImGui::TextDisabled("-");
            if (show_counts_) {
                ImGui::TableNextColumn();
                if (st == StageState::Failed) {
                    ImGui::TextColored(col, "error (below)");
                    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", b->error.message.c_str());
                } else if (stats && stats->built && s <= b->built_through && !stats->counts.empty()) {
                    // one line: the stage's main count (every count in the stage name's tooltip)
                    const nav::StageCount* key = &stats->counts.front();
                    for (const nav::StageCount& c : stats->counts)
                        if (c.name == kKeyCount[static_cast<size_t>(s)]) key = &c;
                    // the name shortened to the column (a narrow panel), the count kept whole
                    const std::string count = fmt_count(key->value);
                    ImGui::TextUnformatted(
                        fit_text(count + " " + std::string(key->name),
                                 ImGui::GetContentRegionAvail().x - 2.0f * ImGui::GetStyle().CellPadding.x, count.size())
                            .c_str());
                    if (ImGui::IsItemHovered()) {
                        ImGui::BeginTooltip();
                        count_lines(*stats);
                        ImGui::EndTooltip();
                    }
                }
            }
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    // the failure in full under the table (the counts column may be hidden or narrow)
    if (b && b->error_stage >= 0 && states[static_cast<size_t>(b->error_stage)] == StageState::Failed) {
        ImGui::PushStyleColor(ImGuiCol_Text, state_color(StageState::Failed));
        ImGui::TextWrapped("%s failed: %s", std::string(nav::kStageNames[static_cast<size_t>(b->error_stage)]).c_str(),
                           b->error.message.c_str());
        ImGui::PopStyleColor();
        if (b->error_stage > 0)
            ImGui::TextDisabled("The stages before it keep their results and stay drawn.");
    }
}

}  // namespace navdebug
