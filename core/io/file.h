// Reading the files a user gives, one way for every reader (OBJ, configs, sessions, 2D maps,
// Polyanya .mesh files, and the runtime's own files): the same checks, the same limits, the same
// words in the messages. Part of the runtime library (no dependency beyond the standard library);
// the bake and the 2D front end use it through the runtime.
#pragma once
#include <cstdint>
#include <string>

#include "core/common.h"

namespace nav {

// The largest |coordinate| a mesh may have, metres (1000 km: far beyond any level, and float
// still resolves centimetres below 1e5). With it every later conversion is in range: the grid
// side (2e6 m / 0.02 m cells = 1e8) fits an int and check_grid refuses it with a message.
constexpr double kMaxCoordinate = 1e6;

// A file a reader may open: it exists and is a regular file or a pipe (not a directory or a
// device such as /dev/zero). `what` names it in the message ("pairs file").
Status check_input_file(const std::string& path, const std::string& what);
// Reads a file the user gave, whole: check_input_file, then at most max_bytes (a regular file's
// size is checked before reading, a pipe's while reading). Every input reader (OBJ, config,
// session, 2D map, .mesh) goes through it, so they refuse the same things with the same words.
// `what` names the expected kind ("OBJ file"); messages name the file and say "input size limit".
Status read_input_file(const std::string& path, const std::string& what, uint64_t max_bytes, std::string& out);

}  // namespace nav
