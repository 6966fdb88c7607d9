// Stage 1: rasterize triangles into a solid heightfield. Each column of the xz grid holds a
// sorted, disjoint list of solid spans [smin, smax) in cell-height units. Spans live in one flat
// pool and are linked by index; freed spans go on a free list, so rebuilding reuses the memory.
#pragma once
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/common.h"

namespace nav {

constexpr uint32_t kNullSpan = 0xffffffffu;

// Plain data without default member values, so that the pool can grow without writing every new
// element (see SpanPoolAllocator): whoever makes a span sets all five fields. `Span s{}` is all
// zero (area kNullArea, next 0), not a null link.
struct Span {
    uint16_t smin;
    uint16_t smax;
    uint8_t area;
    uint8_t filtered_by;  // which filter cleared the area (FilterBits in filter.h), 0 if none
    uint32_t next;        // next span up the column, or kNullSpan
};
static_assert(std::is_trivially_default_constructible_v<Span>);

// std::allocator, except that a vector's resize() and emplace_back() without arguments leave new
// elements uninitialised (default- instead of value-initialisation). rasterize_triangles grows
// the pool to twice the raw spans for its sort and overwrites every element it reads: zeroing
// them first was a quarter of its own time.
template <class T>
struct SpanPoolAllocator : std::allocator<T> {
    using value_type = T;
    template <class U>
    struct rebind {
        using other = SpanPoolAllocator<U>;
    };
    SpanPoolAllocator() noexcept = default;
    template <class U>
    SpanPoolAllocator(const SpanPoolAllocator<U>&) noexcept {}
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        if constexpr (sizeof...(Args) == 0)
            ::new (static_cast<void*>(p)) U;
        else
            ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

// The span pool's vector: its growth leaves new spans unwritten (SpanPoolAllocator).
using SpanPool = std::vector<Span, SpanPoolAllocator<Span>>;

struct Heightfield {
    int width = 0, height = 0;  // cells in x and z
    int border_size = 0;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
    float cs = 0.3f, ch = 0.2f;
    std::vector<uint32_t> columns;  // first (lowest) span per cell, x + z * width
    SpanPool pool;                  // all spans, live and free
    uint32_t free_list = kNullSpan; // chain through Span::next
    uint32_t span_count = 0;        // live spans

    // Clears spans but keeps capacity.
    void reset(int w, int h, const float* bmin, const float* bmax, float cs, float ch, int border);
};

// Adds one span to column (x, z), merging with overlapping spans; where the merged span's top
// is within flag_merge_threshold of an existing top, the area is the max of the two.
void add_span(Heightfield& hf, int x, int z, uint16_t smin, uint16_t smax, uint8_t area,
              int flag_merge_threshold);

// Rasterizes every triangle (clipped per row and column) into hf, which must be reset()
// beforehand. tri_areas gives each triangle's area id. Polls cancel every few thousand triangles.
Status rasterize_triangles(const float* verts, int nverts, const int* tris, const uint8_t* tri_areas,
                           int ntris, Heightfield& hf, int flag_merge_threshold,
                           const CancelFlag* cancel = nullptr);

}  // namespace nav
