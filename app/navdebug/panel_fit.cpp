#include "panel_fit.h"

#include <imgui.h>
#include <imgui_internal.h>  // the window's CursorMaxPos and WorkRect: what was laid out against what fits

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace navdebug {

float window_overflow() {
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    if (!w || w->Collapsed) return 0.0f;
    // CursorMaxPos: the right edge of the widest item laid out (ItemSize); WorkRect: the content
    // region (the window less its padding and its scrollbar). Half a pixel of rounding is not a cut.
    const float over = w->DC.CursorMaxPos.x - w->WorkRect.Max.x;
    return over > 0.5f ? over : 0.0f;
}

void report_overflow(Log& log, const char* panel, float overflow_px) {
    static std::map<std::string, int> last;  // per panel, whole pixels last reported
    const int px = static_cast<int>(std::ceil(overflow_px));
    int& seen = last[panel];
    if (px == seen) return;
    const int was = seen;
    seen = px;
    char msg[160];
    if (px <= 0) {
        if (was > 0) log.info(std::string("panel fit: ") + panel + ": fits again");
        return;
    }
    std::snprintf(msg, sizeof msg, "panel fit: %s: an item runs %d px past the panel's edge (cut off)", panel, px);
    log.warn(msg);
}

std::string fit_text(const std::string& text, float width, size_t keep) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    for (size_t n = text.size(); n > keep; --n) {
        const std::string cut = text.substr(0, n - 1) + "..";
        if (ImGui::CalcTextSize(cut.c_str()).x <= width) return cut;
    }
    return text.substr(0, keep);
}

}  // namespace navdebug
