// Undo / redo of the debugger's edits as a linear history of whole states (parameters, volumes,
// the prune point: whatever State holds). The app commits the state whenever an edit has settled
// (no slider held), so a slider drag is one step, and a fix, a prune or a loaded session each one
// more. Plain and header-only: tests/unit/test_undo.cpp drives it without the app.
#pragma once
#include <cstddef>
#include <vector>

namespace navdebug {

template <class State>
class UndoStack {
public:
    explicit UndoStack(size_t limit = 256) : limit_(limit < 2 ? 2 : limit) {}

    // A new baseline (a mesh opened): the history is cleared.
    void reset(const State& s) {
        states_.assign(1, s);
        pos_ = 0;
    }
    // Records `s` as the newest step when it differs from the current state; the steps that
    // could have been redone are dropped. The first commit sets the baseline. True if recorded.
    bool commit(const State& s) {
        if (states_.empty()) {
            reset(s);
            return false;
        }
        if (states_[pos_] == s) return false;
        states_.resize(pos_ + 1);
        states_.push_back(s);
        if (states_.size() > limit_) states_.erase(states_.begin());
        pos_ = states_.size() - 1;
        return true;
    }
    bool can_undo() const { return pos_ > 0; }
    bool can_redo() const { return pos_ + 1 < states_.size(); }
    // Steps back (forward) one state and returns it, for the caller to apply. Only when can_undo()
    // (can_redo()).
    const State& undo() { return states_[can_undo() ? --pos_ : pos_]; }
    const State& redo() { return states_[can_redo() ? ++pos_ : pos_]; }
    const State& current() const { return states_[pos_]; }
    bool empty() const { return states_.empty(); }
    size_t undo_steps() const { return pos_; }
    size_t redo_steps() const { return states_.empty() ? 0 : states_.size() - 1 - pos_; }

private:
    std::vector<State> states_;
    size_t pos_ = 0;
    size_t limit_;
};

}  // namespace navdebug
