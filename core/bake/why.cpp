// explain_point: the story of one world point through every stage of a bake (why.h).
#include "core/bake/why.h"

namespace nav {

std::string_view why_cause_name(WhyCause c) {
    switch (c) {
        case WhyCause::None: return "none";
        case WhyCause::BadPoint: return "bad_point";
        case WhyCause::OutsideBounds: return "outside_bounds";
        case WhyCause::NoGeometry: return "no_geometry";
        case WhyCause::Slope: return "slope";
        case WhyCause::NotRasterized: return "not_rasterized";
        case WhyCause::LowHeight: return "low_height";
        case WhyCause::Ledge: return "ledge";
        case WhyCause::Erosion: return "erosion";
        case WhyCause::Volume: return "volume";
        case WhyCause::SmallRegion: return "small_region";
        case WhyCause::Simplified: return "simplified";
        case WhyCause::PolygonLost: return "polygon_lost";
        case WhyCause::NotInBake: return "not_in_bake";
        case WhyCause::Count: break;
    }
    return "unknown";
}

}  // namespace nav
