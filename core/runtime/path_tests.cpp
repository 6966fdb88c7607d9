#include "core/runtime/path_tests.h"

#include <algorithm>
#include <cstdio>

namespace nav {

namespace {

std::string area_label(uint8_t area, const PathTestOptions& o) {
    std::string name = o.area_name ? o.area_name(area, o.area_name_ctx) : std::string();
    return name.empty() ? "area " + std::to_string(area) : name + " (" + std::to_string(area) + ")";
}

std::string metres(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f m", static_cast<double>(v));
    return buf;
}

bool has(const std::vector<uint8_t>& v, uint8_t a) { return std::binary_search(v.begin(), v.end(), a); }

}  // namespace

Status evaluate_path_test(NavQuery& query, const PathTestCase& c, const PathTestOptions& options, PathTestResult& out) {
    out = PathTestResult{};
    const NavMesh* mesh = query.mesh();
    if (!mesh) return Status::internal("path test '" + c.name + "': the query is bound to no navmesh");
    Route route;
    if (Status st = query.find_route(c.start, c.end, options.half_extents, c.filter, RouteOptions{}, route); !st)
        return Status{st.code, "path test '" + c.name + "': " + st.message};
    out.start_on_mesh = route.start.poly != kNoRef;
    out.end_on_mesh = route.end.poly != kNoRef;
    out.reached = route.found() && route.path.reached;
    if (route.found()) {
        out.length = route.straight.length();
        out.points = route.straight.points;
        for (size_t i = 0; i < route.path.polys.size(); ++i) {
            const uint32_t p = mesh->poly_index(route.path.polys[i]);
            if (p != kNoPoly) out.areas.push_back(mesh->areas[p]);
            const uint32_t t = i < route.path.links.size() ? route.path.links[i] : kNoLink;
            if (t == kNoLink) continue;
            const size_t link = t >> 1;
            if (link < mesh->link_user_id.size()) {
                out.links.push_back(mesh->link_user_id[link]);
                out.areas.push_back(mesh->link_area[link]);
            }
        }
        std::sort(out.areas.begin(), out.areas.end());
        out.areas.erase(std::unique(out.areas.begin(), out.areas.end()), out.areas.end());
    }

    const PathTestExpect& e = c.expect;
    std::vector<std::string>& f = out.failures;
    if (e.reached && !out.reached) {
        if (!out.start_on_mesh) f.push_back("not reached: the start is not on the navmesh (under this filter)");
        else if (!out.end_on_mesh) f.push_back("not reached: the end is not on the navmesh (under this filter)");
        else f.push_back(route.path.out_of_nodes ? "not reached: the search ran out of nodes"
                                                 : "not reached: no path to the end (partial path " + metres(out.length) + ")");
    } else if (!e.reached && out.reached) {
        f.push_back("reached, expected unreachable (path " + metres(out.length) + ")");
    }
    if (e.max_length >= 0 && out.length > e.max_length)
        f.push_back("length " + metres(out.length) + " over max_length " + metres(e.max_length));
    for (uint8_t a : e.through_areas)
        if (!has(out.areas, a)) f.push_back("does not cross " + area_label(a, options) + " (through_area)");
    for (uint8_t a : e.avoid_areas)
        if (has(out.areas, a)) f.push_back("crosses " + area_label(a, options) + " (avoid_area)");
    switch (e.through_link) {
        case PathTestExpect::Link::Any: break;
        case PathTestExpect::Link::Some:
            if (out.links.empty()) f.push_back("takes no off-mesh link (through_link true)");
            break;
        case PathTestExpect::Link::None:
            if (!out.links.empty())
                f.push_back("takes " + std::to_string(out.links.size()) + " off-mesh link(s) (through_link false), the first id " +
                            std::to_string(out.links.front()));
            break;
        case PathTestExpect::Link::UserId:
            if (std::find(out.links.begin(), out.links.end(), e.through_link_id) == out.links.end())
                f.push_back("does not take link id " + std::to_string(e.through_link_id) + " (through_link)");
            break;
    }
    for (uint32_t id : e.avoid_links)
        if (std::find(out.links.begin(), out.links.end(), id) != out.links.end())
            f.push_back("takes link id " + std::to_string(id) + " (avoid_link)");
    out.pass = f.empty();
    return Status::ok();
}

}  // namespace nav
