// Panels that agree with the bake (issue 23): every value the Parameters panel's sliders offer
// either bakes or is named in the Warnings panel before the bake (diagnose, the panel's core
// check), a tile_size above the grid bakes one tile, and applying the Warnings' offered fixes one
// after another ends and never brings back a warning an earlier fix cleared.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "core/explain/diagnose.h"
#include "core/pipeline/pipeline.h"
#include "test_scenes.h"

bool write_large_scene(const std::string& path);  // tools/large_scene.cpp

using namespace nav;

namespace {

// A 20 x 20 m floor with two boxes on it (one a walkable step).
InputMesh small_room() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 20, 20, 0);
    navtest::add_box(m, 5, 0, 5, 8, 3, 9);
    navtest::add_box(m, 12, 0, 12, 15, 0.4f, 15);
    return m;
}

// Three 24 x 16 m floors 3.5 m apart, each with a hole over a box on the floor below.
InputMesh floors3() {
    InputMesh m;
    for (int k = 0; k < 3; ++k) {
        const float y = 3.5f * static_cast<float>(k);
        navtest::add_floor(m, 0, 0, 10, 16, y);
        navtest::add_floor(m, 14, 0, 24, 16, y);
        navtest::add_floor(m, 10, 0, 14, 6, y);
        navtest::add_floor(m, 10, 10, 14, 16, y);
        navtest::add_box(m, 3, y, 3, 6, y + 1.0f, 6);
    }
    return m;
}

// The values a slider offers over [lo, hi], n of them with both ends: log-spaced for a float
// slider whose range is positive (ImGui's logarithmic sliders), whole numbers for an int one.
std::vector<double> sweep(const ParamDef& d, ParamRange r, int n) {
    std::vector<double> v;
    if (d.kind == ParamKind::Bool || d.kind == ParamKind::Enum) {
        for (double x = r.min; x <= r.max; x += 1.0) v.push_back(x);
        return v;
    }
    for (int k = 0; k < n; ++k) {
        const double t = double(k) / (n - 1);
        double x = r.min > 0.0 && d.kind == ParamKind::Float ? r.min * std::pow(r.max / r.min, t)
                                                              : r.min + (r.max - r.min) * t;
        if (d.kind == ParamKind::Int) x = std::round(x);
        v.push_back(std::clamp(x, r.min, r.max));
    }
    if (d.kind == ParamKind::Int && r.min + 1 <= r.max) v.push_back(r.min + 1);  // tile_size 1: under its border
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

std::string names(const std::vector<Diagnostic>& list) {
    std::string s;
    for (const Diagnostic& d : list) s += std::string(warning_name(d.kind)) + " ";
    return s;
}

std::set<WarningKind> kinds(const std::vector<Diagnostic>& list) {
    std::set<WarningKind> k;
    for (const Diagnostic& d : list) k.insert(d.kind);
    return k;
}

// Every slider value of every parameter (the others at defaults) on mesh m bakes, or the
// warnings diagnosed on it before the bake (as the panel shows them: the last bake's mesh, the
// new parameters) name the parameter.
void check_sweep(const InputMesh& m, int n) {
    Pipeline pipe;
    REQUIRE(pipe.set_mesh(m));
    REQUIRE(pipe.run(Stage::Input));
    const std::shared_ptr<const Bake> before = pipe.snapshot();
    const MeshShape shape = analyze_mesh(*before->mesh);
    int baked = 0, refused = 0, huge = 0;
    for (const ParamDef& d : param_table()) {
        const ParamRange r = slider_range(d.id, Params{}, before->mesh->bmin, before->mesh->bmax);
        for (const double v : sweep(d, r, n)) {
            Params p;
            REQUIRE(p.set(d.id, v));
            const std::vector<Diagnostic> warned = diagnose(p, before.get(), &shape);
            // a grid warned as huge bakes, slowly and in gigabytes: not here (mesh_scale 100 makes
            // the room 2 km wide), the warning names it before the bake
            if (kinds(warned).count(WarningKind::HugeGrid)) {
                ++huge;
                continue;
            }
            Pipeline b;
            REQUIRE(b.set_mesh(m));
            REQUIRE(b.set_input(&nav::BakeInputs::params, p));
            const Status st = b.run(kLastStage);
            if (st) {
                ++baked;
                continue;
            }
            ++refused;
            INFO(d.name << " = " << v << ": the bake failed: " << st.message << "; warnings: " << names(warned));
            const bool named = std::any_of(warned.begin(), warned.end(), [&](const Diagnostic& w) {
                return (w.title + " " + w.reason + " " + w.fix_text).find(d.name) != std::string::npos;
            });
            CHECK(named);
        }
    }
    MESSAGE("slider sweep: " << baked << " values baked, " << refused << " refused and named in the warnings, " << huge
                              << " warned as a huge grid (not baked)");
    CHECK(baked > 0);
}

// Applies the first offered fix, re-diagnoses (re-baking through `to` when given a stage past
// the input), at most 3 x WarningKind::Count times: the loop must end (nothing offered) and no
// warning an earlier fix cleared may come back.
void check_fix_loop(const InputMesh& m, Params p, Stage to) {
    Pipeline pipe;
    REQUIRE(pipe.set_mesh(m));
    std::set<WarningKind> cleared;
    std::string trail;
    for (int step = 0; step < 3 * static_cast<int>(WarningKind::Count); ++step) {
        REQUIRE(pipe.set_input(&nav::BakeInputs::params, p));
        (void)pipe.run(to);
        const std::shared_ptr<const Bake> bake = pipe.snapshot();
        const MeshShape shape = analyze_mesh(*bake->mesh);
        const std::vector<Diagnostic> list = diagnose(p, bake.get(), &shape);
        INFO("fixes applied: " << trail << "; warnings now: " << names(list));
        for (WarningKind k : kinds(list)) CHECK_MESSAGE(!cleared.count(k), warning_name(k) << " came back");
        const auto fix = std::find_if(list.begin(), list.end(), [](const Diagnostic& d) { return !d.fix.empty(); });
        if (fix == list.end()) {
            MESSAGE("fix loop ended after " << step << " fix(es): " << (trail.empty() ? "none" : trail)
                                            << "; left: " << (list.empty() ? "nothing" : names(list)));
            return;
        }
        Params q = p;
        REQUIRE(apply_fix(*fix, q));
        trail += fix->fix_text + "; ";
        const std::set<WarningKind> now = kinds(list);
        const std::set<WarningKind> after = kinds(diagnose(q, bake.get(), &shape));
        for (WarningKind k : now)
            if (!after.count(k)) cleared.insert(k);
        p = q;
    }
    FAIL("the offered fixes never ran out: " << trail);
}

}  // namespace

TEST_CASE("agree: a tile_size above the grid bakes one tile over the grid") {
    const InputMesh m = small_room();  // 67 x 67 cells at 0.3 m
    Params p;
    REQUIRE(p.set(ParamId::tile_size, 4096));
    Pipeline pipe;
    REQUIRE(pipe.set_mesh(m));
    REQUIRE(pipe.set_input(&nav::BakeInputs::params, p));
    const Status st = pipe.run(kLastStage);
    INFO(st.message);
    REQUIRE(st);
    const std::shared_ptr<const Bake> b = pipe.snapshot();
    CHECK(b->layout.count() == 1);
    CHECK(b->layout.tile_size == std::max(b->config.width, b->config.height));
    CHECK(b->count("polys") > 0);
    // the same polygons as tile_size = the grid's side, which baked before
    Params at_grid;
    REQUIRE(at_grid.set(ParamId::tile_size, b->layout.tile_size));
    Pipeline same;
    REQUIRE(same.set_mesh(m));
    REQUIRE(same.set_input(&nav::BakeInputs::params, at_grid));
    REQUIRE(same.run(kLastStage));
    CHECK(same.snapshot()->count("polys") == b->count("polys"));
    CHECK(same.snapshot()->walkable_area() == doctest::Approx(b->walkable_area()));
    // the slider stops at the grid (the border when the grid is smaller)
    const ParamRange r = slider_range(ParamId::tile_size, Params{}, b->mesh->bmin, b->mesh->bmax);
    CHECK(r.min == 0);
    CHECK(r.max == std::max(b->config.width, b->config.height));
    const ParamRange table = slider_range(ParamId::tile_size, Params{});
    CHECK(table.max == param_def(ParamId::tile_size).max);
    const float tiny_min[3] = {0, 0, 0}, tiny_max[3] = {1, 0, 1};  // 3 x 3 cells, border 5
    CHECK(slider_range(ParamId::tile_size, Params{}, tiny_min, tiny_max).max == 5);
}

TEST_CASE("agree: every slider value bakes or is named in the warnings (a small level)") { check_sweep(small_room(), 7); }

TEST_CASE("agree: every slider value bakes or is named in the warnings (three floors)") { check_sweep(floors3(), 7); }

TEST_CASE("agree: the warnings' fixes end without undoing each other (three floors)") {
    const InputMesh m = floors3();
    const char* starts[][2] = {{"cell_size", "0.3"}, {"cell_size", "0.5"}, {"cell_size", "0.31"}, {"cell_height", "0.6"},
                               {"agent_radius", "0.2"}, {"cell_size", "1.5"}};
    for (auto [name, value] : starts) {
        Params p;
        REQUIRE(p.set_from_string(name, value));
        const std::string start = std::string(name) + " = " + value;
        INFO("start: " << start);
        check_fix_loop(m, p, kLastStage);
    }
}

TEST_CASE("agree: the warnings' fixes end without undoing each other (the large generated level)") {
    // cell_size 0.3 -> 0.31 for "grid will be huge", then 0.31 -> 0.3 for "radius under two cells", forever
    char path[] = "/tmp/navtest_large_XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    const std::string obj = std::string(path) + ".obj";
    std::rename(path, obj.c_str());
    REQUIRE(write_large_scene(obj));
    InputMesh m;
    const Status st = load_obj(obj, m);
    std::remove(obj.c_str());
    REQUIRE(st);
    // diagnosed after the input stage, as the panel does before the grid is allocated
    for (const char* cs : {"0.3", "0.31", "0.2"}) {
        Params p;
        REQUIRE(p.set_from_string("cell_size", cs));
        const std::string start = std::string("cell_size = ") + cs;
        INFO("start: " << start);
        check_fix_loop(m, p, Stage::Input);
    }
}
