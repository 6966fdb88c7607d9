// The selection in a tool's list of items (obstacles, volumes, links: a vector the tool edits):
// which item is selected, and what removing items does to it. The tools derive from it; plain and
// header-only (tests/unit/test_volume_tool.cpp drives it through the volume tool).
#pragma once
#include <vector>

namespace navdebug {

class ListSelection {
public:
    int selected() const { return selected_; }
    void select(int i) { selected_ = i; }
    template <class T>
    bool has_selection(const std::vector<T>& items) const {
        return selected_ >= 0 && selected_ < static_cast<int>(items.size());
    }
    // Drops a selection that no longer names an item (after undo, a loaded session). True when it
    // was dropped.
    template <class T>
    bool clamp(const std::vector<T>& items) {
        if (selected_ < static_cast<int>(items.size())) return false;
        selected_ = -1;
        return true;
    }
    // Delete: removes the selected item. True when one was removed.
    template <class T>
    bool remove_selected(std::vector<T>& items) {
        if (!has_selection(items)) return false;
        items.erase(items.begin() + selected_);
        selected_ = -1;
        return true;
    }
    // Removes item i; the selection stays on its item (dropped when that was i).
    template <class T>
    void remove(std::vector<T>& items, int i) {
        items.erase(items.begin() + i);
        if (selected_ == i) selected_ = -1;
        else if (selected_ > i) --selected_;
    }

protected:
    int selected_ = -1;
};

}  // namespace navdebug
