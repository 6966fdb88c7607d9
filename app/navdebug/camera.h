// The debugger camera: RecastDemo habits (fly with W/A/S/D and Q/E, right-drag to look, wheel to
// dolly) plus orbit around a pivot, and framing of a bounding box. The projection can be shifted
// off-axis so the scene is centred in the part of the window the panels leave free.
#pragma once
#include <glm/glm.hpp>

namespace navdebug {

struct ViewRect {
    float x = 0, y = 0, w = 1, h = 1;  // pixels, top-left origin, within a window of size W x H
};

class Camera {
public:
    glm::vec3 eye{0.0f, 10.0f, 10.0f};
    float yaw = 0.0f;    // radians; forward = (cos p cos y, sin p, cos p sin y)
    float pitch = 0.0f;  // radians, clamped to +-89 degrees
    float fov_y = glm::radians(50.0f);
    float near_z = 0.05f, far_z = 1000.0f;
    float speed = 10.0f;  // fly speed, world units per second

    glm::vec3 forward() const;
    glm::vec3 right() const;
    glm::vec3 up() const;

    void look_at(const glm::vec3& from, const glm::vec3& target);
    // Sets near/far planes and fly speed from the scene size.
    void set_scene_scale(float diagonal);
    // Places the camera looking at the box centre along the current orientation, as near as it can
    // while the whole box stays inside the view rectangle.
    void frame(const glm::vec3& bmin, const glm::vec3& bmax, const ViewRect& rect);
    // The default view of a box: from above one corner, looking down about 40 degrees.
    void frame_default(const glm::vec3& bmin, const glm::vec3& bmax, const ViewRect& rect);

    // Turns the camera by (dyaw, dpitch) and moves it so `pivot` stays where it is on screen.
    void orbit(const glm::vec3& pivot, float dyaw, float dpitch);
    void rotate(float dyaw, float dpitch);
    void fly(const glm::vec3& local_move);  // x right, y world up, z forward; world units

    glm::mat4 view() const;
    // Projection for a window of size (W, H) whose scene is centred in `rect`.
    glm::mat4 projection(const ViewRect& rect, float W, float H) const;
    // Ray through window pixel (mx, my) (top-left origin): origin and unit direction.
    void ray(const glm::mat4& view_proj, float mx, float my, float W, float H, glm::vec3& orig, glm::vec3& dir) const;
};

}  // namespace navdebug
