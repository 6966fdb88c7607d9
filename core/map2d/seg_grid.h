// 2D maps: a uniform grid of edge buckets, so that the stages that ask "which edges are near
// this one / this point" (the clipper's intersections and winding numbers, the loader's
// self-intersection test) look at a few edges instead of all of them (all-pairs tests made large
// rings or many obstacles take minutes).
//
// The grid covers the segments' bounding box with about one cell per segment (at most 2^22
// cells); a segment is listed in every cell its (padded) path crosses, row by row, so a long
// diagonal edge costs cells in proportion to its length, not to its bounding box.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace nav::map2d {

class SegGrid {
public:
    // seg(i, ax, az, bx, bz) fills segment i's ends; `pad` widens each segment's cells (a
    // tolerance: segments closer than pad to a cell are listed in it).
    template <class SegFn>
    void build(uint32_t nsegs, SegFn&& seg, double pad) {
        pad_ = pad;
        double x0 = HUGE_VAL, z0 = HUGE_VAL, x1 = -HUGE_VAL, z1 = -HUGE_VAL;
        for (uint32_t i = 0; i < nsegs; ++i) {
            double ax, az, bx, bz;
            seg(i, ax, az, bx, bz);
            x0 = std::min({x0, ax, bx}), z0 = std::min({z0, az, bz});
            x1 = std::max({x1, ax, bx}), z1 = std::max({z1, az, bz});
        }
        if (nsegs == 0) x0 = z0 = x1 = z1 = 0;
        x0 -= 2 * pad, z0 -= 2 * pad, x1 += 2 * pad, z1 += 2 * pad;
        const double w = std::max(x1 - x0, 1e-300), h = std::max(z1 - z0, 1e-300);
        const double cells = std::clamp(double(nsegs), 1.0, double(1 << 22));
        cell_ = std::max(std::sqrt(w * h / cells), std::max(w, h) / double(1 << 22));
        nx_ = int(std::clamp(std::ceil(w / cell_), 1.0, double(1 << 22)));
        nz_ = int(std::clamp(std::ceil(h / cell_), 1.0, double(1 << 22)));
        while (double(nx_) * nz_ > double(1 << 23)) {  // a very thin box: coarser cells
            cell_ *= 2;
            nx_ = int(std::clamp(std::ceil(w / cell_), 1.0, double(1 << 22)));
            nz_ = int(std::clamp(std::ceil(h / cell_), 1.0, double(1 << 22)));
        }
        x0_ = x0, z0_ = z0;
        first_.assign(size_t(nx_) * nz_ + 1, 0);
        for (uint32_t i = 0; i < nsegs; ++i) {
            double ax, az, bx, bz;
            seg(i, ax, az, bx, bz);
            cover(ax, az, bx, bz, [&](size_t c) { ++first_[c + 1]; });
        }
        for (size_t c = 0; c + 1 < first_.size(); ++c) first_[c + 1] += first_[c];
        items_.resize(first_.back());
        std::vector<uint32_t> at(first_.begin(), first_.end() - 1);
        for (uint32_t i = 0; i < nsegs; ++i) {
            double ax, az, bx, bz;
            seg(i, ax, az, bx, bz);
            cover(ax, az, bx, bz, [&](size_t c) { items_[at[c]++] = i; });
        }
        stamp_.assign(nsegs, 0);
        tick_ = 0;
    }

    // The edges of one closed ring of n points (x, z pairs): edge k runs from point k to k + 1.
    void build_ring(const double* p, size_t n) {
        build(
            uint32_t(n),
            [&](uint32_t k, double& ax, double& az, double& bx, double& bz) {
                const size_t j = (k + 1) % n;
                ax = p[2 * k], az = p[2 * k + 1], bx = p[2 * j], bz = p[2 * j + 1];
            },
            0.0);
    }

    // clamped in double: a point far outside the grid must not overflow the conversion to int
    int col(double x) const { return int(std::clamp(std::floor((x - x0_) / cell_), 0.0, double(nx_ - 1))); }
    int row(double z) const { return int(std::clamp(std::floor((z - z0_) / cell_), 0.0, double(nz_ - 1))); }
    double cell() const { return cell_; }

    // Calls fn(i) once for every segment listed in a cell overlapping the box.
    template <class Fn>
    void near_box(double minx, double minz, double maxx, double maxz, Fn&& fn) {
        const uint32_t t = next_tick();
        const int c0 = col(minx), c1 = col(maxx), r0 = row(minz), r1 = row(maxz);
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c) visit(size_t(r) * nx_ + c, t, fn);
    }
    // Calls fn(i) once for every segment listed in the cells of the row of z from the column of x
    // to the right end: every segment that crosses the ray from (x, z) toward +x is among them.
    template <class Fn>
    void ray_right(double x, double z, Fn&& fn) {
        const uint32_t t = next_tick();
        const int r = row(z);
        for (int c = col(x); c < nx_; ++c) visit(size_t(r) * nx_ + c, t, fn);
    }

private:
    template <class Fn>
    void visit(size_t c, uint32_t t, Fn& fn) {
        for (uint32_t k = first_[c]; k < first_[c + 1]; ++k) {
            const uint32_t i = items_[k];
            if (stamp_[i] == t) continue;
            stamp_[i] = t;
            fn(i);
        }
    }
    uint32_t next_tick() {
        if (++tick_ == 0) {
            std::fill(stamp_.begin(), stamp_.end(), 0u);
            tick_ = 1;
        }
        return tick_;
    }
    // The cells of segment a-b widened by pad: per row it spans, the columns of its part in that row.
    template <class Fn>
    void cover(double ax, double az, double bx, double bz, Fn&& emit) const {
        if (az > bz) std::swap(ax, bx), std::swap(az, bz);
        const int r0 = row(az - pad_), r1 = row(bz + pad_);
        for (int r = r0; r <= r1; ++r) {
            // the segment's x range within the row's z range [lo, hi]
            const double lo = z0_ + r * cell_ - pad_, hi = z0_ + (r + 1) * cell_ + pad_;
            double xa = ax, xb = bx;
            if (bz > az) {
                const double ta = std::clamp((lo - az) / (bz - az), 0.0, 1.0), tb = std::clamp((hi - az) / (bz - az), 0.0, 1.0);
                xa = ax + (bx - ax) * ta, xb = ax + (bx - ax) * tb;
            }
            const int c0 = col(std::min(xa, xb) - pad_ - 1e-9 * cell_), c1 = col(std::max(xa, xb) + pad_ + 1e-9 * cell_);
            for (int c = c0; c <= c1; ++c) emit(size_t(r) * nx_ + c);
        }
    }

    double x0_ = 0, z0_ = 0, cell_ = 1, pad_ = 0;
    int nx_ = 1, nz_ = 1;
    std::vector<uint32_t> first_, items_, stamp_;
    uint32_t tick_ = 0;
};

}  // namespace nav::map2d
