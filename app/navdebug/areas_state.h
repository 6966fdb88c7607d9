// The area types the bake uses (the Areas panel, config "areas", sessions) and the Areas panel's
// rows being edited. No GL, no ImGui.
#pragma once
#include <string>

#include "core/bake/areas.h"

namespace navdebug {

struct AreasState {
    nav::AreaTable table = nav::AreaTable::defaults();  // applied: the worker's, the path filter's, the colours'
    nav::AreaTable edit = nav::AreaTable::defaults();   // the Areas panel's rows, maybe not valid yet
    std::string error;                                  // why `edit` is not applied
    bool open = false;  // the Areas section opens when the table is not the defaults
};

// The Areas panel (panels_areas.cpp): edits `areas.edit`; true when the edited table is valid and
// changed (the caller applies it, App::set_areas), else the reason is kept in `areas.error`.
bool areas_panel(AreasState& areas);

}  // namespace navdebug
