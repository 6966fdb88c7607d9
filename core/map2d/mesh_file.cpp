// Polyanya's .mesh format, version 2: see mesh_file.h.
#include "core/map2d/mesh_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "core/io/file.h"

namespace nav::map2d {

Status link_polygons(PolyMesh2D& m) {
    const uint32_t np = m.npolys();
    m.poly_nei.assign(m.poly_verts.size(), kNoPoly2);
    std::unordered_map<uint64_t, uint32_t> owner;  // directed edge -> slot
    owner.reserve(m.poly_verts.size());
    for (uint32_t p = 0; p < np; ++p) {
        const uint32_t f = m.poly_first[p], n = m.poly_first[p + 1] - f;
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t a = m.poly_verts[f + i], b = m.poly_verts[f + (i + 1) % n];
            if (!owner.emplace((a << 32) | b, f + i).second)
                return Status::bad_input("mesh: edge " + std::to_string(a) + "->" + std::to_string(b) +
                                         " is used twice in the same direction (polygon " +
                                         std::to_string(p) + ")");
        }
    }
    std::vector<uint32_t> slot_poly(m.poly_verts.size());
    for (uint32_t p = 0; p < np; ++p)
        for (uint32_t s = m.poly_first[p]; s < m.poly_first[p + 1]; ++s) slot_poly[s] = p;
    for (const auto& [key, slot] : owner) {
        const uint64_t rev = (key << 32) | (key >> 32);
        auto it = owner.find(rev);
        if (it != owner.end()) m.poly_nei[slot] = slot_poly[it->second];
    }
    return Status::ok();
}

namespace {

// A token or line as it can be shown in a message: control bytes (a NUL, a CR) escaped, long text cut.
std::string printable(const std::string& t) {
    std::string s;
    for (unsigned char c : t) {
        if (s.size() > 60) {
            s += "...";
            break;
        }
        if (c == 0) s += "\\0";
        else if (c == '\r') s += "\\r";
        else if (c < 32 || c == 127) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            s += buf;
        } else s += char(c);
    }
    return s;
}

std::string printable_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

struct LineReader {
    const std::string& text;
    const std::string& name;
    size_t pos = 0;
    int line = 0;
    std::vector<std::string> tok;
    std::string raw;  // the current line as read

    // Next non-blank line split into tokens; false at the end of the text. A line ends at LF, CR LF
    // or a lone CR (files saved with old Mac line ends are read line by line, not as one line).
    bool next() {
        while (pos < text.size()) {
            size_t e = text.find_first_of("\r\n", pos);
            if (e == std::string::npos) e = text.size();
            raw = text.substr(pos, e - pos);
            pos = e + (e + 1 < text.size() && text[e] == '\r' && text[e + 1] == '\n' ? 2 : 1);
            ++line;
            tok.clear();
            // tokens are separated by blanks; any other byte (a NUL included) belongs to its token
            // and makes it malformed, never silently ends it
            size_t i = 0;
            while (i < raw.size()) {
                while (i < raw.size() && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\v' || raw[i] == '\f')) ++i;
                size_t j = i;
                while (j < raw.size() && !(raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\v' || raw[j] == '\f')) ++j;
                if (j > i) tok.push_back(raw.substr(i, j - i));
                i = j;
            }
            if (!tok.empty()) return true;
        }
        return false;
    }
    Status err(const std::string& what) const {
        return Status::bad_input(name + ":" + std::to_string(line) + ": " + what);
    }
};

// The whole token must be the number: "10\0junk" or "10x" is not 10.
bool to_long(const std::string& s, long long& v) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    v = std::strtoll(s.c_str(), &end, 10);
    return errno == 0 && end == s.c_str() + s.size();
}

bool to_double(const std::string& s, double& v) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    v = std::strtod(s.c_str(), &end);
    // within the mesh coordinate bound: the navmesh converts these to float
    return errno == 0 && end == s.c_str() + s.size() && std::fabs(v) <= kMaxCoordinate;
}

// Polygon p (slots [f, f+n)) must be a convex polygon wound counter-clockwise: its vertices
// distinct (by index and by position), every turn to the left or straight on (a vertex in the
// middle of a straight edge is allowed), no edge folding back on the one before, and its edges
// going around exactly once (winding number 1; a pentagram turns left at every corner but goes
// around twice, its edges crossing).
Status check_convex_polygon(const PolyMesh2D& m, size_t f, size_t n, long long p, const LineReader& r) {
    const std::string what = "polygon " + std::to_string(p);
    const double* X = m.xz.data();
    std::vector<size_t> order(n);  // sorted by position, then index: repeats end up next to each other
    for (size_t i = 0; i < n; ++i) order[i] = i;
    auto key = [&](size_t i) {
        const uint32_t v = m.poly_verts[f + i];
        return std::tuple(X[2 * v], X[2 * v + 1], v);
    };
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    for (size_t k = 1; k < n; ++k) {
        const size_t i = std::min(order[k - 1], order[k]), j = std::max(order[k - 1], order[k]);
        const uint32_t a = m.poly_verts[f + i], b = m.poly_verts[f + j];
        if (a == b)
            return r.err(what + ": vertex " + std::to_string(a) + " appears twice (positions " + std::to_string(i + 1) +
                         " and " + std::to_string(j + 1) + " of its vertex list)");
        if (X[2 * a] == X[2 * b] && X[2 * a + 1] == X[2 * b + 1])
            return r.err(what + ": vertices " + std::to_string(a) + " and " + std::to_string(b) + " are at the same position (" +
                         printable_number(X[2 * a]) + ", " + printable_number(X[2 * a + 1]) + ")");
    }
    double area = 0, turning = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t u = m.poly_verts[f + i], w = m.poly_verts[f + (i + 1) % n];
        area += X[2 * u] * X[2 * w + 1] - X[2 * w] * X[2 * u + 1];
    }
    if (!(area > 0)) return r.err(what + " is not counter-clockwise (or has zero area)");
    for (size_t i = 0; i < n; ++i) {
        const uint32_t u = m.poly_verts[f + i], w = m.poly_verts[f + (i + 1) % n], x = m.poly_verts[f + (i + 2) % n];
        const double ex = X[2 * w] - X[2 * u], ez = X[2 * w + 1] - X[2 * u + 1];
        const double fx = X[2 * x] - X[2 * w], fz = X[2 * x + 1] - X[2 * w + 1];
        const double cross = ex * fz - ez * fx, dot = ex * fx + ez * fz;
        if (cross < 0)
            return r.err(what + " is not convex: it turns right at vertex " + std::to_string(w) +
                         " (vertices must be counter-clockwise, every turn to the left)");
        if (cross == 0 && dot < 0) return r.err(what + " is not convex: its boundary folds back at vertex " + std::to_string(w));
        turning += std::atan2(cross, dot);
    }
    // a closed polygon turns a whole multiple of 2 pi; every turn is left, so 4 pi or more means
    // its edges go around twice or more and cross each other
    constexpr double kPi = 3.14159265358979323846;
    if (turning > 3 * kPi)
        return r.err(what + " is not convex: its edges cross (they wind around " +
                     std::to_string(int(std::lround(turning / (2 * kPi)))) + " times, a convex polygon once)");
    return Status::ok();
}

}  // namespace

Status parse_polyanya_mesh(const std::string& text, const std::string& name, PolyMesh2D& out) {
    out = PolyMesh2D{};
    LineReader r{text, name, 0, 0, {}, {}};
    if (!r.next()) return r.err("empty file, expected the header 'mesh'");
    if (r.tok.size() != 1 || r.tok[0] != "mesh")
        return r.err("expected the header line 'mesh' alone, got '" + printable(r.raw) + "'");
    long long version = 0;
    if (!r.next()) return r.err("missing the version line (expected 2)");
    if (r.tok.size() != 1 || !to_long(r.tok[0], version))
        return r.err("expected the version line '2' alone, got '" + printable(r.raw) + "'");
    if (version != 2) return r.err("unsupported version " + std::to_string(version) + ", expected 2");
    long long V = 0, P = 0;
    if (!r.next()) return r.err("missing the counts line 'V P'");
    if (r.tok.size() != 2 || !to_long(r.tok[0], V) || !to_long(r.tok[1], P) || V < 3 || P < 1 ||
        V > (1ll << 28) || P > (1ll << 28))
        return r.err("expected 'V P' with V >= 3 vertices and P >= 1 polygons, got '" + printable(r.raw) + "'");
    // Nothing is allocated for the counts themselves: they are bounded by what the rest of the text
    // can hold (a vertex line is at least "x y n" and a line end, 6 bytes), so a header such as
    // "268435456 1" over an empty file allocates nothing and fails at the first missing line.
    const size_t rest = text.size() - std::min(text.size(), r.pos);
    out.xz.reserve(2 * std::min(size_t(V), rest / 6 + 1));
    for (long long v = 0; v < V; ++v) {
        if (!r.next()) return r.err("file ends after " + std::to_string(v) + " of " + std::to_string(V) + " vertex lines");
        long long n = 0;
        double x = 0, y = 0;
        if (r.tok.size() < 3 || !to_double(r.tok[0], x) || !to_double(r.tok[1], y) || !to_long(r.tok[2], n) || n < 0 ||
            n > 1 << 20 || r.tok.size() != size_t(3 + n))
            return r.err("vertex " + std::to_string(v) + ": expected 'x y n' and n polygon indices, |x|, |y| <= 1e6, got '" +
                         printable(r.raw) + "'");
        out.xz.push_back(x);
        out.xz.push_back(y);
        for (long long k = 0; k < n; ++k) {
            long long p = 0;
            if (!to_long(r.tok[3 + k], p) || p < -1 || p >= P)
                return r.err("vertex " + std::to_string(v) + ": polygon index '" + printable(r.tok[3 + k]) +
                             "' is not -1 or in [0, " + std::to_string(P) + ")");
        }
    }
    out.poly_first.push_back(0);
    std::vector<uint32_t> file_nei;
    std::vector<int> poly_line;
    for (long long p = 0; p < P; ++p) {
        if (!r.next()) return r.err("file ends after " + std::to_string(p) + " of " + std::to_string(P) + " polygon lines");
        long long n = 0;
        if (r.tok.empty() || !to_long(r.tok[0], n) || n < 3 || n > 1 << 20 || r.tok.size() != size_t(1 + 2 * n))
            return r.err("polygon " + std::to_string(p) + ": expected 'n', n >= 3 vertex indices and n polygon indices, got '" +
                         printable(r.raw) + "'");
        poly_line.push_back(r.line);
        const size_t f = out.poly_verts.size();
        for (long long k = 0; k < n; ++k) {
            long long v = 0;
            if (!to_long(r.tok[1 + k], v) || v < 0 || v >= V)
                return r.err("polygon " + std::to_string(p) + ": vertex index '" + printable(r.tok[1 + k]) +
                             "' is not in [0, " + std::to_string(V) + ")");
            out.poly_verts.push_back(uint32_t(v));
        }
        for (long long k = 0; k < n; ++k) {
            long long q = 0;
            if (!to_long(r.tok[1 + n + k], q) || q < -1 || q >= P)
                return r.err("polygon " + std::to_string(p) + ": neighbour '" + printable(r.tok[1 + n + k]) +
                             "' is not -1 or in [0, " + std::to_string(P) + ")");
            file_nei.push_back(q < 0 ? kNoPoly2 : uint32_t(q));
        }
        // version 2: p_i is across v_(i-1) -> v_i; ours is across v_i -> v_(i+1)
        std::rotate(file_nei.begin() + long(f), file_nei.begin() + long(f) + 1, file_nei.end());
        out.poly_first.push_back(uint32_t(out.poly_verts.size()));
        Status st = check_convex_polygon(out, f, size_t(n), p, r);
        if (!st) return st;
    }
    if (r.next()) return r.err("unexpected content after the " + std::to_string(P) + " polygon lines");
    Status st = link_polygons(out);
    if (!st) return Status::bad_input(name + ": " + st.message);
    for (uint32_t p = 0; p < out.npolys(); ++p)
        for (uint32_t s = out.poly_first[p]; s < out.poly_first[p + 1]; ++s)
            if (file_nei[s] != out.poly_nei[s]) {
                const uint32_t n = out.poly_first[p + 1] - out.poly_first[p];
                const uint32_t k = (s - out.poly_first[p] + 1) % n;
                return Status::bad_input(name + ":" + std::to_string(poly_line[p]) + ": polygon " +
                                         std::to_string(p) + ": neighbour p_" + std::to_string(k + 1) + " is " +
                                         (file_nei[s] == kNoPoly2 ? std::string("-1") : std::to_string(file_nei[s])) +
                                         " but the polygon sharing that edge is " +
                                         (out.poly_nei[s] == kNoPoly2 ? std::string("none") : std::to_string(out.poly_nei[s])));
            }
    return Status::ok();
}

Status read_polyanya_mesh(const std::string& path, PolyMesh2D& out, uint64_t max_bytes) {
    std::string text;
    if (Status st = read_input_file(path, "Polyanya .mesh file", max_bytes, text); !st) return st;
    return parse_polyanya_mesh(text, path, out);
}

std::string format_polyanya_mesh(const PolyMesh2D& m) {
    const uint32_t nv = m.nverts(), np = m.npolys();
    // polygons around each vertex, by the direction of their edge leaving the vertex
    struct Around {
        uint32_t v;
        double ang;
        uint32_t poly, in_slot;  // in_slot: the slot of the edge arriving at v
    };
    std::vector<Around> around;
    around.reserve(m.poly_verts.size());
    for (uint32_t p = 0; p < np; ++p) {
        const uint32_t f = m.poly_first[p], n = m.poly_first[p + 1] - f;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t v = m.poly_verts[f + i], w = m.poly_verts[f + (i + 1) % n];
            around.push_back({v, std::atan2(m.xz[2 * w + 1] - m.xz[2 * v + 1], m.xz[2 * w] - m.xz[2 * v]), p,
                              f + (i + n - 1) % n});
        }
    }
    std::sort(around.begin(), around.end(),
              [](const Around& a, const Around& b) { return a.v != b.v ? a.v < b.v : a.ang < b.ang; });
    std::string s = "mesh\n2\n" + std::to_string(nv) + " " + std::to_string(np) + "\n";
    char buf[64];
    size_t k = 0;
    std::vector<long long> fan;
    for (uint32_t v = 0; v < nv; ++v) {
        size_t e = k;
        while (e < around.size() && around[e].v == v) ++e;
        fan.clear();
        for (size_t i = k; i < e; ++i) {
            fan.push_back(around[i].poly);
            const Around& nxt = around[i + 1 < e ? i + 1 : k];
            if (m.poly_nei[around[i].in_slot] != nxt.poly || e - k == 1) fan.push_back(-1);
        }
        std::snprintf(buf, sizeof buf, "%.17g %.17g", m.xz[2 * v], m.xz[2 * v + 1]);
        s += buf;
        s += " " + std::to_string(fan.size());
        for (long long q : fan) s += " " + std::to_string(q);
        s += "\n";
        k = e;
    }
    for (uint32_t p = 0; p < np; ++p) {
        const uint32_t f = m.poly_first[p], n = m.poly_first[p + 1] - f;
        s += std::to_string(n);
        for (uint32_t i = 0; i < n; ++i) s += " " + std::to_string(m.poly_verts[f + i]);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t q = m.poly_nei[f + (i + n - 1) % n];
            s += " " + (q == kNoPoly2 ? std::string("-1") : std::to_string(q));
        }
        s += "\n";
    }
    return s;
}

Status write_polyanya_mesh(const std::string& path, const PolyMesh2D& m) {
    return write_output_file(path, format_polyanya_mesh(m));  // temporary file, checked, renamed
}

}  // namespace nav::map2d
