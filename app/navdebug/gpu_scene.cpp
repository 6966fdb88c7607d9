#include "gpu_scene.h"

#include <glad/gl.h>

namespace navdebug {

namespace r = nav::render;

void GpuScene::update_ground(const std::shared_ptr<const nav::InputMesh>& mesh) {
    if (mesh == ground_mesh) return;
    ground_mesh = mesh;
    ground_cpu.clear();
    if (ground_mesh) r::build_ground(ground_mesh->bmin, ground_mesh->bmax, ground_cpu);
    ground_gpu.upload(ground_cpu);
}

void GpuScene::upload_overlays() {
    overlay_gpu.upload(overlay_cpu);
    why_bold_gpu.upload(why_bold_cpu);
}

void GpuScene::draw_ground() {
    renderer.draw(ground_gpu);
    glClear(GL_DEPTH_BUFFER_BIT);
}

void GpuScene::draw_highlight(const BakeHighlight* h, bool shown, float top, bool xray) {
    if (diff_upload) {
        diff_gpu.upload(h ? h->overlay : r::DrawList{});
        diff_upload = false;
    }
    if (!shown || !h || diff_gpu.empty()) return;
    r::DrawStyle st = renderer.style();
    st.lift = top;
    st.xray = xray;
    renderer.set_style(st);
    renderer.draw(diff_gpu);
    renderer.set_style(r::DrawStyle{});
}

void GpuScene::draw_overlays() {
    renderer.draw(overlay_gpu);
    renderer.draw(why_bold_gpu);
}

}  // namespace navdebug
