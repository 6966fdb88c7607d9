// Agent types in one bake: the spans each type fits and the (area, types) split keys. See clearance.h.
#include "core/bake/clearance.h"

#include "core/bake/chamfer.h"

#include <algorithm>
#include <string>

namespace nav {

namespace {

// One type's erosion: the chamfer distance of every span to the nearest boundary of that type
// (chamfer.h), and bit `bit` set in `fits` where it is at least thr. need_h: the type's height in
// cell heights (0: not tested); stand_h: the free height a span needs to be stood on (the
// low-height filter's rule: more than need_h; 0 with that filter off).
Status mark_type(const CompactHeightfield& chf, const uint8_t* walkable, int need_h, int stand_h, int thr, uint16_t bit,
                 uint16_t* fits, uint8_t* dist, const CancelFlag* cancel) {
    const CompactSpan* spans = chf.spans.data();
    auto stands = [=](uint32_t i) { return walkable[i] != kNullArea && spans[i].h >= stand_h; };
    auto crosses = [=](uint32_t i, uint32_t j) {  // the free height where the two spans overlap
        const int top = std::min(spans[i].y + spans[i].h, spans[j].y + spans[j].h);
        return top - std::max(spans[i].y, spans[j].y) >= need_h;
    };
    auto blocked = [&](uint32_t i, uint32_t j) { return !stands(j) || !crosses(i, j); };
    return chamfer::sweeps(
        chf, dist,
        [&](uint32_t i, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3) {
            return !stands(i) || blocked(i, a0) || blocked(i, a1) || blocked(i, a2) || blocked(i, a3);
        },
        [&](uint32_t i, int d) {
            if (d >= thr && stands(i)) fits[i] = static_cast<uint16_t>(fits[i] | bit);
        },
        cancel);
}

}  // namespace

Status mark_clearance(const CompactHeightfield& chf, const std::vector<uint8_t>& walkable,
                      std::span<const ClearanceType> types, bool low_height_filter, Clearance& out,
                      std::vector<uint8_t>& scratch, const CancelFlag* cancel) {
    if (Status st = validate_compact_input(chf, walkable.size(), "agent types"); !st) return st;
    if (types.size() > 16) return Status::bad_input("agent types: " + std::to_string(types.size()) + " types, at most 16");
    const size_t n = chf.spans.size();
    out.types.assign(n, 0);
    scratch.resize(n);
    for (size_t t = 0; t < types.size(); ++t) {
        if (is_cancelled(cancel)) return Status::cancelled();
        const ClearanceType& ty = types[t];
        if (ty.radius < 0 || ty.height < 0)
            return Status::bad_input("agent types: type " + std::to_string(t) + " has a negative radius or height");
        // A height the bake's own filters and links already ensure is not tested again. A span is
        // stood on with more than the height free (the low-height filter's rule, when it is on), and
        // crossed where the two overlap by at least the height (the compact links' rule).
        const int need_h = ty.height > chf.walkable_height ? std::min(ty.height, 255) : 0;
        const int stand_h = need_h > 0 && low_height_filter ? std::min(need_h + 1, 255) : 0;
        const int thr = std::min(ty.radius * 2, 255);
        if (Status st = mark_type(chf, walkable.data(), need_h, stand_h, thr, static_cast<uint16_t>(1u << t),
                                  out.types.data(), scratch.data(), cancel);
            !st)
            return st;
    }
    return Status::ok();
}

namespace {

// The patches of one (area, types) pair smaller than min_spans take the types they share with
// the neighbouring pair of the same area they touch most, when that removes types.
void absorb_specks(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int min_spans, std::vector<uint16_t>& types,
                   std::vector<uint32_t>& scratch) {
    const size_t n = types.size();
    const int w = chf.width;
    scratch.assign(n * 2, 0xffffffffu);  // [0, n): the span's cell; [n, 2n): visit marks
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < w; ++x) {
            const CompactCell c = chf.cells[static_cast<size_t>(x) + static_cast<size_t>(z) * static_cast<size_t>(w)];
            for (uint32_t i = c.index; i < c.index + c.count; ++i) scratch[i] = static_cast<uint32_t>(x) | (static_cast<uint32_t>(z) << 16);
        }
    std::vector<uint32_t> patch;
    std::vector<std::pair<uint16_t, int>> touch;  // neighbouring types and how often
    auto neighbours = [&](uint32_t i, auto fn) {
        const uint32_t xz = scratch[i];
        const int x = static_cast<int>(xz & 0xffff), z = static_cast<int>(xz >> 16);
        for (int d = 0; d < 4; ++d) {
            const int k = get_con(chf.spans[i], d);
            if (k == kNotConnected) continue;
            fn(chf.neighbour(x, z, i, d));
        }
    };
    for (uint32_t s = 0; s < n; ++s) {
        if (types[s] == 0 || areas[s] == kNullArea || scratch[n + s] != 0xffffffffu) continue;
        const uint16_t m = types[s];
        const uint8_t a = areas[s];
        patch.assign(1, s);
        scratch[n + s] = s;
        touch.clear();
        for (size_t q = 0; q < patch.size(); ++q)
            neighbours(patch[q], [&](uint32_t j) {
                if (areas[j] != a || types[j] == 0) return;
                if (types[j] == m) {
                    if (scratch[n + j] == 0xffffffffu) {
                        scratch[n + j] = s;
                        patch.push_back(j);
                    }
                    return;
                }
                auto it = std::find_if(touch.begin(), touch.end(), [&](const auto& t) { return t.first == types[j]; });
                if (it == touch.end()) touch.push_back({types[j], 1});
                else ++it->second;
            });
        if (static_cast<int>(patch.size()) >= min_spans || touch.empty()) continue;
        std::pair<uint16_t, int> best{0, 0};
        for (const auto& t : touch)
            if ((t.first & m) != 0 && (t.first & m) != m && t.second > best.second) best = t;
        if (best.second == 0) continue;
        const uint16_t kept = static_cast<uint16_t>(m & best.first);
        for (uint32_t i : patch) types[i] = kept;
    }
}

}  // namespace

Status make_clearance_keys(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int min_spans, Clearance& out,
                           std::vector<uint32_t>& scratch) {
    if (areas.size() != out.types.size() || chf.spans.size() != areas.size())
        return Status::bad_input("agent types: " + std::to_string(areas.size()) + " areas for " +
                                 std::to_string(out.types.size()) + " spans");
    for (size_t i = 0; i < areas.size(); ++i)
        if (areas[i] == kNullArea) out.types[i] = 0;
    absorb_specks(chf, areas, min_spans, out.types, scratch);
    out.keys.resize(areas.size());
    out.key_area.assign(1, kNullArea);
    out.key_types.assign(1, 0);
    uint32_t last_pair = 0xffffffffu;
    uint8_t last_key = 0;
    for (size_t i = 0; i < areas.size(); ++i) {
        // A span no type fits is walkable for nobody: no polygon covers it.
        if (areas[i] == kNullArea || out.types[i] == 0) {
            out.types[i] = 0;
            out.keys[i] = 0;
            continue;
        }
        const uint32_t pair = (static_cast<uint32_t>(areas[i]) << 16) | out.types[i];
        if (pair != last_pair) {
            size_t k = 1;
            while (k < out.key_area.size() && (out.key_area[k] != areas[i] || out.key_types[k] != out.types[i])) ++k;
            if (k == out.key_area.size()) {
                if (k > 255)
                    return Status::bad_input("agent types: more than 255 distinct (area, agent types) pairs in one grid; "
                                             "use fewer area types or agent types");
                out.key_area.push_back(areas[i]);
                out.key_types.push_back(out.types[i]);
            }
            last_pair = pair;
            last_key = static_cast<uint8_t>(k);
        }
        out.keys[i] = last_key;
    }
    return Status::ok();
}

}  // namespace nav
