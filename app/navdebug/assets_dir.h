// Where navdebug finds its demo scenes: PREFIX/share/navkit/assets when it runs installed, else the
// source tree's assets/ (a build-tree navdebug).
#pragma once
#include <string>

#include "render/renderer.h"

#ifndef NAV_SOURCE_DIR
#error "NAV_SOURCE_DIR must be defined by the build"
#endif

namespace navdebug {

inline std::string assets_dir() {
    static const std::string installed = nav::render::installed_data_dir();
    return installed.empty() ? std::string(NAV_SOURCE_DIR) + "/assets" : installed + "/assets";
}

}  // namespace navdebug
