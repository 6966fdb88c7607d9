// Hertel-Mehlhorn merge of CDT triangles into convex polygons; see convex_merge.h.
#include "core/map2d/convex_merge.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace nav::map2d {

Status triangles_to_polygons(const CdtResult& cdt, int max_verts, PolyMesh2D& out) {
    out = PolyMesh2D{};
    if (max_verts < 3 || max_verts > 64)
        return Status::bad_input("max_verts_per_poly must be in [3, 64], got " + std::to_string(max_verts));
    const uint32_t nt = uint32_t(cdt.tris.size() / 3);
    const uint32_t cap = uint32_t(max_verts);
    // polygon storage: slot block of `cap` per triangle, the polygon lives at its root triangle
    std::vector<uint32_t> pv(size_t(nt) * cap), pn(nt, 3), parent(nt);
    for (uint32_t t = 0; t < nt; ++t) {
        parent[t] = t;
        for (uint32_t i = 0; i < 3; ++i) pv[size_t(t) * cap + i] = cdt.tris[3 * t + i];
    }
    auto root = [&](uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    const auto& P = cdt.xz;
    auto orient = [&](uint32_t a, uint32_t b, uint32_t c) {
        return orient2d(P[2 * a], P[2 * a + 1], P[2 * b], P[2 * b + 1], P[2 * c], P[2 * c + 1]);
    };
    if (cap > 3) {
        struct Diag {
            double len2;
            uint32_t u, w, t1, t2;
        };
        std::vector<Diag> diags;
        for (uint32_t t = 0; t < nt; ++t)
            for (uint32_t i = 0; i < 3; ++i) {
                const uint32_t o = cdt.nei[3 * t + i];
                if (o == UINT32_MAX || o < t || cdt.constrained[3 * t + i]) continue;
                const uint32_t u = cdt.tris[3 * t + i], w = cdt.tris[3 * t + (i + 1) % 3];
                const double dx = P[2 * w] - P[2 * u], dz = P[2 * w + 1] - P[2 * u + 1];
                diags.push_back({dx * dx + dz * dz, u, w, t, o});
            }
        std::sort(diags.begin(), diags.end(), [](const Diag& a, const Diag& b) { return a.len2 > b.len2; });
        std::vector<uint32_t> merged(2 * size_t(cap));
        for (const Diag& d : diags) {
            const uint32_t A = root(d.t1), B = root(d.t2);
            if (A == B) continue;
            const uint32_t na = pn[A], nb = pn[B];
            if (na + nb - 2 > cap) continue;
            const uint32_t* a = &pv[size_t(A) * cap];
            const uint32_t* b = &pv[size_t(B) * cap];
            uint32_t ia = UINT32_MAX, jb = UINT32_MAX;
            for (uint32_t i = 0; i < na; ++i)
                if (a[i] == d.u && a[(i + 1) % na] == d.w) ia = i;
            for (uint32_t j = 0; j < nb; ++j)
                if (b[j] == d.w && b[(j + 1) % nb] == d.u) jb = j;
            if (ia == UINT32_MAX || jb == UINT32_MAX) continue;
            uint32_t m = 0;
            for (uint32_t k = 0; k < na; ++k) merged[m++] = a[(ia + 1 + k) % na];      // w .. u
            for (uint32_t k = 0; k + 2 < nb; ++k) merged[m++] = b[(jb + 2 + k) % nb];  // after u .. before w
            // only the corners at u (index na-1) and w (index 0) change
            const uint32_t cu = na - 1, cw = 0;
            if (!(orient(merged[(cu + m - 1) % m], merged[cu], merged[(cu + 1) % m]) > 0)) continue;
            if (!(orient(merged[(cw + m - 1) % m], merged[cw], merged[(cw + 1) % m]) > 0)) continue;
            std::copy(merged.begin(), merged.begin() + m, pv.begin() + long(size_t(A) * cap));
            pn[A] = m;
            parent[B] = A;
        }
    }
    // compact: used vertices, then polygons
    std::vector<uint32_t> vmap(P.size() / 2, UINT32_MAX);
    out.poly_first.push_back(0);
    for (uint32_t t = 0; t < nt; ++t) {
        if (root(t) != t) continue;
        for (uint32_t i = 0; i < pn[t]; ++i) {
            const uint32_t v = pv[size_t(t) * cap + i];
            if (vmap[v] == UINT32_MAX) {
                vmap[v] = uint32_t(out.xz.size() / 2);
                out.xz.push_back(P[2 * v]);
                out.xz.push_back(P[2 * v + 1]);
            }
            out.poly_verts.push_back(vmap[v]);
        }
        out.poly_first.push_back(uint32_t(out.poly_verts.size()));
    }
    return link_polygons(out);
}

}  // namespace nav::map2d
