#include "islands.h"

namespace navdebug {

std::shared_ptr<const nav::Bake> IslandsTool::apply(const std::shared_ptr<const nav::Bake>& bake) { return bake; }
void IslandsTool::panel(const nav::Bake*) {}

}  // namespace navdebug
