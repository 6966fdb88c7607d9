// Stage 6: the distance field (two chamfer sweeps, then the box blur) on hand-made compact
// heightfields, with values worked out by hand.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/bake/distance.h"

#include "chf_maps.h"

namespace {

using navtest::Layer;
using navtest::make_chf;

// The distances of the spans at floor y, one row per z; -1 where the cell has no such span.
std::vector<std::vector<int>> values(const nav::CompactHeightfield& chf, const nav::DistanceField& df, int y) {
    std::vector<std::vector<int>> rows(static_cast<size_t>(chf.height), std::vector<int>(static_cast<size_t>(chf.width), -1));
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < chf.width; ++x) {
            const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            for (uint32_t i = c.index; i < c.index + c.count; ++i)
                if (chf.spans[i].y == y) rows[static_cast<size_t>(z)][static_cast<size_t>(x)] = df.dist[i];
        }
    return rows;
}

using Grid = std::vector<std::vector<int>>;

}  // namespace

TEST_CASE("distance: 7x7 floor, sweeps and blur by hand") {
    // Before the blur a span holds 2 per side step to the rim: 0, 2, 4 and 6 in the centre
    // (max_dist 6). The blur keeps values <= 2; a 4 next to the rim's corner becomes
    // (2*5 + 4*3 + 6 + 5) / 9 = 3, a 4 on an axis (2*3 + 4*5 + 6 + 5) / 9 = 4 and the centre
    // (4*8 + 6 + 5) / 9 = 4.
    const nav::CompactHeightfield chf = make_chf({{0, std::vector<std::string>(7, "#######")}});
    nav::DistanceField df;
    REQUIRE(nav::build_distance_field(chf, chf.areas, df).is_ok());
    CHECK(df.max_dist == 6);
    CHECK(values(chf, df, 0) == Grid{
                                    {0, 0, 0, 0, 0, 0, 0},
                                    {0, 2, 2, 2, 2, 2, 0},
                                    {0, 2, 3, 4, 3, 2, 0},
                                    {0, 2, 4, 4, 4, 2, 0},
                                    {0, 2, 3, 4, 3, 2, 0},
                                    {0, 2, 2, 2, 2, 2, 0},
                                    {0, 0, 0, 0, 0, 0, 0},
                                });
}

TEST_CASE("distance: 11x11 floor") {
    // Raw value 2 * (side steps to the rim), max 10 in the centre; blurred as a 3x3 mean.
    const nav::CompactHeightfield chf = make_chf({{0, std::vector<std::string>(11, "###########")}});
    nav::DistanceField df;
    REQUIRE(nav::build_distance_field(chf, chf.areas, df).is_ok());
    CHECK(df.max_dist == 10);
    CHECK(values(chf, df, 0) == Grid{
                                    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                    {0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0},
                                    {0, 2, 3, 4, 4, 4, 4, 4, 3, 2, 0},
                                    {0, 2, 4, 5, 6, 6, 6, 5, 4, 2, 0},
                                    {0, 2, 4, 6, 7, 8, 7, 6, 4, 2, 0},
                                    {0, 2, 4, 6, 8, 8, 8, 6, 4, 2, 0},
                                    {0, 2, 4, 6, 7, 8, 7, 6, 4, 2, 0},
                                    {0, 2, 4, 5, 6, 6, 6, 5, 4, 2, 0},
                                    {0, 2, 3, 4, 4, 4, 4, 4, 3, 2, 0},
                                    {0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0},
                                    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                });
}

TEST_CASE("distance: a change of area is a boundary") {
    // Ground in x 0..5, water in x 6..10: columns 5 and 6 are boundaries like the rim. Raw values
    // reach 4 in each part (max_dist 4); every 4 blurs to 3.
    const nav::CompactHeightfield chf = make_chf({{0, std::vector<std::string>(7, "######wwwww")}});
    nav::DistanceField df;
    REQUIRE(nav::build_distance_field(chf, chf.areas, df).is_ok());
    CHECK(df.max_dist == 4);
    CHECK(values(chf, df, 0) == Grid{
                                    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                    {0, 2, 2, 2, 2, 0, 0, 2, 2, 2, 0},
                                    {0, 2, 3, 3, 2, 0, 0, 2, 3, 2, 0},
                                    {0, 2, 3, 3, 2, 0, 0, 2, 3, 2, 0},
                                    {0, 2, 3, 3, 2, 0, 0, 2, 3, 2, 0},
                                    {0, 2, 2, 2, 2, 0, 0, 2, 2, 2, 0},
                                    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                });
}

TEST_CASE("distance: null spans and holes") {
    // A null span in the middle is itself a boundary (its neighbours have another area), and so
    // are its side neighbours; a missing cell makes its side neighbours boundaries.
    std::vector<std::string> floor(7, "#######");
    SUBCASE("null span") { floor[3][3] = 'x'; }
    SUBCASE("missing cell") { floor[3][3] = '.'; }
    const nav::CompactHeightfield chf = make_chf({{0, floor}});
    nav::DistanceField df;
    REQUIRE(nav::build_distance_field(chf, chf.areas, df).is_ok());
    CHECK(df.max_dist == 2);
    const int c = floor[3][3] == '.' ? -1 : 0;
    CHECK(values(chf, df, 0) == Grid{
                                    {0, 0, 0, 0, 0, 0, 0},
                                    {0, 2, 2, 2, 2, 2, 0},
                                    {0, 2, 2, 0, 2, 2, 0},
                                    {0, 2, 0, c, 0, 2, 0},
                                    {0, 2, 2, 0, 2, 2, 0},
                                    {0, 2, 2, 2, 2, 2, 0},
                                    {0, 0, 0, 0, 0, 0, 0},
                                });
}

TEST_CASE("distance: stacked floors through layer links") {
    // A 7x7 floor at y 0 under an 11x11 floor at y 40 (each cell of the middle has two spans,
    // the upper one at layer 1): each floor gets its own field.
    std::vector<std::string> lower(11, "...........");
    for (size_t z = 2; z <= 8; ++z) lower[z] = "..#######..";
    const nav::CompactHeightfield chf = make_chf({{0, lower}, {40, std::vector<std::string>(11, "###########")}});
    nav::DistanceField df;
    REQUIRE(nav::build_distance_field(chf, chf.areas, df).is_ok());
    CHECK(df.max_dist == 10);
    const Grid up = values(chf, df, 40);
    CHECK(up[5] == std::vector<int>{0, 2, 4, 6, 8, 8, 8, 6, 4, 2, 0});
    CHECK(up[3] == std::vector<int>{0, 2, 4, 5, 6, 6, 6, 5, 4, 2, 0});
    const Grid low = values(chf, df, 0);
    CHECK(low[4] == std::vector<int>{-1, -1, 0, 2, 3, 4, 3, 2, 0, -1, -1});
    CHECK(low[5] == std::vector<int>{-1, -1, 0, 2, 4, 4, 4, 2, 0, -1, -1});
}

TEST_CASE("distance: output buffer reused, cancel, bad input") {
    const nav::CompactHeightfield chf = make_chf({{0, std::vector<std::string>(7, "#######")}});
    nav::DistanceField df;
    df.dist.assign(1000, 77);
    df.max_dist = 99;
    REQUIRE(nav::build_distance_field(chf, chf.areas, df).is_ok());
    CHECK(df.dist.size() == chf.spans.size());
    CHECK(df.max_dist == 6);

    nav::CancelFlag cancel{true};
    CHECK(nav::build_distance_field(chf, chf.areas, df, &cancel).code == nav::Status::Code::Cancelled);
    cancel = false;
    CHECK(nav::build_distance_field(chf, chf.areas, df, &cancel).is_ok());

    const std::vector<uint8_t> few(5, nav::kWalkableArea);
    CHECK_FALSE(nav::build_distance_field(chf, few, df).is_ok());

    nav::CompactHeightfield empty;
    CHECK(nav::build_distance_field(empty, {}, df).is_ok());
    CHECK(df.dist.empty());
    CHECK(df.max_dist == 0);
}
