#version 330 core
in vec4 g_color;
out vec4 o_color;

void main() { o_color = g_color; }
