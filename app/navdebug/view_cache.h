// The 3D view's own framebuffer (issue 23): the scene is drawn into it only when what it shows
// changed (camera, layers, draw options, data, hover highlight, window size) and copied to the
// window every frame, so the panels redraw at their own rate over the last image. The App side
// (what "changed" means, the deferred frame, the adaptive budgets) is in view_cache.cpp too.
#pragma once
#include <glad/gl.h>

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

}  // namespace navdebug
