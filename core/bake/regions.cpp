// Stage 7: region partitioning. Three partitions over the compact heightfield, each followed by
// a clean-up pass over a small region table:
//   watershed - flood regions from the distance field's maxima two levels at a time, growing the
//               existing regions first, then merge and filter (mergeAndFilterRegions in Recast);
//   monotone  - sweep rows, continuing a row run's region from the row below when that region is
//               its unique neighbour, then the same merge and filter;
//   layers    - the same sweep, then merge neighbouring sweep regions into layers that never
//               overlap themselves in a column, and drop small layers.
// The results follow Recast (rcBuildRegions, rcBuildRegionsMonotone, rcBuildLayerRegions)
// decision for decision, so the same spans get the same ids; the work is organised differently
// (precomputed same-area links, stacks that shed assigned spans, reverse references for merges,
// per-region counts gathered during the sweep). Two intended differences from Debian's 1.5.1:
//   - layers never merge sweep regions of different area types (upstream Recast's later rule;
//     1.5.1 merges them and loses the area of one side); same result with a single area type;
//   - with a tile border, surviving ids are 1..n; Recast also spends ids 1..4 on the empty
//     table entries of the four border strips, so its ids start at 5 there.
#include "core/bake/regions.h"

#include <algorithm>
#include <array>
#include <string>

namespace nav {
namespace {

constexpr uint32_t kNoSpan = 0xffffffffu;
// Ids at or above this would collide with the border flag.
constexpr int kMaxRegionIds = kBorderRegion;

Status check_inputs(const char* who, const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                    int border) {
    if (border < 0) return Status::bad_input(std::string(who) + ": negative border size");
    if (chf.width < 0 || chf.height < 0)
        return Status::bad_input(std::string(who) + ": negative grid size");
    if (chf.cells.size() != static_cast<size_t>(chf.width) * static_cast<size_t>(chf.height))
        return Status::bad_input(std::string(who) + ": cells do not match the grid size");
    if (chf.spans.size() != chf.span_count)
        return Status::bad_input(std::string(who) + ": spans do not match span_count");
    if (areas.size() != chf.span_count)
        return Status::bad_input(std::string(who) + ": areas do not match span_count");
    return Status::ok();
}

Status too_many_regions(const char* who) {
    return Status::bad_input(std::string(who) + ": more than 32767 regions; raise region_min_size "
                                                "or split the scene into tiles");
}

// Index of the neighbour of span i (at x, z) in direction dir, or kNoSpan.
inline uint32_t linked(const CompactHeightfield& chf, int x, int z, uint32_t i, int dir) {
    const int c = get_con(chf.spans[i], dir);
    if (c == kNotConnected) return kNoSpan;
    return chf.neighbour(x, z, i, dir);
}

// Marks every walkable span in the rectangle [x0,x1) x [z0,z1) with id.
void paint_rect(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int x0, int x1, int z0,
                int z1, uint16_t id, std::vector<uint16_t>& reg) {
    for (int z = z0; z < z1; ++z)
        for (int x = x0; x < x1; ++x) {
            const CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i)
                if (areas[i] != kNullArea) reg[i] = id;
        }
}

// Paints the four tile-border strips with border regions 1..4; returns the next free id.
uint16_t paint_border(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int border,
                      std::vector<uint16_t>& reg) {
    uint16_t id = 1;
    if (border <= 0) return id;
    const int w = chf.width, h = chf.height;
    const int bw = std::min(w, border), bh = std::min(h, border);
    paint_rect(chf, areas, 0, bw, 0, h, static_cast<uint16_t>(id++ | kBorderRegion), reg);
    paint_rect(chf, areas, w - bw, w, 0, h, static_cast<uint16_t>(id++ | kBorderRegion), reg);
    paint_rect(chf, areas, 0, w, 0, bh, static_cast<uint16_t>(id++ | kBorderRegion), reg);
    paint_rect(chf, areas, 0, w, h - bh, h, static_cast<uint16_t>(id++ | kBorderRegion), reg);
    return id;
}

// ---------------------------------------------------------------------------------------------
// The region table shared by the merge-and-filter passes.

struct Region {
    int span_count = 0;
    uint16_t id = 0;
    uint8_t area = 0;
    bool visited = false;
    bool overlap = false;           // the region has two spans in one column
    bool connects_to_border = false;
    uint16_t ymin = 0xffff, ymax = 0;
    std::vector<uint16_t> connections;  // neighbour ids around the outline, in walk order
    std::vector<uint16_t> floors;       // ids sharing a column with this region
};

inline bool contains(const std::vector<uint16_t>& v, uint16_t x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}
inline void add_unique(std::vector<uint16_t>& v, uint16_t x) {
    if (!contains(v, x)) v.push_back(x);
}

// Removes equal neighbours around the circular list, stopping at one element.
void remove_adjacent_duplicates(std::vector<uint16_t>& c) {
    for (size_t i = 0; i < c.size() && c.size() > 1;) {
        const size_t ni = (i + 1) % c.size();
        if (c[i] == c[ni])
            c.erase(c.begin() + static_cast<std::ptrdiff_t>(i));
        else
            ++i;
    }
}

void replace_neighbour(Region& r, uint16_t old_id, uint16_t new_id) {
    bool changed = false;
    for (uint16_t& c : r.connections)
        if (c == old_id) {
            c = new_id;
            changed = true;
        }
    for (uint16_t& f : r.floors)
        if (f == old_id) f = new_id;
    if (changed) remove_adjacent_duplicates(r.connections);
}

bool can_merge(const Region& a, const Region& b) {
    if (a.area != b.area) return false;
    int n = 0;
    for (uint16_t c : a.connections)
        if (c == b.id) ++n;
    if (n > 1) return false;
    return !contains(a.floors, b.id);
}

// Splices b's outline into a's (both must name each other); a takes b's spans and floors.
bool merge_into(Region& a, Region& b, std::vector<uint16_t>& scratch) {
    const uint16_t aid = a.id, bid = b.id;
    scratch = a.connections;
    const std::vector<uint16_t>& acon = scratch;
    const std::vector<uint16_t>& bcon = b.connections;
    const auto ia = std::find(acon.begin(), acon.end(), bid);
    if (ia == acon.end()) return false;
    const auto ib = std::find(bcon.begin(), bcon.end(), aid);
    if (ib == bcon.end()) return false;
    const size_t insa = static_cast<size_t>(ia - acon.begin()), insb = static_cast<size_t>(ib - bcon.begin());
    a.connections.clear();
    for (size_t i = 0, n = acon.size(); i + 1 < n; ++i) a.connections.push_back(acon[(insa + 1 + i) % n]);
    for (size_t i = 0, n = bcon.size(); i + 1 < n; ++i) a.connections.push_back(bcon[(insb + 1 + i) % n]);
    remove_adjacent_duplicates(a.connections);
    for (uint16_t f : b.floors) add_unique(a.floors, f);
    a.span_count += b.span_count;
    b.span_count = 0;
    b.connections.clear();
    return true;
}

inline bool is_solid_edge(const CompactHeightfield& chf, const std::vector<uint16_t>& reg, int x, int z,
                          uint32_t i, int dir) {
    const uint32_t ai = linked(chf, x, z, i, dir);
    const uint16_t r = ai == kNoSpan ? 0 : reg[ai];
    return r != reg[i];
}

// Walks the outline of i's region from edge dir, recording the neighbour id along each stretch.
void walk_contour(const CompactHeightfield& chf, const std::vector<uint16_t>& reg, int x, int z, uint32_t i,
                  int dir, std::vector<uint16_t>& cont) {
    const int start_dir = dir;
    const uint32_t start_i = i;
    uint32_t ai = linked(chf, x, z, i, dir);
    uint16_t cur = ai == kNoSpan ? 0 : reg[ai];
    cont.push_back(cur);
    for (int iter = 1; iter < 40000; ++iter) {
        ai = linked(chf, x, z, i, dir);
        const uint16_t r = ai == kNoSpan ? 0 : reg[ai];
        if (r != reg[i]) {
            if (r != cur) {
                cur = r;
                cont.push_back(cur);
            }
            dir = (dir + 1) & 3;  // rotate clockwise
        } else {
            if (ai == kNoSpan) return;  // cannot happen: a missing link is always an edge
            x += dir_offset_x(dir);
            z += dir_offset_z(dir);
            i = ai;
            dir = (dir + 3) & 3;  // rotate counter-clockwise
        }
        if (i == start_i && dir == start_dir) break;
    }
    if (cont.size() > 1) {
        for (size_t j = 0; j < cont.size();) {
            const size_t nj = (j + 1) % cont.size();
            if (cont[j] == cont[nj])
                cont.erase(cont.begin() + static_cast<std::ptrdiff_t>(j));
            else
                ++j;
        }
    }
}

// Renumbers the surviving (non-null, non-border, non-empty) groups 1..n in order of first index,
// rewrites the span ids and fills out's id range and count.
void compress_ids(std::vector<Region>& regions, std::vector<uint16_t>& reg, Regions& out) {
    const size_t nreg = regions.size();
    // Span totals per group id, so groups with no spans (the border strips' table entries) get
    // no id.
    std::vector<int> total(nreg + 1, 0);
    for (const Region& r : regions)
        if (r.id != 0 && (r.id & kBorderRegion) == 0 && r.id <= nreg) total[r.id] += r.span_count;
    std::vector<uint16_t> remap(nreg + 1, 0);
    uint16_t gen = 0;
    for (Region& r : regions) {
        if (r.id == 0 || (r.id & kBorderRegion) || r.id > nreg || total[r.id] == 0) {
            if ((r.id & kBorderRegion) == 0) r.id = 0;
            continue;
        }
        if (remap[r.id] == 0) remap[r.id] = ++gen;
        r.id = remap[r.id];
    }
    for (uint16_t& v : reg)
        if ((v & kBorderRegion) == 0) v = v < nreg ? regions[v].id : 0;
    out.max_region_id = static_cast<uint16_t>(gen + 1);
    out.region_count = gen;
}

// The id each pre id ends with: compress_ids rewrote every table entry to the id its spans get.
void record_final_ids(const std::vector<Region>& regions, uint16_t max_id, RegionTrace& trace) {
    trace.final_id.resize(max_id);
    for (size_t v = 0; v < max_id; ++v) trace.final_id[v] = v < regions.size() ? regions[v].id : 0;
}

// After a sweep (monotone, layers): each span got its id in its own row, the border strips
// before the first row.
void record_sweep_steps(const CompactHeightfield& chf, const std::vector<uint16_t>& reg, int border,
                        RegionTrace& trace) {
    const int w = chf.width, h = chf.height;
    trace.step_value.clear();
    for (int z = border; z < h - border; ++z) trace.step_value.push_back(static_cast<uint32_t>(z));
    trace.span_step.assign(chf.span_count, RegionTrace::kNotReached);
    for (int z = 0; z < h; ++z)
        for (int x = 0; x < w; ++x) {
            const CompactCell& c = chf.cells[static_cast<size_t>(x + z * w)];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                const uint16_t r = reg[i];
                if (r == 0) continue;
                trace.span_step[i] = (r & kBorderRegion) ? 0u : static_cast<uint32_t>(z - border);
            }
        }
    trace.pre_reg = reg;
}

// Per-region facts the monotone sweep gathers on the way, so the region table needs no pass
// of its own over the cells. Indexed by region id.
struct TableHints {
    std::vector<int> count;          // spans per id
    std::vector<uint32_t> first;     // first span in scan order, kNoSpan if none
    std::vector<int> first_cell;     // its cell
    std::vector<uint32_t> multi;     // cells holding more than one span, in scan order
    void add_id(uint32_t first_span, int cell) {
        count.push_back(0);
        first.push_back(first_span);
        first_cell.push_back(cell);
    }
};

// Table of regions 0..nreg-1 with span counts, floors and the neighbour ids around each
// region's outline. Recast walks the outline from the region's first span in scan order (that
// span always has an edge: its -z neighbour, if any, was scanned earlier, so it belongs to
// another region); the walks and floors only read ids, so they run after the counting.
void build_region_table(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                        const std::vector<uint16_t>& reg_v, TableHints* hints, std::vector<Region>& regions) {
    const size_t nreg = regions.size();
    const int w = chf.width, h = chf.height;
    const CompactCell* cells = chf.cells.data();
    const uint16_t* reg = reg_v.data();
    Region* table = regions.data();
    TableHints local;
    TableHints& th = hints ? *hints : local;
    th.count.resize(nreg, 0);
    th.first.resize(nreg, kNoSpan);
    th.first_cell.resize(nreg, -1);
    auto add_floors = [&](const CompactCell c) {
        const uint32_t e = c.index + c.count;
        for (uint32_t i = c.index; i < e; ++i) {
            const uint16_t r = reg[i];
            if (r == 0 || r >= nreg) continue;
            Region& R = table[r];
            for (uint32_t j = c.index; j < e; ++j) {
                if (j == i) continue;
                const uint16_t f = reg[j];
                if (f == 0 || f >= nreg) continue;
                if (f == r) R.overlap = true;
                add_unique(R.floors, f);
            }
        }
    };
    if (hints) {
        for (uint32_t ci : th.multi) add_floors(cells[ci]);
    } else {
        int* count = th.count.data();
        int* first_cell = th.first_cell.data();
        uint32_t* first = th.first.data();
        for (int ci = 0, nc = w * h; ci < nc; ++ci) {
            const CompactCell c = cells[ci];
            const uint32_t e = c.index + c.count;
            for (uint32_t i = c.index; i < e; ++i) {
                const uint16_t r = reg[i];
                if (r == 0 || r >= nreg) continue;
                if (count[r]++ == 0) {
                    first[r] = i;
                    first_cell[r] = ci;
                }
            }
            if (c.count > 1) add_floors(c);
        }
    }
    for (size_t r = 1; r < nreg; ++r) {
        Region& R = table[r];
        R.span_count = th.count[r];
        const uint32_t i = th.first[r];
        if (i == kNoSpan) continue;
        R.area = areas[i];
        const int x = th.first_cell[r] % w, z = th.first_cell[r] / w;
        for (int dir = 0; dir < 4; ++dir)
            if (is_solid_edge(chf, reg_v, x, z, i, dir)) {
                walk_contour(chf, reg_v, x, z, i, dir, R.connections);
                break;
            }
    }
}

// Recast's mergeAndFilterRegions: drop connected groups smaller than min_area that do not touch
// a tile border, merge small (or enclosed) regions into their smallest mergeable neighbour,
// then compress ids.
Status merge_and_filter(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int min_area,
                        int merge_area, uint16_t max_id, std::vector<uint16_t>& reg, TableHints* hints,
                        Regions& out, const CancelFlag* cancel, RegionTrace* rtrace) {
    const size_t nreg = static_cast<size_t>(max_id) + 1;
    std::vector<Region> regions(nreg);
    for (size_t i = 0; i < nreg; ++i) regions[i].id = static_cast<uint16_t>(i);
    build_region_table(chf, areas, reg, hints, regions);
    if (is_cancelled(cancel)) return Status::cancelled();

    // Remove too small groups of connected regions.
    if (rtrace) rtrace->removed.assign(max_id, 0);
    std::vector<uint16_t> stack, trace;
    for (size_t i = 0; i < nreg; ++i) {
        Region& start = regions[i];
        if (start.id == 0 || (start.id & kBorderRegion) || start.span_count == 0 || start.visited) continue;
        bool to_border = false;
        int spans = 0;
        stack.clear();
        trace.clear();
        start.visited = true;
        stack.push_back(static_cast<uint16_t>(i));
        while (!stack.empty()) {
            const uint16_t ri = stack.back();
            stack.pop_back();
            const Region& cr = regions[ri];
            spans += cr.span_count;
            trace.push_back(ri);
            for (uint16_t c : cr.connections) {
                if (c & kBorderRegion) {
                    to_border = true;
                    continue;
                }
                Region& nr = regions[c];
                if (nr.visited || nr.id == 0 || (nr.id & kBorderRegion)) continue;
                stack.push_back(nr.id);
                nr.visited = true;
            }
        }
        if (spans < min_area && !to_border)
            for (uint16_t t : trace) {
                regions[t].span_count = 0;
                regions[t].id = 0;
                if (rtrace && t < max_id) rtrace->removed[t] = 1;
            }
    }

    // Reverse references: refs[k] lists regions whose id, connections or floors may hold k
    // (a superset; a stale entry costs a no-op replace). Used instead of rescanning every
    // region after each merge; the result is the same because each fix-up only touches the
    // region it is applied to.
    std::vector<std::vector<uint16_t>> refs(nreg);
    for (size_t j = 0; j < nreg; ++j) {
        const Region& r = regions[j];
        if (r.id == 0 || (r.id & kBorderRegion)) continue;
        const auto jj = static_cast<uint16_t>(j);
        refs[r.id].push_back(jj);
        for (uint16_t c : r.connections)
            if (c < nreg && (refs[c].empty() || refs[c].back() != jj)) refs[c].push_back(jj);
        for (uint16_t f : r.floors)
            if (f < nreg && (refs[f].empty() || refs[f].back() != jj)) refs[f].push_back(jj);
    }

    std::vector<uint16_t> scratch;
    int merged;
    do {
        merged = 0;
        for (size_t i = 0; i < nreg; ++i) {
            Region& r = regions[i];
            if (r.id == 0 || (r.id & kBorderRegion) || r.overlap || r.span_count == 0) continue;
            if (r.span_count > merge_area && contains(r.connections, 0)) continue;
            int smallest = 0xfffffff;
            uint16_t merge_id = r.id;
            for (uint16_t c : r.connections) {
                if (c & kBorderRegion) continue;
                const Region& m = regions[c];
                if (m.id == 0 || (m.id & kBorderRegion) || m.overlap) continue;
                if (m.span_count < smallest && can_merge(r, m) && can_merge(m, r)) {
                    smallest = m.span_count;
                    merge_id = m.id;
                }
            }
            if (merge_id == r.id) continue;
            const uint16_t old_id = r.id;
            if (!merge_into(regions[merge_id], r, scratch)) continue;
            std::vector<uint16_t>& from = refs[old_id];
            std::vector<uint16_t>& to = refs[merge_id];
            for (uint16_t j : from) {
                Region& q = regions[j];
                if (q.id == 0 || (q.id & kBorderRegion)) continue;
                if (q.id == old_id) q.id = merge_id;
                replace_neighbour(q, old_id, merge_id);
                to.push_back(j);
            }
            from.clear();
            // The target's own floors now name b's floors too.
            for (uint16_t f : regions[merge_id].floors)
                if (f < nreg) refs[f].push_back(merge_id);
            for (uint16_t c : regions[merge_id].connections)
                if (c < nreg) refs[c].push_back(merge_id);
            ++merged;
        }
        if (is_cancelled(cancel)) return Status::cancelled();
    } while (merged > 0);

    compress_ids(regions, reg, out);
    if (rtrace) record_final_ids(regions, max_id, *rtrace);
    return Status::ok();
}

// ---------------------------------------------------------------------------------------------
// Watershed.

struct Watershed {
    const CompactHeightfield& chf;
    const uint8_t* areas;
    const uint16_t* dist;
    uint16_t* reg;
    // Working memory (RegionScratch, the caller's or a local one):
    std::vector<uint32_t>& nb;     // 4 per span: neighbour with the same area, or kNoSpan
    std::vector<uint16_t>& rdist;  // distance from the region's flood seed while expanding
    std::array<std::vector<uint32_t>, 8>& stacks;  // cleared by sort_by_level before each use
    std::vector<uint32_t>& stack;
    using Dirty = RegionScratch::Dirty;
    std::vector<Dirty>& dirty;
    bool linear = true;  // spans are stored in cell scan order, so a linear pass is a scan
    uint32_t* step = nullptr;  // trace: per span, the step it joined a region (Rec only)
    uint32_t cur_step = 0;

    template <class F>
    void for_each_span(F&& f) const {
        if (linear) {
            for (uint32_t i = 0; i < chf.span_count; ++i) f(i);
            return;
        }
        for (const CompactCell& c : chf.cells)
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) f(i);
    }

    void build_links() {
        const int w = chf.width, h = chf.height;
        nb.resize(static_cast<size_t>(chf.span_count) * 4);
        const CompactCell* cells = chf.cells.data();
        const CompactSpan* spans = chf.spans.data();
        const uint8_t* ar = areas;
        uint32_t* out = nb.data();
        const int offs[4] = {-1, w, 1, -w};  // neighbour cell in each direction
        uint32_t next = 0;
        bool lin = true;
        for (int z = 0; z < h; ++z)
            for (int x = 0; x < w; ++x) {
                const int ci = x + z * w;
                const CompactCell c = cells[ci];
                if (c.count == 0) continue;  // an empty cell's index means nothing
                if (c.index != next) lin = false;
                next = c.index + c.count;
                for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                    uint32_t* n = out + static_cast<size_t>(i) * 4;
                    const uint8_t area = ar[i];
                    const uint32_t con = spans[i].con;
                    for (int dir = 0; dir < 4; ++dir) {
                        const uint32_t k = (con >> (dir * 6)) & 0x3f;
                        uint32_t ai = kNoSpan;
                        if (area != kNullArea && k != kNotConnected) {
                            ai = cells[ci + offs[dir]].index + k;
                            if (ar[ai] != area) ai = kNoSpan;
                        }
                        n[dir] = ai;
                    }
                }
            }
        if (next != chf.span_count) lin = false;
        linear = lin;
    }

    // Sorts the unassigned spans from level down into 8 stacks, two levels per stack.
    void sort_by_level(uint16_t level) {
        const int start = level >> 1;
        for (auto& s : stacks) s.clear();
        for_each_span([&](uint32_t i) {
            if (areas[i] == kNullArea || reg[i] != 0) return;
            int sid = start - (dist[i] >> 1);
            if (sid >= 8) return;
            if (sid < 0) sid = 0;
            stacks[static_cast<size_t>(sid)].push_back(i);
        });
    }

    // Grows the existing regions into the spans of st (each pass assigns a span the region of
    // its neighbour nearest to that region's seed; updates apply after the pass). Assigned spans
    // leave the stack, keeping the order of the rest.
    template <bool Rec>
    void expand(int max_iter, uint16_t level, std::vector<uint32_t>& st, bool fill) {
        if (fill) {
            st.clear();
            for_each_span([&](uint32_t i) {
                if (dist[i] >= level && reg[i] == 0 && areas[i] != kNullArea) st.push_back(i);
            });
        } else {
            st.erase(std::remove_if(st.begin(), st.end(), [&](uint32_t i) { return reg[i] != 0; }), st.end());
        }
        int iter = 0;
        while (!st.empty()) {
            dirty.clear();
            size_t keep = 0;
            for (size_t j = 0, n = st.size(); j < n; ++j) {
                const uint32_t i = st[j];
                uint16_t r = 0;
                unsigned d2 = 0xffff;
                const uint32_t* nbs = &nb[static_cast<size_t>(i) * 4];
                for (int dir = 0; dir < 4; ++dir) {
                    const uint32_t ai = nbs[dir];
                    if (ai == kNoSpan) continue;
                    const uint16_t ar = reg[ai];
                    if (ar > 0 && (ar & kBorderRegion) == 0 && rdist[ai] + 2u < d2) {
                        r = ar;
                        d2 = rdist[ai] + 2u;
                    }
                }
                if (r)
                    dirty.push_back({i, r, static_cast<uint16_t>(d2)});
                else
                    st[keep++] = i;
            }
            st.resize(keep);
            for (const Dirty& d : dirty) {
                reg[d.i] = d.r;
                rdist[d.i] = d.d;
                if constexpr (Rec) step[d.i] = cur_step;
            }
            if (dirty.empty()) break;
            if (level > 0 && ++iter >= max_iter) break;
        }
    }

    // Floods region r from span i over spans at least level-2 deep; a span next to (or
    // diagonally next to) another region is left out. True when any span was taken.
    // (A span taken and then left out keeps a stale step under Rec; it is set again when the
    // span joins a region, and the caller clears the steps of spans that never do.)
    template <bool Rec>
    bool flood(uint32_t seed, uint16_t level, uint16_t r) {
        stack.clear();
        stack.push_back(seed);
        reg[seed] = r;
        rdist[seed] = 0;
        if constexpr (Rec) step[seed] = cur_step;
        const uint16_t lev = level >= 2 ? static_cast<uint16_t>(level - 2) : 0;
        int count = 0;
        while (!stack.empty()) {
            const uint32_t ci = stack.back();
            stack.pop_back();
            const uint32_t* nbs = &nb[static_cast<size_t>(ci) * 4];
            bool near_other = false;
            for (int dir = 0; dir < 4 && !near_other; ++dir) {
                const uint32_t ai = nbs[dir];
                if (ai == kNoSpan) continue;
                const uint16_t nr = reg[ai];
                if (nr & kBorderRegion) continue;
                if (nr != 0 && nr != r) {
                    near_other = true;
                    break;
                }
                const uint32_t ai2 = nb[static_cast<size_t>(ai) * 4 + ((dir + 1) & 3)];
                if (ai2 == kNoSpan) continue;
                const uint16_t nr2 = reg[ai2];
                if (nr2 != 0 && nr2 != r) near_other = true;
            }
            if (near_other) {
                reg[ci] = 0;
                continue;
            }
            ++count;
            for (int dir = 0; dir < 4; ++dir) {
                const uint32_t ai = nbs[dir];
                if (ai == kNoSpan) continue;
                if (dist[ai] >= lev && reg[ai] == 0) {
                    reg[ai] = r;
                    rdist[ai] = 0;
                    if constexpr (Rec) step[ai] = cur_step;
                    stack.push_back(ai);
                }
            }
        }
        return count > 0;
    }
};

// Replaces the run id in each span of a row (cells `row`, spans [row_begin, row_end) when
// `contiguous`) by its region id (row_map; ids >= rid are border regions and stay) and, when
// count is not null, adds the spans of each final id to count[id] (counted in runs).
inline void remap_row(const CompactCell* row, int border, int w, bool contiguous, uint32_t row_begin,
                      uint32_t row_end, int rid, const uint16_t* row_map, uint16_t* reg, int* count) {
    uint16_t cur = 0;
    int n = 0;
    const auto remap = [&](uint32_t i) {
        const uint16_t v = reg[i];
        const uint16_t nv = v < rid ? row_map[v] : v;
        reg[i] = nv;
        if (count) {
            if (nv != cur) {
                if (cur) count[cur] += n;
                cur = nv;
                n = 0;
            }
            ++n;
        }
    };
    if (contiguous) {
        for (uint32_t i = row_begin; i < row_end; ++i) remap(i);
    } else {
        for (int x = border; x < w - border; ++x) {
            const CompactCell c = row[x];
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) remap(i);
        }
    }
    if (count && cur) count[cur] += n;
}

// Sweeps rows into monotone runs: a run continues the region below it when that region is the
// run's only neighbour below and the run is that region's only continuation. next_id receives
// the next free id; hints (optional) receive the per-region facts for the region table.
Status sweep_rows(const char* who, const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                  int border, std::vector<uint16_t>& reg_v, uint16_t& next_id, TableHints* hints,
                  RegionTrace* trace, const CancelFlag* cancel) {
    struct Sweep {
        int ns = 0;                // spans of the run that see nei below
        uint16_t nei = 0;          // the region below, 0 none, 0xffff several
        int x = 0;                 // cell column of the run's first span
        uint32_t first = kNoSpan;  // the run's first span
    };
    constexpr uint16_t kSeveral = 0xffff;
    const int w = chf.width, h = chf.height;
    int id = paint_border(chf, areas, border, reg_v);
    if (hints)
        for (int k = 0; k < id; ++k) hints->add_id(kNoSpan, -1);
    if (trace) trace->seeds.assign(static_cast<size_t>(id), RegionTrace::Seed{});
    std::vector<Sweep> sweeps_v(static_cast<size_t>(std::max(w, h)) + 1);
    std::vector<int> prev_v(static_cast<size_t>(kMaxRegionIds) + 1, 0);
    std::vector<uint16_t> touched;
    std::vector<uint16_t> row_map_v(sweeps_v.size());
    const CompactCell* cells = chf.cells.data();
    const CompactSpan* spans = chf.spans.data();
    const uint8_t* ar = areas.data();
    uint16_t* reg = reg_v.data();
    int* prev = prev_v.data();
    Sweep* sweeps = sweeps_v.data();
    // Consecutive spans of one run that see the same region below are counted as a batch:
    // applying the batch at once gives the same sweep state as applying them one by one.
    int run_id = 0, run_nr = 0, run_n = 0;
    auto flush = [&] {
        if (run_n == 0) return;
        Sweep& sw = sweeps[run_id];
        if (!sw.nei || sw.nei == run_nr) {
            sw.nei = static_cast<uint16_t>(run_nr);
            sw.ns += run_n;
            if (prev[run_nr] == 0) touched.push_back(static_cast<uint16_t>(run_nr));
            prev[run_nr] += run_n;
        } else {
            sw.nei = kSeveral;
        }
        run_n = 0;
    };
    for (int z = border; z < h - border; ++z) {
        int rid = 1;
        const CompactCell* row = cells + static_cast<ptrdiff_t>(z) * w;
        uint32_t last_i = kNoSpan;  // the span written last, its id and area (saves a reload)
        int last_id = 0;
        uint8_t last_area = 0;
        // The row's spans are [row_begin, row_end) when the non-empty cells are contiguous.
        uint32_t row_begin = kNoSpan, row_end = 0;
        bool contiguous = true;
        for (int x = border; x < w - border; ++x) {
            const CompactCell c = row[x];
            if (c.count == 0) continue;
            if (row_begin == kNoSpan) row_begin = row_end = c.index;
            contiguous = contiguous && c.index == row_end;
            row_end = c.index + c.count;
            if (hints && c.count > 1) hints->multi.push_back(static_cast<uint32_t>(x + z * w));
            for (uint32_t i = c.index, e = c.index + c.count; i < e; ++i) {
                const uint8_t area = ar[i];
                if (area == kNullArea) continue;
                const uint32_t con = spans[i].con;
                int previd = 0;
                const uint32_t k0 = con & 0x3f;
                if (k0 != kNotConnected) {
                    const uint32_t ai = row[x - 1].index + k0;
                    int ra;
                    uint8_t aa;
                    if (ai == last_i) {
                        ra = last_id;
                        aa = last_area;
                    } else {
                        ra = reg[ai];
                        aa = ar[ai];
                    }
                    if ((ra & kBorderRegion) == 0 && aa == area) previd = ra;
                }
                if (!previd) {
                    previd = rid++;
                    if (static_cast<size_t>(previd) >= sweeps_v.size()) {
                        sweeps_v.resize(sweeps_v.size() * 2);
                        sweeps = sweeps_v.data();
                    }
                    sweeps[previd] = Sweep{0, 0, x, i};
                }
                const uint32_t k3 = (con >> 18) & 0x3f;
                if (k3 != kNotConnected) {
                    const uint32_t ai = row[x - w].index + k3;
                    const int nr = reg[ai];
                    if (nr && (nr & kBorderRegion) == 0 && ar[ai] == area) {
                        if (run_n && (run_id != previd || run_nr != nr)) flush();
                        run_id = previd;
                        run_nr = nr;
                        ++run_n;
                    }
                }
                reg[i] = static_cast<uint16_t>(previd);
                last_i = i;
                last_id = previd;
                last_area = area;
            }
        }
        flush();
        if (row_map_v.size() < static_cast<size_t>(rid)) row_map_v.resize(static_cast<size_t>(rid) * 2);
        uint16_t* row_map = row_map_v.data();  // run id -> region id, 0 -> 0
        row_map[0] = 0;
        for (int k = 1; k < rid; ++k) {
            const Sweep& sw = sweeps[k];
            if (sw.nei != kSeveral && sw.nei != 0 && prev[sw.nei] == sw.ns) {
                row_map[k] = sw.nei;
            } else {
                if (id >= kMaxRegionIds) return too_many_regions(who);
                // A new region starts here, so the run's first span is the region's first.
                if (hints) hints->add_id(sw.first, sw.x + z * w);
                if (trace) trace->seeds.push_back({sw.first, static_cast<uint32_t>(z - border)});
                row_map[k] = static_cast<uint16_t>(id++);
            }
        }
        for (uint16_t t : touched) prev[t] = 0;
        touched.clear();
        if (row_begin == kNoSpan) continue;
        // Every span of the row holds 0 or a run id; the final ids are counted in runs.
        remap_row(row, border, w, contiguous, row_begin, row_end, rid, row_map, reg,
                  hints ? hints->count.data() : nullptr);
        if (is_cancelled(cancel)) return Status::cancelled();
    }
    next_id = static_cast<uint16_t>(id);
    return Status::ok();
}

// Sums over a region's spans for the layer pass.
struct LayerAcc {
    int count = 0;
    uint16_t ymin = 0xffff, ymax = 0;
    uint8_t area = 0;    // of the last span, as Recast
    bool border = false; // next to a tile border region
    void add(const LayerAcc& o) {
        count += o.count;
        area = o.area;
        ymin = std::min(ymin, o.ymin);
        ymax = std::max(ymax, o.ymax);
        border = border || o.border;
    }
};

// A neighbour of region r has id rai != r: records it as a connection; true for a border id.
[[gnu::noinline]] bool note_layer_neighbour(Region& r, uint16_t rai, size_t nreg) {
    if (rai > 0 && rai < nreg) add_unique(r.connections, rai);
    return (rai & kBorderRegion) != 0;
}

// Recast's mergeAndFilterLayerRegions: merge neighbouring sweep regions of one area type into
// layers that never share a column, then drop layers smaller than min_area that do not touch a
// tile border, then compress ids.
void merge_layers(const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int min_area,
                  uint16_t max_id, std::vector<uint16_t>& reg_v, Regions& out, RegionTrace* trace) {
    const int w = chf.width, h = chf.height;
    const size_t nreg = static_cast<size_t>(max_id) + 1;
    std::vector<Region> regions(nreg);
    for (size_t i = 0; i < nreg; ++i) regions[i].id = static_cast<uint16_t>(i);
    std::vector<LayerAcc> acc_v(nreg);
    LayerAcc* acc = acc_v.data();
    const CompactCell* cells = chf.cells.data();
    const CompactSpan* spans = chf.spans.data();
    const uint8_t* ar = areas.data();
    const uint16_t* reg = reg_v.data();
    Region* table = regions.data();
    // Per-region sums are gathered over runs of spans with one id in locals and added to acc
    // when the id changes; a neighbour with another id goes through the out-of-line path.
    uint16_t run_id = 0;
    LayerAcc run;
    std::vector<uint16_t> lregs;
    for (int ci = 0, nc = w * h; ci < nc; ++ci) {
        const CompactCell c = cells[ci];
        if (c.count == 0) continue;
        const uint32_t e = c.index + c.count;
        for (uint32_t i = c.index; i < e; ++i) {
            const uint16_t ri = reg[i];
            if (ri == 0 || ri >= nreg) continue;
            const CompactSpan s = spans[i];
            if (ri != run_id) {
                if (run_id) acc[run_id].add(run);
                run = LayerAcc{};
                run_id = ri;
            }
            ++run.count;
            run.area = ar[i];
            run.ymin = std::min(run.ymin, s.y);
            run.ymax = std::max(run.ymax, s.y);
            const uint32_t con = s.con;
            uint32_t k = con & 0x3f;
            if (k != kNotConnected) {
                const uint16_t rai = reg[cells[ci - 1].index + k];
                if (rai != ri) run.border |= note_layer_neighbour(table[ri], rai, nreg);
            }
            k = (con >> 6) & 0x3f;
            if (k != kNotConnected) {
                const uint16_t rai = reg[cells[ci + w].index + k];
                if (rai != ri) run.border |= note_layer_neighbour(table[ri], rai, nreg);
            }
            k = (con >> 12) & 0x3f;
            if (k != kNotConnected) {
                const uint16_t rai = reg[cells[ci + 1].index + k];
                if (rai != ri) run.border |= note_layer_neighbour(table[ri], rai, nreg);
            }
            k = (con >> 18) & 0x3f;
            if (k != kNotConnected) {
                const uint16_t rai = reg[cells[ci - w].index + k];
                if (rai != ri) run.border |= note_layer_neighbour(table[ri], rai, nreg);
            }
        }
        if (c.count == 1) continue;
        lregs.clear();
        for (uint32_t i = c.index; i < e; ++i)
            if (reg[i] != 0 && reg[i] < nreg) lregs.push_back(reg[i]);
        for (size_t a = 0; a + 1 < lregs.size(); ++a)
            for (size_t b = a + 1; b < lregs.size(); ++b)
                if (lregs[a] != lregs[b]) {
                    add_unique(table[lregs[a]].floors, lregs[b]);
                    add_unique(table[lregs[b]].floors, lregs[a]);
                }
    }
    if (run_id) acc[run_id].add(run);
    for (size_t r = 0; r < nreg; ++r) {
        Region& R = table[r];
        R.span_count = acc[r].count;
        R.area = acc[r].area;
        R.ymin = acc[r].ymin;
        R.ymax = acc[r].ymax;
        R.connects_to_border = acc[r].border;
    }

    for (Region& r : regions) r.id = 0;
    uint16_t layer_id = 1;
    std::vector<uint16_t> queue;
    for (size_t i = 1; i < nreg; ++i) {
        Region& root = regions[i];
        if (root.id != 0) continue;
        root.id = layer_id;
        queue.clear();
        queue.push_back(static_cast<uint16_t>(i));
        for (size_t head = 0; head < queue.size(); ++head) {  // breadth first, as Recast
            const Region& r = regions[queue[head]];
            for (uint16_t nei : r.connections) {
                Region& n = regions[nei];
                if (n.id != 0 || n.area != r.area || contains(root.floors, nei)) continue;
                queue.push_back(nei);
                n.id = layer_id;
                for (uint16_t f : n.floors) add_unique(root.floors, f);
                root.ymin = std::min(root.ymin, n.ymin);
                root.ymax = std::max(root.ymax, n.ymax);
                root.span_count += n.span_count;
                n.span_count = 0;
                root.connects_to_border = root.connects_to_border || n.connects_to_border;
            }
        }
        ++layer_id;
    }

    // Only a layer's root keeps a span count, so a small root condemns its whole layer.
    std::vector<char> removed(static_cast<size_t>(layer_id) + 1, 0);
    for (const Region& r : regions)
        if (r.span_count > 0 && r.span_count < min_area && !r.connects_to_border) removed[r.id] = 1;
    if (trace) {
        trace->removed.assign(max_id, 0);
        for (size_t v = 1; v < max_id; ++v) trace->removed[v] = removed[regions[v].id];
    }
    for (Region& r : regions)
        if (removed[r.id]) r.id = 0;
    compress_ids(regions, reg_v, out);
    if (trace) record_final_ids(regions, max_id, *trace);
}

// Clears out for a new result, keeping the id buffer's capacity; returns that buffer.
std::vector<uint16_t>& reset(Regions& out, uint32_t span_count) {
    out.max_region_id = 0;
    out.region_count = 0;
    out.reg.assign(span_count, 0);
    return out.reg;
}

}  // namespace

Status build_regions_watershed(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                               const DistanceField& df, int border_size, int min_region_area,
                               int merge_region_area, Regions& out, const CancelFlag* cancel, RegionTrace* trace,
                               RegionScratch* scratch) {
    constexpr const char* who = "regions (watershed)";
    if (Status s = check_inputs(who, chf, areas, border_size); !s) return s;
    if (df.dist.size() != chf.span_count) return Status::bad_input("regions (watershed): distance field does not match span_count");
    std::vector<uint16_t>& reg = reset(out, chf.span_count);
    RegionScratch local;
    RegionScratch& sc = scratch ? *scratch : local;
    // nb: build_links writes the four entries of every span a cell holds, the only spans read.
    Watershed ws{chf, areas.data(), df.dist.data(), reg.data(), sc.nb, sc.rdist, sc.stacks, sc.stack, sc.dirty, true};
    ws.rdist.assign(chf.span_count, 0);
    ws.build_links();
    for (auto& s : ws.stacks) s.reserve(256);

    uint16_t region_id = paint_border(chf, areas, border_size, reg);
    if (trace) {
        trace->clear();
        trace->kind = RegionTrace::Kind::Watershed;
        trace->span_step.assign(chf.span_count, RegionTrace::kNotReached);
        trace->seeds.assign(region_id, RegionTrace::Seed{});
        ws.step = trace->span_step.data();
    }
    // The recording variants differ only in writing each assigned span's step.
    const auto expand = [&](int iters, uint16_t lev, std::vector<uint32_t>& st, bool fill) {
        if (trace)
            ws.expand<true>(iters, lev, st, fill);
        else
            ws.expand<false>(iters, lev, st, fill);
    };
    const auto flood = [&](uint32_t seed, uint16_t lev, uint16_t r) {
        return trace ? ws.flood<true>(seed, lev, r) : ws.flood<false>(seed, lev, r);
    };
    uint16_t level = static_cast<uint16_t>((df.max_dist + 1) & ~1);
    constexpr int kExpandIters = 8;
    int sid = -1;
    while (level > 0) {
        level = level >= 2 ? static_cast<uint16_t>(level - 2) : 0;
        if (trace) {
            ws.cur_step = static_cast<uint32_t>(trace->step_value.size());
            trace->step_value.push_back(level);
        }
        sid = (sid + 1) & 7;
        auto& st = ws.stacks[static_cast<size_t>(sid)];
        if (sid == 0) {
            ws.sort_by_level(level);
        } else {
            // Carry over the previous level's spans that are still unassigned.
            for (uint32_t i : ws.stacks[static_cast<size_t>(sid - 1)])
                if (reg[i] == 0) st.push_back(i);
        }
        expand(kExpandIters, level, st, false);
        for (uint32_t i : st) {
            if (reg[i] != 0) continue;
            if (flood(i, level, region_id)) {
                if (region_id + 1 >= kMaxRegionIds) return too_many_regions(who);
                if (trace) trace->seeds.push_back({i, ws.cur_step});
                ++region_id;
            }
        }
        if (is_cancelled(cancel)) return Status::cancelled();
    }
    if (trace) {
        ws.cur_step = static_cast<uint32_t>(trace->step_value.size());
        trace->step_value.push_back(0);
    }
    expand(kExpandIters * 8, 0, ws.stack, true);
    if (is_cancelled(cancel)) return Status::cancelled();

    if (trace) {
        // Spans left out of every region drop their stale steps; border strips count as step 0.
        for (uint32_t i = 0; i < chf.span_count; ++i) {
            if (reg[i] == 0) trace->span_step[i] = RegionTrace::kNotReached;
            else if (reg[i] & kBorderRegion) trace->span_step[i] = 0;
        }
        trace->pre_reg = reg;
    }
    if (Status s = merge_and_filter(chf, areas, min_region_area, merge_region_area, region_id, reg, nullptr, out,
                                    cancel, trace);
        !s)
        return s;
    return Status::ok();
}

Status build_regions_monotone(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                              int border_size, int min_region_area, int merge_region_area, Regions& out,
                              const CancelFlag* cancel, RegionTrace* trace) {
    constexpr const char* who = "regions (monotone)";
    if (Status s = check_inputs(who, chf, areas, border_size); !s) return s;
    std::vector<uint16_t>& reg = reset(out, chf.span_count);
    uint16_t next_id = 0;
    TableHints hints;
    if (trace) {
        trace->clear();
        trace->kind = RegionTrace::Kind::Monotone;
    }
    if (Status s = sweep_rows(who, chf, areas, border_size, reg, next_id, &hints, trace, cancel); !s) return s;
    if (trace) record_sweep_steps(chf, reg, border_size, *trace);
    if (Status s = merge_and_filter(chf, areas, min_region_area, merge_region_area, next_id, reg, &hints, out,
                                    cancel, trace);
        !s)
        return s;
    return Status::ok();
}

Status build_regions_layers(const CompactHeightfield& chf, const std::vector<uint8_t>& areas,
                            int border_size, int min_region_area, Regions& out, const CancelFlag* cancel,
                            RegionTrace* trace) {
    constexpr const char* who = "regions (layers)";
    if (Status s = check_inputs(who, chf, areas, border_size); !s) return s;
    std::vector<uint16_t>& reg = reset(out, chf.span_count);
    uint16_t next_id = 0;
    if (trace) {
        trace->clear();
        trace->kind = RegionTrace::Kind::Layers;
    }
    if (Status s = sweep_rows(who, chf, areas, border_size, reg, next_id, nullptr, trace, cancel); !s) return s;
    if (trace) record_sweep_steps(chf, reg, border_size, *trace);
    merge_layers(chf, areas, min_region_area, next_id, reg, out, trace);
    if (is_cancelled(cancel)) return Status::cancelled();
    return Status::ok();
}

}  // namespace nav
