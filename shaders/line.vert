// Lines: clip-space endpoints; line.geom widens each segment into a screen-space quad.
#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec4 a_color;

uniform mat4 u_view_proj;
uniform float u_lift;  // world-space y offset of this draw (stacked layers)

out vec4 v_color;
out vec3 v_base;  // world position before the lift, for the view cut

void main() {
    v_color = a_color;
    v_base = a_pos;
    gl_Position = u_view_proj * vec4(a_pos + vec3(0.0, u_lift, 0.0), 1.0);
}
