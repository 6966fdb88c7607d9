// A bake split over machines (issue 20, part 5): `navbake MESH --tiles X0,Y0:X1,Y1 --tile-out DIR`
// bakes a rectangle of the tile grid (one job of a Slurm job array, an xargs -P process, a
// Kubernetes indexed Job pod) and `navbake --merge DIR --navmesh-out FILE` assembles the tiles of
// every job into the MSET file a one-process `navbake MESH --navmesh-out FILE` writes, byte for
// byte. The tiles are independent (each bakes from its own bordered box of the mesh), so a tile
// baked alone is the tile baked with the others.
//
// The directory the jobs share:
//   grid.json                 what every job expects of the whole bake: the grid (cols, rows), the
//                             mesh's triangle count, the navmesh origin and tile size, the
//                             configuration (but threads). Every job writes it
//                             identically (the first creates it, the others check it is theirs),
//                             so jobs of different meshes or parameters cannot mix in one DIR.
//   tiles_X0_Y0_X1_Y1.json    one per job, written after its tiles: the rectangle it baked and
//                             which of its tiles were empty (no polygons: no tile file). Its
//                             presence says the job finished.
//   tile_X_Y.bin              one Detour tile per baked, non-empty tile (navbake --tile-out).
// The merge checks that the jobs' rectangles cover the grid once (a gap: "missing tile 3,1"; an
// overlap: "duplicate tile"), that every tile file is one a job listed and carries its own x, y in
// its Detour header, and then writes the MSET in the one-process tile order.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/navbake_args.h"
#include "core/common.h"
#include "core/runtime/detour_format.h"

namespace navbake {

// What every job of one split bake agrees on (grid.json).
struct SplitGrid {
    int cols = 0, rows = 0;
    int triangles = 0;  // the mesh's: with orig, tells another mesh apart
    float orig[3] = {0, 0, 0};
    float tile_width = 0, tile_height = 0;
    std::string config;  // the bake's parameters as JSON text (config_json): jobs of one bake share it
};

// grid.json's text: floats with 9 significant digits (they read back to the same float).
std::string split_grid_text(const SplitGrid& g);

// Writes DIR/grid.json, or checks the one there is the same bake's (bad_input naming what
// differs: another mesh, other parameters, another tile size).
nav::Status write_split_grid(const std::string& dir, const SplitGrid& g);

// DIR/tiles_X0_Y0_X1_Y1.json for rectangle r (x0, y0, x1, y1) once its tiles are written; `empty`
// lists the tiles of r with no polygons (x, y pairs).
nav::Status write_split_manifest(const std::string& dir, const int* r, const std::vector<std::pair<int, int>>& empty);

// Reads DIR (every check above) into the MSET file's contents. max_bytes limits each file read.
nav::Status merge_split(const std::string& dir, uint64_t max_bytes, nav::DetourMeshFile& out);

// navbake's three runs (main calls them; bad input is exit code 2 there):
// --tile-grid: loads the mesh, prints "COLS ROWS" of its tile grid on stdout, bakes nothing.
nav::Status run_tile_grid(const Args& a, const Job& job);
// --tiles: bakes the rectangle's tiles, writes their files, grid.json and the job's manifest.
nav::Status run_tiles_job(const Args& a, const Job& job);
// --merge: merge_split, then the MSET file (--navmesh-out).
nav::Status run_merge(const Args& a, const Job& job);

}  // namespace navbake
