// Automatic off-mesh links, as Unity's bake offers them: from every boundary edge of a
// built NavMesh, drop-down links to surfaces at most `drop_height` below and jump links across gaps
// at most `jump_distance` wide, each checked for clearance along its arc against the level
// triangles for an agent cylinder (radius, height). Candidates that fail are kept with the reason,
// so a user sees why a jump they expected is missing. Stage-free: the pipeline's navmesh step calls
// it once the NavMesh is assembled (solo and tiled bakes alike); it reads the NavMesh and the level.
//
// The rules (tests count links by them):
//  - Samples. Every boundary edge (edge_nei == kNoPoly) is sampled on a world lattice: along the
//    edge's dominant xz axis (x when |dx| >= |dz|, else z) at the coordinates k * spacing that lie in
//    [lo, hi) of the edge's extent on that axis (spacing = auto_link_spacing(p): p.spacing, or
//    max(1 m, 4 * agent_radius) when 0). A ledge gives one sample per `spacing` of its length
//    whatever polygons its boundary is split into (also across tiles); an edge shorter than the
//    spacing may hold none. The sample's outward direction is the edge's xz normal pointing away
//    from its polygon.
//  - The march. From a sample S at height y0 the probe walks outward in steps of kAutoLinkStep and
//    locates the navmesh polygons under each point (all of them: floors above one another).
//  - Drop: at the first probe within drop reach (2 * agent_radius + 0.5 m: the lower floor's navmesh
//    starts about 2 radii out, one for each erosion) that has a polygon more than `climb` below y0,
//    the highest such polygon is the landing. depth <= drop_height: a one-way link (after the
//    clearance check); depth <= 2 * drop_height: rejected DropTooHigh. No polygon below in reach,
//    and at 1.5 * radius + 0.05 m out the first level surface below y0 + climb lies more than climb
//    below y0 (and within 2 * drop_height): rejected LandingNotWalkable (too steep, too narrow after
//    erosion, or not walkable at all). A first surface within climb of y0 means the ground goes on
//    there (under a wall, say): no ledge, nothing recorded.
//  - Jump: the first probe at least agent_radius out with a polygon within [-max(drop, climb), +climb]
//    of y0 that is not the drop's landing (a polygon more than climb below y0 within drop reach, or
//    one within climb of the height the drop landed on: the same lower floor seen further out). gap = horizontal length - 2 * agent_radius (both ledges'
//    erosion). gap <= jump_distance: a link, two-way when the landing is within climb of y0, else
//    one-way from the high side; gap <= 2 * jump_distance: rejected GapTooWide. A two-way candidate
//    is seen from both sides of its gap: only the side whose outward normal's dominant xz component
//    is positive evaluates it, so every gap gives one link (or one rejection) per lattice point.
//  - Clearance: the arc is sampled about every radius / 2 and an agent cylinder (radius * 0.9, from
//    climb above the arc point to agent_height above it; the 10% tolerates the contours' rounding
//    of the eroded edges) is tested against the level triangles. Jumps fly a parabola from S to E
//    whose apex is 0.25 * horizontal length above the chord; drops move out level to above E, then
//    fall straight down. Hit: rejected ArcBlocked, `point` = the blocking triangle's point nearest
//    the cylinder's axis.
// Output order follows the edge order then the lattice order: deterministic for a given NavMesh.
// Every OffMeshLink has area kAreaJump, flags kPolyFlagDefault and radius = agent_radius.
#pragma once
#include <cstdint>
#include <vector>

#include "core/bake/input.h"
#include "core/common.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/tile.h"

namespace nav {

constexpr float kAutoLinkStep = 0.1f;  // metres between the outward probes

struct AutoLinkParams {
    float drop_height = 0;    // link_drop_height, metres; 0: no drop links
    float jump_distance = 0;  // link_jump_distance, metres of gap; 0: no jump links
    float agent_height = 2.0f, agent_radius = 0.6f, agent_climb = 0.9f;
    float spacing = 0;        // metres between samples along a ledge; 0: max(1 m, 4 * agent_radius)
    bool enabled() const { return drop_height > 0 || jump_distance > 0; }
};
float auto_link_spacing(const AutoLinkParams& p);

enum class LinkReject : uint8_t { ArcBlocked, DropTooHigh, GapTooWide, LandingNotWalkable };
const char* link_reject_name(LinkReject r);  // "arc_blocked", "drop_too_high", ...

struct RejectedLink {
    float start[3] = {0, 0, 0}, end[3] = {0, 0, 0};
    LinkReject reason = LinkReject::ArcBlocked;
    bool jump = false;         // a jump candidate (else a drop)
    float point[3] = {0, 0, 0};  // ArcBlocked: where the arc is blocked; else = end
};

struct AutoLinks {
    std::vector<OffMeshLink> links;
    std::vector<uint8_t> link_is_jump;  // per link: 1 jump, 0 drop
    std::vector<RejectedLink> rejected;
    int samples = 0;  // lattice samples taken on boundary edges
    double ms = 0;    // wall time of the generation (set by the pipeline)
    void clear() {
        links.clear();
        link_is_jump.clear();
        rejected.clear();
        samples = 0;
        ms = 0;
    }
};

// Fills `out` (its buffers reused) with the links of `mesh` against `level` (the triangles the
// bake read). p not enabled(): `out` is left empty. Fails only on cancel.
Status generate_auto_links(const NavMesh& mesh, const InputMesh& level, const AutoLinkParams& p, AutoLinks& out,
                           const CancelFlag* cancel = nullptr);

}  // namespace nav
