#include "edit_state.h"

namespace navdebug {

void EditState::restore(const EditSnapshot& s) {
    desired = s.params;
    volumes = s.volumes;
    obstacles = s.obstacles;
    links = s.links;
    if (s.prune) islands.prune_at(*s.prune);
    else islands.clear();
}

void EditState::mark_requested() {
    requested = desired;
    requested_volumes = volumes;
    requested_obstacles = obstacles;
    requested_links = links;
    requested_to = run_to;
}

}  // namespace navdebug
