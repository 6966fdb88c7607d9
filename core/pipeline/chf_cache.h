// The obstacle cache of a trimmed tiled bake (PipelineDef::obstacle_cache): a tile's compact
// heightfield and its eroded areas, what the areas stage reads, packed into one buffer and
// compressed with LZ4 (Debian's liblz4, private to the bake library). A tile an obstacle touches
// unpacks it and re-runs from the areas stage instead of from rasterize.
// The blob: a fixed header (the heightfield's scalars, the sizes, a checksum of header and
// payload) and one LZ4 block of the payload: cells, spans, the compact areas, the eroded areas.
// It lives in the process that made it (no endianness or version promise across builds).
#pragma once
#include <cstdint>
#include <vector>

#include "core/bake/compact.h"
#include "core/common.h"

namespace nav {

// Bytes of the payload before compression: 8 a cell, 10 a span (8 span, 1 area, 1 eroded area).
uint64_t chf_cache_raw_bytes(const CompactHeightfield& chf);

// Packs chf and eroded (one area per span) into out (replaced; capacity kept). raw and packed are
// working buffers (kept by the caller so a rebake allocates nothing). BadInput when eroded's size
// is not the span count or the payload is over LZ4's block limit (about 2 GiB): no cache then.
Status compress_chf(const CompactHeightfield& chf, const std::vector<uint8_t>& eroded, std::vector<uint8_t>& out,
                    std::vector<uint8_t>& raw, std::vector<uint8_t>& packed);

// Unpacks a blob made by compress_chf into chf and eroded. Every size is checked before anything
// is allocated, the block is decoded with LZ4_decompress_safe into exactly the size the header
// gives, the checksum must match and every cell's spans must lie in the span array: a corrupt or
// truncated blob is BadInput naming what is wrong, never a crash. On failure chf and eroded are
// left in an unspecified but valid state.
Status decompress_chf(const std::vector<uint8_t>& blob, CompactHeightfield& chf, std::vector<uint8_t>& eroded,
                      std::vector<uint8_t>& raw);

}  // namespace nav
