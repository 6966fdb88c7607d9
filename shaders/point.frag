#version 330 core
in vec4 v_color;
uniform float u_alpha;  // opacity multiplier of this draw
out vec4 o_color;

void main() {
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 > 1.0) discard;
    // dark rim so points read on any background
    float rim = smoothstep(0.55, 0.85, r2);
    o_color = vec4(mix(v_color.rgb, v_color.rgb * 0.25, rim), v_color.a * u_alpha);
}
