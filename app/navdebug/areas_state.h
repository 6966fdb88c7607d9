// The Areas panel's rows being edited. No GL, no ImGui.
#pragma once
#include <string>

#include "core/bake/areas.h"

namespace navdebug {

// The applied table is the bake's input (EditState::desired.areas): the worker's, the path
// filter's, the colours'. This is the panel's side of it.
struct AreasState {
    nav::AreaTable edit = nav::AreaTable::defaults();   // the Areas panel's rows, maybe not valid yet
    std::string error;                                  // why `edit` is not applied
    bool open = false;  // the Areas section opens when the table is not the defaults
};

// The Areas panel (panels_areas.cpp): edits `areas.edit`; true when the edited table is valid and
// changed (the caller applies it, App::set_areas), else the reason is kept in `areas.error`.
bool areas_panel(AreasState& areas);

}  // namespace navdebug
