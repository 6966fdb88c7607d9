// CPU-side batched debug geometry: lit triangles (indexed), lines and points. Vertex arrays are
// built once per bake snapshot by the layer builders (layers.h) and uploaded by GpuDrawList
// (renderer.h). No GL here, so builders are plain functions over core data.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace nav::render {

// RGBA8 packed in memory order r, g, b, a (matches GL_UNSIGNED_BYTE x4 on little-endian).
constexpr uint32_t rgba(int r, int g, int b, int a = 255) {
    return static_cast<uint32_t>(r & 255) | (static_cast<uint32_t>(g & 255) << 8) |
           (static_cast<uint32_t>(b & 255) << 16) | (static_cast<uint32_t>(a & 255) << 24);
}
constexpr int color_r(uint32_t c) { return static_cast<int>(c & 255); }
constexpr int color_g(uint32_t c) { return static_cast<int>((c >> 8) & 255); }
constexpr int color_b(uint32_t c) { return static_cast<int>((c >> 16) & 255); }
constexpr int color_a(uint32_t c) { return static_cast<int>((c >> 24) & 255); }
// Multiplies r, g, b by k (0..1+), keeps alpha.
uint32_t color_scale(uint32_t c, float k);
uint32_t color_with_alpha(uint32_t c, int a);

struct Vertex {
    float x, y, z;
    uint32_t color;
};
static_assert(sizeof(Vertex) == 16);

// How the triangle shader decorates faces (see shaders/tri.frag).
enum class Shade : int { Plain = 0, CellGrid = 1, Checker = 2 };

// One voxel span drawn as an instance of a unit box (or of a unit floor quad) on the layer's cell
// grid: 16 bytes per span instead of up to 12 triangles of 16-byte vertices. The GPU places it:
// x from origin.x + x * cs, z likewise, y from origin.y + y0 * ch to origin.y + y1 * ch, plus the
// list's span_lift; a box's bottom is drawn at 0.8 of the colour.
// `z` carries the cell's z in its low kSpanCellBits bits and, above them, one bit per face of the
// unit box the GPU leaves out because a neighbouring span covers it (face order of the unit mesh:
// top, bottom, -x, +z, +x, -z; render/span_lod.h sets them).
struct SpanInstance {
    uint32_t x, z;
    uint16_t y0, y1;
    uint32_t color;
};
static_assert(sizeof(SpanInstance) == 16);
// What the GPU holds of a span instance: where it is (span_pos) apart from its colour (span_color),
// so span layers drawn from the same spans (voxels and filtered; compact ... regions) share one
// position buffer and each uploads 4 bytes a span of its own.
struct SpanPos {
    uint32_t x, z;  // z: cell z and the hidden-face bits, as SpanInstance::z
    uint16_t y0, y1;
};
static_assert(sizeof(SpanPos) == 12);
// Span positions, shared between the lists drawn from the same spans (build_layers points the later
// ones at the first one's array), immutable once built.
class SpanPosArray {
public:
    size_t size() const { return p_ ? p_->size() : 0; }
    bool empty() const { return size() == 0; }
    const SpanPos* data() const { return p_ ? p_->data() : nullptr; }
    const SpanPos& operator[](size_t i) const { return (*p_)[i]; }
    size_t capacity() const { return p_ ? p_->capacity() : 0; }
    void clear() { p_.reset(); }
    void assign(std::vector<SpanPos>&& v) { p_ = std::make_shared<const std::vector<SpanPos>>(std::move(v)); }
    void share(const SpanPosArray& o) { p_ = o.p_; }
    bool shares(const SpanPosArray& o) const { return p_ && p_ == o.p_; }

private:
    std::shared_ptr<const std::vector<SpanPos>> p_;
};
enum class SpanShape : int { Box = 0, Floor = 1 };
constexpr uint32_t kSpanCellBits = 26;
constexpr uint32_t kSpanCellMask = (1u << kSpanCellBits) - 1u;

// Level of detail of a span list (render/span_lod.h): the spans sorted into square chunks of
// kSpanChunkCells cells, followed by two coarser copies in which each block of kSpanLevelScale[k]
// cells a side is one column (its most layered column, stretched over the block). A chunk holds
// the instance range of each level; the renderer picks a level per chunk from the budget.
constexpr int kSpanLevels = 3;
constexpr uint32_t kSpanChunkCells = 64;
constexpr uint32_t kSpanLevelScale[kSpanLevels] = {1, 4, 16};
struct SpanChunk {
    uint32_t x0, z0;     // first cell (full resolution)
    uint16_t ymin, ymax; // span bottoms and tops, cells
    uint32_t first[kSpanLevels], count[kSpanLevels];
};

struct DrawList {
    std::vector<Vertex> tri_verts;
    std::vector<uint32_t> tri_indices;  // 3 per triangle into tri_verts
    std::vector<Vertex> line_verts;     // 2 per segment
    std::vector<Vertex> point_verts;
    // Span instances as the builders write them; organize_spans (render/span_lod.h) moves them into
    // span_pos / span_color (what is uploaded and drawn), leaving `spans` empty.
    std::vector<SpanInstance> spans;
    SpanPosArray span_pos;
    std::vector<uint32_t> span_color;
    uint64_t span_pos_hash = 0;  // of span_pos (with its size and shape): lists with equal hashes share a GPU buffer
    SpanShape span_shape = SpanShape::Box;
    float span_origin[3] = {0, 0, 0};
    float span_cs = 1.0f, span_ch = 1.0f, span_lift = 0.0f;
    // empty: the spans are one full-resolution level in any order (no level of detail)
    std::vector<SpanChunk> span_chunks;
    uint32_t span_full = 0;  // with chunks: the full-resolution instances (the first span_full)
    // Full-resolution span instances (all of them for a list without levels).
    size_t span_count() const { return span_chunks.empty() ? span_pos.size() + spans.size() : span_full; }

    float line_width = 1.5f;  // pixels
    float point_size = 6.0f;  // pixels
    Shade shade = Shade::Plain;
    float grid_origin[3] = {0, 0, 0};
    float grid_cell = 1.0f;
    bool depth_test = true;

    // Keeps capacity.
    void clear();
    bool empty() const {
        return tri_indices.empty() && line_verts.empty() && point_verts.empty() && spans.empty() && span_pos.empty();
    }

    void add_triangle(const float* a, const float* b, const float* c, uint32_t color);
    // Quad a-b-c-d (in order around its edge) as two triangles.
    void add_quad(const float* a, const float* b, const float* c, const float* d, uint32_t color);
    // Axis-aligned quad facing +y at height y.
    void add_floor_quad(float x0, float z0, float x1, float z1, float y, uint32_t color);
    void add_line(const float* a, const float* b, uint32_t color);
    void add_line(float ax, float ay, float az, float bx, float by, float bz, uint32_t color);
    void add_point(const float* p, uint32_t color);
    // The 12 edges of an axis-aligned box.
    void add_box_lines(const float* bmin, const float* bmax, uint32_t color);
};

}  // namespace nav::render
