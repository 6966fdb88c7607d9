// Path test files: the JSON form of nav::PathTestCase (core/runtime/path_tests.h), with
// area names resolved against the bake's area table. In the bake library because the runtime
// links no JSON library and knows no area names.
//
// A file is {"cases": [CASE, ...]} or a bare [CASE, ...]; a CASE:
//   {"name": "over the bridge",                    (optional; default "case N")
//    "start": [x, y, z], "end": [x, y, z],
//    "filter": {"include": FLAGS, "exclude": FLAGS,   (optional; default include all, exclude none)
//               "costs": {"water": 10, ...}},         (per area name or id "7"; default the table's)
//    "expect": {"reached": true,                      (default true)
//               "max_length": 30.5,                   (metres, 3D straight path)
//               "through_area": "road" | ["road", ...],
//               "avoid_area": "water" | [...],
//               "through_link": true | false | USER_ID,
//               "avoid_link": USER_ID | [USER_ID, ...]}}
// FLAGS: a number (0..65535) or a list of flag names ("walk", "swim", "door", "jump").
// Unknown keys are errors; every error names the file, the case and the field:
// "tests.json: cases[3].start: expected 3 numbers".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/bake/areas.h"
#include "core/common.h"
#include "core/runtime/path_tests.h"

namespace nav {

constexpr uint64_t kMaxPathTestBytes = uint64_t(64) << 20;

// Parses the text of a path test file; `what` names it in messages. Nothing changes on an error.
Status parse_path_tests(std::string_view text, const std::string& what, const AreaTable& areas,
                        std::vector<PathTestCase>& out);
// Reads the file (read_input_file: a regular file or a pipe) and parses it.
Status load_path_tests(const std::string& path, const AreaTable& areas, std::vector<PathTestCase>& out);

// One case as JSON text (the form above, 2-space indented, areas by name when the table has one,
// the filter's costs only where they differ from the table's, include / exclude as flag names).
std::string path_test_case_text(const PathTestCase& c, const AreaTable& areas);

// Appends a case to the file: a new file (one that does not exist) gets {"cases": [c]}; an
// existing one must parse as a path test file and keeps its cases as written (rewritten with
// 2-space indentation; a bare list becomes {"cases": [...]}). Written through OutputFile (a
// temporary file renamed into place).
Status append_path_test(const std::string& path, const PathTestCase& c, const AreaTable& areas);

// The area namer for PathTestOptions: ctx is an AreaTable.
std::string area_table_namer(uint8_t area, const void* areas);

// The length a "save the current path as a case" writes as max_length: 5 % over `length`, rounded
// up to the next 0.1 m.
float path_test_length_limit(float length);

}  // namespace nav
