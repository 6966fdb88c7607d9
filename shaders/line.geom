// Expands a line segment to a quad u_width pixels wide (core profiles have no wide lines).
// Segments crossing the camera plane are clipped to it first.
#version 330 core
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;

uniform vec2 u_viewport;    // pixels
uniform float u_width;      // pixels
uniform float u_depth_bias; // NDC depth pulled towards the viewer, keeps lines above their faces

in vec4 v_color[];
in vec3 v_base[];
out vec4 g_color;
out vec3 g_base;

void main() {
    vec4 p0 = gl_in[0].gl_Position;
    vec4 p1 = gl_in[1].gl_Position;
    const float eps = 1e-5;
    if (p0.w < eps && p1.w < eps) return;
    if (p0.w < eps) p0 = mix(p0, p1, (eps - p0.w) / (p1.w - p0.w));
    else if (p1.w < eps) p1 = mix(p1, p0, (eps - p1.w) / (p0.w - p1.w));

    vec2 half_vp = 0.5 * u_viewport;
    vec2 s0 = p0.xy / p0.w * half_vp;
    vec2 s1 = p1.xy / p1.w * half_vp;
    vec2 d = s1 - s0;
    float len = length(d);
    d = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    vec2 off = vec2(-d.y, d.x) * (0.5 * u_width) / half_vp;

    p0.z -= u_depth_bias * p0.w;
    p1.z -= u_depth_bias * p1.w;

    g_color = v_color[0];
    g_base = v_base[0];
    gl_Position = p0 + vec4(off * p0.w, 0.0, 0.0); EmitVertex();
    g_color = v_color[0];
    g_base = v_base[0];
    gl_Position = p0 - vec4(off * p0.w, 0.0, 0.0); EmitVertex();
    g_color = v_color[1];
    g_base = v_base[1];
    gl_Position = p1 + vec4(off * p1.w, 0.0, 0.0); EmitVertex();
    g_color = v_color[1];
    g_base = v_base[1];
    gl_Position = p1 - vec4(off * p1.w, 0.0, 0.0); EmitVertex();
    EndPrimitive();
}
