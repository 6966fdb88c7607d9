#include "path_tests_panel.h"

#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/formats/path_tests_json.h"
#include "ui_common.h"

namespace navdebug {

namespace {

nav::PathTestOptions test_options(const nav::AreaTable& areas) {
    nav::PathTestOptions o;
    std::copy(kPickHalfExtents, kPickHalfExtents + 3, o.half_extents);  // the path tool's box
    o.area_name = nav::area_table_namer;
    o.area_name_ctx = &areas;
    return o;
}

}  // namespace

nav::Status PathTestsPanel::open(const std::string& path, const nav::AreaTable& areas) {
    path_ = path;
    open_pending_ = false;
    std::snprintf(field_, sizeof field_, "%s", path.c_str());
    areas_ = areas;
    cases_.clear();
    loaded_ = false;
    selected_.reset();
    message_.clear();
    nav::Status st = nav::load_path_tests(path, areas, cases_);
    if (!st) {
        cases_.clear();
        error_ = st.message;
    } else {
        error_.clear();
        loaded_ = true;
        reveal_ = true;
    }
    reset_results();
    return st;
}

void PathTestsPanel::reset_results() {
    results_.assign(cases_.size(), std::nullopt);
    next_ = 0;
    eval_ms_acc_ = 0;
}

void PathTestsPanel::update(const std::shared_ptr<const nav::NavMesh>& mesh, const nav::AreaTable& areas) {
    // names may resolve differently now; a failure is the panel's error, shown under the field
    if (!path_.empty() && !open_pending_ && !(areas == areas_)) (void)open(path_, areas);
    areas_ = areas;
    if (mesh != mesh_) {
        mesh_ = mesh;
        if (mesh_) query_.init(mesh_.get());
        reset_results();
    }
    if (!loaded_ || !mesh_ || next_ >= cases_.size()) return;
    const auto t0 = std::chrono::steady_clock::now();
    const nav::PathTestOptions opt = test_options(areas_);
    while (next_ < cases_.size()) {
        nav::PathTestResult r;
        if (nav::Status st = nav::evaluate_path_test(query_, cases_[next_], opt, r); !st) {
            r.pass = false;
            r.failures = {"query failed: " + st.message};
        }
        results_[next_++] = std::move(r);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (budget_ms_ > 0 && ms >= budget_ms_ && next_ < cases_.size()) {
            eval_ms_acc_ += ms;
            return;  // the rest on the next frames
        }
    }
    last_eval_ms_ = eval_ms_acc_ + std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    eval_ms_acc_ = 0;
}

nav::Status PathTestsPanel::save_case(const glm::vec3& start, const glm::vec3& end, const nav::QueryFilter& filter,
                                      const std::shared_ptr<const nav::NavMesh>& mesh, const nav::AreaTable& areas) {
    const std::string file = field_;
    auto fail = [&](nav::Status st) {
        message_.clear();
        error_ = st.message;
        return st;
    };
    if (file.empty()) return fail(nav::Status::bad_input("Save current path as case: give a file name first"));
    if (!mesh) return fail(nav::Status::bad_input("Save current path as case: no navmesh yet"));
    nav::PathTestCase c;
    c.name = "case " + std::to_string(file == path_ && loaded_ ? cases_.size() : 0);
    std::memcpy(c.start, &start.x, sizeof c.start);
    std::memcpy(c.end, &end.x, sizeof c.end);
    c.filter = filter;
    nav::NavQuery q;
    q.init(mesh.get());
    nav::PathTestResult r;
    c.expect.reached = false;  // evaluated against nothing: the result sets it below
    if (nav::Status st = nav::evaluate_path_test(q, c, test_options(areas), r); !st) return fail(st);
    c.expect.reached = r.reached;
    if (r.reached) c.expect.max_length = nav::path_test_length_limit(r.length);
    if (nav::Status st = nav::append_path_test(file, c, areas); !st) return fail(st);
    const size_t index = cases_.size();
    if (nav::Status st = open(file, areas); !st) return st;
    message_ = "saved " + c.name + " to " + file;
    if (index < cases_.size()) selected_ = index;
    return nav::Status::ok();
}

PathTestsPanel::Action PathTestsPanel::ui() {
    Action act;
    ImGui::SetNextItemWidth(-70.0f);
    const bool enter = ImGui::InputTextWithHint("##file", "path tests .json", field_, sizeof field_,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open") || enter) && field_[0]) (void)open(field_, areas_);  // a failure: error_, below
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Read the path test file (JSON: {\"cases\": [...]}, README \"Path tests\").");
    if (!error_.empty()) ImGui::TextColored(kErrorColor, "%s", error_.c_str());
    if (!message_.empty()) ImGui::TextColored(kDimColor, "%s", message_.c_str());
    if (loaded_) {
        size_t passed = 0, failed = 0;
        for (const auto& r : results_)
            if (r) ++(r->pass ? passed : failed);
        if (!mesh_) ImGui::TextColored(kDimColor, "%zu cases, no navmesh yet", cases_.size());
        else if (pending()) ImGui::TextColored(kDimColor, "evaluating %zu / %zu", next_, cases_.size());
        else {
            ImGui::TextColored(failed ? kErrorColor : kGoodColor, "%zu passed, %zu failed", passed, failed);
            ImGui::SameLine();
            ImGui::TextColored(kDimColor, "(%.2f ms)", last_eval_ms_);
        }
        if (ImGui::BeginTable("cases", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
            for (size_t i = 0; i < cases_.size(); ++i) {
                const std::optional<nav::PathTestResult>& r = results_[i];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                if (!r) ImGui::TextColored(kDimColor, "...");
                else ImGui::TextColored(r->pass ? kGoodColor : kErrorColor, "%s", r->pass ? "PASS" : "FAIL");
                ImGui::TableNextColumn();
                ImGui::PushID(static_cast<int>(i));
                if (ImGui::Selectable(cases_[i].name.c_str(), selected_ == i, ImGuiSelectableFlags_SpanAllColumns)) {
                    selected_ = i;
                    act.show = i;
                }
                if (r && ImGui::IsItemHovered()) {
                    std::string tip = r->reached ? "reached" : "not reached";
                    char buf[64];
                    std::snprintf(buf, sizeof buf, ", length %.2f m", static_cast<double>(r->length));
                    tip += buf;
                    for (const std::string& f : r->failures) tip += "\n" + f;
                    ImGui::SetTooltip("%s\n(click: show it with the path tool)", tip.c_str());
                }
                ImGui::PopID();
                ImGui::TableNextColumn();
                if (r) ImGui::TextColored(kDimColor, "%s %.1f m", r->reached ? "reached" : "unreached", static_cast<double>(r->length));
            }
            ImGui::EndTable();
        }
        // the failures of the selected case, spelled out
        if (selected_ && *selected_ < results_.size() && results_[*selected_])
            for (const std::string& f : results_[*selected_]->failures) ImGui::TextColored(kErrorColor, "%s", f.c_str());
    }
    if (ImGui::Button("Save current path as case")) act.save = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Append the path tool's start, end and filter to the file as a new case, expecting\n"
                          "what it gives now: reached or not, and max_length = its length + 5%%.");
    return act;
}

std::string PathTestsPanel::state_json() const {
    nlohmann::ordered_json j;
    j["file"] = path_;
    j["loaded"] = loaded_;
    j["error"] = error_;
    j["pending"] = pending();
    int passed = 0, failed = 0;
    nlohmann::ordered_json items = nlohmann::ordered_json::array();
    for (size_t i = 0; i < cases_.size(); ++i) {
        nlohmann::ordered_json it;
        it["name"] = cases_[i].name;
        const auto& r = results_[i];
        it["evaluated"] = r.has_value();
        if (r) {
            it["pass"] = r->pass;
            it["reached"] = r->reached;
            it["length"] = r->length;
            it["failures"] = r->failures;
            ++(r->pass ? passed : failed);
        }
        items.push_back(std::move(it));
    }
    j["passed"] = passed;
    j["failed"] = failed;
    j["selected"] = selected_ ? nlohmann::ordered_json(*selected_) : nlohmann::ordered_json();
    j["items"] = std::move(items);
    return j.dump();
}

}  // namespace navdebug
