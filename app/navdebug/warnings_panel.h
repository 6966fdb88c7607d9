// The warnings panel: settings and meshes known to go wrong (nav::diagnose), each with its reason
// and a one-click fix that changes the parameters (the app then re-bakes). A warning that a new
// bake or a parameter change raises is also written to the log once.
#pragma once
#include <memory>
#include <vector>

#include "core/explain/diagnose.h"
#include "core/pipeline/params.h"
#include "core/pipeline/pipeline.h"
#include "log.h"

namespace navdebug {

class WarningsPanel {
public:
    // Once per frame: diagnoses again when the bake or the parameters changed (the mesh's shape
    // only when the mesh did) and logs the warnings that were not there before.
    void update(const nav::Bake* bake, const nav::Params& desired, Log& log);
    int count() const { return static_cast<int>(list_.size()); }
    const std::vector<nav::Diagnostic>& list() const { return list_; }
    // ImGui contents; a fix button changes `desired` (the app re-bakes) and logs what it did.
    void panel(nav::Params& desired, Log& log) const;

private:
    std::shared_ptr<const nav::InputMesh> shape_of_;  // held, so the pointer stays unique
    nav::MeshShape shape_;
    bool have_key_ = false;
    uint64_t key_generation_ = 0;
    int key_built_through_ = -2;
    nav::Params key_params_;
    std::vector<nav::Diagnostic> list_;
};

}  // namespace navdebug
