#version 330 core
in vec4 g_color;
in vec3 g_base;
uniform float u_alpha;  // opacity multiplier of this draw
out vec4 o_color;

#include "cut.glsl"

void main() {
    if (cut_away(g_base)) discard;
    o_color = vec4(floor_tint(g_color.rgb, g_base.y), g_color.a * u_alpha);
}
