#include "open_dialog.h"

#include <imgui.h>

#include "core/formats/level_import.h"
#include "core/io/file.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace navdebug {

namespace {

bool on_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::string p = path;
    size_t at = 0;
    while (at <= p.size()) {
        size_t end = p.find(':', at);
        if (end == std::string::npos) end = p.size();
        const std::string dir = p.substr(at, end - at);
        if (!dir.empty() && access((dir + "/" + name).c_str(), X_OK) == 0) return true;
        at = end + 1;
    }
    return false;
}

// Single quotes for a shell word.
std::string quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// "*.obj *.OBJ *.gltf *.GLTF ...": every extension load_level reads, both cases (the desktop
// choosers match case-sensitively).
std::string level_patterns() {
    std::string out;
    for (std::string_view e : nav::level_extensions()) {
        std::string up(e);
        std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        out += (out.empty() ? "*" : " *") + std::string(e) + " *" + up;
    }
    out += " *.bin *.BIN";  // a Detour navmesh (MSET or one tile): loaded, not baked
    return out;
}

bool is_level_file(const std::filesystem::path& p) {
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (std::string_view e : nav::level_extensions())
        if (ext == e) return true;
    return ext == ".bin";  // a Detour navmesh
}

}  // namespace

OpenDialog::~OpenDialog() {
    if (thread_.joinable()) thread_.join();  // the chooser closes with the session; nothing to kill
}

std::filesystem::path OpenDialog::config_dir() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    if (xdg && *xdg) return std::filesystem::path(xdg) / "navdebug";
    if (home && *home) return std::filesystem::path(home) / ".config" / "navdebug";
    return {};
}

void OpenDialog::set_recent_file(const std::filesystem::path& file) {
    recent_file_ = file;
    recent_.clear();
    std::error_code ec;
    if (file.empty() || !std::filesystem::exists(file, ec)) return;
    std::string text;
    if (!nav::read_input_file(file.string(), "recent files", 1 << 20, text)) return;  // unreadable: start empty
    std::istringstream in(text);
    for (std::string line; std::getline(in, line) && recent_.size() < kMaxRecent;)
        if (!line.empty() && std::find(recent_.begin(), recent_.end(), line) == recent_.end()) recent_.push_back(line);
}

void OpenDialog::add_recent(const std::string& path) {
    if (path.empty()) return;
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(path, ec);
    const std::string p = ec ? path : abs.lexically_normal().string();
    recent_.erase(std::remove(recent_.begin(), recent_.end(), p), recent_.end());
    recent_.insert(recent_.begin(), p);
    if (recent_.size() > kMaxRecent) recent_.resize(kMaxRecent);
    if (recent_file_.empty()) return;
    std::string text;
    for (const std::string& r : recent_) text += r + "\n";
    std::filesystem::create_directories(recent_file_.parent_path(), ec);
    if (const nav::Status st = nav::write_output_file(recent_file_.string(), text); !st)
        std::fprintf(stderr, "navdebug: cannot keep the recent files: %s\n", st.message.c_str());
}

std::string OpenDialog::desktop_tool() {
    if (on_path("zenity")) return "zenity";
    if (on_path("kdialog")) return "kdialog";
    return "";
}

void OpenDialog::open(const std::string& start_dir) {
    const std::string tool = desktop_tool();
    if (tool.empty()) {
        browser_request_ = true;
        browse(start_dir.empty() ? std::filesystem::current_path() : std::filesystem::path(start_dir));
        return;
    }
    {
        std::lock_guard lk(m_);
        if (running_) return;
        running_ = true;
    }
    if (thread_.joinable()) thread_.join();
    const std::string dir = start_dir.empty() ? std::filesystem::current_path().string() : start_dir;
    const std::string pats = level_patterns();
    const std::string cmd = tool == "zenity"
                                ? "zenity --file-selection --title='Open a mesh' --file-filter=" +
                                      quoted("Level meshes, Detour navmeshes | " + pats) + " --filename=" + quoted(dir + "/") + " 2>/dev/null"
                                : "kdialog --getopenfilename " + quoted(dir) + " " + quoted("Level meshes, Detour navmeshes (" + pats + ")") +
                                      " 2>/dev/null";
    thread_ = std::thread([this, cmd] {
        std::string out;
        if (FILE* f = popen(cmd.c_str(), "r")) {
            char buf[4096];
            size_t n;
            while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
            pclose(f);
        }
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
        std::lock_guard lk(m_);
        if (!out.empty()) result_ = out;
        running_ = false;
    });
}

void OpenDialog::browse(const std::filesystem::path& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path d = fs::absolute(dir, ec).lexically_normal();
    if (ec || !fs::is_directory(d, ec)) d = fs::current_path();
    dir_ = d;
    dirs_.clear();
    files_.clear();
    error_.clear();
    for (fs::directory_iterator it(d, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        const fs::path p = it->path();
        if (p.filename().string().starts_with(".")) continue;
        std::error_code e2;
        if (it->is_directory(e2)) {
            dirs_.push_back(p);
        } else {
            if (is_level_file(p)) files_.push_back(p);
        }
    }
    if (ec) error_ = "cannot list " + d.string() + ": " + ec.message();
    selected_.clear();
    std::sort(dirs_.begin(), dirs_.end());
    std::sort(files_.begin(), files_.end());
}

std::optional<std::string> OpenDialog::poll() {
    {
        std::lock_guard lk(m_);
        if (result_) {
            std::optional<std::string> r;
            r.swap(result_);
            return r;
        }
    }
    if (browser_request_) {
        ImGui::OpenPopup("Open a mesh##browser");
        browser_request_ = false;
        browser_open_ = true;
    }
    std::optional<std::string> chosen;
    ImGui::SetNextWindowSize(ImVec2(520, 420), ImGuiCond_Appearing);
    if (ImGui::BeginPopupModal("Open a mesh##browser", &browser_open_)) {
        ImGui::TextWrapped("%s", dir_.string().c_str());
        if (!error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.42f, 0.38f, 1.0f), "%s", error_.c_str());
        ImGui::BeginChild("##entries", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), true);
        std::optional<std::filesystem::path> go;
        // a click selects a file, a double-click (or Open) opens it; a click on a folder enters it.
        // The double-click is ImGui's, decided from the events' own times by the input queue
        // (input_queue.h): it holds at any frame rate.
        auto file_row = [&](const std::filesystem::path& f, const std::string& label) {
            if (ImGui::Selectable(label.c_str(), selected_ == f, ImGuiSelectableFlags_AllowDoubleClick)) {
                selected_ = f;
                if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) chosen = f.string();
            }
        };
        std::error_code ec;
        bool any_recent = false;
        for (const std::string& r : recent_) {
            if (!std::filesystem::is_regular_file(r, ec)) continue;
            if (!any_recent) ImGui::TextDisabled("Recent");
            any_recent = true;
            ImGui::PushID(r.c_str());
            file_row(r, std::filesystem::path(r).filename().string() + "  (" + std::filesystem::path(r).parent_path().string() + ")");
            ImGui::PopID();
        }
        if (any_recent) ImGui::Separator();
        if (dir_.has_parent_path() && dir_ != dir_.root_path() && ImGui::Selectable("../")) go = dir_.parent_path();
        for (const auto& d : dirs_)
            if (ImGui::Selectable((d.filename().string() + "/").c_str())) go = d;
        for (const auto& f : files_) file_row(f, f.filename().string());
        if (dirs_.empty() && files_.empty()) ImGui::TextDisabled("no folders or level meshes or Detour navmeshes (%s) here", level_patterns().c_str());
        ImGui::EndChild();
        ImGui::BeginDisabled(selected_.empty());
        if (ImGui::Button("Open")) chosen = selected_.string();
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) browser_open_ = false;
        ImGui::SameLine();
        ImGui::TextDisabled("double-click a file, or select it and Open");
        if (go) browse(*go);
        if (chosen) browser_open_ = false;
        if (!browser_open_) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    return chosen;
}

}  // namespace navdebug
