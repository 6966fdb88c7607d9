#include "input_queue.h"

#include <imgui.h>

#include <cfloat>
#include <cmath>

namespace navdebug {

namespace {

InputQueue* g_queue = nullptr;

// The double-click window and radius, as ImGui's defaults (io.MouseDoubleClickTime, ..MaxDist);
// measured between the events' times (as near as the polls tell them), not the frames'.
constexpr double kDoubleClickSeconds = 0.30;
constexpr float kDoubleClickPixels = 6.0f;

InputQueue* queue_of(GLFWwindow*) { return g_queue; }

// An event as GLFW reports it: now, and when it could have happened at the earliest.
InputQueue::Event stamped(InputQueue* q, InputQueue::Event e) {
    e.time = glfwGetTime();
    e.earliest = q->earliest_now() < 0.0 ? e.time : q->earliest_now();
    return e;
}

void key_cb(GLFWwindow* w, int key, int, int action, int mods) {
    if (InputQueue* q = queue_of(w)) q->push(stamped(q, {InputQueue::Kind::Key, key, action, mods, 0, 0, 0, 0}));
}
void char_cb(GLFWwindow* w, unsigned int c) {
    if (InputQueue* q = queue_of(w)) q->push(stamped(q, {InputQueue::Kind::Char, static_cast<int>(c), 0, 0, 0, 0, 0, 0}));
}
void button_cb(GLFWwindow* w, int button, int action, int mods) {
    if (InputQueue* q = queue_of(w)) q->push(stamped(q, {InputQueue::Kind::Button, button, action, mods, 0, 0, 0, 0}));
}
void cursor_cb(GLFWwindow* w, double x, double y) {
    if (InputQueue* q = queue_of(w)) q->push(stamped(q, {InputQueue::Kind::Cursor, 0, 0, 0, x, y, 0, 0}));
}
void scroll_cb(GLFWwindow* w, double dx, double dy) {
    if (InputQueue* q = queue_of(w)) q->push(stamped(q, {InputQueue::Kind::Scroll, 0, 0, 0, dx, dy, 0, 0}));
}

}  // namespace

InputQueue* input_queue() { return g_queue; }
void set_input_queue(InputQueue* q) { g_queue = q; }

InputQueue::~InputQueue() {
    if (g_queue == this) g_queue = nullptr;  // the callbacks stay on the window and find no queue
}

void InputQueue::install(GLFWwindow* win) {
    set_input_queue(this);
    glfwSetKeyCallback(win, key_cb);
    glfwSetCharCallback(win, char_cb);
    glfwSetMouseButtonCallback(win, button_cb);
    glfwSetCursorPosCallback(win, cursor_cb);
    glfwSetScrollCallback(win, scroll_cb);
    // where the cursor is before it first moves (the window may open under it)
    double x = 0, y = 0;
    glfwGetCursorPos(win, &x, &y);
    int ww = 0, wh = 0;
    glfwGetWindowSize(win, &ww, &wh);
    if (x >= 0 && y >= 0 && x < ww && y < wh) {
        mouse_x_ = static_cast<float>(x);
        mouse_y_ = static_cast<float>(y);
    }
}

void InputQueue::apply(ImGuiIO& io) { apply_events(io); }

void InputQueue::apply_events(ImGuiIO& io) {
    frame_.pressed.reset();
    frame_.repeated.reset();
    for (bool& d : frame_.double_click) d = false;
    frame_.click_mods = 0;
    frame_.any = false;
    std::bitset<GLFW_KEY_LAST + 1> key_changed;
    bool button_changed[GLFW_MOUSE_BUTTON_LAST + 1] = {};
    bool pos_locked = false;  // a click or a wheel step happened at the current position
    float wheel_x = 0.0f, wheel_y = 0.0f;
    while (!events_.empty()) {
        const Event& e = events_.front();
        bool stop = false;
        switch (e.kind) {
        case Kind::Key: {
            if (e.code < 0 || e.code > GLFW_KEY_LAST) break;  // GLFW_KEY_UNKNOWN
            const size_t k = static_cast<size_t>(e.code);
            if (e.action == GLFW_REPEAT) {
                if (frame_.down[k]) {  // a held key's repeat
                    frame_.repeated[k] = true;
                    frame_.key_mods[k] = e.mods;
                }
                break;
            }
            if (key_changed[k]) {
                stop = true;
                break;
            }
            key_changed[k] = true;
            const bool down = e.action == GLFW_PRESS;
            frame_.down[k] = down;
            if (down) {
                frame_.pressed[k] = true;
                frame_.key_mods[k] = e.mods;
            }
            if (e.code < static_cast<int>(IM_ARRAYSIZE(io.KeysDown))) io.KeysDown[e.code] = down;
            break;
        }
        case Kind::Char:
            if (e.code > 0 && e.code <= 0x10FFFF) io.AddInputCharacter(static_cast<unsigned int>(e.code));
            break;
        case Kind::Button: {
            if (e.code < 0 || e.code > GLFW_MOUSE_BUTTON_LAST) break;
            const size_t b = static_cast<size_t>(e.code);
            if (button_changed[b]) {
                stop = true;
                break;
            }
            button_changed[b] = true;
            pos_locked = true;
            const bool down = e.action == GLFW_PRESS;
            mouse_down_[b] = down;
            if (down) {
                frame_.click_mods |= e.mods;
                // a double-click: the second press soon after the first, near it, by the events' times
                const bool dbl = has_last_press_[b] && e.earliest - last_press_time_[b] < kDoubleClickSeconds &&
                                 std::hypot(mouse_x_ - last_press_x_[b], mouse_y_ - last_press_y_[b]) < kDoubleClickPixels;
                frame_.double_click[b] = dbl;
                has_last_press_[b] = !dbl;  // a third click starts a new pair
                last_press_time_[b] = e.time;
                last_press_x_[b] = mouse_x_;
                last_press_y_[b] = mouse_y_;
            }
            break;
        }
        case Kind::Cursor:
            if (pos_locked) {
                stop = true;
                break;
            }
            mouse_x_ = static_cast<float>(e.x);
            mouse_y_ = static_cast<float>(e.y);
            cursor_seen_ = true;
            break;
        case Kind::Scroll:
            wheel_x += static_cast<float>(e.x);
            wheel_y += static_cast<float>(e.y);
            pos_locked = true;
            break;
        }
        if (stop) break;
        frame_.any = true;
        events_.pop_front();
    }
    io.MouseWheel += wheel_y;
    io.MouseWheelH += wheel_x;
    io.MousePos = ImVec2(mouse_x_, mouse_y_);
    if (mouse_x_ < -1e29f) io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    for (int b = 0; b < IM_ARRAYSIZE(io.MouseDown) && b <= GLFW_MOUSE_BUTTON_LAST; ++b) io.MouseDown[b] = mouse_down_[b];
    const auto held = [&](int a, int b) { return frame_.down[static_cast<size_t>(a)] || frame_.down[static_cast<size_t>(b)]; };
    // the modifiers held now, and those the click of this frame was made with
    io.KeyCtrl = held(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL) || (frame_.click_mods & GLFW_MOD_CONTROL);
    io.KeyShift = held(GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT) || (frame_.click_mods & GLFW_MOD_SHIFT);
    io.KeyAlt = held(GLFW_KEY_LEFT_ALT, GLFW_KEY_RIGHT_ALT) || (frame_.click_mods & GLFW_MOD_ALT);
    io.KeySuper = held(GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER) || (frame_.click_mods & GLFW_MOD_SUPER);
    // ImGui 1.86 decides a double-click from its frame clock (two presses within
    // MouseDoubleClickTime of g.Time): at 300 ms frames the second press of a double-click comes
    // 600 ms after the first. Its test is made to give our answer, from the events' times: an
    // endless window where this frame's press is the second of a pair, none elsewhere.
    bool dbl = false;
    for (bool d : frame_.double_click) dbl = dbl || d;
    io.MouseDoubleClickTime = dbl ? 1e6f : 0.0f;
}

}  // namespace navdebug
