#include "why_tool.h"

#include <imgui.h>

#include <chrono>
#include <cstdio>

#include "ui_common.h"

namespace navdebug {

namespace r = nav::render;

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string param_name(nav::ParamId id) { return std::string(nav::param_def(id).name); }

// "lost at erode: ..." / "on the navmesh: polygon 12, island 0" / "not on the navmesh: ...".
std::string verdict(const nav::WhyStory& s) {
    if (s.on_navmesh) {
        std::string v = "on the navmesh: polygon " + std::to_string(nav::ref_poly(s.poly));
        if (nav::ref_slot(s.poly) != 0) v += " (tile slot " + std::to_string(nav::ref_slot(s.poly)) + ")";
        v += ", island " + std::to_string(s.island);
        if (s.pruned) v += " (disabled by the prune)";
        return v;
    }
    const std::string why = s.cause_text.empty() ? std::string(nav::why_cause_name(s.cause)) : s.cause_text;
    if (s.lost_at) return "lost at " + std::string(nav::stage_name(*s.lost_at)) + ": " + why;
    return "not on the navmesh: " + why;
}

void add_shape(const nav::WhyShape& sh, uint32_t color, r::DrawList& out) {
    for (size_t i = 0; i + 5 < sh.lines.size(); i += 6) out.add_line(&sh.lines[i], &sh.lines[i + 3], color);
    for (size_t i = 0; i + 2 < sh.points.size(); i += 3) out.add_point(&sh.points[i], color);
    if (sh.has_box) out.add_box_lines(sh.box_min, sh.box_max, color);
}

// The clicked point: a dot and a short pole up from it, so it shows from any side.
void add_marker(const float* p, uint32_t color, r::DrawList& out) {
    out.add_point(p, color);
    out.add_line(p[0], p[1], p[2], p[0], p[1] + 1.2f, p[2], color);
}

}  // namespace

void WhyTool::set_point(const glm::vec3& p) {
    point_ = p;
    path_.reset();
    dirty_ = true;
}

void WhyTool::set_path(const glm::vec3& start, const glm::vec3& end) {
    path_ = std::make_pair(start, end);
    point_.reset();
    dirty_ = true;
}

void WhyTool::clear() {
    point_.reset();
    path_.reset();
    story_.reset();
    result_.reset();
    retry_.reset();
    asked_ = 0;
    bake_.reset();
    dirty_ = false;
}

WhyJob WhyTool::new_job(WhyJob::Kind kind) {
    WhyJob j;
    j.id = ++next_id_;
    j.kind = kind;
    j.bake = bake_;
    asked_ = j.id;
    result_.reset();
    retry_.reset();
    return j;
}

std::optional<WhyJob> WhyTool::update(const std::shared_ptr<const nav::Bake>& bake, bool worker_idle) {
    if (!active() || !bake || bake->partial || !bake->mesh) return std::nullopt;  // tiles still filling in: wait
    if (bake == bake_ && !dirty_) {
        if (retry_ && worker_idle) {
            WhyJob j = std::move(*retry_);
            retry_.reset();
            j.id = ++next_id_;
            asked_ = j.id;
            return j;
        }
        return std::nullopt;
    }
    bake_ = bake;
    dirty_ = false;
    hovered_story_ = hovered_stage_ = -1;
    story_.reset();
    asked_ = 0;
    result_.reset();
    retry_.reset();
    if (point_) {
        const auto t0 = std::chrono::steady_clock::now();
        story_ = nav::explain_point(*bake, &point_->x);
        explain_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        messages_.push_back("why: " + verdict(*story_) + fmt(" (explain_point %.2f ms)", explain_ms_));
        // a fix is searched for a lost point whose cause has a decider, once the bake is whole
        const bool fixable = !story_->on_navmesh && (story_->decider || story_->volume >= 0);
        if (fixable && bake->navmesh && bake->error.is_ok()) {
            WhyJob j = new_job(WhyJob::Kind::Fix);
            j.story = *story_;
            return j;
        }
        return std::nullopt;
    }
    if (!bake->navmesh) return std::nullopt;  // explain_path needs the navmesh: wait for it
    WhyJob j = new_job(WhyJob::Kind::Path);
    j.start = path_->first;
    j.end = path_->second;
    return j;
}

void WhyTool::take(const std::shared_ptr<const WhyResult>& res) {
    if (!res || res->id != asked_ || res == result_) return;
    result_ = res;
    if (!res->cancelled) {
        auto fix_text = [](const std::optional<nav::WhyFix>& f) {
            return f ? "fix " + f->text + (f->verified ? " (verified, " : " (not verified, ") + std::to_string(f->bakes) +
                           " bakes)"
                     : std::string("no fix verified");
        };
        if (!res->error.empty()) messages_.push_back("why: no fix: " + res->error);
        else if (res->kind == WhyJob::Kind::Fix) messages_.push_back("why: " + fix_text(res->fix));
        else if (res->path && res->path->reached && res->path->detour) {
            messages_.push_back(fmt("why: path detours (%.2f m", res->path->path_length) +
                                fmt(" for %.2f m straight): ", res->path->straight_length) + verdict(res->path->gap_story));
            messages_.push_back("why: path " + fix_text(res->path->fix));
        } else if (res->path && res->path->reached) messages_.push_back("why: path reaches the end");
        else if (res->path) {
            const nav::WhyPath& p = *res->path;
            std::string m = "why: path from island " + std::to_string(p.island_start) + " to island " +
                            std::to_string(p.island_end) + (p.partial ? " (partial)" : " (none)");
            if (p.has_gap) {
                char buf[160];
                std::snprintf(buf, sizeof buf, ": gap %.2f m from (%.2f, %.2f, %.2f) to (%.2f, %.2f, %.2f), ", p.gap_length,
                              p.gap_a[0], p.gap_a[1], p.gap_a[2], p.gap_b[0], p.gap_b[1], p.gap_b[2]);
                m += buf + verdict(p.gap_story);
            }
            messages_.push_back(m);
            messages_.push_back("why: path " + fix_text(p.fix));
        }
    }
    if (res->cancelled && bake_) {
        // asked again once the worker is idle on the same bake (a newer bake re-tells the story anyway)
        WhyJob j;
        j.kind = res->kind;
        j.bake = bake_;
        if (story_) j.story = *story_;
        if (path_) j.start = path_->first, j.end = path_->second;
        retry_ = std::move(j);
    }
}

void WhyTool::story_ui(const nav::WhyStory& s, const char* id_prefix, int story_index, Action& act) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(s.on_navmesh ? kGoodColor : kErrorColor, "%s", verdict(s).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PushID(id_prefix);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 normal = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 lost = ImGui::GetColorU32(kErrorColor);
    const ImU32 dim = ImGui::GetColorU32(kDimColor);
    for (size_t i = 0; i < s.stages.size(); ++i) {
        const nav::WhyStage& st = s.stages[i];
        const std::string name = std::string(nav::stage_name(st.stage));
        const float name_w = 78.0f;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float wrap = std::max(ImGui::GetContentRegionAvail().x - name_w, 60.0f);
        // the losing stage's line says what the verdict above already says: not twice
        const std::string shown = !st.kept && st.text == s.cause_text ? "lost here (the verdict above)" : st.text;
        const ImVec2 sz = ImGui::CalcTextSize(shown.c_str(), nullptr, false, wrap);
        ImGui::PushID(static_cast<int>(i));
        const bool hovered_now = hovered_story_ == story_index && hovered_stage_ == static_cast<int>(i);
        if (ImGui::Selectable("##stage", hovered_now, 0, ImVec2(0.0f, std::max(sz.y, ImGui::GetTextLineHeight()))))
            act.show_stage = st.stage;
        if (ImGui::IsItemHovered()) {
            hovered_story_ = story_index;
            hovered_stage_ = static_cast<int>(i);
            ImGui::SetTooltip("%s", st.culprit.empty() ? "Click: show this stage (the stage driver and its layer)."
                                                       : "Its culprit is drawn in cyan in the view.\n"
                                                         "Click: show this stage (the stage driver and its layer).");
        } else if (hovered_now) {
            hovered_story_ = hovered_stage_ = -1;
        }
        ImGui::PopID();
        const ImU32 c = st.kept ? normal : lost;
        dl->AddText(at, st.kept ? dim : lost, name.c_str());
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(at.x + name_w, at.y), c, shown.c_str(), nullptr, wrap);
    }
    ImGui::PopID();
}

void WhyTool::fix_ui(const std::optional<nav::WhyFix>& fix, const nav::WhyStory* story, Action& act) {
    if (fix) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kGoodColor, "Fix: %s (%s)", fix->text.c_str(), fix->verified ? "verified" : "not verified");
        ImGui::PopTextWrapPos();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%d verification bake%s, %.0f ms", fix->bakes, fix->bakes == 1 ? "" : "s", fix->ms);
        const nav::WhyEffects& e = fix->effects;
        ImGui::Text("  walkable area %.1f -> %.1f m2", e.area_before, e.area_after);
        ImGui::Text("  polygons %lld -> %lld", static_cast<long long>(e.polys_before), static_cast<long long>(e.polys_after));
        if (e.islands_before >= 0 && e.islands_after >= 0) ImGui::Text("  islands %d -> %d", e.islands_before, e.islands_after);
        else ImGui::TextColored(kDimColor, "  islands: not known (%zu tile%s re-baked)", e.tiles.size(), e.tiles.size() == 1 ? "" : "s");
        if (fix->verified) {
            if (ImGui::Button("Apply")) act.apply = &*fix;
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s, as one undoable step (Ctrl+Z), and re-bake.",
                                  fix->param ? "Set the parameter" : "Remove the volume");
        }
        return;
    }
    if (story && !story->decider && story->volume < 0) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kDimColor, "No fix: no parameter or volume decides %s.", std::string(nav::why_cause_name(story->cause)).c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    ImGui::PushTextWrapPos(0.0f);
    if (story && story->decider)
        ImGui::TextColored(kWarnColor, "No fix: no value of %s near %s verified (a bake with it still leaves the point off).",
                           param_name(*story->decider).c_str(), fmt("%.2f", story->needed).c_str());
    else if (story && story->volume >= 0)
        ImGui::TextColored(kWarnColor, "No fix: removing volume %d did not put the point on the navmesh.", story->volume);
    else
        ImGui::TextColored(kWarnColor, "No fix: no candidate change verified.");
    ImGui::PopTextWrapPos();
}

WhyTool::Action WhyTool::panel() {
    Action act;
    if (!active()) {
        ImGui::TextWrapped("Choose Click: why? and click the level (empty floor where there is no navmesh, above all), "
                           "or press Why? under a failed path.");
        return act;
    }
    if (ImGui::SmallButton("clear")) {
        clear();
        return act;
    }
    ImGui::SameLine();
    if (point_) {
        ImGui::TextColored(kDimColor, "point %.2f, %.2f, %.2f", point_->x, point_->y, point_->z);
        if (ImGui::IsItemHovered() && story_) ImGui::SetTooltip("explain_point took %.2f ms", explain_ms_);
    }
    else
        ImGui::TextColored(kDimColor, "path %.1f, %.1f, %.1f -> %.1f, %.1f, %.1f", path_->first.x, path_->first.y,
                            path_->first.z, path_->second.x, path_->second.y, path_->second.z);
    if (!bake_) {
        ImGui::TextColored(kDimColor, "waiting for the bake");
        return act;
    }
    if (point_) {
        if (!story_) return act;
        story_ui(*story_, "point", 0, act);
        if (story_->on_navmesh) return act;
        ImGui::Separator();
        if (waiting()) {
            ImGui::TextColored(kWarnColor, "verifying... (baking with candidate values)");
        } else if (!result_ || result_->cancelled) {
            if (story_->decider || story_->volume >= 0)
                ImGui::TextColored(kDimColor, retry_ ? "verification cancelled: asked again once the bake is done"
                                                     : "a fix is verified once the bake is whole");
            else fix_ui(std::nullopt, &*story_, act);
        } else if (!result_->error.empty()) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextColored(kWarnColor, "No fix: %s", result_->error.c_str());
            ImGui::PopTextWrapPos();
        } else {
            fix_ui(result_->fix, &*story_, act);
        }
        return act;
    }
    // a path
    if (waiting()) {
        ImGui::TextColored(kWarnColor, "explaining the path... (verifying a fix)");
        return act;
    }
    if (!result_ || result_->cancelled) {
        ImGui::TextColored(kDimColor, bake_->navmesh ? "explained once the bake is done" : "waiting for the navmesh");
        return act;
    }
    if (!result_->error.empty() || !result_->path) {
        ImGui::TextColored(kWarnColor, "%s", result_->error.empty() ? "no answer" : result_->error.c_str());
        return act;
    }
    const nav::WhyPath& p = *result_->path;
    if (p.reached && !p.detour) {
        ImGui::TextColored(kGoodColor, "the path reaches: %.2f m (straight line %.2f m)", p.path_length, p.straight_length);
        return act;
    }
    if (p.reached) {
        // a detour: what on the straight line sent the path round, and the fix that shortens it
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kWarnColor, "the path reaches but detours: %.2f m, the straight line %.2f m (over %.1fx)",
                           p.path_length, p.straight_length, static_cast<double>(nav::WhyPath::kDetourRatio));
        ImGui::PopTextWrapPos();
        ImGui::TextColored(kDimColor, "what blocks the straight line:");
        story_ui(p.gap_story, "detour", 0, act);
        ImGui::Separator();
        fix_ui(p.fix, &p.gap_story, act);
        return act;
    }
    ImGui::TextColored(kErrorColor, "%s", p.partial ? "partial path: the end is not reachable" : "no path");
    if (p.island_start >= 0 || p.island_end >= 0)
        ImGui::Text("start on island %d, end on island %d", p.island_start, p.island_end);
    if (!p.start_story.on_navmesh && p.island_start < 0) {
        ImGui::TextColored(kDimColor, "the start:");
        story_ui(p.start_story, "start", 1, act);
    }
    if (!p.end_story.on_navmesh && p.island_end < 0) {
        ImGui::TextColored(kDimColor, "the end:");
        story_ui(p.end_story, "end", 2, act);
    }
    if (p.has_gap) {
        ImGui::TextColored(to_imvec(kGapColor, true), "gap %.2f m between the islands", p.gap_length);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("from %.2f, %.2f, %.2f to %.2f, %.2f, %.2f (drawn in lime green)", p.gap_a[0], p.gap_a[1], p.gap_a[2],
                              p.gap_b[0], p.gap_b[1], p.gap_b[2]);
        ImGui::TextColored(kDimColor, "the gap:");
        story_ui(p.gap_story, "gap", 0, act);
    }
    ImGui::Separator();
    fix_ui(p.fix, p.has_gap ? &p.gap_story : nullptr, act);
    return act;
}

void WhyTool::draw_story(const nav::WhyStory& s, int story_index, r::DrawList& thin, r::DrawList& bold) const {
    for (size_t i = 0; i < s.stages.size(); ++i) {
        const nav::WhyStage& st = s.stages[i];
        if (hovered_story_ == story_index && hovered_stage_ == static_cast<int>(i)) continue;  // drawn last, in cyan
        if (st.kept) add_shape(st.culprit, kCulpritColor, thin);
        else add_shape(st.culprit, kLostColor, bold);
    }
    if (hovered_story_ == story_index && hovered_stage_ >= 0 && hovered_stage_ < static_cast<int>(s.stages.size()))
        add_shape(s.stages[static_cast<size_t>(hovered_stage_)].culprit, kHoverColor, bold);
}

void WhyTool::draw_overlay(r::DrawList& thin, r::DrawList& bold) const {
    if (point_ && story_) {
        draw_story(*story_, 0, thin, bold);
        const float p[3] = {point_->x, point_->y, point_->z};
        add_marker(p, kPointColor, bold);
        return;
    }
    // a path: its ends are the path tool's markers
    if (!path_) return;
    if (!result_ || result_->id != asked_ || !result_->path) return;
    const nav::WhyPath& p = *result_->path;
    if (p.reached) {
        if (p.detour) {
            draw_story(p.gap_story, 0, thin, bold);
            add_marker(p.detour_point, kPointColor, bold);
        }
        return;
    }
    if (!p.start_story.on_navmesh && p.island_start < 0) draw_story(p.start_story, 1, thin, bold);
    if (!p.end_story.on_navmesh && p.island_end < 0) draw_story(p.end_story, 2, thin, bold);
    if (p.has_gap) {
        draw_story(p.gap_story, 0, thin, bold);
        bold.add_line(p.gap_a, p.gap_b, kGapColor);
        bold.add_point(p.gap_a, kGapColor);
        bold.add_point(p.gap_b, kGapColor);
    }
}

}  // namespace navdebug
