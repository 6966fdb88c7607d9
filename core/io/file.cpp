#include "core/io/file.h"

#include <filesystem>
#include <fstream>
#include <string>

namespace nav {

Status read_input_file(const std::string& path, const std::string& what, uint64_t max_bytes, std::string& out) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status fst = fs::status(path, ec);
    if (ec || !fs::exists(fst)) return Status::bad_input(path + ": file not found, expected a " + what);
    if (fs::is_directory(fst)) return Status::bad_input(path + ": is a directory, expected a " + what);
    const bool regular = fs::is_regular_file(fst);
    if (!regular && !fs::is_fifo(fst))
        return Status::bad_input(path + ": not a regular file or a pipe (a device or socket), expected a " + what);
    const std::string limit = std::to_string(max_bytes) + " bytes (the input size limit for a " + what;
    if (regular) {
        const uintmax_t size = fs::file_size(path, ec);
        if (!ec && size > max_bytes)
            return Status::bad_input(path + ": " + std::to_string(size) + " bytes is over " + limit +
                                     "; raise it if this really is one)");
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) return Status::bad_input(path + ": cannot open for reading, expected a " + what);
    std::string text;
    char buf[1 << 16];
    while (f) {
        f.read(buf, sizeof buf);
        const auto got = static_cast<size_t>(f.gcount());
        if (got == 0) break;
        if (text.size() + got > max_bytes)
            return Status::bad_input(path + ": more than " + limit + "; raise it if this really is one)");
        text.append(buf, got);
    }
    if (f.bad()) return Status::bad_input(path + ": read error");
    out = std::move(text);
    return Status::ok();
}

Status check_input_file(const std::string& path, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status fst = fs::status(path, ec);
    if (ec || !fs::exists(fst)) return Status::bad_input(path + ": cannot open " + what + " (not found)");
    if (fs::is_directory(fst)) return Status::bad_input(path + ": is a directory, expected a " + what);
    if (!fs::is_regular_file(fst) && !fs::is_fifo(fst))
        return Status::bad_input(path + ": not a regular file or a pipe (a device or socket), expected a " + what);
    return Status::ok();
}

}  // namespace nav
