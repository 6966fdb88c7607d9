#include "timings.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace navdebug {

void Timings::record(const nav::Bake& bake) {
    if (bake.generation == last_generation_ || bake.stages_run.empty()) return;
    last_generation_ = bake.generation;
    double total = 0;
    for (nav::Stage s : bake.stages_run) total += bake.stats[static_cast<size_t>(s)].ms;
    ring_[static_cast<size_t>(head_)] = static_cast<float>(total);
    head_ = (head_ + 1) % kHistory;
    count_ = std::min(count_ + 1, kHistory);
}

void Timings::panel(const nav::Bake* bake) {
    const float w = ImGui::GetContentRegionAvail().x;
    // ---- stage bars: each stage's time in its last build (kept stages keep their old time) ----
    float max_ms = 0;
    for (int s = 0; s < nav::kStageCount; ++s) {
        const nav::StageStats* st = bake ? &bake->stats[static_cast<size_t>(s)] : nullptr;
        stage_ms_[static_cast<size_t>(s)] = st && (st->built || bake->error_stage == s) ? static_cast<float>(st->ms) : 0.0f;
        max_ms = std::max(max_ms, stage_ms_[static_cast<size_t>(s)]);
    }
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "stage ms (max %.1f)", max_ms);
    ImGui::PlotHistogram("##stage_ms", stage_ms_.data(), nav::kStageCount, 0, overlay, 0.0f,
                         std::max(max_ms * 1.15f, 0.01f), ImVec2(w, 70.0f));
    const ImVec2 r0 = ImGui::GetItemRectMin(), r1 = ImGui::GetItemRectMax();
    const float inner0 = r0.x + ImGui::GetStyle().FramePadding.x, inner1 = r1.x - ImGui::GetStyle().FramePadding.x;
    const float bar_w = (inner1 - inner0) / static_cast<float>(nav::kStageCount);
    if (ImGui::IsItemHovered()) {
        const int i = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - inner0) / bar_w), 0, nav::kStageCount - 1);
        const auto st = static_cast<nav::Stage>(i);
        const bool ran = bake && std::find(bake->stages_run.begin(), bake->stages_run.end(), st) != bake->stages_run.end();
        ImGui::SetTooltip("%s: %.2f ms%s", std::string(nav::stage_name(st)).c_str(), stage_ms_[static_cast<size_t>(i)],
                          ran ? " (rebuilt by the last bake)" : " (kept from an earlier bake)");
    }
    // two-letter labels under the bars
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float y = ImGui::GetCursorScreenPos().y;
    for (int i = 0; i < nav::kStageCount; ++i) {
        const std::string_view n = nav::kStageNames[static_cast<size_t>(i)];
        const char label[3] = {n[0], n.size() > 1 ? n[1] : ' ', 0};
        const ImVec2 ts = ImGui::CalcTextSize(label);
        dl->AddText(ImVec2(inner0 + bar_w * (static_cast<float>(i) + 0.5f) - ts.x * 0.5f, y),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
    }
    ImGui::Dummy(ImVec2(w, ImGui::GetTextLineHeight()));

    // ---- history of total bake time ----
    if (count_ == 0) {
        ImGui::TextDisabled("no bake recorded yet");
        return;
    }
    float lo = total_ms(0), hi = lo, sum = 0;
    for (int i = 0; i < count_; ++i) {
        const float v = total_ms(i);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
    }
    std::snprintf(overlay, sizeof overlay, "total ms, last %d bakes", count_);
    // oldest first: PlotLines reads values_offset as the index of the first value in the ring
    const int offset = count_ < kHistory ? 0 : head_;
    ImGui::PlotLines("##bake_ms", ring_.data(), count_, offset, overlay, 0.0f, std::max(hi * 1.1f, 0.01f), ImVec2(w, 60.0f));
    // wrapped: with bakes of 100 ms and more the line is wider than a 1280 x 800 window's panel
    ImGui::TextWrapped("last %.1f  min %.1f  avg %.1f  max %.1f ms", total_ms(count_ - 1), lo, sum / static_cast<float>(count_), hi);
}

}  // namespace navdebug
