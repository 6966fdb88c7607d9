#include "warnings_panel.h"

namespace navdebug {

int WarningsPanel::count(const nav::Bake*, const nav::Params&) const { return 0; }
void WarningsPanel::panel(const nav::Bake*, nav::Params&, Log&) {}

}  // namespace navdebug
