// The --pairs reader on arbitrary text, line by line as navbake reads it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/bake/input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    long line_no = 0;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        float s[3], e[3];
        bool has = false;
        if (!nav::parse_pair_line(line, "fuzz.txt", ++line_no, s, e, has)) return 0;
        if (has)
            for (int k = 0; k < 3; ++k)
                if (!(std::fabs(s[k]) <= nav::kMaxCoordinate) || !(std::fabs(e[k]) <= nav::kMaxCoordinate)) std::abort();
    }
    return 0;
}
