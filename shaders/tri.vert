// Lit triangles: world position and colour pass through; the normal is rebuilt per pixel from
// screen-space derivatives in tri.frag, so vertices carry no normal (16 bytes each).
#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_color;

uniform mat4 u_view_proj;
uniform float u_lift;  // world-space y offset of this draw (stacked layers)

out vec3 v_world;
out vec3 v_base;  // before the lift: what the view cut tests
out vec4 v_color;

void main() {
    vec3 p = a_pos + vec3(0.0, u_lift, 0.0);
    v_world = p;
    v_base = a_pos;
    v_color = a_color;
    gl_Position = u_view_proj * vec4(p, 1.0);
}
