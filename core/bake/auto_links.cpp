#include "core/bake/auto_links.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace nav {

namespace {

// A uniform xz grid over items given by their xz bounds: each cell lists the items whose bounds
// overlap it (CSR). Items covering more than kMaxCells cells go to `big`, which every query scans
// (a ground plane under a whole level must not fill every cell).
struct XZGrid {
    static constexpr int64_t kMaxCells = 256;
    float x0 = 0, z0 = 0, cell = 1, inv = 1;
    int nx = 0, nz = 0;
    std::vector<uint32_t> first, items, big;

    int cx(float x) const { return std::clamp(static_cast<int>(std::floor((x - x0) * inv)), 0, nx - 1); }
    int cz(float z) const { return std::clamp(static_cast<int>(std::floor((z - z0) * inv)), 0, nz - 1); }

    // bounds(i, b): b = {minx, minz, maxx, maxz} of item i.
    template <class B>
    void build(uint32_t n, const float* bmin, const float* bmax, float min_cell, B&& bounds) {
        x0 = bmin[0];
        z0 = bmin[2];
        const double w = std::max(1e-3, double(bmax[0]) - bmin[0]), d = std::max(1e-3, double(bmax[2]) - bmin[2]);
        double c = std::max<double>(min_cell, std::sqrt(w * d / std::max<uint32_t>(n, 1u)));
        while ((w / c + 1) * (d / c + 1) > double(1 << 20)) c *= 2;  // at most about a million cells
        cell = static_cast<float>(c);
        inv = 1.0f / cell;
        nx = static_cast<int>(w / c) + 1;
        nz = static_cast<int>(d / c) + 1;
        const size_t ncells = static_cast<size_t>(nx) * static_cast<size_t>(nz);
        first.assign(ncells + 1, 0);
        items.clear();
        big.clear();
        float b[4];
        auto range = [&](uint32_t i, int& ax, int& az, int& bx, int& bz) {
            bounds(i, b);
            ax = cx(b[0]), az = cz(b[1]), bx = cx(b[2]), bz = cz(b[3]);
            return int64_t(bx - ax + 1) * (bz - az + 1) <= kMaxCells;
        };
        int ax, az, bx, bz;
        for (uint32_t i = 0; i < n; ++i) {
            if (!range(i, ax, az, bx, bz)) continue;
            for (int z = az; z <= bz; ++z)
                for (int x = ax; x <= bx; ++x) ++first[static_cast<size_t>(x) + static_cast<size_t>(z) * nx + 1];
        }
        for (size_t k = 0; k < ncells; ++k) first[k + 1] += first[k];
        items.resize(first[ncells]);
        std::vector<uint32_t> fill(first.begin(), first.end() - 1);
        for (uint32_t i = 0; i < n; ++i) {
            if (!range(i, ax, az, bx, bz)) {
                big.push_back(i);
                continue;
            }
            for (int z = az; z <= bz; ++z)
                for (int x = ax; x <= bx; ++x) items[fill[static_cast<size_t>(x) + static_cast<size_t>(z) * nx]++] = i;
        }
    }
    template <class F>
    void for_cell(float x, float z, F&& f) const {
        const size_t k = static_cast<size_t>(cx(x)) + static_cast<size_t>(cz(z)) * nx;
        for (uint32_t j = first[k]; j < first[k + 1]; ++j) f(items[j]);
        for (uint32_t i : big) f(i);
    }
};

struct Vec3 {
    float x, y, z;
};

// Point (x, z) inside or on the convex polygon p of the mesh (either winding), xz.
bool poly_contains(const NavMesh& m, uint32_t p, float x, float z) {
    const uint32_t e0 = m.poly_first[p], e1 = m.poly_first[p + 1];
    int sign = 0;
    for (uint32_t e = e0; e < e1; ++e) {
        const float* a = m.vert(m.edge_vert[e]);
        const float* b = m.vert(m.edge_vert[e + 1 == e1 ? e0 : e + 1]);
        const float c = (b[0] - a[0]) * (z - a[2]) - (b[2] - a[2]) * (x - a[0]);
        if (std::fabs(c) < 1e-6f) continue;
        const int s = c > 0 ? 1 : -1;
        if (sign == 0) sign = s;
        else if (s != sign) return false;
    }
    return true;
}

class Generator {
public:
    Generator(const NavMesh& m, const InputMesh& l, const AutoLinkParams& p, AutoLinks& o)
        : mesh_(m), level_(l), p_(p), out_(o) {
        r_ = std::max(0.0f, p.agent_radius);
        climb_ = std::max(0.0f, p.agent_climb);
        spacing_ = auto_link_spacing(p);
        r_test_ = r_ * 0.9f;
        cyl_lo_ = std::min(climb_, 0.5f * p.agent_height);
        cyl_hi_ = std::max(p.agent_height, cyl_lo_ + 0.01f);
        arc_step_ = std::max(0.05f, 0.5f * r_);
        drop_reach_ = 2 * r_ + 0.5f;
        jump_low_ = std::max(p.drop_height, climb_);
        build_grids();
    }

    Status run(const CancelFlag* cancel) {
        for (uint32_t e = 0; e < static_cast<uint32_t>(mesh_.nedges); ++e) {
            if ((e & 1023) == 0 && is_cancelled(cancel)) return Status::cancelled();
            if (mesh_.edge_nei[e] != kNoPoly) continue;
            edge(e);
        }
        return Status::ok();
    }

private:
    const NavMesh& mesh_;
    const InputMesh& level_;
    const AutoLinkParams& p_;
    AutoLinks& out_;
    float r_ = 0, climb_ = 0, spacing_ = 1, r_test_ = 0, cyl_lo_ = 0, cyl_hi_ = 0, arc_step_ = 0.1f;
    float drop_reach_ = 0, jump_low_ = 0;
    XZGrid polys_, tris_;
    std::vector<float> tri_bounds_;  // per level triangle: minx, miny, minz, maxx, maxy, maxz
    std::vector<uint32_t> stamp_;    // per level triangle: the arc query that last listed it
    uint32_t query_ = 0;
    std::vector<uint32_t> near_;     // the triangles near the arc being checked
    std::vector<Vec3> arc_;          // the arc's sample points

    void build_grids() {
        polys_.build(static_cast<uint32_t>(mesh_.npolys), mesh_.bmin, mesh_.bmax, 1.0f, [&](uint32_t i, float* b) {
            const float* pb = &mesh_.poly_bounds[static_cast<size_t>(i) * 6];
            b[0] = pb[0], b[1] = pb[2], b[2] = pb[3], b[3] = pb[5];
        });
        const int nt = level_.tri_count();
        tri_bounds_.resize(static_cast<size_t>(nt) * 6);
        for (int t = 0; t < nt; ++t) {
            float* tb = &tri_bounds_[static_cast<size_t>(t) * 6];
            for (int k = 0; k < 3; ++k) {
                tb[k] = std::numeric_limits<float>::max();
                tb[k + 3] = -std::numeric_limits<float>::max();
            }
            for (int v = 0; v < 3; ++v) {
                const float* q = &level_.verts[static_cast<size_t>(level_.tris[static_cast<size_t>(t) * 3 + v]) * 3];
                for (int k = 0; k < 3; ++k) tb[k] = std::min(tb[k], q[k]), tb[k + 3] = std::max(tb[k + 3], q[k]);
            }
        }
        tris_.build(static_cast<uint32_t>(nt), level_.bmin, level_.bmax, std::max(1.0f, 2 * r_), [&](uint32_t i, float* b) {
            const float* tb = &tri_bounds_[static_cast<size_t>(i) * 6];
            b[0] = tb[0], b[1] = tb[2], b[2] = tb[3], b[3] = tb[5];
        });
        stamp_.assign(static_cast<size_t>(nt), 0);
    }

    const float* tv(uint32_t t, int v) const {
        return &level_.verts[static_cast<size_t>(level_.tris[static_cast<size_t>(t) * 3 + v]) * 3];
    }

    void edge(uint32_t e) {
        const uint32_t poly = mesh_.edge_poly[e];
        const float* a = mesh_.vert(mesh_.edge_vert[e]);
        const float* b = mesh_.vert(mesh_.edge_vert[mesh_.next_edge(e)]);
        const float dx = b[0] - a[0], dz = b[2] - a[2];
        const float len = std::sqrt(dx * dx + dz * dz);
        if (!(len > 1e-4f)) return;
        float nx = dz / len, nz = -dx / len;
        // Outward: away from the polygon's vertex average.
        float cxs = 0, czs = 0;
        const uint32_t e0 = mesh_.poly_first[poly], e1 = mesh_.poly_first[poly + 1];
        for (uint32_t k = e0; k < e1; ++k) cxs += mesh_.vert(mesh_.edge_vert[k])[0], czs += mesh_.vert(mesh_.edge_vert[k])[2];
        const float inv_n = 1.0f / static_cast<float>(e1 - e0);
        if (nx * (cxs * inv_n - a[0]) + nz * (czs * inv_n - a[2]) > 0) nx = -nx, nz = -nz;
        const int axis = std::fabs(dx) >= std::fabs(dz) ? 0 : 2;
        const double lo = std::min(a[axis], b[axis]), hi = std::max(a[axis], b[axis]);
        const double k0 = std::ceil(lo / spacing_), k1 = std::ceil(hi / spacing_) - 1;
        if (k1 - k0 > 1e6) return;
        for (double k = k0; k <= k1; ++k) {
            const double c = k * spacing_;
            const float t = static_cast<float>((c - a[axis]) / (double(b[axis]) - a[axis]));
            const Vec3 s{a[0] + dx * t, a[1] + (b[1] - a[1]) * t, a[2] + dz * t};
            ++out_.samples;
            sample(s, nx, nz);
        }
    }

    void sample(const Vec3& s, float nx, float nz) {
        const bool do_drop = p_.drop_height > 0, do_jump = p_.jump_distance > 0;
        const bool positive_side = std::fabs(nx) >= std::fabs(nz) ? nx > 0 : nz > 0;
        const float jump_reach = do_jump ? 2 * p_.jump_distance + 2 * r_ : 0;
        const float max_d = std::max(do_drop ? drop_reach_ : 0.0f, jump_reach);
        bool drop_done = !do_drop, jump_done = !do_jump;
        bool have_drop_y = false;  // the drop found a surface below (link or DropTooHigh) at drop_y
        float drop_y = 0;
        for (int i = 1; !(drop_done && jump_done); ++i) {
            const float d = static_cast<float>(i) * kAutoLinkStep;
            if (d > max_d + 1e-4f) break;
            const float x = s.x + nx * d, z = s.z + nz * d;
            bool below = false, level = false;
            float y_below = -std::numeric_limits<float>::max(), y_level = 0, best = std::numeric_limits<float>::max();
            const bool in_drop = d <= drop_reach_ + 1e-4f;
            polys_.for_cell(x, z, [&](uint32_t p) {
                const float* pb = &mesh_.poly_bounds[static_cast<size_t>(p) * 6];
                if (x < pb[0] || x > pb[3] || z < pb[2] || z > pb[5]) return;
                if (!poly_contains(mesh_, p, x, z)) return;
                float y;
                mesh_.poly_height(p, x, z, &y);
                const float dy = y - s.y;
                if (dy < -climb_) {
                    below = true;
                    y_below = std::max(y_below, y);
                }
                // A jump's landing: within [-jump_low, +climb], and not a drop's landing (below
                // climb within drop reach, with drops on).
                if (dy > climb_ || dy < -jump_low_) return;
                if (dy < -climb_ && do_drop && in_drop) return;
                // Nor the drop's surface seen further out: that one is reached by the drop.
                if (dy < -climb_ && have_drop_y && std::fabs(y - drop_y) <= climb_) return;
                if (std::fabs(dy) < best) best = std::fabs(dy), y_level = y, level = true;
            });
            if (!drop_done && in_drop && below) {
                drop_done = true;
                have_drop_y = true;
                drop_y = y_below;
                drop(s, Vec3{x, y_below, z});
            }
            if (!jump_done && level && d <= jump_reach + 1e-4f) {
                jump_done = true;
                if (d >= r_) jump(s, Vec3{x, y_level, z}, d, positive_side);
            }
            if (!drop_done && d > drop_reach_) {
                drop_done = true;
                landing_not_walkable(s, nx, nz);
            }
        }
        if (!drop_done) landing_not_walkable(s, nx, nz);
    }

    void drop(const Vec3& s, const Vec3& e) {
        const float depth = s.y - e.y;
        if (depth > p_.drop_height) {
            if (depth <= 2 * p_.drop_height) reject(s, e, LinkReject::DropTooHigh, false, e);
            return;
        }
        arc_.clear();
        const float hd = std::hypot(e.x - s.x, e.z - s.z);
        const int n1 = std::max(1, static_cast<int>(std::ceil(hd / arc_step_)));
        for (int i = 0; i <= n1; ++i) {
            const float t = static_cast<float>(i) / static_cast<float>(n1);
            arc_.push_back({s.x + (e.x - s.x) * t, s.y, s.z + (e.z - s.z) * t});
        }
        const int n2 = std::max(1, static_cast<int>(std::ceil(depth / arc_step_)));
        for (int i = 1; i <= n2; ++i)
            arc_.push_back({e.x, s.y - depth * static_cast<float>(i) / static_cast<float>(n2), e.z});
        accept_if_clear(s, e, false, false);
    }

    void jump(const Vec3& s, const Vec3& e, float d, bool positive_side) {
        const bool twoway = std::fabs(e.y - s.y) <= climb_;
        if (twoway && !positive_side) return;  // the other side of the gap evaluates it
        const float gap = d - 2 * r_;
        if (gap > p_.jump_distance + 1e-4f) {
            reject(s, e, LinkReject::GapTooWide, true, e);
            return;
        }
        arc_.clear();
        const float apex = 0.25f * d;
        const int n = std::max(2, static_cast<int>(std::ceil(d / arc_step_)));
        for (int i = 0; i <= n; ++i) {
            const float t = static_cast<float>(i) / static_cast<float>(n);
            arc_.push_back({s.x + (e.x - s.x) * t, s.y + (e.y - s.y) * t + 4 * apex * t * (1 - t), s.z + (e.z - s.z) * t});
        }
        accept_if_clear(s, e, true, twoway);
    }

    void accept_if_clear(const Vec3& s, const Vec3& e, bool is_jump, bool bidir) {
        float hit[3];
        if (arc_blocked(hit)) {
            reject(s, e, LinkReject::ArcBlocked, is_jump, Vec3{hit[0], hit[1], hit[2]});
            return;
        }
        OffMeshLink l;
        l.start[0] = s.x, l.start[1] = s.y, l.start[2] = s.z;
        l.end[0] = e.x, l.end[1] = e.y, l.end[2] = e.z;
        l.radius = r_;
        l.flags = kPolyFlagDefault;
        l.area = kAreaJump;
        l.bidir = bidir;
        out_.links.push_back(l);
        out_.link_is_jump.push_back(is_jump ? 1 : 0);
    }

    void reject(const Vec3& s, const Vec3& e, LinkReject why, bool is_jump, const Vec3& at) {
        RejectedLink r;
        r.start[0] = s.x, r.start[1] = s.y, r.start[2] = s.z;
        r.end[0] = e.x, r.end[1] = e.y, r.end[2] = e.z;
        r.reason = why;
        r.jump = is_jump;
        r.point[0] = at.x, r.point[1] = at.y, r.point[2] = at.z;
        out_.rejected.push_back(r);
    }

    // No navmesh below within drop reach: level geometry more than climb below (and within twice
    // the drop limit) just past the real ledge means a landing that is not walkable.
    void landing_not_walkable(const Vec3& s, float nx, float nz) {
        const float d = 1.5f * r_ + 0.05f;
        const float x = s.x + nx * d, z = s.z + nz * d;
        // The first surface below the agent's reach (y0 + climb): when it is within climb of y0 the
        // ground goes on there (under a wall, through a building's floor) and this is no ledge.
        const float top = s.y - climb_, bottom = s.y - 2 * p_.drop_height, ceiling = s.y + climb_;
        float best = -std::numeric_limits<float>::max();
        tris_.for_cell(x, z, [&](uint32_t t) {
            const float* tb = &tri_bounds_[static_cast<size_t>(t) * 6];
            if (x < tb[0] || x > tb[3] || z < tb[2] || z > tb[5] || tb[4] < bottom || tb[1] > ceiling) return;
            const float *a = tv(t, 0), *b = tv(t, 1), *c = tv(t, 2);
            const float v0x = c[0] - a[0], v0z = c[2] - a[2], v1x = b[0] - a[0], v1z = b[2] - a[2];
            const float den = v0x * v1z - v0z * v1x;
            if (std::fabs(den) < 1e-9f) return;
            const float px = x - a[0], pz = z - a[2];
            const float u = (px * v1z - pz * v1x) / den, v = (v0x * pz - v0z * px) / den;
            if (u < -1e-5f || v < -1e-5f || u + v > 1 + 1e-5f) return;
            const float y = a[1] + u * (c[1] - a[1]) + v * (b[1] - a[1]);
            if (y <= ceiling && y >= bottom) best = std::max(best, y);
        });
        if (best > -std::numeric_limits<float>::max() && best < top) {
            const Vec3 e{x, best, z};
            reject(s, e, LinkReject::LandingNotWalkable, false, e);
        }
    }

    // Tests the agent cylinder at every point of arc_ against the level triangles near the arc.
    bool arc_blocked(float* hit) {
        float b[6] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                      std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                      -std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
        for (const Vec3& q : arc_) {
            b[0] = std::min(b[0], q.x), b[1] = std::min(b[1], q.y), b[2] = std::min(b[2], q.z);
            b[3] = std::max(b[3], q.x), b[4] = std::max(b[4], q.y), b[5] = std::max(b[5], q.z);
        }
        b[0] -= r_test_, b[2] -= r_test_, b[3] += r_test_, b[5] += r_test_;
        b[1] += cyl_lo_, b[4] += cyl_hi_;
        if (++query_ == 0) {  // wrapped: clear the stamps
            std::fill(stamp_.begin(), stamp_.end(), 0u);
            query_ = 1;
        }
        near_.clear();
        auto take = [&](uint32_t t) {
            if (stamp_[t] == query_) return;
            stamp_[t] = query_;
            const float* tb = &tri_bounds_[static_cast<size_t>(t) * 6];
            if (tb[3] < b[0] || tb[0] > b[3] || tb[5] < b[2] || tb[2] > b[5] || tb[4] < b[1] || tb[1] > b[4]) return;
            near_.push_back(t);
        };
        const int ax = tris_.cx(b[0]), bx = tris_.cx(b[3]), az = tris_.cz(b[2]), bz = tris_.cz(b[5]);
        for (int z = az; z <= bz; ++z)
            for (int x = ax; x <= bx; ++x) {
                const size_t k = static_cast<size_t>(x) + static_cast<size_t>(z) * tris_.nx;
                for (uint32_t j = tris_.first[k]; j < tris_.first[k + 1]; ++j) take(tris_.items[j]);
            }
        for (uint32_t t : tris_.big) take(t);
        if (near_.empty()) return false;
        for (const Vec3& q : arc_) {
            const float y0 = q.y + cyl_lo_, y1 = q.y + cyl_hi_;
            for (uint32_t t : near_) {
                const float* tb = &tri_bounds_[static_cast<size_t>(t) * 6];
                if (tb[4] < y0 || tb[1] > y1 || tb[3] < q.x - r_test_ || tb[0] > q.x + r_test_ ||
                    tb[5] < q.z - r_test_ || tb[2] > q.z + r_test_)
                    continue;
                if (cylinder_hits(tv(t, 0), tv(t, 1), tv(t, 2), q.x, q.z, y0, y1, hit)) return true;
            }
        }
        return false;
    }

    // The vertical cylinder (axis at cx, cz, y in [y0, y1], radius r_test_) against a triangle: the
    // triangle clipped to the slab, projected to xz, nearer the axis than the radius. `hit`: the
    // clipped triangle's point nearest the axis.
    bool cylinder_hits(const float* a, const float* b, const float* c, float cx, float cz, float y0, float y1,
                       float* hit) const {
        float poly[8][3], tmp[8][3];
        int n = 3;
        for (int k = 0; k < 3; ++k) poly[0][k] = a[k], poly[1][k] = b[k], poly[2][k] = c[k];
        auto clip = [&](float (*in)[3], int nin, float (*outp)[3], float h, bool keep_above) {
            int m = 0;
            for (int i = 0; i < nin; ++i) {
                const float* p = in[i];
                const float* q = in[(i + 1) % nin];
                const float dp = keep_above ? p[1] - h : h - p[1], dq = keep_above ? q[1] - h : h - q[1];
                if (dp >= 0) {
                    for (int k = 0; k < 3; ++k) outp[m][k] = p[k];
                    ++m;
                }
                if ((dp >= 0) != (dq >= 0)) {
                    const float t = dp / (dp - dq);
                    for (int k = 0; k < 3; ++k) outp[m][k] = p[k] + (q[k] - p[k]) * t;
                    ++m;
                }
            }
            return m;
        };
        n = clip(poly, n, tmp, y0, true);
        if (n == 0) return false;
        n = clip(tmp, n, poly, y1, false);
        if (n == 0) return false;
        // Inside the projected polygon (a non-degenerate one)?
        float area = 0;
        for (int i = 0; i < n; ++i) {
            const float* p = poly[i];
            const float* q = poly[(i + 1) % n];
            area += p[0] * q[2] - q[0] * p[2];
        }
        if (std::fabs(area) > 1e-6f) {
            bool inside = true;
            for (int i = 0; i < n && inside; ++i) {
                const float* p = poly[i];
                const float* q = poly[(i + 1) % n];
                const float cr = (q[0] - p[0]) * (cz - p[2]) - (q[2] - p[2]) * (cx - p[0]);
                if (cr * area < 0) inside = false;
            }
            if (inside) {
                // Height of the triangle's plane at the axis, within the slab.
                const float ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
                const float vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
                const float nxp = uy * vz - uz * vy, nyp = uz * vx - ux * vz, nzp = ux * vy - uy * vx;
                float y = 0.5f * (y0 + y1);
                if (std::fabs(nyp) > 1e-9f) y = a[1] - (nxp * (cx - a[0]) + nzp * (cz - a[2])) / nyp;
                hit[0] = cx, hit[1] = std::clamp(y, y0, y1), hit[2] = cz;
                return true;
            }
        }
        float best = r_test_ * r_test_;
        bool found = false;
        for (int i = 0; i < n; ++i) {
            const float* p = poly[i];
            const float* q = poly[(i + 1) % n];
            const float ex = q[0] - p[0], ez = q[2] - p[2];
            const float l2 = ex * ex + ez * ez;
            float t = l2 > 1e-12f ? ((cx - p[0]) * ex + (cz - p[2]) * ez) / l2 : 0.0f;
            t = std::clamp(t, 0.0f, 1.0f);
            const float px = p[0] + ex * t, pz = p[2] + ez * t;
            const float d2 = (px - cx) * (px - cx) + (pz - cz) * (pz - cz);
            if (d2 < best) {
                best = d2;
                found = true;
                hit[0] = px, hit[1] = p[1] + (q[1] - p[1]) * t, hit[2] = pz;
            }
        }
        return found;
    }
};

}  // namespace

float auto_link_spacing(const AutoLinkParams& p) {
    return p.spacing > 0 ? p.spacing : std::max(1.0f, 4 * std::max(0.0f, p.agent_radius));
}

const char* link_reject_name(LinkReject r) {
    switch (r) {
        case LinkReject::ArcBlocked: return "arc_blocked";
        case LinkReject::DropTooHigh: return "drop_too_high";
        case LinkReject::GapTooWide: return "gap_too_wide";
        case LinkReject::LandingNotWalkable: return "landing_not_walkable";
    }
    return "?";
}

Status generate_auto_links(const NavMesh& mesh, const InputMesh& level, const AutoLinkParams& p, AutoLinks& out,
                           const CancelFlag* cancel) {
    out.clear();
    if (!p.enabled() || mesh.npolys == 0) return Status::ok();
    Generator g(mesh, level, p, out);
    return g.run(cancel);
}

}  // namespace nav
