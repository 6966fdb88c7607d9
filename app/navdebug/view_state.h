// What the debugger's view owns: the camera and its drag, the view rectangle and projection, what
// is drawn and how (ground, panels shown, the readability options, seeing inside, the change
// highlight). Plain state; App's frame loop and camera input (app_input.cpp) change it.
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <vector>

#include "camera.h"
#include "core/bake/input.h"
#include "core/runtime/navmesh.h"
#include "render/layers.h"
#include "render/pick.h"
#include "session.h"

namespace navdebug {

struct ViewState {
    Camera cam;
    ViewRect rect{};  // the 3D view between the panels
    glm::mat4 view_proj{1.0f};
    float win_w = 1, win_h = 1;
    enum class Drag { None, Look, Orbit, Pan } drag = Drag::None;
    glm::vec3 pivot{0.0f};
    bool animating = false;  // something moves (flying, dragging, a bake running)
    std::shared_ptr<const nav::InputMesh> framed_mesh;  // the mesh the camera was last framed on
    bool camera_placed = false;

    bool show_ground = true;
    bool inspect = true;  // hover inspection of spans
    bool show_ui = true;
    ViewSettings see;  // seeing inside: culling, ceilings, clip, section, floor tint
    nav::render::LayerDrawOptions draw_opts;
    bool highlight_changes = false;

    // The navmesh's floors, by tint band (band k: heights tint_origin + k * floor_height and up):
    // the bands its polygons stand in, and whether it has several floors (two bands over the same
    // ground on a tenth of its area or more, each polygon counted over the middle half of its
    // bounds; a hillside crossing bands is one floor).
    struct Floors {
        std::shared_ptr<const nav::NavMesh> navmesh;  // what they were counted on (held: its address is not reused)
        float origin = 0.0f, band = 0.0f;
        std::vector<int> bands;  // ascending
        bool several = false;
    } floors;
    // Recounts `floors` when the navmesh, the band origin or the band height changed.
    void update_floors(const std::shared_ptr<const nav::NavMesh>& navmesh, const nav::InputMesh* mesh);
    // Floor tint as drawn: the user's setting, or while they have not set it, on for several floors.
    bool floor_tint_on() const { return see.floor_tint_auto ? floors.several : see.floor_tint; }
    // The shaders' view cut for this frame (clip, section, floor tint) from `see`; floor bands
    // start under the lowest point of `mesh`.
    nav::render::ViewCut view_cut(const nav::InputMesh* mesh) const;
    // The walkable part of the level, which the default camera frames (not the whole input: a
    // house's whole bounds put its roof in front): the triangles `tri_areas` marks walkable, or
    // without them those no steeper than 45 degrees, raised by an agent's height. False (bounds
    // left alone) when no triangle is walkable.
    static bool walkable_bounds(const nav::InputMesh& mesh, const std::vector<uint8_t>* tri_areas, glm::vec3& bmin,
                                glm::vec3& bmax);
    // Height where tint band 0 starts.
    static float tint_origin(const nav::InputMesh* mesh);
    // What clicks and hovers go through: what the view does not draw (culled, ceilings, cut).
    nav::render::PickVisibility pick_visibility(const nav::render::LayerMask& layers) const;
};

}  // namespace navdebug
