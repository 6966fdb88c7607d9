// RecastDemo's all-tiles file (MSET) saved from a dtNavMesh, as Sample_TileMesh::saveAll writes it,
// for the reader's differential test (test_diff_detour_read.cpp) and its benchmark
// (tests/bench/detourbench.cpp). Detour is a reference for tests and benchmarks only.
#pragma once
#include <DetourNavMesh.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace navdiff {

inline void put32(std::vector<uint8_t>& out, uint32_t v) {
    const size_t at = out.size();
    out.resize(at + 4);
    std::memcpy(&out[at], &v, 4);
}

// The header (magic, version, tile count, dtNavMeshParams), then per tile with data its reference
// (getTileRef) and size, then the data (with the links addTile wrote into it, as saveAll stores them).
inline std::vector<uint8_t> save_mset(const dtNavMesh& mesh) {
    std::vector<uint8_t> out;
    int count = 0;
    for (int i = 0; i < mesh.getMaxTiles(); ++i) {
        const dtMeshTile* t = mesh.getTile(i);
        if (t && t->header && t->dataSize) ++count;
    }
    put32(out, 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T');
    put32(out, 1);
    put32(out, static_cast<uint32_t>(count));
    const size_t at = out.size();
    out.resize(at + sizeof(dtNavMeshParams));
    std::memcpy(&out[at], mesh.getParams(), sizeof(dtNavMeshParams));
    for (int i = 0; i < mesh.getMaxTiles(); ++i) {
        const dtMeshTile* t = mesh.getTile(i);
        if (!t || !t->header || !t->dataSize) continue;
        put32(out, static_cast<uint32_t>(mesh.getTileRef(t)));
        put32(out, static_cast<uint32_t>(t->dataSize));
        out.insert(out.end(), t->data, t->data + t->dataSize);
    }
    return out;
}

}  // namespace navdiff
