// Exact integer predicates on contour vertices in the xz plane (vertices are 4 ints: x, y, z,
// flags; only x and z are read). Shared by the contour and polygon-mesh stages, which follow
// Recast's winding convention: "left" means a negative twice-area.
#pragma once
#include <cstdint>

namespace nav::ixz {

inline int next_idx(int i, int n) { return i + 1 < n ? i + 1 : 0; }
inline int prev_idx(int i, int n) { return i > 0 ? i - 1 : n - 1; }

// Twice the signed area of (a, b, c) in xz, in 64 bits: cell coordinates reach 65535 on the
// widest grid the limit admits, so a product of two differences does not fit in an int.
inline int64_t area2(const int32_t* a, const int32_t* b, const int32_t* c) {
    return int64_t(b[0] - a[0]) * int64_t(c[2] - a[2]) - int64_t(c[0] - a[0]) * int64_t(b[2] - a[2]);
}
// Squared xz distance between two cell positions, in 64 bits for the same reason.
inline int64_t dist_sq(int dx, int dz) { return int64_t(dx) * dx + int64_t(dz) * dz; }
inline bool left(const int32_t* a, const int32_t* b, const int32_t* c) { return area2(a, b, c) < 0; }
inline bool left_on(const int32_t* a, const int32_t* b, const int32_t* c) { return area2(a, b, c) <= 0; }
inline bool collinear(const int32_t* a, const int32_t* b, const int32_t* c) { return area2(a, b, c) == 0; }
inline bool same_xz(const int32_t* a, const int32_t* b) { return a[0] == b[0] && a[2] == b[2]; }

// Segments ab and cd cross at a point interior to both.
inline bool intersect_proper(const int32_t* a, const int32_t* b, const int32_t* c, const int32_t* d) {
    if (collinear(a, b, c) || collinear(a, b, d) || collinear(c, d, a) || collinear(c, d, b)) return false;
    return (left(a, b, c) != left(a, b, d)) && (left(c, d, a) != left(c, d, b));
}

// c lies on the closed segment ab (collinear and within its extent).
inline bool on_segment(const int32_t* a, const int32_t* b, const int32_t* c) {
    if (!collinear(a, b, c)) return false;
    if (a[0] != b[0]) return (a[0] <= c[0] && c[0] <= b[0]) || (a[0] >= c[0] && c[0] >= b[0]);
    return (a[2] <= c[2] && c[2] <= b[2]) || (a[2] >= c[2] && c[2] >= b[2]);
}

inline bool segments_intersect(const int32_t* a, const int32_t* b, const int32_t* c, const int32_t* d) {
    if (intersect_proper(a, b, c, d)) return true;
    return on_segment(a, b, c) || on_segment(a, b, d) || on_segment(c, d, a) || on_segment(c, d, b);
}

}  // namespace nav::ixz
