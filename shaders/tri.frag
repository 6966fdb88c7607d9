// Flat lighting from the face normal (derivatives of the world position), a key light plus a
// hemispheric ambient term, and optional world-space patterns:
//   u_shade 0: plain colour
//   u_shade 1: voxel cell grid on the xz lattice (origin u_grid_origin, cell u_grid_cell)
//   u_shade 2: checker on the two axes across the dominant normal (cell u_grid_cell)
#version 330 core
in vec3 v_world;
in vec3 v_base;
in vec4 v_color;

uniform vec3 u_light_dir;   // unit vector towards the light
uniform vec3 u_eye;
uniform int u_shade;
uniform vec3 u_grid_origin;
uniform float u_grid_cell;
uniform float u_alpha;  // opacity multiplier of this draw
uniform int u_ceilings;  // 1: faces pointing down (by winding) are discarded where the eye is above them

#include "cut.glsl"

out vec4 o_color;

// 1 on a grid line of width ~1 pixel, 0 away from it (anti-aliased with fwidth).
float grid_line(float g) {
    float w = max(fwidth(g), 1e-6);
    float d = abs(fract(g - 0.5) - 0.5) / w;
    return 1.0 - clamp(d, 0.0, 1.0);
}

void main() {
    if (cut_away(v_base)) discard;
    vec3 n = normalize(cross(dFdx(v_world), dFdy(v_world)));
    if (dot(n, u_eye - v_world) < 0.0) n = -n;  // two-sided
    // the face's own normal by its winding (counter-clockwise = front): a ceiling faces down
    if (u_ceilings == 1 && (gl_FrontFacing ? n.y : -n.y) < -0.5 && u_eye.y > v_world.y) discard;

    float key = max(dot(n, u_light_dir), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    float light = 0.30 + 0.22 * hemi + 0.55 * key;

    vec3 c = floor_tint_n(v_color.rgb, v_base.y, n.y);  // walls untinted
    vec3 an = abs(n);
    if (u_shade == 1) {
        vec2 g = (v_world.xz - u_grid_origin.xz) / u_grid_cell;
        float lx = an.x > 0.5 ? 0.0 : grid_line(g.x);  // lines across a face, never on its plane
        float lz = an.z > 0.5 ? 0.0 : grid_line(g.y);
        c *= 1.0 - 0.28 * max(lx, lz);
    } else if (u_shade == 2) {
        vec3 p = (v_world - u_grid_origin) / u_grid_cell;
        vec2 uv = an.y >= an.x && an.y >= an.z ? p.xz : (an.x >= an.z ? p.yz : p.xy);
        vec2 fw = fwidth(uv);
        // fade the checker out where a cell gets smaller than a couple of pixels
        float fade = 1.0 - clamp((max(fw.x, fw.y) - 0.25) * 2.0, 0.0, 1.0);
        float k = mod(floor(uv.x) + floor(uv.y), 2.0);
        c *= 1.0 - 0.07 * k * fade;
    }
    o_color = vec4(c * light, v_color.a * u_alpha);
}
