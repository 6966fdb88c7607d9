#include "core/explain/bake_diff.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <utility>

namespace nav {

namespace {

// World position quantised to a millimetre.
int32_t quant(double v) { return static_cast<int32_t>(std::llround(v * 1000.0)); }

struct SpanKey {
    int32_t x, y, z;
    auto operator<=>(const SpanKey&) const = default;
};

// Per region id (index), the sorted world keys of its spans.
struct RegionSets {
    std::vector<uint32_t> start;  // max_region_id + 1 offsets into keys
    std::vector<SpanKey> keys;
    std::vector<uint64_t> hash;   // per id, order-independent hash of its keys (0 for empty)

    std::span<const SpanKey> set(uint16_t id) const {
        return {keys.data() + start[id], keys.data() + start[id + 1u]};
    }
    bool present(uint16_t id) const { return start[id + 1u] > start[id]; }
};

uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

RegionSets region_sets(const CompactHeightfield& chf, const Regions& r) {
    RegionSets out;
    const size_t nids = static_cast<size_t>(r.max_region_id) + 1;
    out.start.assign(nids + 1, 0);
    auto id_of = [&](uint32_t i) -> uint16_t {
        const uint16_t id = i < r.reg.size() ? r.reg[i] : 0;
        return (id & kBorderRegion) || id >= nids ? 0 : id;
    };
    for (uint32_t i = 0; i < chf.span_count; ++i) ++out.start[id_of(i) + 1u];
    out.start[1] = 0;  // id 0 holds nothing
    for (size_t k = 1; k <= nids; ++k) out.start[k] += out.start[k - 1];
    out.keys.resize(out.start[nids]);
    std::vector<uint32_t> fill(out.start.begin(), out.start.end() - 1);
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < chf.width; ++x) {
            const CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            for (uint32_t i = c.index; i < c.index + c.count; ++i) {
                const uint16_t id = id_of(i);
                if (id == 0) continue;
                out.keys[fill[id]++] = {quant(chf.bmin[0] + (x + 0.5) * chf.cs), quant(chf.bmin[1] + chf.spans[i].y * chf.ch),
                                        quant(chf.bmin[2] + (z + 0.5) * chf.cs)};
            }
        }
    out.hash.assign(nids, 0);
    for (size_t id = 1; id < nids; ++id) {
        auto b = out.keys.begin() + out.start[id], e = out.keys.begin() + out.start[id + 1];
        std::sort(b, e);
        uint64_t h = 0;
        for (auto it = b; it != e; ++it)
            h += mix((static_cast<uint64_t>(static_cast<uint32_t>(it->x)) << 32) ^
                     mix(static_cast<uint64_t>(static_cast<uint32_t>(it->y)) * 0x9e3779b97f4a7c15ULL) ^
                     static_cast<uint32_t>(it->z));
        out.hash[id] = h;
    }
    return out;
}

}  // namespace

RegionDiff diff_regions(const CompactHeightfield& old_chf, const Regions& old_regions,
                        const CompactHeightfield& new_chf, const Regions& new_regions) {
    const RegionSets a = region_sets(old_chf, old_regions);
    const RegionSets b = region_sets(new_chf, new_regions);
    const size_t na = a.hash.size(), nb = b.hash.size();
    // old regions by (hash, size) for exact matching
    std::vector<std::pair<uint64_t, uint16_t>> old_ids;  // (hash, id)
    for (size_t id = 1; id < na; ++id)
        if (a.present(static_cast<uint16_t>(id))) old_ids.emplace_back(a.hash[id], static_cast<uint16_t>(id));
    std::sort(old_ids.begin(), old_ids.end());
    std::vector<uint8_t> old_matched(na, 0);
    std::vector<uint8_t> new_matched(nb, 0);
    RegionDiff d;
    for (size_t id = 1; id < nb; ++id) {
        const auto nid = static_cast<uint16_t>(id);
        if (!b.present(nid)) continue;
        const auto set = b.set(nid);
        // prefer the same id, then any id with the same hash
        bool found = false;
        if (id < na && !old_matched[id] && a.hash[id] == b.hash[id] && std::ranges::equal(a.set(nid), set)) {
            old_matched[id] = 1;
            found = true;
        } else {
            auto it = std::lower_bound(old_ids.begin(), old_ids.end(), std::make_pair(b.hash[id], uint16_t{0}));
            for (; it != old_ids.end() && it->first == b.hash[id] && !found; ++it)
                if (!old_matched[it->second] && std::ranges::equal(a.set(it->second), set)) {
                    old_matched[it->second] = 1;
                    found = true;
                }
        }
        if (found) {
            new_matched[id] = 1;
            ++d.unchanged;
        }
    }
    std::vector<uint8_t> old_reused(na, 0);
    for (size_t id = 1; id < nb; ++id) {
        const auto nid = static_cast<uint16_t>(id);
        if (!b.present(nid) || new_matched[id]) continue;
        if (id < na && a.present(nid) && !old_matched[id]) {
            d.reshaped.push_back(nid);
            old_reused[id] = 1;
        } else {
            d.added.push_back(nid);
        }
    }
    for (size_t id = 1; id < na; ++id) {
        const auto oid = static_cast<uint16_t>(id);
        if (a.present(oid) && !old_matched[id] && !old_reused[id]) d.removed.push_back(oid);
    }
    return d;
}

namespace {

// Flat keys of every polygon: its world vertices from the lexicographically smallest one, in order.
struct PolyKeys {
    std::vector<SpanKey> verts;
    std::vector<uint32_t> start;  // npolys + 1

    std::span<const SpanKey> poly(int i) const {
        return {verts.data() + start[static_cast<size_t>(i)], verts.data() + start[static_cast<size_t>(i) + 1]};
    }
};

PolyKeys poly_keys(const PolyMesh& m) {
    PolyKeys k;
    k.start.assign(static_cast<size_t>(m.npolys) + 1, 0);
    k.verts.reserve(static_cast<size_t>(m.npolys) * static_cast<size_t>(m.nvp));
    SpanKey tmp[64];
    for (int p = 0; p < m.npolys; ++p) {
        const uint16_t* poly = m.poly(p);
        int n = 0;
        for (int j = 0; j < m.nvp && j < 64; ++j) {
            if (poly[j] == kMeshNullIdx) break;
            const uint16_t* v = &m.verts[static_cast<size_t>(poly[j]) * 3];
            tmp[n++] = {quant(m.bmin[0] + v[0] * static_cast<double>(m.cs)), quant(m.bmin[1] + v[1] * static_cast<double>(m.ch)),
                        quant(m.bmin[2] + v[2] * static_cast<double>(m.cs))};
        }
        int first = 0;
        for (int j = 1; j < n; ++j)
            if (tmp[j] < tmp[first]) first = j;
        for (int j = 0; j < n; ++j) k.verts.push_back(tmp[(first + j) % n]);
        k.start[static_cast<size_t>(p) + 1] = static_cast<uint32_t>(k.verts.size());
    }
    return k;
}

}  // namespace

PolyDiff diff_polymeshes(const PolyMesh& old_mesh, const PolyMesh& new_mesh) {
    const PolyKeys a = poly_keys(old_mesh), b = poly_keys(new_mesh);
    auto less = [](std::span<const SpanKey> x, std::span<const SpanKey> y) {
        return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
    };
    std::vector<int> ia(static_cast<size_t>(old_mesh.npolys)), ib(static_cast<size_t>(new_mesh.npolys));
    std::iota(ia.begin(), ia.end(), 0);
    std::iota(ib.begin(), ib.end(), 0);
    std::sort(ia.begin(), ia.end(), [&](int x, int y) { return less(a.poly(x), a.poly(y)); });
    std::sort(ib.begin(), ib.end(), [&](int x, int y) { return less(b.poly(x), b.poly(y)); });
    PolyDiff d;
    size_t i = 0, j = 0;
    while (i < ia.size() || j < ib.size()) {
        if (j == ib.size() || (i < ia.size() && less(a.poly(ia[i]), b.poly(ib[j])))) {
            d.removed.push_back(ia[i++]);
        } else if (i == ia.size() || less(b.poly(ib[j]), a.poly(ia[i]))) {
            d.added.push_back(ib[j++]);
        } else {
            ++d.unchanged;
            ++i;
            ++j;
        }
    }
    std::sort(d.added.begin(), d.added.end());
    std::sort(d.removed.begin(), d.removed.end());
    return d;
}

}  // namespace nav
