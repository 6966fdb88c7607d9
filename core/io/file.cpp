#include "core/io/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
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

// ---- writing --------------------------------------------------------------------------------

Status check_output_path(const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty()) return Status::bad_input("empty path (expected a file name to write)");
    std::error_code ec;
    const fs::path p(path);
    const fs::file_status fst = fs::status(p, ec);
    if (fs::is_directory(fst)) return Status::bad_input(path + ": is a directory, expected a file");
    if (fs::exists(fst)) {
        if (fs::is_socket(fst)) return Status::bad_input(path + ": is a socket, expected a file");
        if (::access(path.c_str(), W_OK) != 0) return Status::bad_input(path + ": not writable");
        if (!fs::is_regular_file(fst)) return Status::ok();  // a device or pipe: written in place
    }
    // a new file, or a regular one replaced by rename: the directory of the file a symlink points to
    const fs::path target = fs::weakly_canonical(fs::absolute(p, ec), ec);
    const fs::path dir = ec ? (p.has_parent_path() ? p.parent_path() : fs::path(".")) : target.parent_path();
    if (!fs::is_directory(dir, ec))
        return Status::bad_input(path + ": directory " + dir.string() + " does not exist");
    if (::access(dir.c_str(), W_OK) != 0)
        return Status::bad_input(path + ": directory " + dir.string() + " is not writable");
    return Status::ok();
}

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa {}, sb {};
    const bool ea = ::stat(a.c_str(), &sa) == 0, eb = ::stat(b.c_str(), &sb) == 0;
    if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb) return false;  // one exists, the other not
    std::error_code ec1, ec2;
    namespace fs = std::filesystem;
    const auto ca = fs::weakly_canonical(fs::absolute(a, ec1), ec1), cb = fs::weakly_canonical(fs::absolute(b, ec2), ec2);
    return ec1 || ec2 ? a == b : ca == cb;
}

OutputFile::~OutputFile() {
    if (f_) std::fclose(f_);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
}

Status OutputFile::fail(const std::string& what, int err) {
    if (f_) std::fclose(f_);
    f_ = nullptr;
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    tmp_.clear();
    return Status::bad_input(path_ + ": " + what + (err ? std::string(": ") + std::strerror(err) : std::string()));
}

Status OutputFile::open(const std::string& path) {
    namespace fs = std::filesystem;
    path_ = path;
    if (Status st = check_output_path(path); !st) return st;
    struct stat st {};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {  // a device or a pipe: in place
        f_ = std::fopen(path.c_str(), "wb");
        if (!f_) return fail("cannot open for writing", errno);
        target_ = path;
        return Status::ok();
    }
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec) return fail("cannot resolve the path", ec.value());
    target_ = target.string();
    // O_EXCL on a fresh name: never another process's file, and the umask applies as to any new file
    static std::atomic<unsigned> counter{0};
    const auto salt = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        const fs::path tmp = target.parent_path() / ("." + target.filename().string() + ".navkit-tmp-" +
                                                     std::to_string(::getpid()) + "-" + std::to_string(counter++) +
                                                     "-" + std::to_string((salt >> (attempt % 32)) & 0xffffff));
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) tmp_ = tmp.string();
        else if (errno != EEXIST) return fail("cannot create a temporary file in " + target.parent_path().string(), errno);
    }
    if (fd < 0) return fail("cannot create a temporary file in " + target.parent_path().string(), EEXIST);
    if (exists) (void)::fchmod(fd, st.st_mode & 07777);  // replacing a file keeps its permissions
    f_ = ::fdopen(fd, "wb");
    if (!f_) {
        const int err = errno;
        ::close(fd);
        return fail("cannot open for writing", err);
    }
    return Status::ok();
}

void OutputFile::write(std::string_view s) {
    if (!f_ || s.empty()) return;
    if (std::fwrite(s.data(), 1, s.size(), f_) != s.size() && first_errno_ == 0) first_errno_ = errno;
}

Status OutputFile::commit() {
    if (!f_) return Status::bad_input(path_ + ": not open for writing");
    // every failure below names the first error seen (a full disk, EFBIG beyond ulimit -f, EIO)
    if (std::fflush(f_) != 0 || std::ferror(f_))
        return fail("write failed", first_errno_ ? first_errno_ : errno);
    if (!tmp_.empty() && ::fsync(::fileno(f_)) != 0 && errno != EINVAL) return fail("write failed (fsync)", errno);
    const int rc = std::fclose(f_);
    const int err = errno;
    f_ = nullptr;
    if (rc != 0) return fail("write failed (close)", err);
    if (tmp_.empty()) return Status::ok();  // written in place
    if (::rename(tmp_.c_str(), target_.c_str()) != 0) return fail("cannot rename the temporary file into place", errno);
    tmp_.clear();
    // the rename itself is durable once the directory is synced (best effort: some file systems refuse)
    const std::string dir = std::filesystem::path(target_).parent_path().string();
    if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
    return Status::ok();
}

Status write_output_file(const std::string& path, std::string_view content) {
    OutputFile f;
    if (Status st = f.open(path); !st) return st;
    f.write(content);
    return f.commit();
}

}  // namespace nav
