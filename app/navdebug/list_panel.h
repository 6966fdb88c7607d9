// The list part of the obstacle, volume and link panels: "N items" with a remove-all button, then
// a row an item: a selectable label (a click selects the item), the row's fields on its line, a
// remove button, and the fields under it. One function for the three tools.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "list_selection.h"

namespace navdebug {

struct ListPanelText {
    const char* singular;    // "obstacle"
    const char* plural;      // "obstacles"
    const char* remove_tip;  // the remove button's tooltip
    float label_width = 0;   // the label's width; 0: the row's width but the remove button
};

using ListRowLabel = std::function<std::string(size_t)>;
using ListRowFields = std::function<bool(size_t)>;  // item i's fields; true when they changed it

struct ListRowsResult {
    bool remove_all = false;
    int remove = -1;  // the row whose remove button was clicked
    bool changed = false;
};
// The ImGui part: draws the rows of `count` items and selects through `sel`; removes nothing.
ListRowsResult list_rows(const ListPanelText& text, size_t count, ListSelection& sel, const ListRowLabel& label,
                         const ListRowFields& inline_fields, const ListRowFields& below_fields);

// The rows (list_rows) with their removals done on `items`. True when the items changed. Nothing
// when there are none (the caller says what to do then).
template <class T>
bool list_panel(const ListPanelText& text, std::vector<T>& items, ListSelection& sel, const ListRowLabel& label,
                const ListRowFields& inline_fields, const ListRowFields& below_fields) {
    if (items.empty()) return false;
    const ListRowsResult r = list_rows(text, items.size(), sel, label, inline_fields, below_fields);
    if (r.remove_all) {
        items.clear();
        sel.select(-1);
        return true;
    }
    if (r.remove >= 0) {
        sel.remove(items, r.remove);
        return true;
    }
    return r.changed;
}

}  // namespace navdebug
