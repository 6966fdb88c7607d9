// What the user has picked: the click tool, the inspected element, the selected tile and "only
// selected tile", the path tool's end points (and its Polyanya path), the A* node under the cursor.
#pragma once
#include <optional>
#include <string>

#include "inspector.h"
#include "link_tool.h"
#include "map2d_optimal.h"
#include "obstacle_tool.h"
#include "path_tests_panel.h"
#include "path_tool.h"
#include "tile_tool.h"
#include "volume_tool.h"
#include "why_tool.h"

namespace navdebug {

struct Selection {
    // What a left click in the view does.
    enum class Tool { Path, Inspect, Prune, ClipFloor, Section, Tile, Why, Obstacle, Volume, Link } tool = Tool::Path;
    Inspector inspector;
    std::optional<TileXZ> tile;  // the Tile panel's selected tile
    bool tile_only = false;      // per-grid layers for the selected tile only
    std::string node_tip;        // A* node under the cursor (path tool, "show A* nodes")
    PathTool path;
    OptimalPath optimal;  // the path tool's Polyanya path and search layer
    WhyTool why;          // the Why tool's point or path, its story and fix
    ObstacleTool obstacle;  // the Obstacles tool's selection and drag (the obstacles are EditState's)
    PathTestsPanel path_tests;  // the Path tests panel: a path test file's cases, pass / fail on the bake shown
    VolumeTool volume;      // the Volumes tool's points, selection and new-volume settings (the volumes are EditState's)
    LinkTool link;          // the Links tool's half-placed link, selection and drag (the links are EditState's)

    // The tile the per-grid layers are limited to: the selected one while "only selected tile" is on.
    std::optional<TileXZ> tile_only_view() const { return tile_only ? tile : std::nullopt; }
};

}  // namespace navdebug
