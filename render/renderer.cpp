#include "render/renderer.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#ifndef NAV_SHADER_DIR
#error "NAV_SHADER_DIR must be defined by the build (path of shaders/)"
#endif

namespace nav::render {

void floor_tint_color(int band, float rgb[3]) {
    // keep in sync with floor_tint() in shaders/cut.glsl
    static const float pal[4][3] = {{0.20f, 0.85f, 0.30f}, {0.25f, 0.45f, 1.00f}, {1.00f, 0.90f, 0.10f}, {0.60f, 0.30f, 1.00f}};
    const int i = ((band % 4) + 4) % 4;
    for (int k = 0; k < 3; ++k) rgb[k] = pal[i][k];
}

std::string installed_data_dir() {
    // an installed navdebug lives in PREFIX/bin and its data in PREFIX/share/navkit
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const std::filesystem::path data = exe.parent_path().parent_path() / "share" / "navkit";
    return std::filesystem::is_directory(data / "shaders", ec) ? data.string() : std::string();
}

std::string shader_dir() {
    const char* env = std::getenv("NAV_SHADER_DIR");
    if (env && *env) return env;
    static const std::string installed = installed_data_dir();
    if (!installed.empty()) return installed + "/shaders";
    return NAV_SHADER_DIR;
}

namespace {

bool read_text(const std::string& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

// Replaces each line `#include "NAME"` by the text of shader_dir()/NAME (one level, no nesting).
bool expand_includes(std::string& src, const std::string& path, std::string& err) {
    const std::string key = "#include \"";
    for (size_t at = src.find(key); at != std::string::npos; at = src.find(key, at)) {
        const size_t close = src.find('"', at + key.size());
        const size_t eol = src.find('\n', at);
        if (close == std::string::npos || (eol != std::string::npos && close > eol)) {
            err = "shader " + path + ": malformed #include line";
            return false;
        }
        const std::string name = src.substr(at + key.size(), close - at - key.size());
        std::string text;
        if (!read_text(shader_dir() + "/" + name, text)) {
            err = "shader " + path + ": cannot read included " + shader_dir() + "/" + name;
            return false;
        }
        src.replace(at, (eol == std::string::npos ? src.size() : eol) - at, text);
        at += text.size();
    }
    return true;
}

GLuint compile(GLenum type, const std::string& name, std::string& err) {
    const std::string path = shader_dir() + "/" + name;
    std::string src;
    if (!read_text(path, src)) {
        err = "cannot read shader " + path + " (set NAV_SHADER_DIR to the shaders/ directory)";
        return 0;
    }
    if (!expand_includes(src, path, err)) return 0;
    const GLuint s = glCreateShader(type);
    const char* p = src.c_str();
    const auto len = static_cast<GLint>(src.size());
    glShaderSource(s, 1, &p, &len);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        GLint n = 0;
        glGetShaderiv(s, GL_INFO_LOG_LENGTH, &n);
        std::string log(static_cast<size_t>(std::max(n, 1)), '\0');
        glGetShaderInfoLog(s, n, nullptr, log.data());
        err = "shader " + path + " failed to compile: " + log.c_str();
        glDeleteShader(s);
        return 0;
    }
    return s;
}

// Grows a buffer to hold `bytes` or updates it in place.
void upload_buffer(GLenum target, GLuint buf, size_t& cap, const void* data, size_t bytes) {
    glBindBuffer(target, buf);
    // grow with headroom (small buffers: 1.5x; big ones exactly, as the span layers of a 7 M-span
    // level would otherwise hold hundreds of MiB of slack); give a big buffer back when the data
    // shrank to a quarter of it (a bake at a coarser cell size after a fine one), so GPU / driver
    // memory follows the data down
    constexpr size_t kKeepBytes = size_t(1) << 20, kExactBytes = size_t(16) << 20;
    if (bytes > cap || (cap > kKeepBytes && bytes < cap / 4)) {
        cap = bytes > kExactBytes ? bytes : bytes + bytes / 2;
        glBufferData(target, static_cast<GLsizeiptr>(cap), nullptr, GL_DYNAMIC_DRAW);
    }
    if (bytes) glBufferSubData(target, 0, static_cast<GLsizeiptr>(bytes), data);
}

// Big batches are drawn in pieces: a software GL (Mesa llvmpipe under Xvfb) sizes its per-draw
// work buffers by the largest draw and keeps them, so a million-span layer once drawn in one call
// would hold that memory after the layer shrank again. Same picture, bounded driver memory.
constexpr GLsizei kChunkTris = 32768, kChunkLines = 32768;
template <class Draw>
void draw_chunked(GLsizei count, GLsizei chunk, Draw&& draw) {
    for (GLsizei first = 0; first < count; first += chunk) draw(first, std::min(chunk, count - first));
}

void vertex_layout() {
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<const void*>(0));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex),
                          reinterpret_cast<const void*>(offsetof(Vertex, color)));
}

// The per-instance attributes (locations 2-4 of box.vert) starting at instance `first`: the
// position from `pos`, the colour from `color` (the span VAO bound).
void span_attributes(GLuint pos, GLuint color, size_t first) {
    glBindBuffer(GL_ARRAY_BUFFER, pos);
    const size_t base = first * sizeof(SpanPos);
    glVertexAttribIPointer(2, 2, GL_UNSIGNED_INT, sizeof(SpanPos), reinterpret_cast<const void*>(base + offsetof(SpanPos, x)));
    glVertexAttribIPointer(3, 2, GL_UNSIGNED_SHORT, sizeof(SpanPos), reinterpret_cast<const void*>(base + offsetof(SpanPos, y0)));
    glBindBuffer(GL_ARRAY_BUFFER, color);
    glVertexAttribPointer(4, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(uint32_t),
                          reinterpret_cast<const void*>(first * sizeof(uint32_t)));
}

// The unit mesh span instances are drawn on: a box of 6 faces x 4 corners (corner xyz in {0, 1},
// colour factor), the top face first so a floor quad is its first 6 indices. One per process
// (navdebug has one GL context), created on first use.
struct UnitMesh {
    GLuint vbo = 0, ibo = 0;
};
const UnitMesh& unit_mesh() {
    static UnitMesh m;
    if (m.vbo) return m;
    struct V { float x, y, z, shade; };
    // faces: top (+y), bottom (-y, 0.8), -x, +z, +x, -z; each as 4 corners around its edge
    const V v[24] = {
        {0, 1, 0, 1}, {0, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 0, 1},
        {0, 0, 0, .8f}, {1, 0, 0, .8f}, {1, 0, 1, .8f}, {0, 0, 1, .8f},
        {0, 0, 0, 1}, {0, 0, 1, 1}, {0, 1, 1, 1}, {0, 1, 0, 1},
        {0, 0, 1, 1}, {1, 0, 1, 1}, {1, 1, 1, 1}, {0, 1, 1, 1},
        {1, 0, 1, 1}, {1, 0, 0, 1}, {1, 1, 0, 1}, {1, 1, 1, 1},
        {1, 0, 0, 1}, {0, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 0, 1},
    };
    uint32_t idx[36];
    for (uint32_t f = 0; f < 6; ++f) {
        const uint32_t q[6] = {0, 1, 2, 0, 2, 3};
        for (uint32_t k = 0; k < 6; ++k) idx[f * 6 + k] = f * 4 + q[k];
    }
    glGenBuffers(1, &m.vbo);
    glGenBuffers(1, &m.ibo);
    glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STATIC_DRAW);
    // filled through the array target (no VAO needed); each span VAO binds it as its element buffer
    glBindBuffer(GL_ARRAY_BUFFER, m.ibo);
    glBufferData(GL_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return m;
}

}  // namespace

Program::~Program() {
    if (id_) glDeleteProgram(id_);
}

bool Program::load(const std::string& vert, const std::string& geom, const std::string& frag, std::string& err) {
    GLuint shaders[3] = {0, 0, 0};
    int n = 0;
    bool ok = true;
    const std::pair<GLenum, const std::string*> parts[3] = {
        {GL_VERTEX_SHADER, &vert}, {GL_GEOMETRY_SHADER, &geom}, {GL_FRAGMENT_SHADER, &frag}};
    for (const auto& [type, name] : parts) {
        if (name->empty()) continue;
        const GLuint s = compile(type, *name, err);
        if (!s) { ok = false; break; }
        shaders[n++] = s;
    }
    GLuint prog = 0;
    if (ok) {
        prog = glCreateProgram();
        for (int i = 0; i < n; ++i) glAttachShader(prog, shaders[i]);
        glBindAttribLocation(prog, 0, "a_pos");
        glBindAttribLocation(prog, 1, "a_color");
        glLinkProgram(prog);
        GLint linked = 0;
        glGetProgramiv(prog, GL_LINK_STATUS, &linked);
        if (!linked) {
            GLint len = 0;
            glGetProgramiv(prog, GL_INFO_LOG_LENGTH, &len);
            std::string log(static_cast<size_t>(std::max(len, 1)), '\0');
            glGetProgramInfoLog(prog, len, nullptr, log.data());
            err = "program " + vert + " + " + frag + " failed to link: " + log.c_str();
            glDeleteProgram(prog);
            prog = 0;
            ok = false;
        }
    }
    for (int i = 0; i < n; ++i) glDeleteShader(shaders[i]);
    if (!ok) return false;
    if (id_) glDeleteProgram(id_);
    id_ = prog;
    return true;
}

SpanPosBuffer::~SpanPosBuffer() {
    if (id) glDeleteBuffers(1, &id);
}

GpuDrawList::~GpuDrawList() {
    const GLuint bufs[4] = {vbo_tri_, ibo_tri_, vbo_line_, vbo_point_};
    const GLuint vaos[3] = {vao_tri_, vao_line_, vao_point_};
    if (vbo_tri_) glDeleteBuffers(4, bufs);
    if (vao_tri_) glDeleteVertexArrays(3, vaos);
    if (vbo_span_) glDeleteBuffers(1, &vbo_span_);
    if (vao_span_) glDeleteVertexArrays(1, &vao_span_);
}

void GpuDrawList::ensure_created() {
    if (vao_tri_) return;
    GLuint vaos[3], bufs[4];
    glGenVertexArrays(3, vaos);
    glGenBuffers(4, bufs);
    vao_tri_ = vaos[0];
    vao_line_ = vaos[1];
    vao_point_ = vaos[2];
    vbo_tri_ = bufs[0];
    ibo_tri_ = bufs[1];
    vbo_line_ = bufs[2];
    vbo_point_ = bufs[3];

    glBindVertexArray(vao_tri_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_tri_);
    vertex_layout();
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_tri_);
    glBindVertexArray(vao_line_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_line_);
    vertex_layout();
    glBindVertexArray(vao_point_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_point_);
    vertex_layout();
    glBindVertexArray(0);
}

void GpuDrawList::upload(const DrawList& list, std::shared_ptr<SpanPosBuffer> shared) {
    ensure_created();
    glBindVertexArray(0);
    upload_buffer(GL_ARRAY_BUFFER, vbo_tri_, tri_cap_, list.tri_verts.data(), list.tri_verts.size() * sizeof(Vertex));
    glBindVertexArray(vao_tri_);  // the element buffer binding is VAO state
    upload_buffer(GL_ELEMENT_ARRAY_BUFFER, ibo_tri_, index_cap_, list.tri_indices.data(),
                  list.tri_indices.size() * sizeof(uint32_t));
    glBindVertexArray(0);
    upload_buffer(GL_ARRAY_BUFFER, vbo_line_, line_cap_, list.line_verts.data(), list.line_verts.size() * sizeof(Vertex));
    upload_buffer(GL_ARRAY_BUFFER, vbo_point_, point_cap_, list.point_verts.data(),
                  list.point_verts.size() * sizeof(Vertex));
    // span instances: organised (level of detail, positions apart from colours) by the layer
    // builders on the worker (build_layer_part); raw instances are never uploaded
    assert(list.spans.empty() && "span instances are organised (organize_spans) before the upload");
    const DrawList* sp = &list;
    if (!sp->span_pos.empty() && !vao_span_) {
        const UnitMesh& m = unit_mesh();
        glGenVertexArrays(1, &vao_span_);
        glGenBuffers(1, &vbo_span_);
        glBindVertexArray(vao_span_);
        glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 4 * sizeof(float), reinterpret_cast<const void*>(0));
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 4 * sizeof(float), reinterpret_cast<const void*>(3 * sizeof(float)));
        for (GLuint a = 2; a <= 4; ++a) {
            glEnableVertexAttribArray(a);
            glVertexAttribDivisor(a, 1);
        }
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ibo);
        glBindVertexArray(0);
    }
    if (sp->span_pos.empty()) {
        span_pos_.reset();
    } else {
        const size_t pos_bytes = sp->span_pos.size() * sizeof(SpanPos);
        if (shared && shared->hash == sp->span_pos_hash && shared->bytes == pos_bytes) {
            span_pos_ = std::move(shared);
        } else if (!(span_pos_ && span_pos_->hash == sp->span_pos_hash && span_pos_->bytes == pos_bytes)) {
            // a buffer of its own (never written while another list may draw from it)
            auto b = std::make_shared<SpanPosBuffer>();
            glGenBuffers(1, &b->id);
            glBindBuffer(GL_ARRAY_BUFFER, b->id);
            glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(pos_bytes), sp->span_pos.data(), GL_STATIC_DRAW);
            b->bytes = pos_bytes;
            b->hash = sp->span_pos_hash;
            span_pos_ = std::move(b);
        }
    }
    if (vbo_span_)
        upload_buffer(GL_ARRAY_BUFFER, vbo_span_, span_cap_, sp->span_color.data(), sp->span_color.size() * sizeof(uint32_t));
    if (span_pos_) {
        glBindVertexArray(vao_span_);
        span_attributes(span_pos_->id, vbo_span_, 0);
        glBindVertexArray(0);
    }
    span_count_ = static_cast<GLsizei>(sp->span_pos.size());
    span_shape_ = list.span_shape;
    for (int i = 0; i < 3; ++i) span_origin_[i] = list.span_origin[i];
    span_cell_[0] = list.span_cs;
    span_cell_[1] = list.span_ch;
    span_cell_[2] = list.span_lift;
    span_chunks_ = sp->span_chunks;
    span_full_ = sp->span_count();
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    tri_index_count_ = static_cast<GLsizei>(list.tri_indices.size());
    line_vert_count_ = static_cast<GLsizei>(list.line_verts.size());
    point_count_ = static_cast<GLsizei>(list.point_verts.size());
    line_width_ = list.line_width;
    point_size_ = list.point_size;
    shade_ = list.shade;
    for (int i = 0; i < 3; ++i) grid_origin_[i] = list.grid_origin[i];
    grid_cell_ = list.grid_cell;
    depth_test_ = list.depth_test;
}

SpanChunkSet GpuDrawList::span_chunk_set() const {
    SpanChunkSet s;
    s.chunks = &span_chunks_;
    s.total = span_full_;
    for (int i = 0; i < 3; ++i) s.origin[i] = span_origin_[i];
    s.cs = span_cell_[0];
    s.ch = span_cell_[1];
    s.lift = span_cell_[2];
    return s;
}

bool Renderer::init(std::string& err) {
    if (const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER))) {
        const std::string r = name;
        software_ = r.find("llvmpipe") != std::string::npos || r.find("softpipe") != std::string::npos ||
                    r.find("swrast") != std::string::npos;
    }
    if (!tri_.load("tri.vert", "", "tri.frag", err)) return false;
    if (!line_.load("line.vert", "line.geom", "line.frag", err)) return false;
    if (!point_.load("point.vert", "", "point.frag", err)) return false;
    if (!box_.load("box.vert", "", "tri.frag", err)) return false;
    auto cut = [](const Program& p) { return CutLoc{p.loc("u_clip"), p.loc("u_plane"), p.loc("u_tint"), p.loc("u_grey")}; };
    tl_ = {tri_.loc("u_view_proj"), tri_.loc("u_light_dir"), tri_.loc("u_eye"),   tri_.loc("u_shade"),
           tri_.loc("u_grid_origin"), tri_.loc("u_grid_cell"), tri_.loc("u_alpha"), tri_.loc("u_lift"),
           tri_.loc("u_ceilings"), cut(tri_)};
    bl_ = {{box_.loc("u_view_proj"), box_.loc("u_light_dir"), box_.loc("u_eye"), box_.loc("u_shade"),
            box_.loc("u_grid_origin"), box_.loc("u_grid_cell"), box_.loc("u_alpha"), box_.loc("u_lift"),
            box_.loc("u_ceilings"), cut(box_)},
           box_.loc("u_span_origin"), box_.loc("u_span_cell"), box_.loc("u_hide_faces")};
    ll_ = {line_.loc("u_view_proj"), line_.loc("u_viewport"), line_.loc("u_width"),
           line_.loc("u_depth_bias"), line_.loc("u_alpha"),    line_.loc("u_lift"), cut(line_)};
    pl_ = {point_.loc("u_view_proj"), point_.loc("u_size"), point_.loc("u_alpha"), point_.loc("u_lift"), cut(point_)};
    return true;
}

void Renderer::set_cut(const CutLoc& c) const {
    const ViewCut& v = frame_.cut;
    constexpr float kFar = 1e30f;
    if (v.clip) glUniform2f(c.clip, std::min(v.clip_min, v.clip_max), std::max(v.clip_min, v.clip_max));
    else glUniform2f(c.clip, -kFar, kFar);
    const float* n = v.normal;
    if (v.section && (n[0] != 0.0f || n[1] != 0.0f || n[2] != 0.0f))
        glUniform4f(c.plane, n[0], n[1], n[2], n[0] * v.point[0] + n[1] * v.point[1] + n[2] * v.point[2]);
    else glUniform4f(c.plane, 0.0f, 0.0f, 0.0f, kFar);
    glUniform3f(c.tint, v.floor_tint && !style_.no_tint ? 1.0f : 0.0f, v.tint_origin, std::max(v.tint_band, 0.01f));
    glUniform1f(c.grey, std::clamp(style_.grey, 0.0f, 1.0f));
}

void Renderer::submitted(size_t triangles) {
    // A software GL (Mesa's llvmpipe, as under Xvfb) bins every triangle of a frame into scenes that
    // its rasterizer threads work through; left unbounded, those queued scenes held 1.4 GiB on a
    // 7 M-span level. Waiting for them now and then bounds that memory at the cost of some overlap.
    if (!software_) return;
    pending_tris_ += triangles;
    if (pending_tris_ >= kSoftwareFinishTris) {
        glFinish();
        pending_tris_ = 0;
    }
}

void Renderer::begin(const FrameParams& frame) {
    frame_ = frame;
    style_ = DrawStyle{};
    float* l = frame_.light_dir;
    const float len = std::sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    if (len > 0) for (int i = 0; i < 3; ++i) l[i] /= len;
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_PROGRAM_POINT_SIZE);
    // Keep coplanar lines and points ahead of the faces they outline.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
}

void Renderer::draw(const GpuDrawList& g, const std::vector<int8_t>* span_levels) {
    if (g.empty()) return;
    if (g.depth_test_) glEnable(GL_DEPTH_TEST);
    else glDisable(GL_DEPTH_TEST);
    const auto tri_uniforms = [&](const TriLoc& t) {
        glUniformMatrix4fv(t.view_proj, 1, GL_FALSE, frame_.view_proj);
        glUniform3fv(t.light_dir, 1, frame_.light_dir);
        glUniform3fv(t.eye, 1, frame_.eye);
        glUniform1i(t.shade, static_cast<int>(g.shade_));
        glUniform3fv(t.grid_origin, 1, g.grid_origin_);
        glUniform1f(t.grid_cell, g.grid_cell_);
        glUniform1f(t.alpha, style_.alpha);
        glUniform1f(t.lift, style_.lift);
        glUniform1i(t.ceilings, style_.hide_ceilings ? 1 : 0);
        set_cut(t.cut);
    };
    if (g.span_count_ && g.span_pos_) {
        glUseProgram(box_.id());
        tri_uniforms(bl_.tri);
        glUniform3fv(bl_.origin, 1, g.span_origin_);
        const bool boxes = g.span_shape_ == SpanShape::Box;
        // A cut opens the boxes: their inner faces then show, so nothing is left out or culled.
        const bool cut = frame_.cut.clip || frame_.cut.section;
        glUniform1i(bl_.hide_faces, !cut ? 1 : 0);
        if (style_.cull || (boxes && !cut)) glEnable(GL_CULL_FACE);  // boxes are closed: back faces never show
        glBindVertexArray(g.vao_span_);
        const GLsizei per = boxes ? 36 : 6;
        // in pieces, as the triangles (bounded driver memory under a software GL)
        const GLsizei piece = kChunkTris / (per / 3);
        // (GL 3.3 has no base instance: the instance attributes are re-pointed per piece)
        const auto draw_range = [&](size_t first, size_t count, uint32_t scale) {
            const float cell[3] = {g.span_cell_[0] * static_cast<float>(scale), g.span_cell_[1], g.span_cell_[2]};
            glUniform3fv(bl_.cell, 1, cell);
            for (size_t f = first; f < first + count; f += static_cast<size_t>(piece)) {
                span_attributes(g.span_pos_->id, g.vbo_span_, f);
                const auto n = static_cast<GLsizei>(std::min<size_t>(piece, first + count - f));
                glDrawElementsInstanced(GL_TRIANGLES, per, GL_UNSIGNED_INT, nullptr, n);
                submitted(static_cast<size_t>(n) * static_cast<size_t>(per / 3));
            }
        };
        if (g.span_chunks_.empty()) {
            span_plan_.level.clear();
            span_plan_.stats = SpanPlanStats{};
            span_plan_.stats.total = span_plan_.stats.visible = span_plan_.stats.drawn[0] = g.span_full_;
            draw_range(0, static_cast<size_t>(g.span_count_), 1);
        } else {
            if (!span_levels) {
                SpanChunkSet set = g.span_chunk_set();
                set.lift += style_.lift;
                set.level = &span_plan_.level;
                set.stats = &span_plan_.stats;
                plan_span_sets({&set, 1}, frame_.view_proj, frame_.eye, style_.span_budget, plan_scratch_);
                span_levels = &span_plan_.level;
            }
            const std::vector<int8_t>& level = *span_levels;
            // runs of consecutive chunks at one level are contiguous in the buffer: one range each
            for (int lv = 0; lv < kSpanLevels; ++lv) {
                size_t run_first = 0, run_count = 0;
                for (size_t i = 0; i < g.span_chunks_.size(); ++i) {
                    if (i >= level.size() || level[i] != lv) continue;
                    const SpanChunk& c = g.span_chunks_[i];
                    if (run_count && run_first + run_count == c.first[lv]) {
                        run_count += c.count[lv];
                        continue;
                    }
                    if (run_count) draw_range(run_first, run_count, kSpanLevelScale[lv]);
                    run_first = c.first[lv];
                    run_count = c.count[lv];
                }
                if (run_count) draw_range(run_first, run_count, kSpanLevelScale[lv]);
            }
        }
        span_attributes(g.span_pos_->id, g.vbo_span_, 0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glDisable(GL_CULL_FACE);
    }
    if (g.tri_index_count_) {
        glUseProgram(tri_.id());
        tri_uniforms(tl_);
        if (style_.cull) glEnable(GL_CULL_FACE);
        glBindVertexArray(g.vao_tri_);
        draw_chunked(g.tri_index_count_, 3 * kChunkTris, [this](GLint first, GLsizei n) {
            glDrawElements(GL_TRIANGLES, n, GL_UNSIGNED_INT,
                           reinterpret_cast<const void*>(static_cast<uintptr_t>(first) * sizeof(uint32_t)));
            submitted(static_cast<size_t>(n) / 3);
        });
        glDisable(GL_CULL_FACE);
    }
    if (g.line_vert_count_) {
        glUseProgram(line_.id());
        glUniformMatrix4fv(ll_.view_proj, 1, GL_FALSE, frame_.view_proj);
        glUniform2f(ll_.viewport, static_cast<float>(frame_.viewport_w), static_cast<float>(frame_.viewport_h));
        glUniform1f(ll_.width, g.line_width_);
        glUniform1f(ll_.depth_bias, 4e-6f);
        glUniform1f(ll_.alpha, style_.alpha);
        glUniform1f(ll_.lift, style_.lift);
        set_cut(ll_.cut);
        glBindVertexArray(g.vao_line_);
        draw_chunked(g.line_vert_count_, 2 * kChunkLines, [this](GLint first, GLsizei n) { glDrawArrays(GL_LINES, first, n); submitted(static_cast<size_t>(n)); });
        if (style_.xray && g.depth_test_) {
            // x-ray: the same edges again, faint, where geometry hides them
            glDisable(GL_DEPTH_TEST);
            glDepthMask(GL_FALSE);
            glUniform1f(ll_.alpha, style_.alpha * 0.28f);
            draw_chunked(g.line_vert_count_, 2 * kChunkLines, [this](GLint first, GLsizei n) { glDrawArrays(GL_LINES, first, n); submitted(static_cast<size_t>(n)); });
            glDepthMask(GL_TRUE);
            glEnable(GL_DEPTH_TEST);
        }
    }
    if (g.point_count_) {
        glUseProgram(point_.id());
        glUniformMatrix4fv(pl_.view_proj, 1, GL_FALSE, frame_.view_proj);
        glUniform1f(pl_.size, g.point_size_);
        glUniform1f(pl_.alpha, style_.alpha);
        glUniform1f(pl_.lift, style_.lift);
        set_cut(pl_.cut);
        glBindVertexArray(g.vao_point_);
        draw_chunked(g.point_count_, kChunkLines, [this](GLint first, GLsizei n) { glDrawArrays(GL_POINTS, first, n); submitted(2 * static_cast<size_t>(n)); });
    }
    glBindVertexArray(0);
}

void Renderer::end() {
    glUseProgram(0);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glEnable(GL_DEPTH_TEST);
}

}  // namespace nav::render
