// Constrained Delaunay triangulation: incremental Delaunay, Sloan's constraint insertion, flood
// fill of the domain. See cdt.h.
#include "core/map2d/cdt.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <string>

namespace nav::map2d {
namespace {

constexpr uint32_t kNone = UINT32_MAX;

struct Tri {
    std::vector<double> p;        // points (centred), x z each; the last 3 are the enclosing triangle
    std::vector<uint32_t> v;      // 3 per triangle
    std::vector<uint32_t> n;      // 3 per triangle
    std::vector<uint8_t> c;       // 3 per triangle
    std::vector<uint32_t> vtri;   // per point: one triangle using it
    CdtTrace* trace = nullptr;
    uint32_t stop_after = 0;
    bool stopped = false;
    uint32_t last = 0;            // last located triangle
    double centre[2] = {0, 0};    // subtracted from the input points

    static uint32_t nx(uint32_t i) { return i == 2 ? 0 : i + 1; }
    static uint32_t pv(uint32_t i) { return i == 0 ? 2 : i - 1; }
    double X(uint32_t i) const { return p[2 * size_t(i)]; }
    double Z(uint32_t i) const { return p[2 * size_t(i) + 1]; }
    double orient(uint32_t a, uint32_t b, uint32_t q) const {
        const long double r = ((long double)X(b) - X(a)) * ((long double)Z(q) - Z(a)) -
                              ((long double)Z(b) - Z(a)) * ((long double)X(q) - X(a));
        return double(r);
    }
    double orient_xz(uint32_t a, uint32_t b, double qx, double qz) const {
        const long double r = ((long double)X(b) - X(a)) * ((long double)qz - Z(a)) -
                              ((long double)Z(b) - Z(a)) * ((long double)qx - X(a));
        return double(r);
    }
    void record(uint8_t kind, uint32_t a, uint32_t b, uint32_t cc, uint32_t d) {
        if (!trace) return;
        trace->steps.push_back({kind, a, b, cc, d});
        if (stop_after && trace->steps.size() >= stop_after) stopped = true;
    }
    uint32_t add_tri(uint32_t a, uint32_t b, uint32_t cc) {
        const uint32_t t = uint32_t(v.size() / 3);
        v.insert(v.end(), {a, b, cc});
        n.insert(n.end(), {kNone, kNone, kNone});
        c.insert(c.end(), {0, 0, 0});
        return t;
    }
    void set(uint32_t t, uint32_t a, uint32_t b, uint32_t cc) {
        v[3 * t] = a, v[3 * t + 1] = b, v[3 * t + 2] = cc;
        vtri[a] = vtri[b] = vtri[cc] = t;
    }
    // In triangle tn (if any), the edge from y to x now borders `now` instead of `was`.
    void relink(uint32_t tn, uint32_t x, uint32_t y, uint32_t now) {
        if (tn == kNone) return;
        for (uint32_t i = 0; i < 3; ++i)
            if (v[3 * tn + i] == y && v[3 * tn + nx(i)] == x) n[3 * tn + i] = now;
    }
    uint32_t index_of(uint32_t t, uint32_t q) const {
        for (uint32_t i = 0; i < 3; ++i)
            if (v[3 * t + i] == q) return i;
        return kNone;
    }

    // Flips edge e of t. t = (a, b, c), its neighbour (b, a, d) -> t = (a, d, c), t2 = (d, b, c).
    void flip(uint32_t t, uint32_t e, uint32_t& t2_out) {
        const uint32_t a = v[3 * t + e], b = v[3 * t + nx(e)], cc = v[3 * t + pv(e)];
        const uint32_t t2 = n[3 * t + e];
        const uint32_t f = index_of(t2, b);  // t2.v[f] = b, v[f+1] = a
        const uint32_t d = v[3 * t2 + pv(f)];
        const uint32_t n_bc = n[3 * t + nx(e)], n_ca = n[3 * t + pv(e)];
        const uint32_t n_ad = n[3 * t2 + nx(f)], n_db = n[3 * t2 + pv(f)];
        const uint8_t c_bc = c[3 * t + nx(e)], c_ca = c[3 * t + pv(e)];
        const uint8_t c_ad = c[3 * t2 + nx(f)], c_db = c[3 * t2 + pv(f)];
        set(t, a, d, cc);
        set(t2, d, b, cc);
        n[3 * t] = n_ad, n[3 * t + 1] = t2, n[3 * t + 2] = n_ca;
        c[3 * t] = c_ad, c[3 * t + 1] = 0, c[3 * t + 2] = c_ca;
        n[3 * t2] = n_db, n[3 * t2 + 1] = n_bc, n[3 * t2 + 2] = t;
        c[3 * t2] = c_db, c[3 * t2 + 1] = c_bc, c[3 * t2 + 2] = 0;
        relink(n_ad, a, d, t);
        relink(n_bc, b, cc, t2);
        t2_out = t2;
        record(CdtStep::Flip, a, b, cc, d);
    }

    // Lawson flips from the edges opposite a new point.
    void legalize(std::vector<uint32_t>& stack) {
        while (!stack.empty() && !stopped) {
            const uint32_t code = stack.back();
            stack.pop_back();
            const uint32_t t = code >> 2, e = code & 3;
            const uint32_t t2 = n[3 * t + e];
            if (t2 == kNone || c[3 * t + e]) continue;
            const uint32_t a = v[3 * t + e], b = v[3 * t + nx(e)], q = v[3 * t + pv(e)];
            const uint32_t f = index_of(t2, b);
            if (f == kNone) continue;
            const uint32_t d = v[3 * t2 + pv(f)];
            if (incircle(X(a), Z(a), X(b), Z(b), X(q), Z(q), X(d), Z(d)) <= 0) continue;
            uint32_t t2n;
            flip(t, e, t2n);
            stack.push_back(t << 2);
            stack.push_back(t2n << 2);
        }
    }

    uint32_t locate(double qx, double qz) {
        uint32_t t = last;
        const uint32_t ntri = uint32_t(v.size() / 3);
        uint32_t rot = 0;
        for (uint32_t steps = 0; steps < 4 * ntri + 16; ++steps) {
            bool moved = false;
            for (uint32_t k = 0; k < 3; ++k) {
                const uint32_t i = (k + rot) % 3;
                if (orient_xz(v[3 * t + i], v[3 * t + nx(i)], qx, qz) < 0 && n[3 * t + i] != kNone) {
                    t = n[3 * t + i];
                    moved = true;
                    break;
                }
            }
            if (!moved) return t;
            ++rot;
        }
        for (uint32_t s = 0; s < ntri; ++s) {  // walk cycled (numerically): scan
            bool in = true;
            for (uint32_t i = 0; i < 3 && in; ++i)
                in = orient_xz(v[3 * s + i], v[3 * s + nx(i)], qx, qz) >= 0;
            if (in) return s;
        }
        return kNone;
    }

    // Inserts point q; returns the point it coincides with (q itself when new).
    uint32_t insert(uint32_t q) {
        const uint32_t t = locate(X(q), Z(q));
        if (t == kNone) return kNone;
        last = t;
        uint32_t on_edge = kNone;
        for (uint32_t i = 0; i < 3; ++i) {
            const uint32_t a = v[3 * t + i];
            if (X(a) == X(q) && Z(a) == Z(q)) return a;
            if (orient(a, v[3 * t + nx(i)], q) == 0) on_edge = i;
        }
        std::vector<uint32_t> stack;
        if (on_edge == kNone || n[3 * t + on_edge] == kNone) {
            const uint32_t a = v[3 * t], b = v[3 * t + 1], cc = v[3 * t + 2];
            const uint32_t n_ab = n[3 * t], n_bc = n[3 * t + 1], n_ca = n[3 * t + 2];
            const uint8_t c_ab = c[3 * t], c_bc = c[3 * t + 1], c_ca = c[3 * t + 2];
            const uint32_t t1 = add_tri(b, cc, q), t2 = add_tri(cc, a, q);
            set(t, a, b, q);
            set(t1, b, cc, q);
            set(t2, cc, a, q);
            n[3 * t] = n_ab, n[3 * t + 1] = t1, n[3 * t + 2] = t2;
            n[3 * t1] = n_bc, n[3 * t1 + 1] = t2, n[3 * t1 + 2] = t;
            n[3 * t2] = n_ca, n[3 * t2 + 1] = t, n[3 * t2 + 2] = t1;
            c[3 * t] = c_ab, c[3 * t1] = c_bc, c[3 * t2] = c_ca;
            relink(n_bc, b, cc, t1);
            relink(n_ca, cc, a, t2);
            record(CdtStep::InsertPoint, q, 0, 0, 0);
            stack = {t << 2, t1 << 2, t2 << 2};
        } else {
            const uint32_t i = on_edge;
            const uint32_t a = v[3 * t + i], b = v[3 * t + nx(i)], cc = v[3 * t + pv(i)];
            const uint32_t tt = n[3 * t + i];
            const uint32_t f = index_of(tt, b);
            const uint32_t d = v[3 * tt + pv(f)];
            const uint32_t n_bc = n[3 * t + nx(i)], n_ca = n[3 * t + pv(i)];
            const uint32_t n_ad = n[3 * tt + nx(f)], n_db = n[3 * tt + pv(f)];
            const uint8_t c_bc = c[3 * t + nx(i)], c_ca = c[3 * t + pv(i)];
            const uint8_t c_ad = c[3 * tt + nx(f)], c_db = c[3 * tt + pv(f)];
            const uint8_t c_ab = c[3 * t + i];
            const uint32_t T1 = t, T3 = tt;
            const uint32_t T2 = add_tri(cc, q, b), T4 = add_tri(d, q, a);
            set(T1, cc, a, q);
            set(T2, cc, q, b);
            set(T3, d, b, q);
            set(T4, d, q, a);
            n[3 * T1] = n_ca, n[3 * T1 + 1] = T4, n[3 * T1 + 2] = T2;
            c[3 * T1] = c_ca, c[3 * T1 + 1] = c_ab, c[3 * T1 + 2] = 0;
            n[3 * T2] = T1, n[3 * T2 + 1] = T3, n[3 * T2 + 2] = n_bc;
            c[3 * T2] = 0, c[3 * T2 + 1] = c_ab, c[3 * T2 + 2] = c_bc;
            n[3 * T3] = n_db, n[3 * T3 + 1] = T2, n[3 * T3 + 2] = T4;
            c[3 * T3] = c_db, c[3 * T3 + 1] = c_ab, c[3 * T3 + 2] = 0;
            n[3 * T4] = T3, n[3 * T4 + 1] = T1, n[3 * T4 + 2] = n_ad;
            c[3 * T4] = 0, c[3 * T4 + 1] = c_ab, c[3 * T4 + 2] = c_ad;
            relink(n_bc, b, cc, T2);
            relink(n_ad, a, d, T4);
            record(CdtStep::InsertPoint, q, 0, 0, 0);
            stack = {T1 << 2, (T2 << 2) | 2, T3 << 2, (T4 << 2) | 2};
        }
        legalize(stack);
        return q;
    }

    // The triangle with the directed edge u -> v (and that edge's index), or kNone.
    bool find_edge(uint32_t u, uint32_t w, uint32_t& t_out, uint32_t& e_out) const {
        uint32_t t = vtri[u];
        const uint32_t t0 = t;
        const uint32_t ntri = uint32_t(v.size() / 3);
        for (uint32_t k = 0; k <= ntri; ++k) {
            const uint32_t i = index_of(t, u);
            if (v[3 * t + nx(i)] == w) {
                t_out = t, e_out = i;
                return true;
            }
            t = n[3 * t + pv(i)];  // next triangle counter-clockwise around u
            if (t == kNone || t == t0) break;
        }
        // around a point on the enclosing boundary the fan is open: go the other way too
        t = t0;
        for (uint32_t k = 0; k <= ntri; ++k) {
            const uint32_t i = index_of(t, u);
            if (v[3 * t + nx(i)] == w) {
                t_out = t, e_out = i;
                return true;
            }
            t = n[3 * t + i];
            if (t == kNone || t == t0) break;
        }
        return false;
    }

    void mark(uint32_t a, uint32_t b) {
        uint32_t t = 0, e = 0;
        if (find_edge(a, b, t, e)) c[3 * t + e] = 1;
        if (find_edge(b, a, t, e)) c[3 * t + e] = 1;
    }

    // "cdt: what (constraint from (x, z) to (x, z))" in input coordinates (p is centred on c).
    Status fail(const std::string& what, uint32_t a, uint32_t b) const {
        auto pt = [&](uint32_t i) {
            return "(" + std::to_string(X(i) + centre[0]) + ", " + std::to_string(Z(i) + centre[1]) + ")";
        };
        return Status::internal("cdt: " + what + " (constraint from " + pt(a) + " to " + pt(b) + ")");
    }

    Status insert_constraint(uint32_t a, uint32_t b) {
        std::deque<std::pair<uint32_t, uint32_t>> crossing;
        std::vector<std::pair<uint32_t, uint32_t>> fresh;
        const uint32_t ntri = uint32_t(v.size() / 3);
        for (uint32_t guard = 0; a != b && guard <= ntri && !stopped; ++guard) {
            uint32_t t = 0, e = 0;
            if (find_edge(a, b, t, e)) {
                mark(a, b);
                record(CdtStep::InsertConstraint, a, b, 0, 0);
                return Status::ok();
            }
            // the triangle around a whose far edge the segment a-b crosses
            uint32_t r = kNone, l = kNone, tc = vtri[a];
            uint32_t stop_at = kNone;  // a vertex on the open segment a-b
            for (uint32_t k = 0; k <= ntri; ++k) {
                const uint32_t i = index_of(tc, a);
                const uint32_t v1 = v[3 * tc + nx(i)], v2 = v[3 * tc + pv(i)];
                const double o1 = orient(a, b, v1), o2 = orient(a, b, v2);
                const double dot1 = (X(v1) - X(a)) * (X(b) - X(a)) + (Z(v1) - Z(a)) * (Z(b) - Z(a));
                if (o1 == 0 && dot1 > 0) {
                    stop_at = v1;
                    break;
                }
                if (o1 < 0 && o2 > 0) {
                    r = v1, l = v2;
                    t = tc;
                    e = nx(i);
                    break;
                }
                tc = n[3 * tc + pv(i)];
                if (tc == kNone) return fail("open fan around a constraint end", a, b);
            }
            if (stop_at == kNone && r == kNone)
                return fail("no triangle around a constraint end faces it", a, b);
            crossing.clear();
            if (stop_at == kNone) {
                // walk along a-b collecting the crossed edges (right end, left end)
                for (uint32_t k = 0; k <= ntri; ++k) {
                    if (c[3 * t + e])
                        return Status::bad_input("cdt: constraint edges cross (points " +
                                                 std::to_string(a) + "-" + std::to_string(b) + ")");
                    crossing.push_back({r, l});
                    const uint32_t tn = n[3 * t + e];
                    if (tn == kNone) return fail("constraint walked out of the triangulation", a, b);
                    const uint32_t f = index_of(tn, l);  // tn.v[f] = l, v[f+1] = r
                    const uint32_t w = v[3 * tn + pv(f)];
                    if (w == b) break;
                    const double o = orient(a, b, w);
                    const double l2 = (X(b) - X(a)) * (X(b) - X(a)) + (Z(b) - Z(a)) * (Z(b) - Z(a));
                    if (std::fabs(o) <= 1e-13 * l2) {  // on the segment (to rounding): split there
                        stop_at = w;
                        break;
                    }
                    t = tn;
                    if (o < 0) {
                        r = w;
                        e = index_of(tn, w);  // edge w -> l
                    } else {
                        l = w;
                        e = f == kNone ? 0 : nx(f);  // edge r -> w
                    }
                }
            }
            const uint32_t end = stop_at == kNone ? b : stop_at;
            // flip the crossing edges away (Sloan)
            fresh.clear();
            for (size_t guard2 = 0; !crossing.empty() && !stopped; ++guard2) {
                if (guard2 > 16 * (ntri + 16) + crossing.size() * crossing.size())
                    return fail("constraint insertion does not converge", a, b);
                const auto [u, w] = crossing.front();
                crossing.pop_front();
                uint32_t tt = 0, ee = 0;
                if (!find_edge(u, w, tt, ee)) return fail("lost a crossing edge", a, b);
                const uint32_t t2 = n[3 * tt + ee];
                const uint32_t p = v[3 * tt + pv(ee)];
                const uint32_t q = v[3 * t2 + pv(index_of(t2, w))];
                const double ou = orient(p, q, u), ow = orient(p, q, w);
                if (!((ou > 0 && ow < 0) || (ou < 0 && ow > 0))) {
                    crossing.push_back({u, w});
                    continue;
                }
                uint32_t t2n;
                flip(tt, ee, t2n);
                if (p != a && p != end && q != a && q != end) {
                    const double op = orient(a, end, p), oq = orient(a, end, q);
                    if ((op < 0 && oq > 0) || (op > 0 && oq < 0)) {
                        crossing.push_back(op < 0 ? std::pair{p, q} : std::pair{q, p});
                        continue;
                    }
                }
                fresh.push_back({p, q});
            }
            if (stopped) return Status::ok();
            mark(a, end);
            record(CdtStep::InsertConstraint, a, end, 0, 0);
            // restore the Delaunay property on the new edges
            bool swapped = true;
            for (uint32_t pass = 0; swapped && pass < 64 + fresh.size() && !stopped; ++pass) {
                swapped = false;
                for (auto& [u, w] : fresh) {
                    if ((u == a && w == end) || (u == end && w == a)) continue;
                    uint32_t tt = 0, ee = 0;
                    if (!find_edge(u, w, tt, ee) || c[3 * tt + ee]) continue;
                    const uint32_t t2 = n[3 * tt + ee];
                    if (t2 == kNone) continue;
                    const uint32_t p = v[3 * tt + pv(ee)];
                    const uint32_t q = v[3 * t2 + pv(index_of(t2, w))];
                    if (incircle(X(u), Z(u), X(w), Z(w), X(p), Z(p), X(q), Z(q)) <= 0) continue;
                    uint32_t t2n;
                    flip(tt, ee, t2n);
                    u = p, w = q;
                    swapped = true;
                    if (stopped) break;
                }
            }
            if (end == b) return Status::ok();
            a = end;  // continue with the rest of the constraint
        }
        return Status::ok();
    }
};

}  // namespace

CdtInput cdt_input_from_rings(const Rings& rings) {
    CdtInput in;
    in.xz = rings.xz;
    for (size_t r = 0; r < rings.count(); ++r) {
        const uint32_t f = rings.first[r], n = rings.size(r);
        for (uint32_t i = 0; i < n; ++i) {
            in.constraints.push_back(f + i);
            in.constraints.push_back(f + (i + 1) % n);
        }
    }
    return in;
}

Status cdt_build(const CdtInput& in, CdtResult& out, CdtTrace* trace, uint32_t stop_after,
                 bool keep_all) {
    out = CdtResult{};
    if (trace) trace->steps.clear();
    if (in.xz.size() % 2) return Status::bad_input("cdt: odd number of coordinates");
    const uint32_t np = uint32_t(in.xz.size() / 2);
    if (in.constraints.size() % 2) return Status::bad_input("cdt: odd number of constraint indices");
    for (size_t k = 0; k < in.constraints.size(); ++k)
        if (in.constraints[k] >= np)
            return Status::bad_input("cdt: constraint " + std::to_string(k / 2) + " uses point " +
                                     std::to_string(in.constraints[k]) + ", only " +
                                     std::to_string(np) + " points");
    double bmin[2] = {HUGE_VAL, HUGE_VAL}, bmax[2] = {-HUGE_VAL, -HUGE_VAL};
    for (uint32_t i = 0; i < np; ++i) {
        const double x = in.xz[2 * i], z = in.xz[2 * i + 1];
        if (!std::isfinite(x) || !std::isfinite(z))
            return Status::bad_input("cdt: point " + std::to_string(i) + " is not finite");
        bmin[0] = std::min(bmin[0], x), bmin[1] = std::min(bmin[1], z);
        bmax[0] = std::max(bmax[0], x), bmax[1] = std::max(bmax[1], z);
    }
    if (np < 3) return Status::bad_input("cdt: need at least 3 points, got " + std::to_string(np));
    const double cx = 0.5 * (bmin[0] + bmax[0]), cz = 0.5 * (bmin[1] + bmax[1]);
    const double size = std::max({bmax[0] - bmin[0], bmax[1] - bmin[1], 1e-9});

    Tri T;
    T.centre[0] = cx, T.centre[1] = cz;
    T.trace = trace;
    T.stop_after = stop_after;
    T.p.resize(2 * size_t(np + 3));
    for (uint32_t i = 0; i < np; ++i) {
        T.p[2 * i] = in.xz[2 * i] - cx;
        T.p[2 * i + 1] = in.xz[2 * i + 1] - cz;
    }
    const double s = 64.0 * size;
    const double sup[6] = {-s, -s, s, -s, 0.0, s};
    for (int k = 0; k < 6; ++k) T.p[2 * size_t(np) + k] = sup[k];
    T.vtri.assign(np + 3, kNone);
    T.add_tri(np, np + 1, np + 2);
    T.vtri[np] = T.vtri[np + 1] = T.vtri[np + 2] = 0;

    // insertion order: rows of a sqrt(n) x sqrt(n) grid, alternating direction, so each point is
    // found by a short walk from the last one
    std::vector<uint32_t> order(np);
    {
        const uint32_t g = std::max(1u, uint32_t(std::sqrt(double(np))));
        std::vector<uint64_t> key(np);
        for (uint32_t i = 0; i < np; ++i) {
            const uint32_t row = std::min(g - 1, uint32_t((in.xz[2 * i + 1] - bmin[1]) / size * g));
            const double fx = (in.xz[2 * i] - bmin[0]) / size;
            const double col = (row & 1) ? 1.0 - fx : fx;
            key[i] = (uint64_t(row) << 32) | uint64_t(std::min(col, 1.0) * 4294967295.0);
        }
        for (uint32_t i = 0; i < np; ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
    }
    out.point_map.resize(np);
    for (uint32_t k = 0; k < np && !T.stopped; ++k) {
        const uint32_t i = order[k];
        const uint32_t m = T.insert(i);
        if (m == kNone) return Status::internal("cdt: could not locate point " + std::to_string(i));
        out.point_map[i] = m;
    }
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < np; ++i) distinct += out.point_map[i] == i;
    if (!T.stopped && distinct < 3)
        return Status::bad_input("cdt: need at least 3 distinct points, got " + std::to_string(distinct));
    for (size_t k = 0; k + 1 < in.constraints.size() && !T.stopped; k += 2) {
        const uint32_t a = out.point_map[in.constraints[k]], b = out.point_map[in.constraints[k + 1]];
        if (a == b) continue;
        Status st = T.insert_constraint(a, b);
        if (!st) return st;
    }

    const uint32_t ntri = uint32_t(T.v.size() / 3);
    std::vector<uint32_t> level(ntri, kNone);
    if (!T.stopped) {
        // 0-1 breadth-first flood from the enclosing triangle: crossing a constraint costs 1
        std::deque<uint32_t> dq;
        for (uint32_t t = 0; t < ntri; ++t)
            for (uint32_t i = 0; i < 3; ++i)
                if (T.v[3 * t + i] >= np && level[t] == kNone) {
                    level[t] = 0;
                    dq.push_back(t);
                }
        while (!dq.empty()) {
            const uint32_t t = dq.front();
            dq.pop_front();
            for (uint32_t i = 0; i < 3; ++i) {
                const uint32_t u = T.n[3 * t + i];
                if (u == kNone) continue;
                const uint32_t lv = level[t] + T.c[3 * t + i];
                if (level[u] != kNone && level[u] <= lv) continue;
                level[u] = lv;
                if (T.c[3 * t + i]) dq.push_back(u);
                else dq.push_front(u);
            }
        }
    }
    const bool all = keep_all || T.stopped;
    std::vector<uint32_t> remap(ntri, kNone);
    uint32_t nout = 0;
    for (uint32_t t = 0; t < ntri; ++t)
        if (all || (level[t] != kNone && (level[t] & 1))) remap[t] = nout++;
    out.tris.resize(3 * size_t(nout));
    out.nei.resize(3 * size_t(nout));
    out.constrained.resize(3 * size_t(nout));
    for (uint32_t t = 0; t < ntri; ++t) {
        if (remap[t] == kNone) continue;
        for (uint32_t i = 0; i < 3; ++i) {
            out.tris[3 * remap[t] + i] = T.v[3 * t + i];
            const uint32_t u = T.n[3 * t + i];
            out.nei[3 * remap[t] + i] = u == kNone ? kNone : remap[u];
            out.constrained[3 * remap[t] + i] = T.c[3 * t + i];
        }
    }
    const uint32_t nkeep = all ? np + 3 : np;
    out.xz.resize(2 * size_t(nkeep));
    for (uint32_t i = 0; i < nkeep; ++i) {
        out.xz[2 * i] = i < np ? in.xz[2 * i] : T.p[2 * i] + cx;
        out.xz[2 * i + 1] = i < np ? in.xz[2 * i + 1] : T.p[2 * i + 1] + cz;
    }
    if (!T.stopped) T.record(CdtStep::RemoveOutside, nout, 0, 0, 0);
    return Status::ok();
}

}  // namespace nav::map2d
