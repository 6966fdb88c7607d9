#include "core/crowd/scenario.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numbers>

namespace nav {

namespace {

float dist_xz(const float* a, const float* b) { return std::hypot(a[0] - b[0], a[2] - b[2]); }

// A point on the navmesh right at (x, z) near height y (within a few centimetres in xz), in the
// island `island` (kNoPoly: any).
bool on_mesh_at(NavQuery& q, const NavMesh& m, const QueryFilter& f, float x, float y, float z, uint32_t island, float* out) {
    const float c[3] = {x, y, z};
    const float ext[3] = {0.05f, 3.0f, 0.05f};
    NearestPoly np;
    if (!q.find_nearest_poly(c, ext, f, np) || np.poly == kNoRef) return false;
    if (dist_xz(np.point, c) > 0.01f) return false;
    if (island != kNoPoly && m.poly_island[m.poly_index(np.poly)] != island) return false;
    std::memcpy(out, np.point, sizeof(float) * 3);
    return true;
}

uint32_t island_at(NavQuery& q, const NavMesh& m, const QueryFilter& f, const float* p) {
    const float ext[3] = {0.5f, 3.0f, 0.5f};
    NearestPoly np;
    if (!q.find_nearest_poly(p, ext, f, np) || np.poly == kNoRef) return kNoPoly;
    return m.poly_island[m.poly_index(np.poly)];
}

// n points around `center` on the navmesh, `spacing` apart on a square grid walked outward ring by
// ring, in the same island; BadInput when fewer fit within 60 m.
Status cluster(NavQuery& q, const NavMesh& m, const QueryFilter& f, const float* center, int n, float spacing, std::vector<float>& out) {
    out.clear();
    const uint32_t isl = island_at(q, m, f, center);
    float p[3];
    const int max_ring = static_cast<int>(60.0f / spacing) + 1;
    for (int ring = 0; ring <= max_ring && static_cast<int>(out.size() / 3) < n; ++ring) {
        for (int dz = -ring; dz <= ring && static_cast<int>(out.size() / 3) < n; ++dz)
            for (int dx = -ring; dx <= ring && static_cast<int>(out.size() / 3) < n; ++dx) {
                if (std::max(std::abs(dx), std::abs(dz)) != ring) continue;
                if (on_mesh_at(q, m, f, center[0] + static_cast<float>(dx) * spacing, center[1], center[2] + static_cast<float>(dz) * spacing, isl, p))
                    out.insert(out.end(), p, p + 3);
            }
    }
    if (static_cast<int>(out.size() / 3) < n)
        return Status::bad_input("crowd scenario: only " + std::to_string(out.size() / 3) + " of " + std::to_string(n) +
                                 " agents fit on the navmesh within 60 m of the cluster's centre");
    return Status::ok();
}

// The most open of `tries` random points: the one farthest from any wall.
void open_point(NavQuery& q, const QueryFilter& f, Rng& rng, int tries, float* out, float* clearance) {
    *clearance = -1;
    RandomPoint rp;
    WallHit wh;
    for (int t = 0; t < tries; ++t) {
        if (!q.random_point(f, rng, rp) || rp.poly == kNoRef) continue;
        if (!q.find_distance_to_wall(rp.poly, rp.point, 100.0f, f, wh)) continue;
        if (wh.distance > *clearance) {
            *clearance = wh.distance;
            std::memcpy(out, rp.point, sizeof(float) * 3);
        }
    }
}

// Two reachable points far apart (the longest of `tries` random routes up to max_len). For the
// doorway, the pair whose route passes closest to a wall at a corner (the tightest squeeze).
Status far_pair(NavQuery& q, const QueryFilter& f, Rng& rng, bool tightest, float* a, float* b) {
    RandomPoint p0, p1;
    Route route;
    WallHit wh;
    const float ext[3] = {0.5f, 3.0f, 0.5f};
    float best = -1;
    for (int t = 0; t < 96; ++t) {
        if (!q.random_point(f, rng, p0) || !q.random_point(f, rng, p1) || p0.poly == kNoRef) continue;
        if (!q.find_route(p0.point, p1.point, ext, f, RouteOptions{}, route) || !route.path.reached) continue;
        const float len = static_cast<float>(route.length_xz());
        if (len < 8.0f || len > 60.0f) continue;
        float score = len;
        if (tightest) {
            float tight = 1e9f;
            for (int k = 1; k + 1 < route.straight.size(); ++k) {
                const PolyRef pr = route.straight.polys[static_cast<size_t>(k)];
                if (pr == kNoRef) continue;
                if (q.find_distance_to_wall(pr, &route.straight.points[static_cast<size_t>(k) * 3], 20.0f, f, wh)) tight = std::min(tight, wh.distance);
            }
            if (tight > 1e8f) continue;  // a straight route squeezes past nothing
            score = 100.0f - tight;  // tighter is better; then longer among equals
        }
        if (score > best) {
            best = score;
            std::memcpy(a, p0.point, sizeof(float) * 3);
            std::memcpy(b, p1.point, sizeof(float) * 3);
        }
    }
    if (best < 0)
        return Status::bad_input(std::string("crowd scenario: no two points 8..60 m apart joined by a path") +
                                 (tightest ? " past a corner" : "") + " among 96 tries");
    return Status::ok();
}

}  // namespace

const char* crowd_scenario_name(CrowdScenario s) {
    switch (s) {
        case CrowdScenario::Circle: return "circle";
        case CrowdScenario::Corridor: return "corridor";
        case CrowdScenario::Doorway: return "doorway";
        case CrowdScenario::Random: return "random";
    }
    return "?";
}

Status parse_crowd_scenario(const std::string& name, CrowdScenario* out) {
    for (CrowdScenario s : {CrowdScenario::Circle, CrowdScenario::Corridor, CrowdScenario::Doorway, CrowdScenario::Random})
        if (name == crowd_scenario_name(s)) {
            *out = s;
            return Status::ok();
        }
    return Status::bad_input("--crowd: unknown scenario \"" + name + "\", expected circle, corridor, doorway or random");
}

Status make_crowd_scenario(const NavMesh& mesh, const ScenarioSpec& spec, ScenarioAgents& out) {
    out.starts.clear();
    out.goals.clear();
    if (spec.agents < 1 || spec.agents > kMaxCrowdAgents)
        return Status::bad_input("crowd scenario: " + std::to_string(spec.agents) + " agents, expected 1.." + std::to_string(kMaxCrowdAgents));
    if (Status s = validate_agent_params(spec.params); !s) return s;
    NavQuery q;
    q.init(&mesh);
    const QueryFilter f = agent_filter(spec.params);
    Rng rng(spec.seed * 0x9e3779b97f4a7c15ull + 1);
    RandomPoint rp;
    if (!q.random_point(f, rng, rp) || rp.poly == kNoRef)
        return Status::bad_input("crowd scenario: the navmesh has no polygon this agent type may use");
    const int n = spec.agents;
    const float r = spec.params.radius;
    const float spacing = 2 * r + 0.3f;
    switch (spec.kind) {
        case CrowdScenario::Circle: {
            float c[3], clearance;
            open_point(q, f, rng, 128, c, &clearance);
            const float want = static_cast<float>(n) * spacing / (2 * std::numbers::pi_v<float>);
            // At least ten radii across: a few agents starting a step from the centre is no swap.
            const float R = std::max(std::min(std::max(want, 10 * r), clearance * 0.95f), spacing);
            const uint32_t isl = island_at(q, mesh, f, c);
            for (int i = 0; i < n; ++i) {
                const float ang = 2 * std::numbers::pi_v<float> * static_cast<float>(i) / static_cast<float>(n);
                float s[3], g[3];
                // Where the circle leaves the navmesh, the point pulled in toward the centre.
                bool ok_s = false, ok_g = false;
                for (float k = 1.0f; k > 0.05f && !(ok_s && ok_g); k -= 0.05f) {
                    if (!ok_s) ok_s = on_mesh_at(q, mesh, f, c[0] + std::cos(ang) * R * k, c[1], c[2] + std::sin(ang) * R * k, isl, s);
                    if (!ok_g) ok_g = on_mesh_at(q, mesh, f, c[0] - std::cos(ang) * R * k, c[1], c[2] - std::sin(ang) * R * k, isl, g);
                }
                if (!ok_s) std::memcpy(s, c, sizeof s);
                if (!ok_g) std::memcpy(g, c, sizeof g);
                out.starts.insert(out.starts.end(), s, s + 3);
                out.goals.insert(out.goals.end(), g, g + 3);
            }
            return Status::ok();
        }
        case CrowdScenario::Corridor:
        case CrowdScenario::Doorway: {
            float a[3], b[3];
            if (Status s = far_pair(q, f, rng, spec.kind == CrowdScenario::Doorway, a, b); !s) return s;
            if (spec.kind == CrowdScenario::Doorway) {
                // All from around a to around b: they must file through the squeeze.
                if (Status s = cluster(q, mesh, f, a, n, spacing, out.starts); !s) return s;
                return cluster(q, mesh, f, b, n, spacing, out.goals);
            }
            const int na = (n + 1) / 2, nb = n - na;
            std::vector<float> ca, cb;
            if (Status s = cluster(q, mesh, f, a, std::max(na, nb), spacing, ca); !s) return s;
            if (Status s = cluster(q, mesh, f, b, std::max(na, nb), spacing, cb); !s) return s;
            for (int i = 0; i < na; ++i) {
                out.starts.insert(out.starts.end(), &ca[static_cast<size_t>(i) * 3], &ca[static_cast<size_t>(i) * 3] + 3);
                out.goals.insert(out.goals.end(), &cb[static_cast<size_t>(i) * 3], &cb[static_cast<size_t>(i) * 3] + 3);
            }
            for (int i = 0; i < nb; ++i) {
                out.starts.insert(out.starts.end(), &cb[static_cast<size_t>(i) * 3], &cb[static_cast<size_t>(i) * 3] + 3);
                out.goals.insert(out.goals.end(), &ca[static_cast<size_t>(i) * 3], &ca[static_cast<size_t>(i) * 3] + 3);
            }
            return Status::ok();
        }
        case CrowdScenario::Random: {
            std::vector<uint32_t> stack;
            std::vector<uint8_t> seen;
            RandomPoint s, g;
            // Starts apart from each other (a coarse grid of taken cells), goals anywhere reachable.
            for (int i = 0, tries = 0; i < n && tries < n * 50; ++tries) {
                if (!q.random_point(f, rng, s) || !q.random_point(f, rng, g)) break;
                const uint32_t a = mesh.poly_island[mesh.poly_index(s.poly)], b = mesh.poly_island[mesh.poly_index(g.poly)];
                if (!mesh.island_reaches(a, b, stack, seen)) continue;
                bool clear = true;
                for (size_t k = 0; k + 2 < out.starts.size() && clear && tries < n * 40; k += 3)
                    clear = std::fabs(out.starts[k] - s.point[0]) > spacing || std::fabs(out.starts[k + 2] - s.point[2]) > spacing ||
                            std::fabs(out.starts[k + 1] - s.point[1]) > 2.0f;
                if (!clear) continue;
                out.starts.insert(out.starts.end(), s.point, s.point + 3);
                out.goals.insert(out.goals.end(), g.point, g.point + 3);
                ++i;
            }
            if (out.count() < n)
                return Status::bad_input("crowd scenario: found start and goal for only " + std::to_string(out.count()) + " of " +
                                         std::to_string(n) + " agents");
            return Status::ok();
        }
    }
    return Status::ok();
}

// ---------------------------------------------------------------------------------------------

bool on_polygon(const NavMesh& mesh, PolyRef p, const float* pos, float height) {
    const uint32_t i = mesh.poly_index(p);
    if (i == kNoPoly) return false;
    // Inside in xz (the polygon is convex, wound clockwise), with a millimetre of slack.
    const uint32_t e0 = mesh.poly_first[i], e1 = mesh.poly_first[i + 1];
    for (uint32_t e = e0; e < e1; ++e) {
        const float* a = mesh.vert(mesh.edge_vert[e]);
        const float* b = mesh.vert(mesh.edge_vert[mesh.next_edge(e)]);
        const float ex = b[0] - a[0], ez = b[2] - a[2];
        const float l = std::hypot(ex, ez);
        if (l <= 0) continue;
        // Distance of pos to the outside of edge a->b (outside is on the left for clockwise xz).
        const float side = ((pos[0] - a[0]) * ez - (pos[2] - a[2]) * ex) / l;
        if (side < -1e-3f) return false;
    }
    float y;
    mesh.poly_height(i, pos[0], pos[2], &y);
    return std::fabs(y - pos[1]) <= height;
}

void CrowdMeter::begin(const ScenarioAgents& sc, float radius, float dt, float arrive) {
    sc_ = sc;
    radius_ = radius, dt_ = dt, arrive_ = arrive;
    reached_at_.assign(static_cast<size_t>(sc.count()), -1.0);
    figures_ = CrowdFigures{};
    figures_.agents = sc.count();
    figures_.min_pair_distance = std::numeric_limits<float>::infinity();
}

void CrowdMeter::tick(const float* pos, const uint8_t* on_mesh) {
    const int n = sc_.count();
    ++figures_.ticks;
    const double t = figures_.ticks * static_cast<double>(dt_);
    for (int i = 0; i < n; ++i) {
        const size_t k = static_cast<size_t>(i);
        if (!on_mesh[k]) ++figures_.off_mesh_agent_ticks;
        if (reached_at_[k] < 0 && dist_xz(&pos[k * 3], &sc_.goals[k * 3]) <= arrive_) {
            reached_at_[k] = t;
            ++figures_.reached;
        }
    }
    // Pairs closer than 0.9 (r1 + r2): a grid of cells one diameter wide.
    const float cell = 2 * radius_;
    size_t size = 64;
    while (size < static_cast<size_t>(n) * 2) size <<= 1;
    grid_head_.assign(size, 0xffffffffu);
    grid_next_.assign(static_cast<size_t>(n), 0xffffffffu);
    auto h = [&](int cx, int cz) {
        return (static_cast<uint32_t>(cx) * 73856093u ^ static_cast<uint32_t>(cz) * 19349663u) & static_cast<uint32_t>(size - 1);
    };
    for (int i = 0; i < n; ++i) {
        const uint32_t c = h(static_cast<int>(std::floor(pos[i * 3] / cell)), static_cast<int>(std::floor(pos[i * 3 + 2] / cell)));
        grid_next_[static_cast<size_t>(i)] = grid_head_[c];
        grid_head_[c] = static_cast<uint32_t>(i);
    }
    for (int i = 0; i < n; ++i) {
        const float* p = &pos[static_cast<size_t>(i) * 3];
        const int cx = static_cast<int>(std::floor(p[0] / cell)), cz = static_cast<int>(std::floor(p[2] / cell));
        bool overlap = false;
        uint32_t heads[9];
        int nh = 0;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx) {
                const uint32_t c = h(cx + dx, cz + dz);
                if (std::find(heads, heads + nh, c) != heads + nh) continue;
                heads[nh++] = c;
                for (uint32_t j = grid_head_[c]; j != 0xffffffffu; j = grid_next_[j]) {
                    if (j == static_cast<uint32_t>(i)) continue;
                    const float* o = &pos[static_cast<size_t>(j) * 3];
                    if (std::fabs(o[1] - p[1]) > 2.0f) continue;
                    const float d = dist_xz(p, o);
                    figures_.min_pair_distance = std::min(figures_.min_pair_distance, d);
                    if (d < 0.9f * 2 * radius_) overlap = true;
                }
            }
        if (overlap) ++figures_.overlap_agent_ticks;
    }
}

CrowdFigures CrowdMeter::figures() const {
    CrowdFigures f = figures_;
    double sum = 0, mx = 0;
    int k = 0;
    for (double t : reached_at_)
        if (t >= 0) sum += t, mx = std::max(mx, t), ++k;
    f.time_to_goal_mean = k ? sum / k : 0;
    f.time_to_goal_max = mx;
    if (!std::isfinite(f.min_pair_distance)) f.min_pair_distance = 0;
    return f;
}

Status start_crowd_scenario(Crowd& crowd, const ScenarioAgents& sc, const AgentParams& params, std::vector<AgentId>* ids) {
    if (ids) ids->clear();
    for (int i = 0; i < sc.count(); ++i) {
        AgentId id;
        if (Status s = crowd.add_agent(&sc.starts[static_cast<size_t>(i) * 3], params, &id); !s) return s;
        if (Status s = crowd.set_destination(id, &sc.goals[static_cast<size_t>(i) * 3]); !s) return s;
        if (ids) ids->push_back(id);
    }
    return Status::ok();
}

Status run_crowd_scenario(Crowd& crowd, const ScenarioAgents& sc, const AgentParams& params, int ticks, CrowdFigures& out) {
    std::vector<AgentId> ids;
    if (Status s = start_crowd_scenario(crowd, sc, params, &ids); !s) return s;
    CrowdMeter meter;
    meter.begin(sc, params.radius, crowd.config().dt, std::max(params.stopping_distance, 0.0f) + params.radius * 0.5f);
    std::vector<float> pos(static_cast<size_t>(sc.count()) * 3);
    std::vector<uint8_t> on(static_cast<size_t>(sc.count()));
    double ms = 0;
    for (int t = 0; t < ticks; ++t) {
        const auto t0 = std::chrono::steady_clock::now();
        if (Status s = crowd.update(); !s) return s;
        ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        for (size_t i = 0; i < ids.size(); ++i) {
            const Agent* a = crowd.agent(ids[i]);
            std::memcpy(&pos[i * 3], a->pos, sizeof(float) * 3);
            on[i] = a->state == AgentState::OnLink || (!a->polys.empty() && on_polygon(*crowd.navmesh(), a->polys.front(), a->pos, a->params.height));
        }
        meter.tick(pos.data(), on.data());
        if (meter.all_reached()) break;
    }
    out = meter.figures();
    out.ms_per_tick = out.ticks ? ms / out.ticks : 0;
    for (size_t i = 0; i < ids.size(); ++i)
        if (!meter.reached(static_cast<int>(i))) ++out.stuck[static_cast<int>(crowd.agent(ids[i])->stuck)];
    return Status::ok();
}

}  // namespace nav
