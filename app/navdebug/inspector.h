// The inspector: the element under the cursor in the top visible layer (spans, compact spans,
// contour vertices, polygons, detail triangles, navmesh polygons, input triangles) as a hover
// tooltip, a click pins it in the inspector panel, and both are highlighted in the view (hovered
// pale cyan, pinned bright yellow and thicker, with its neighbours / links in orange). The pin is
// kept as a world point: after a rebake or a layer change the element there is picked again.
// `--select x,y,z` pins headless.
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <optional>

#include "core/pipeline/pipeline.h"
#include "render/draw_list.h"
#include "render/inspect.h"
#include "render/layers.h"
#include "render/pick.h"

namespace navdebug {

struct PickRay {
    glm::vec3 o{0.0f}, d{0.0f, -1.0f, 0.0f};  // origin and direction (any length) of the cursor ray
};

class Inspector {
public:
    // --select: pin the element at this world point as soon as a bake shows its layer.
    void set_pin_point(const glm::vec3& p) {
        pin_point_ = p;
        pin_dirty_ = true;
    }
    // Once per frame. `hover` is null when the cursor is over a panel, outside the view or dragging;
    // `click` pins what is hovered (the inspect tool is active and the left button was clicked).
    void update(const std::shared_ptr<const nav::Bake>& bake, const nav::render::LayerMask& layers,
                const PickRay* hover, bool click);
    void tooltip() const;  // ImGui tooltip for the hovered element (call inside the frame)
    void panel();          // ImGui contents of the inspector panel (the pinned element)
    bool has_pin() const;
    void clear_pin();
    // Highlight of the hovered and the pinned element, drawn over everything.
    void draw_overlay(nav::render::DrawList& out) const;

    const nav::render::Element& hovered() const { return hovered_; }
    const nav::render::Element& pinned() const { return pinned_; }
    // Where the pinned element was picked (F frames it), if anything is pinned.
    const std::optional<glm::vec3>& pin_point() const { return pin_point_; }
    std::optional<nav::render::Layer> layer() const { return layer_; }

private:
    void repick_pin();

    std::shared_ptr<const nav::Bake> bake_;  // the bake the elements index into
    std::optional<nav::render::Layer> layer_;
    std::optional<glm::vec3> pin_point_;
    bool pin_dirty_ = false;
    nav::render::Element hovered_, pinned_;
    nav::render::ElementText hover_text_, pin_text_;
    PickRay last_ray_;
    bool have_ray_ = false;
};

}  // namespace navdebug
