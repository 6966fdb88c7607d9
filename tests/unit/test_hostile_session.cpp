// Hostile input to navdebug's session reader (app/navdebug/session.cpp, compiled into navtests):
// it reads files the way the config reader does (nav::read_input_file, nav::parse_json_text), so a
// number beyond double, a directory, a device or an oversized file is bad input naming the file,
// never an exception that aborts navdebug; coordinates beyond +-1e6 m are refused before the
// conversion to float. navdebug's exit 2 on these is checked in tests/e2e/screenshots_session.sh.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "app/navdebug/session.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "test_files.h"

using navtest::TempFile;

namespace {
bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
}  // namespace

TEST_CASE("hostile session: a number beyond double is invalid JSON naming the file, not an exception") {
    TempFile f(".json", R"({"camera": {"eye": [1e400, 2, 3], "target": [0, 0, 0]}})");
    navdebug::Session s;
    nav::Status st;
    CHECK_NOTHROW(st = navdebug::load_session_file(f.path(), s));
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, f.path() + ": not valid JSON"));
    // the same inside the "config" object and the top-level volumes
    CHECK_NOTHROW(st = navdebug::parse_session(R"({"config": {"cell_size": -1e999}})", "s.json", s));
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, "s.json"));
}

TEST_CASE("hostile session: directories, devices, missing and oversized files are refused by name") {
    navdebug::Session s;
    const std::string dir = std::filesystem::temp_directory_path().string();
    nav::Status st = navdebug::load_session_file(dir, s);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, dir + ": is a directory, expected a navdebug session"));
    st = navdebug::load_session_file("/dev/zero", s);  // read until killed before the cap
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, "not a regular file or a pipe"));
    st = navdebug::load_session_file("/no/such/session.json", s);
    CHECK(has(st.message, "/no/such/session.json: file not found"));
    // over the cap (kMaxConfigBytes): refused from the file size, before reading it
    TempFile big(".json");
    std::filesystem::resize_file(big.path(), nav::kMaxConfigBytes + 1);
    st = navdebug::load_session_file(big.path(), s);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, "input size limit"));
}

TEST_CASE("hostile session: coordinates beyond +-1e6 m are refused before the float conversion") {
    navdebug::Session s;
    struct Case {
        const char* text;
        const char* expect;
    };
    for (const Case& c : {Case{R"({"path": {"start": [1e300, 0, 0], "end": [0, 0, 0]}})", "path.start"},
                          Case{R"({"camera": {"eye": [0, 0, 0], "target": [0, -4e38, 0]}})", "camera.target"},
                          Case{R"({"view": {"section": {"point": [0, 0, 0], "normal": [1e39, 0, 0]}}})", "view.section.normal"},
                          Case{R"({"view": {"clip": [-1e300, 3]}})", "view.clip"},
                          Case{R"({"view": {"clip": [0, 1e39]}})", "view.clip"}}) {
        CAPTURE(c.text);
        const nav::Status st = navdebug::parse_session(c.text, "s.json", s);
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(has(st.message, std::string("s.json: ") + c.expect));
    }
    // the bound itself is admitted, and a good session still reads
    const nav::Status st = navdebug::parse_session(
        R"({"path": {"start": [1e6, 0, -1e6], "end": [0, 0, 0]}, "view": {"clip": [-1e6, 1e6]}})", "s.json", s);
    CHECK_MESSAGE(st.is_ok(), st.message);
    REQUIRE(s.path);
    CHECK(s.path->first.x == 1e6f);
}

TEST_CASE("session: the Why tool's point or path under \"why\" round-trips; bad values name the key; none loads") {
    navdebug::Session s;
    // a session without "why" (every session before the Why tool) still loads, with nothing to explain
    nav::Status st = navdebug::parse_session(R"({"path": {"start": [1, 0, 2], "end": [3, 0, 4]}})", "s.json", s);
    CHECK_MESSAGE(st.is_ok(), st.message);
    CHECK(!s.why_point);
    CHECK(!s.why_path);
    // a point, written and read back
    s.why_point = glm::vec3(1.5f, 0.1f, -2.25f);
    navdebug::Session back;
    st = navdebug::parse_session(navdebug::session_to_json(s), "s.json", back);
    CHECK_MESSAGE(st.is_ok(), st.message);
    REQUIRE(back.why_point);
    CHECK(back.why_point->x == 1.5f);
    CHECK(back.why_point->z == -2.25f);
    CHECK(!back.why_path);
    // a path, written and read back
    navdebug::Session p;
    p.why_path = std::make_pair(glm::vec3(-5, 0.1f, 0), glm::vec3(4, 1.1f, 0));
    st = navdebug::parse_session(navdebug::session_to_json(p), "s.json", back = {});
    CHECK_MESSAGE(st.is_ok(), st.message);
    REQUIRE(back.why_path);
    CHECK(back.why_path->second.y == 1.1f);
    CHECK(!back.why_point);
    // malformed: named by file and key, never an exception
    for (const char* text : {R"({"why": [1, 2, 3]})", R"({"why": {}})", R"({"why": {"point": [1, 2]}})",
                             R"({"why": {"point": [0, 0, 1e300]}})", R"({"why": {"path": {"start": [0, 0, 0]}}})",
                             R"({"why": {"point": [0, 0, 0], "path": {"start": [0, 0, 0], "end": [1, 0, 0]}}})"}) {
        CAPTURE(text);
        navdebug::Session bad;
        CHECK_NOTHROW(st = navdebug::parse_session(text, "s.json", bad));
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(has(st.message, "s.json: why"));
    }
}

TEST_CASE("session: the config's \"areas\" round trip; top-level volumes name the config's areas; errors name the item") {
    const std::string text = R"({"config": {"areas": [{"name": "ground", "id": 63}, {"name": "mud", "id": 7, "cost": 3}]},
        "volumes": [{"verts": [[0,0,0],[0,0,1],[1,0,1]], "area": "mud"}]})";
    navdebug::Session s;
    REQUIRE(navdebug::parse_session(text, "s.json", s));
    REQUIRE(s.inputs.areas.types.size() == 2);
    CHECK(s.inputs.areas.find("mud")->cost == 3.0f);
    REQUIRE(s.inputs.volumes.size() == 1);
    CHECK(s.inputs.volumes[0].area == 7);
    navdebug::Session back;
    REQUIRE(navdebug::parse_session(navdebug::session_to_json(s), "back.json", back));
    CHECK(back.inputs.areas == s.inputs.areas);
    CHECK(back.inputs.volumes == s.inputs.volumes);

    navdebug::Session bad;
    const nav::Status st = navdebug::parse_session(R"({"volumes": [{"verts": [[0,0,0],[0,0,1],[1,0,1]], "area": "mud"}]})",
                                                   "s.json", bad);
    CHECK_FALSE(st);
    CHECK(st.message.find("volumes[0].area: unknown area 'mud'") != std::string::npos);
}
