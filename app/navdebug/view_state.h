// What the debugger's view owns: the camera and its drag, the view rectangle and projection, what
// is drawn and how (ground, panels shown, the readability options, seeing inside, the change
// highlight). Plain state; App's frame loop and camera input (camera_input.cpp) change it.
#pragma once
#include <glm/glm.hpp>
#include <memory>

#include "camera.h"
#include "core/bake/input.h"
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

    // The shaders' view cut for this frame (clip, section, floor tint) from `see`; floor bands
    // start under the lowest point of `mesh`.
    nav::render::ViewCut view_cut(const nav::InputMesh* mesh) const;
    // What clicks and hovers go through: what the view does not draw (culled, ceilings, cut).
    nav::render::PickVisibility pick_visibility(const nav::render::LayerMask& layers) const;
};

}  // namespace navdebug
