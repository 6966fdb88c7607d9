// navdebug's input queue (app/navdebug/input_queue.h) at its API, without a window: events pushed
// as GLFW's callbacks would, applied frame by frame to a plain ImGuiIO. Every event counts, in the
// order it came, however slow the frames.
#include <doctest/doctest.h>

#ifdef NAV_HAVE_RENDER
#include <imgui.h>

#include <string>

#include "app/navdebug/input_queue.h"

using navdebug::InputQueue;

namespace {

using Kind = InputQueue::Kind;

InputQueue::Event key(int code, int action, double t, int mods = 0) { return {Kind::Key, code, action, mods, 0, 0, t, t}; }
InputQueue::Event chr(unsigned c, double t) { return {Kind::Char, static_cast<int>(c), 0, 0, 0, 0, t, t}; }
InputQueue::Event button(int b, int action, double t, double earliest, int mods = 0) {
    return {Kind::Button, b, action, mods, 0, 0, t, earliest};
}
InputQueue::Event cursor(double x, double y, double t) { return {Kind::Cursor, 0, 0, 0, x, y, t, t}; }

// One frame: the characters ImGui would type this frame (and they are taken out of io, as a frame does)
std::string typed(ImGuiIO& io) {
    std::string s;
    for (ImWchar c : io.InputQueueCharacters) s += static_cast<char>(c);
    io.InputQueueCharacters.resize(0);
    return s;
}

}  // namespace

TEST_CASE("input queue: a tap shorter than a frame is pressed in one frame and released in the next") {
    InputQueue q;
    ImGuiIO io;
    q.push(key(GLFW_KEY_2, GLFW_PRESS, 1.00));
    q.push(key(GLFW_KEY_2, GLFW_RELEASE, 1.02));  // 20 ms later, both in one 300 ms frame
    q.apply_events(io);
    CHECK(q.frame().key_pressed(GLFW_KEY_2));
    CHECK(q.frame().key_down(GLFW_KEY_2));
    CHECK(io.KeysDown[GLFW_KEY_2]);
    CHECK(q.pending());
    q.apply_events(io);
    CHECK_FALSE(q.frame().key_pressed(GLFW_KEY_2));
    CHECK_FALSE(q.frame().key_down(GLFW_KEY_2));
    CHECK_FALSE(io.KeysDown[GLFW_KEY_2]);
    CHECK_FALSE(q.pending());
}

TEST_CASE("input queue: typed characters and editing keys keep their order across frames") {
    InputQueue q;
    ImGuiIO io;
    // "a", Backspace, "b" typed within one slow frame: the field must end as "b", so ImGui has to
    // see the Backspace after "a" and before "b"
    q.push(key(GLFW_KEY_A, GLFW_PRESS, 1.00));
    q.push(chr('a', 1.00));
    q.push(key(GLFW_KEY_A, GLFW_RELEASE, 1.01));
    q.push(key(GLFW_KEY_BACKSPACE, GLFW_PRESS, 1.02));
    q.push(key(GLFW_KEY_BACKSPACE, GLFW_RELEASE, 1.03));
    q.push(key(GLFW_KEY_B, GLFW_PRESS, 1.04));
    q.push(chr('b', 1.04));
    q.push(key(GLFW_KEY_B, GLFW_RELEASE, 1.05));
    std::string seen;
    for (int frame = 0; frame < 10 && q.pending(); ++frame) {
        q.apply_events(io);
        const std::string t = typed(io);
        if (q.frame().key_pressed(GLFW_KEY_BACKSPACE)) {
            CHECK(t.empty());  // never a character in the frame of an editing key
            seen += "<BS>";
        }
        seen += t;
    }
    CHECK(seen == "a<BS>b");
    CHECK_FALSE(q.pending());
}

TEST_CASE("input queue: a key pressed after a click waits for the next frame; a modifier does not") {
    InputQueue q;
    ImGuiIO io;
    q.push(cursor(100, 100, 1.0));
    q.push(button(GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 1.0, 1.0));
    q.push(key(GLFW_KEY_LEFT_SHIFT, GLFW_PRESS, 1.01));
    q.push(key(GLFW_KEY_N, GLFW_PRESS, 1.02));
    q.apply_events(io);
    CHECK(io.MouseDown[0]);
    CHECK(q.frame().key_down(GLFW_KEY_LEFT_SHIFT));
    CHECK_FALSE(q.frame().key_pressed(GLFW_KEY_N));  // the click focuses first (a text field takes the N)
    q.apply_events(io);
    CHECK(q.frame().key_pressed(GLFW_KEY_N));
    CHECK(q.frame().key_mods[GLFW_KEY_N] == 0);
}

TEST_CASE("input queue: a double-click is decided by the events' times, not the frames'") {
    ImGuiIO io;
    SUBCASE("two clicks 150 ms apart, seen in frames 600 ms apart: a double-click") {
        InputQueue q;
        q.push(cursor(50, 60, 1.0));
        q.push(button(0, GLFW_PRESS, 1.0, 1.0));
        q.push(button(0, GLFW_RELEASE, 1.05, 1.0));
        q.apply_events(io);
        CHECK_FALSE(q.frame().double_click[0]);
        q.apply_events(io);  // the release
        // the second press reported at 1.6 (the next poll), but it could have come right after
        // the poll that ended at 1.15
        q.push(button(0, GLFW_PRESS, 1.6, 1.15));
        q.apply_events(io);
        CHECK(q.frame().double_click[0]);
        CHECK(io.MouseDoubleClickTime > 1.0f);  // ImGui's own test is made to agree
    }
    SUBCASE("two clicks over the double-click time apart: two clicks") {
        InputQueue q;
        q.push(cursor(50, 60, 1.0));
        q.push(button(0, GLFW_PRESS, 1.0, 1.0));
        q.push(button(0, GLFW_RELEASE, 1.05, 1.0));
        q.apply_events(io);
        q.apply_events(io);
        q.push(button(0, GLFW_PRESS, 1.6, 1.45));
        q.apply_events(io);
        CHECK_FALSE(q.frame().double_click[0]);
        CHECK(io.MouseDoubleClickTime == 0.0f);
    }
    SUBCASE("the second click away from the first: two clicks") {
        InputQueue q;
        q.push(cursor(50, 60, 1.0));
        q.push(button(0, GLFW_PRESS, 1.0, 1.0));
        q.push(button(0, GLFW_RELEASE, 1.05, 1.0));
        q.apply_events(io);
        q.apply_events(io);
        q.push(cursor(80, 60, 1.1));
        q.push(button(0, GLFW_PRESS, 1.1, 1.1));
        q.apply_events(io);
        CHECK_FALSE(q.frame().double_click[0]);
    }
}

TEST_CASE("input queue: a click goes where the cursor was when it happened") {
    InputQueue q;
    ImGuiIO io;
    q.push(cursor(10, 20, 1.0));
    q.push(button(0, GLFW_PRESS, 1.0, 1.0));
    q.push(cursor(300, 400, 1.01));  // moved on within the same frame
    q.apply_events(io);
    CHECK(io.MousePos.x == 10.0f);
    CHECK(io.MousePos.y == 20.0f);
    CHECK(io.MouseDown[0]);
    q.apply_events(io);
    CHECK(io.MousePos.x == 300.0f);
}
#endif
