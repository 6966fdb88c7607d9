#version 330 core
in vec4 g_color;
uniform float u_alpha;  // opacity multiplier of this draw
out vec4 o_color;

void main() { o_color = vec4(g_color.rgb, g_color.a * u_alpha); }
