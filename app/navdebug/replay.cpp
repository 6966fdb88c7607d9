#include "replay.h"
#include "ui_common.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "render/layers.h"
#include "render/replay_draw.h"

namespace navdebug {

namespace {

const char* kind_name(nav::RegionTrace::Kind k) {
    switch (k) {
        case nav::RegionTrace::Kind::Watershed: return "watershed";
        case nav::RegionTrace::Kind::Monotone: return "monotone";
        case nav::RegionTrace::Kind::Layers: return "layers";
    }
    return "?";
}

void legend_entry(uint32_t color, const char* label) {
    ImGui::ColorButton(label, to_imvec(color, true), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoBorder,
                       ImVec2(10, 10));
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
}

}  // namespace

bool RegionReplay::parse_flag(const std::string& text, std::string& err) {
    const size_t eq = text.find('=');
    const std::string kind = text.substr(0, eq), value = eq == std::string::npos ? std::string() : text.substr(eq + 1);
    nav::RegionTrace::Kind k;
    if (kind == "watershed") k = nav::RegionTrace::Kind::Watershed;
    else if (kind == "monotone") k = nav::RegionTrace::Kind::Monotone;
    else if (kind == "layers") k = nav::RegionTrace::Kind::Layers;
    else {
        err = "--replay: expected watershed=LEVEL, monotone=STEP or layers=STEP, got '" + text + "'";
        return false;
    }
    int step = -1;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), step);
    if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || step < 0) {
        err = "--replay: expected " + kind + "=N with N a step number 0, 1, 2, ... (0 = the first " +
              (k == nav::RegionTrace::Kind::Watershed ? "flood level" : "swept row") +
              "; past the last step: the final regions), got '" + text + "'";
        return false;
    }
    kind_ = k;
    kind_given_ = true;
    step_ = step;
    follow_end_ = false;
    wanted_ = true;
    return true;
}

int RegionReplay::step_for(int total) const { return std::clamp(follow_end_ ? total - 1 : step_, 0, std::max(total - 1, 0)); }

void RegionReplay::refresh_stats(const nav::Bake& bake) {
    const nav::RegionTrace* t = bake.region_trace.get();
    if (t == stats_trace_ && bake.region_trace == stats_hold_) return;
    stats_hold_ = bake.region_trace;
    stats_trace_ = t;
    if (!t) return;
    const size_t n = static_cast<size_t>(t->step_count());
    reached_upto_.assign(n, 0);
    seeded_upto_.assign(n, 0);
    walkable_spans_ = 0;
    spans_after_filter_ = 0;
    for (size_t i = 0; i < t->span_step.size(); ++i) {
        const uint32_t s = t->span_step[i];
        if (s == nav::RegionTrace::kNotReached) continue;
        if (s < n) ++reached_upto_[s];
        const uint16_t pre = t->pre_reg[i];
        const bool removed = !(pre & nav::kBorderRegion) && pre < t->removed.size() && t->removed[pre];
        if (!removed) ++spans_after_filter_;
    }
    if (bake.areas)
        for (uint8_t a : *bake.areas) walkable_spans_ += a != nav::kNullArea;
    regions_after_filter_ = 0;
    for (size_t id = 1; id < t->seeds.size(); ++id) {
        const nav::RegionTrace::Seed& s = t->seeds[id];
        if (s.span == nav::RegionTrace::kNoSeedSpan) continue;
        if (s.step < n) ++seeded_upto_[s.step];
        if (!t->removed[id]) ++regions_after_filter_;
    }
    for (size_t k = 1; k < n; ++k) {
        reached_upto_[k] += reached_upto_[k - 1];
        seeded_upto_[k] += seeded_upto_[k - 1];
    }
}

void RegionReplay::panel(const nav::Bake* bake) {
    ImGui::Separator();
    bool on = wanted_;
    if (ImGui::Checkbox("Replay regions", &on)) {
        wanted_ = on;
        playing_ = false;
        if (on && !kind_given_) follow_end_ = false;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Step through how the partition grew its regions (replaces the regions layer):\n"
                          "watershed: the flood level by level, then the small-region filter and the merge;\n"
                          "monotone / layers: the row sweep, then filter and merge.\n"
                          "Recording the trace re-runs the regions stage.");
    if (!wanted_) return;
    if (!bake || !bake->regions) {
        ImGui::TextDisabled("bake through the regions stage to replay it");
        return;
    }
    if (!bake->region_trace) {
        ImGui::TextDisabled("recording the partition...");
        return;
    }
    refresh_stats(*bake);
    const nav::RegionTrace& t = *bake->region_trace;
    const int growth = t.step_count();
    const int total = nav::render::replay_step_count(t);
    int shown = step_for(total);
    if (kind_given_ && t.kind != kind_)
    {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
        ImGui::TextWrapped("--replay asked for %s but the bake partitions by %s (parameter partition)", kind_name(kind_),
                           kind_name(t.kind));
        ImGui::PopStyleColor();
    }

    // play / pause, single steps, the slider
    if (playing_) {
        play_clock_ += ImGui::GetIO().DeltaTime * steps_per_second_;
        const int adv = static_cast<int>(play_clock_);
        if (adv > 0) {
            play_clock_ -= static_cast<float>(adv);
            shown = std::min(shown + adv, total - 1);
            step_ = shown;
            follow_end_ = false;
        }
        if (shown >= total - 1) playing_ = false;
        else glfwPostEmptyEvent();  // keep frames coming while it plays
    }
    if (ImGui::Button(playing_ ? "Pause" : "Play")) {
        if (!playing_ && shown >= total - 1) shown = 0;  // play again from the start
        playing_ = !playing_;
        play_clock_ = 0.0f;
        step_ = shown;
        follow_end_ = false;
    }
    ImGui::SameLine();
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left) && shown > 0) {
        step_ = --shown;
        follow_end_ = false;
        playing_ = false;
    }
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right) && shown < total - 1) {
        step_ = ++shown;
        follow_end_ = false;
        playing_ = false;
    }
    ImGui::SameLine();
    if (ImGui::Button("End")) {
        step_ = shown = total - 1;
        follow_end_ = true;
        playing_ = false;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::SliderFloat("##speed", &steps_per_second_, 1.0f, 30.0f, "%.0f steps/s");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderInt("##step", &shown, 0, total - 1, "step %d")) {
        step_ = shown;
        follow_end_ = shown == total - 1;
        playing_ = false;
    }

    // what the step shows
    const bool ws = t.kind == nav::RegionTrace::Kind::Watershed;
    ImGui::Text("%s: step %d of 0..%d", kind_name(t.kind), shown, total - 1);
    switch (nav::render::replay_phase(t, shown)) {
        case nav::render::ReplayPhase::Growth: {
            const size_t k = static_cast<size_t>(shown);
            if (ws && shown == growth - 1)
                ImGui::Text("final expansion (level 0)");
            else if (ws)
                ImGui::Text("flood level %u (distance field max %u)", t.step_value[k],
                            bake->distance ? static_cast<unsigned>(bake->distance->max_dist) : 0u);
            else
                ImGui::Text("sweep row z = %u", t.step_value[k]);
            ImGui::Text("spans reached: %lld of %lld", static_cast<long long>(reached_upto_[k]),
                        static_cast<long long>(walkable_spans_));
            ImGui::Text("regions so far: %d", seeded_upto_[k]);
            break;
        }
        case nav::render::ReplayPhase::Filter:
            ImGui::Text("filter: groups under region_min_size dropped");
            ImGui::Text("spans kept: %lld of %lld", static_cast<long long>(spans_after_filter_),
                        static_cast<long long>(walkable_spans_));
            ImGui::Text("regions: %d of %d", regions_after_filter_, growth > 0 ? seeded_upto_[static_cast<size_t>(growth - 1)] : 0);
            break;
        case nav::render::ReplayPhase::Merge:
            ImGui::Text(t.kind == nav::RegionTrace::Kind::Layers ? "merge: sweep regions joined into layers"
                                                                 : "merge: small regions joined to neighbours");
            ImGui::Text("final regions: %d", bake->regions->region_count);
            break;
    }
    legend_entry(nav::render::colors::kReplayPending, "not reached yet");
    ImGui::SameLine();
    legend_entry(nav::render::colors::kReplayRemoved, "filtered out");
    legend_entry(nav::render::colors::kReplaySeed, "seed");
    ImGui::SameLine();
    legend_entry(nav::render::colors::kReplaySeedNow, "seeded this step");
}

void RegionReplay::draw(nav::render::Renderer& r, const std::shared_ptr<const nav::Bake>& bake) {
    if (!wanted_ || !bake || !bake->compact || !bake->regions) return;
    const nav::CompactHeightfield& chf = *bake->compact;
    const auto& trace = bake->region_trace;
    const int step = trace ? step_for(nav::render::replay_step_count(*trace)) : -1;
    if (trace != built_trace_ || bake->regions != built_regions_ || bake->compact != built_chf_ || step != built_step_) {
        if (trace && trace->pre_reg.size() == chf.span_count) {
            nav::render::build_region_replay(chf, *trace, step, cpu_, cpu_points_);
        } else {
            // Not recorded (yet): the final regions, as the layer this picture replaces.
            nav::render::build_regions(chf, *bake->regions, cpu_);
            cpu_points_.clear();
        }
        gpu_.upload(cpu_);
        gpu_points_.upload(cpu_points_);
        built_trace_ = trace;
        built_regions_ = bake->regions;
        built_chf_ = bake->compact;
        built_step_ = step;
    }
    r.draw(gpu_);
    r.draw(gpu_points_);
}

}  // namespace navdebug
