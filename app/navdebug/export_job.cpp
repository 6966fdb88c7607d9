#include "export_job.h"

#include <filesystem>
#include <new>

#include "core/formats/detour_export.h"
#include "core/formats/obj_export.h"
#include "core/io/file.h"

namespace navdebug {

namespace {

// NAME<ext> next to the bake's mesh (mesh.obj's name without one), or `path` when given.
std::string out_path(const nav::Bake& b, const char* ext, const std::string& path) {
    std::filesystem::path out = b.mesh->path.empty() ? std::filesystem::path("mesh.obj") : std::filesystem::path(b.mesh->path);
    out.replace_extension(ext);
    if (!path.empty()) out = path;
    return out.string();
}

// Writes the polygon and detail meshes of the bake as NAME.navmesh.obj next to the mesh.
ExportResult export_obj(const ExportJob& job, ExportResult r) {
    const nav::Bake* b = job.bake.get();
    if (!b || !b->polymesh || !b->mesh) {
        r.text = "export OBJ: no polygon mesh yet (bake through the polymesh stage first)";
        return r;
    }
    const std::string out = out_path(*b, ".navmesh.obj", {});
    const nav::PolyMeshDetail* dm = b->detail && b->detail->nmeshes == b->polymesh->npolys ? b->detail.get() : nullptr;
    if (const nav::Status st = nav::write_navmesh_obj(out, *b->polymesh, dm); !st) {
        r.text = "export OBJ: " + st.message;
        return r;
    }
    r.ok = true;
    r.out = out;
    r.text = "exported " + out + " (" + std::to_string(b->polymesh->npolys) + " polygons" +
             (dm ? ", " + std::to_string(dm->ntris) + " detail triangles)" : ", no detail mesh)");
    return r;
}

// The bake (solo or tiled) as Detour data in RecastDemo's all-tiles file (MSET), NAME.navmesh.bin
// next to the mesh or `path`.
ExportResult save_navmesh(const ExportJob& job, ExportResult r) {
    const nav::Bake* b = job.bake.get();
    nav::DetourMeshFile f;
    nav::Status st = job.map2d       ? nav::Status::bad_input(kNotABake)
                     : b && b->mesh ? nav::make_detour_mesh(*b, f)
                                    : nav::Status::bad_input("no bake yet");
    std::string out;
    std::vector<uint8_t> bytes;
    if (st) {
        out = out_path(*b, ".navmesh.bin", job.path);
        if (nav::same_file(out, b->mesh->path))
            st = nav::Status::bad_input(out + ": is the level being viewed; refusing to overwrite it");
        if (st) nav::write_mset(f, bytes);
        if (st) st = nav::write_output_file(out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
    if (!st) {
        r.text = "save navmesh: " + st.message;
        return r;
    }
    r.ok = true;
    r.out = out;
    r.text = "saved " + out + " (Detour navmesh, " + std::to_string(f.tiles.size()) + " tile" + (f.tiles.size() == 1 ? "" : "s") +
             ", " + std::to_string(bytes.size()) + " bytes)";
    return r;
}

// The visible layers of the bake (input, regions, contours raw or simplified, polygon mesh,
// detail mesh) and the path when the path layer is on, in the debugger's colours, as
// NAME.navmesh.glb next to the mesh (or `path`: navdebug --export-gltf).
ExportResult export_gltf(const ExportJob& job, ExportResult r) {
    const nav::Bake* b = job.bake.get();
    if (!b || !b->mesh || job.map2d) {
        r.text = job.map2d ? std::string("export glTF: ") + kNotABake : "export glTF: no bake yet (open a mesh first)";
        return r;
    }
    nav::GltfBakeLayers which = job.which;
    which.path = job.route.empty() ? nullptr : &job.route;
    const std::string out = out_path(*b, ".navmesh.glb", job.path);
    if (nav::same_file(out, b->mesh->path)) {
        r.text = "export glTF: " + out + ": is the level being viewed; refusing to overwrite it";
        return r;
    }
    std::vector<nav::GltfLayer> layers;
    try {
        if (const nav::Status st = nav::gltf_bake_layers(*b, which, layers); !st) {
            r.text = "export glTF: " + out + ": " + st.message;
            return r;
        }
        if (layers.empty()) {
            r.text = "export glTF: nothing to write (turn on a layer the bake has: input, regions, contours, "
                     "polymesh, detail or path)";
            return r;
        }
        if (const nav::Status st = nav::write_gltf(out, layers); !st) {
            r.text = "export glTF: " + st.message;
            return r;
        }
    } catch (const std::bad_alloc&) {
        r.text = "export glTF: " + out + ": out of memory (export fewer layers)";
        return r;
    }
    std::string names;
    for (const nav::GltfLayer& l : layers) names += (names.empty() ? "" : ", ") + l.name;
    r.ok = true;
    r.out = out;
    r.text = "exported " + out + " (nodes " + names + ")";
    return r;
}

}  // namespace

ExportResult run_export_job(const ExportJob& job) {
    ExportResult r;
    r.id = job.id;
    r.kind = job.kind;
    // A level too large for memory must cost the export, not the session (the worker).
    try {
        switch (job.kind) {
            case ExportJob::Kind::Obj: return export_obj(job, std::move(r));
            case ExportJob::Kind::Detour: return save_navmesh(job, std::move(r));
            case ExportJob::Kind::Gltf: return export_gltf(job, std::move(r));
        }
    } catch (const std::bad_alloc&) {
        r.ok = false;
        r.out.clear();
        r.text = std::string(job.kind == ExportJob::Kind::Obj ? "export OBJ" : "save navmesh") + ": out of memory";
    }
    return r;
}

}  // namespace navdebug
