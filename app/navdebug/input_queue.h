// Every input event counts: GLFW's callbacks queue each key, character, mouse button, cursor and
// wheel event with its time, and each frame applies them in order to ImGui's io (ImGui 1.87's input
// queue, done here for the 1.86 we build with, whose backend reads the key and button state once a
// frame: a press and release inside one frame vanished).
//
// A frame applies at most one change per key and per mouse button; the rest wait for the next
// frame. A 20 ms tap while frames take 300 ms is then pressed in one frame and released in the
// next, and the two clicks of a double-click land in consecutive frames. Double-clicks are decided
// from the events' own times (ImGui's frame-time test would miss them at slow frame rates), and a
// click carries the modifiers held when it happened (Shift+click works whatever the frame's time).
// A cursor move after a click or a wheel step waits for the next frame, so the click or the wheel
// goes to what was under the cursor when it happened.
#pragma once
#include <GLFW/glfw3.h>

#include <bitset>
#include <deque>

struct ImGuiIO;

namespace navdebug {

// What this frame's events did, for our own key handling (App::handle_shortcuts, the camera).
struct FrameInput {
    std::bitset<GLFW_KEY_LAST + 1> pressed;   // went down this frame (GLFW key codes)
    std::bitset<GLFW_KEY_LAST + 1> repeated;  // a held key's auto-repeat this frame
    std::bitset<GLFW_KEY_LAST + 1> down;      // held after this frame's events
    int key_mods[GLFW_KEY_LAST + 1] = {};     // GLFW_MOD_* held when the key went down (or repeated)
    bool double_click[GLFW_MOUSE_BUTTON_LAST + 1] = {};
    int click_mods = 0;  // GLFW_MOD_* held at this frame's mouse press, if any
    bool any = false;    // some event was applied

    bool key_pressed(int key) const { return key >= 0 && key <= GLFW_KEY_LAST && pressed[static_cast<size_t>(key)]; }
    bool key_repeated(int key) const { return key >= 0 && key <= GLFW_KEY_LAST && repeated[static_cast<size_t>(key)]; }
    bool key_down(int key) const { return key >= 0 && key <= GLFW_KEY_LAST && down[static_cast<size_t>(key)]; }
};

class InputQueue {
public:
    InputQueue() = default;
    InputQueue(const InputQueue&) = delete;
    InputQueue& operator=(const InputQueue&) = delete;
    ~InputQueue();
    // Installs the queue's callbacks on `win` (call ImGui_ImplGlfw_InitForOpenGL with
    // install_callbacks = false: this queue feeds io instead). One window, one queue.
    void install(GLFWwindow* win);
    // After ImGui_ImplGlfw_NewFrame (which polls the mouse once a frame) and before
    // ImGui::NewFrame: applies the next events to io and overrides the backend's polled mouse.
    void apply(ImGuiIO& io);
    // Events are waiting: the loop should not sleep before the next frame.
    bool pending() const { return !events_.empty(); }
    const FrameInput& frame() const { return frame_; }

    enum class Kind { Key, Char, Button, Cursor, Scroll };
    struct Event {
        Kind kind;
        int code = 0;    // key, button or codepoint
        int action = 0;  // GLFW_PRESS / GLFW_RELEASE / GLFW_REPEAT
        int mods = 0;
        double x = 0, y = 0;  // cursor position or wheel offsets
        double time = 0;      // glfwGetTime() when GLFW reported it: at the poll, not when it happened
        double earliest = 0;  // when it could have happened at the earliest (see before_poll)
    };
    // Around glfwPollEvents / glfwWaitEvents*: GLFW reports events only there, so their times are
    // the poll's. An event a poll reports happened after the previous poll ended (waiting: at
    // once, the wait returns when it comes); a double-click is two presses that may have been
    // within the double-click time, the second's earliest moment against the first's report.
    void before_poll(bool waiting) { earliest_ = waiting ? -1.0 : last_poll_end_; }
    void after_poll() { last_poll_end_ = glfwGetTime(); }
    // The callbacks' entry (public for tests): queue one event.
    void push(const Event& e) { events_.push_back(e); }
    // apply() without GLFW or ImGui's backend: for unit tests. `io` is updated as by apply().
    void apply_events(ImGuiIO& io);

private:
    std::deque<Event> events_;
    FrameInput frame_;
    float mouse_x_ = -1e30f, mouse_y_ = -1e30f;
    bool mouse_down_[GLFW_MOUSE_BUTTON_LAST + 1] = {};
    double last_press_time_[GLFW_MOUSE_BUTTON_LAST + 1] = {};
    float last_press_x_[GLFW_MOUSE_BUTTON_LAST + 1] = {}, last_press_y_[GLFW_MOUSE_BUTTON_LAST + 1] = {};
    bool has_last_press_[GLFW_MOUSE_BUTTON_LAST + 1] = {};
    bool cursor_seen_ = false;
    double last_poll_end_ = 0.0, earliest_ = -1.0;

public:
    double earliest_now() const { return earliest_; }  // for the callbacks' stamps
};

// The queue of the window (nullptr without a window: screenshots read no input).
InputQueue* input_queue();
void set_input_queue(InputQueue* q);

}  // namespace navdebug
