// The Links tool: manual off-mesh links (the runtime's OffMeshLink) placed by two clicks on the
// level (the first sets the start, the second the end; Esc cancels a half-placed link), their ends
// moved by dragging, removed with Delete, listed and edited in the Links panel. The links are an
// input of the bake (EditState::desired.links -> the worker -> Pipeline::set_inputs, which relinks the
// navmesh and re-bakes no tile), never a patch on the finished navmesh.
//
// Picking and the placing logic are plain functions (no ImGui); panel() is the ImGui part. The
// drawing is render/links_draw.h's build_manual_links.
#pragma once
#include <array>
#include <optional>
#include <vector>

#include "core/bake/areas.h"
#include "core/runtime/tile.h"
#include "list_selection.h"

namespace navdebug {

// The link end (link * 2 + 0 start, + 1 end) nearest along the ray o + t d (t >= 0, d need not be
// unit) that passes within `grab` metres of it, or -1; *t_hit is its t.
int pick_link_end(const std::vector<nav::OffMeshLink>& links, const float* o, const float* d, float grab, float* t_hit);

class LinkTool : public ListSelection {
public:
    // A left press in the view at the ray (o, d) with `ground` the level point under the cursor
    // (null: none): grabs a link end hit before the ground (selecting its link); else, with no
    // link half-placed, the ground point becomes the pending start; with one, the ground point is
    // its end and the link is added (radius `radius`, two-way, area jump, flags walk). True when
    // the links changed (a new one).
    bool press(std::vector<nav::OffMeshLink>& links, const float* o, const float* d, const float* ground, float radius);
    // While the button is held, moves the grabbed end to the level point under the cursor. True
    // when it moved.
    bool drag_to(std::vector<nav::OffMeshLink>& links, const float* ground);
    void release() { dragging_ = false; }
    bool dragging() const { return dragging_; }
    // Esc: forgets a half-placed link. True when there was one.
    bool cancel();
    const std::optional<std::array<float, 3>>& pending() const { return pending_; }
    // Delete: removes the selected link and ends a drag. True when one was removed.
    bool remove_selected(std::vector<nav::OffMeshLink>& links);
    // The Links panel: every link with its start, end, radius, one-way / two-way, area (a combo of
    // `areas`), flags and user id, editable, and remove buttons. True when the links changed.
    bool panel(std::vector<nav::OffMeshLink>& links, const nav::AreaTable& areas, float agent_radius);

private:
    std::optional<std::array<float, 3>> pending_;  // the start of a half-placed link
    int grabbed_end_ = 0;  // 0 start, 1 end of the selected link, while dragging
    bool dragging_ = false;
};

}  // namespace navdebug
