// A tool's side of navkit: bake a level from an OBJ with the default parameters (or a JSON config)
// and find a path on the result with the runtime's query.
//   bake_path LEVEL.obj SX SY SZ EX EY EZ [CONFIG.json]
#include <navkit/bake.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 8 && argc != 9) {
        std::fprintf(stderr, "usage: bake_path LEVEL (.obj .gltf .glb .fbx .dae .ply .stl .3ds) SX SY SZ EX EY EZ [CONFIG.json]\n");
        return 2;
    }
    float start[3], end[3];
    for (int k = 0; k < 3; ++k) start[k] = std::strtof(argv[2 + k], nullptr), end[k] = std::strtof(argv[5 + k], nullptr);

    nav::Pipeline pipeline;
    if (nav::Status st = pipeline.load_mesh(argv[1]); !st) {
        std::fprintf(stderr, "%s\n", st.message.c_str());
        return 2;
    }
    if (argc == 9) {
        nav::BakeInputs in = pipeline.inputs();
        if (nav::Status st = nav::load_config_file(argv[8], in); !st) {
            std::fprintf(stderr, "%s\n", st.message.c_str());
            return 2;
        }
        if (nav::Status st = pipeline.set_inputs(in); !st) {
            std::fprintf(stderr, "%s\n", st.message.c_str());
            return 2;
        }
    }
    if (nav::Status st = pipeline.run(); !st) {
        std::fprintf(stderr, "bake: %s\n", st.message.c_str());
        return 1;
    }
    const std::shared_ptr<const nav::Bake> bake = pipeline.snapshot();
    std::printf("baked %d polygons\n", bake->navmesh->npolys);

    nav::NavQuery query;
    query.init(bake->navmesh.get());
    const float half_extents[3] = {2, 4, 2};  // navbake's search box for --pairs
    nav::Route route;
    if (nav::Status st = query.find_route(start, end, half_extents, nav::QueryFilter{}, nav::RouteOptions{}, route); !st) {
        std::fprintf(stderr, "query: %s\n", st.message.c_str());
        return 1;
    }
    if (!route.found()) {
        std::printf("no path\n");
        return 1;
    }
    std::printf("polygons %d, path %d points, length %.3f\n", static_cast<int>(route.path.polys.size()),
                route.straight.size(), static_cast<double>(route.straight.length()));
    for (int i = 0; i < route.straight.size(); ++i)
        std::printf("%.3f %.3f %.3f\n", static_cast<double>(route.straight.points[i * 3]),
                    static_cast<double>(route.straight.points[i * 3 + 1]), static_cast<double>(route.straight.points[i * 3 + 2]));
    return 0;
}
