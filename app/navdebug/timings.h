// The timings view: a bar chart (ImGui PlotHistogram) of the time each stage took in its last
// build, and the history of total bake time across rebuilds (PlotLines over a ring buffer of the
// last kHistory bakes) with min / average / max.
#pragma once
#include <array>
#include <cstdint>

#include "core/pipeline/pipeline.h"

namespace navdebug {

class Timings {
public:
    static constexpr int kHistory = 200;

    // Records a published bake once (by generation); bakes that rebuilt nothing are not recorded.
    void record(const nav::Bake& bake);
    // Draws the charts (inside the right panel).
    void panel(const nav::Bake* bake);

    int history_size() const { return count_; }
    // The i-th oldest recorded total, ms (i < history_size()).
    float total_ms(int i) const { return ring_[static_cast<size_t>((head_ - count_ + i + kHistory) % kHistory)]; }

private:
    std::array<float, kHistory> ring_{};
    int head_ = 0, count_ = 0;  // next write position, entries held
    uint64_t last_generation_ = 0;
    std::array<float, nav::kStageCount> stage_ms_{};
};

}  // namespace navdebug
