// Stage 7: region partitioning (watershed, monotone, layers) on hand-made compact heightfields,
// plus properties on generated multi-level scenes: every region is connected, layers never
// overlap themselves, every walkable span keeps a region unless its small region was removed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/bake/distance.h"
#include "core/pipeline/pipeline.h"
#include "core/bake/regions.h"
#include "test_scenes.h"

namespace {

using nav::CompactHeightfield;
using nav::Regions;

constexpr int kWalkH = 10;  // walkable_height in voxels
constexpr int kClimb = 4;   // walkable_climb in voxels

// A hand-made scene: per cell a list of floors (y, area). build() turns it into a compact
// heightfield the way Recast does: a span's clearance reaches the next floor up, and two spans
// in adjacent cells link when their floors differ by at most kClimb and the shared gap is at
// least kWalkH (first match in the neighbour column).
struct Scene {
    int w = 0, h = 0;
    std::vector<std::vector<std::pair<int, uint8_t>>> cols;

    Scene(int w_, int h_) : w(w_), h(h_), cols(static_cast<size_t>(w_ * h_)) {}

    void set(int x, int z, int y, uint8_t area = nav::kWalkableArea) {
        auto& c = cols[static_cast<size_t>(x + z * w)];
        for (auto& f : c)
            if (f.first == y) {
                f.second = area;
                return;
            }
        c.emplace_back(y, area);
    }
    void rect(int x0, int z0, int x1, int z1, int y, uint8_t area = nav::kWalkableArea) {
        for (int z = z0; z < z1; ++z)
            for (int x = x0; x < x1; ++x) set(x, z, y, area);
    }
    void clear(int x0, int z0, int x1, int z1) {
        for (int z = z0; z < z1; ++z)
            for (int x = x0; x < x1; ++x) cols[static_cast<size_t>(x + z * w)].clear();
    }

    CompactHeightfield build() const {
        CompactHeightfield chf;
        chf.width = w;
        chf.height = h;
        chf.walkable_height = kWalkH;
        chf.walkable_climb = kClimb;
        chf.cells.resize(static_cast<size_t>(w * h));
        for (int ci = 0; ci < w * h; ++ci) {
            auto c = cols[static_cast<size_t>(ci)];
            std::sort(c.begin(), c.end());
            chf.cells[static_cast<size_t>(ci)].index = static_cast<uint32_t>(chf.spans.size());
            chf.cells[static_cast<size_t>(ci)].count = static_cast<uint32_t>(c.size());
            for (size_t k = 0; k < c.size(); ++k) {
                nav::CompactSpan s;
                s.y = static_cast<uint16_t>(c[k].first);
                s.h = static_cast<uint8_t>(k + 1 < c.size() ? std::min(255, c[k + 1].first - c[k].first - 1) : 255);
                s.con = 0xffffff;
                chf.spans.push_back(s);
                chf.areas.push_back(c[k].second);
            }
        }
        for (int z = 0; z < h; ++z)
            for (int x = 0; x < w; ++x) {
                const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * w)];
                for (uint32_t i = c.index; i < c.index + c.count; ++i) {
                    nav::CompactSpan& s = chf.spans[i];
                    for (int dir = 0; dir < 4; ++dir) {
                        const int nx = x + nav::dir_offset_x(dir), nz = z + nav::dir_offset_z(dir);
                        if (nx < 0 || nz < 0 || nx >= w || nz >= h) continue;
                        const nav::CompactCell& nc = chf.cells[static_cast<size_t>(nx + nz * w)];
                        for (uint32_t k = 0; k < nc.count && k < 63; ++k) {
                            const nav::CompactSpan& ns = chf.spans[nc.index + k];
                            const int bot = std::max<int>(s.y, ns.y);
                            const int top = std::min<int>(s.y + s.h, ns.y + ns.h);
                            if (top - bot >= kWalkH && std::abs(int(ns.y) - int(s.y)) <= kClimb) {
                                nav::set_con(s, dir, static_cast<int>(k));
                                break;
                            }
                        }
                    }
                }
            }
        chf.span_count = static_cast<uint32_t>(chf.spans.size());
        return chf;
    }
};

enum class Part { Watershed, Monotone, Layers };
constexpr Part kParts[] = {Part::Watershed, Part::Monotone, Part::Layers};
const char* part_name(Part p) {
    return p == Part::Watershed ? "watershed" : p == Part::Monotone ? "monotone" : "layers";
}

Regions partition(Part p, const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int min_area,
                  int merge_area, int border = 0) {
    Regions out;
    nav::Status st;
    if (p == Part::Watershed) {
        nav::DistanceField df;
        REQUIRE(nav::build_distance_field(chf, areas, df).is_ok());
        st = nav::build_regions_watershed(chf, areas, df, border, min_area, merge_area, out);
    } else if (p == Part::Monotone) {
        st = nav::build_regions_monotone(chf, areas, border, min_area, merge_area, out);
    } else {
        st = nav::build_regions_layers(chf, areas, border, min_area, out);
    }
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    REQUIRE(out.reg.size() == chf.span_count);
    return out;
}

std::set<uint16_t> ids_of(const Regions& r) {
    std::set<uint16_t> s;
    for (uint16_t v : r.reg)
        if (v) s.insert(v);
    return s;
}

// Cell of every span, for walking links.
std::vector<int> span_cells(const CompactHeightfield& chf) {
    std::vector<int> cell(chf.span_count);
    for (int ci = 0; ci < chf.width * chf.height; ++ci) {
        const nav::CompactCell& c = chf.cells[static_cast<size_t>(ci)];
        for (uint32_t i = c.index; i < c.index + c.count; ++i) cell[i] = ci;
    }
    return cell;
}

// Checks the invariants every partition result must satisfy.
void check_basic(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, const Regions& r) {
    const auto ids = ids_of(r);
    CHECK(r.region_count == static_cast<int>(ids.size()));
    if (!ids.empty()) {
        CHECK(*ids.rbegin() < r.max_region_id);
        CHECK(*ids.rbegin() == r.region_count);  // compacted to 1..n
    }
    for (uint32_t i = 0; i < chf.span_count; ++i)
        if (areas[i] == nav::kNullArea) CHECK(r.reg[i] == 0);
}

// Every region is one piece: a flood over links between spans of the region reaches all of it.
// Returns the number of regions that are not.
int disconnected_regions(const CompactHeightfield& chf, const Regions& r) {
    const auto cell = span_cells(chf);
    std::vector<char> seen(chf.span_count, 0);
    std::set<uint16_t> started;
    int bad = 0;
    std::vector<uint32_t> stack;
    for (uint32_t s = 0; s < chf.span_count; ++s) {
        const uint16_t id = r.reg[s];
        if (id == 0 || seen[s]) continue;
        if (!started.insert(id).second) {
            ++bad;  // a second piece of a region already flooded
            continue;
        }
        stack.assign(1, s);
        seen[s] = 1;
        while (!stack.empty()) {
            const uint32_t i = stack.back();
            stack.pop_back();
            const int x = cell[i] % chf.width, z = cell[i] / chf.width;
            for (int dir = 0; dir < 4; ++dir) {
                if (nav::get_con(chf.spans[i], dir) == nav::kNotConnected) continue;
                const uint32_t ai = chf.neighbour(x, z, i, dir);
                if (r.reg[ai] == id && !seen[ai]) {
                    seen[ai] = 1;
                    stack.push_back(ai);
                }
            }
        }
    }
    return bad;
}

// Pieces of region-less walkable spans (flood over links, same area): the size of the largest.
int largest_regionless_piece(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, const Regions& r) {
    const auto cell = span_cells(chf);
    std::vector<char> seen(chf.span_count, 0);
    int largest = 0;
    std::vector<uint32_t> stack;
    for (uint32_t s = 0; s < chf.span_count; ++s) {
        if (areas[s] == nav::kNullArea || r.reg[s] != 0 || seen[s]) continue;
        int n = 0;
        stack.assign(1, s);
        seen[s] = 1;
        while (!stack.empty()) {
            const uint32_t i = stack.back();
            stack.pop_back();
            ++n;
            const int x = cell[i] % chf.width, z = cell[i] / chf.width;
            for (int dir = 0; dir < 4; ++dir) {
                if (nav::get_con(chf.spans[i], dir) == nav::kNotConnected) continue;
                const uint32_t ai = chf.neighbour(x, z, i, dir);
                if (areas[ai] == areas[i] && r.reg[ai] == 0 && !seen[ai]) {
                    seen[ai] = 1;
                    stack.push_back(ai);
                }
            }
        }
        largest = std::max(largest, n);
    }
    return largest;
}

// A random multi-level scene: a ground floor with holes and null-area strips, raised platforms
// (some reached by ramps), bridges over the ground and water patches.
Scene random_scene(uint32_t seed) {
    std::mt19937 rng(seed);
    auto uni = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
    Scene sc(64, 56);
    sc.rect(0, 0, 64, 56, 0);
    for (int k = 0; k < 6; ++k) {  // holes
        const int x = uni(0, 56), z = uni(0, 48);
        sc.clear(x, z, x + uni(2, 8), z + uni(2, 8));
    }
    for (int k = 0; k < 3; ++k) {  // null-area walls
        const int x = uni(2, 60), z = uni(0, 30);
        for (int zz = z; zz < std::min(56, z + uni(10, 25)); ++zz) sc.set(x, zz, 0, nav::kNullArea);
    }
    for (int k = 0; k < 4; ++k) {  // water patches
        const int x = uni(0, 54), z = uni(0, 46);
        sc.rect(x, z, x + uni(3, 10), z + uni(3, 10), 0, nav::kAreaWater);
    }
    for (int k = 0; k < 4; ++k) {  // platforms high above the ground, some with a ramp down
        const int x = uni(0, 50), z = uni(0, 42), y = uni(30, 60);
        const int x1 = std::min(64, x + uni(6, 14)), z1 = std::min(56, z + uni(6, 14));
        sc.rect(x, z, x1, z1, y);
        if (k % 2 == 0 && x1 + y / 3 < 64)
            for (int s = 0; s < y / 3; ++s)
                for (int zz = z; zz < std::min(z1, z + 3); ++zz) {
                    sc.clear(x1 + s, zz, x1 + s + 1, zz + 1);
                    sc.set(x1 + s, zz, y - 3 * (s + 1));
                }
    }
    for (int k = 0; k < 2; ++k) {  // small isolated islands
        const int x = uni(0, 60), z = uni(0, 52), y = uni(70, 90);
        sc.rect(x, z, x + uni(1, 4), z + uni(1, 4), y);
    }
    return sc;
}

}  // namespace

TEST_CASE("regions: a single flat floor is one region") {
    Scene sc(20, 20);
    sc.rect(0, 0, 20, 20, 5);
    const auto chf = sc.build();
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Regions r = partition(p, chf, chf.areas, 8, 20);
        check_basic(chf, chf.areas, r);
        CHECK(r.region_count == 1);
        CHECK(r.max_region_id == 2);
        for (uint16_t v : r.reg) CHECK(v == 1);
    }
}

TEST_CASE("regions: two floors without links are two regions") {
    Scene sc(30, 20);
    sc.rect(0, 0, 14, 20, 0);
    sc.rect(16, 0, 30, 20, 0);  // a gap of two empty columns between them
    const auto chf = sc.build();
    const auto cell = span_cells(chf);
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Regions r = partition(p, chf, chf.areas, 8, 20);
        check_basic(chf, chf.areas, r);
        CHECK(r.region_count == 2);
        std::set<uint16_t> left, right;
        for (uint32_t i = 0; i < chf.span_count; ++i) (cell[i] % 30 < 15 ? left : right).insert(r.reg[i]);
        CHECK(left.size() == 1);
        CHECK(right.size() == 1);
        CHECK(*left.begin() != *right.begin());
        CHECK(*left.begin() != 0);
        CHECK(*right.begin() != 0);
    }
}

TEST_CASE("regions: a wall of null area splits a floor") {
    Scene sc(31, 20);
    sc.rect(0, 0, 31, 20, 0);
    for (int z = 0; z < 20; ++z) sc.set(15, z, 0, nav::kNullArea);
    const auto chf = sc.build();
    const auto cell = span_cells(chf);
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Regions r = partition(p, chf, chf.areas, 8, 20);
        check_basic(chf, chf.areas, r);
        std::set<uint16_t> left, right;
        for (uint32_t i = 0; i < chf.span_count; ++i) {
            const int x = cell[i] % 31;
            if (x == 15)
                CHECK(r.reg[i] == 0);
            else
                (x < 15 ? left : right).insert(r.reg[i]);
        }
        CHECK(left.count(0) == 0);
        CHECK(right.count(0) == 0);
        for (uint16_t a : left) CHECK(right.count(a) == 0);  // no region crosses the wall
        CHECK(r.region_count == 2);
        CHECK(disconnected_regions(chf, r) == 0);
    }
}

TEST_CASE("regions: an island smaller than min_region_area is removed") {
    Scene sc(30, 30);
    sc.rect(0, 0, 20, 20, 0);   // 400 spans
    sc.rect(24, 24, 28, 28, 0); // 16 spans, no links to the floor
    const auto chf = sc.build();
    const auto cell = span_cells(chf);
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Regions r = partition(p, chf, chf.areas, 64, 400);
        check_basic(chf, chf.areas, r);
        CHECK(r.region_count == 1);
        for (uint32_t i = 0; i < chf.span_count; ++i) {
            const bool island = cell[i] % 30 >= 24;
            CHECK((r.reg[i] == 0) == island);
        }
        // With a smaller minimum the island stays.
        const Regions keep = partition(p, chf, chf.areas, 16, 400);
        CHECK(keep.region_count == 2);
        for (uint16_t v : keep.reg) CHECK(v != 0);
    }
}

TEST_CASE("regions: monotone merges small sweep regions into their neighbour") {
    // A U: the base rows sweep into one region, each arm continues it but the base has two
    // continuations, so the arms start regions of their own.
    Scene sc(20, 20);
    sc.rect(0, 0, 20, 6, 0);
    sc.rect(0, 6, 6, 20, 0);
    sc.rect(14, 6, 20, 20, 0);
    const auto chf = sc.build();
    const auto cell = span_cells(chf);
    Regions split, merged;
    REQUIRE(nav::build_regions_monotone(chf, chf.areas, 0, 0, 0, split).is_ok());
    REQUIRE(nav::build_regions_monotone(chf, chf.areas, 0, 0, 400, merged).is_ok());
    check_basic(chf, chf.areas, split);
    check_basic(chf, chf.areas, merged);
    CHECK(split.region_count == 3);
    // Regions are numbered in sweep order: base first, then the left and the right arm.
    for (uint32_t i = 0; i < chf.span_count; ++i) {
        const int x = cell[i] % 20, z = cell[i] / 20;
        CHECK(split.reg[i] == (z < 6 ? 1 : x < 10 ? 2 : 3));
    }
    CHECK(merged.region_count == 1);
    for (uint16_t v : merged.reg) CHECK(v == 1);
    // A merge size below every region keeps regions that touch the outside apart.
    Regions kept;
    REQUIRE(nav::build_regions_monotone(chf, chf.areas, 0, 0, 50, kept).is_ok());
    CHECK(kept.reg == split.reg);
    // Between the sizes: the arms (84 spans each) merge into the base (120), which itself is
    // too big to look for a neighbour.
    Regions some;
    REQUIRE(nav::build_regions_monotone(chf, chf.areas, 0, 0, 100, some).is_ok());
    CHECK(some.region_count == 1);
}

TEST_CASE("regions: watershed merges small regions into their neighbours") {
    // Two rooms joined by a corridor: two distance maxima, so at least two regions raw.
    Scene sc(50, 20);
    sc.rect(0, 0, 20, 20, 0);
    sc.rect(30, 0, 50, 20, 0);
    sc.rect(20, 8, 30, 12, 0);
    const auto chf = sc.build();
    Regions split = partition(Part::Watershed, chf, chf.areas, 0, 0);
    Regions merged = partition(Part::Watershed, chf, chf.areas, 0, 100000);
    check_basic(chf, chf.areas, split);
    check_basic(chf, chf.areas, merged);
    CHECK(split.region_count >= 2);
    CHECK(merged.region_count == 1);
    CHECK(disconnected_regions(chf, split) == 0);
    for (uint16_t v : merged.reg) CHECK(v == 1);
}

TEST_CASE("regions: layers put a bridge and the corridor below it in different regions") {
    // Ground everywhere at y 0; a bridge deck at y 30 over x 12..17, z 10..19, reached by ramps
    // (solid up to the deck, so the ground under a ramp is gone) from z 0 and from z 29.
    Scene sc(30, 30);
    sc.rect(0, 0, 30, 30, 0);
    for (int z = 0; z < 10; ++z) {
        sc.clear(12, z, 18, z + 1);
        sc.rect(12, z, 18, z + 1, 3 * z);
        sc.clear(12, 29 - z, 18, 30 - z);
        sc.rect(12, 29 - z, 18, 30 - z, 3 * z);
    }
    sc.rect(12, 10, 18, 20, 30);
    const auto chf = sc.build();
    int stacked = 0;
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Regions r = partition(p, chf, chf.areas, 0, 0);
        check_basic(chf, chf.areas, r);
        CHECK(disconnected_regions(chf, r) == 0);
        for (uint16_t v : r.reg) CHECK(v != 0);
        if (p != Part::Layers) continue;
        for (const nav::CompactCell& c : chf.cells) {
            if (c.count < 2) continue;
            ++stacked;
            CHECK(r.reg[c.index] != r.reg[c.index + 1]);
        }
        CHECK(r.region_count >= 2);
    }
    CHECK(stacked == 60);
}

TEST_CASE("regions: cancel, bad input, border and determinism") {
    Scene sc(24, 24);
    sc.rect(0, 0, 24, 24, 0);
    const auto chf = sc.build();
    nav::DistanceField df;
    REQUIRE(nav::build_distance_field(chf, chf.areas, df).is_ok());
    Regions r;
    nav::CancelFlag cancel{true};
    CHECK(nav::build_regions_watershed(chf, chf.areas, df, 0, 8, 20, r, &cancel).code == nav::Status::Code::Cancelled);
    CHECK(nav::build_regions_monotone(chf, chf.areas, 0, 8, 20, r, &cancel).code == nav::Status::Code::Cancelled);
    CHECK(nav::build_regions_layers(chf, chf.areas, 0, 8, r, &cancel).code == nav::Status::Code::Cancelled);

    std::vector<uint8_t> short_areas(chf.areas.begin(), chf.areas.end() - 1);
    CHECK(nav::build_regions_monotone(chf, short_areas, 0, 8, 20, r).code == nav::Status::Code::BadInput);
    nav::DistanceField short_df = df;
    short_df.dist.pop_back();
    CHECK(nav::build_regions_watershed(chf, chf.areas, short_df, 0, 8, 20, r).code == nav::Status::Code::BadInput);

    // A tile border of 3 cells: its spans carry the border flag, the inside is one region.
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Regions b = partition(p, chf, chf.areas, 8, 20, 3);
        const auto cell = span_cells(chf);
        std::set<uint16_t> inner;
        for (uint32_t i = 0; i < chf.span_count; ++i) {
            const int x = cell[i] % 24, z = cell[i] / 24;
            const bool border = x < 3 || z < 3 || x >= 21 || z >= 21;
            CHECK(((b.reg[i] & nav::kBorderRegion) != 0) == border);
            if (!border) inner.insert(b.reg[i]);
        }
        CHECK(inner == std::set<uint16_t>{1});
        CHECK(b.region_count == 1);
    }

    const Scene big = random_scene(7);
    const auto chf2 = big.build();
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Regions a = partition(p, chf2, chf2.areas, 16, 100);
        const Regions b = partition(p, chf2, chf2.areas, 16, 100);
        CHECK(a.reg == b.reg);
        CHECK(a.region_count == b.region_count);
    }
}

TEST_CASE("regions: the storage order of the spans does not matter") {
    // The same scene with the cells' spans stored in reverse cell order (and, as Recast leaves
    // them, empty cells at index 0) takes the non-linear paths; ids must not change.
    const Scene sc = random_scene(3);
    const auto chf = sc.build();
    CompactHeightfield rev = chf;
    std::vector<uint32_t> to_new(chf.span_count);
    uint32_t next = 0;
    rev.spans.clear();
    rev.areas.clear();
    for (int ci = chf.width * chf.height - 1; ci >= 0; --ci) {
        const nav::CompactCell& c = chf.cells[static_cast<size_t>(ci)];
        rev.cells[static_cast<size_t>(ci)].index = c.count ? next : 0;
        for (uint32_t i = c.index; i < c.index + c.count; ++i) {
            to_new[i] = next++;
            rev.spans.push_back(chf.spans[i]);
            rev.areas.push_back(chf.areas[i]);
        }
    }
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Regions a = partition(p, chf, chf.areas, 20, 60);
        const Regions b = partition(p, rev, rev.areas, 20, 60);
        CHECK(a.region_count == b.region_count);
        int differ = 0;
        for (uint32_t i = 0; i < chf.span_count; ++i) differ += a.reg[i] != b.reg[to_new[i]];
        CHECK(differ == 0);
    }
}

TEST_CASE("regions: properties on generated multi-level scenes") {
    for (uint32_t seed = 1; seed <= 6; ++seed) {
        CAPTURE(seed);
        const Scene sc = random_scene(seed);
        const auto chf = sc.build();
        for (Part p : kParts) {
            CAPTURE(part_name(p));
            // Without a minimum size every walkable span has a region.
            const Regions all = partition(p, chf, chf.areas, 0, 20);
            check_basic(chf, chf.areas, all);
            CHECK(disconnected_regions(chf, all) == 0);
            for (uint32_t i = 0; i < chf.span_count; ++i)
                if (chf.areas[i] != nav::kNullArea) CHECK(all.reg[i] != 0);
            // Spans of one area sharing a region all have the same area.
            std::vector<int> region_area(all.max_region_id, -1);
            for (uint32_t i = 0; i < chf.span_count; ++i) {
                const uint16_t id = all.reg[i];
                if (!id) continue;
                if (region_area[id] < 0) region_area[id] = chf.areas[i];
                CHECK(region_area[id] == chf.areas[i]);
            }

            const int min_area = 30;
            const Regions filtered = partition(p, chf, chf.areas, min_area, 100);
            check_basic(chf, chf.areas, filtered);
            CHECK(disconnected_regions(chf, filtered) == 0);
            CHECK(filtered.region_count <= all.region_count);
            if (p != Part::Layers) {
                // Spans lose their region only in removed groups smaller than the minimum.
                CHECK(largest_regionless_piece(chf, chf.areas, filtered) < min_area);
            } else {
                // Layering does not depend on the minimum: each layer of the unfiltered result
                // either survives whole under one id of its own or, if smaller, disappears.
                std::vector<int> size(all.max_region_id, 0);
                for (uint16_t v : all.reg)
                    if (v) ++size[v];
                std::vector<int> maps_to(all.max_region_id, -1);
                std::set<uint16_t> used;
                for (uint32_t i = 0; i < chf.span_count; ++i) {
                    const uint16_t a = all.reg[i];
                    if (!a) continue;
                    if (size[a] < min_area) {
                        CHECK(filtered.reg[i] == 0);
                        continue;
                    }
                    if (maps_to[a] < 0) {
                        maps_to[a] = filtered.reg[i];
                        CHECK(used.insert(filtered.reg[i]).second);
                    }
                    CHECK(filtered.reg[i] == maps_to[a]);
                }
                // A layer never holds two spans of one column.
                for (const nav::CompactCell& c : chf.cells)
                    for (uint32_t i = c.index; i < c.index + c.count; ++i)
                        for (uint32_t j = i + 1; j < c.index + c.count; ++j)
                            if (filtered.reg[i]) CHECK(filtered.reg[i] != filtered.reg[j]);
            }
        }
    }
}

TEST_CASE("regions: properties on a scene baked from boxes and floors") {
    nav::InputMesh mesh;
    navtest::add_floor(mesh, 0, 0, 30, 30, 0);
    navtest::add_box(mesh, 5, 0, 5, 10, 3, 12);      // a block to stand on
    navtest::add_box(mesh, 14, 0, 14, 16, 1.5f, 28);  // a low wall
    navtest::add_box(mesh, 20, 0, 3, 26, 2.5f, 9);
    navtest::add_floor(mesh, 2, 18, 12, 28, 4);       // a mezzanine over the floor
    mesh.compute_bounds();
    nav::Pipeline pl;
    REQUIRE(pl.set_mesh(mesh).is_ok());
    const nav::Status st = pl.run(nav::Stage::Distance);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    const auto bake = pl.snapshot();
    REQUIRE(bake->compact);
    REQUIRE(bake->areas);
    REQUIRE(bake->distance);
    const CompactHeightfield& chf = *bake->compact;
    const std::vector<uint8_t>& areas = *bake->areas;
    int walkable = 0;
    for (uint8_t a : areas) walkable += a != nav::kNullArea;
    REQUIRE(walkable > 1000);
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        Regions r;
        nav::Status s;
        if (p == Part::Watershed)
            s = nav::build_regions_watershed(chf, areas, *bake->distance, 0, 64, 400, r);
        else if (p == Part::Monotone)
            s = nav::build_regions_monotone(chf, areas, 0, 64, 400, r);
        else
            s = nav::build_regions_layers(chf, areas, 0, 64, r);
        REQUIRE(s.is_ok());
        check_basic(chf, areas, r);
        CHECK(r.region_count >= 2);  // the floor and at least the block top or the mezzanine
        CHECK(disconnected_regions(chf, r) == 0);
        if (p != Part::Layers) CHECK(largest_regionless_piece(chf, areas, r) < 64);
    }
}
