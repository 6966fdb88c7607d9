// The view cut shared by every fragment shader (included with #include "cut.glsl", which the
// renderer replaces by this text): the height clip, the section plane, the floor tint and the grey
// base (a draw's colours turned to grey under the change highlight, so its colours read alone). The
// position tested is the data's own world position, before a layer's lift.
uniform vec2 u_clip;   // kept height range: (min, max); (-1e30, 1e30) keeps everything
uniform vec4 u_plane;  // xyz normal, w = dot(normal, point on the plane): cut where dot(n, p) > w
uniform vec3 u_tint;   // x > 0.5: tint on; y: band origin; z: band height (metres)
uniform float u_grey;  // 0..1: how far this draw's colours are mixed towards their grey level

bool cut_away(vec3 p) { return p.y < u_clip.x || p.y > u_clip.y || dot(u_plane.xyz, p) > u_plane.w; }

// Keep in sync with floor_tint_color() in render/renderer.cpp: four hues far apart (green, blue,
// yellow, violet), none the path's magenta, none the navmesh's cyan, so stacked bands never merge.
// `ny`: the face's normal's y (1 for lines and points): a steep face (a wall) keeps its colour, so
// the tint marks floors and never stripes walls. Then the grey base (u_grey), which applies whether
// the tint is on or not.
const float kTintWallNy = 0.7;  // about 45 degrees, the default walkable slope
vec3 floor_tint_n(vec3 c, float y, float ny) {
    float l = dot(c, vec3(0.30, 0.59, 0.11));
    if (u_tint.x >= 0.5 && abs(ny) >= kTintWallNy) {
        int k = int(floor((y - u_tint.y) / u_tint.z));
        int i = ((k % 4) + 4) % 4;
        vec3 pal[4] = vec3[4](vec3(0.20, 0.85, 0.30), vec3(0.25, 0.45, 1.00), vec3(1.00, 0.90, 0.10),
                              vec3(0.60, 0.30, 1.00));
        // the band's hue at the colour's own brightness (dark edges stay dark, light input stays
        // light), strong enough that the band's hue wins over the layer's own
        c = mix(c, min(pal[i] * (1.6 * l), vec3(1.0)), 0.8);
        l = dot(c, vec3(0.30, 0.59, 0.11));
    }
    return mix(c, vec3(l), u_grey);
}
vec3 floor_tint(vec3 c, float y) { return floor_tint_n(c, y, 1.0); }
