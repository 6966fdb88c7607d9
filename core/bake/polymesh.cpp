// Stage 9: the convex polygon mesh. See polymesh.h. Produces the same mesh as Recast 1.5.1's
// rcBuildPolyMesh (same triangulation, merge order, vertex welding and adjacency) so that the
// differential tests can expect identical output; the code is our own, and the greedy merge is
// done with a neighbour-pair list instead of an all-pairs search (same choices, far less work).
// One deliberate difference: an ear must be a convex corner (Triangulator::ear), so no triangle
// comes out wound the wrong way where Recast emits one (an outline with a bridged hole).
#include "core/bake/polymesh.h"
#include "core/bake/geom_int.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace nav {

int PolyMesh::poly_vert_count(int i) const {
    const uint16_t* p = poly(i);
    for (int k = 0; k < nvp; ++k)
        if (p[k] == kMeshNullIdx) return k;
    return nvp;
}

namespace {

using namespace ixz;

constexpr uint32_t kEarFlag = 0x80000000u;
constexpr uint32_t kIndexMask = 0x0fffffffu;
constexpr uint16_t kMultipleRegs = 0;  // region of a polygon that spans several (border removal)


// ---------------------------------------------------------------------------------------------
// Ear-clipping triangulation of a contour (vertices 4 ints each: x, y, z, flags), in the
// reference's winding convention ("left" means negative twice-area).


struct Triangulator {
    const int32_t* verts = nullptr;
    uint32_t* idx = nullptr;  // vertex index | kEarFlag

    const int32_t* v(int i) const { return verts + static_cast<size_t>(idx[i] & kIndexMask) * 4; }

    // (i, j) crosses no polygon edge, ignoring edges incident to i or j (or touching their ends).
    // `proper_only` is the loose variant: only proper crossings count.
    template <bool proper_only>
    bool diagonal_clear(int i, int j, int n) const {
        const int32_t* d0 = v(i);
        const int32_t* d1 = v(j);
        const int minx = std::min(d0[0], d1[0]), maxx = std::max(d0[0], d1[0]);
        const int minz = std::min(d0[2], d1[2]), maxz = std::max(d0[2], d1[2]);
        for (int k = 0; k < n; ++k) {
            const int k1 = next_idx(k, n);
            if (k == i || k1 == i || k == j || k1 == j) continue;
            const int32_t* p0 = v(k);
            const int32_t* p1 = v(k1);
            // Disjoint closed bounding boxes cannot intersect, properly or not.
            if (std::max(p0[0], p1[0]) < minx || std::min(p0[0], p1[0]) > maxx || std::max(p0[2], p1[2]) < minz ||
                std::min(p0[2], p1[2]) > maxz)
                continue;
            if (same_xz(d0, p0) || same_xz(d1, p0) || same_xz(d0, p1) || same_xz(d1, p1)) continue;
            if (proper_only ? intersect_proper(d0, d1, p0, p1) : segments_intersect(d0, d1, p0, p1)) return false;
        }
        return true;
    }

    // The diagonal (i, j) leaves vertex i into the polygon's interior.
    bool in_cone(int i, int j, int n) const {
        const int32_t* pi = v(i);
        const int32_t* pj = v(j);
        const int32_t* pnext = v(next_idx(i, n));
        const int32_t* pprev = v(prev_idx(i, n));
        if (left_on(pprev, pi, pnext)) return left(pi, pj, pprev) && left(pj, pi, pnext);
        return !(left_on(pi, pj, pnext) && left_on(pj, pi, pprev));
    }
    bool in_cone_loose(int i, int j, int n) const {
        const int32_t* pi = v(i);
        const int32_t* pj = v(j);
        const int32_t* pnext = v(next_idx(i, n));
        const int32_t* pprev = v(prev_idx(i, n));
        if (left_on(pprev, pi, pnext)) return left_on(pi, pj, pprev) && left_on(pj, pi, pnext);
        return !(left_on(pi, pj, pnext) && left_on(pj, pi, pprev));
    }
    bool diagonal(int i, int j, int n) const { return in_cone(i, j, n) && diagonal_clear<false>(i, j, n); }
    bool diagonal_loose(int i, int j, int n) const {
        return in_cone_loose(i, j, n) && diagonal_clear<true>(i, j, n);
    }
    // Vertex i+1 is an ear: (i, i+2) is a diagonal and the corner at i+1 turns the outline's way.
    // In a simple polygon the first implies the second; not in the outlines the contour stage
    // hands over, where a hole hangs on a bridge walked twice: the diagonal test ignores the edges
    // at a bridge end's twin, so (i, i+2) can pass with the corner reflex and the hole inside the
    // triangle, which then comes out wound the wrong way (Recast 1.5.1 emits it; our runtime
    // refuses such a tile). The loose ear may be flat (collinear, zero area), never reflex.
    bool ear(int i, int n) const {
        const int i1 = next_idx(i, n), i2 = next_idx(i1, n);
        return left(v(i), v(i1), v(i2)) && diagonal(i, i2, n);
    }
    bool ear_loose(int i, int n) const {
        const int i1 = next_idx(i, n), i2 = next_idx(i1, n);
        return left_on(v(i), v(i1), v(i2)) && diagonal_loose(i, i2, n);
    }
};

// Triangulates the polygon verts[idx[0..n)] into `tris` (3 local indices each). Repeatedly cuts
// the ear with the shortest diagonal; when no ear is left (overlapping segments), a loose
// diagonal test is tried. Returns the triangle count, negated when the polygon could not be
// completed (the triangles emitted so far stay valid).
int triangulate(int n, const int32_t* verts, uint32_t* idx, int* tris) {
    Triangulator t{verts, idx};
    int ntris = 0;
    int* dst = tris;
    for (int i = 0; i < n; ++i)
        if (t.ear(i, n)) idx[next_idx(i, n)] |= kEarFlag;
    while (n > 3) {
        int64_t min_len = -1;
        int mini = -1;
        for (int i = 0; i < n; ++i) {
            const int i1 = next_idx(i, n);
            if (idx[i1] & kEarFlag) {
                const int32_t* p0 = t.v(i);
                const int32_t* p2 = t.v(next_idx(i1, n));
                const int dx = p2[0] - p0[0], dz = p2[2] - p0[2];
                const int64_t len = dist_sq(dx, dz);
                if (min_len < 0 || len < min_len) {
                    min_len = len;
                    mini = i;
                }
            }
        }
        if (mini == -1) {
            // Overlapping segments (A-B over C-D) can leave no strict ear; loosen the cone test.
            // Candidates are ranked by the reference's measure (from i to the vertex after the
            // ear's far end), so the same ear is chosen.
            for (int i = 0; i < n; ++i) {
                const int i1 = next_idx(i, n), i2 = next_idx(i1, n);
                if (t.ear_loose(i, n)) {
                    const int32_t* p0 = t.v(i);
                    const int32_t* p2 = t.v(next_idx(i2, n));
                    const int dx = p2[0] - p0[0], dz = p2[2] - p0[2];
                    const int64_t len = dist_sq(dx, dz);
                    if (min_len < 0 || len < min_len) {
                        min_len = len;
                        mini = i;
                    }
                }
            }
            if (mini == -1) return -ntris;
        }
        int i = mini;
        int i1 = next_idx(i, n);
        const int i2 = next_idx(i1, n);
        *dst++ = static_cast<int>(idx[i] & kIndexMask);
        *dst++ = static_cast<int>(idx[i1] & kIndexMask);
        *dst++ = static_cast<int>(idx[i2] & kIndexMask);
        ++ntris;
        // Drop vertex i1 and refresh the ear flags of its two neighbours.
        --n;
        std::memmove(idx + i1, idx + i1 + 1, sizeof(uint32_t) * static_cast<size_t>(n - i1));
        if (i1 >= n) i1 = 0;
        i = prev_idx(i1, n);
        if (t.ear(prev_idx(i, n), n))
            idx[i] |= kEarFlag;
        else
            idx[i] &= kIndexMask;
        if (t.ear(i, n))
            idx[i1] |= kEarFlag;
        else
            idx[i1] &= kIndexMask;
    }
    // The last three vertices: a triangle wound the wrong way would be no part of the polygon.
    if (!left_on(t.v(0), t.v(1), t.v(2))) return -ntris;
    *dst++ = static_cast<int>(idx[0] & kIndexMask);
    *dst++ = static_cast<int>(idx[1] & kIndexMask);
    *dst++ = static_cast<int>(idx[2] & kIndexMask);
    ++ntris;
    return ntris;
}

// ---------------------------------------------------------------------------------------------
// Polygon merging on polygons of nvp vertex slots (mesh vertex indices, kMeshNullIdx padded).

inline int count_verts(const uint16_t* p, int nvp) {
    for (int i = 0; i < nvp; ++i)
        if (p[i] == kMeshNullIdx) return i;
    return nvp;
}

inline bool uleft(const uint16_t* a, const uint16_t* b, const uint16_t* c) {
    const int64_t abx = int64_t(b[0]) - a[0], abz = int64_t(b[2]) - a[2];
    const int64_t acx = int64_t(c[0]) - a[0], acz = int64_t(c[2]) - a[2];
    return abx * acz - acx * abz < 0;
}

// Squared length of the edge pa and pb share when their union is convex and has at most nvp
// vertices; -1 otherwise. ea / eb: the shared edge's index in pa / pb.
int64_t merge_value(const uint16_t* pa, const uint16_t* pb, const uint16_t* verts, int& ea, int& eb, int nvp) {
    const int na = count_verts(pa, nvp), nb = count_verts(pb, nvp);
    if (na + nb - 2 > nvp) return -1;
    ea = -1;
    eb = -1;
    for (int i = 0; i < na; ++i) {
        uint16_t a0 = pa[i], a1 = pa[(i + 1) % na];
        if (a0 > a1) std::swap(a0, a1);
        for (int j = 0; j < nb; ++j) {
            uint16_t b0 = pb[j], b1 = pb[(j + 1) % nb];
            if (b0 > b1) std::swap(b0, b1);
            if (a0 == b0 && a1 == b1) {
                ea = i;
                eb = j;
                break;
            }
        }
    }
    if (ea == -1 || eb == -1) return -1;
    // Both corners where the polygons join must stay convex.
    if (!uleft(&verts[pa[(ea + na - 1) % na] * 3], &verts[pa[ea] * 3], &verts[pb[(eb + 2) % nb] * 3])) return -1;
    if (!uleft(&verts[pb[(eb + nb - 1) % nb] * 3], &verts[pb[eb] * 3], &verts[pa[(ea + 2) % na] * 3])) return -1;
    const uint16_t* va = &verts[pa[ea] * 3];
    const uint16_t* vb = &verts[pa[(ea + 1) % na] * 3];
    const int dx = static_cast<int>(va[0]) - static_cast<int>(vb[0]);
    const int dz = static_cast<int>(va[2]) - static_cast<int>(vb[2]);
    return dist_sq(dx, dz);
}

// pa := pa joined with pb along their shared edge (pa's edge ea, pb's edge eb).
void merge_into(uint16_t* pa, const uint16_t* pb, int ea, int eb, int nvp) {
    const int na = count_verts(pa, nvp), nb = count_verts(pb, nvp);
    uint16_t tmp[kMaxVertsPerPoly];
    std::fill(tmp, tmp + nvp, kMeshNullIdx);
    int n = 0;
    for (int i = 0; i < na - 1; ++i) tmp[n++] = pa[(ea + 1 + i) % na];
    for (int i = 0; i < nb - 1; ++i) tmp[n++] = pb[(eb + 1 + i) % nb];
    std::copy(tmp, tmp + nvp, pa);
}

// Greedy merge of a small polygon soup (nvp slots each, `npolys` in slots 0..npolys) into convex
// polygons: each step joins the pair with the longest shared edge whose union stays convex; ties
// go to the lowest slot pair, and the last polygon moves into the freed slot. This is exactly the
// reference's all-pairs search, but it only looks at pairs that share an edge: pairs are kept in
// a list with their merge value and only those touching the changed slots are re-evaluated.
struct Merger {
    struct Pair {
        int a, b;  // slots, a < b
        int64_t value;
        int ea, eb;
    };
    std::vector<Pair> pairs;
    std::vector<uint64_t> keys;    // (edge key << 32) | slot, for finding shared edges
    std::vector<int> mark;         // per slot: stamp of the last time it was collected
    std::vector<int> collected;
    int stamp = 0;

    // Returns the number of polygons left. `regs` (optional) follows the polygons: a merged
    // polygon whose parts had different regions gets kMultipleRegs; `areas` follows the moves.
    int run(uint16_t* polys, int npolys, int nvp, const uint16_t* verts, uint16_t* regs, uint8_t* areas) {
        if (npolys < 2 || nvp <= 3) return npolys;
        // Pairs of slots sharing at least one edge.
        keys.clear();
        for (int s = 0; s < npolys; ++s) {
            const uint16_t* p = polys + static_cast<size_t>(s) * nvp;
            const int n = count_verts(p, nvp);
            for (int k = 0; k < n; ++k) {
                uint32_t v0 = p[k], v1 = p[(k + 1) % n];
                if (v0 > v1) std::swap(v0, v1);
                keys.push_back((static_cast<uint64_t>((v0 << 16) | v1) << 32) | static_cast<uint64_t>(s));
            }
        }
        std::sort(keys.begin(), keys.end());
        pairs.clear();
        for (size_t k = 0; k < keys.size();) {
            size_t e = k + 1;
            while (e < keys.size() && (keys[e] >> 32) == (keys[k] >> 32)) ++e;
            for (size_t x = k; x < e; ++x)
                for (size_t y = x + 1; y < e; ++y) {
                    const int a = static_cast<int>(keys[x] & 0xffffffffu), b = static_cast<int>(keys[y] & 0xffffffffu);
                    if (a != b) add_pair(std::min(a, b), std::max(a, b));
                }
            k = e;
        }
        // Duplicate pairs (polygons sharing several edges) are removed.
        std::sort(pairs.begin(), pairs.end(),
                  [](const Pair& x, const Pair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
        pairs.erase(std::unique(pairs.begin(), pairs.end(),
                                [](const Pair& x, const Pair& y) { return x.a == y.a && x.b == y.b; }),
                    pairs.end());
        for (Pair& pr : pairs) evaluate(pr, polys, nvp, verts);
        if (mark.size() < static_cast<size_t>(npolys)) mark.resize(static_cast<size_t>(npolys), 0);

        for (;;) {
            int best = -1;
            for (int k = 0; k < static_cast<int>(pairs.size()); ++k) {
                const Pair& pr = pairs[static_cast<size_t>(k)];
                if (pr.value <= 0) continue;
                if (best < 0) {
                    best = k;
                    continue;
                }
                const Pair& bp = pairs[static_cast<size_t>(best)];
                if (pr.value > bp.value || (pr.value == bp.value && (pr.a < bp.a || (pr.a == bp.a && pr.b < bp.b))))
                    best = k;
            }
            if (best < 0) break;
            const Pair chosen = pairs[static_cast<size_t>(best)];
            const int pa = chosen.a, pb = chosen.b, last = npolys - 1;
            uint16_t* a = polys + static_cast<size_t>(pa) * nvp;
            uint16_t* b = polys + static_cast<size_t>(pb) * nvp;
            merge_into(a, b, chosen.ea, chosen.eb, nvp);
            if (regs && regs[pa] != regs[pb]) regs[pa] = kMultipleRegs;
            if (pb != last) {
                std::copy(polys + static_cast<size_t>(last) * nvp, polys + static_cast<size_t>(last + 1) * nvp, b);
                if (regs) regs[pb] = regs[last];
                if (areas) areas[pb] = areas[last];
            }
            --npolys;

            // Neighbours of the merged polygon: those of pa and of pb. Pairs touching pa or pb are
            // dropped; pairs of `last` are renamed to slot pb and re-evaluated (slot order may
            // have changed, and with it which polygon plays "a").
            ++stamp;
            collected.clear();
            size_t w = 0;
            for (size_t k = 0; k < pairs.size(); ++k) {
                Pair pr = pairs[k];
                if (pr.a == pa || pr.a == pb || pr.b == pa || pr.b == pb) {
                    const int other = (pr.a == pa || pr.a == pb) ? pr.b : pr.a;
                    if (other != pa && other != pb) collect(other);
                    continue;
                }
                if (pr.a == last || pr.b == last) {
                    const int other = pr.a == last ? pr.b : pr.a;
                    pr.a = std::min(other, pb);
                    pr.b = std::max(other, pb);
                    evaluate(pr, polys, nvp, verts);
                }
                pairs[w++] = pr;
            }
            pairs.resize(w);
            for (int o : collected) {
                const int other = o == last ? pb : o;  // `last` now lives in slot pb
                if (other == pa) continue;
                Pair pr{std::min(other, pa), std::max(other, pa), -1, 0, 0};
                evaluate(pr, polys, nvp, verts);
                pairs.push_back(pr);
            }
        }
        return npolys;
    }

    void add_pair(int a, int b) { pairs.push_back({a, b, -1, 0, 0}); }
    void collect(int s) {
        if (mark[static_cast<size_t>(s)] == stamp) return;
        mark[static_cast<size_t>(s)] = stamp;
        collected.push_back(s);
    }
    static void evaluate(Pair& pr, const uint16_t* polys, int nvp, const uint16_t* verts) {
        pr.value = merge_value(polys + static_cast<size_t>(pr.a) * nvp, polys + static_cast<size_t>(pr.b) * nvp, verts,
                               pr.ea, pr.eb, nvp);
    }
};

// ---------------------------------------------------------------------------------------------
// Vertex welding: same x and z, |dy| <= 2. The chain of a bucket is searched newest first, so
// any hash of (x, z) gives the same result as the reference.

struct Welder {
    std::vector<int> first;  // bucket -> vertex
    std::vector<int> next;   // vertex -> vertex
    uint32_t mask = 0;

    void reset(int max_verts) {
        size_t n = 4096;
        while (n < static_cast<size_t>(max_verts) * 2) n <<= 1;
        first.assign(n, -1);
        next.resize(static_cast<size_t>(std::max(max_verts, 1)));
        mask = static_cast<uint32_t>(n - 1);
    }
    uint32_t bucket(int x, int z) const {
        const uint32_t h = static_cast<uint32_t>(x) * 0x8da6b343u + static_cast<uint32_t>(z) * 0xcb1ab31fu;
        return (h ^ (h >> 15)) & mask;
    }
    // Index of the welded vertex, or -1 when the mesh is full.
    int add(int x, int y, int z, std::vector<uint16_t>& verts, int& nv) {
        const uint32_t bk = bucket(x, z);
        for (int i = first[bk]; i != -1; i = next[static_cast<size_t>(i)]) {
            const uint16_t* v = &verts[static_cast<size_t>(i) * 3];
            if (v[0] == x && v[2] == z && std::abs(static_cast<int>(v[1]) - y) <= 2) return i;
        }
        if (nv >= static_cast<int>(kMeshNullIdx)) return -1;
        const int i = nv++;
        uint16_t* v = &verts[static_cast<size_t>(i) * 3];
        v[0] = static_cast<uint16_t>(x);
        v[1] = static_cast<uint16_t>(y);
        v[2] = static_cast<uint16_t>(z);
        next[static_cast<size_t>(i)] = first[bk];
        first[bk] = i;
        return i;
    }
};

// ---------------------------------------------------------------------------------------------
// Removal of tile-border vertices.

struct Remover {
    std::vector<int> edges;  // 3 or 4 ints per edge
    std::vector<int> hole, hreg, harea;
    std::vector<int> tverts, tris;
    std::vector<uint32_t> thole;
    std::vector<uint16_t> polys, pregs;
    std::vector<uint8_t> pareas;
    Merger merger;

    // Removing `rem` must leave a single hole with enough edges to make a polygon.
    bool can_remove(const PolyMesh& mesh, int rem) {
        const int nvp = mesh.nvp;
        int remaining_edges = 0;
        for (int i = 0; i < mesh.npolys; ++i) {
            const uint16_t* p = mesh.poly(i);
            const int nv = count_verts(p, nvp);
            int removed = 0;
            for (int j = 0; j < nv; ++j)
                if (p[j] == rem) ++removed;
            if (removed) remaining_edges += nv - (removed + 1);
        }
        if (remaining_edges <= 2) return false;
        // Edges touching rem, each with the number of polygons sharing it; more than two open
        // ones means two polygons meet only at rem.
        edges.clear();
        for (int i = 0; i < mesh.npolys; ++i) {
            const uint16_t* p = mesh.poly(i);
            const int nv = count_verts(p, nvp);
            for (int j = 0, k = nv - 1; j < nv; k = j++) {
                if (p[j] != rem && p[k] != rem) continue;
                int a = p[j], b = p[k];
                if (b == rem) std::swap(a, b);
                bool exists = false;
                for (size_t m = 0; m < edges.size(); m += 3) {
                    if (edges[m + 1] == b) {
                        ++edges[m + 2];
                        exists = true;
                    }
                }
                if (!exists) {
                    edges.push_back(a);
                    edges.push_back(b);
                    edges.push_back(1);
                }
            }
        }
        int open = 0;
        for (size_t m = 0; m < edges.size(); m += 3)
            if (edges[m + 2] < 2) ++open;
        return open <= 2;
    }

    // Removes the polygons around `rem`, the vertex itself, and fills the hole with new polygons.
    bool remove(PolyMesh& mesh, int rem, int max_polys) {
        const int nvp = mesh.nvp;
        const size_t stride = static_cast<size_t>(nvp) * 2;
        edges.clear();
        for (int i = 0; i < mesh.npolys; ++i) {
            uint16_t* p = &mesh.polys[static_cast<size_t>(i) * stride];
            const int nv = count_verts(p, nvp);
            bool has = false;
            for (int j = 0; j < nv; ++j)
                if (p[j] == rem) has = true;
            if (!has) continue;
            for (int j = 0, k = nv - 1; j < nv; k = j++) {
                if (p[j] != rem && p[k] != rem) {
                    edges.push_back(p[k]);
                    edges.push_back(p[j]);
                    edges.push_back(mesh.regs[static_cast<size_t>(i)]);
                    edges.push_back(mesh.areas[static_cast<size_t>(i)]);
                }
            }
            const int lastp = mesh.npolys - 1;
            uint16_t* p2 = &mesh.polys[static_cast<size_t>(lastp) * stride];
            if (p != p2) std::copy(p2, p2 + nvp, p);
            std::fill(p + nvp, p + 2 * nvp, kMeshNullIdx);
            mesh.regs[static_cast<size_t>(i)] = mesh.regs[static_cast<size_t>(lastp)];
            mesh.areas[static_cast<size_t>(i)] = mesh.areas[static_cast<size_t>(lastp)];
            --mesh.npolys;
            --i;
        }
        for (int i = rem; i < mesh.nverts - 1; ++i)
            for (int k = 0; k < 3; ++k)
                mesh.verts[static_cast<size_t>(i) * 3 + k] = mesh.verts[static_cast<size_t>(i + 1) * 3 + k];
        --mesh.nverts;
        for (int i = 0; i < mesh.npolys; ++i) {
            uint16_t* p = &mesh.polys[static_cast<size_t>(i) * stride];
            const int nv = count_verts(p, nvp);
            for (int j = 0; j < nv; ++j)
                if (p[j] > rem) --p[j];
        }
        int nedges = static_cast<int>(edges.size() / 4);
        for (int i = 0; i < nedges; ++i) {
            if (edges[static_cast<size_t>(i) * 4 + 0] > rem) --edges[static_cast<size_t>(i) * 4 + 0];
            if (edges[static_cast<size_t>(i) * 4 + 1] > rem) --edges[static_cast<size_t>(i) * 4 + 1];
        }
        if (nedges == 0) return true;

        // Chain the open edges into the hole's boundary, growing it at both ends.
        hole.assign(1, edges[0]);
        hreg.assign(1, edges[2]);
        harea.assign(1, edges[3]);
        while (nedges) {
            bool match = false;
            for (int i = 0; i < nedges; ++i) {
                int* e = &edges[static_cast<size_t>(i) * 4];
                bool add = false;
                if (hole.front() == e[1]) {
                    hole.insert(hole.begin(), e[0]);
                    hreg.insert(hreg.begin(), e[2]);
                    harea.insert(harea.begin(), e[3]);
                    add = true;
                } else if (hole.back() == e[0]) {
                    hole.push_back(e[1]);
                    hreg.push_back(e[2]);
                    harea.push_back(e[3]);
                    add = true;
                }
                if (add) {
                    const int* l = &edges[static_cast<size_t>(nedges - 1) * 4];
                    std::copy(l, l + 4, e);
                    --nedges;
                    match = true;
                    --i;
                }
            }
            if (!match) break;
        }

        const int nhole = static_cast<int>(hole.size());
        tverts.resize(static_cast<size_t>(nhole) * 4);
        thole.resize(static_cast<size_t>(nhole));
        tris.resize(static_cast<size_t>(nhole) * 3);
        for (int i = 0; i < nhole; ++i) {
            const size_t pi = static_cast<size_t>(hole[static_cast<size_t>(i)]) * 3;
            tverts[static_cast<size_t>(i) * 4 + 0] = mesh.verts[pi + 0];
            tverts[static_cast<size_t>(i) * 4 + 1] = mesh.verts[pi + 1];
            tverts[static_cast<size_t>(i) * 4 + 2] = mesh.verts[pi + 2];
            tverts[static_cast<size_t>(i) * 4 + 3] = 0;
            thole[static_cast<size_t>(i)] = static_cast<uint32_t>(i);
        }
        int ntris = nhole >= 3 ? triangulate(nhole, tverts.data(), thole.data(), tris.data()) : 0;
        if (nhole >= 3 && ntris <= 0) {  // 0: not even one triangle
            ntris = -ntris;
            mesh.warnings.push_back("polymesh: the hole left by border vertex " + std::to_string(rem) +
                                    " could not be fully triangulated");
        }
        polys.assign(static_cast<size_t>(ntris + 1) * static_cast<size_t>(nvp), kMeshNullIdx);
        pregs.resize(static_cast<size_t>(ntris + 1));
        pareas.resize(static_cast<size_t>(ntris + 1));
        int np = 0;
        for (int j = 0; j < ntris; ++j) {
            const int* t = &tris[static_cast<size_t>(j) * 3];
            if (t[0] == t[1] || t[0] == t[2] || t[1] == t[2]) continue;
            uint16_t* p = &polys[static_cast<size_t>(np) * nvp];
            p[0] = static_cast<uint16_t>(hole[static_cast<size_t>(t[0])]);
            p[1] = static_cast<uint16_t>(hole[static_cast<size_t>(t[1])]);
            p[2] = static_cast<uint16_t>(hole[static_cast<size_t>(t[2])]);
            const int r0 = hreg[static_cast<size_t>(t[0])], r1 = hreg[static_cast<size_t>(t[1])],
                      r2 = hreg[static_cast<size_t>(t[2])];
            pregs[static_cast<size_t>(np)] = (r0 != r1 || r1 != r2) ? kMultipleRegs : static_cast<uint16_t>(r0);
            pareas[static_cast<size_t>(np)] = static_cast<uint8_t>(harea[static_cast<size_t>(t[0])]);
            ++np;
        }
        if (!np) return true;
        np = merger.run(polys.data(), np, nvp, mesh.verts.data(), pregs.data(), pareas.data());
        for (int i = 0; i < np; ++i) {
            if (mesh.npolys >= max_polys) break;
            uint16_t* p = &mesh.polys[static_cast<size_t>(mesh.npolys) * stride];
            std::fill(p, p + 2 * nvp, kMeshNullIdx);
            std::copy(&polys[static_cast<size_t>(i) * nvp], &polys[static_cast<size_t>(i + 1) * nvp], p);
            mesh.regs[static_cast<size_t>(mesh.npolys)] = pregs[static_cast<size_t>(i)];
            mesh.areas[static_cast<size_t>(mesh.npolys)] = pareas[static_cast<size_t>(i)];
            ++mesh.npolys;
        }
        return true;
    }
};

// ---------------------------------------------------------------------------------------------
// Adjacency: every edge gets the polygon on its other side (edges with the same two vertices in
// opposite directions; the first match wins, as in the reference).

void build_adjacency(PolyMesh& mesh, std::vector<uint32_t>& first_edge, std::vector<uint32_t>& next_edge,
                     std::vector<uint32_t>& edges) {
    constexpr uint32_t kNone = 0xffffffffu;
    const int nvp = mesh.nvp;
    const size_t stride = static_cast<size_t>(nvp) * 2;
    const size_t max_edges = static_cast<size_t>(mesh.npolys) * static_cast<size_t>(nvp);
    first_edge.assign(static_cast<size_t>(mesh.nverts), kNone);
    next_edge.resize(max_edges);
    edges.resize(max_edges * 6);  // v0, v1, poly0, edge0, poly1, edge1
    size_t count = 0;
    for (int i = 0; i < mesh.npolys; ++i) {
        const uint16_t* t = &mesh.polys[static_cast<size_t>(i) * stride];
        for (int j = 0; j < nvp; ++j) {
            if (t[j] == kMeshNullIdx) break;
            const uint32_t v0 = t[j];
            const uint32_t v1 = (j + 1 >= nvp || t[j + 1] == kMeshNullIdx) ? t[0] : t[j + 1];
            if (v0 < v1) {
                uint32_t* e = &edges[count * 6];
                e[0] = v0;
                e[1] = v1;
                e[2] = static_cast<uint32_t>(i);
                e[3] = static_cast<uint32_t>(j);
                e[4] = static_cast<uint32_t>(i);
                e[5] = 0;
                next_edge[count] = first_edge[v0];
                first_edge[v0] = static_cast<uint32_t>(count);
                ++count;
            }
        }
    }
    for (int i = 0; i < mesh.npolys; ++i) {
        const uint16_t* t = &mesh.polys[static_cast<size_t>(i) * stride];
        for (int j = 0; j < nvp; ++j) {
            if (t[j] == kMeshNullIdx) break;
            const uint32_t v0 = t[j];
            const uint32_t v1 = (j + 1 >= nvp || t[j + 1] == kMeshNullIdx) ? t[0] : t[j + 1];
            if (v0 <= v1) continue;
            for (uint32_t ei = first_edge[v1]; ei != kNone; ei = next_edge[ei]) {
                uint32_t* e = &edges[static_cast<size_t>(ei) * 6];
                if (e[1] == v0 && e[2] == e[4]) {
                    e[4] = static_cast<uint32_t>(i);
                    e[5] = static_cast<uint32_t>(j);
                    break;
                }
            }
        }
    }
    for (size_t k = 0; k < count; ++k) {
        const uint32_t* e = &edges[k * 6];
        if (e[2] == e[4]) continue;
        mesh.polys[e[2] * stride + static_cast<size_t>(nvp) + e[3]] = static_cast<uint16_t>(e[4]);
        mesh.polys[e[4] * stride + static_cast<size_t>(nvp) + e[5]] = static_cast<uint16_t>(e[2]);
    }
}

// The contour's triangles (indices into cv, mapped to mesh vertices by vmap) as polygons of nvp
// slots in `polys`; returns how many. A contour that crosses itself (a region thinner than its
// simplification, as a thin band between agent types can be) may leave an ear wound the wrong way
// or a flat one: not a polygon the navmesh can hold (counter-clockwise in xz, or no area), so it is
// left out and counted in `flipped`.
int contour_triangles(const int32_t* cv, const int* tris, int ntris, const int* vmap, int nvp, std::vector<uint16_t>& polys,
                      int& flipped) {
    int np = 0;
    std::fill(polys.begin(), polys.end(), kMeshNullIdx);
    for (int j = 0; j < ntris; ++j) {
        const int* t = &tris[static_cast<size_t>(j) * 3];
        if (t[0] == t[1] || t[0] == t[2] || t[1] == t[2]) continue;
        const int32_t* a = &cv[t[0] * 4];
        const int32_t* b = &cv[t[1] * 4];
        const int32_t* d = &cv[t[2] * 4];
        const int64_t ccw = int64_t{a[0]} * b[2] - int64_t{b[0]} * a[2] + int64_t{b[0]} * d[2] - int64_t{d[0]} * b[2] +
                            int64_t{d[0]} * a[2] - int64_t{a[0]} * d[2];
        if (ccw >= 0) {
            ++flipped;
            continue;
        }
        uint16_t* p = &polys[static_cast<size_t>(np) * static_cast<size_t>(nvp)];
        p[0] = static_cast<uint16_t>(vmap[t[0]]);
        p[1] = static_cast<uint16_t>(vmap[t[1]]);
        p[2] = static_cast<uint16_t>(vmap[t[2]]);
        ++np;
    }
    return np;
}

}  // namespace

Status build_poly_mesh(const ContourSet& cset, int verts_per_poly, PolyMesh& out, const CancelFlag* cancel) {
    const int nvp = verts_per_poly;
    if (nvp < 3 || nvp > kMaxVertsPerPoly)
        return Status::bad_input("polymesh: verts_per_poly must be in [3, " + std::to_string(kMaxVertsPerPoly) +
                                 "], got " + std::to_string(nvp));
    for (int k = 0; k < 3; ++k) {
        out.bmin[k] = cset.bmin[k];
        out.bmax[k] = cset.bmax[k];
    }
    out.cs = cset.cs;
    out.ch = cset.ch;
    out.border_size = cset.border_size;
    out.max_edge_error = cset.max_error;
    out.nvp = nvp;
    out.nverts = 0;
    out.npolys = 0;
    out.warnings.clear();

    size_t max_verts = 0, max_tris = 0;
    int max_cont = 0;
    for (const Contour& c : cset.contours) {
        if (c.nverts < 3) continue;
        if (static_cast<size_t>(c.vert_start + c.nverts) * 4 > cset.verts.size())
            return Status::bad_input("polymesh: contour vertices out of range");
        max_verts += c.nverts;
        max_tris += c.nverts - 2;
        max_cont = std::max(max_cont, static_cast<int>(c.nverts));
    }
    const size_t stride = static_cast<size_t>(nvp) * 2;
    out.verts.resize(max_verts * 3);
    out.polys.resize(max_tris * stride);
    std::fill(out.polys.begin(), out.polys.end(), kMeshNullIdx);
    out.regs.resize(max_tris);
    out.areas.resize(max_tris);

    Welder welder;
    welder.reset(static_cast<int>(max_verts));
    std::vector<uint8_t> vflags(max_verts, 0);
    std::vector<uint32_t> indices(static_cast<size_t>(max_cont));
    std::vector<int> vmap(static_cast<size_t>(max_cont));
    std::vector<int> tris(static_cast<size_t>(max_cont) * 3);
    std::vector<uint16_t> polys(static_cast<size_t>(max_cont) * static_cast<size_t>(nvp));
    Merger merger;

    for (size_t ci = 0; ci < cset.contours.size(); ++ci) {
        const Contour& c = cset.contours[ci];
        if (c.nverts < 3) continue;
        if ((ci & 31) == 0 && is_cancelled(cancel)) return Status::cancelled();
        const int n = static_cast<int>(c.nverts);
        const int32_t* cv = cset.verts.data() + static_cast<size_t>(c.vert_start) * 4;
        // Weld first: a contour over the 16-bit vertex limit fails here, before its triangulation
        // (quadratic in the contour's length: 80 000 vertices took 30 s to be refused).
        for (int j = 0; j < n; ++j) {
            const int32_t* v = cv + j * 4;
            if (v[0] < 0 || v[0] > 0xffff || v[1] < 0 || v[1] > 0xffff || v[2] < 0 || v[2] > 0xffff)
                return Status::bad_input("polymesh: contour vertex outside the 16-bit range (region " +
                                         std::to_string(c.reg) + ")");
            const int vi = welder.add(v[0], v[1], v[2], out.verts, out.nverts);
            if (vi < 0)
                return Status::bad_input(
                    "polymesh: the polygon mesh needs more than 65535 vertices (polygon vertex indices are 16-bit; " +
                    std::to_string(max_verts) + " contour vertices in " + std::to_string(cset.contours.size()) +
                    " contours): raise edge_max_len or edge_max_error (fewer contour vertices), raise cell_size, or "
                    "bake in tiles with tile_size (each tile has its own limit)");
            vmap[static_cast<size_t>(j)] = vi;
            if (v[3] & kBorderVertex) vflags[static_cast<size_t>(vi)] = 1;
        }
        for (int j = 0; j < n; ++j) indices[static_cast<size_t>(j)] = static_cast<uint32_t>(j);
        int ntris = triangulate(n, cv, indices.data(), tris.data());
        if (ntris <= 0) {
            ntris = -ntris;
            out.warnings.push_back("polymesh: contour " + std::to_string(ci) + " of region " + std::to_string(c.reg) +
                                   " could not be fully triangulated (" + std::to_string(ntris) + " of " +
                                   std::to_string(n - 2) + " triangles kept)");
        }
        int flipped = 0;
        int np = contour_triangles(cv, tris.data(), ntris, vmap.data(), nvp, polys, flipped);
        if (flipped)
            out.warnings.push_back("polymesh: contour " + std::to_string(ci) + " of region " + std::to_string(c.reg) +
                                   " crosses or touches itself: " + std::to_string(flipped) + " of its triangles are flat or "
                                   "wound the wrong way and left out");
        if (!np) continue;
        np = merger.run(polys.data(), np, nvp, out.verts.data(), nullptr, nullptr);
        for (int j = 0; j < np; ++j) {
            uint16_t* p = &out.polys[static_cast<size_t>(out.npolys) * stride];
            std::copy(&polys[static_cast<size_t>(j) * nvp], &polys[static_cast<size_t>(j + 1) * nvp], p);
            out.regs[static_cast<size_t>(out.npolys)] = c.reg;
            out.areas[static_cast<size_t>(out.npolys)] = c.area;
            ++out.npolys;
        }
    }

    // Polygon indices are 16-bit in the adjacency (0xffff = none).
    if (out.npolys >= static_cast<int>(kMeshNullIdx))
        return Status::bad_input("polymesh: " + std::to_string(out.npolys) +
                                 " polygons, over the limit of 65534 (polygon indices are 16-bit): raise verts_per_poly "
                                 "or cell_size, or bake in tiles with tile_size (each tile has its own limit)");

    // Remove the vertices on the tile border (only produced when border_size > 0).
    Remover remover;
    for (int i = 0; i < out.nverts; ++i) {
        if (!vflags[static_cast<size_t>(i)]) continue;
        if (!remover.can_remove(out, i)) continue;
        if (!remover.remove(out, i, static_cast<int>(max_tris)))
            return Status::internal("polymesh: failed to remove border vertex " + std::to_string(i));
        for (int j = i; j < out.nverts; ++j) vflags[static_cast<size_t>(j)] = vflags[static_cast<size_t>(j) + 1];
        --i;
    }

    std::vector<uint32_t> first_edge, next_edge, edges;
    build_adjacency(out, first_edge, next_edge, edges);

    // Open edges on the tile border become portals to the neighbouring tile: 0x8000 | side.
    if (out.border_size > 0) {
        const int w = cset.width, h = cset.height;
        for (int i = 0; i < out.npolys; ++i) {
            uint16_t* p = &out.polys[static_cast<size_t>(i) * stride];
            for (int j = 0; j < nvp; ++j) {
                if (p[j] == kMeshNullIdx) break;
                if (p[nvp + j] != kMeshNullIdx) continue;
                const int nj = (j + 1 >= nvp || p[j + 1] == kMeshNullIdx) ? 0 : j + 1;
                const uint16_t* va = &out.verts[static_cast<size_t>(p[j]) * 3];
                const uint16_t* vb = &out.verts[static_cast<size_t>(p[nj]) * 3];
                if (va[0] == 0 && vb[0] == 0)
                    p[nvp + j] = 0x8000 | 0;
                else if (va[2] == h && vb[2] == h)
                    p[nvp + j] = 0x8000 | 1;
                else if (va[0] == w && vb[0] == w)
                    p[nvp + j] = 0x8000 | 2;
                else if (va[2] == 0 && vb[2] == 0)
                    p[nvp + j] = 0x8000 | 3;
            }
        }
    }

    out.verts.resize(static_cast<size_t>(out.nverts) * 3);
    out.polys.resize(static_cast<size_t>(out.npolys) * stride);
    out.regs.resize(static_cast<size_t>(out.npolys));
    out.areas.resize(static_cast<size_t>(out.npolys));
    out.flags.assign(static_cast<size_t>(out.npolys), 0);
    return Status::ok();
}

}  // namespace nav
