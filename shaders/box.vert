// Voxel and span layers: one instance per span (cell x, z, the span's y range in cells and its
// colour, 16 bytes) placed on a unit box or a unit floor quad. The fragment stage is tri.frag, so
// shading, patterns and the view cut are those of plain triangles.
#version 330 core
layout(location = 0) in vec3 a_corner;  // unit mesh corner, each coordinate 0 or 1
layout(location = 1) in float a_shade;  // colour factor of the face (0.8 on a box's bottom)
layout(location = 2) in uvec2 i_xz;     // cell
layout(location = 3) in uvec2 i_y;      // span bottom, top in cell heights
layout(location = 4) in vec4 i_color;

uniform mat4 u_view_proj;
uniform float u_lift;       // world-space y offset of this draw (stacked layers)
uniform vec3 u_span_origin; // the grid's minimum corner
uniform vec3 u_span_cell;   // cs (times the level's block size), ch, and the list's own lift above the span top
uniform int u_hide_faces;   // 1: faces flagged in i_xz.y's top bits (covered by a neighbour) are left out

out vec3 v_world;
out vec3 v_base;  // before the draw's lift: what the view cut tests
out vec4 v_color;

void main() {
    uint z = i_xz.y & 0x3FFFFFFu;  // kSpanCellMask: the top 6 bits flag hidden faces
    uint face = uint(gl_VertexID) / 4u;  // the unit mesh's index: 4 corners per face
    if (u_hide_faces != 0 && ((i_xz.y >> 26u) & (1u << face)) != 0u) {
        // outside the clip volume on all three corners: the triangle is dropped before rasterizing
        gl_Position = vec4(0.0, 0.0, -2.0, 1.0);
        v_world = vec3(0.0);
        v_base = vec3(0.0);
        v_color = vec4(0.0);
        return;
    }
    float y = float(a_corner.y > 0.5 ? i_y.y : i_y.x);
    vec3 p = vec3(u_span_origin.x + float(i_xz.x) * u_span_cell.x + a_corner.x * u_span_cell.x,
                  u_span_origin.y + y * u_span_cell.y + u_span_cell.z,
                  u_span_origin.z + float(z) * u_span_cell.x + a_corner.z * u_span_cell.x);
    v_base = p;
    p.y += u_lift;
    v_world = p;
    v_color = vec4(i_color.rgb * a_shade, i_color.a);
    gl_Position = u_view_proj * vec4(p, 1.0);
}
