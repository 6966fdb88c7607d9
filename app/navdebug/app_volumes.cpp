// App: the Volumes tool in the view (volume_tool.h): clicks, the volumes placed by --add-volume,
// the size of a pixel where a point was picked.
#include <imgui.h>

#include <cmath>
#include <string>

#include "app.h"

namespace navdebug {

namespace {
constexpr float kCloseRadiusPx = 10.0f;  // a click this close to the first point closes the volume
constexpr float kGrabRadiusPx = 8.0f;    // a press this close to a hull point's edge grabs it
}

float App::metres_per_pixel(const glm::vec3& p) const {
    const float depth = std::max(glm::dot(p - view_.cam.eye, view_.cam.forward()), view_.cam.near_z);
    return 2.0f * depth * std::tan(view_.cam.fov_y * 0.5f) / std::max(view_.rect.h, 1.0f);
}

float App::volume_close_radius() const {
    const std::span<const float> pts = sel_.volume.points();
    if (pts.size() < 3) return 0.0f;
    return kCloseRadiusPx * metres_per_pixel(glm::vec3(pts[0], pts[1], pts[2]));
}

float App::volume_grab_radius(const glm::vec3* ground) const {
    const int sel = sel_.volume.selected();
    if (sel < 0 || sel >= static_cast<int>(edit_.desired.volumes.size())) return 0.0f;
    if (ground) return kGrabRadiusPx * metres_per_pixel(*ground);
    // no level under the cursor: at the volume's middle
    const nav::ConvexVolume& v = edit_.desired.volumes[static_cast<size_t>(sel)];
    glm::vec3 c(0.0f, 0.5f * (v.hmin + v.hmax), 0.0f);
    const size_t n = v.verts.size() / 3;
    for (size_t k = 0; k < n; ++k) c += glm::vec3(v.verts[3 * k], 0.0f, v.verts[3 * k + 2]) / static_cast<float>(n);
    return kGrabRadiusPx * metres_per_pixel(c);
}

void App::volume_tool_click(float W, float H) {
    ImGuiIO& io = ImGui::GetIO();
    if (sel_.tool != Selection::Tool::Volume || view_.drag != ViewState::Drag::None || io.WantCaptureMouse || io.KeyAlt ||
        !ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        return;
    glm::vec3 hit, o, d;
    const bool got = pick_under_cursor(W, H, hit);
    view_.cam.ray(view_.view_proj, io.MousePos.x, io.MousePos.y, W, H, o, d);
    const float radius = sel_.volume.points().empty() ? volume_grab_radius(got ? &hit : nullptr) : volume_close_radius();
    switch (sel_.volume.press(edit_.desired.volumes, &o.x, &d.x, got ? &hit.x : nullptr, radius, io.KeyShift)) {
    case VolumeTool::Press::Closed:
        log_.info("volume " + std::to_string(edit_.desired.volumes.size() - 1) + " added (" +
                  std::to_string(edit_.desired.volumes.back().verts.size() / 3) + " hull points)");
        break;
    case VolumeTool::Press::Refused:
        log_.warn("volume: " + sel_.volume.error());
        break;
    case VolumeTool::Press::Selected:
        log_.info("volume " + std::to_string(sel_.volume.selected()) + " selected (Delete removes it)");
        break;
    case VolumeTool::Press::Grabbed:
    case VolumeTool::Press::Moving:
    case VolumeTool::Press::Point:
    case VolumeTool::Press::None:
        break;
    }
}

void App::place_cli_volumes() {
    // once the first bake of the level is in and the worker has it all: as clicks, then Enter
    if ((opts_.add_volumes.empty() && opts_.move_volume_points.empty()) || !pub_.raw || !pub_.raw->mesh || worker_.busy() || edit_.unrequested()) return;
    for (const AppOptions::CliVolume& cv : opts_.add_volumes) {
        uint8_t id = 0;
        if (!edit_.desired.areas.id_of(cv.area, id)) {  // main checked the names against the config's table
            log_.error("--add-volume: unknown area '" + cv.area + "' (expected " + edit_.desired.areas.names() + ")");
            continue;
        }
        const uint8_t area = sel_.volume.area();
        sel_.volume.set_area(id);
        sel_.volume.cancel();
        const float down[3] = {0.0f, -1.0f, 0.0f};
        for (size_t k = 0; k + 2 < cv.pts.size(); k += 3) {
            const float above[3] = {cv.pts[k], cv.pts[k + 1] + 10.0f, cv.pts[k + 2]};
            sel_.volume.press(edit_.desired.volumes, above, down, &cv.pts[k], 0.0f, true);
        }
        if (sel_.volume.close(edit_.desired.volumes))
            log_.info("--add-volume: volume " + std::to_string(edit_.desired.volumes.size() - 1) + " of " + cv.area + " added");
        else
            log_.error("--add-volume: " + sel_.volume.error());
        sel_.volume.set_area(area);
    }
    opts_.add_volumes.clear();
    // then the point moves, as the panel's point fields make them
    for (const AppOptions::CliPointMove& m : opts_.move_volume_points) {
        const std::string what = "--move-volume-point " + std::to_string(m.volume) + ":" + std::to_string(m.point);
        if (m.volume >= edit_.desired.volumes.size() || m.point >= edit_.desired.volumes[m.volume].verts.size() / 3) {
            log_.error(what + ": no such volume point");  // main checked them; a session may have other volumes
            continue;
        }
        sel_.volume.select(static_cast<int>(m.volume));
        sel_.volume.begin_point_edit(edit_.desired.volumes, m.point);
        const bool moved = sel_.volume.set_point_xz(edit_.desired.volumes, m.x, m.z);
        sel_.volume.end_point_edit();
        if (moved)
            log_.info(what + ": moved to (" + std::to_string(m.x) + ", " + std::to_string(m.z) + "), " +
                      std::to_string(edit_.desired.volumes[m.volume].verts.size() / 3) + " hull points");
        else
            log_.warn(what + ": the volume is unchanged (the points so make no polygon, or the point did not move)");
    }
    opts_.move_volume_points.clear();
}

}  // namespace navdebug
