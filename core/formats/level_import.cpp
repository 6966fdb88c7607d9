#include "core/formats/level_import.h"

#include "core/io/file.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nav {

namespace {

constexpr std::array<std::string_view, 8> kLevelExtensions = {".obj", ".gltf", ".glb", ".fbx",
                                                              ".dae", ".ply",  ".stl", ".3ds"};

// The extension of `path` in lower case with its dot ("" when there is none).
std::string lower_extension(std::string_view path) {
    const size_t slash = path.find_last_of("/\\");
    const size_t dot = path.find_last_of('.');
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return "";
    std::string e(path.substr(dot));
    for (char& c : e)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return e;
}

std::string fmt_num(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// The files a format names beside the one read (a .gltf's .bin buffers): opened relative to the
// level's own directory (assimp reads the level from memory, so it knows no directory), regular
// files only and under the same size limit as the level. Anything refused is "not found": assimp
// then reports which buffer it missed.
class LimitedIOSystem : public Assimp::DefaultIOSystem {
public:
    LimitedIOSystem(std::filesystem::path dir, uint64_t max_bytes) : dir_(std::move(dir)), max_bytes_(max_bytes) {}
    bool Exists(const char* file) const override { return allowed(file).has_value(); }
    Assimp::IOStream* Open(const char* file, const char* mode) override {
        const std::string m = mode ? mode : "rb";
        if (m.find_first_of("wa+") != std::string::npos) return nullptr;  // a reader writes nothing
        const auto p = allowed(file);
        return p ? DefaultIOSystem::Open(p->c_str(), "rb") : nullptr;
    }

private:
    std::optional<std::string> allowed(const char* file) const {
        if (!file || !*file) return std::nullopt;
        std::error_code ec;
        std::filesystem::path p(file);
        if (p.is_relative()) p = dir_ / p;
        if (!std::filesystem::is_regular_file(p, ec) || ec) return std::nullopt;
        const uint64_t size = std::filesystem::file_size(p, ec);
        if (ec || size > max_bytes_) return std::nullopt;
        return p.string();
    }
    std::filesystem::path dir_;
    uint64_t max_bytes_;
};

// A scene metadata value as a number (FBX stores its axes as int32, its unit as float or double).
bool meta_number(const aiScene& s, const char* key, double& v) {
    if (!s.mMetaData) return false;
    const aiMetadata& md = *s.mMetaData;
    for (unsigned i = 0; i < md.mNumProperties; ++i) {
        if (std::string_view(md.mKeys[i].C_Str()) != key || !md.mValues[i].mData) continue;
        const aiMetadataEntry& e = md.mValues[i];
        switch (e.mType) {
            case AI_INT32: v = *static_cast<const int32_t*>(e.mData); return true;
            case AI_UINT64: v = static_cast<double>(*static_cast<const uint64_t*>(e.mData)); return true;
            case AI_FLOAT: v = *static_cast<const float*>(e.mData); return true;
            case AI_DOUBLE: v = *static_cast<const double*>(e.mData); return true;
            default: return false;
        }
    }
    return false;
}

// The FBX file's unit and up axis as one matrix taking its coordinates to Y-up metres (identity
// when the file says Y-up metres), and a note of what it did. Rotations only (and a uniform
// scale): the winding seen from up is kept.
Status fbx_axes(const aiScene& s, const std::string& path, aiMatrix4x4& to_metres_y_up, std::string& note) {
    to_metres_y_up = aiMatrix4x4();
    double unit = 1.0;  // FBX: centimetres per unit; a file that states none is in centimetres
    if (meta_number(s, "UnitScaleFactor", unit) && !(std::isfinite(unit) && unit > 0.0 && unit <= 1e6))
        return Status::bad_input(path + ": FBX UnitScaleFactor " + fmt_num(unit) +
                                 " is not a unit (expected centimetres per unit, > 0: 1 = cm, 100 = m)");
    double up = 1, sign = 1;
    meta_number(s, "UpAxis", up);
    meta_number(s, "UpAxisSign", sign);
    if (!(up == 0 || up == 1 || up == 2) || !(sign == 1 || sign == -1))
        return Status::bad_input(path + ": FBX UpAxis " + fmt_num(up) + " / UpAxisSign " + fmt_num(sign) +
                                 " (expected UpAxis 0, 1 or 2 for X, Y or Z and UpAxisSign 1 or -1)");
    aiMatrix4x4 rot;  // rows: the new x, y, z in the file's coordinates
    if (up == 2) rot = aiMatrix4x4(1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1);       // (x, z, -y)
    else if (up == 0) rot = aiMatrix4x4(0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);  // (-y, x, z)
    if (sign < 0) rot = aiMatrix4x4(1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1) * rot;  // half a turn about x
    const double scale = unit / 100.0;
    aiMatrix4x4 sc;
    sc.a1 = sc.b2 = sc.c3 = static_cast<ai_real>(scale);
    to_metres_y_up = sc * rot;
    if (scale != 1.0 || up != 1 || sign != 1) {
        note = path + ": FBX states UnitScaleFactor " + fmt_num(unit) + " (centimetres per unit) and up axis " +
               (sign < 0 ? "-" : "+") + std::string(1, "XYZ"[static_cast<int>(up)]) + ": read as Y-up metres";
        if (scale != 1.0) note += " (scaled by " + fmt_num(scale) + ")";
    }
    return Status::ok();
}

// assimp 5.2.5's PLY reader never returns on a header that has no line reading exactly
// "end_header" (found by fuzz_level: a missing one, "#end_header", "end_headerXYZ"): such a header
// is refused before assimp sees it.
bool ply_header_ends(std::string_view b) {
    if (b.substr(0, 3) != "ply") return false;
    size_t pos = 0;
    while (pos < b.size()) {
        size_t end = b.find_first_of("\r\n", pos);
        if (end == std::string_view::npos) end = b.size();
        std::string_view line = b.substr(pos, end - pos);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
        if (line == "end_header") return end < b.size();  // a line end after it: the body follows
        pos = end + 1;
    }
    return false;
}

std::string mesh_label(const aiMesh& m, const aiNode& n, unsigned index) {
    if (m.mName.length > 0) return m.mName.C_Str();
    if (n.mName.length > 0) return n.mName.C_Str();
    return "mesh " + std::to_string(index);
}

// The bytes against their format before assimp sees them. assimp falls back to guessing the format
// from the bytes when the named one's reader turns a file down, so a ".glb" holding PLY text would
// reach the PLY reader: the PLY guard runs on whatever starts like PLY, and the formats with a
// signature must have it.
Status check_signature(std::string_view bytes, std::string_view format, const std::string& path) {
    if (bytes.empty()) return Status::bad_input(path + ": the file is empty (expected a " + std::string(format) + " level)");
    if ((format == "ply" || bytes.substr(0, 3) == "ply") && !ply_header_ends(bytes))
        return Status::bad_input(path + ": not a PLY file (expected 'ply' at byte 0 and a header ending in a line "
                                 "'end_header')");
    const size_t text_start = bytes.find_first_not_of(" \t\r\n\xef\xbb\xbf");  // whitespace, a UTF-8 byte order mark
    const char first = text_start == std::string_view::npos ? '\0' : bytes[text_start];
    const char* expected = nullptr;
    if (format == "glb" && bytes.substr(0, 4) != "glTF") expected = "'glTF' at byte 0 (a binary glTF)";
    else if (format == "gltf" && first != '{') expected = "a JSON object ('{' first)";
    else if (format == "dae" && first != '<') expected = "XML ('<' first)";
    else if (format == "3ds" && (bytes.size() < 2 || bytes[0] != '\x4d' || bytes[1] != '\x4d'))
        expected = "the 3DS main chunk 0x4d4d at byte 0";
    if (expected) return Status::bad_input(path + ": not a " + std::string(format) + " file (expected " + expected + ")");
    return Status::ok();
}

// Reads the level with imp (which owns the scene) into *scene: positions only, triangulated,
// vertices joined by position, checked for non-finite coordinates before the post-processing.
Status read_scene(Assimp::Importer& imp, std::string_view bytes, std::string_view format, const std::string& path,
                  uint64_t max_bytes, const aiScene** scene_out) {
    imp.SetIOHandler(new LimitedIOSystem(std::filesystem::path(path).parent_path(), max_bytes));  // the importer owns it
    // Only positions matter: dropping the rest lets JoinIdenticalVertices merge by position; point
    // and line primitives are removed by SortByPType.
    imp.SetPropertyInteger(AI_CONFIG_PP_RVC_FLAGS, aiComponent_NORMALS | aiComponent_TANGENTS_AND_BITANGENTS |
                                                       aiComponent_COLORS | aiComponent_TEXCOORDS |
                                                       aiComponent_BONEWEIGHTS | aiComponent_ANIMATIONS |
                                                       aiComponent_TEXTURES | aiComponent_LIGHTS | aiComponent_CAMERAS |
                                                       aiComponent_MATERIALS);
    imp.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const unsigned flags = aiProcess_RemoveComponent | aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                           aiProcess_SortByPType | aiProcess_ValidateDataStructure;
    const std::string hint(format);
    // Read first, post-process after the check below: JoinIdenticalVertices merges a NaN vertex
    // into another one, silently.
    const aiScene* scene = imp.ReadFileFromMemory(bytes.data(), bytes.size(), 0, hint.c_str());
    if (!scene)
        return Status::bad_input(path + ": cannot read it as " + hint + " (assimp: " + imp.GetErrorString() + ")");
    for (unsigned i = 0; i < scene->mNumMeshes; ++i) {
        const aiMesh* mesh = scene->mMeshes[i];
        if (!mesh || (mesh->mNumVertices > 0 && !mesh->mVertices)) continue;  // the validation below refuses it
        for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
            const aiVector3D& p = mesh->mVertices[v];
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
                return Status::bad_input(path + ": mesh `" +
                                         (mesh->mName.length ? std::string(mesh->mName.C_Str()) : "mesh " + std::to_string(i)) +
                                         "`: vertex " + std::to_string(v + 1) + " has a coordinate that is not a finite number");
        }
    }
    scene = imp.ApplyPostProcessing(flags);
    if (!scene)
        return Status::bad_input(path + ": cannot read it as " + hint + " (assimp: " + imp.GetErrorString() + ")");
    if (!scene->mRootNode || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE))
        return Status::bad_input(path + ": the " + hint + " file holds no complete scene (no meshes placed by nodes)");
    *scene_out = scene;
    return Status::ok();
}

// A node that places meshes, with its accumulated transform.
struct PlacedNode {
    const aiNode* node;
    aiMatrix4x4 world;
};

// The node tree, depth first without recursion (a hostile file may nest deeply), each node
// with its accumulated transform: the nodes with meshes in tree order, and the vertices and
// triangles they place, counted and checked before anything is copied.
Status place_nodes(const aiScene& scene, const aiMatrix4x4& root_fix, const std::string& path, std::vector<PlacedNode>& placed,
                   int64_t& nverts, int64_t& ntris) {
    std::vector<PlacedNode> stack{{scene.mRootNode, root_fix * scene.mRootNode->mTransformation}};
    nverts = ntris = 0;
    while (!stack.empty()) {
        const PlacedNode it = stack.back();
        stack.pop_back();
        const aiNode& n = *it.node;
        if (n.mNumMeshes > 0) placed.push_back(it);
        for (unsigned i = 0; i < n.mNumMeshes; ++i) {
            const aiMesh& m = *scene.mMeshes[n.mMeshes[i]];
            if (!(m.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
            nverts += m.mNumVertices;
            ntris += m.mNumFaces;
            if (nverts > kMaxLevelVertices || ntris > kMaxLevelTriangles)
                return Status::bad_input(path + ": the level places more than " + std::to_string(kMaxLevelTriangles) +
                                         " triangles or vertices (node instances counted), the most navbake reads");
        }
        for (unsigned c = n.mNumChildren; c-- > 0;)  // reversed: children come off the stack in file order
            if (n.mChildren[c]) stack.push_back({n.mChildren[c], it.world * n.mChildren[c]->mTransformation});
    }
    return Status::ok();
}

// One placement of a triangle mesh (named mesh_names[name]) into m: its vertices through the
// node's transform w, its triangles, turned over when w mirrors.
Status append_mesh(const aiMesh& mesh, uint32_t name, const aiMatrix4x4& w, const std::string& path, InputMesh& m) {
    // A mirroring transform (negative determinant) turns the triangles over: swap two corners
    // so they face the way they did in the file.
    const bool mirrored = w.Determinant() < 0;
    const int base = m.vert_count();
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const aiVector3D& p = mesh.mVertices[v];
        double q[3];
        for (int r = 0; r < 3; ++r)
            q[r] = double(w[static_cast<unsigned>(r)][0]) * p.x + double(w[static_cast<unsigned>(r)][1]) * p.y +
                   double(w[static_cast<unsigned>(r)][2]) * p.z + double(w[static_cast<unsigned>(r)][3]);
        for (int r = 0; r < 3; ++r) {
            if (!std::isfinite(q[r]))
                return Status::bad_input(path + ": mesh `" + m.mesh_names[name] + "`: vertex " + std::to_string(v + 1) +
                                         " has a coordinate that is not a finite number (in the file or "
                                         "after its node transform)");
            if (std::fabs(q[r]) > kMaxCoordinate)
                return Status::bad_input(path + ": mesh `" + m.mesh_names[name] + "`: vertex " + std::to_string(v + 1) +
                                         " coordinate " + fmt_num(q[r]) + " (after its node transform) is beyond +-" +
                                         fmt_num(kMaxCoordinate) +
                                         " m, the largest the bake handles (is the level in millimetres, or "
                                         "placed far from the origin?)");
            m.verts.push_back(static_cast<float>(q[r]));
        }
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace& face = mesh.mFaces[f];
        if (face.mNumIndices != 3) continue;  // points and lines left in a mixed mesh
        int idx[3];
        for (int k = 0; k < 3; ++k) {
            if (face.mIndices[k] >= mesh.mNumVertices)
                return Status::bad_input(path + ": mesh `" + m.mesh_names[name] + "`: face " + std::to_string(f + 1) +
                                         " uses vertex " + std::to_string(face.mIndices[k]) + ", expected 0.." +
                                         std::to_string(static_cast<int64_t>(mesh.mNumVertices) - 1));
            idx[k] = base + static_cast<int>(face.mIndices[k]);
        }
        if (mirrored) std::swap(idx[1], idx[2]);
        m.tris.insert(m.tris.end(), idx, idx + 3);
        m.tri_mesh.push_back(name);
    }
    return Status::ok();
}

}  // namespace

std::span<const std::string_view> level_extensions() { return kLevelExtensions; }

bool is_assimp_level_path(std::string_view path) {
    const std::string e = lower_extension(path);
    for (std::string_view x : kLevelExtensions)
        if (x != ".obj" && e == x) return true;
    return false;
}

Status parse_level(std::string_view bytes, std::string_view format, const std::string& path, InputMesh& out,
                   uint64_t max_bytes) {
    if (Status st = check_signature(bytes, format, path); !st) return st;
    Assimp::Importer imp;
    const aiScene* scene = nullptr;
    if (Status st = read_scene(imp, bytes, format, path, max_bytes, &scene); !st) return st;

    aiMatrix4x4 root_fix;
    std::string note;
    if (format == "fbx")
        if (Status st = fbx_axes(*scene, path, root_fix, note); !st) return st;

    std::vector<PlacedNode> placed;
    int64_t nverts = 0, ntris = 0;
    if (Status st = place_nodes(*scene, root_fix, path, placed, nverts, ntris); !st) return st;

    InputMesh m;
    m.path = path;
    m.verts.reserve(static_cast<size_t>(nverts) * 3);
    m.tris.reserve(static_cast<size_t>(ntris) * 3);
    m.tri_mesh.reserve(static_cast<size_t>(ntris));
    std::vector<int64_t> name_of(scene->mNumMeshes, -1);  // a mesh placed twice keeps one name
    for (const PlacedNode& it : placed) {
        const aiNode& n = *it.node;
        for (unsigned i = 0; i < n.mNumMeshes; ++i) {
            const unsigned mi = n.mMeshes[i];
            const aiMesh& mesh = *scene->mMeshes[mi];
            if (!(mesh.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
            if (name_of[mi] < 0) {
                name_of[mi] = static_cast<int64_t>(m.mesh_names.size());
                m.mesh_names.push_back(mesh_label(mesh, n, mi));
            }
            if (Status st = append_mesh(mesh, static_cast<uint32_t>(name_of[mi]), it.world, path, m); !st) return st;
        }
    }
    if (m.tris.empty())
        return Status::bad_input(path + ": no triangles found (the " + std::string(format) +
                                 " file's nodes place no mesh with faces; points and lines are not read)");
    if (!note.empty()) m.warnings.push_back(note);
    m.compute_bounds();
    if (Status st = validate_mesh(m, path); !st) return st;
    out = std::move(m);
    return Status::ok();
}

Status load_level(const std::string& path, InputMesh& out, const ObjReadOptions& opt) {
    if (!is_assimp_level_path(path)) return load_obj(path, out, opt);
    const std::string ext = lower_extension(path);
    std::string bytes;
    if (Status st = read_input_file(path, ext.substr(1) + " level file", opt.max_bytes, bytes); !st) return st;
    return parse_level(bytes, ext.substr(1), path, out, opt.max_bytes);
}

}  // namespace nav
