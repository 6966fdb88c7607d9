#include "edit_state.h"

namespace navdebug {

EditSnapshot EditState::snapshot() const {
    EditSnapshot s = desired;
    s.areas = nav::AreaTable::defaults();  // not in the history
    return s;
}

void EditState::restore(const EditSnapshot& s) {
    nav::AreaTable areas = std::move(desired.areas);
    desired = s;
    desired.areas = std::move(areas);
}

void EditState::mark_requested() {
    requested = desired;
    requested_to = run_to;
}

}  // namespace navdebug
