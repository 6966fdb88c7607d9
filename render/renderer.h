// The GL 3.3 core side of navrender: shader programs loaded from shaders/, GPU buffers that are
// reused across rebuilds, and the draw calls for DrawList batches. Needs a current context whose
// functions were loaded with glad (gladLoadGL) before Renderer::init().
#pragma once
#include <glad/gl.h>

#include <memory>
#include <string>

#include "render/draw_list.h"
#include "render/span_lod.h"

namespace nav::render {

// The directory shaders are read from: $NAV_SHADER_DIR if set and not empty, else the
// installed data directory's shaders/ (see installed_data_dir), else the NAV_SHADER_DIR compile
// definition (the source tree's shaders/).
std::string shader_dir();
// PREFIX/share/navkit when this program runs installed as PREFIX/bin/NAME (shaders/ and assets/ are
// there), else "" (it runs from the build tree: the sources' shaders/ and assets/ are used).
std::string installed_data_dir();

class Program {
public:
    Program() = default;
    ~Program();
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    // Compiles and links shader files (names relative to shader_dir(); geom may be empty).
    // On failure returns false and fills err with the file and the driver's log.
    bool load(const std::string& vert, const std::string& geom, const std::string& frag, std::string& err);
    GLuint id() const { return id_; }
    GLint loc(const char* uniform) const { return glGetUniformLocation(id_, uniform); }

private:
    GLuint id_ = 0;
};

// A GL buffer of span positions (DrawList::span_pos) that several GpuDrawLists may draw from: the
// span layers built from the same spans share one (LayerCache::update finds it by content hash).
struct SpanPosBuffer {
    GLuint id = 0;
    size_t bytes = 0;
    uint64_t hash = 0;  // DrawList::span_pos_hash
    SpanPosBuffer() = default;
    SpanPosBuffer(const SpanPosBuffer&) = delete;
    SpanPosBuffer& operator=(const SpanPosBuffer&) = delete;
    ~SpanPosBuffer();
};

// One batch on the GPU. Buffers grow but never shrink, so re-uploads after a rebuild reuse them.
class GpuDrawList {
public:
    GpuDrawList() = default;
    ~GpuDrawList();
    GpuDrawList(const GpuDrawList&) = delete;
    GpuDrawList& operator=(const GpuDrawList&) = delete;

    // `shared` (may be null): a position buffer holding exactly list.span_pos (same hash and size),
    // drawn from instead of uploading the positions again.
    void upload(const DrawList& list, std::shared_ptr<SpanPosBuffer> shared = nullptr);
    bool empty() const { return tri_index_count_ == 0 && line_vert_count_ == 0 && point_count_ == 0 && span_count_ == 0; }
    // The buffers this list owns (not the span positions, which may be shared: span_positions()).
    size_t gpu_bytes() const { return tri_cap_ + index_cap_ + line_cap_ + point_cap_ + span_cap_; }
    const std::shared_ptr<SpanPosBuffer>& span_positions() const { return span_pos_; }
    // The span chunks (level of detail) and where they are, for planning several lists together
    // (plan_span_sets): a set without `level` and `stats`, which the caller points at its own.
    bool has_span_chunks() const { return span_count_ && span_pos_ && !span_chunks_.empty(); }
    SpanChunkSet span_chunk_set() const;
    size_t span_instances() const { return span_pos_ ? span_full_ : 0; }  // full-resolution span instances

private:
    friend class Renderer;
    void ensure_created();
    GLuint vao_tri_ = 0, vao_line_ = 0, vao_point_ = 0;
    GLuint vbo_tri_ = 0, ibo_tri_ = 0, vbo_line_ = 0, vbo_point_ = 0;
    size_t tri_cap_ = 0, index_cap_ = 0, line_cap_ = 0, point_cap_ = 0;  // bytes allocated
    GLsizei tri_index_count_ = 0, line_vert_count_ = 0, point_count_ = 0;
    // span instances over the shared unit box / quad mesh (created with the first list that has some)
    GLuint vao_span_ = 0, vbo_span_ = 0;  // vbo_span_: the colours (4 bytes a span)
    size_t span_cap_ = 0;
    std::shared_ptr<SpanPosBuffer> span_pos_;
    GLsizei span_count_ = 0;
    SpanShape span_shape_ = SpanShape::Box;
    float span_origin_[3] = {0, 0, 0};
    float span_cell_[3] = {1, 1, 0};  // cs, ch, lift
    std::vector<SpanChunk> span_chunks_;  // level of detail (empty: the spans drawn whole)
    size_t span_full_ = 0;                // full-resolution instances
    // draw settings copied from the DrawList at upload
    float line_width_ = 1.5f, point_size_ = 6.0f;
    Shade shade_ = Shade::Plain;
    float grid_origin_[3] = {0, 0, 0};
    float grid_cell_ = 1.0f;
    bool depth_test_ = true;
};

// What the whole frame cuts away or tints, applied in the shaders to every draw (no rebuild): the
// world position tested is the data's own, before a layer's lift.
struct ViewCut {
    bool clip = false;           // height clip: fragments below clip_min or above clip_max are discarded
    float clip_min = 0.0f, clip_max = 0.0f;
    bool section = false;        // section plane: the side `normal` points to is discarded
    float point[3] = {0, 0, 0};  // a point on the plane
    float normal[3] = {1, 0, 0}; // need not be unit length; a zero normal cuts nothing
    bool floor_tint = false;     // colour by height band: band k = floor((y - tint_origin) / tint_band)
    float tint_origin = 0.0f, tint_band = 3.0f;
};

// The tint colour of height band k (cycles through a palette of four; k may be negative).
void floor_tint_color(int band, float rgb[3]);

struct FrameParams {
    float view_proj[16];     // column-major
    float eye[3];
    float light_dir[3];      // towards the light, normalised by the renderer
    int viewport_w = 1, viewport_h = 1;  // pixels of the framebuffer being drawn
    ViewCut cut;
};

// Per-draw modifiers set between draws (the layer panel's opacity, stacking offset and x-ray).
struct DrawStyle {
    float alpha = 1.0f;  // multiplies every fragment's alpha
    float lift = 0.0f;   // world-space y offset added to every vertex
    bool xray = false;   // depth-tested line batches are drawn a second time, faint, without depth test
    bool cull = false;   // back faces (clockwise seen from the eye) of the triangles are not drawn
    bool hide_ceilings = false;  // triangles facing down (by winding) are not drawn where the eye is above them
    float grey = 0.0f;   // 0..1: colours mixed towards their grey level (the change highlight's base)
    bool no_tint = false;  // the floor tint leaves this draw's colours alone (the path tool's own colours)
    // Span instances this draw may take at full resolution (0: no limit); beyond it, the farther
    // chunks of a span list are drawn merged (render/span_lod.h).
    size_t span_budget = 0;
};

class Renderer {
public:
    Renderer() = default;
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    bool init(std::string& err);  // loads the programs
    void begin(const FrameParams& frame);
    // Spans first, then triangles, then lines, then points. `span_levels` (may be null): the level
    // of each of the list's span chunks, planned by the caller over several lists (plan_span_sets);
    // null: the list is planned alone under the style's span budget.
    void draw(const GpuDrawList& list, const std::vector<int8_t>* span_levels = nullptr);
    void end();
    // Applies to the draws that follow until the next set_style() or begin() (which resets it).
    void set_style(const DrawStyle& s) { style_ = s; }
    const DrawStyle& style() const { return style_; }
    const FrameParams& frame() const { return frame_; }  // of the frame begun
    // What the last draw() of a list with spans drew of them (levels, culled chunks).
    const SpanPlanStats& last_span_stats() const { return span_plan_.stats; }

private:
    Program tri_, line_, point_, box_;
    FrameParams frame_{};
    DrawStyle style_{};
    // the cut uniforms every program has (u_clip, u_plane, u_tint, u_grey: see shaders/cut.glsl)
    struct CutLoc { GLint clip, plane, tint, grey; };
    void set_cut(const CutLoc& c) const;
    struct TriLoc { GLint view_proj, light_dir, eye, shade, grid_origin, grid_cell, alpha, lift, ceilings; CutLoc cut; } tl_{};
    struct BoxLoc { TriLoc tri; GLint origin, cell, hide_faces; } bl_{};
    SpanPlan span_plan_;
    SpanPlanScratch plan_scratch_;
    // a software GL: glFinish after every kSoftwareFinishTris triangles submitted (submitted())
    bool software_ = false;
    size_t pending_tris_ = 0;
    static constexpr size_t kSoftwareFinishTris = 262144;
    void submitted(size_t triangles);
    struct LineLoc { GLint view_proj, viewport, width, depth_bias, alpha, lift; CutLoc cut; } ll_{};
    struct PointLoc { GLint view_proj, size, alpha, lift; CutLoc cut; } pl_{};
};

}  // namespace nav::render
