// navbake's command line (app/navbake_args) on arbitrary arguments: each line of the input is one
// argv element after "navbake". parse_args then apply_args must accept or refuse (bad input with
// a message), never crash or throw, and what they accept is in range. parse_tile and parse_seed
// also run on the whole input: what they accept is digits (and one comma) and reads back the same;
// parse_point and parse_point_pair (--why, --why-path) accept finite coordinates only.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/navbake_args.h"

namespace {

bool digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

bool finite3(const float* p) { return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]); }

std::string strip_zeros(std::string_view s) {
    while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
    return std::string(s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    int x = -1, y = -1;
    if (navbake::parse_tile(text, x, y)) {
        const size_t comma = text.find(',');
        if (x < 0 || y < 0 || comma == std::string_view::npos || !digits(text.substr(0, comma)) ||
            !digits(text.substr(comma + 1)) || std::to_string(x) != strip_zeros(text.substr(0, comma)) ||
            std::to_string(y) != strip_zeros(text.substr(comma + 1)))
            std::abort();
    }
    uint64_t seed = 0;
    if (navbake::parse_seed(text, seed) && (!digits(text) || std::to_string(seed) != strip_zeros(text))) std::abort();

    float p[3], e[3];
    if (navbake::parse_point("--why", text, p) && !finite3(p)) std::abort();
    if (navbake::parse_point_pair(text, p, e) && (!finite3(p) || !finite3(e))) std::abort();

    std::vector<std::string> args = {"navbake"};
    size_t start = 0;
    while (start <= text.size() && args.size() < 24) {
        const size_t nl = text.find('\n', start);
        args.emplace_back(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
        if (nl == std::string_view::npos) break;
        start = nl + 1;
    }
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    navbake::Args a;
    std::ostringstream out, err;
    if (navbake::parse_args(static_cast<int>(argv.size()), argv.data(), a, out, err)) return 0;
    navbake::Job job;
    const nav::Status st = navbake::apply_args(a, job);
    if (!st) {
        if (st.code != nav::Status::Code::BadInput || st.message.empty()) std::abort();
        return 0;
    }
    if (a.tile_given && (job.tile_x < 0 || job.tile_y < 0)) std::abort();
    if (job.map2d && (a.tile_given || a.incremental_given || a.reps_given)) std::abort();
    if (!job.map2d && a.tile_given && job.inputs.params.i(nav::ParamId::tile_size) <= 0) std::abort();
    if ((job.why || job.why_path) && (job.map2d || a.tile_given || a.incremental_given)) std::abort();
    if ((job.why && !finite3(job.why_point)) || (job.why_path && (!finite3(job.why_start) || !finite3(job.why_end))))
        std::abort();
    return 0;
}
