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
    // Per panel: whole pixels last reported, and the value of the last frames with how many in a
    // row. A value is reported once it held for kSettle frames: in the frame a scrollbar appears,
    // ImGui lays items out at the width of the frame before (26 px past the edge for one frame on
    // the Bake panel), which is not a cut a user sees.
    constexpr int kSettle = 3;
    struct Seen { int reported = 0, value = 0, frames = 0; };
    static std::map<std::string, Seen> last;
    const int now = static_cast<int>(std::ceil(overflow_px));
    Seen& st = last[panel];
    st.frames = now == st.value ? st.frames + 1 : 1;
    st.value = now;
    if (st.frames < kSettle) return;
    const int px = now;
    int& seen = st.reported;
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
