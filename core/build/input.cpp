#include "core/build/input.h"

#include <tiny_obj_loader.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

namespace nav {

void InputMesh::compute_bounds() {
    for (int k = 0; k < 3; ++k) {
        bmin[k] = std::numeric_limits<float>::max();
        bmax[k] = -std::numeric_limits<float>::max();
    }
    for (size_t i = 0; i + 2 < verts.size(); i += 3)
        for (int k = 0; k < 3; ++k) {
            bmin[k] = std::min(bmin[k], verts[i + static_cast<size_t>(k)]);
            bmax[k] = std::max(bmax[k], verts[i + static_cast<size_t>(k)]);
        }
    if (verts.empty())
        for (int k = 0; k < 3; ++k) bmin[k] = bmax[k] = 0;
}

namespace {

// One pass over the text to give line-accurate messages for what tinyobjloader would silently
// accept or misread: non-finite or missing coordinates, bad or out-of-range face indices.
Status prescan_obj(const std::string& path, const std::string& text, int& face_count) {
    long line_no = 0;
    long nverts = 0;
    long max_index = 0, max_index_line = 0;
    face_count = 0;
    size_t pos = 0;
    const size_t probe = std::min<size_t>(text.size(), 4096);
    if (std::memchr(text.data(), '\0', probe) != nullptr)
        return Status::bad_input(path + ": not a Wavefront OBJ text file (binary data near the start)");
    auto at = [&](long l) { return path + ":" + std::to_string(l) + ": "; };
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        ++line_no;
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        size_t s = line.find_first_not_of(" \t\r");
        if (s == std::string::npos) continue;
        const char* p = line.c_str() + s;
        if (p[0] == 'v' && (p[1] == ' ' || p[1] == '\t')) {
            ++nverts;
            const char* q = p + 2;
            for (int k = 0; k < 3; ++k) {
                char* e = nullptr;
                errno = 0;
                const double x = std::strtod(q, &e);
                if (e == q)
                    return Status::bad_input(at(line_no) + "vertex " + std::to_string(nverts) +
                                             " needs 3 numeric coordinates x y z");
                if (!std::isfinite(x) || std::fabs(x) > 1e18)
                    return Status::bad_input(at(line_no) + "vertex " + std::to_string(nverts) +
                                             " has a coordinate that is not a finite number");
                q = e;
            }
        } else if (p[0] == 'f' && (p[1] == ' ' || p[1] == '\t')) {
            const char* q = p + 2;
            int n = 0;
            while (*q) {
                while (*q == ' ' || *q == '\t' || *q == '\r') ++q;
                if (!*q || *q == '#') break;
                char* e = nullptr;
                const long idx = std::strtol(q, &e, 10);
                if (e == q || idx == 0)
                    return Status::bad_input(at(line_no) + "face has an invalid vertex index (expected a "
                                             "non-zero integer, 1-based or negative relative)");
                if (idx < 0 && -idx > nverts)
                    return Status::bad_input(at(line_no) + "face index " + std::to_string(idx) +
                                             " is out of range (only " + std::to_string(nverts) +
                                             " vertices defined before this line)");
                if (idx > max_index) {
                    max_index = idx;
                    max_index_line = line_no;
                }
                ++n;
                q = e;
                while (*q && *q != ' ' && *q != '\t' && *q != '\r') ++q;  // skip /vt/vn
            }
            if (n < 3)
                return Status::bad_input(at(line_no) + "face has " + std::to_string(n) +
                                         " vertices, expected at least 3");
            ++face_count;
        }
    }
    if (max_index > nverts)
        return Status::bad_input(at(max_index_line) + "face index " + std::to_string(max_index) +
                                 " is out of range (the file defines " + std::to_string(nverts) + " vertices)");
    if (face_count == 0)
        return Status::bad_input(path + ": no faces found (expected 'f' lines of a Wavefront OBJ mesh)");
    return Status::ok();
}

}  // namespace

Status load_obj(const std::string& path, InputMesh& out) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return Status::bad_input(path + ": file not found");
    if (std::filesystem::is_directory(path, ec)) return Status::bad_input(path + ": is a directory, expected an OBJ file");
    std::ifstream f(path, std::ios::binary);
    if (!f) return Status::bad_input(path + ": cannot open for reading");
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    int faces = 0;
    if (Status st = prescan_obj(path, text, faces); !st) return st;

    tinyobj::ObjReaderConfig cfg;
    cfg.triangulate = true;
    cfg.vertex_color = false;
    cfg.mtl_search_path = "";
    tinyobj::ObjReader reader;
    // Materials are irrelevant for navigation: an empty material text keeps tinyobj from looking.
    if (!reader.ParseFromString(text, "", cfg))
        return Status::bad_input(path + ": " + (reader.Error().empty() ? "could not parse as OBJ" : reader.Error()));
    const tinyobj::attrib_t& attrib = reader.GetAttrib();
    InputMesh m;
    m.path = path;
    m.verts.assign(attrib.vertices.begin(), attrib.vertices.end());
    size_t nidx = 0;
    for (const auto& sh : reader.GetShapes()) nidx += sh.mesh.indices.size();
    m.tris.reserve(nidx);
    for (const auto& sh : reader.GetShapes())
        for (const auto& ix : sh.mesh.indices) m.tris.push_back(ix.vertex_index);
    m.compute_bounds();
    if (Status st = validate_mesh(m, path); !st) return st;
    out = std::move(m);
    return Status::ok();
}

Status validate_mesh(const InputMesh& m, const std::string& what) {
    if (m.verts.size() % 3 != 0) return Status::bad_input(what + ": vertex array length is not a multiple of 3");
    if (m.tris.size() % 3 != 0) return Status::bad_input(what + ": index array length is not a multiple of 3");
    if (m.tris.empty()) return Status::bad_input(what + ": the mesh has no triangles");
    for (size_t i = 0; i < m.verts.size(); ++i)
        if (!std::isfinite(m.verts[i]))
            return Status::bad_input(what + ": vertex " + std::to_string(i / 3 + 1) + " has a non-finite coordinate");
    const int nv = m.vert_count();
    for (size_t i = 0; i < m.tris.size(); ++i)
        if (m.tris[i] < 0 || m.tris[i] >= nv)
            return Status::bad_input(what + ": triangle " + std::to_string(i / 3 + 1) + " uses vertex index " +
                                     std::to_string(m.tris[i]) + ", expected 0.." + std::to_string(nv - 1));
    return Status::ok();
}

void apply_mesh_fix(const InputMesh& in, const MeshFix& fix, InputMesh& out) {
    out.path = in.path;
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
        tri_areas[i] = (len > 0.0f && ny * (1.0f / len) > thr) ? kWalkableArea : kNullArea;
    }
}

}  // namespace nav
