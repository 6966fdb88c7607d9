// The Path tests section of the right panel over the state it needs (panels_path_tests.cpp): the
// cases evaluated on the navmesh shown, a clicked case shown with the path tool, the path tool's
// path saved as a case.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>

#include "core/bake/areas.h"
#include "core/runtime/navmesh.h"
#include "log.h"
#include "render/layers.h"
#include "selection.h"

namespace navdebug {

// Once a frame: a file asked for (--path-tests) read with the area table, `show` (--path-test N)
// shown once it is, and the cases evaluated on `navmesh`.
void update_path_tests(Selection& sel, nav::render::LayerMask& layers, const std::optional<size_t>& show,
                       const std::shared_ptr<const nav::NavMesh>& navmesh, const nav::AreaTable& areas, Log& log);
// Case i with the path tool, as a path click does: the tool, its ends and filter, the path layer on.
void show_path_test(Selection& sel, nav::render::LayerMask& layers, size_t i);
// The section's widgets and their actions.
void path_tests_section(Selection& sel, nav::render::LayerMask& layers, const std::shared_ptr<const nav::NavMesh>& navmesh,
                        const nav::AreaTable& areas, Log& log);

}  // namespace navdebug
