// The bake's exports (Files: Export OBJ, Save navmesh, Export glTF; --save-navmesh, --export-gltf)
// as jobs the bake worker runs (BakeWorker::request_export), off the UI thread: the UI asks with
// the bake it shows, the worker writes the file and publishes the line the UI logs.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/formats/gltf_export.h"
#include "core/pipeline/pipeline.h"

namespace navdebug {

// Why the bake's exports are greyed out while a Detour navmesh or a 2D map is open.
inline constexpr const char* kNotABake =
    "A loaded navmesh or 2D map is shown, not a bake: it has no bake to save or export (open a level to bake one).";

struct ExportJob {
    enum class Kind { Obj, Detour, Gltf };
    Kind kind = Kind::Obj;
    uint64_t id = 0;                        // BakeWorker::request_export numbers the jobs
    std::shared_ptr<const nav::Bake> bake;  // the bake shown when the export was asked for (may be null)
    bool map2d = false;                     // a Detour navmesh or 2D map is shown: no bake to export
    std::string path;                       // empty: NAME.navmesh.obj / .bin / .glb next to the mesh
    nav::GltfBakeLayers which;              // glTF: the visible layers (which.path is set from route)
    std::vector<float> route;               // glTF: the path tool's path when the path layer is on
};

struct ExportResult {
    uint64_t id = 0;
    ExportJob::Kind kind = ExportJob::Kind::Obj;
    bool ok = false;
    std::string text;  // the log line: what was written, or the error (also the UI's banner)
    std::string out;   // the file written (ok only)
};

// Runs the export (on the worker thread); never throws (out of memory is an error result).
ExportResult run_export_job(const ExportJob& job);

}  // namespace navdebug
