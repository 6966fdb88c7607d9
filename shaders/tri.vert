// Lit triangles: world position and colour pass through; the normal is rebuilt per pixel from
// screen-space derivatives in tri.frag, so vertices carry no normal (16 bytes each).
#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_color;

uniform mat4 u_view_proj;

out vec3 v_world;
out vec4 v_color;

void main() {
    v_world = a_pos;
    v_color = a_color;
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
}
