// Path queries on a NavMesh (Detour's semantics, our own code): nearest polygon, A* over the
// polygon graph, the funnel (string pulling) with optional portal shrink, raycast along the
// surface, distance to the nearest wall, polygons within a circle, and random points.
//
// All query state (node pool, heap) lives in a reusable NavQuery: after the first query of a given
// size nothing is allocated. Result structs hold vectors the caller reuses from call to call.
// Every query that searches can record a trace (plain structs of flat vectors) when given a
// non-null trace pointer; with nullptr nothing is recorded.
//
// Polygons are named by PolyRef (core/runtime/navmesh.h) in every argument and result: a
// reference into a tile rebuilt since it was handed out is reported as stale (BadInput naming it)
// by every query that takes one. Traces, made for drawing the mesh they ran on, name polygons by
// their dense index in that mesh.
//
// A* returns the exact least-cost path: a search state stands on the portal its polygon was
// entered through, each edge costs the distance walked times the area cost of the polygon walked
// in, off-mesh links are edges of the same graph, and the heuristic (straight-line or landmark
// bound times the least area cost) stays admissible and consistent. Islands that no portal chain
// or link joins are unreachable without a search. A partial path (goal unreachable or node limit
// hit) is the corridor to the state nearest the goal, as Detour's. The cost model in full:
// docs/library.md#the-path-querys-cost-model.
#pragma once
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "core/common.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/polyanya.h"

namespace nav {

// Per-area traversal costs and polygon flag masks. A polygon passes when it has at least one
// include flag and no exclude flag (Detour's rule). All costs default to 1; costs must be finite
// and >= 0 (queries report BadInput otherwise).
// The default excludes kPolyFlagDisabled, so polygons a prune disabled (core/islands.h) are never
// found, entered or sampled unless a caller asks for them; a filter with its own exclude mask
// should keep that bit (exclude_flags |= mask). Queries given a start polygon by reference
// (find_path, raycast, ...) start there, as Detour's do: find it with find_nearest_poly under
// the same filter.
struct QueryFilter {
    float area_cost[kMaxAreas];
    uint16_t include_flags = 0xffff;
    uint16_t exclude_flags = kPolyFlagDisabled;
    // The agent type the query is for (BakeInputs::agent_types' index; -1: any): only polygons
    // whose types mask (NavMesh::types) has its bit pass, so every query sees that type's navmesh.
    int agent_type = -1;

    QueryFilter() {
        for (float& c : area_cost) c = 1.0f;
    }
    uint16_t type_bit() const { return agent_type < 0 || agent_type > 15 ? kAllAgentTypes : static_cast<uint16_t>(1u << agent_type); }
    bool passes(uint16_t flags, uint16_t types) const {
        return (flags & include_flags) != 0 && (flags & exclude_flags) == 0 && (types & type_bit()) != 0;
    }
    // Off-mesh links carry flags only (every type may take them).
    bool passes_link(uint16_t flags) const { return (flags & include_flags) != 0 && (flags & exclude_flags) == 0; }
};

// Deterministic random numbers (splitmix64): the caller owns the state.
struct Rng {
    uint64_t state = 0;
    Rng() = default;
    explicit Rng(uint64_t seed) : state(seed) {}
    uint64_t next_u64() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1).
    float next_float() { return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f); }
};

struct NearestPoly {
    PolyRef poly = kNoRef;        // kNoRef when no polygon overlaps the query box
    float point[3] = {0, 0, 0};   // closest point on that polygon's detail surface
    bool over_poly = false;       // the query point lies above or below the polygon (xz inside)
};

// "Not entered through a link" in PathResult::links.
constexpr uint32_t kNoLink = 0xffffffffu;

struct PathResult {
    std::vector<PolyRef> polys;   // the corridor, start polygon first
    // Parallel to polys: how polys[i] was entered. kNoLink = through a portal from polys[i-1] (and
    // for polys[0]); otherwise the off-mesh link traversal from polys[i-1]: link index * 2, + 1
    // when a two-way link was taken from its end to its start (NavMesh::trav_from / trav_to).
    std::vector<uint32_t> links;
    float cost = 0;               // cost of the corridor in the cost model (to the end point if reached)
    bool reached = false;         // false: partial path to the polygon closest to the goal
    bool out_of_nodes = false;    // the node limit was hit (A*: NavQuery's max_nodes; optimal: Polyanya's cap)
    int expanded = 0;             // search states popped from the heap
};

// Straight-path vertex flags (Detour's values).
constexpr uint8_t kStraightStart = 0x01;
constexpr uint8_t kStraightEnd = 0x02;
// The vertex where the path takes an off-mesh link (the link's from point); the next vertex is the
// point where it lands, the start of the next funnel.
constexpr uint8_t kStraightOffMesh = 0x04;

enum class Crossings : uint8_t {
    None,  // corners only
    Area,  // also where the path crosses into a polygon of another area
    All,   // also where the path crosses any polygon edge
};

struct StraightPathOptions {
    Crossings crossings = Crossings::None;
    // Each portal is shrunk toward its middle by max(shrink_fraction * length, shrink_distance)
    // from either end (at most half its length), to keep corners off walls. 0 = Detour's funnel.
    float shrink_fraction = 0;
    float shrink_distance = 0;
    // Stop after this many vertices (the start counts; 0 = the whole path). An agent steering
    // along a corridor needs its next few corners, not the funnel to the far end.
    int max_points = 0;
};

struct StraightPath {
    std::vector<float> points;     // x, y, z per vertex
    std::vector<uint8_t> flags;    // kStraightStart / kStraightEnd / kStraightOffMesh / 0 per vertex
    std::vector<PolyRef> polys;    // polygon entered at each vertex (kNoRef for the end; at a link's
                                   // from point: the polygon the link lands in)
    bool partial = false;          // the corridor broke (polygons not adjacent): ends in the last reachable one
    int size() const { return static_cast<int>(flags.size()); }
    float length() const;          // 3D length of the polyline
};

struct RaycastHit {
    bool hit = false;              // a wall was hit before the end point
    float t = 1;                   // parameter along start->end where the wall was hit (1 when not hit)
    float normal[3] = {0, 0, 0};   // wall normal in xz (unit), zero when not hit
    int edge = -1;                 // edge index, within the last polygon, of the wall hit
    std::vector<PolyRef> polys;    // polygons visited, start first
};

struct WallHit {
    bool found = false;            // a wall lies within max_radius
    float distance = 0;            // distance in xz to the nearest wall (max_radius when none)
    float point[3] = {0, 0, 0};    // the nearest wall point
    float normal[3] = {0, 0, 0};   // from the wall point toward the centre, xz, unit
};

// Polygons reached by a Dijkstra from the start polygon through portals that come within the
// radius of the centre (Detour's findPolysAroundCircle; node positions are the midpoint of the
// portal a polygon was first reached through). Listed when settled, with final costs.
struct PolysAround {
    std::vector<PolyRef> polys;    // in the order the search settled them, start first
    std::vector<PolyRef> parents;  // kNoRef for the start
    std::vector<float> costs;      // cost from the centre (distance between node positions times area cost)
};

// Where a constrained move along the surface ended (Detour's moveAlongSurface).
struct SurfaceMove {
    float pos[3] = {0, 0, 0};      // the end point, or the point nearest it that the walk reached;
                                   // y on that polygon's detail surface
    std::vector<PolyRef> visited;  // the polygons walked, start first, the one holding pos last
};

struct RandomPoint {
    PolyRef poly = kNoRef;         // kNoRef when no polygon with a non-zero area passes the filter
    float point[3] = {0, 0, 0};
};

// How find_route finds its path.
struct RouteOptions {
    RouteOptions() = default;
    RouteOptions(const StraightPathOptions& s) : straight(s) {}  // NOLINT: implicit, A* + funnel with these options
    StraightPathOptions straight;  // the funnel's options (A* + funnel only)
    // Polyanya (core/runtime/polyanya.h) instead of A* + funnel: the Euclidean-shortest path in the
    // xz projection, along polygon adjacency, through polygons passing the filter's flag masks
    // (area costs do not apply: the length is what is minimised). Turning points are lifted onto
    // the detail surface of a polygon they are a corner of, as the end points lie on theirs.
    // Polyanya knows no off-mesh links: on a mesh with a connected link whose flags pass the
    // filter, find_route runs A* + funnel instead (which takes links) and says so
    // (Route::optimal false, Route::optimal_skipped_for_links true).
    bool optimal = false;
};

// Nearest polygons of both end points, the corridor, and the straight path: what a caller
// that just wants "a path from here to there" needs.
struct Route {
    NearestPoly start, end;        // start.poly / end.poly = kNoRef when an end point is off the mesh
    // A* + funnel: the corridor, empty when an end point is off the mesh. Optimal: no corridor
    // (polys empty); reached = a path was found, expanded = Polyanya's search nodes expanded,
    // out_of_nodes = Polyanya's node cap (kPolyanyaMaxNodes) was hit.
    PathResult path;
    // From start.point to end.point (or toward it when partial). Optimal: the turning points,
    // polys = the polygon each lies in (kNoRef for the end); empty when no path; when Polyanya ran
    // out of nodes, the partial path its search found, ending (flag 0, not kStraightEnd) on the
    // interval nearest the goal.
    StraightPath straight;
    bool optimal = false;          // made with RouteOptions::optimal (Polyanya)
    bool optimal_skipped_for_links = false;  // optimal asked, A* + funnel ran: the mesh has usable off-mesh links
    bool found() const { return optimal ? start.poly != kNoRef && end.poly != kNoRef : !path.polys.empty(); }
    double length_xz() const;      // length of `straight` in the xz projection
};

// A* trace: one step per state popped from the heap (the start first; when the goal is reached,
// the last step is the goal itself, poly = from_poly = the end polygon). States in dead-end
// polygons are labelled but never queued: they show in `updates`, not in `open` or `closed`.
// A polygon may appear more than once (entered through different portals).
struct AStarTrace {
    enum class Update : uint8_t { Pushed, Improved };
    struct Step {
        uint32_t poly;             // polygon of the popped state
        uint32_t from_poly;        // polygon it was entered from (kNoPoly for the start)
        float g, f;
        uint32_t first_update, update_count;  // range in `updates`
        uint32_t first_open, open_count;      // range in `open`: open set after this step
        uint32_t closed_count;                // closed set after this step: closed[0, closed_count)
    };
    struct Neighbour {
        uint32_t poly, from_poly;
        float g, f;
        float pos[3];              // portal midpoint the state stands on
        Update kind;
    };
    std::vector<Step> steps;
    std::vector<Neighbour> updates;
    std::vector<uint32_t> open;    // polygons of open states, per step (flat)
    std::vector<uint32_t> closed;  // polygons in the order they were closed
    void clear() { steps.clear(), updates.clear(), open.clear(), closed.clear(); }
};

// Funnel trace: one step per portal visit (a portal is visited again after a corner restarts
// the scan), with the funnel after the decision. The end point is the last "portal"; it becomes
// the final apex through a corner event when the funnel closes on it.
struct FunnelTrace {
    enum Event : uint8_t {
        kSkip = 1,           // portal skipped: the start lies on it
        kTightenRight = 2,   // the right side moved inward
        kTightenLeft = 4,    // the left side moved inward
        kCornerLeft = 8,     // the right side crossed the left: the left point became a corner (new apex)
        kCornerRight = 16,   // the left side crossed the right: the right point became a corner
    };
    struct Step {
        uint32_t portal;     // portal index: i between corridor[i] and corridor[i+1]; corridor size - 1 = the end point
        uint8_t events;      // Event bits; 0 = portal outside the funnel on both sides (no change)
        float portal_left[3], portal_right[3];  // the portal as used (after shrinking)
        float apex[3], left[3], right[3];       // the funnel after the decision
    };
    std::vector<Step> steps;
    void clear() { steps.clear(); }
};

class NavQuery {
public:
    NavQuery() = default;
    // Binds to a mesh (not owned; it must outlive the queries and not change underneath).
    // max_nodes bounds the A* search states discovered per query (one per portal side, so up to
    // twice the portals; a path search usually discovers a few per corridor polygon); 0 = no limit
    // (the default: every reachable goal is reached). The node arrays hold a state per portal side
    // whatever the limit: sized to the mesh on the first query and reused after, so a limit bounds
    // a query's time (a frame budget), not its memory. A search stopped by the limit returns the
    // partial path with PathResult::out_of_nodes (Detour's DT_OUT_OF_NODES).
    void init(const NavMesh* mesh, int max_nodes = 0);
    const NavMesh* mesh() const { return mesh_; }
    int max_nodes() const { return max_nodes_; }
    // The landmark (ALT) bound in A* (on by default): off, the heuristic is the straight-line
    // distance alone (as Detour's). Both are admissible and consistent, so the answer's cost is
    // the same either way (up to float rounding, and ties between equal-cost corridors); off is
    // for checking that, and for measuring what the landmarks save. Kept across init.
    void set_landmarks(bool on) { use_landmarks_ = on; }
    bool landmarks() const { return use_landmarks_; }

    // The polygon whose detail surface is nearest to `center` among polygons overlapping the box
    // center +- half_extents (Detour's findNearestPoly). out.poly = kNoRef when none: not an error.
    Status find_nearest_poly(const float* center, const float* half_extents, const QueryFilter& filter,
                             NearestPoly& out) const;

    // Polygons whose bounds overlap the box, passing the filter.
    Status query_polygons(const float* center, const float* half_extents, const QueryFilter& filter,
                          std::vector<PolyRef>& out) const;

    // Closest point to `pos` on polygon p's detail surface (xz clamped into the polygon).
    Status closest_point_on_poly(PolyRef p, const float* pos, float* closest, bool* over_poly = nullptr) const;
    // `pos` itself when it lies inside the polygon in xz, else the nearest point on its outline.
    Status closest_point_on_poly_boundary(PolyRef p, const float* pos, float* closest) const;

    // A* over the polygon graph from start_poly / start_pos to end_poly / end_pos.
    Status find_path(PolyRef start_poly, PolyRef end_poly, const float* start_pos, const float* end_pos,
                     const QueryFilter& filter, PathResult& out, AStarTrace* trace = nullptr);

    // The funnel over the corridor's portals (Detour's findStraightPath): start and end are
    // clamped into the first and last polygons. A corridor step through an off-mesh link (give
    // `links`, PathResult::links, to say which) ends the funnel at the link's from point (flag
    // kStraightOffMesh) and starts a new one at its to point. Without `links` (or with it empty)
    // every step must be a portal; a step that is not ends the path there (partial).
    Status find_straight_path(const float* start_pos, const float* end_pos, std::span<const PolyRef> corridor,
                              const StraightPathOptions& options, StraightPath& out,
                              FunnelTrace* trace = nullptr) const;
    Status find_straight_path(const float* start_pos, const float* end_pos, std::span<const PolyRef> corridor,
                              std::span<const uint32_t> links, const StraightPathOptions& options, StraightPath& out,
                              FunnelTrace* trace = nullptr) const;

    // Walks polygons along the xz segment start->end from start_poly until the end or a wall.
    Status raycast(PolyRef start_poly, const float* start_pos, const float* end_pos, const QueryFilter& filter,
                   RaycastHit& out) const;

    // Nearest wall (an edge without a passable neighbour) within max_radius of center, searching
    // outward from start_poly through portals that come within the current best distance.
    Status find_distance_to_wall(PolyRef start_poly, const float* center, float max_radius,
                                 const QueryFilter& filter, WallHit& out);

    // Moves from start_pos toward end_pos across polygons passing the filter, never leaving them:
    // a breadth-first walk from start_poly over the polygons that touch the circle around the
    // move, ending at end_pos when a walked polygon holds it (in xz), else at the nearest point
    // of a wall met on the way (Detour's moveAlongSurface: a character slides along walls).
    // At most max_visit polygons are walked.
    Status move_along_surface(PolyRef start_poly, const float* start_pos, const float* end_pos, const QueryFilter& filter,
                              SurfaceMove& out, int max_visit = 48);

    // Wall segments (edges with no neighbour passing the filter) within radius of center, of the
    // polygons reached from start_poly through portals that come within radius: 6 floats each
    // (a then b, as the edge runs in its polygon, so the polygon lies to the right of a->b in xz).
    // At most max_segments, nearest first.
    Status find_local_walls(PolyRef start_poly, const float* center, float radius, const QueryFilter& filter,
                            std::vector<float>& segments, int max_segments = 32);

    // Polygons reachable from start_poly through portals that come within radius of center.
    Status find_polys_around_circle(PolyRef start_poly, const float* center, float radius,
                                    const QueryFilter& filter, PolysAround& out);

    // A point uniformly distributed over the area of the polygons passing the filter.
    Status random_point(const QueryFilter& filter, Rng& rng, RandomPoint& out) const;

    // find_nearest_poly for both points, find_path, then find_straight_path (a StraightPathOptions
    // converts to RouteOptions for this); with options.optimal find_nearest_poly for both points then Polyanya (its
    // search mesh made on the first optimal query and kept until init or other flag masks;
    // `trace` records its search nodes). options.optimal = false ignores `trace`.
    Status find_route(const float* start_pos, const float* end_pos, const float* half_extents,
                      const QueryFilter& filter, const RouteOptions& options, Route& out,
                      PolyanyaTrace* trace = nullptr);

private:
    // The queries on dense polygon indices (NavMesh's numbering); the public ones above resolve
    // references and call these, which report the polygons they find as references.
    Status resolve(PolyRef r, const char* what, uint32_t* p) const;
    Status query_polygons_dense(const float* center, const float* half_extents, const QueryFilter& filter,
                                std::vector<PolyRef>& out) const;
    Status closest_point_on_poly_dense(uint32_t p, const float* pos, float* closest, bool* over_poly = nullptr) const;
    Status closest_point_on_poly_boundary_dense(uint32_t p, const float* pos, float* closest) const;
    Status find_nearest_poly_dense(const float* center, const float* half_extents, const QueryFilter& filter,
                                   NearestPoly& out) const;
    Status find_path_dense(uint32_t start_poly, uint32_t end_poly, const float* start_pos, const float* end_pos,
                           const QueryFilter& filter, PathResult& out, AStarTrace* trace);
    Status find_straight_path_dense(const float* start_pos, const float* end_pos, std::span<const uint32_t> corridor,
                                    std::span<const uint32_t> links, const StraightPathOptions& options, StraightPath& out,
                                    FunnelTrace* trace) const;
    Status raycast_dense(uint32_t start_poly, const float* start_pos, const float* end_pos, const QueryFilter& filter,
                         RaycastHit& out) const;
    Status find_distance_to_wall_dense(uint32_t start_poly, const float* center, float max_radius,
                                       const QueryFilter& filter, WallHit& out);
    Status find_polys_around_circle_dense(uint32_t start_poly, const float* center, float radius,
                                          const QueryFilter& filter, PolysAround& out);
    Status random_point_dense(const QueryFilter& filter, Rng& rng, RandomPoint& out) const;
    Status move_along_surface_dense(uint32_t start_poly, const float* start_pos, const float* end_pos,
                                    const QueryFilter& filter, SurfaceMove& out, int max_visit);
    Status find_local_walls_dense(uint32_t start_poly, const float* center, float radius, const QueryFilter& filter,
                                  std::vector<float>& segments, int max_segments);

    struct Node {
        float g, f;
        uint32_t parent;
        uint32_t mark;  // stamp_ open, stamp_ + 1 closed, else unseen in this query
    };
    struct HeapEntry {
        float f;
        uint32_t id;
    };
    struct PolyNode {
        float cost;
        float pos[3];
        uint32_t parent;
        uint32_t mark;
    };
    struct SearchGoal {
        const float* pos;          // heuristic target
        uint32_t poly;             // goal polygon (reaching it ends at `pos`), or kNoPoly
        uint32_t state_a, state_b; // or: goal states (kNoEdge when unused)
    };
    void prepare_nodes();
    void prepare_poly_nodes();
    // The A* loop. Returns the goal state popped (kNoEdge when not reached); *best_out gets the
    // discovered state nearest goal.pos.
    template <bool kTrace>
    uint32_t search(uint32_t start_poly, const float* start_pos, const SearchGoal& goal, const QueryFilter& filter,
                    float hscale, PathResult& out, AStarTrace* trace, uint32_t* best_out);
    uint32_t run_search(uint32_t start_poly, const float* start_pos, const SearchGoal& goal, const QueryFilter& filter,
                        float hscale, PathResult& out, AStarTrace* trace, uint32_t* best_out);
    void collect_path(uint32_t last, uint32_t start_poly, PathResult& out) const;
    // search<true>'s trace: the polygon state s stands in, a state labelled, state s popped.
    uint32_t trace_state_poly(uint32_t s, uint32_t start_poly, uint32_t end_poly) const;
    void trace_update(AStarTrace& trace, uint32_t t, uint32_t from_poly, AStarTrace::Update kind, uint32_t start_poly,
                      const SearchGoal& goal) const;
    void trace_step(AStarTrace& trace, uint32_t s, const Node& n, uint32_t first_update, uint32_t start_poly,
                    uint32_t end_poly) const;

    const NavMesh* mesh_ = nullptr;
    int max_nodes_ = 0;
    bool use_landmarks_ = true;
    uint32_t stamp_ = 0, poly_stamp_ = 0;
    std::vector<Node> nodes_;
    struct Heap {
        std::vector<HeapEntry> d;
        uint32_t n = 0;
        void clear() { n = 0; }
        bool empty() const { return n == 0; }
        void push(HeapEntry e);
        HeapEntry pop();
    };
    Heap heap_;
    std::vector<PolyNode> poly_nodes_;
    Heap poly_heap_;
    std::vector<uint32_t> scratch_;
    std::vector<std::pair<float, uint32_t>> wall_order_;  // find_local_walls' segments by distance
    std::vector<float> wall_tmp_;
    mutable std::vector<uint32_t> corridor_;  // find_straight_path's corridor as dense indices
    // find_route's optimal search mesh, for this mesh_ and these flag masks
    PolyanyaMesh pmesh_;
    bool pmesh_valid_ = false;
    uint16_t pmesh_include_ = 0, pmesh_exclude_ = 0, pmesh_type_ = 0;
    PolyanyaPath ppath_;
    PolyanyaWorkspace pwork_;  // Polyanya's node pool, heap and per-root g, reused across queries
};

}  // namespace nav
