// The Obstacles tool: temporary obstacles (core/bake/obstacles.h) placed by a click on the level,
// moved by dragging, removed with Delete, listed and edited in the Obstacles panel. The obstacles
// are an input of the bake (EditState::desired.obstacles -> the worker -> Pipeline::set_inputs, which
// re-bakes only the tiles they touch), never a patch on the finished navmesh.
//
// Picking and drawing are plain functions (no ImGui); panel() is the ImGui part.
#pragma once
#include <vector>

#include "core/bake/obstacles.h"
#include "list_selection.h"
#include "render/draw_list.h"

namespace navdebug {

// The nearest obstacle the ray o + t d (t >= 0, d need not be unit) passes through, or -1; *t_hit
// is its t. Cylinders and boxes as they are (not grown by the agent radius).
int pick_obstacle(const std::vector<nav::Obstacle>& obs, const float* o, const float* d, float* t_hit);

// Wireframe and a translucent fill of each obstacle, the selected one brighter, and its footprint
// grown by the agent radius (what the bake clears) as a thin outline on its base.
void draw_obstacles(const std::vector<nav::Obstacle>& obs, int selected, float agent_radius, nav::render::DrawList& out);

class ObstacleTool : public ListSelection {
public:
    // A left press in the view at the ray (o, d) with `ground` the level point under the cursor
    // (null: none): grabs the obstacle hit before the ground, else places a new one there.
    // Returns true when the obstacles changed (a new one).
    bool press(std::vector<nav::Obstacle>& obs, const float* o, const float* d, const float* ground);
    // While the button is held, moves the grabbed obstacle so its base follows the level point
    // under the cursor. Returns true when it moved.
    bool drag_to(std::vector<nav::Obstacle>& obs, const float* ground);
    void release() { dragging_ = false; }
    bool dragging() const { return dragging_; }
    // Delete: removes the selected obstacle and ends a drag. True when one was removed.
    bool remove_selected(std::vector<nav::Obstacle>& obs);
    // The Obstacles panel: the shape new obstacles get, the list with each one's fields, delete
    // buttons. Returns true when the obstacles changed.
    bool panel(std::vector<nav::Obstacle>& obs);

private:
    nav::Obstacle proto_;  // what a click places (shape and size; the position is the click's)
    bool dragging_ = false;
    float grab_[3] = {0, 0, 0};  // obstacle position minus the ground point where it was grabbed
};

}  // namespace navdebug
