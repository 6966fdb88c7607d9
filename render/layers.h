// Draw layers: one builder per bake stage that turns the stage's core data (from a Bake snapshot)
// into DrawList vertex arrays on the CPU, the colours each uses (with a legend for the UI), and
// LayerCache, which rebuilds and re-uploads a layer only when the data it draws has changed.
#pragma once
#include <array>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/bake/palette.h"
#include "core/pipeline/pipeline.h"
#include "render/area_colors.h"
#include "render/draw_list.h"
#include "render/layer_names.h"
#include "render/renderer.h"

namespace nav::render {

// Layer, kLayerCount, kLayerNames, layer_from_name, LayerMask, parse_layer_list: render/layer_names.h

// ---- Where the layers draw: picking, the inspector, the replay and the change highlight draw
// and hit at these same heights ----
// Floor quads of the compact-family layers are lifted a little above the voxel tops, each later
// stage a little higher, so several layers shown at once do not fight for depth.
inline float floor_lift(const CompactHeightfield& chf, Layer l) {
    const int k = static_cast<int>(l) - static_cast<int>(Layer::Compact);
    return chf.ch * (0.12f + 0.12f * static_cast<float>(k));
}
// World position of a contour / polygon-mesh vertex in voxel units, one cell height up.
inline void voxel_to_world(const float* bmin, float cs, float ch, int vx, int vy, int vz, float* p) {
    p[0] = bmin[0] + static_cast<float>(vx) * cs;
    p[1] = bmin[1] + static_cast<float>(vy + 1) * ch;
    p[2] = bmin[2] + static_cast<float>(vz) * cs;
}
// How far above the detail surface the navmesh and islands layers draw.
constexpr float kNavmeshLift = 0.04f;
// The stage whose result the layer draws.
Stage layer_stage(Layer l);
// Whether LayerCache builds the layer from the bake snapshot. `path` is not: the app runs the
// query and draws it with build_path (render/path_draw.h); it is available when the bake has a
// navmesh.
constexpr bool layer_from_bake(Layer l) { return l != Layer::Path; }
// One-line description for tooltips.
std::string_view layer_help(Layer l);


// ---- colours ----
namespace colors {
constexpr uint32_t kInputWalkable = rgba(206, 204, 196);
constexpr uint32_t kInputSteep = rgba(214, 116, 46);
constexpr uint32_t kSolidWalkable = rgba(84, 150, 204);
constexpr uint32_t kSolidBlocked = rgba(124, 124, 130);
constexpr uint32_t kFilterKept = rgba(96, 196, 108);
constexpr uint32_t kFilterLedge = rgba(240, 152, 30);
constexpr uint32_t kFilterLowHeight = rgba(224, 52, 70);
constexpr uint32_t kFilterRescued = rgba(64, 204, 232);  // made walkable by the low-hanging filter
constexpr uint32_t kFilterBlocked = rgba(124, 124, 130);
constexpr uint32_t kCompactWalkable = kPaletteWalkable;
constexpr uint32_t kCompactNull = kPaletteNullArea;
constexpr uint32_t kErodeKept = rgba(64, 160, 236);
constexpr uint32_t kErodeRemoved = rgba(236, 74, 58);
constexpr uint32_t kRegionNone = kPaletteRegionNone;
constexpr uint32_t kRegionEdge = rgba(16, 16, 20, 210);
constexpr uint32_t kBounds = rgba(170, 176, 190, 160);
// contours: per-region colours (region_color); these are the fixed parts
constexpr uint32_t kContourVertex = rgba(246, 246, 250);
constexpr uint32_t kContourBorderVertex = rgba(40, 40, 48);
constexpr uint32_t kContourHalo = rgba(12, 12, 18, 210);
// polygon mesh
constexpr uint32_t kPolyBoundary = rgba(14, 16, 24, 235);
constexpr uint32_t kPolyNeighbour = rgba(16, 20, 40, 150);
constexpr uint32_t kPolyVertex = rgba(236, 238, 244);
constexpr int kPolyFillAlpha = 128;
// detail mesh
constexpr uint32_t kDetailInternal = rgba(10, 12, 18, 60);
constexpr uint32_t kDetailPolyEdge = rgba(10, 12, 18, 190);
// runtime navmesh (fill by area colour, kPolyFillAlpha)
constexpr uint32_t kNavBoundary = rgba(14, 16, 24, 235);
constexpr uint32_t kNavPortal = rgba(16, 20, 40, 130);
// Polygons a prune disabled: a muted olive, hatched with pale stripes (kNavDisabledHatch). Not dark
// (the background is), not a region or island colour (those are saturated: hash_color's saturation
// is at least 0.5, this one's 0.46 and dim), and the stripes mark it on any base.
constexpr uint32_t kNavDisabled = rgba(140, 128, 76, 235);
constexpr uint32_t kNavDisabledHatch = rgba(240, 232, 196, 230);
constexpr float kHatchStep = 0.6f;  // metres between the stripes (along x + z)
// islands (render/islands_draw.h): island_color per island, more opaque than the area fill so
// each island's colour reads as the swatch in the Islands panel; walls as the navmesh's
constexpr int kIslandFillAlpha = 210;
// path tool (render/path_draw.h)
constexpr uint32_t kPathCorridor = rgba(255, 176, 0, 150);    // corridor polygons, amber
constexpr uint32_t kPathPortal = rgba(255, 236, 160, 235);    // portals of the corridor, pale yellow
constexpr uint32_t kPathLine = kPalettePath;                 // straight path, magenta (no region has its hue)
constexpr uint32_t kPathCorner = rgba(255, 255, 255);         // straight-path vertices, white
constexpr uint32_t kPathStart = rgba(40, 220, 90);            // start marker, green
constexpr uint32_t kPathMarkerOutline = rgba(8, 8, 12);       // outline of the start / end markers
constexpr uint32_t kPathEnd = rgba(240, 50, 40);              // end marker, red
constexpr uint32_t kPathMissing = rgba(240, 50, 40, 170);     // partial path: dashed line to the goal
// A* closed polygons: orange-red, nearly opaque. At alpha 140 the old orange over the navmesh's cyan over
// the grey input came out beige, the input floor's own colour; this one is no floor, band or path colour.
constexpr uint32_t kNodeClosed = rgba(255, 80, 0, 225);
constexpr uint32_t kNodeOpen = rgba(150, 90, 255, 150);       // A* open polygons, violet (not the navmesh's cyan)
constexpr uint32_t kFunnelApex = rgba(255, 255, 80);          // funnel stepper: apex, yellow
constexpr uint32_t kFunnelLeft = rgba(70, 130, 255);          // funnel left side, blue (not the start marker's green)
constexpr uint32_t kFunnelRight = rgba(255, 150, 40);         // funnel right side, orange (not the path's magenta)
constexpr uint32_t kFunnelPortal = rgba(200, 200, 255);       // portal being visited, lavender
}  // namespace colors

// Region and id colours: the bake's one palette (core/bake/palette.h), which the glTF export uses
// too. Areas are drawn in their area table's colours (AreaColors).
using nav::hash_color;
using nav::region_color;
// Grey level for a distance value in [0, max_dist].
uint32_t distance_color(uint16_t d, uint16_t max_dist);

struct LegendEntry {
    uint32_t color;
    std::string_view label;
};
// AreaColors(b.inputs.areas).hash() for a layer drawn in area colours, else 0: what its picture
// depends on besides its sources.
uint64_t layer_colors_key(Layer l, const Bake& b);

std::span<const LegendEntry> layer_legend(Layer l, const AreaColors& area_rgb);

// ---- builders (CPU only; clear `out` first) ----
void build_input(const InputMesh& mesh, const std::vector<uint8_t>& tri_areas, DrawList& out);
void build_voxels(const Heightfield& hf, DrawList& out);
// `solid` (before the filters) may be null; with it, spans the low-hanging filter made walkable
// get their own colour.
void build_filtered(const Heightfield* solid, const Heightfield& filtered, DrawList& out);
void build_compact(const CompactHeightfield& chf, DrawList& out);
void build_eroded(const CompactHeightfield& chf, const std::vector<uint8_t>& eroded, DrawList& out);
void build_areas(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, const AreaColors& area_rgb, DrawList& out);
void build_distance(const CompactHeightfield& chf, const DistanceField& df, DrawList& out);
void build_regions(const CompactHeightfield& chf, const Regions& regions, DrawList& out);
// Contour and polygon vertices are drawn one cell height above their voxel y (as Recast's debug
// draw does) so the lines sit on the surface. Contour edges are inset a little towards their
// region so the two sides of an edge between regions stay visible.
// Raw contours: thin lines in a darkened region colour.
void build_raw_contours(const ContourSet& cset, DrawList& out);
// Simplified contours: thick lines in the region colour (`lines`) over a dark halo (`out`), solid
// along walls, dashed along edges to another region, lightened along area borders; vertices as
// dots (tile-border vertices dark) in `lines`.
void build_contours(const ContourSet& cset, DrawList& out, DrawList& lines);
// Polygons filled semi-transparent by area colour with thin neighbour edges and the vertices
// (`out`); thick boundary edges go to `edges`, a second batch drawn over every layer's `out`
// (points are kept in `out`: lines carry a depth bias and would hide points drawn before them).
void build_polymesh(const PolyMesh& mesh, const AreaColors& area_rgb, DrawList& out, DrawList& edges);
// Detail triangles tinted per polygon (hash_color of the polygon index) with faint internal edges
// (`out`); the edges on the polygon's outline go to `edges`. `mesh` gives the cell height lift.
void build_detail(const PolyMeshDetail& detail, const PolyMesh& mesh, DrawList& out, DrawList& edges);
// The runtime navmesh: detail triangles filled semi-transparent by area colour (lifted a few cm),
// thin portal edges (`out`), thick boundary edges (`edges`).
void build_navmesh_layer(const NavMesh& mesh, const AreaColors& area_rgb, DrawList& out, DrawList& edges);
// Shared by the navmesh-family builders: polygon p filled in `color` over its detail triangles
// (a fan of its own vertices when it has none), lifted by `lift`.
void add_navmesh_poly(const NavMesh& mesh, uint32_t p, uint32_t color, float lift, DrawList& out);
// Diagonal stripes (x + z = k * colors::kHatchStep) across polygon p's outline in `color`, lifted
// by `lift`: the pruned polygons' hatching.
void add_navmesh_hatch(const NavMesh& mesh, uint32_t p, uint32_t color, float lift, DrawList& out);
// Every polygon filled at kNavmeshLift: those a prune disabled in colors::kNavDisabled and hatched,
// the others in fill(p) (the navmesh layer by area, the islands layer by island).
template <class Fill>
void add_navmesh_fills(const NavMesh& mesh, Fill&& fill, DrawList& out) {
    out.tri_verts.reserve(mesh.dtris.size() / 3 + mesh.verts.size() / 3);
    out.tri_indices.reserve(mesh.dtris.size() / 3);
    for (uint32_t p = 0; p < static_cast<uint32_t>(mesh.npolys); ++p) {
        const bool disabled = (mesh.flags[p] & kPolyFlagDisabled) != 0;
        add_navmesh_poly(mesh, p, disabled ? colors::kNavDisabled : fill(p), kNavmeshLift, out);
        if (disabled) add_navmesh_hatch(mesh, p, colors::kNavDisabledHatch, kNavmeshLift + 0.02f, out);
    }
}
// The navmesh's edges lifted by `lift`: walls (no neighbour) in `wall_color` into `walls`, and
// when `portals` is not null each portal once in `portal_color` into it.
void add_navmesh_edges(const NavMesh& mesh, float lift, uint32_t wall_color, DrawList& walls, uint32_t portal_color,
                       DrawList* portals);
// Islands (render/islands_draw.h): build_islands_layer(mesh, out, edges).
// Tiles of a tiled bake: each tile's square over the bounds, filled by its last bake time (a heat
// map from the fastest, green, to the slowest, red; dark: not baked yet; grey: baked, no polygons;
// red outline: the tile that failed), outlined.
void build_tiles_layer(const Bake& bake, DrawList& out);
namespace colors {
constexpr uint32_t kTileFast = rgba(60, 200, 90, 90);
constexpr uint32_t kTileSlow = rgba(235, 60, 40, 110);
constexpr uint32_t kTilePending = rgba(20, 20, 26, 150);
constexpr uint32_t kTileEmpty = rgba(140, 140, 150, 50);
constexpr uint32_t kTileEdge = rgba(235, 235, 245, 200);
}  // namespace colors
// Dispatches on the layer; returns false (both lists left empty) when the bake lacks the stage's
// result. `extra` is a second batch (lines of another width, points) drawn after every layer's
// `out`, so it stays on top; most layers leave it empty.
bool build_layer(Layer l, const Bake& bake, DrawList& out, DrawList& extra);
// Whether the bake holds what the layer draws.
bool layer_available(Layer l, const Bake& bake);
// Drawn from one grid's results (the solo grid or each tile's): the layer table's per_grid column,
// which picking and the tiled builders read.
bool layer_per_grid(Layer l);

// Ground grid under the mesh bounds and the bounds box, for orientation.
void build_ground(const float* bmin, const float* bmax, DrawList& out);

// Per-layer CPU arrays and GPU buffers. update() rebuilds an enabled layer when the stage data
// it draws (compared by identity, the data kept alive by the cache) differs from last time;
// disabled layers whose data went stale are dropped and rebuilt when enabled again.
// How LayerCache::draw presents the visible layers (the Layers panel's readability options).
struct LayerDrawOptions {
    std::array<float, kLayerCount> opacity;  // 0..1 per layer, multiplies its alpha
    float lift_step = 0.0f;  // metres: the k-th visible layer (input excluded) is lifted by k * lift_step
    bool xray = false;       // line batches also drawn faint without depth test
    bool cull_input = true;     // the input layer's back faces are not drawn (see into closed rooms)
    bool hide_ceilings = true;  // the input layer's down-facing faces are not drawn where the eye is above them
    bool grey_base = false;     // every layer in grey: the change highlight's base, so its colours read alone
    // Span instances drawn at full resolution per frame, shared by the span layers shown (0: no
    // limit); beyond it the farther chunks are drawn merged (render/span_lod.h) and the Layers panel
    // says so. A software GL (llvmpipe) holds memory for every triangle of a frame.
    size_t span_budget = kDefaultSpanBudget;
    static constexpr size_t kDefaultSpanBudget = 1000000;
    LayerDrawOptions() { opacity.fill(1.0f); }
    // The lift of each layer given the visible ones (0 for hidden layers and for input).
    std::array<float, kLayerCount> lifts(const LayerMask& enabled) const;
};

// A tiled bake draws each per-grid layer (voxels ... detail) in parts, one per block of tiles, so
// that a re-baked tile rebuilds and re-uploads its block only; at most kMaxLayerParts blocks (one
// tile each while the level has that few tiles), which bounds the draw calls of a frame. On a grid
// over a million cells the other layers (every layer of a solo bake; input and navmesh of a tiled
// one) are drawn in blocks of cells (at most 8 x 8), built whole and split, so that their upload
// too can be spread over frames (LayerCache::update). On smaller grids they are one part.
constexpr int kMaxLayerParts = 64;
// The side of a block, in tiles: the smallest that keeps the blocks within kMaxLayerParts.
int layer_part_block(const TileLayout& layout);
// The identity of each part of layer l for the bake, in part order: a hash of the data the part is
// drawn from (its tiles' addresses, or the layer's sources), so equal keys mean equal pictures.
// Empty when the bake lacks the layer's data.
std::vector<uint64_t> layer_part_keys(Layer l, const Bake& bake);

// One part's CPU arrays, built off the UI thread (navdebug's worker, after each bake) and shared
// with the UI thread, which uploads them. The arrays are handed over once: the LayerCache that
// uploads them releases them (release_cpu; the GPU holds the picture). A cache that meets a
// released part it does not hold builds that part itself. The other holders (the worker's next
// build_layers, which shares the parts of unchanged tiles) read only the fields below the arrays.
struct BuiltPart {
    uint64_t key = 0;                 // layer_part_keys
    mutable DrawList cpu, cpu_extra;  // empty once released
    size_t cpu_bytes = 0;             // of cpu and cpu_extra as built (by capacity)
    uint32_t legend_present = 0;      // bit k: layer_legend(l)[k]'s colour is drawn by the arrays
    mutable std::atomic<bool> released{false};
    void release_cpu() const;
};
// Part `index` of layer l (layer_part_keys order), organised for drawing (render/span_lod.h).
std::shared_ptr<BuiltPart> build_layer_part(Layer l, const Bake& bake, size_t index);

// One layer's parts built from a bake, with the stage data they were built from (compared by
// identity).
struct BuiltLayer {
    std::array<std::shared_ptr<const void>, 3> sources;
    uint64_t colors = 0;  // layer_colors_key
    std::vector<std::shared_ptr<const BuiltPart>> parts;  // layer_part_keys order
    bool ok = false;         // the bake had the data
    double build_ms = 0.0;   // CPU build of the parts built for this entry (not those shared)
    size_t parts_built = 0;  // parts built for this entry; the others shared from the last entry
    size_t cpu_bytes = 0;    // of every part as built
    uint32_t legend_present = 0;  // of every part
    // The part with this key, or null.
    const BuiltPart* part(uint64_t key) const;
};
struct BuiltLayers {
    std::array<std::shared_ptr<const BuiltLayer>, kLayerCount> layers;  // null: not built
    // The entry built from exactly the data `bake` holds for layer l, or null.
    const BuiltLayer* find(Layer l, const Bake& bake) const;
};
// Builds every enabled layer drawn from the bake (layer_from_bake) that the bake has; an entry of
// `prev` built from the same stage data is shared instead of rebuilt, and so is each part of a
// changed layer whose key `prev` holds (the tiles not re-baked). Safe on any thread: it only
// reads the bake's immutable snapshot.
std::shared_ptr<const BuiltLayers> build_layers(const Bake& bake, const LayerMask& enabled, const BuiltLayers* prev);

// Drops references on a thread of its own. The stage data a layer was drawn from is the last
// reference to a whole bake's results (a level's navmesh, its tiles' heightfields) often enough, and
// freeing those on the UI thread cost a frame tens of milliseconds on a 7 M-span level.
class BackgroundRelease {
public:
    BackgroundRelease() = default;
    BackgroundRelease(const BackgroundRelease&) = delete;
    BackgroundRelease& operator=(const BackgroundRelease&) = delete;
    ~BackgroundRelease();  // drops what is queued, then stops the thread
    // Queues the references (started on first use); null ones are skipped.
    void drop(std::array<std::shared_ptr<const void>, 3>&& refs);

private:
    void loop();
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<std::shared_ptr<const void>> queue_;
    bool stop_ = false;
    std::thread thread_;
};

class LayerCache {
public:
    struct Info {
        bool available = false;  // the bake has the data
        bool built = false;      // CPU and GPU arrays are current
        bool on_ui = false;      // the last rebuild built a part on the UI thread (no prebuilt part)
        size_t triangles = 0, lines = 0;
        size_t spans = 0;        // span instances (voxel and span layers: one unit box or quad each)
        double build_ms = 0.0;   // CPU build of the last rebuild's new parts (worker or UI thread)
        double upload_ms = 0.0;  // GPU upload of the last rebuild (UI thread)
        size_t gpu_bytes = 0;
        size_t cpu_bytes = 0;    // the CPU arrays uploaded (released after the upload)
        uint32_t legend_present = 0;  // as BuiltLayer::legend_present
        size_t parts = 0;           // GPU parts (BuiltPart): one per block of tiles, or one
        size_t parts_uploaded = 0;  // of them, uploaded by the last rebuild (the others kept)
    };
    // Parts uploaded and kept over every rebuild so far (a re-baked tile uploads its block only).
    struct PartCounts {
        uint64_t uploaded = 0, kept = 0;
    };
    PartCounts part_counts() const { return part_counts_; }

    // `prebuilt` (may be null): layers built off the UI thread; an enabled layer whose data changed
    // is uploaded from there when it holds an entry for the same data, else built here, and the
    // frame counts in ui_waits_on_layers(). Only the parts whose keys changed are uploaded.
    // `budget_ms` > 0: the update stops uploading once it has spent that long (at least one part
    // is uploaded per call) and the next calls go on; meanwhile the layer draws its new parts and,
    // for the blocks not uploaded yet, the old ones (uploading() is true). 0: everything at once.
    void update(const std::shared_ptr<const Bake>& bake, const LayerMask& enabled,
                const BuiltLayers* prebuilt = nullptr, double budget_ms = 0.0);
    // An update is spread over frames (budget_ms): parts of the current bake are still to upload.
    bool uploading() const { return parts_pending_ > 0; }
    size_t parts_pending() const { return parts_pending_; }
    // Updates in which the UI thread had to build a layer itself.
    uint64_t ui_waits_on_layers() const { return ui_waits_; }
    // Time the last update() took on the calling (UI) thread: uploads, and builds when it had to.
    double last_update_ms() const { return last_update_ms_; }
    // The main batch of every enabled layer in layer order, then their extra batches.
    void draw(Renderer& r, const LayerMask& enabled, const LayerDrawOptions& opt = {}) const;
    const Info& info(Layer l) const { return entries_[static_cast<int>(l)].info; }
    // What the last draw() drew of layer l's spans (level of detail; zero for a layer without spans).
    const SpanPlanStats& lod(Layer l) const { return lod_[static_cast<size_t>(l)]; }
    // The legend entries of what layer l draws now: those whose colour its uploaded arrays use (the
    // whole legend for layers the cache does not build; none while it has not built the layer).
    std::vector<LegendEntry> legend(Layer l) const;
    // The CPU arrays of the current layers as they were uploaded, by capacity. The cache does not
    // keep them (released after the upload); this is the count.
    size_t cpu_bytes() const;
    size_t gpu_bytes() const;
    uint64_t generation() const { return generation_; }

private:
    struct Part {
        uint64_t key = 0;
        GpuDrawList gpu, gpu_extra;
        size_t triangles = 0, lines = 0, spans = 0, cpu_bytes = 0;
        uint32_t legend_present = 0;
        mutable std::vector<int8_t> level[2];  // the frame's span level per chunk of gpu, gpu_extra
    };
    struct Entry {
        // layer_part_keys order; while an update is spread over frames, new parts first and the
        // old ones (their blocks not uploaded yet) after them
        std::vector<std::unique_ptr<Part>> parts;
        std::array<std::shared_ptr<const void>, 3> sources;  // of the parts, once all are uploaded
        uint64_t colors = 0;                                 // their layer_colors_key
        Info info;
        // the rebuild in progress (spread over frames): its sources and what it did so far
        std::array<std::shared_ptr<const void>, 3> target;
        uint64_t target_colors = 0;
        size_t target_uploaded = 0;
        double target_upload_ms = 0.0, target_ui_build_ms = 0.0;
        bool target_on_ui = false;
    };
    std::array<Entry, kLayerCount> entries_;
    AreaColors area_rgb_{AreaTable::defaults()};  // of the last bake updated from (the legends)
    mutable std::array<SpanPlanStats, kLayerCount> lod_{};
    mutable std::vector<SpanChunkSet> plan_sets_;  // draw(): every span list drawn, planned together
    mutable std::vector<SpanPlanStats> plan_stats_;
    mutable SpanPlanScratch plan_scratch_;
    uint64_t generation_ = 0;
    uint64_t ui_waits_ = 0;
    double last_update_ms_ = 0.0;
    PartCounts part_counts_;
    size_t parts_pending_ = 0;
    // Parts replaced by an update, deleted by the next ones (a quarter of the budget a frame): a
    // software GL (llvmpipe) made deleting a buffer the frame before still draws wait for that
    // frame (up to 30 ms on the large level).
    std::vector<std::unique_ptr<Part>> retired_;
    BackgroundRelease release_;  // the stage data of replaced sources
};

}  // namespace nav::render
