// App's side of the Path tests panel (path_tests_panel.h): the cases evaluated on the navmesh
// shown, a clicked case shown with the path tool, the path tool's path saved as a case.
#include <imgui.h>

#include "app.h"

namespace navdebug {

namespace r = nav::render;

void App::update_path_tests() {
    if (sel_.path_tests.open_pending()) {  // --path-tests FILE, read with the config's area table
        if (nav::Status st = sel_.path_tests.open(sel_.path_tests.path(), edit_.desired.areas); !st) log_.error(st.message);
        else if (opts_.path_test) {
            if (*opts_.path_test < sel_.path_tests.cases().size()) show_path_test(*opts_.path_test);
            else log_.error("--path-test " + std::to_string(*opts_.path_test) + ": " + sel_.path_tests.path() + " has " +
                            std::to_string(sel_.path_tests.cases().size()) + " cases");
        }
    }
    sel_.path_tests.update(bake_ ? bake_->navmesh : nullptr, edit_.desired.areas);
}

void App::show_path_test(size_t i) {
    const auto& cases = sel_.path_tests.cases();
    if (i >= cases.size()) return;
    const nav::PathTestCase& c = cases[i];
    sel_.path_tests.select(i);
    sel_.tool = Selection::Tool::Path;
    sel_.path.set_mode(PathTool::Mode::Path);
    sel_.path.set_start(glm::vec3(c.start[0], c.start[1], c.start[2]));
    sel_.path.set_end(glm::vec3(c.end[0], c.end[1], c.end[2]));
    sel_.path.set_filter_flags(c.filter.include_flags, c.filter.exclude_flags);
    for (int a = 0; a < nav::kMaxAreas; ++a) sel_.path.set_area_cost(static_cast<uint8_t>(a), c.filter.area_cost[a]);
    opts_.layers[static_cast<size_t>(r::Layer::Path)] = true;  // as a path click does (camera_input.cpp)
}

void App::ui_path_tests() {
    const PathTestsPanel::Action act = sel_.path_tests.ui();
    if (act.show) show_path_test(*act.show);
    if (act.save) {
        if (!sel_.path.has_start() || !sel_.path.has_end()) {
            log_.warn("Save current path as case: set the path tool's start and end first");
        } else if (nav::Status st = sel_.path_tests.save_case(sel_.path.start(), sel_.path.end(), sel_.path.filter(),
                                                             bake_ ? bake_->navmesh : nullptr, edit_.desired.areas);
                   !st) {
            log_.error(st.message);
        } else {
            log_.info("path tests: saved the current path to " + sel_.path_tests.path());
        }
    }
}

}  // namespace navdebug
