// The "Path tests" panel (issue 22 item 5): a path test file (core/formats/path_tests_json.h) opened
// from --path-tests FILE or the panel's field, its cases listed with pass / fail against the bake
// on screen. Clicking a case shows it with the path tool (start, end, filter); "Save current path
// as case" appends the path tool's path to the file with the expectation of its current result.
//
// Evaluation runs on the UI thread, bounded: after a new navmesh (a new bake published) or a new
// file, the cases are evaluated in order, each frame until its budget (kBudgetMs) is spent, the
// rest on the next frames ("evaluating k / n" meanwhile). One case is one find_route (a few
// hundred microseconds on the demo scene), so a file of a handful of cases is done in one frame;
// a headless screenshot sets the budget to 0 (all at once) so the frame it saves shows them all.
#pragma once
#include <glm/glm.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/bake/areas.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/path_tests.h"
#include "core/runtime/query.h"

namespace navdebug {

class PathTestsPanel {
public:
    static constexpr double kBudgetMs = 4.0;

    // Reads the file (resolving area names against `areas`); a failure is kept as the panel's
    // error (and returned), the cases of the file opened before are dropped.
    nav::Status open(const std::string& path, const nav::AreaTable& areas);
    // Remembers the file for open() on the first frame (open_pending() until then).
    void open_later(const std::string& path) { path_ = path, open_pending_ = true; }
    bool open_pending() const { return open_pending_; }
    // Once after a file was opened: the panel's section opens and scrolls into sight.
    bool take_reveal() { return std::exchange(reveal_, false); }
    const std::string& path() const { return path_; }
    bool is_open() const { return loaded_; }
    // Evaluates what is not evaluated against `mesh` (all again when the mesh or the table changed;
    // the file is read again on a new table, its names may resolve differently), within the budget.
    void update(const std::shared_ptr<const nav::NavMesh>& mesh, const nav::AreaTable& areas);
    void set_budget_ms(double ms) { budget_ms_ = ms; }  // 0: every case in one update
    // Cases not evaluated yet against the current mesh.
    bool pending() const { return loaded_ && mesh_ && next_ < cases_.size(); }

    // What the panel asks of the app this frame.
    struct Action {
        std::optional<size_t> show;  // a case clicked: show it with the path tool
        bool save = false;           // "Save current path as case"
    };
    Action ui();
    // Selects case i (as a click does); the app then shows it.
    void select(size_t i) { selected_ = i; }
    std::optional<size_t> selected() const { return selected_; }
    const std::vector<nav::PathTestCase>& cases() const { return cases_; }
    const std::vector<std::optional<nav::PathTestResult>>& results() const { return results_; }

    // The path tool's path as a case (start, end, filter; expect reached as it is now and, when
    // reached, max_length = its length + 5 % rounded up to 0.1 m: nav::path_test_length_limit),
    // evaluated on `mesh`, appended to the file (the field's name when none is open: a new file is
    // made), then the file is read again. Errors are kept as the panel's message and returned.
    nav::Status save_case(const glm::vec3& start, const glm::vec3& end, const nav::QueryFilter& filter,
                          const std::shared_ptr<const nav::NavMesh>& mesh, const nav::AreaTable& areas);

    // For --state-dump: file, error, per case name / evaluated / pass / failures, totals.
    std::string state_json() const;

private:
    void reset_results();

    std::string path_;                 // the file open (or last tried)
    char field_[512] = "";             // the panel's file field
    bool loaded_ = false, open_pending_ = false, reveal_ = false;
    std::string error_, message_;
    std::vector<nav::PathTestCase> cases_;
    std::vector<std::optional<nav::PathTestResult>> results_;
    nav::AreaTable areas_ = nav::AreaTable::defaults();
    std::shared_ptr<const nav::NavMesh> mesh_;
    nav::NavQuery query_;
    size_t next_ = 0;                  // the first case not evaluated
    double budget_ms_ = kBudgetMs;
    double last_eval_ms_ = 0;          // time of the last complete evaluation (all cases)
    double eval_ms_acc_ = 0;
    std::optional<size_t> selected_;
};

}  // namespace navdebug
