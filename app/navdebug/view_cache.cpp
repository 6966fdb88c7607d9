// The 3D view's own framebuffer and when the scene is drawn into it (view_cache.h, app.h).
#include "view_cache.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiContext::ActiveIdHasBeenEditedThisFrame

#include <algorithm>
#include <chrono>
#include <cstring>

#include "app.h"

#include "core/bake/palette.h"

namespace navdebug {

namespace r = nav::render;

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

namespace {

// FNV-1a over the bytes of plain values.
struct Hasher {
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
    void list(const r::DrawList& l) {
        vec(l.tri_verts);
        vec(l.tri_indices);
        vec(l.line_verts);
        vec(l.point_verts);
    }
};

}  // namespace

bool App::input_touches_scene() {
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

uint64_t App::scene_signature(int fb_w, int fb_h) {
    Hasher h;
    h.add(fb_w);
    h.add(fb_h);
    h.add(view_.view_proj);
    h.add(view_.cam.eye);
    r::LayerMask shown = opts_.layers;
    if (replay_.active()) shown[static_cast<size_t>(r::Layer::Regions)] = false;
    for (int i = 0; i < r::kLayerCount; ++i) h.add(static_cast<bool>(shown[static_cast<size_t>(i)]));
    const r::LayerDrawOptions& o = view_.draw_opts;
    h.add(o.opacity);
    h.add(o.lift_step);
    h.add(o.xray);
    h.add(view_.see.cull);
    h.add(view_.see.hide_ceilings);
    h.add(frame_span_budget());
    const r::ViewCut cut = view_.view_cut(bake_ && bake_->mesh ? bake_->mesh.get() : nullptr);
    h.add(cut.clip);
    h.add(cut.clip_min);
    h.add(cut.clip_max);
    h.add(cut.section);
    h.add(cut.point);
    h.add(cut.normal);
    h.add(cut.floor_tint);
    h.add(cut.tint_origin);
    h.add(cut.tint_band);
    // the data: new bakes, layers, highlights arrive as new objects; uploads advance part by part
    h.add(bake_.get());
    h.add(draw_bake_.get());
    h.add(raw_layers_.get());
    h.add(highlight_.get());
    h.add(layers_.generation());
    h.add(layers_.parts_pending());
    h.add(diff_upload_);
    h.add(view_.show_ground);
    h.add(view_.highlight_changes);
    // the path's ends (its route follows from them and the navmesh)
    h.add(path_on());
    h.add(sel_.path.has_start());
    h.add(sel_.path.has_end());
    h.add(sel_.path.start());
    h.add(sel_.path.end());
    // and the filter (a cost slider, a flag checkbox re-plans it)
    h.add(sel_.path.filter().area_cost);
    h.add(sel_.path.filter().include_flags);
    h.add(sel_.path.filter().exclude_flags);
    // the area colours the layers and legends take
    for (int a = 0; a < 64; ++a) h.add(nav::area_color(static_cast<uint8_t>(a)));
    // hover highlight, pins, the selected tile, the Why tool's marks
    build_overlays();
    h.list(overlay_cpu_);
    h.list(why_bold_cpu_);
    return h.h;
}

size_t App::frame_span_budget() const {
    const size_t user = view_.draw_opts.span_budget;
    // no limit asked for, or the camera still: the user's budget (a still view is drawn whole)
    if (user == 0 || !view_moving_ || moving_span_budget_ == 0) return user;
    return std::min(user, moving_span_budget_);
}

double App::frame_upload_budget() const {
    if (layer_upload_budget_ms_ <= 0.0) return layer_upload_budget_ms_;  // screenshots: everything at once
    // A frame that draws the scene costs its draw anyway: while the upload goes on (each part
    // changes the picture) half the scene's time more finishes the upload in fewer such frames.
    return std::clamp(0.5 * last_scene_ms_, layer_upload_budget_ms_, 40.0);
}

void App::prepare_view(int fb_w, int fb_h) {
    view_draw_now_ = false;
    if (!view_cache_on_ || fb_w <= 0 || fb_h <= 0) return;
    view_moving_ = view_.view_proj != drawn_view_proj_;
    const uint64_t sig = scene_signature(fb_w, fb_h);
    // a 2D scene and the region replay step on their own: drawn every frame (both are small)
    const bool always = map2d_.scene() || replay_.active();
    if (sig != drawn_sig_ || always || input_touches_scene() || !view_target_.valid() || view_target_.width() != fb_w ||
        view_target_.height() != fb_h)
        view_dirty_ = true;
    if (!view_dirty_) {
        view_deferred_ = false;
        return;
    }
    if (!view_moving_ && !view_deferred_ && last_scene_ms_ > kSlowSceneMs && view_target_.valid()) {
        // this frame: the panels over the old image, marked; the scene on the next frame
        view_deferred_ = true;
        view_.animating = true;  // the next frame comes at once
        const char* text = "drawing...";
        const ImVec2 ts = ImGui::CalcTextSize(text);
        const ImVec2 at(view_.rect.x + view_.rect.w - ts.x - 14.0f, 10.0f);
        ImDrawList* fg = ImGui::GetForegroundDrawList();
        fg->AddRectFilled(ImVec2(at.x - 6.0f, at.y - 3.0f), ImVec2(at.x + ts.x + 6.0f, at.y + ts.y + 3.0f), IM_COL32(0, 0, 0, 170), 4.0f);
        fg->AddText(at, IM_COL32(235, 235, 245, 255), text);
        return;
    }
    view_deferred_ = false;
    view_draw_now_ = true;
    drawn_sig_ = sig;
}

void App::present_view(int fb_w, int fb_h) {
    if (!view_cache_on_) {
        const auto t0 = Clock::now();
        render_scene(fb_w, fb_h);
        last_scene_ms_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        ++scene_draws_;
        return;
    }
    if (view_draw_now_ && view_target_.ensure(fb_w, fb_h)) {
        const auto t0 = Clock::now();
        view_target_.bind();
        const size_t user = view_.draw_opts.span_budget;
        view_.draw_opts.span_budget = drawn_span_budget_ = frame_span_budget();
        render_scene(fb_w, fb_h);
        view_.draw_opts.span_budget = user;
        view_target_.resolve();
        glFinish();  // the draw's real cost (a software GL rasterises at the flush)
        last_scene_ms_ = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        ++scene_draws_;
        drawn_view_proj_ = view_.view_proj;
        view_dirty_ = false;
        // while the camera moves the span budget follows the draw time: lowered when a frame is
        // over kTargetSceneMs, raised again (up to the user's) when well under it
        if (view_moving_ && user > 0) {
            size_t b = moving_span_budget_ ? moving_span_budget_ : user;
            if (last_scene_ms_ > kTargetSceneMs)
                b = static_cast<size_t>(static_cast<double>(b) * std::max(0.25, kTargetSceneMs / last_scene_ms_));
            else if (last_scene_ms_ < 0.5 * kTargetSceneMs)
                b = b + b / 4;
            moving_span_budget_ = std::clamp<size_t>(b, std::min<size_t>(user, 50000), user);
        }
    }
    if (view_target_.valid()) {
        view_target_.present();
    } else {
        // no framebuffer of its own: drawn on the window as before
        render_scene(fb_w, fb_h);
    }
}

void App::orbit_level(float radians) {
    const nav::InputMesh* mesh = bake_ && bake_->mesh ? bake_->mesh.get() : nullptr;
    if (!mesh) return;
    const glm::vec3 c(0.5f * (mesh->bmin[0] + mesh->bmax[0]), 0.5f * (mesh->bmin[1] + mesh->bmax[1]),
                      0.5f * (mesh->bmin[2] + mesh->bmax[2]));
    view_.cam.orbit(c, radians, 0.0f);
    view_.view_proj = view_.cam.projection(view_.rect, view_.win_w, view_.win_h) * view_.cam.view();
}

}  // namespace navdebug
