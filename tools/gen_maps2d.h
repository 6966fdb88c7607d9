// gen_scenes' 2D maps (seed 002's input): JSON maps of known shape for navbake and the tests.
#pragma once
#include <string>

// Writes DIR/map2d_{rooms,maze,obstacles,grid}.json; false (with a message on stderr) on failure.
bool write_2d_maps(const std::string& dir);
