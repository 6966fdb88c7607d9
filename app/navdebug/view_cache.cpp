// The 3D view's own framebuffer and when the scene is drawn into it (view_cache.h).
#include "view_cache.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiContext::ActiveIdHasBeenEditedThisFrame

#include <algorithm>
#include <chrono>
#include <cstring>

namespace navdebug {

// ---- ViewTarget ---------------------------------------------------------------------------------

bool ViewTarget::ensure(int w, int h) {
    if (valid() && w == w_ && h == h_) return true;
    release();
    w_ = w;
    h_ = h;
    GLint max_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    const GLsizei samples = std::min(4, static_cast<int>(max_samples));
    if (samples > 1) {
        glGenFramebuffers(1, &ms_fbo_);
        glGenRenderbuffers(1, &ms_color_);
        glGenRenderbuffers(1, &ms_depth_);
        glBindRenderbuffer(GL_RENDERBUFFER, ms_color_);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, w, h);
        glBindRenderbuffer(GL_RENDERBUFFER, ms_depth_);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH24_STENCIL8, w, h);
        glBindFramebuffer(GL_FRAMEBUFFER, ms_fbo_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ms_color_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ms_depth_);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            // no multisampled target: the scene is drawn single sampled below
            const GLuint rbs[2] = {ms_color_, ms_depth_};
            glDeleteRenderbuffers(2, rbs);
            glDeleteFramebuffers(1, &ms_fbo_);
            ms_fbo_ = ms_color_ = ms_depth_ = 0;
        }
    }
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &color_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
    if (!ms_fbo_) {
        glGenRenderbuffers(1, &depth_);
        glBindRenderbuffer(GL_RENDERBUFFER, depth_);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, w, h);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth_);
    }
    const bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!ok) release();
    return ok;
}

void ViewTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, ms_fbo_ ? ms_fbo_ : fbo_); }

void ViewTarget::resolve() const {
    if (!ms_fbo_) return;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    glBlitFramebuffer(0, 0, w_, h_, 0, 0, w_, h_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

void ViewTarget::present() const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, w_, h_, 0, 0, w_, h_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void ViewTarget::release() {
    const GLuint fbos[2] = {ms_fbo_, fbo_};
    const GLuint rbs[4] = {ms_color_, ms_depth_, color_, depth_};
    glDeleteFramebuffers(2, fbos);  // zero names are ignored
    glDeleteRenderbuffers(4, rbs);
    ms_fbo_ = ms_color_ = ms_depth_ = fbo_ = color_ = depth_ = 0;
    w_ = h_ = 0;
}

// ---- when the scene is drawn ------------------------------------------------------------------

bool input_touches_scene() {
    // A click, a key press or a widget edit may change what the scene shows through state the
    // signature does not see (a tool's option, a path setting): the scene is drawn again. Typing
    // into a text field is not (a field's value is applied with a button or Enter, which is).
    const ImGuiIO& io = ImGui::GetIO();
    for (int b = 0; b < IM_ARRAYSIZE(io.MouseClicked); ++b)
        if (io.MouseClicked[b] || io.MouseReleased[b]) return true;
    if (io.WantTextInput) return false;
    for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k)
        if (io.KeysDownDuration[k] == 0.0f) return true;  // pressed this frame
    return GImGui->ActiveIdHasBeenEditedThisFrame;
}

size_t ViewCache::span_budget(size_t user) const {
    // no limit asked for, or the camera still: the user's budget (a still view is drawn whole)
    if (user == 0 || !moving_ || moving_span_budget_ == 0) return user;
    return std::min(user, moving_span_budget_);
}

double ViewCache::upload_budget(double base) const {
    if (base <= 0.0) return base;  // screenshots: everything at once
    // A frame that draws the scene costs its draw anyway: while the upload goes on (each part
    // changes the picture) half the scene's time more finishes the upload in fewer such frames.
    return std::clamp(0.5 * last_scene_ms_, base, 40.0);
}

bool ViewCache::prepare(int fb_w, int fb_h, const glm::mat4& view_proj, const std::function<uint64_t()>& signature,
                        bool always) {
    draw_now_ = false;
    if (!on || fb_w <= 0 || fb_h <= 0) return false;
    moving_ = view_proj != drawn_view_proj_;
    const uint64_t sig = signature();
    if (sig != drawn_sig_ || always || input_touches_scene() || !target_.valid() || target_.width() != fb_w ||
        target_.height() != fb_h)
        dirty_ = true;
    if (!dirty_) {
        deferred_ = false;
        return false;
    }
    if (!moving_ && !deferred_ && last_scene_ms_ > kSlowSceneMs && target_.valid()) {
        // this frame: the panels over the old image, marked; the scene on the next frame
        deferred_ = true;
        return true;
    }
    deferred_ = false;
    draw_now_ = true;
    drawn_sig_ = sig;
    return false;
}

void ViewCache::timed_draw(const std::function<void()>& draw, bool finish) {
    const auto t0 = std::chrono::steady_clock::now();
    draw();
    if (finish) glFinish();  // the draw's real cost (a software GL rasterises at the flush)
    last_scene_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ++scene_draws_;
}

void ViewCache::present(int fb_w, int fb_h, const glm::mat4& view_proj, size_t& budget,
                        const std::function<void()>& draw) {
    if (!on) {
        timed_draw(draw, false);
        return;
    }
    if (draw_now_ && target_.ensure(fb_w, fb_h)) {
        const size_t user = budget;
        timed_draw(
            [&] {
                target_.bind();
                budget = drawn_span_budget_ = span_budget(user);
                draw();
                budget = user;
                target_.resolve();
            },
            true);
        drawn_view_proj_ = view_proj;
        dirty_ = false;
        // while the camera moves the span budget follows the draw time: lowered when a frame is
        // over kTargetSceneMs, raised again (up to the user's) when well under it
        if (moving_ && user > 0) {
            size_t b = moving_span_budget_ ? moving_span_budget_ : user;
            if (last_scene_ms_ > kTargetSceneMs)
                b = static_cast<size_t>(static_cast<double>(b) * std::max(0.25, kTargetSceneMs / last_scene_ms_));
            else if (last_scene_ms_ < 0.5 * kTargetSceneMs)
                b = b + b / 4;
            moving_span_budget_ = std::clamp<size_t>(b, std::min<size_t>(user, 50000), user);
        }
    }
    if (target_.valid()) {
        target_.present();
    } else {
        // no framebuffer of its own: drawn on the window as before
        draw();
    }
}

}  // namespace navdebug
