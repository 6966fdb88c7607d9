#include "core/build/pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/build/erode.h"
#include "core/build/filter.h"

namespace nav {

namespace {

// Reuses a stage buffer when no published snapshot holds it any more, else starts a fresh one
// (the old one lives on, unchanged, inside the snapshot that holds it).
template <class T>
T& writable(std::shared_ptr<T>& p) {
    if (!p || p.use_count() > 1) p = std::make_shared<T>();
    return *p;
}

int64_t count_if_not_null(const std::vector<uint8_t>& areas) {
    int64_t n = 0;
    for (uint8_t a : areas) n += a != kNullArea;
    return n;
}

}  // namespace

struct Pipeline::Impl {
    std::shared_ptr<const InputMesh> source;  // as loaded
    std::shared_ptr<const InputMesh> mesh;    // what the stages read: source with the mesh_* fixes
    std::shared_ptr<std::vector<uint8_t>> tri_areas;
    std::shared_ptr<Heightfield> solid, filtered;
    std::shared_ptr<CompactHeightfield> compact;
    std::shared_ptr<std::vector<uint8_t>> eroded, areas;
    std::shared_ptr<DistanceField> distance;
    std::shared_ptr<Regions> regions;
    std::shared_ptr<RegionTrace> region_trace;  // filled only while record_trace_ is on
    std::shared_ptr<ContourSet> contours;
    std::shared_ptr<PolyMesh> polymesh;
    std::shared_ptr<PolyMeshDetail> detail;
    std::shared_ptr<NavMesh> navmesh;
    std::vector<uint8_t> erode_scratch;

    std::array<StageStats, kStageCount> stats;
    int dirty_from = 0;  // first stage without a current result
    BakeConfig config;
    std::vector<Stage> stages_run;
    uint64_t generation = 0;
    std::shared_ptr<const Bake> snap;
};

void Bake::drop_after(int stage) {
    auto drop = [stage](Stage s, auto& result) {
        if (static_cast<int>(s) > stage) result.reset();
    };
    drop(Stage::Input, tri_areas);
    drop(Stage::Rasterize, solid);
    drop(Stage::Filter, filtered);
    drop(Stage::Compact, compact);
    drop(Stage::Erode, eroded);
    drop(Stage::Areas, areas);
    drop(Stage::Distance, distance);
    drop(Stage::Regions, regions);
    drop(Stage::Regions, region_trace);
    drop(Stage::Contours, contours);
    drop(Stage::Polymesh, polymesh);
    drop(Stage::Detail, detail);
    drop(Stage::Navmesh, navmesh);
    built_through = std::min(built_through, stage);
}

int64_t Bake::count(std::string_view name) const {
    for (const StageStats& s : stats)
        for (const StageCount& c : s.counts)
            if (c.name == name) return c.value;
    return 0;
}

double Bake::walkable_area() const {
    if (!polymesh) return 0.0;
    const PolyMesh& pm = *polymesh;
    double area = 0.0;
    for (int i = 0; i < pm.npolys; ++i) {
        const uint16_t* p = pm.poly(i);
        const int n = pm.poly_vert_count(i);
        double a2 = 0.0;  // shoelace in voxel units
        for (int k = 0; k < n; ++k) {
            const uint16_t* va = &pm.verts[static_cast<size_t>(p[k]) * 3];
            const uint16_t* vb = &pm.verts[static_cast<size_t>(p[(k + 1) % n]) * 3];
            a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
        }
        area += std::abs(a2) * 0.5;
    }
    return area * static_cast<double>(pm.cs) * static_cast<double>(pm.cs);
}

std::vector<std::string> Bake::warnings() const {
    std::vector<std::string> w;
    if (contours)
        for (int r : contours->warnings)
            w.push_back("contours: region " + std::to_string(r) + " has a contour that was dropped or a hole that could not be merged");
    if (polymesh)
        for (const std::string& s : polymesh->warnings) w.push_back(s);  // already say "polymesh: ..."
    return w;
}

Pipeline::Pipeline() : impl_(std::make_unique<Impl>()) { impl_->snap = std::make_shared<Bake>(); }
Pipeline::~Pipeline() = default;

bool Pipeline::has_mesh() const { return impl_->mesh != nullptr; }

Status Pipeline::load_mesh(const std::string& path) {
    InputMesh m;
    if (Status st = load_obj(path, m); !st) return st;
    return set_mesh(std::move(m));
}

Status Pipeline::set_mesh(InputMesh mesh) {
    if (Status st = validate_mesh(mesh, mesh.path.empty() ? std::string("mesh") : mesh.path); !st) return st;
    mesh.compute_bounds();
    impl_->source = std::make_shared<const InputMesh>(std::move(mesh));
    refresh_mesh();
    mark_dirty(Stage::Input);
    return Status::ok();
}

MeshFix mesh_fix(const Params& p) {
    MeshFix f;
    f.scale = p.f(ParamId::mesh_scale);
    f.z_up = p.b(ParamId::mesh_z_up);
    f.flip_winding = p.b(ParamId::mesh_flip_winding);
    return f;
}

void Pipeline::refresh_mesh() {
    Impl& I = *impl_;
    if (!I.source) return;
    const MeshFix fix = mesh_fix(params_);
    if (fix.identity()) {
        I.mesh = I.source;
        return;
    }
    // a fresh copy each time: a published snapshot may still hold the previous one
    auto m = std::make_shared<InputMesh>();
    apply_mesh_fix(*I.source, fix, *m);
    I.mesh = std::move(m);
}

Status Pipeline::set_param(ParamId id, double value) {
    Params p = params_;
    if (Status st = p.set(id, value); !st) return st;
    set_params(p);
    return Status::ok();
}

Status Pipeline::set_param(std::string_view name, std::string_view value) {
    Params p = params_;
    if (Status st = p.set_from_string(name, value); !st) return st;
    set_params(p);
    return Status::ok();
}

namespace {
// The parameters the stages read only through their rounded voxel value in BakeConfig.
bool rounded_to_voxels(VoxelRule r) {
    return r == VoxelRule::CeilByCellHeight || r == VoxelRule::FloorByCellHeight || r == VoxelRule::CeilByCellSize ||
           r == VoxelRule::FloorByCellSize || r == VoxelRule::SquareCells;
}
bool same_voxel_values(const BakeConfig& a, const BakeConfig& b) {
    return a.walkable_height == b.walkable_height && a.walkable_climb == b.walkable_climb &&
           a.walkable_radius == b.walkable_radius && a.min_region_area == b.min_region_area &&
           a.merge_region_area == b.merge_region_area && a.max_edge_len == b.max_edge_len;
}
}  // namespace

void Pipeline::set_params(const Params& p) {
    // A change of such parameters that leaves every derived voxel value equal (agent_radius 0.6 ->
    // 0.5 m at 0.3 m cells: 2 cells either way) dirties nothing; the next run re-runs no stage.
    const InputMesh* mesh = impl_->mesh.get();
    const bool same_voxels =
        mesh && same_voxel_values(derive_config(params_, mesh->bmin, mesh->bmax), derive_config(p, mesh->bmin, mesh->bmax));
    for (const ParamDef& d : param_table())
        if (p.get(d.id) != params_.get(d.id) && !(same_voxels && rounded_to_voxels(d.voxel))) mark_dirty(d.stage);
    const bool refix = !(mesh_fix(p) == mesh_fix(params_));
    params_ = p;
    if (refix) refresh_mesh();
}

void Pipeline::set_volumes(std::vector<ConvexVolume> volumes) {
    volumes_ = std::move(volumes);
    mark_dirty(Stage::Areas);
}

void Pipeline::set_record_region_trace(bool on) {
    if (on == record_trace_) return;
    record_trace_ = on;
    mark_dirty(Stage::Regions);
}

void Pipeline::mark_dirty(Stage from) {
    Impl& I = *impl_;
    const int s = static_cast<int>(from);
    if (s < I.dirty_from) I.dirty_from = s;
    for (int k = I.dirty_from; k < kStageCount; ++k) I.stats[static_cast<size_t>(k)].built = false;
}

Stage Pipeline::first_dirty() const { return static_cast<Stage>(impl_->dirty_from); }

uint64_t estimate_bake_memory(const InputMesh& m, const BakeConfig& c) {
    const uint64_t cells = uint64_t(std::max(c.width, 0)) * uint64_t(std::max(c.height, 0));
    // Raw spans: one per column a triangle touches. A triangle touches at most its xz area in
    // cells plus its L1 perimeter in cells (the partly covered ones) plus its corners, and never
    // more than its bounding box. Computed in double: no overflow on any bounds.
    double spans = 0;
    const double inv = 1.0 / c.cs;
    for (int t = 0; t < m.tri_count(); ++t) {
        const float* v[3];
        for (int k = 0; k < 3; ++k) v[k] = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t * 3 + k)]) * 3];
        const double x0 = std::min({v[0][0], v[1][0], v[2][0]}), x1 = std::max({v[0][0], v[1][0], v[2][0]});
        const double z0 = std::min({v[0][2], v[1][2], v[2][2]}), z1 = std::max({v[0][2], v[1][2], v[2][2]});
        const double box = ((x1 - x0) * inv + 2.0) * ((z1 - z0) * inv + 2.0);
        const double area = 0.5 * std::fabs((double(v[1][0]) - v[0][0]) * (double(v[2][2]) - v[0][2]) -
                                            (double(v[2][0]) - v[0][0]) * (double(v[1][2]) - v[0][2])) * inv * inv;
        double perim = 0;
        for (int k = 0; k < 3; ++k)
            perim += std::fabs(double(v[(k + 1) % 3][0]) - v[k][0]) + std::fabs(double(v[(k + 1) % 3][2]) - v[k][2]);
        spans += std::min(box, area + perim * inv + 4.0);
    }
    spans = std::min(spans, double(cells) * 64.0);
    // Per cell: two column heads (solid, filtered), a compact cell. Per raw span, measured on
    // stacked floors and wide grids (tests/unit/test_hostile.cpp): the rasterized pool keeps the
    // capacity of its sort buffer (2 x 12 bytes), the filtered copy 12, the compact span 8, three
    // area arrays, distance and region ids 7, and the regions / contour stages' scratch about 25.
    const double mesh = double(m.verts.size()) * 4.0 * 2.0 + double(m.tris.size()) * 4.0 * 2.0 + m.tri_count() * 2.0;
    const double bytes = double(cells) * (4 + 4 + 8) + spans * (24 + 12 + 8 + 7 + 25) + mesh;
    return bytes >= 1.8e19 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(bytes);
}

uint64_t Pipeline::estimate_memory() const {
    const Impl& I = *impl_;
    if (!I.mesh) return 0;
    return estimate_bake_memory(*I.mesh, derive_config(params_, I.mesh->bmin, I.mesh->bmax));
}

std::shared_ptr<const Bake> Pipeline::snapshot() const { return impl_->snap; }

Status Pipeline::run(Stage to, const CancelFlag* cancel) {
    Impl& I = *impl_;
    using clock = std::chrono::steady_clock;
    I.stages_run.clear();
    Status result;
    int error_stage = -1;
    if (!I.mesh) {
        result = Status::bad_input("no mesh loaded");
        error_stage = 0;
    } else {
        I.snap.reset();  // our own hold must not keep stage buffers from being reused
        I.config = derive_config(params_, I.mesh->bmin, I.mesh->bmax);
        const BakeConfig& c = I.config;
        const InputMesh& m = *I.mesh;
        for (int s = I.dirty_from; s <= static_cast<int>(to); ++s) {
            if (is_cancelled(cancel)) {
                result = Status::cancelled();
                break;
            }
            if (progress_) progress_->store(s, std::memory_order_relaxed);
            StageStats& stats = I.stats[static_cast<size_t>(s)];
            stats.counts.clear();
            const auto t0 = clock::now();
            Status st;
            switch (static_cast<Stage>(s)) {
                case Stage::Input: {
                    auto& ta = writable(I.tri_areas);
                    ta.resize(static_cast<size_t>(m.tri_count()));
                    mark_walkable_triangles(c.walkable_slope_deg, m.verts.data(), m.tris.data(), m.tri_count(),
                                            ta.data());
                    const int64_t walkable = count_if_not_null(ta);
                    stats.counts = {{"verts", m.vert_count()}, {"tris", m.tri_count()}, {"walkable_tris", walkable}};
                    if (walkable == 0)
                        st = Status::bad_input(
                            "nothing walkable: none of the " + std::to_string(m.tri_count()) +
                            " triangles is flatter than agent_max_slope = " + params_.to_string(ParamId::agent_max_slope) +
                            " deg (is the mesh Y-up, and are its triangles wound counter-clockwise seen from above?)");
                    break;
                }
                case Stage::Rasterize: {
                    const uint64_t need = estimate_memory();
                    if (st = check_grid(c, params_); !st) {
                    } else if (need > memory_limit_) {
                        st = Status::bad_input("grid of " + std::to_string(c.width) + " x " + std::to_string(c.height) +
                                               " cells needs about " + std::to_string(need >> 20) +
                                               " MiB, over the memory limit of " + std::to_string(memory_limit_ >> 20) +
                                               " MiB; raise cell_size (now " + params_.to_string(ParamId::cell_size) +
                                               " m) or the limit");
                    } else {
                        auto& hf = writable(I.solid);
                        hf.reset(c.width, c.height, c.bmin, c.bmax, c.cs, c.ch, c.border_size);
                        st = rasterize_triangles(m.verts.data(), m.vert_count(), m.tris.data(), I.tri_areas->data(),
                                                 m.tri_count(), hf, c.walkable_climb, cancel);
                        stats.counts = {{"grid_width", c.width}, {"grid_height", c.height}, {"solid_spans", hf.span_count}};
                    }
                    break;
                }
                case Stage::Filter: {
                    auto& hf = writable(I.filtered);
                    hf = *I.solid;  // copy-assign keeps hf's capacity
                    if (c.filter_low_hanging) filter_low_hanging_obstacles(c.walkable_climb, hf);
                    if (c.filter_ledge) filter_ledge_spans(c.walkable_height, c.walkable_climb, hf);
                    if (c.filter_low_height) filter_walkable_low_height_spans(c.walkable_height, hf);
                    int64_t walkable = 0, ledge = 0, low = 0;
                    for (uint32_t col : hf.columns)
                        for (uint32_t i = col; i != kNullSpan; i = hf.pool[i].next) {
                            walkable += hf.pool[i].area != kNullArea;
                            ledge += (hf.pool[i].filtered_by & kFilteredLedge) != 0;
                            low += (hf.pool[i].filtered_by & kFilteredLowHeight) != 0;
                        }
                    stats.counts = {{"walkable_solid_spans", walkable}, {"ledge_removed", ledge}, {"low_height_removed", low}};
                    break;
                }
                case Stage::Compact: {
                    auto& chf = writable(I.compact);
                    st = build_compact_heightfield(c.walkable_height, c.walkable_climb, *I.filtered, chf);
                    stats.counts = {{"compact_spans", chf.span_count}};
                    break;
                }
                case Stage::Erode: {
                    auto& a = writable(I.eroded);
                    a = I.compact->areas;
                    st = erode_walkable_area(c.walkable_radius, *I.compact, a, I.erode_scratch);
                    stats.counts = {{"walkable_spans", count_if_not_null(a)}};
                    break;
                }
                case Stage::Areas: {
                    auto& a = writable(I.areas);
                    a = *I.eroded;
                    for (const ConvexVolume& v : volumes_) mark_convex_volume(*I.compact, v, a);
                    int64_t marked = 0;
                    for (uint8_t x : a) marked += x != kNullArea && x != kWalkableArea;
                    stats.counts = {{"volumes", static_cast<int64_t>(volumes_.size())}, {"volume_spans", marked}};
                    break;
                }
                case Stage::Distance: {
                    auto& df = writable(I.distance);
                    st = build_distance_field(*I.compact, *I.areas, df, cancel);
                    stats.counts = {{"max_distance", df.max_dist}};
                    break;
                }
                case Stage::Regions: {
                    auto& r = writable(I.regions);
                    if (!record_trace_) I.region_trace.reset();  // no stale trace kept while off
                    RegionTrace* trace = record_trace_ ? &writable(I.region_trace) : nullptr;
                    switch (c.partition) {
                        case Partition::Watershed:
                            st = build_regions_watershed(*I.compact, *I.areas, *I.distance, c.border_size,
                                                         c.min_region_area, c.merge_region_area, r, cancel, trace);
                            break;
                        case Partition::Monotone:
                            st = build_regions_monotone(*I.compact, *I.areas, c.border_size, c.min_region_area,
                                                        c.merge_region_area, r, cancel, trace);
                            break;
                        case Partition::Layers:
                            st = build_regions_layers(*I.compact, *I.areas, c.border_size, c.min_region_area, r, cancel,
                                                      trace);
                            break;
                    }
                    stats.counts = {{"regions", r.region_count}};
                    break;
                }
                case Stage::Contours: {
                    auto& cs = writable(I.contours);
                    st = build_contours(*I.compact, *I.areas, *I.regions, c.max_simplification_error, c.max_edge_len,
                                        kTessWallEdges, cs, cancel);
                    int64_t nv = 0, outlines = 0;  // holes merged into an outline stay behind with no vertices
                    for (const Contour& k : cs.contours) {
                        nv += k.nverts;
                        outlines += k.nverts > 0;
                    }
                    stats.counts = {{"contours", outlines}, {"contour_verts", nv}};
                    break;
                }
                case Stage::Polymesh: {
                    auto& pm = writable(I.polymesh);
                    st = build_poly_mesh(*I.contours, c.verts_per_poly, pm, cancel);
                    stats.counts = {{"poly_verts", pm.nverts}, {"polys", pm.npolys}};
                    break;
                }
                case Stage::Detail: {
                    auto& dm = writable(I.detail);
                    st = build_poly_mesh_detail(*I.polymesh, *I.compact, *I.regions, c.detail_sample_dist,
                                                c.detail_sample_max_error, dm, cancel);
                    stats.counts = {{"detail_verts", dm.nverts}, {"detail_tris", dm.ntris}};
                    break;
                }
                case Stage::Navmesh: {
                    auto& nm = writable(I.navmesh);
                    st = build_navmesh(*I.polymesh, *I.detail, nm);
                    stats.counts = {{"navmesh_polys", nm.npolys}, {"islands", nm.nislands}};
                    break;
                }
                case Stage::Count: break;
            }
            stats.ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
            if (!st) {
                result = st;
                error_stage = s;
                stats.built = false;
                break;
            }
            stats.built = true;
            I.dirty_from = s + 1;
            I.stages_run.push_back(static_cast<Stage>(s));
        }
    }

    auto b = std::make_shared<Bake>();
    b->generation = ++I.generation;
    b->params = params_;
    b->config = I.config;
    b->volumes = volumes_;
    b->stats = I.stats;
    b->built_through = I.dirty_from - 1;
    b->error = result;
    b->error_stage = error_stage;
    b->stages_run = I.stages_run;
    b->mesh = I.mesh;
    b->tri_areas = I.tri_areas;
    b->solid = I.solid;
    b->filtered = I.filtered;
    b->compact = I.compact;
    b->eroded = I.eroded;
    b->areas = I.areas;
    b->distance = I.distance;
    b->regions = I.regions;
    if (record_trace_) b->region_trace = I.region_trace;
    b->contours = I.contours;
    b->polymesh = I.polymesh;
    b->detail = I.detail;
    b->navmesh = I.navmesh;
    b->drop_after(b->built_through);  // results past the last current stage are stale
    I.snap = std::move(b);
    return result;
}

// ---- JSON config -----------------------------------------------------------------------------

Status parse_config_json(std::string_view text, const std::string& what, Params& params,
                         std::vector<ConvexVolume>& volumes) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e400
        return Status::bad_input(what + ": not valid JSON (" + std::string(e.what()) + ")");
    }
    if (!j.is_object()) return Status::bad_input(what + ": expected a JSON object of parameter names");
    Params p = params;
    std::vector<ConvexVolume> vols = volumes;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        const nlohmann::json& v = it.value();
        if (key == "volumes") {
            if (!v.is_array()) return Status::bad_input(what + ": \"volumes\" must be an array");
            vols.clear();
            for (size_t i = 0; i < v.size(); ++i) {
                const std::string where = what + ": volumes[" + std::to_string(i) + "]";
                const nlohmann::json& o = v[i];
                if (!o.is_object() || !o.contains("verts") || !o["verts"].is_array())
                    return Status::bad_input(where + ": expected {\"verts\": [[x,y,z],...], \"hmin\", \"hmax\", \"area\"}");
                ConvexVolume cv;
                for (const auto& pt : o["verts"]) {
                    if (!pt.is_array() || pt.size() != 3 || !pt[0].is_number() || !pt[1].is_number() || !pt[2].is_number())
                        return Status::bad_input(where + ": each vertex must be [x, y, z] numbers");
                    for (int k = 0; k < 3; ++k) {
                        const double x = pt[static_cast<size_t>(k)].get<double>();
                        if (!(std::fabs(x) <= kMaxCoordinate))  // checked before the float conversion
                            return Status::bad_input(where + ": coordinate " + std::to_string(x) + " is beyond +-1e6 m");
                        cv.verts.push_back(static_cast<float>(x));
                    }
                }
                float ylo = 1e30f, yhi = -1e30f;
                for (size_t k = 1; k < cv.verts.size(); k += 3) {
                    ylo = std::min(ylo, cv.verts[k]);
                    yhi = std::max(yhi, cv.verts[k]);
                }
                cv.hmin = ylo;
                cv.hmax = yhi;
                for (const char* key2 : {"hmin", "hmax"}) {
                    if (!o.contains(key2)) continue;
                    if (!o[key2].is_number()) return Status::bad_input(where + ": \"" + key2 + "\" must be a number");
                    const double h = o[key2].get<double>();
                    if (!(std::fabs(h) <= kMaxCoordinate))
                        return Status::bad_input(where + ": \"" + key2 + "\" is beyond +-1e6 m");
                    (std::string(key2) == "hmin" ? cv.hmin : cv.hmax) = static_cast<float>(h);
                }
                if (o.contains("area")) {
                    const auto& a = o["area"];
                    if (a.is_string()) {
                        if (!area_from_name(a.get<std::string>(), cv.area))
                            return Status::bad_input(where + ": unknown area \"" + a.get<std::string>() +
                                                     "\" (expected ground, water, road, door, grass, jump or 1..63)");
                    } else if (a.is_number_integer() && a.get<double>() >= 1 && a.get<double>() <= 63) {
                        cv.area = static_cast<uint8_t>(a.get<double>());
                    } else {
                        return Status::bad_input(where + ": \"area\" must be a name or an id in 1..63");
                    }
                }
                for (auto k2 = o.begin(); k2 != o.end(); ++k2)
                    if (k2.key() != "verts" && k2.key() != "hmin" && k2.key() != "hmax" && k2.key() != "area")
                        return Status::bad_input(where + ": unknown key \"" + k2.key() + "\"");
                if (Status st = validate_volume(cv, where); !st) return st;
                vols.push_back(std::move(cv));
            }
            continue;
        }
        const ParamDef* d = find_param(key);
        if (!d) {
            std::string known;
            for (const ParamDef& t : param_table()) {
                if (!known.empty()) known += ", ";
                known += t.name;
            }
            return Status::bad_input(what + ": unknown key \"" + key + "\" (known: " + known + ", volumes)");
        }
        std::string sval;
        if (v.is_boolean()) sval = v.get<bool>() ? "true" : "false";
        else if (v.is_number()) {
            std::ostringstream os;
            os.precision(17);
            os << v.get<double>();
            sval = os.str();
        } else if (v.is_string()) sval = v.get<std::string>();
        else return Status::bad_input(what + ": \"" + key + "\" must be a number, boolean or string");
        if (Status st = p.set_from_string(key, sval); !st) return Status::bad_input(what + ": " + st.message);
    }
    params = p;
    volumes = std::move(vols);
    return Status::ok();
}

Status load_config_file(const std::string& path, Params& params, std::vector<ConvexVolume>& volumes) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status fst = fs::status(path, ec);
    if (ec || !fs::exists(fst)) return Status::bad_input(path + ": cannot open config file (not found)");
    if (fs::is_directory(fst)) return Status::bad_input(path + ": is a directory, expected a JSON config file");
    if (!fs::is_regular_file(fst) && !fs::is_fifo(fst))
        return Status::bad_input(path + ": not a regular file or a pipe, expected a JSON config file");
    std::ifstream f(path, std::ios::binary);
    if (!f) return Status::bad_input(path + ": cannot open config file");
    constexpr size_t kMaxConfigBytes = size_t(64) << 20;  // a config is a few hundred bytes
    std::string text;
    char buf[1 << 14];
    while (f.read(buf, sizeof buf), f.gcount() > 0) {
        text.append(buf, static_cast<size_t>(f.gcount()));
        if (text.size() > kMaxConfigBytes)
            return Status::bad_input(path + ": over " + std::to_string(kMaxConfigBytes >> 20) +
                                     " MiB, not a config file");
    }
    return parse_config_json(text, path, params, volumes);
}

}  // namespace nav
