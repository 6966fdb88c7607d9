// App: saving and loading sessions (session.h).
#include <imgui.h>

#include <filesystem>

#include "app.h"
#include "session.h"

namespace navdebug {

bool App::save_session(const std::string& path, std::string& err) const {
    Session s;
    if (bake_ && bake_->mesh && !bake_->mesh->path.empty())
        s.mesh = std::filesystem::absolute(bake_->mesh->path).lexically_normal().string();
    else if (!opts_.mesh_path.empty())
        s.mesh = std::filesystem::absolute(opts_.mesh_path).lexically_normal().string();
    s.has_config = true;
    s.params = desired_;
    s.volumes = volumes_;
    if (path_.has_start() && path_.has_end()) s.path = std::make_pair(path_.start(), path_.end());
    s.camera = std::make_pair(cam_.eye, cam_.eye + cam_.forward() * 10.0f);
    s.layers = opts_.layers;
    s.view = see_;
    s.tile_select = sel_tile_;
    s.tile_only = tile_only_;
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
    if (s.has_config) {
        desired_ = s.params;
        volumes_ = s.volumes;
    }
    if (s.layers) opts_.layers = *s.layers;
    if (s.view) see_ = *s.view;
    if (s.tile_select) sel_tile_ = s.tile_select;
    tile_only_ = s.tile_only && sel_tile_;
    if (s.path) {
        path_.set_start(s.path->first);
        path_.set_end(s.path->second);
    }
    if (s.camera) {
        cam_.look_at(s.camera->first, s.camera->second);
        camera_placed_ = true;
    }
    if (s.mesh && (!bake_ || !bake_->mesh || std::filesystem::path(bake_->mesh->path).lexically_normal() !=
                                                 std::filesystem::path(*s.mesh).lexically_normal())) {
        // the new mesh is framed only when the session has no camera
        if (s.camera) framed_mesh_.reset();
        open_mesh(*s.mesh, false);  // the session's own settings, set above
    }
    session_field_ = path;
    banner_.clear();
    log_.info("loaded session " + path);
}

}  // namespace navdebug
