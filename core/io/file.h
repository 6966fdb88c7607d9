// Reading the files a user gives, one way for every reader (OBJ, configs, sessions, 2D maps,
// Polyanya .mesh files, and the runtime's own files): the same checks, the same limits, the same
// words in the messages. Part of the runtime library (no dependency beyond the standard library);
// the bake and the 2D front end use it through the runtime.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

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

// ---- writing --------------------------------------------------------------------------------
// The files a user names for output (a tool's --obj-out / --mesh-out, a viewer's exports, sessions
// and screenshots), one way for every writer. Messages start with the path; callers prefix the
// flag ("--mesh-out /dev/full: write failed: No space left on device").

// An output path checked before a long run (so it does not end in "cannot write"): not empty, not
// a directory, writable if it exists, else its directory exists and is writable. Creates nothing.
Status check_output_path(const std::string& path);

// Whether two paths name one file: the same device and inode when both exist (symlinks and hard
// links followed), else the same weakly canonical path (two outputs not written yet). A file that
// is an input must never be an output, and two outputs must not be one file.
bool same_file(const std::string& a, const std::string& b);

// One output file. A new or regular file is written to a temporary file in the target's directory
// (.NAME.navkit-tmp-*), and commit() flushes, fsyncs, closes and checks it, then renames it over
// the target: a failed run never leaves half a file and never destroys the old one. A symlink is
// followed (the file it points to is replaced, the link stays); an existing file keeps its mode.
// An existing non-regular file (a device such as /dev/null or /dev/full, a pipe such as
// /dev/stdout) cannot be replaced: it is written in place, every write and the close checked, so
// /dev/full fails with "No space left on device". Not committed, the temporary file is removed.
class OutputFile {
public:
    OutputFile() = default;
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    Status open(const std::string& path);
    // The open stream, for fprintf; its errors are caught by commit().
    std::FILE* file() const { return f_; }
    void write(std::string_view s);
    Status commit();

private:
    Status fail(const std::string& what, int err);
    std::string path_, target_, tmp_;
    std::FILE* f_ = nullptr;
    int first_errno_ = 0;
};

// open, write, commit.
Status write_output_file(const std::string& path, std::string_view content);

}  // namespace nav
