// The 3D view's own framebuffer: the scene is drawn into it only when what it shows changed
// (camera, layers, draw options, data, hover highlight, window size) and copied to the window
// every frame, so the panels redraw at their own rate over the last image. ViewCache decides when
// (the deferred frame of a slow scene, the span budget while the camera moves); what "changed"
// means is the App's scene signature (app_view.cpp), hashed with SceneHasher.
#pragma once
#include <glad/gl.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

#include <glm/glm.hpp>

#include "render/draw_list.h"

namespace navdebug {

// Multisampled colour + depth (where the GL has samples), resolved into a plain colour target
// that is blitted onto the window's framebuffer. The window's own framebuffer is then single
// sampled (a blit into a multisampled framebuffer is not allowed).
class ViewTarget {
public:
    ViewTarget() = default;
    ViewTarget(const ViewTarget&) = delete;
    ViewTarget& operator=(const ViewTarget&) = delete;
    ~ViewTarget() { release(); }
    // (Re)creates the buffers for a (w, h) framebuffer; false when the GL refuses them.
    bool ensure(int w, int h);
    bool valid() const { return fbo_ != 0; }
    int width() const { return w_; }
    int height() const { return h_; }
    // Binds the framebuffer the scene is drawn into.
    void bind() const;
    // Resolves the samples into the colour target (after the scene is drawn).
    void resolve() const;
    // Copies the resolved image onto the window's framebuffer (0), which is left bound.
    void present() const;

private:
    void release();
    GLuint ms_fbo_ = 0, ms_color_ = 0, ms_depth_ = 0;  // 0 when the GL has no multisampling
    GLuint fbo_ = 0, color_ = 0, depth_ = 0;           // depth_ only without multisampling
    int w_ = 0, h_ = 0;
};

// FNV-1a over the bytes of plain values: the scene signature.
struct SceneHasher {
    uint64_t h = 1469598103934665603ull;
    void bytes(const void* p, size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
    }
    template <class T>
    void add(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    template <class T>
    void vec(const std::vector<T>& v) {
        add(v.size());
        if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
    }
    void list(const nav::render::DrawList& l) {
        vec(l.tri_verts);
        vec(l.tri_indices);
        vec(l.line_verts);
        vec(l.point_verts);
    }
};

// Clicks, key presses and widget edits this frame (a checkbox or slider may change what is drawn
// through state the signature does not see); typing into a text field is not.
bool input_touches_scene();

// When the scene is drawn into the view's framebuffer, and the budgets that follow its draw time.
class ViewCache {
public:
    static constexpr double kSlowSceneMs = 30.0;    // slower scenes draw a frame after the change
    static constexpr double kTargetSceneMs = 50.0;  // the span budget shrinks while a moving scene is slower

    // Off (--no-view-cache): the scene is drawn on the window every frame.
    bool on = true;

    // After the frame's UI, before ImGui::Render: whether the scene is drawn this frame (what it
    // shows changed: `signature`, called once the camera's motion is known, differs from the last
    // draw's, or `always`) or the last image is shown again. True when the frame is deferred: a
    // slow scene that changed without the camera moving shows the old image (the caller marks it
    // "drawing...") and is drawn on the next frame, so the panels answer first.
    bool prepare(int fb_w, int fb_h, const glm::mat4& view_proj, const std::function<uint64_t()>& signature, bool always);
    // After ImGui::Render: `draw` (the scene into the current framebuffer) into the view's
    // framebuffer when prepare said so, with `budget` (the user's span budget) set to this frame's, then the image
    // onto the window's framebuffer. Off: drawn on the window.
    void present(int fb_w, int fb_h, const glm::mat4& view_proj, size_t& budget, const std::function<void()>& draw);

    // The span budget of this frame's draw: the user's, lowered while the camera moves and the
    // scene is slower than kTargetSceneMs.
    size_t span_budget(size_t user) const;
    // The layer upload budget of a frame from the scene's time (`base`: the configured one).
    double upload_budget(double base) const;

    bool deferred() const { return deferred_; }                // the last frame showed "drawing..."
    double last_scene_ms() const { return last_scene_ms_; }    // the last scene draw, finished (glFinish)
    uint64_t scene_draws() const { return scene_draws_; }
    size_t drawn_span_budget() const { return drawn_span_budget_; }  // the last draw's (the LOD text names a lowered one)

private:
    void timed_draw(const std::function<void()>& draw, bool finish);

    ViewTarget target_;
    bool draw_now_ = false;  // prepare: present draws the scene
    bool dirty_ = true;      // a change not drawn yet (a deferred frame)
    bool deferred_ = false;
    bool moving_ = false;    // the camera moved since the last draw
    uint64_t drawn_sig_ = 0;
    glm::mat4 drawn_view_proj_{0.0f};
    double last_scene_ms_ = 0.0;
    uint64_t scene_draws_ = 0;
    size_t moving_span_budget_ = 0;  // the span budget while the camera moves (0: not lowered yet)
    size_t drawn_span_budget_ = 0;
};

}  // namespace navdebug
