// The Open dialog: the desktop's own file chooser through zenity or kdialog when one is installed
// (run on a thread, so the window keeps drawing while it is open), else an ImGui file browser
// listing folders and level meshes (every extension nav::load_level reads).
#pragma once
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace navdebug {

class OpenDialog {
public:
    ~OpenDialog();
    // Opens the chooser, starting in `start_dir`.
    void open(const std::string& start_dir);
    // Once per frame inside the ImGui frame: draws the browser when it is the one in use; returns
    // the chosen file once.
    std::optional<std::string> poll();
    // "zenity", "kdialog" or "" (the ImGui browser), found on PATH.
    static std::string desktop_tool();

private:
    void browse(const std::filesystem::path& dir);

    std::thread thread_;
    std::mutex m_;
    bool running_ = false;                 // the desktop chooser is open
    std::optional<std::string> result_;    // set by the chooser's thread
    bool browser_open_ = false, browser_request_ = false;
    std::filesystem::path dir_;
    std::vector<std::filesystem::path> dirs_, files_;
    std::string error_;
};

}  // namespace navdebug
