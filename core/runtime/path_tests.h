// Path test cases: "from here to there, with this filter, the path must (not) arrive,
// be at most this long, (not) cross these areas, (not) take these off-mesh links", evaluated on a
// NavMesh. The runtime side only: the cases as plain structs (area ids, link user ids, a
// QueryFilter) and their evaluation. Reading and writing the JSON file (area names, flag names)
// lives in the bake library (core/formats/path_tests_json.h), which knows the area table; the runtime
// links no JSON library.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/common.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"

namespace nav {

// What a case expects. Every rule given must hold; the rules are checked on the path as found
// (the partial path toward the end when it is not reached).
struct PathTestExpect {
    bool reached = true;               // the end is reached (false: it must not be)
    float max_length = -1;             // metres, 3D length of the straight path; < 0 = no limit
    std::vector<uint8_t> through_areas;  // each must be crossed (a corridor polygon or a link of that area)
    std::vector<uint8_t> avoid_areas;    // none may be crossed
    // Links: kAny = no rule; kSome = at least one off-mesh link taken; kNone = no link taken;
    // kUserId = the link with user id `through_link_id` taken.
    enum class Link : uint8_t { Any, Some, None, UserId };
    Link through_link = Link::Any;
    uint32_t through_link_id = 0;
    std::vector<uint32_t> avoid_links;  // user ids of links that must not be taken
};

struct PathTestCase {
    std::string name;
    float start[3] = {0, 0, 0}, end[3] = {0, 0, 0};
    QueryFilter filter;
    PathTestExpect expect;
};

// The outcome of one case.
struct PathTestResult {
    bool pass = false;
    bool start_on_mesh = false, end_on_mesh = false;  // find_nearest_poly found a polygon for each end
    bool reached = false;
    float length = 0;                  // 3D length of the straight path (0 when none)
    std::vector<uint8_t> areas;        // area ids crossed: corridor polygons and links taken (ascending, unique)
    std::vector<uint32_t> links;       // user ids of the links taken, in path order
    std::vector<float> points;         // the straight path, x, y, z per vertex
    std::vector<std::string> failures; // one line per rule broken ("crosses area 1 (avoid_area)"); empty = pass
};

// Names of areas in failure messages: the caller's (the bake's area table), or "area N" when null
// or when it returns an empty string.
using AreaNamer = std::string (*)(uint8_t area, const void* ctx);

struct PathTestOptions {
    float half_extents[3] = {2.0f, 4.0f, 2.0f};  // search box around each end point (a tool's --pairs box)
    AreaNamer area_name = nullptr;
    const void* area_name_ctx = nullptr;
};

// Runs one case on the mesh `query` is bound to (NavQuery::init): find_route (A* + funnel, with
// the case's filter), then the rules. A query error (a bad filter cost) is returned; the result
// is then not meaningful.
Status evaluate_path_test(NavQuery& query, const PathTestCase& c, const PathTestOptions& options, PathTestResult& out);

}  // namespace nav
