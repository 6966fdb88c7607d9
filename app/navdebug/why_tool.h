// The Why tool: "why is there no navmesh here?" for a clicked point of the level (explain_point on
// the current snapshot, on the UI thread: it reads only the cells around the point), and "why can't
// A reach B?" for a failed path (explain_path, on the bake worker). The Why panel shows the verdict,
// the story one line per stage (the losing stage in red; hovering a line highlights its culprit,
// clicking it shows that stage), and the fix the worker verified with its effects and an Apply
// button. The culprits, the clicked point and a path's gap are drawn over the view. `--why x,y,z`
// and `--why-path s:e` ask headless.
#pragma once
#include <glm/glm.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/explain/why.h"
#include "render/draw_list.h"
#include "why_job.h"

namespace navdebug {

class WhyTool {
public:
    // Explains this point (a click with the Why tool, --why): replaces a path being explained.
    void set_point(const glm::vec3& p);
    // Explains why start cannot reach end (the path tool's Why?, --why-path): replaces the point.
    void set_path(const glm::vec3& start, const glm::vec3& end);
    void clear();
    const std::optional<glm::vec3>& point() const { return point_; }
    const std::optional<std::pair<glm::vec3, glm::vec3>>& path() const { return path_; }
    bool active() const { return point_ || path_; }

    // Once per frame with the worker's latest bake (untrimmed, unpruned): tells the point's story
    // again when the bake or the point changed. Returns the job the worker should run (the fix of
    // a lost point, a path to explain), if a new one is needed. worker_idle: nothing queued (a job
    // cancelled by a request that baked nothing is asked again then).
    std::optional<WhyJob> update(const std::shared_ptr<const nav::Bake>& bake, bool worker_idle);
    // A result the worker published: kept when it answers the last job asked.
    void take(const std::shared_ptr<const WhyResult>& r);
    // What the tool told since the last call (the verdict of each story, each answer), for the log.
    std::vector<std::string> take_messages() { return std::exchange(messages_, {}); }
    // A job was asked and its answer has not come (the panel says "verifying...").
    bool waiting() const { return asked_ != 0 && (!result_ || result_->id != asked_); }

    // What the panel's user asked for.
    struct Action {
        std::optional<nav::Stage> show_stage;  // a stage line was clicked
        const nav::WhyFix* apply = nullptr;     // Apply was pressed: the fix to apply
    };
    // Contents of the Why panel (inside an open ImGui window).
    Action panel();
    // The culprits (each stage's in orange, the losing stage's in red, the hovered line's in cyan),
    // the point and a path's gap. thin: drawn with the overlay's lines; bold: thicker lines, bigger
    // points, for the losing stage, the point and the gap. Both drawn on top (no depth test).
    void draw_overlay(nav::render::DrawList& thin, nav::render::DrawList& bold) const;

    // The colours (screenshot tests look for them).
    static constexpr uint32_t kCulpritColor = nav::render::rgba(255, 150, 30);
    static constexpr uint32_t kLostColor = nav::render::rgba(255, 30, 30);
    static constexpr uint32_t kHoverColor = nav::render::rgba(60, 230, 255);
    static constexpr uint32_t kPointColor = nav::render::rgba(255, 40, 255);
    static constexpr uint32_t kGapColor = nav::render::rgba(170, 255, 0);

private:
    // The story's verdict and stage lines; id_prefix keeps the ImGui ids of two stories apart.
    void story_ui(const nav::WhyStory& s, const char* id_prefix, int story_index, Action& act);
    // The fix line, its effects and Apply (or why there is none).
    void fix_ui(const std::optional<nav::WhyFix>& fix, const nav::WhyStory* story, Action& act);
    void draw_story(const nav::WhyStory& s, int story_index, nav::render::DrawList& thin, nav::render::DrawList& bold) const;
    WhyJob new_job(WhyJob::Kind kind);

    std::optional<glm::vec3> point_;
    std::optional<std::pair<glm::vec3, glm::vec3>> path_;
    bool dirty_ = false;                     // the point or the path changed: tell it again
    std::shared_ptr<const nav::Bake> bake_;  // the bake the story was told on
    std::optional<nav::WhyStory> story_;     // the point's
    double explain_ms_ = 0;
    uint64_t next_id_ = 0, asked_ = 0;       // the last job asked of the worker (0: none)
    std::optional<WhyJob> retry_;            // a job cancelled by a newer request, asked again once idle
    std::shared_ptr<const WhyResult> result_;
    std::vector<std::string> messages_;
    int hovered_story_ = -1, hovered_stage_ = -1;  // the stage line under the mouse (story 0: the point's
                                                   // or the gap's, 1: the start's, 2: the end's)
};

}  // namespace navdebug
