// Temporary files for tests that feed the loaders and command-line tools.
#pragma once
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/bake/input.h"

namespace navtest {

// A file under the temp dir, removed when the object dies.
class TempFile {
public:
    explicit TempFile(const std::string& suffix, const std::string& content = {}) {
        static std::atomic<int> n{0};
        path_ = (std::filesystem::temp_directory_path() /
                 ("navtest_" + std::to_string(::getpid()) + "_" + std::to_string(n++) + suffix))
                    .string();
        if (!content.empty() || suffix != ".none") {
            std::ofstream f(path_, std::ios::binary);
            f << content;
        }
    }
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// Writes a mesh as OBJ text (1-based indices).
inline std::string to_obj(const nav::InputMesh& m) {
    std::string s;
    char buf[128];
    for (int i = 0; i < m.vert_count(); ++i) {
        std::snprintf(buf, sizeof buf, "v %.6f %.6f %.6f\n", static_cast<double>(m.verts[static_cast<size_t>(i) * 3]),
                      static_cast<double>(m.verts[static_cast<size_t>(i) * 3 + 1]),
                      static_cast<double>(m.verts[static_cast<size_t>(i) * 3 + 2]));
        s += buf;
    }
    for (int i = 0; i < m.tri_count(); ++i) {
        std::snprintf(buf, sizeof buf, "f %d %d %d\n", m.tris[static_cast<size_t>(i) * 3] + 1,
                      m.tris[static_cast<size_t>(i) * 3 + 1] + 1, m.tris[static_cast<size_t>(i) * 3 + 2] + 1);
        s += buf;
    }
    return s;
}

// Runs a shell command, returns its exit code and captures stdout (+stderr when asked).
struct RunResult {
    int code = -1;
    std::string out;
};
inline RunResult run_cmd(const std::string& cmd, bool merge_stderr = true) {
    RunResult r;
    const std::string full = cmd + (merge_stderr ? " 2>&1" : " 2>/dev/null");
    FILE* p = ::popen(full.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int st = ::pclose(p);
    r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace navtest
