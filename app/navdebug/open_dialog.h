// The Open dialog: the desktop's own file chooser through zenity or kdialog when one is installed
// (run on a thread, so the window keeps drawing while it is open), else an ImGui file browser
// listing folders and level meshes (every extension nav::load_level reads): a click selects a
// file, Open or a double-click opens it; the files opened last are listed first (Recent), kept in
// $XDG_CONFIG_HOME/navdebug/recent.txt (or ~/.config/...) by interactive runs.
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
    // Keeps the recent files in `file` (read now, rewritten on each add); empty: not kept (the
    // list lives for the session only: screenshots and stress runs write nothing).
    void set_recent_file(const std::filesystem::path& file);
    // A file was opened (by any way): first in the recent list.
    void add_recent(const std::string& path);
    const std::vector<std::string>& recent() const { return recent_; }
    bool browser_open() const { return browser_open_; }
    // $XDG_CONFIG_HOME/navdebug, else ~/.config/navdebug (empty when neither is set); where
    // imgui.ini and recent.txt are kept.
    static std::filesystem::path config_dir();
    static constexpr size_t kMaxRecent = 10;

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
    std::filesystem::path selected_;  // the file a click selected (Open opens it)
    std::vector<std::string> recent_;
    std::filesystem::path recent_file_;
};

}  // namespace navdebug
