// What the debugger's panels own (their code: panels_left.cpp, panels_right.cpp, panels_view.cpp):
// the text fields, the asset list, the log view, the error banner, the panel widths and the
// panels with their own state (open dialog, warnings, stage timeline, timings).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "log.h"
#include "open_dialog.h"
#include "timeline.h"
#include "timings.h"
#include "warnings_panel.h"

namespace navdebug {

struct Panels {
    std::string mesh_field, config_field, session_field;
    std::vector<std::string> asset_files;  // the .obj files under assets/, sorted
    std::vector<LogLine> log_lines;
    size_t log_seen = 0;
    bool log_scroll = false;
    std::shared_ptr<const void> regions_legend_of;   // the regions the legend's ids were read from (held)
    std::vector<uint16_t> regions_legend_ids;        // the region ids their spans use, ascending
    std::shared_ptr<const void> prune_shown;  // the pruned bake the Islands panel last showed (held: no reuse of its address)
    std::string banner;  // the error shown over the view
    float left_w = 0, right_w = 0;
    float right_size = 0;  // the right panel's width last frame (it may be resized)
    OpenDialog open_dialog;
    WarningsPanel warnings;
    Timeline timeline;
    Timings timings;
};

}  // namespace navdebug
