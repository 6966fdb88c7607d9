#include "core/pipeline/chf_cache.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include <lz4.h>

namespace nav {

namespace {

constexpr uint32_t kMagic = 0x4643484e;  // "NHCF"
constexpr uint32_t kVersion = 1;

struct Header {
    uint32_t magic = kMagic;
    uint32_t version = kVersion;
    int32_t width = 0, height = 0;
    uint32_t span_count = 0;
    int32_t walkable_height = 0, walkable_climb = 0, border_size = 0;
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
    float cs = 0, ch = 0;
    uint64_t raw_bytes = 0;     // the payload before compression
    uint64_t packed_bytes = 0;  // the LZ4 block after the header
    uint64_t checksum = 0;      // of the header (this field 0) and the payload
};
static_assert(std::is_trivially_copyable_v<Header>);
static_assert(std::is_trivially_copyable_v<CompactCell> && sizeof(CompactCell) == 8);
static_assert(std::is_trivially_copyable_v<CompactSpan> && sizeof(CompactSpan) == 8);

// A word-at-a-time 64-bit mix (not cryptographic): catches a flipped bit, a swapped block, a
// truncation that LZ4 still decodes. About 3 GB/s, a few percent of a tile's compression.
uint64_t mix(uint64_t h, const uint8_t* p, size_t n) {
    constexpr uint64_t k = 0x9e3779b97f4a7c15ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * k;
        h ^= h >> 31;
    }
    uint64_t tail = n;
    for (; i < n; ++i) tail = (tail << 8) | p[i];
    h = (h ^ tail) * k;
    return h ^ (h >> 29);
}

uint64_t checksum(Header h, const uint8_t* payload, size_t n) {
    h.checksum = 0;
    return mix(mix(0x243f6a8885a308d3ull, reinterpret_cast<const uint8_t*>(&h), sizeof h), payload, n);
}

Status corrupt(const std::string& what) { return Status::bad_input("obstacle cache: " + what); }

}  // namespace

uint64_t chf_cache_raw_bytes(const CompactHeightfield& chf) {
    return uint64_t(chf.cells.size()) * sizeof(CompactCell) + uint64_t(chf.spans.size()) * (sizeof(CompactSpan) + 2);
}

Status compress_chf(const CompactHeightfield& chf, const std::vector<uint8_t>& eroded, std::vector<uint8_t>& out,
                    std::vector<uint8_t>& raw, std::vector<uint8_t>& packed) {
    const size_t ns = chf.spans.size();
    if (chf.span_count != ns || chf.areas.size() != ns || eroded.size() != ns ||
        chf.cells.size() != size_t(std::max(chf.width, 0)) * size_t(std::max(chf.height, 0)))
        return corrupt("the compact heightfield's arrays do not match its grid and span count");
    const uint64_t n = chf_cache_raw_bytes(chf);
    if (n > uint64_t(LZ4_MAX_INPUT_SIZE))
        return Status::bad_input("obstacle cache: a tile of " + std::to_string(n) + " bytes is over LZ4's block limit");
    raw.resize(static_cast<size_t>(n));
    uint8_t* p = raw.data();
    auto put = [&p](const void* src, size_t bytes) {
        if (bytes) std::memcpy(p, src, bytes);
        p += bytes;
    };
    put(chf.cells.data(), chf.cells.size() * sizeof(CompactCell));
    put(chf.spans.data(), ns * sizeof(CompactSpan));
    put(chf.areas.data(), ns);
    put(eroded.data(), ns);

    packed.resize(static_cast<size_t>(LZ4_compressBound(static_cast<int>(n))));
    const int got = LZ4_compress_default(reinterpret_cast<const char*>(raw.data()), reinterpret_cast<char*>(packed.data()),
                                         static_cast<int>(n), static_cast<int>(packed.size()));
    if (got <= 0 && n > 0) return Status::internal("obstacle cache: LZ4_compress_default failed");

    Header h;
    h.width = chf.width, h.height = chf.height, h.span_count = chf.span_count;
    h.walkable_height = chf.walkable_height, h.walkable_climb = chf.walkable_climb, h.border_size = chf.border_size;
    std::memcpy(h.bmin, chf.bmin, sizeof h.bmin);
    std::memcpy(h.bmax, chf.bmax, sizeof h.bmax);
    h.cs = chf.cs, h.ch = chf.ch;
    h.raw_bytes = n;
    h.packed_bytes = static_cast<uint64_t>(std::max(got, 0));
    h.checksum = checksum(h, raw.data(), raw.size());
    std::vector<uint8_t> blob(sizeof h + h.packed_bytes);  // exactly sized: it is kept per tile
    std::memcpy(blob.data(), &h, sizeof h);
    if (h.packed_bytes) std::memcpy(blob.data() + sizeof h, packed.data(), h.packed_bytes);
    out.swap(blob);
    return Status::ok();
}

Status decompress_chf(const std::vector<uint8_t>& blob, CompactHeightfield& chf, std::vector<uint8_t>& eroded,
                      std::vector<uint8_t>& raw) {
    Header h;
    if (blob.size() < sizeof h)
        return corrupt(std::to_string(blob.size()) + " bytes, shorter than its " + std::to_string(sizeof h) + "-byte header");
    std::memcpy(&h, blob.data(), sizeof h);
    if (h.magic != kMagic || h.version != kVersion) return corrupt("not a compact heightfield cache (bad magic or version)");
    if (h.width <= 0 || h.height <= 0) return corrupt("grid of " + std::to_string(h.width) + " x " + std::to_string(h.height));
    const uint64_t cells = uint64_t(h.width) * uint64_t(h.height);
    const uint64_t want = cells * sizeof(CompactCell) + uint64_t(h.span_count) * (sizeof(CompactSpan) + 2);
    if (h.raw_bytes != want || want > uint64_t(LZ4_MAX_INPUT_SIZE))
        return corrupt("payload of " + std::to_string(h.raw_bytes) + " bytes where the grid and span count need " +
                       std::to_string(want));
    if (h.packed_bytes != blob.size() - sizeof h || h.packed_bytes > uint64_t(LZ4_compressBound(static_cast<int>(want))))
        return corrupt("compressed block of " + std::to_string(blob.size() - sizeof h) + " bytes where the header says " +
                       std::to_string(h.packed_bytes));
    // LZ4 expands a block at most about 255 times: a header asking for more is not allocated.
    if (want > (h.packed_bytes + 16) * 256)
        return corrupt("a payload of " + std::to_string(want) + " bytes cannot come from " +
                       std::to_string(h.packed_bytes) + " compressed bytes");
    raw.resize(static_cast<size_t>(want));
    if (want > 0) {
        const int got = LZ4_decompress_safe(reinterpret_cast<const char*>(blob.data() + sizeof h),
                                            reinterpret_cast<char*>(raw.data()), static_cast<int>(h.packed_bytes),
                                            static_cast<int>(want));
        if (got < 0 || uint64_t(got) != want)
            return corrupt("the LZ4 block does not decode to its " + std::to_string(want) + " bytes");
    }
    if (checksum(h, raw.data(), raw.size()) != h.checksum) return corrupt("checksum mismatch");

    const size_t ns = h.span_count;
    const uint8_t* p = raw.data();
    chf.cells.resize(static_cast<size_t>(cells));
    std::memcpy(chf.cells.data(), p, chf.cells.size() * sizeof(CompactCell));
    p += chf.cells.size() * sizeof(CompactCell);
    for (const CompactCell& c : chf.cells)
        if (uint64_t(c.index) + c.count > ns) return corrupt("a cell's spans lie outside the span array");
    chf.spans.resize(ns);
    if (ns) std::memcpy(chf.spans.data(), p, ns * sizeof(CompactSpan));
    p += ns * sizeof(CompactSpan);
    chf.areas.assign(p, p + ns);
    p += ns;
    eroded.assign(p, p + ns);
    chf.width = h.width, chf.height = h.height, chf.span_count = h.span_count;
    chf.walkable_height = h.walkable_height, chf.walkable_climb = h.walkable_climb, chf.border_size = h.border_size;
    std::memcpy(chf.bmin, h.bmin, sizeof h.bmin);
    std::memcpy(chf.bmax, h.bmax, sizeof h.bmax);
    chf.cs = h.cs, chf.ch = h.ch;
    return Status::ok();
}

}  // namespace nav
