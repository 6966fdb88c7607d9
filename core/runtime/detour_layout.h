// The byte layout of Detour 1.5.1's files (32-bit polygon references, x86-64 sizes), written once
// for the writer (detour_write.cpp), the reader (detour_read.cpp) and the split bake's merge.
// Internal to the runtime's Detour files: detour_format.h is the interface.
#pragma once
#include <cstddef>
#include <cstdint>

namespace nav::detour_layout {

constexpr uint32_t kTileMagic = 'D' << 24 | 'N' << 16 | 'A' << 8 | 'V';  // DT_NAVMESH_MAGIC
constexpr uint32_t kMsetMagic = 'M' << 24 | 'S' << 16 | 'E' << 8 | 'T';  // RecastDemo's NAVMESHSET_MAGIC

// Record sizes (sizeof on x86-64); every one a multiple of 4, and each section is dtAlign4'd.
constexpr size_t kHeaderSize = 100;       // dtMeshHeader: 25 four-byte fields
constexpr size_t kVertSize = 12;          // x, y, z
constexpr size_t kPolySize = 32;          // dtPoly
constexpr size_t kLinkSize = 12;          // dtLink
constexpr size_t kDetailMeshSize = 12;    // dtPolyDetail: 2 uint32, 2 uint8, 2 bytes padding
constexpr size_t kDetailTriSize = 4;      // 3 indices + edge flags
constexpr size_t kBvNodeSize = 16;        // dtBVNode
constexpr size_t kOffMeshSize = 36;       // dtOffMeshConnection
constexpr size_t kMsetHeaderSize = 40;      // NavMeshSetHeader: magic, version, numTiles, dtNavMeshParams (28)
constexpr size_t kMsetTileHeaderSize = 8;   // NavMeshTileHeader: tileRef (32-bit), dataSize

// dtMeshHeader's byte offsets that more than one reader needs.
constexpr size_t kHeaderX = 8, kHeaderY = 12, kHeaderLayer = 16, kHeaderPolyCount = 24;

constexpr uint16_t kNullIdx = 0xffff;     // MESH_NULL_IDX
constexpr uint16_t kExtLink = 0x8000;     // DT_EXT_LINK
constexpr uint8_t kPolyTypeGround = 0;    // DT_POLYTYPE_GROUND
constexpr uint8_t kPolyTypeOffMesh = 1;   // DT_POLYTYPE_OFFMESH_CONNECTION
constexpr uint8_t kOffMeshBidir = 1;      // DT_OFFMESH_CON_BIDIR

}  // namespace nav::detour_layout
