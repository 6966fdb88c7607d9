// The Volumes tool: convex volumes (core/bake/areas.h ConvexVolume) drawn on the level. Clicks on
// the level add points; Enter, the panel's Close button or a click on the first point makes the
// convex hull of the points (nav::convex_hull_xz) a new volume of the panel's area and height; Esc
// drops the points. A press on an existing volume selects it, Delete removes it, the Volumes
// panel lists and edits them (area, heights). The volumes are an input of the bake
// (EditState::volumes -> the worker -> Pipeline::set_volumes, which re-bakes from the areas stage,
// only the tiles a changed volume touches), never a patch on the finished navmesh.
//
// Picking, the volume a set of points makes and drawing are plain functions and a class without
// ImGui (tests/unit/test_volume_tool.cpp); panel() is the ImGui part.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "core/bake/areas.h"
#include "render/draw_list.h"

namespace navdebug {

// The nearest volume whose prism (its xz polygon from hmin to hmax) the ray o + t d (t >= 0, d need
// not be unit) passes through, or -1; *t_hit is where it enters (0 when o is inside).
int pick_volume(const std::vector<nav::ConvexVolume>& vols, const float* o, const float* d, float* t_hit);

// The volume points placed on the level make: the convex hull of the points in xz, from `descent`
// below the lowest point (hmin) to `height` above that (hmax); the hull's vertices carry y = hmin
// (RecastDemo's convex volume tool does the same). Fails (BadInput) as nav::convex_hull_xz does,
// or when height is not above 0 or descent is negative or either is not finite.
nav::Status make_volume(std::span<const float> pts, float height, float descent, uint8_t area, nav::ConvexVolume& out);

// Each volume as a translucent prism in its area's colour (nav::area_color: the area table's) with
// its outline, the selected one brighter with a yellow outline.
void draw_volumes(const std::vector<nav::ConvexVolume>& vols, int selected, nav::render::DrawList& out);
// The points being placed in the colour of `area`: a dot each, a ring of close_radius round the
// first one (a click inside it closes the volume) and the convex hull so far as an outline through
// the points at their picked heights (fewer than 3 points, or all on a line: the line through them).
void draw_volume_points(std::span<const float> pts, uint8_t area, float close_radius, nav::render::DrawList& out);

class VolumeTool {
public:
    enum class Press {
        None,      // nothing under the cursor: the selection dropped
        Selected,  // an existing volume was selected
        Point,     // a point was added to the new volume
        Closed,    // a press on the first point closed the new volume (close() succeeded)
        Refused,   // a press on the first point, but the points make no volume yet (error())
    };
    // A left press in the view at the ray (o, d) with `ground` the level point under the cursor
    // (null: none). While points are placed, a press within close_radius (metres) of the first point
    // closes the volume, any other press on the level adds a point. Without points, a press on a
    // volume before the level selects it, a press on the level starts a new volume there. With
    // add_point (Shift held) a press on the level always adds a point.
    Press press(std::vector<nav::ConvexVolume>& vols, const float* o, const float* d, const float* ground, float close_radius,
                bool add_point);
    // Enter / Close: the points' volume (make_volume with the panel's area, height and descent) is
    // appended and selected, the points cleared. False, with error() saying why and the points
    // kept, when they make no volume (fewer than 3 apart, all on one line).
    bool close(std::vector<nav::ConvexVolume>& vols);
    // Esc: drops the points placed so far. True when there were some.
    bool cancel();
    // Delete: removes the selected volume. True when one was removed.
    bool remove_selected(std::vector<nav::ConvexVolume>& vols);
    int selected() const { return selected_; }
    void select(int i) { selected_ = i; }
    // Drops a selection that no longer names a volume (after undo, a loaded session).
    void clamp(const std::vector<nav::ConvexVolume>& vols) {
        if (selected_ >= static_cast<int>(vols.size())) selected_ = -1;
    }
    std::span<const float> points() const { return pts_; }
    const std::string& error() const { return error_; }
    // What a new volume gets: its area id, its height and how far below the lowest point it starts.
    uint8_t area() const { return area_; }
    void set_area(uint8_t a) { area_ = a; }
    float height() const { return height_; }
    void set_height(float h) { height_ = h; }
    float descent() const { return descent_; }
    // The Volumes panel: the new volume's area (the area table's names) and heights, the points
    // placed and Close / Cancel, the list with each volume's area, hmin, hmax and point count
    // (area and heights editable), remove buttons. Returns true when the volumes changed.
    bool panel(std::vector<nav::ConvexVolume>& vols, const nav::AreaTable& areas);

private:
    std::vector<float> pts_;  // x,y,z per point placed for the new volume
    uint8_t area_ = nav::kAreaWater;
    float height_ = 6.0f, descent_ = 1.0f;  // RecastDemo's box height and descent
    int selected_ = -1;
    std::string error_;
};

}  // namespace navdebug
