// The Volumes tool: convex volumes (core/bake/areas.h ConvexVolume) drawn on the level. Clicks on
// the level add points; Enter, the panel's Close button or a click on the first point makes the
// convex hull of the points (nav::convex_hull_xz) a new volume of the panel's area and height; Esc
// drops the points. A press on an existing volume selects it, Delete removes it. The selected
// volume's hull points are handles: dragging one moves that point on the level and the volume is
// the convex hull of its points again (a point dragged inside the hull drops out of it), dragging
// inside the selected volume moves it in xz. The Volumes panel lists and edits them (area,
// heights, the selected one's points). The volumes are an input of the bake
// (EditState::desired.volumes -> the worker -> Pipeline::set_inputs, which re-bakes from the areas stage,
// only the tiles a changed volume touches), never a patch on the finished navmesh.
//
// Picking, the volume a set of points makes and drawing are plain functions and a class without
// ImGui (tests/unit/test_volume_tool.cpp); panel() is the ImGui part.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "core/bake/areas.h"
#include "list_selection.h"
#include "render/area_colors.h"
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

// Each volume as a translucent prism in its area's colour (the area table's) with its outline,
// the selected one brighter with a yellow outline.
void draw_volumes(const std::vector<nav::ConvexVolume>& vols, int selected, const nav::render::AreaColors& area_rgb,
                  nav::render::DrawList& out);
// The points being placed in the colour of `area`: a dot each, a ring of close_radius round the
// first one (a click inside it closes the volume) and the convex hull so far as an outline through
// the points at their picked heights (fewer than 3 points, or all on a line: the line through them).
void draw_volume_points(std::span<const float> pts, uint8_t area, const nav::render::AreaColors& area_rgb, float close_radius,
                        nav::render::DrawList& out);

// The selected volume's hull points as handles (a dot at each end of each vertical edge), and the
// point being dragged (null: none) with its vertical line, in yellow.
void draw_volume_handles(const nav::ConvexVolume& vol, const float* dragged, nav::render::DrawList& out);

// The hull point of `vol` whose vertical edge (its x, z from hmin to hmax) passes nearest the ray
// o + t d (t >= 0, d need not be unit), within `grab` metres (of edges as near, the first along
// the ray), or -1. `k` indexes points: verts[3k], verts[3k + 2] are its x, z.
int pick_volume_point(const nav::ConvexVolume& vol, const float* o, const float* d, float grab);

// `vol` with its point k at x, z instead: the convex hull in xz of its
// points so, each at y = hmin, the rest unchanged. A point that falls inside the others' hull (or
// on its edge) drops out. Fails (BadInput, as nav::convex_hull_xz does) when the points so make
// no polygon (all on one line); `out` is then left as it was.
nav::Status move_volume_point(const nav::ConvexVolume& vol, size_t k, float x, float z, nav::ConvexVolume& out);
// `vol` without its point k: the hull of the rest. Fails (BadInput) when it has 3 points or fewer,
// or the rest are on one line.
nav::Status remove_volume_point(const nav::ConvexVolume& vol, size_t k, nav::ConvexVolume& out);

class VolumeTool : public ListSelection {
public:
    enum class Press {
        None,      // nothing under the cursor: the selection dropped
        Selected,  // an existing volume was selected
        Grabbed,   // a hull point of the selected volume was grabbed: dragging moves it
        Moving,    // a press inside the selected volume: dragging moves the volume in xz
        Point,     // a point was added to the new volume
        Closed,    // a press on the first point closed the new volume (close() succeeded)
        Refused,   // a press on the first point, but the points make no volume yet (error())
    };
    // A left press in the view at the ray (o, d) with `ground` the level point under the cursor
    // (null: none); `radius` is a few pixels in metres near the cursor. While points are placed, a
    // press within `radius` of the first point closes the volume, any other press on the level adds
    // a point. Without points, a press within `radius` of a hull point of the selected volume grabs
    // that point, a press on the selected volume before the level grabs the volume (both drag only
    // with a ground point), a press on another volume selects it, a press on the level starts a new
    // volume there. With add_point (Shift held) a press on the level always adds a point.
    Press press(std::vector<nav::ConvexVolume>& vols, const float* o, const float* d, const float* ground, float radius,
                bool add_point);
    // While the button is held: the grabbed hull point goes to the level point under the cursor
    // (move_volume_point on the volume as it was when grabbed, so a point dragged inside and out
    // again comes back), or the grabbed volume moves in xz by how far the cursor's level point
    // moved. Keeps the last volume that made a polygon. True when the volume changed.
    bool drag_to(std::vector<nav::ConvexVolume>& vols, const float* ground);
    void release() {
        if (!panel_edit_) drag_ = Drag::None;
    }
    // A mouse drag in the view (not the panel's point edit) is on.
    bool dragging() const { return drag_ != Drag::None && !panel_edit_; }
    // The grabbed point's position (x, y, z) while a hull point is dragged (or edited in the
    // panel), null otherwise: drawn even when it is inside the hull.
    const float* dragged_point() const { return drag_ == Drag::Point ? drag_pos_ : nullptr; }
    // The panel's edit of point k of the selected volume (also what dragging a handle does):
    // begin_point_edit keeps the volume as it is, set_point_xz moves point k of that (as drag_to
    // does), end_point_edit lets go. True from set_point_xz when the volume changed.
    void begin_point_edit(const std::vector<nav::ConvexVolume>& vols, size_t k);
    bool set_point_xz(std::vector<nav::ConvexVolume>& vols, float x, float z);
    void end_point_edit() {
        if (panel_edit_) drag_ = Drag::None;
        panel_edit_ = false;
    }
    // The points the panel lists for the selected volume: during a point edit the volume as it was
    // when the edit began with the point where it is now (so the rows stay put), else its hull.
    std::vector<float> listed_points(const std::vector<nav::ConvexVolume>& vols) const;
    // Removes point k of the selected volume (remove_volume_point); false with error() saying why.
    bool remove_point(std::vector<nav::ConvexVolume>& vols, size_t k);
    // Enter / Close: the points' volume (make_volume with the panel's area, height and descent) is
    // appended and selected, the points cleared. False, with error() saying why and the points
    // kept, when they make no volume (fewer than 3 apart, all on one line).
    bool close(std::vector<nav::ConvexVolume>& vols);
    // Esc: drops the points placed so far. True when there were some.
    bool cancel();
    // Delete: removes the selected volume and ends a drag. True when one was removed.
    bool remove_selected(std::vector<nav::ConvexVolume>& vols);
    // Drops a selection that no longer names a volume (after undo, a loaded session), and a drag
    // of a volume that changed under it.
    void clamp(const std::vector<nav::ConvexVolume>& vols);
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
    // (area and heights editable), remove buttons; under the selected volume its points (x, z
    // editable, a remove button each while it has more than 3). Returns true when the volumes
    // changed.
    bool panel(std::vector<nav::ConvexVolume>& vols, const nav::AreaTable& areas);

private:
    bool points_panel(std::vector<nav::ConvexVolume>& vols);  // the selected volume's points

    std::vector<float> pts_;  // x,y,z per point placed for the new volume
    uint8_t area_ = nav::kAreaWater;
    float height_ = 6.0f, descent_ = 1.0f;  // RecastDemo's box height and descent
    std::string error_;
    enum class Drag { None, Point, Volume };
    Drag drag_ = Drag::None;
    nav::ConvexVolume grabbed_;         // the selected volume as it was when grabbed
    size_t grabbed_point_ = 0;          // Drag::Point: its index in grabbed_.verts
    float drag_pos_[3] = {0, 0, 0};     // Drag::Point: where the point is now
    float grab_ground_[3] = {0, 0, 0};  // Drag::Volume: the level point where it was grabbed
    bool panel_edit_ = false;           // Drag::Point started by the panel (not the mouse)
};

}  // namespace navdebug
