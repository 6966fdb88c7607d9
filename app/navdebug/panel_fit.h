// Panels that fit their width: how far the current window's widest item runs past its content
// edge (text or a widget the panel's edge cuts off), reported in the log of a screenshot run
// (tests/e2e/screenshots_fit.sh reads it), and text shortened to a width it must fit in.
#pragma once
#include <string>

#include "log.h"

namespace navdebug {

// Pixels by which the widest item of the current ImGui window (at its level, not inside a table or
// a child) reaches past the window's content edge; 0 when everything fits. Call before ImGui::End().
float window_overflow();

// Logs a warning "panel fit: PANEL: ..." when `panel`'s overflow this frame differs from the last
// one reported for it (once per change, not once per frame), "panel fit: PANEL: fits again" when
// it fits after that; nothing while it fits.
void report_overflow(Log& log, const char* panel, float overflow_px);

// `text` whole when it fits `width` pixels of the current font, else cut at a character with ".."
// appended (at least `keep` characters are kept: a count stays readable).
std::string fit_text(const std::string& text, float width, size_t keep = 0);

}  // namespace navdebug
