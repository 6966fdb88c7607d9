// A game's side of navkit: the runtime alone (no bake, no oneTBB, no JSON). The game has its own
// navmesh data (here three square rooms in an L, written out by hand; a game would load its
// tiles), makes a NavMesh of it, and finds a path around the corner.
//   runtime_path [SX SY SZ EX EY EZ]   (default: from (2, 0, 2) to (12, 0, 18))
#include <navkit/runtime.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

int main(int argc, char** argv) {
    float start[3] = {2, 0, 2}, end[3] = {12, 0, 18};
    if (argc == 7) {
        for (int k = 0; k < 3; ++k) start[k] = std::strtof(argv[1 + k], nullptr), end[k] = std::strtof(argv[4 + k], nullptr);
    } else if (argc != 1) {
        std::fprintf(stderr, "usage: runtime_path [SX SY SZ EX EY EZ]\n");
        return 2;
    }

    // Rooms A = [0,10]x[0,10], B = [10,20]x[0,10], C = [10,20]x[10,20] on the floor y = 0. Polygons
    // are convex and clockwise in (x, z); edge j runs from vertex j to j+1 and names the polygon
    // across it (kNoPoly: a wall).
    auto tile = std::make_shared<nav::NavTile>();
    tile->verts = {0, 0, 0,  0, 0, 10,  10, 0, 10,  10, 0, 0,  20, 0, 10,  20, 0, 0,  10, 0, 20,  20, 0, 20};
    tile->poly_first = {0, 4, 8, 12};
    tile->edge_vert = {0, 1, 2, 3,  3, 2, 4, 5,  2, 6, 7, 4};
    const uint32_t W = nav::kNoPoly;
    tile->edge_nei = {W, W, 1, W,  0, 2, W, W,  W, W, W, 1};
    tile->areas = {nav::kWalkableArea, nav::kWalkableArea, nav::kWalkableArea};
    tile->flags = {nav::kPolyFlagDefault, nav::kPolyFlagDefault, nav::kPolyFlagDefault};
    tile->bmax[0] = 20, tile->bmax[2] = 20;
    if (nav::Status st = nav::validate_tile(*tile); !st) {
        std::fprintf(stderr, "bad tile: %s\n", st.message.c_str());
        return 1;
    }

    std::vector<std::shared_ptr<const nav::NavTile>> tiles = {tile};
    nav::NavMesh mesh;
    if (nav::Status st = nav::build_navmesh(tiles, nullptr, mesh); !st) {
        std::fprintf(stderr, "navmesh: %s\n", st.message.c_str());
        return 1;
    }
    nav::NavQuery query;
    query.init(&mesh);
    const float half_extents[3] = {1, 2, 1};
    nav::Route route;
    if (nav::Status st = query.find_route(start, end, half_extents, nav::QueryFilter{}, nav::RouteOptions{}, route); !st) {
        std::fprintf(stderr, "query: %s\n", st.message.c_str());
        return 1;
    }
    if (!route.found()) {
        std::printf("no path\n");
        return 1;
    }
    std::printf("polygons %d, path %d points, length %.3f\n", static_cast<int>(route.path.polys.size()),
                route.straight.size(), static_cast<double>(route.straight.length()));
    for (int i = 0; i < route.straight.size(); ++i)
        std::printf("%.3f %.3f %.3f\n", static_cast<double>(route.straight.points[i * 3]),
                    static_cast<double>(route.straight.points[i * 3 + 1]), static_cast<double>(route.straight.points[i * 3 + 2]));
    return 0;
}
