// navkit bake: baking a navmesh from triangle soup (navkit::bake, pkg-config navkit). Links the
// runtime (include <navkit/runtime.h> for the queries), oneTBB and assimp; everything is in namespace nav.
//
// Include this header, not the ones it gathers: those are installed as <navkit/detail/core/...>
// (core/... in the source tree, as named below) and are no interface of their own.
//
//   Pipeline         owns the mesh, the inputs and every stage's result; its options (PipelineDef:
//                    memory limit, intermediates kept, task hook...) are given to the constructor.
//                    load_mesh(path) or set_mesh(InputMesh), set_inputs(BakeInputs) (parameters,
//                    volumes, areas, obstacles, links, prune) or set_param("cell_size", "0.2"),
//                    run() (only what a change made dirty is rebuilt), snapshot() -> Bake: the
//                    immutable results (navmesh, polymesh, detail, per-stage stats, tiles).
//   Params           every parameter (param_table(): name, unit, default, range, help);
//                    load_config_file / parse_config_json read the JSON configs.
//   Task hook        PipelineDef::task_hook: a tiled bake runs its workers on the game's own job
//                    system instead of oneTBB (see TaskHook in core/pipeline/pipeline.h).
//   Stages           each stage is also a plain function over flat arrays (rasterize_triangles,
//                    build_compact_heightfield, erode_walkable_area, build_distance_field,
//                    build_regions_watershed, build_contours, build_poly_mesh,
//                    build_poly_mesh_detail, make_nav_tile...), for a game's own pipeline.
//   InputMesh        triangle soup; load_level reads OBJ (our reader, load_obj) or glTF/GLB, FBX,
//                    Collada, PLY, STL, 3DS (assimp), with checked limits (core/formats/level_import.h).
//   write_navmesh_obj, write_tile_obj   the polygon mesh or one tile as OBJ.
//   make_detour_mesh a finished bake as Detour's MSET file (core/formats/detour_export.h; write it
//                    with write_mset); gltf_bake_layers / write_gltf: the layers as glTF.
//   Why              explain_point(bake, point): the story of a world point through every stage
//                    and the first stage that lost it; find_fix: the smallest change of the
//                    deciding parameter, verified by a bake; explain_path: why A cannot reach B
//                    (core/explain/why.h).
#pragma once

#include <navkit/runtime.h>

#include "core/bake/erode.h"
#include "core/bake/filter.h"
#include "core/formats/detour_export.h"
#include "core/formats/gltf_export.h"
#include "core/formats/level_import.h"
#include "core/formats/obj_export.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "core/explain/why.h"
