// Undo / redo (app/navdebug/undo.h) over what the debugger's history holds: parameters, volumes
// and the prune point. A scripted sequence of two parameter changes, a Warnings fix and a prune
// on the demo scene, undone step by step on the same (incremental) pipeline, restores bakes that
// are byte-identical to the ones first made at each step; redo replays them identically.
#include <doctest/doctest.h>

#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "tests/config_inputs.h"
#include "app/navdebug/undo.h"
#include "core/explain/diagnose.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/islands.h"
#include "core/runtime/query.h"

namespace {

struct EditState {
    nav::Params params;
    std::vector<nav::ConvexVolume> volumes;
    std::optional<std::array<float, 3>> prune;
    bool operator==(const EditState&) const = default;
};

template <class T>
void append_bytes(std::string& out, const std::vector<T>& v) {
    const size_t n = v.size() * sizeof(T);
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    if (n) out.append(reinterpret_cast<const char*>(v.data()), n);
}

// Bakes `s` on `p` (incrementally: only what the change dirties re-runs), applies the prune as
// the debugger does and returns the navmesh and polygon mesh as bytes.
std::string bake_bytes(nav::Pipeline& p, const EditState& s) {
    REQUIRE(p.set_input(&nav::BakeInputs::params, s.params));
    if (s.volumes != p.inputs().volumes) REQUIRE(p.set_input(&nav::BakeInputs::volumes, s.volumes));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    REQUIRE(b->navmesh);
    REQUIRE(b->polymesh);
    nav::NavMesh m = *b->navmesh;
    if (s.prune) {
        nav::QueryFilter any;
        any.exclude_flags = 0;
        nav::NavQuery q;
        q.init(b->navmesh.get());
        nav::NearestPoly hit;
        const float ext[3] = {2.0f, 4.0f, 2.0f};
        REQUIRE(q.find_nearest_poly(s.prune->data(), ext, any, hit));
        REQUIRE(hit.poly != nav::kNoRef);
        REQUIRE(nav::prune_unreachable(m, hit.poly));
    }
    std::string out;
    append_bytes(out, m.verts);
    append_bytes(out, m.poly_first);
    append_bytes(out, m.edge_vert);
    append_bytes(out, m.edge_nei);
    append_bytes(out, m.areas);
    append_bytes(out, m.flags);
    append_bytes(out, b->polymesh->verts);
    append_bytes(out, b->polymesh->polys);
    return out;
}

}  // namespace

TEST_CASE("undo: commit, undo, redo and the dropped redo branch") {
    navdebug::UndoStack<int> u;
    CHECK_FALSE(u.commit(1));  // the baseline
    CHECK_FALSE(u.can_undo());
    CHECK_FALSE(u.commit(1));  // unchanged: no step
    CHECK(u.commit(2));
    CHECK(u.commit(3));
    CHECK(u.undo_steps() == 2);
    CHECK(u.undo() == 2);
    CHECK(u.undo() == 1);
    CHECK_FALSE(u.can_undo());
    CHECK(u.undo() == 1);  // nothing further back
    CHECK(u.redo() == 2);
    CHECK(u.redo_steps() == 1);
    CHECK(u.commit(5));  // a new edit drops the redo branch (3)
    CHECK_FALSE(u.can_redo());
    CHECK(u.undo() == 2);
    CHECK(u.redo() == 5);
    u.reset(9);
    CHECK_FALSE(u.can_undo());
    CHECK_FALSE(u.can_redo());
    CHECK(u.current() == 9);

    navdebug::UndoStack<int> small(3);  // the oldest steps go past the limit
    for (int i = 0; i < 10; ++i) small.commit(i);
    CHECK(small.undo_steps() == 2);
    CHECK(small.undo() == 8);
    CHECK(small.undo() == 7);
    CHECK_FALSE(small.can_undo());
}

TEST_CASE("undo: parameter changes, a fix and a prune undone step by step restore byte-identical bakes") {
    const std::string dir = std::string(NAV_SOURCE_DIR) + "/assets/";
    nav::Pipeline p;
    REQUIRE(p.load_mesh(dir + "demo.obj"));
    EditState s;
    REQUIRE(navtest::load_config(dir + "demo.json", s.params, s.volumes));

    navdebug::UndoStack<EditState> history;
    std::vector<EditState> states;
    std::vector<std::string> bakes;
    auto step = [&](const EditState& next) {
        const bool recorded = history.commit(next);
        CHECK(recorded == !states.empty());  // the first is the baseline
        states.push_back(next);
        bakes.push_back(bake_bytes(p, next));
    };
    step(s);
    // 1. a parameter change that changes the voxels (2 -> 3 cells of erosion)
    REQUIRE(s.params.set(nav::ParamId::agent_radius, 0.9));
    step(s);
    // 2. a late-stage parameter
    REQUIRE(s.params.set(nav::ParamId::verts_per_poly, 3));
    step(s);
    // 3. a radius under two cells, then the Warnings panel's fix for it
    REQUIRE(s.params.set(nav::ParamId::agent_radius, 0.35));
    step(s);
    const auto diags = nav::diagnose(s.params, p.snapshot().get(), nullptr);
    const nav::Diagnostic* radius = nullptr;
    for (const nav::Diagnostic& d : diags)
        if (d.kind == nav::WarningKind::RadiusUnderTwoCells) radius = &d;
    REQUIRE(radius);
    REQUIRE_FALSE(radius->fix.empty());
    for (const nav::ParamChange& c : radius->fix) REQUIRE(s.params.set(c.id, c.value));
    step(s);
    // 4. a prune from the plaza: the unreachable platform is disabled
    s.prune = std::array<float, 3>{0.0f, 0.2f, 0.0f};
    step(s);
    REQUIRE(states.size() == 6);
    for (size_t i = 1; i < bakes.size(); ++i) CHECK(bakes[i] != bakes[i - 1]);  // every step changed the bake

    // undo to the start, re-baking each state on the same pipeline
    for (size_t i = states.size() - 1; i-- > 0;) {
        REQUIRE(history.can_undo());
        const EditState& back = history.undo();
        CHECK(back == states[i]);
        CHECK(bake_bytes(p, back) == bakes[i]);
    }
    CHECK_FALSE(history.can_undo());
    // redo to the end
    for (size_t i = 1; i < states.size(); ++i) {
        REQUIRE(history.can_redo());
        const EditState& fwd = history.redo();
        CHECK(fwd == states[i]);
        CHECK(bake_bytes(p, fwd) == bakes[i]);
    }
    CHECK_FALSE(history.can_redo());
}
