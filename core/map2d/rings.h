// 2D maps: the shared vocabulary of core/map2d. Polygons in the (x, z) plane as flat rings, and
// the few exact-where-possible predicates every stage uses (orientation, in-circle, areas).
//
// Orientation convention of this directory: a ring is counter-clockwise when its signed area
// sum(x_i * z_i+1 - x_i+1 * z_i) / 2 is positive. Solid regions are counter-clockwise, holes
// clockwise (the runtime NavMesh uses the opposite winding; the conversion reverses it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nav::map2d {

// A set of closed rings as flat arrays: ring r has the points [first[r], first[r+1]) of xz
// (2 doubles per point). The closing edge from the last point to the first is implicit.
struct Rings {
    std::vector<double> xz;
    std::vector<uint32_t> first{0};

    size_t count() const { return first.size() - 1; }
    uint32_t size(size_t r) const { return first[r + 1] - first[r]; }
    const double* ring(size_t r) const { return xz.data() + 2 * size_t(first[r]); }
    void add(const double* pts, size_t npts) {
        xz.insert(xz.end(), pts, pts + 2 * npts);
        first.push_back(uint32_t(xz.size() / 2));
    }
    void append(const Rings& o) {
        for (size_t r = 0; r < o.count(); ++r) add(o.ring(r), o.size(r));
    }
    void clear() { xz.clear(); first.assign(1, 0); }
};

// Twice the signed area of the triangle (a, b, c): > 0 when c lies left of a->b.
inline double orient2d(double ax, double az, double bx, double bz, double cx, double cz) {
    return (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
}

// > 0 when d lies strictly inside the circle through the counter-clockwise triangle (a, b, c).
// Evaluated in long double around a, which is exact for small integer coordinates.
inline double incircle(double ax, double az, double bx, double bz, double cx, double cz, double dx,
                       double dz) {
    const long double adx = (long double)ax - dx, adz = (long double)az - dz;
    const long double bdx = (long double)bx - dx, bdz = (long double)bz - dz;
    const long double cdx = (long double)cx - dx, cdz = (long double)cz - dz;
    const long double ad = adx * adx + adz * adz, bd = bdx * bdx + bdz * bdz,
                      cd = cdx * cdx + cdz * cdz;
    const long double det = adx * (bdz * cd - bd * cdz) - adz * (bdx * cd - bd * cdx) +
                            ad * (bdx * cdz - bdz * cdx);
    return double(det);
}

// Signed area of ring r (positive = counter-clockwise).
inline double ring_area(const double* p, size_t n) {
    double a = 0;
    for (size_t i = 0, j = n - 1; i < n; j = i++) a += p[2 * j] * p[2 * i + 1] - p[2 * i] * p[2 * j + 1];
    return 0.5 * a;
}

// Sum of the signed areas of all rings (outer rings positive, holes negative).
inline double rings_area(const Rings& r) {
    double a = 0;
    for (size_t k = 0; k < r.count(); ++k) a += ring_area(r.ring(k), r.size(k));
    return a;
}

}  // namespace nav::map2d
