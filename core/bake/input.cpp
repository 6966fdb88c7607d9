#include "core/bake/input.h"

#include "core/io/file.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>
#include <algorithm>

namespace nav {

void InputMesh::compute_bounds() {
    for (int k = 0; k < 3; ++k) {
        bmin[k] = std::numeric_limits<float>::max();
        bmax[k] = -std::numeric_limits<float>::max();
    }
    auto grow = [&](size_t v) {
        for (int k = 0; k < 3; ++k) {
            bmin[k] = std::min(bmin[k], verts[v * 3 + static_cast<size_t>(k)]);
            bmax[k] = std::max(bmax[k], verts[v * 3 + static_cast<size_t>(k)]);
        }
    };
    const size_t nv = verts.size() / 3;
    bool any = false;
    for (int t : tris)
        if (t >= 0 && static_cast<size_t>(t) < nv) {
            grow(static_cast<size_t>(t));
            any = true;
        }
    if (!any && tris.empty())
        for (size_t v = 0; v < nv; ++v, any = true) grow(v);
    if (!any)
        for (int k = 0; k < 3; ++k) bmin[k] = bmax[k] = 0;
}

const std::string* InputMesh::tri_mesh_name(int t, int* index_in_mesh) const {
    if (t < 0 || static_cast<size_t>(t) >= tri_mesh.size() || tri_mesh[static_cast<size_t>(t)] >= mesh_names.size())
        return nullptr;
    const uint32_t m = tri_mesh[static_cast<size_t>(t)];
    if (index_in_mesh) *index_in_mesh = static_cast<int>(std::count(tri_mesh.begin(), tri_mesh.begin() + t, m));
    return &mesh_names[m];
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// One line being read: the text between line ends, a cursor, and where it is for messages.
struct Line {
    std::string_view s;
    size_t pos = 0;
    void skip_space() {
        while (pos < s.size() && is_space(s[pos])) ++pos;
    }
    bool at_end() {  // end of the line or a comment
        skip_space();
        return pos >= s.size() || s[pos] == '#';
    }
    std::string_view token() {
        skip_space();
        const size_t b = pos;
        while (pos < s.size() && !is_space(s[pos]) && s[pos] != '#') ++pos;
        return s.substr(b, pos - b);
    }
};

// A decimal number: [+-] digits [. digits] [e [+-] digits] (or .digits). Nothing else: no hex,
// no inf / nan, no trailing characters. False when the token is not one; `v` is the value (may
// be out of double's range, then infinite).
bool parse_decimal(std::string_view t, double& v) {
    size_t i = 0;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    size_t digits = 0;
    while (i < t.size() && is_digit(t[i])) ++i, ++digits;
    if (i < t.size() && t[i] == '.') {
        ++i;
        while (i < t.size() && is_digit(t[i])) ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        size_t ed = 0;
        while (i < t.size() && is_digit(t[i])) ++i, ++ed;
        if (ed == 0) return false;
    }
    if (i != t.size()) return false;
    // The grammar is checked; strtod reads exactly this text (a short copy, NUL-terminated).
    char buf[128];
    if (t.size() >= sizeof buf) {
        std::string copy(t);
        v = std::strtod(copy.c_str(), nullptr);
    } else {
        std::memcpy(buf, t.data(), t.size());
        buf[t.size()] = '\0';
        v = std::strtod(buf, nullptr);
    }
    return true;
}

// [+-] digits, as a 64-bit value saturated at +-2^62 (so "huge" is reported, never overflowed).
bool parse_integer(std::string_view t, int64_t& v) {
    size_t i = 0;
    bool neg = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
    if (i >= t.size()) return false;
    int64_t x = 0;
    constexpr int64_t kCap = int64_t(1) << 62;
    for (; i < t.size(); ++i) {
        if (!is_digit(t[i])) return false;
        x = x < kCap / 10 ? x * 10 + (t[i] - '0') : kCap;
    }
    v = neg ? -std::min(x, kCap) : std::min(x, kCap);
    return true;
}

// Triangulates one face (local indices into `poly`) into `out` (3 local indices per triangle).
// Quads split along the shorter diagonal (as tinyobjloader, which this reader replaced, did);
// larger polygons are ear-clipped in the plane of their largest normal component, and a fan
// finishes what clipping cannot (a self-intersecting face).
void triangulate_face(const std::vector<float>& verts, const std::vector<int>& poly, std::vector<int>& out) {
    const int n = static_cast<int>(poly.size());
    auto P = [&](int i) { return &verts[static_cast<size_t>(poly[static_cast<size_t>(i)]) * 3]; };
    out.clear();
    if (n == 3) {
        out = {0, 1, 2};
        return;
    }
    if (n == 4) {
        double d02 = 0, d13 = 0;
        for (int k = 0; k < 3; ++k) {
            const double a = double(P(2)[k]) - P(0)[k], b = double(P(3)[k]) - P(1)[k];
            d02 += a * a;
            d13 += b * b;
        }
        if (d02 < d13) out = {0, 1, 2, 0, 2, 3};
        else out = {0, 1, 3, 1, 2, 3};
        return;
    }
    // Newell normal: its largest component picks the projection plane.
    double nrm[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
        const float* a = P(i);
        const float* b = P((i + 1) % n);
        nrm[0] += (double(a[1]) - b[1]) * (double(a[2]) + b[2]);
        nrm[1] += (double(a[2]) - b[2]) * (double(a[0]) + b[0]);
        nrm[2] += (double(a[0]) - b[0]) * (double(a[1]) + b[1]);
    }
    int ax = 0;
    for (int k = 1; k < 3; ++k)
        if (std::fabs(nrm[k]) > std::fabs(nrm[ax])) ax = k;
    const int u = (ax + 1) % 3, w = (ax + 2) % 3;
    const double sign = nrm[ax] >= 0 ? 1.0 : -1.0;
    auto cross = [&](int a, int b, int c) {
        const float *pa = P(a), *pb = P(b), *pc = P(c);
        return sign * ((double(pb[u]) - pa[u]) * (double(pc[w]) - pa[w]) - (double(pb[w]) - pa[w]) * (double(pc[u]) - pa[u]));
    };
    std::vector<int> ring(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) ring[static_cast<size_t>(i)] = i;
    size_t at = 0, misses = 0;
    while (ring.size() > 3 && misses < ring.size()) {
        const size_t m = ring.size();
        const int a = ring[(at + m - 1) % m], b = ring[at], c = ring[(at + 1) % m];
        bool ear = cross(a, b, c) > 0;
        for (size_t j = 0; ear && j < m; ++j) {
            const int q = ring[j];
            if (q == a || q == b || q == c) continue;
            if (cross(a, b, q) >= 0 && cross(b, c, q) >= 0 && cross(c, a, q) >= 0) ear = false;
        }
        if (ear) {
            out.insert(out.end(), {a, b, c});
            ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(at));
            if (at >= ring.size()) at = 0;
            misses = 0;
        } else {
            at = (at + 1) % m;
            ++misses;
        }
    }
    for (size_t i = 1; i + 1 < ring.size(); ++i) out.insert(out.end(), {ring[0], ring[i], ring[i + 1]});
}

std::string fmt_coord(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string at_line(const std::string& path, long line_no) { return path + ":" + std::to_string(line_no) + ": "; }

// The x y z of a 'v' line (vertex number nv) after its key, and any numbers after them (w or a
// vertex colour, ignored).
Status parse_obj_vertex(Line& ln, long nv, const std::string& path, long line_no, float* xyz) {
    auto at = [&](long l) { return at_line(path, l); };
    for (int k = 0; k < 3; ++k) {
        const std::string_view t = ln.at_end() ? std::string_view() : ln.token();
        double x = 0;
        if (t.empty())
            return Status::bad_input(at(line_no) + "vertex " + std::to_string(nv) +
                                     " needs 3 numeric coordinates x y z");
        if (!parse_decimal(t, x)) {
            std::string low(t.substr(t[0] == '-' || t[0] == '+' ? 1 : 0, 40));
            for (char& ch : low) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            const bool non_finite = low.rfind("nan", 0) == 0 || low.rfind("inf", 0) == 0;
            return Status::bad_input(at(line_no) + "vertex " + std::to_string(nv) +
                                     (non_finite ? " has a coordinate that is not a finite number ('"
                                                 : " coordinate is not a decimal number ('") +
                                     std::string(t.substr(0, 40)) +
                                     "'; expected 3 numeric coordinates x y z, decimal: hex, nan and inf "
                                     "are not read)");
        }
        if (!std::isfinite(x))
            return Status::bad_input(at(line_no) + "vertex " + std::to_string(nv) +
                                     " has a coordinate that is not a finite number");
        if (std::fabs(x) > kMaxCoordinate)
            return Status::bad_input(at(line_no) + "vertex " + std::to_string(nv) + " coordinate " +
                                     fmt_coord(x) + " is beyond +-" + fmt_coord(kMaxCoordinate) +
                                     " m, the largest the bake handles (is the mesh in millimetres, or "
                                     "placed far from the origin?)");
        xyz[k] = static_cast<float>(x);
    }
    // Optional w or vertex colour: numbers, ignored.
    while (!ln.at_end()) {
        const std::string_view t = ln.token();
        double x = 0;
        if (!parse_decimal(t, x))
            return Status::bad_input(at(line_no) + "vertex " + std::to_string(nv) + ": unexpected '" +
                                     std::string(t.substr(0, 40)) + "' after x y z (expected numbers)");
    }
    return Status::ok();
}

// The vertex indices of an 'f' line after its key, 0-based into `face` (nv vertices defined so
// far; negative indices are relative to them), and the largest 1-based index in face_max.
Status parse_obj_face(Line& ln, int64_t nv, const std::string& path, long line_no, std::vector<int>& face,
                      int64_t& face_max) {
    auto at = [&](long l) { return at_line(path, l); };
    face.clear();
    while (!ln.at_end()) {
        const std::string_view t = ln.token();
        const size_t slash = t.find('/');
        int64_t idx = 0;
        bool ok = parse_integer(t.substr(0, slash), idx) && idx != 0;
        if (ok && slash != std::string_view::npos) {  // /vt, //vn or /vt/vn: integers or empty
            std::string_view rest = t.substr(slash + 1);
            const size_t s2 = rest.find('/');
            int64_t ignored = 0;
            const std::string_view vt = rest.substr(0, s2);
            if (!vt.empty() && !parse_integer(vt, ignored)) ok = false;
            if (s2 != std::string_view::npos) {
                const std::string_view vn = rest.substr(s2 + 1);
                if (vn.empty() || !parse_integer(vn, ignored)) ok = false;
            }
        }
        if (!ok)
            return Status::bad_input(at(line_no) + "face has an invalid vertex index '" +
                                     std::string(t.substr(0, 40)) +
                                     "' (expected a non-zero integer, 1-based or negative relative, "
                                     "optionally followed by /vt/vn)");
        if (idx < 0) {
            if (-idx > nv)
                return Status::bad_input(at(line_no) + "face index " + std::string(t.substr(0, slash).substr(0, 40)) +
                                         " is out of range (only " + std::to_string(nv) +
                                         " vertices defined before this line)");
            idx = nv + idx + 1;
        }
        if (idx > std::numeric_limits<int>::max())
            return Status::bad_input(at(line_no) + "face index " + std::string(t.substr(0, slash).substr(0, 40)) +
                                     " is out of range (at most " +
                                     std::to_string(std::numeric_limits<int>::max()) + ")");
        face_max = std::max(face_max, idx);
        if (static_cast<int>(face.size()) >= kMaxFaceVerts)
            return Status::bad_input(at(line_no) + "face has more than " + std::to_string(kMaxFaceVerts) +
                                     " vertices; split it");
        face.push_back(static_cast<int>(idx - 1));
    }
    return Status::ok();
}

// Vertices no face uses are left out of the bounds; the ones outside them are named (a warning).
void warn_far_unused_vertices(InputMesh& m, const std::vector<long>& vert_line, const std::string& path) {
    std::vector<uint8_t> used(vert_line.size(), 0);
    for (int t : m.tris) used[static_cast<size_t>(t)] = 1;
    size_t far = 0, first = 0;
    for (size_t v = 0; v < used.size(); ++v) {
        if (used[v]) continue;
        bool outside = false;
        for (int k = 0; k < 3; ++k) {
            const float x = m.verts[v * 3 + static_cast<size_t>(k)];
            outside |= x < m.bmin[k] || x > m.bmax[k];
        }
        if (outside && far++ == 0) first = v;
    }
    if (far > 0)
        m.warnings.push_back(path + ":" + std::to_string(vert_line[first]) + ": " + std::to_string(far) +
                             (far == 1 ? " vertex that no face uses lies" : " vertices that no face uses lie") +
                             " outside the mesh's bounds and are left out of them (the first, "
                             "vertex " + std::to_string(first + 1) + " at (" + fmt_coord(m.verts[first * 3]) + ", " +
                             fmt_coord(m.verts[first * 3 + 1]) + ", " + fmt_coord(m.verts[first * 3 + 2]) + "))");
}

}  // namespace

Status parse_obj(std::string_view text, const std::string& path, InputMesh& out) {
    if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF && static_cast<unsigned char>(text[1]) == 0xBB &&
        static_cast<unsigned char>(text[2]) == 0xBF)
        text.remove_prefix(3);
    InputMesh m;
    m.path = path;
    std::vector<long> vert_line;  // line of each vertex, for the unused-vertex warning
    std::vector<int> face, local;
    int64_t max_index = 0;
    long max_index_line = 0;
    long line_no = 0;
    size_t pos = 0;
    auto at = [&](long l) { return path + ":" + std::to_string(l) + ": "; };
    while (pos < text.size()) {
        size_t end = pos;
        while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
        ++line_no;
        Line ln{text.substr(pos, end - pos)};
        if (end < text.size() && text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') ++end;
        pos = end + 1;
        if (ln.s.find('\0') != std::string_view::npos)
            return Status::bad_input(at(line_no) + "not a Wavefront OBJ text file (binary data: a NUL byte at byte " +
                                     std::to_string(static_cast<size_t>(ln.s.data() - text.data()) + ln.s.find('\0')) +
                                     ")");
        if (ln.at_end()) continue;
        const std::string_view key = ln.token();
        if (key == "v") {
            float xyz[3];
            if (Status st = parse_obj_vertex(ln, static_cast<long>(vert_line.size()) + 1, path, line_no, xyz); !st)
                return st;
            m.verts.insert(m.verts.end(), xyz, xyz + 3);
            vert_line.push_back(line_no);
        } else if (key == "f") {
            int64_t face_max = 0;
            const int64_t nv = static_cast<int64_t>(vert_line.size());
            if (Status st = parse_obj_face(ln, nv, path, line_no, face, face_max); !st) return st;
            if (face_max > max_index) {
                max_index = face_max;
                max_index_line = line_no;
            }
            if (face.size() < 3)
                return Status::bad_input(at(line_no) + "face has " + std::to_string(face.size()) +
                                         " vertices, expected at least 3");
            if (face_max > nv) {
                // A forward reference (checked at the end of the file): positions are not known yet,
                // so the face is fanned.
                for (size_t i = 1; i + 1 < face.size(); ++i) m.tris.insert(m.tris.end(), {face[0], face[i], face[i + 1]});
            } else {
                triangulate_face(m.verts, face, local);
                for (int l : local) m.tris.push_back(face[static_cast<size_t>(l)]);
            }
        }
        // Everything else (vt, vn, vp, g, o, s, usemtl, mtllib, l, p, unknown keywords) is skipped.
    }
    const int64_t nverts = static_cast<int64_t>(vert_line.size());
    if (max_index > nverts)
        return Status::bad_input(at(max_index_line) + "face index " + std::to_string(max_index) +
                                 " is out of range (the file defines " + std::to_string(nverts) + " vertices)");
    if (m.tris.empty())
        return Status::bad_input(path + ": no faces found (expected 'f' lines of a Wavefront OBJ mesh)");
    m.compute_bounds();
    warn_far_unused_vertices(m, vert_line, path);
    if (Status st = validate_mesh(m, path); !st) return st;
    out = std::move(m);
    return Status::ok();
}

Status load_obj(const std::string& path, InputMesh& out, const ObjReadOptions& opt) {
    std::string text;
    if (Status st = read_input_file(path, "OBJ file", opt.max_bytes, text); !st) return st;
    return parse_obj(text, path, out);
}

Status parse_pair_line(std::string_view line, const std::string& path, long line_no, float s[3], float e[3],
                       bool& has_pair) {
    has_pair = false;
    Line ln{line};
    if (ln.at_end()) return Status::ok();
    auto at = [&] { return path + ":" + std::to_string(line_no) + ": "; };
    for (int k = 0; k < 6; ++k) {
        if (ln.at_end()) return Status::bad_input(at() + "expected 6 numbers 'sx sy sz ex ey ez'");
        const std::string_view t = ln.token();
        double v = 0;
        if (!parse_decimal(t, v))
            return Status::bad_input(at() + "coordinate " + std::to_string(k + 1) + " is not a finite number ('" +
                                     std::string(t.substr(0, 40)) +
                                     "'; expected 6 decimal numbers 'sx sy sz ex ey ez')");
        if (!(std::fabs(v) <= kMaxCoordinate))
            return Status::bad_input(at() + "coordinate " + std::to_string(k + 1) + " is not a finite number within +-" +
                                     fmt_coord(kMaxCoordinate) + " m");
        (k < 3 ? s[k] : e[k - 3]) = static_cast<float>(v);
    }
    if (!ln.at_end()) return Status::bad_input(at() + "extra text after 6 numbers");
    has_pair = true;
    return Status::ok();
}

Status validate_mesh(const InputMesh& m, const std::string& what) {
    if (m.verts.size() % 3 != 0) return Status::bad_input(what + ": vertex array length is not a multiple of 3");
    if (m.tris.size() % 3 != 0) return Status::bad_input(what + ": index array length is not a multiple of 3");
    if (m.tris.empty()) return Status::bad_input(what + ": the mesh has no triangles");
    if (!m.tri_mesh.empty() && m.tri_mesh.size() != m.tris.size() / 3)
        return Status::bad_input(what + ": " + std::to_string(m.tri_mesh.size()) + " per-triangle mesh indices for " +
                                 std::to_string(m.tris.size() / 3) + " triangles");
    for (size_t t = 0; t < m.tri_mesh.size(); ++t)
        if (m.tri_mesh[t] >= m.mesh_names.size())
            return Status::bad_input(what + ": triangle " + std::to_string(t + 1) + " names mesh " +
                                     std::to_string(m.tri_mesh[t]) + ", expected 0.." +
                                     std::to_string(static_cast<int64_t>(m.mesh_names.size()) - 1));
    if (m.verts.size() / 3 > static_cast<size_t>(std::numeric_limits<int>::max()) ||
        m.tris.size() / 3 > static_cast<size_t>(std::numeric_limits<int>::max()))
        return Status::bad_input(what + ": more than 2^31 vertices or triangles");
    for (size_t i = 0; i < m.verts.size(); ++i) {
        if (!std::isfinite(m.verts[i]))
            return Status::bad_input(what + ": vertex " + std::to_string(i / 3 + 1) + " has a non-finite coordinate");
        if (std::fabs(m.verts[i]) > kMaxCoordinate)
            return Status::bad_input(what + ": vertex " + std::to_string(i / 3 + 1) + " coordinate " +
                                     fmt_coord(m.verts[i]) + " is beyond +-" + fmt_coord(kMaxCoordinate) +
                                     " m, the largest the bake handles");
    }
    const int nv = m.vert_count();
    for (size_t i = 0; i < m.tris.size(); ++i)
        if (m.tris[i] < 0 || m.tris[i] >= nv)
            return Status::bad_input(what + ": triangle " + std::to_string(i / 3 + 1) + " uses vertex index " +
                                     std::to_string(m.tris[i]) + ", expected 0.." + std::to_string(nv - 1));
    // At least one triangle with an area (in double: no overflow whatever the coordinates).
    for (size_t t = 0; t + 2 < m.tris.size(); t += 3) {
        const float* a = &m.verts[static_cast<size_t>(m.tris[t]) * 3];
        const float* b = &m.verts[static_cast<size_t>(m.tris[t + 1]) * 3];
        const float* c = &m.verts[static_cast<size_t>(m.tris[t + 2]) * 3];
        const double e0[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
        const double e1[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
        if (e0[1] * e1[2] - e0[2] * e1[1] != 0.0 || e0[2] * e1[0] - e0[0] * e1[2] != 0.0 ||
            e0[0] * e1[1] - e0[1] * e1[0] != 0.0)
            return Status::ok();
    }
    return Status::bad_input(what + ": all " + std::to_string(m.tri_count()) +
                             " triangles are degenerate (zero area): the vertices they use are identical or lie "
                             "on one line");
}

Status check_fixed_mesh(const InputMesh& fixed, float scale) {
    // The file's coordinates passed validate_mesh; a scale above 1 may carry them past the limit
    // (1e6 m x mesh_scale 1000 = 1e9 m: cells, grids and tile counts beyond every bound).
    float far = 0.0f;
    size_t at = 0;
    for (size_t i = 0; i < fixed.verts.size(); ++i)
        if (!(std::fabs(fixed.verts[i]) <= far)) {
            far = std::fabs(fixed.verts[i]);
            at = i;
        }
    if (far <= kMaxCoordinate && std::isfinite(far)) return Status::ok();
    const double largest = kMaxCoordinate / (static_cast<double>(far) / scale);
    return Status::bad_input("parameter mesh_scale = " + fmt_coord(scale) + ": it moves vertex " +
                             std::to_string(at / 3 + 1) + " of " + (fixed.path.empty() ? std::string("the mesh") : fixed.path) +
                             " to coordinate " + fmt_coord(fixed.verts[at]) + ", beyond +-" + fmt_coord(kMaxCoordinate) +
                             " m, the largest the bake handles; expected mesh_scale at most " + fmt_coord(largest) +
                             " for this mesh");
}

void apply_mesh_fix(const InputMesh& in, const MeshFix& fix, InputMesh& out) {
    out.path = in.path;
    out.tri_mesh = in.tri_mesh;  // triangles keep their order: the names still apply
    out.mesh_names = in.mesh_names;
    out.verts.resize(in.verts.size());
    out.tris.assign(in.tris.begin(), in.tris.end());
    for (size_t v = 0; v + 2 < in.verts.size(); v += 3) {
        const float x = in.verts[v] * fix.scale, y = in.verts[v + 1] * fix.scale, z = in.verts[v + 2] * fix.scale;
        out.verts[v] = x;
        out.verts[v + 1] = fix.z_up ? z : y;
        out.verts[v + 2] = fix.z_up ? -y : z;
    }
    if (fix.flip_winding)
        for (size_t t = 0; t + 2 < out.tris.size(); t += 3) std::swap(out.tris[t + 1], out.tris[t + 2]);
    out.compute_bounds();
}

void mark_walkable_triangles(float max_slope_deg, const float* verts, const int* tris, int ntris,
                             uint8_t* tri_areas) {
    const float thr = std::cos(max_slope_deg / 180.0f * 3.14159265358979323846f);
    for (int i = 0; i < ntris; ++i) {
        const float* v0 = &verts[tris[i * 3 + 0] * 3];
        const float* v1 = &verts[tris[i * 3 + 1] * 3];
        const float* v2 = &verts[tris[i * 3 + 2] * 3];
        const float e0[3] = {v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2]};
        const float e1[3] = {v2[0] - v0[0], v2[1] - v0[1], v2[2] - v0[2]};
        const float nx = e0[1] * e1[2] - e0[2] * e1[1];
        const float ny = e0[2] * e1[0] - e0[0] * e1[2];
        const float nz = e0[0] * e1[1] - e0[1] * e1[0];
        const float len = std::sqrt(nx * nx + ny * ny + nz * nz);
        // Normalise the way Recast does (multiply by the reciprocal) so borderline slopes agree;
        // degenerate triangles are never walkable.
        if (std::isfinite(len)) {
            tri_areas[i] = (len > 0.0f && ny * (1.0f / len) > thr) ? kWalkableArea : kNullArea;
        } else {
            // Edges of thousands of km overflow float's squares: the same test in double.
            const double dx = double(e0[1]) * e1[2] - double(e0[2]) * e1[1];
            const double dy = double(e0[2]) * e1[0] - double(e0[0]) * e1[2];
            const double dz = double(e0[0]) * e1[1] - double(e0[1]) * e1[0];
            const double dl = std::sqrt(dx * dx + dy * dy + dz * dz);
            tri_areas[i] = (dl > 0.0 && dy / dl > double(thr)) ? kWalkableArea : kNullArea;
        }
    }
}

}  // namespace nav
