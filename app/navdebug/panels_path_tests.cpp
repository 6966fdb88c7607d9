// The Path tests section (panels_path_tests.h) over the Path tests panel's model (path_tests_panel.h)
// and the path tool.
#include "panels_path_tests.h"

#include <imgui.h>

#include <string>

namespace navdebug {

namespace r = nav::render;

void update_path_tests(Selection& sel, r::LayerMask& layers, const std::optional<size_t>& show,
                       const std::shared_ptr<const nav::NavMesh>& navmesh, const nav::AreaTable& areas, Log& log) {
    if (sel.path_tests.open_pending()) {  // --path-tests FILE, read with the config's area table
        if (nav::Status st = sel.path_tests.open(sel.path_tests.path(), areas); !st) log.error(st.message);
        else if (show) {
            if (*show < sel.path_tests.cases().size()) show_path_test(sel, layers, *show);
            else log.error("--path-test " + std::to_string(*show) + ": " + sel.path_tests.path() + " has " +
                           std::to_string(sel.path_tests.cases().size()) + " cases");
        }
    }
    sel.path_tests.update(navmesh, areas);
}

void show_path_test(Selection& sel, r::LayerMask& layers, size_t i) {
    const auto& cases = sel.path_tests.cases();
    if (i >= cases.size()) return;
    const nav::PathTestCase& c = cases[i];
    sel.path_tests.select(i);
    sel.tool = Selection::Tool::Path;
    sel.path.set_mode(PathTool::Mode::Path);
    sel.path.set_start(glm::vec3(c.start[0], c.start[1], c.start[2]));
    sel.path.set_end(glm::vec3(c.end[0], c.end[1], c.end[2]));
    sel.path.set_filter_flags(c.filter.include_flags, c.filter.exclude_flags);
    for (int a = 0; a < nav::kMaxAreas; ++a) sel.path.set_area_cost(static_cast<uint8_t>(a), c.filter.area_cost[a]);
    layers[static_cast<size_t>(r::Layer::Path)] = true;  // as a path click does (app_input.cpp)
}

void path_tests_section(Selection& sel, r::LayerMask& layers, const std::shared_ptr<const nav::NavMesh>& navmesh,
                        const nav::AreaTable& areas, Log& log) {
    const PathTestsPanel::Action act = sel.path_tests.ui();
    if (act.show) show_path_test(sel, layers, *act.show);
    if (act.save) {
        if (!sel.path.has_start() || !sel.path.has_end()) {
            log.warn("Save current path as case: set the path tool's start and end first");
        } else if (nav::Status st = sel.path_tests.save_case(sel.path.start(), sel.path.end(), sel.path.filter(), navmesh, areas);
                   !st) {
            log.error(st.message);
        } else {
            log.info("path tests: saved the current path to " + sel.path_tests.path());
        }
    }
}

}  // namespace navdebug
