#include "published_bake.h"

namespace navdebug {

void PublishedBake::trim(nav::Stage to) {
    if (!raw || raw->built_through <= static_cast<int>(to)) {
        bake = raw;
        return;
    }
    if (raw != trim_src_ || to != trim_to_) {
        // A shallow copy without the results after the target stage: stepping back with Previous
        // shows the pipeline as it was after that stage, and Next shows the kept result again at once.
        auto t = std::make_shared<nav::Bake>(*raw);
        t->drop_after(static_cast<int>(to));
        trim_src_ = raw;
        trim_to_ = to;
        trim_out_ = std::move(t);
    }
    bake = trim_out_;
}

void PublishedBake::pick_drawn(const std::optional<TileXZ>& tile_only) {
    if (tile_only && bake && bake->tiled())
        drawn = bake == raw && view_tile == tile_only ? view : tile_view_.make(bake, *tile_only);
    else
        drawn = bake;
}

bool PublishedBake::stale(bool worker_busy) const {
    return raw && ((raw->built_through > 0 && (worker_busy || cancelled)) || (raw->partial && cancelled && !worker_busy));
}

void PublishedBake::take_scene_prune(BakeWorker& worker, const std::shared_ptr<const Map2DScene>& scene,
                                     const std::optional<glm::vec3>& point) {
    const bool same_scene = map2d && scene->bake && map2d->mesh == scene->bake->mesh;
    waiting_ = false;
    if (!scene->bake || !point) {
        map2d = scene->bake;  // nothing to compute
    } else {
        BakeWorker::ScenePrune made = worker.scene_prune();
        if (made.scene == scene && made.point == point) {
            map2d = made.bake;
        } else {
            // asked once (the last request is for another scene or point: asked again)
            if (asked_scene_ != scene || asked_point_ != point) {
                worker.request_scene_prune(scene, point);
                asked_scene_ = scene;
                asked_point_ = point;
            }
            waiting_ = true;
            if (!same_scene) map2d = scene->bake;  // this scene's last prune stays until the new one comes
        }
    }
}

void PublishedBake::forget_scene() {
    map2d.reset();
    asked_scene_.reset();
    asked_point_.reset();
    waiting_ = false;
}

}  // namespace navdebug
