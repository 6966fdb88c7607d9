// Shared vocabulary of the core library: status values, the cancel flag, area ids and limits.
// Everything in core is plain C++20 over flat arrays; no OpenGL, no ImGui, no globals.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

namespace nav {

// Result of an operation that can fail on bad input. Bad input is never a crash. [[nodiscard]]: a
// caller that means to drop a failure says so with (void) and a comment.
struct [[nodiscard]] Status {
    enum class Code : uint8_t { Ok, BadInput, Cancelled, Internal };
    Code code = Code::Ok;
    std::string message;

    static Status ok() { return {}; }
    static Status bad_input(std::string m) { return {Code::BadInput, std::move(m)}; }
    static Status cancelled() { return {Code::Cancelled, "cancelled"}; }
    static Status internal(std::string m) { return {Code::Internal, std::move(m)}; }
    explicit operator bool() const { return code == Code::Ok; }
    bool is_ok() const { return code == Code::Ok; }
};

// Set from another thread to stop a stale build; stages poll it between chunks of work.
using CancelFlag = std::atomic<bool>;
inline bool is_cancelled(const CancelFlag* c) { return c && c->load(std::memory_order_relaxed); }

// Area ids stored per span. 0 is "not walkable", 63 plain walkable ground (Recast's convention),
// 1..62 are user areas stamped by convex volumes.
constexpr uint8_t kNullArea = 0;
constexpr uint8_t kWalkableArea = 63;
constexpr uint8_t kAreaWater = 1;
constexpr uint8_t kAreaRoad = 2;
constexpr uint8_t kAreaDoor = 3;
constexpr uint8_t kAreaGrass = 4;
constexpr uint8_t kAreaJump = 5;

// Heights in the solid heightfield are 16-bit voxel indices.
constexpr int kSpanMaxHeight = 0xffff;
// Compact span neighbour links: 6 bits per direction, this value means "no neighbour".
constexpr int kNotConnected = 0x3f;
// Region id flag for regions inside the tile border (tiles come later; border_size 0 today).
constexpr uint16_t kBorderRegion = 0x8000;

// Direction helpers on the xz grid: 0 = -x, 1 = +z, 2 = +x, 3 = -z (Recast's order).
inline int dir_offset_x(int dir) { static constexpr int o[4] = {-1, 0, 1, 0}; return o[dir & 3]; }
inline int dir_offset_z(int dir) { static constexpr int o[4] = {0, 1, 0, -1}; return o[dir & 3]; }

}  // namespace nav
