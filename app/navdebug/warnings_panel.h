// The warnings panel: settings and meshes known to go wrong (nav::diagnose), each with its reason
// and a one-click fix that changes the parameters.
#pragma once
#include "core/params.h"
#include "core/pipeline.h"
#include "log.h"

namespace navdebug {

class WarningsPanel {
public:
    // Number of warnings for the current state (shown in the panel header).
    int count(const nav::Bake* bake, const nav::Params& desired) const;
    // ImGui contents; a fix button changes `desired` (the app re-bakes) and logs what it did.
    void panel(const nav::Bake* bake, nav::Params& desired, Log& log);
};

}  // namespace navdebug
