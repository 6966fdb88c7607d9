// navbake's command line: the flags as given (Args, parsed by CLI11) and what they ask for (Job),
// checked without reading any file. Split from navbake.cpp so tests/fuzz/fuzz_args.cpp runs the
// same code on arbitrary arguments.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/crowd/scenario.h"
#include "core/pipeline/params.h"
#include "core/runtime/path_tests.h"
#include "core/pipeline/pipeline.h"
#include "core/common.h"

namespace navbake {

// Every flag as given.
struct Args {
    std::string mesh_path, config_path, incremental, obj_out, pairs_path, mesh_out, only_tile, seed_text;
    std::string why_text, why_path_text;  // --why X,Y,Z and --why-path SX,SY,SZ:EX,EY,EZ as given
    std::vector<std::string> sets;
    bool as_json = false, compare_optimal = false, keep_intermediates = false;
    // given, even as an empty string (an empty path or tile is refused, never ignored)
    bool obj_out_given = false, mesh_out_given = false, tile_given = false, seed_given = false;
    bool reps_given = false, max_memory_given = false, incremental_given = false;
    bool why_given = false, why_path_given = false;
    int reps = 1, npaths = 0;
    double max_memory_mb = 4096, max_input_mb = 1024;
    // ---- Detour files (issue 20): --navmesh-out FILE (RecastDemo's MSET of the whole bake),
    // --tile-out DIR (one Detour tile per file, DIR/tile_X_Y.bin)
    std::string navmesh_out, tile_out;
    bool navmesh_out_given = false, tile_out_given = false;
    // --gltf-out FILE (.glb binary, else glTF JSON): the bake's layers as named glTF nodes
    std::string gltf_out;
    bool gltf_out_given = false;
    // A bake split over machines (navbake_farm.h): --tiles X0,Y0:X1,Y1, --merge DIR, --tile-grid.
    std::string tiles_text, merge_dir;
    bool tiles_given = false, merge_given = false, tile_grid = false;
    // --navmesh-in FILE: a Detour navmesh (MSET or one tile) loaded instead of a bake
    std::string navmesh_in;
    bool navmesh_in_given = false;
    // --path-tests FILE: path cases run on the navmesh (core/formats/path_tests_json.h)
    std::string path_tests_path;
    bool path_tests_given = false;
    // --agent-type NAME: --paths / --pairs / --crowd for one of the config's "agent_types"
    std::string agent_type;
    bool agent_type_given = false;
    // --crowd SCENARIO --agents N --ticks T: agents walking the navmesh (core/crowd/scenario.h)
    std::string crowd;
    bool crowd_given = false, agents_given = false, ticks_given = false;
    long long crowd_agents = 32, crowd_ticks = 600;
};

// CLI11 over argv: nullopt to go on, else the exit code (0 after --help, printed on `out`; 2
// after a parse error, printed on `err`).
std::optional<int> parse_args(int argc, const char* const* argv, Args& a, std::ostream& out, std::ostream& err);

// What the flags ask for.
struct Job {
    nav::BakeInputs inputs;  // --config, then --set and the other flags that change an input
    std::string inc_name, inc_value;  // --incremental
    int tile_x = -1, tile_y = -1;     // --tile
    uint64_t seed = 1;                // --seed
    uint64_t max_input = 0;           // --max-input, bytes
    bool map2d = false;               // a .json or .mesh 2D map, not an OBJ
    bool why = false, why_path = false;  // --why, --why-path given (points below)
    float why_point[3] = {0, 0, 0};      // --why
    float why_start[3] = {0, 0, 0}, why_end[3] = {0, 0, 0};  // --why-path
    int tiles[4] = {-1, -1, -1, -1};  // --tiles: x0, y0, x1, y1 (inclusive columns and rows)
    int agent_type = -1;              // --agent-type: the index in inputs.agent_types (-1: none given)
    bool crowd = false;               // --crowd given: run the scenario below
    nav::CrowdScenario crowd_kind = nav::CrowdScenario::Circle;
    int crowd_agents = 32, crowd_ticks = 600;
    std::vector<nav::PathTestCase> path_tests;  // --path-tests, read by navbake.cpp's prepare_job (it needs the areas)
};

// "X,Y": two whole decimal numbers in [0, 2^31), nothing else (no sign, space or trailing text).
nav::Status parse_tile(std::string_view text, int& x, int& y);
// "X0,Y0:X1,Y1" (--tiles): two corners as parse_tile reads them, X0 <= X1 and Y0 <= Y1.
nav::Status parse_tile_rect(std::string_view text, int* rect);
// A whole decimal number in [0, 2^64), nothing else.
nav::Status parse_seed(std::string_view text, uint64_t& seed);

// "X,Y,Z": three finite decimal numbers (a float each: "1e39" is out of range), nothing else (no
// space, hex, nan or inf). `flag` names the option in the message.
nav::Status parse_point(std::string_view flag, std::string_view text, float* p);
// "SX,SY,SZ:EX,EY,EZ": two points as parse_point reads them, for --why-path.
nav::Status parse_point_pair(std::string_view text, float* start, float* end);

// Every flag that can be checked without reading a file, on top of job.params / job.volumes as
// --config left them (defaults without one): --set, --incremental, --tile, --seed, --why,
// --why-path (and what they do not combine with), and the flags
// and parameters a 2D map would ignore (refused: nothing is silently ignored). Bad input names
// the flag and what was expected.
nav::Status apply_args(const Args& a, Job& job);
// --navmesh-in: no mesh, no bake; the flags and parameters only a bake uses are refused (the query
// parameters and --paths / --pairs / --seed / --compare-optimal / --json / --max-input apply).
nav::Status refuse_for_navmesh_in(const Args& a, const Job& job);

bool ends_with(std::string_view s, std::string_view suffix);

// ---- Detour files (issue 20) -------------------------------------------------------------------
// --navmesh-out / --tile-out: an OBJ bake's whole navmesh (not a 2D map, not with --tile). Called
// by apply_args.
nav::Status apply_detour_args(const Args& a, const Job& job);
// DIR/tile_X_Y.bin, the file --tile-out writes for tile (x, y) (column, row; solo: 0, 0).
std::string tile_out_path(const std::string& dir, int x, int y);

}  // namespace navbake
