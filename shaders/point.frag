#version 330 core
in vec4 v_color;
in vec3 v_base;
uniform float u_alpha;  // opacity multiplier of this draw
out vec4 o_color;

#include "cut.glsl"

void main() {
    if (cut_away(v_base)) discard;
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 > 1.0) discard;
    // dark rim so points read on any background
    float rim = smoothstep(0.55, 0.85, r2);
    vec3 c = floor_tint(v_color.rgb, v_base.y);
    o_color = vec4(mix(c, c * 0.25, rim), v_color.a * u_alpha);
}
