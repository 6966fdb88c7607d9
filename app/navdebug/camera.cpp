#include "camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace navdebug {

namespace {
constexpr float kMaxPitch = glm::radians(89.0f);

glm::vec3 dir_from(float yaw, float pitch) {
    return {std::cos(pitch) * std::cos(yaw), std::sin(pitch), std::cos(pitch) * std::sin(yaw)};
}

glm::mat3 basis(float yaw, float pitch) {
    const glm::vec3 f = dir_from(yaw, pitch);
    const glm::vec3 r = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
    const glm::vec3 u = glm::cross(r, f);
    return glm::mat3(r, u, f);
}
}  // namespace

glm::vec3 Camera::forward() const { return dir_from(yaw, pitch); }
glm::vec3 Camera::right() const { return glm::normalize(glm::cross(forward(), glm::vec3(0, 1, 0))); }
glm::vec3 Camera::up() const { return glm::cross(right(), forward()); }

void Camera::look_at(const glm::vec3& from, const glm::vec3& target) {
    eye = from;
    glm::vec3 d = target - from;
    const float len = glm::length(d);
    if (len < 1e-6f) return;
    d /= len;
    pitch = std::clamp(std::asin(std::clamp(d.y, -1.0f, 1.0f)), -kMaxPitch, kMaxPitch);
    if (std::fabs(d.x) + std::fabs(d.z) > 1e-6f) yaw = std::atan2(d.z, d.x);
}

void Camera::set_scene_scale(float diagonal) {
    diagonal = std::max(diagonal, 1e-3f);
    near_z = diagonal * 0.002f;
    far_z = diagonal * 20.0f;
    speed = diagonal * 0.25f;
}

void Camera::frame(const glm::vec3& bmin, const glm::vec3& bmax, const ViewRect& rect) {
    const glm::vec3 c = (bmin + bmax) * 0.5f;
    const glm::mat3 b = basis(yaw, pitch);
    const float ty = std::tan(fov_y * 0.5f);
    const float tx = ty * rect.w / std::max(rect.h, 1.0f);
    // the smallest distance D along -forward at which every corner is inside the frustum
    float dist = 0.0f;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 p((i & 1) ? bmax.x : bmin.x, (i & 2) ? bmax.y : bmin.y, (i & 4) ? bmax.z : bmin.z);
        const glm::vec3 d = p - c;
        const float cx = glm::dot(d, b[0]), cy = glm::dot(d, b[1]), cz = glm::dot(d, b[2]);
        dist = std::max(dist, std::fabs(cx) / tx - cz);
        dist = std::max(dist, std::fabs(cy) / ty - cz);
    }
    dist = std::max(dist * 1.04f, near_z * 4.0f);
    eye = c - b[2] * dist;
}

void Camera::frame_default(const glm::vec3& bmin, const glm::vec3& bmax, const ViewRect& rect) {
    set_scene_scale(glm::length(bmax - bmin));
    yaw = glm::radians(-125.0f);
    pitch = glm::radians(-42.0f);
    frame(bmin, bmax, rect);
}

void Camera::rotate(float dyaw, float dpitch) {
    yaw = std::remainder(yaw + dyaw, 2.0f * glm::pi<float>());
    pitch = std::clamp(pitch + dpitch, -kMaxPitch, kMaxPitch);
}

void Camera::orbit(const glm::vec3& pivot, float dyaw, float dpitch) {
    const glm::mat3 before = basis(yaw, pitch);
    rotate(dyaw, dpitch);
    const glm::mat3 after = basis(yaw, pitch);
    // express the eye offset in the old camera frame, rebuild it in the new one
    const glm::vec3 off = eye - pivot;
    const glm::vec3 local(glm::dot(off, before[0]), glm::dot(off, before[1]), glm::dot(off, before[2]));
    eye = pivot + after * local;
}

void Camera::fly(const glm::vec3& m) { eye += right() * m.x + glm::vec3(0, 1, 0) * m.y + forward() * m.z; }

glm::mat4 Camera::view() const { return glm::lookAt(eye, eye + forward(), glm::vec3(0, 1, 0)); }

glm::mat4 Camera::projection(const ViewRect& r, float W, float H) const {
    const glm::mat4 p = glm::perspective(fov_y, r.w / std::max(r.h, 1.0f), near_z, far_z);
    // squeeze the rect's NDC square into its place in the window
    const float sx = r.w / W, sy = r.h / H;
    const float cx = (r.x + r.w * 0.5f) / W * 2.0f - 1.0f;
    const float cy = 1.0f - (r.y + r.h * 0.5f) / H * 2.0f;
    glm::mat4 m(1.0f);
    m[0][0] = sx;
    m[1][1] = sy;
    m[3][0] = cx;
    m[3][1] = cy;
    return m * p;
}

void Camera::ray(const glm::mat4& view_proj, float mx, float my, float W, float H, glm::vec3& orig,
                 glm::vec3& dir) const {
    const glm::mat4 inv = glm::inverse(view_proj);
    const float x = mx / W * 2.0f - 1.0f, y = 1.0f - my / H * 2.0f;
    glm::vec4 a = inv * glm::vec4(x, y, -1.0f, 1.0f);
    glm::vec4 b = inv * glm::vec4(x, y, 1.0f, 1.0f);
    a /= a.w;
    b /= b.w;
    orig = glm::vec3(a);
    dir = glm::normalize(glm::vec3(b - a));
}

}  // namespace navdebug
