// App: saving and loading sessions (session.h).
#include <imgui.h>

#include <filesystem>

#include "app.h"
#include "session.h"

namespace navdebug {

bool App::save_session(const std::string& path, std::string& err) const {
    Session s;
    if (pub_.bake && pub_.bake->mesh && !pub_.bake->mesh->path.empty())
        s.mesh = std::filesystem::absolute(pub_.bake->mesh->path).lexically_normal().string();
    else if (!opts_.mesh_path.empty())
        s.mesh = std::filesystem::absolute(opts_.mesh_path).lexically_normal().string();
    s.has_config = true;
    s.inputs = edit_.desired;
    if (sel_.path.has_start() && sel_.path.has_end()) s.path = std::make_pair(sel_.path.start(), sel_.path.end());
    s.camera = std::make_pair(view_.cam.eye, view_.cam.eye + view_.cam.forward() * 10.0f);
    s.layers = opts_.layers;
    s.view = view_.see;
    s.tile_select = sel_.tile;
    s.tile_only = sel_.tile_only;
    s.why_point = sel_.why.point();
    s.why_path = sel_.why.path();
    const nav::Status st = save_session_file(path, s);
    if (!st) {
        err = st.message;
        return false;
    }
    return true;
}

void App::load_session(const std::string& path) {
    if (path.empty()) return;
    Session s;
    const nav::Status st = load_session_file(path, s);
    if (!st) {
        log_.error(st.message);
        set_error(st.message);
        return;
    }
    const bool new_level = s.mesh && (!pub_.bake || !pub_.bake->mesh || std::filesystem::path(pub_.bake->mesh->path).lexically_normal() !=
                                                              std::filesystem::path(*s.mesh).lexically_normal());
    if (new_level) forget_level_picks();  // then the session's own picks below
    if (s.has_config) {
        set_areas(s.inputs.areas);
        edit_.desired = s.inputs;
    }
    if (s.layers) opts_.layers = *s.layers;
    if (s.view) view_.see = *s.view;
    if (s.tile_select) sel_.tile = s.tile_select;
    sel_.tile_only = s.tile_only && sel_.tile;
    if (s.path) {
        sel_.path.set_start(s.path->first);
        sel_.path.set_end(s.path->second);
    }
    if (s.why_point) sel_.why.set_point(*s.why_point);
    else if (s.why_path) sel_.why.set_path(s.why_path->first, s.why_path->second);
    else sel_.why.clear();
    if (s.camera) {
        view_.cam.look_at(s.camera->first, s.camera->second);
        view_.camera_placed = true;
    }
    if (new_level) {
        // the new mesh is framed only when the session has no camera
        if (s.camera) view_.framed_mesh.reset();
        open_mesh(*s.mesh, false);  // the session's own settings, set above
    }
    panels_.session_field = path;
    panels_.banner.clear();
    log_.info("loaded session " + path);
}

}  // namespace navdebug
