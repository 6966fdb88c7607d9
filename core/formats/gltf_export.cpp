#include "core/formats/gltf_export.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>  // tinygltf's file writers use it (unused here, compiled all the same)
#include <limits>
#include <sstream>

#include "core/bake/palette.h"
#include "core/pipeline/pipeline.h"
#include "core/io/file.h"

// tinygltf's implementation lives in this file only. No image codecs (we write no textures: the
// layers are coloured per vertex) and no file system: it encodes to a stream and decodes from
// memory, and the file is written by OutputFile.
// It is compiled inside a namespace of ours (its standard and JSON headers included first, so
// their guards keep them global): the installed bake library then defines no tinygltf::
// symbol, and a game that builds its own tinygltf, with other macros, links beside it without
// duplicate or mismatched definitions. The tests read files back with their own copy.
#include <array>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#define TINYGLTF_NO_FS
namespace navkit_private {
#include <tiny_gltf.h>
}  // namespace navkit_private
namespace tinygltf = navkit_private::tinygltf;

namespace nav {

namespace {

void add_vertex(GltfLayer& out, float x, float y, float z, uint32_t color) {
    out.positions.insert(out.positions.end(), {x, y, z});
    out.colors.push_back(color);
}

uint32_t next_index(const GltfLayer& out) { return static_cast<uint32_t>(out.vertex_count()); }

// glTF vertex colours are linear; ours are sRGB as the screen shows them.
uint8_t srgb_to_linear(uint32_t c8) {
    const float c = static_cast<float>(c8) / 255.0f;
    const float lin = c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
    return static_cast<uint8_t>(std::clamp(static_cast<int>(lin * 255.0f + 0.5f), 0, 255));
}

// Appends `bytes` to the buffer at a 4-byte boundary (vertex attributes need it) as a new buffer
// view; returns its index.
int add_view(tinygltf::Model& m, const void* bytes, size_t size, int target) {
    std::vector<unsigned char>& data = m.buffers[0].data;
    data.resize((data.size() + 3) & ~size_t(3), 0);
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = data.size();
    v.byteLength = size;
    v.target = target;
    const auto* p = static_cast<const unsigned char*>(bytes);
    data.insert(data.end(), p, p + size);
    m.bufferViews.push_back(std::move(v));
    return static_cast<int>(m.bufferViews.size() - 1);
}

int add_accessor(tinygltf::Model& m, int view, int component, int type, size_t count, bool normalized = false) {
    tinygltf::Accessor a;
    a.bufferView = view;
    a.componentType = component;
    a.type = type;
    a.count = count;
    a.normalized = normalized;
    m.accessors.push_back(std::move(a));
    return static_cast<int>(m.accessors.size() - 1);
}

bool ends_with_glb(const std::string& path) {
    if (path.size() < 4) return false;
    std::string ext = path.substr(path.size() - 4);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".glb";
}

}  // namespace

GltfPalette gltf_palette(const AreaTable& areas) {
    GltfPalette p{region_color, {}, hash_color};
    for (size_t id = 0; id < p.area.size(); ++id) p.area[id] = areas.color_of(static_cast<uint8_t>(id)) | 0xff000000u;
    return p;
}


void append_gltf_input(const InputMesh& mesh, const std::vector<uint8_t>* tri_areas, const GltfPalette& pal, GltfLayer& out) {
    const size_t ntris = static_cast<size_t>(mesh.tri_count());
    const bool have_areas = tri_areas && tri_areas->size() == ntris;
    out.positions.reserve(out.positions.size() + ntris * 9);
    out.colors.reserve(out.colors.size() + ntris * 3);
    out.indices.reserve(out.indices.size() + ntris * 3);
    for (size_t t = 0; t < ntris; ++t) {
        const uint32_t color = pal.area[have_areas ? (*tri_areas)[t] : kWalkableArea];
        for (int k = 0; k < 3; ++k) {
            const float* v = &mesh.verts[static_cast<size_t>(mesh.tris[t * 3 + static_cast<size_t>(k)]) * 3];
            out.indices.push_back(next_index(out));
            add_vertex(out, v[0], v[1], v[2], color);
        }
    }
}

void append_gltf_regions(const CompactHeightfield& chf, const Regions& regions, const GltfPalette& pal, GltfLayer& out) {
    if (regions.reg.size() != chf.spans.size()) return;  // not the regions of this grid
    for (int z = 0; z < chf.height; ++z) {
        for (int x = 0; x < chf.width; ++x) {
            const CompactCell& cell = chf.cells[static_cast<size_t>(x + z * chf.width)];
            const float x0 = chf.bmin[0] + static_cast<float>(x) * chf.cs, z0 = chf.bmin[2] + static_cast<float>(z) * chf.cs;
            const float x1 = x0 + chf.cs, z1 = z0 + chf.cs;
            for (uint32_t i = cell.index, end = cell.index + cell.count; i < end; ++i) {
                const uint16_t r = regions.reg[i];
                if (r == 0 || (r & kBorderRegion)) continue;  // no region, or a tile's border (its neighbour's)
                const float y = chf.bmin[1] + static_cast<float>(chf.spans[i].y) * chf.ch;
                const uint32_t c = pal.region(r), first = next_index(out);
                add_vertex(out, x0, y, z0, c);
                add_vertex(out, x0, y, z1, c);
                add_vertex(out, x1, y, z1, c);
                add_vertex(out, x1, y, z0, c);
                out.indices.insert(out.indices.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
            }
        }
    }
}

void append_gltf_contours(const ContourSet& cset, const GltfPalette& pal, GltfLayer& out, bool raw) {
    out.lines = true;
    const std::vector<int32_t>& verts = raw ? cset.raw_verts : cset.verts;
    for (const Contour& c : cset.contours) {
        const uint32_t n = raw ? c.nraw : c.nverts;
        if (n < 2) continue;  // a hole merged into its outline (simplified), or no segment at all
        const uint32_t start = raw ? c.raw_start : c.vert_start;
        const uint32_t color = pal.region(c.reg), first = next_index(out);
        for (uint32_t k = 0; k < n; ++k) {
            const int32_t* v = &verts[(static_cast<size_t>(start) + k) * 4];
            add_vertex(out, cset.bmin[0] + static_cast<float>(v[0]) * cset.cs, cset.bmin[1] + static_cast<float>(v[1]) * cset.ch,
                       cset.bmin[2] + static_cast<float>(v[2]) * cset.cs, color);
            out.indices.push_back(first + k);
            out.indices.push_back(first + (k + 1) % n);
        }
    }
}

void append_gltf_polymesh(const PolyMesh& pm, const GltfPalette& pal, GltfLayer& out) {
    for (int i = 0; i < pm.npolys; ++i) {
        const uint16_t* p = pm.poly(i);
        const int n = pm.poly_vert_count(i);
        if (n < 3) continue;
        const uint32_t color = pal.area[pm.areas[static_cast<size_t>(i)]], first = next_index(out);
        for (int k = 0; k < n; ++k) {
            const uint16_t* v = &pm.verts[static_cast<size_t>(p[k]) * 3];
            add_vertex(out, pm.bmin[0] + v[0] * pm.cs, pm.bmin[1] + v[1] * pm.ch, pm.bmin[2] + v[2] * pm.cs, color);
        }
        for (int k = 2; k < n; ++k)
            out.indices.insert(out.indices.end(), {first, first + static_cast<uint32_t>(k - 1), first + static_cast<uint32_t>(k)});
    }
}

void append_gltf_detail(const PolyMeshDetail& dm, const GltfPalette& pal, GltfLayer& out) {
    for (int m = 0; m < dm.nmeshes; ++m) {
        const uint32_t* md = &dm.meshes[static_cast<size_t>(m) * 4];
        const uint32_t color = pal.polygon(static_cast<uint32_t>(m)), first = next_index(out);
        for (uint32_t k = 0; k < md[1]; ++k) {
            const float* v = &dm.verts[(static_cast<size_t>(md[0]) + k) * 3];
            add_vertex(out, v[0], v[1], v[2], color);
        }
        for (uint32_t t = 0; t < md[3]; ++t) {
            const uint8_t* tri = &dm.tris[(static_cast<size_t>(md[2]) + t) * 4];
            out.indices.insert(out.indices.end(), {first + tri[0], first + tri[1], first + tri[2]});
        }
    }
}

void append_gltf_path(const std::vector<float>& points, GltfLayer& out) {
    out.lines = true;
    const size_t n = points.size() / 3;
    if (n < 2) return;
    const uint32_t first = next_index(out);
    for (size_t k = 0; k < n; ++k) add_vertex(out, points[k * 3], points[k * 3 + 1], points[k * 3 + 2], palette_rgba(255, 50, 190));
    for (size_t k = 0; k + 1 < n; ++k) {
        out.indices.push_back(first + static_cast<uint32_t>(k));
        out.indices.push_back(first + static_cast<uint32_t>(k + 1));
    }
}

namespace {

// Calls fn(results) for each grid of the bake: the solo bake's, or each tile's still there.
template <class F>
void for_each_grid(const Bake& bake, F&& fn) {
    if (bake.tiled()) {
        for (const auto& t : bake.tiles)
            if (t) fn(static_cast<const StageResults<true>&>(*t));
    } else {
        fn(static_cast<const StageResults<true>&>(bake));
    }
}

// Buffer bytes per element: a vertex is 12 (position) + 4 (colour), an index 4.
constexpr uint64_t kVertexBytes = 16, kIndexBytes = 4;

}  // namespace

uint64_t gltf_bake_bytes(const Bake& bake, const GltfBakeLayers& which) {
    uint64_t bytes = 0;
    if (which.input && bake.mesh) bytes += uint64_t(bake.mesh->tri_count()) * 3 * (kVertexBytes + kIndexBytes);
    for_each_grid(bake, [&](const StageResults<true>& r) {
        if (which.regions && r.compact && r.regions) {
            uint64_t spans = 0;
            for (uint16_t reg : r.regions->reg) spans += reg != 0 && !(reg & kBorderRegion);
            bytes += spans * (4 * kVertexBytes + 6 * kIndexBytes);
        }
        if (which.contours && r.contours)
            for (const Contour& c : r.contours->contours) bytes += uint64_t(c.nverts) * (kVertexBytes + 2 * kIndexBytes);
        if (which.raw_contours && r.contours)
            for (const Contour& c : r.contours->contours) bytes += uint64_t(c.nraw) * (kVertexBytes + 2 * kIndexBytes);
        if (which.polymesh && r.polymesh)
            bytes += uint64_t(r.polymesh->npolys) * uint64_t(r.polymesh->nvp) * (kVertexBytes + 3 * kIndexBytes);  // at most
        if (which.detail && r.detail)
            bytes += uint64_t(r.detail->nverts) * kVertexBytes + uint64_t(r.detail->ntris) * 3 * kIndexBytes;
    });
    if (which.path) bytes += uint64_t(which.path->size() / 3) * (kVertexBytes + 2 * kIndexBytes);
    return bytes;
}

Status gltf_bake_layers(const Bake& bake, const GltfBakeLayers& which, std::vector<GltfLayer>& out) {
    out.clear();
    if (const uint64_t bytes = gltf_bake_bytes(bake, which); bytes > kGltfMaxBuffer)
        return Status::bad_input("the glTF buffer would be " + std::to_string(bytes >> 20) +
                                 " MiB; glTF allows at most 4 GiB (export fewer layers)");
    const GltfPalette pal = gltf_palette(bake.inputs.areas);  // the areas' colours it was baked with
    auto named = [](const char* name, bool lines) {
        GltfLayer l;
        l.name = name;
        l.lines = lines;
        return l;
    };
    GltfLayer input = named("input", false), regions = named("regions", false), contours = named("contours", true),
              raw_contours = named("raw_contours", true),
              polymesh = named("polymesh", false), detail = named("detail", false), path = named("path", true);
    if (which.input && bake.mesh) append_gltf_input(*bake.mesh, bake.tri_areas.get(), pal, input);
    // One grid's results: the solo bake's, or each tile's in turn.
    auto grid = [&](const StageResults<true>& r) {
        if (which.regions && r.compact && r.regions) append_gltf_regions(*r.compact, *r.regions, pal, regions);
        if (which.contours && r.contours) append_gltf_contours(*r.contours, pal, contours);
        if (which.raw_contours && r.contours) append_gltf_contours(*r.contours, pal, raw_contours, true);
        if (which.polymesh && r.polymesh) append_gltf_polymesh(*r.polymesh, pal, polymesh);
        if (which.detail && r.detail) append_gltf_detail(*r.detail, pal, detail);
    };
    for_each_grid(bake, grid);
    if (which.path) append_gltf_path(*which.path, path);
    for (GltfLayer* l : {&input, &regions, &contours, &raw_contours, &polymesh, &detail, &path})
        if (!l->empty()) out.push_back(std::move(*l));
    return Status::ok();
}

Status encode_gltf(const std::vector<GltfLayer>& layers, bool binary, std::string& out) {
    // The buffer's size first: glTF (and a GLB chunk) counts bytes in 32 bits.
    uint64_t bytes = 0;
    size_t used = 0;
    for (const GltfLayer& l : layers) {
        if (l.empty()) continue;
        if (l.colors.size() != l.vertex_count() || l.positions.size() % 3 != 0)
            return Status::internal("glTF layer " + l.name + ": " + std::to_string(l.colors.size()) + " colours for " +
                                    std::to_string(l.vertex_count()) + " vertices");
        for (uint32_t i : l.indices)
            if (i >= l.vertex_count())
                return Status::internal("glTF layer " + l.name + ": index " + std::to_string(i) + " past its " +
                                        std::to_string(l.vertex_count()) + " vertices");
        bytes += (l.positions.size() + l.colors.size() + l.indices.size()) * 4 + 12;
        ++used;
    }
    if (used == 0) return Status::bad_input("nothing to export (no layer has geometry)");
    if (bytes > kGltfMaxBuffer)
        return Status::bad_input("the glTF buffer would be " + std::to_string(bytes >> 20) +
                                 " MiB; glTF allows at most 4 GiB (export fewer layers)");

    tinygltf::Model m;
    m.asset.version = "2.0";
    m.asset.generator = "navkit";
    m.buffers.resize(1);
    m.buffers[0].data.reserve(static_cast<size_t>(bytes));
    // One material for every layer: white base (the vertex colours show), matte, both sides (the
    // navmesh is seen from above and below in a viewer).
    tinygltf::Material mat;
    mat.name = "vertex colour";
    mat.doubleSided = true;
    mat.pbrMetallicRoughness.metallicFactor = 0.0;
    mat.pbrMetallicRoughness.roughnessFactor = 1.0;
    m.materials.push_back(std::move(mat));
    tinygltf::Scene scene;
    scene.name = "navkit";
    for (const GltfLayer& l : layers) {
        if (l.empty()) continue;
        const size_t n = l.vertex_count();
        std::vector<double> lo(3, std::numeric_limits<double>::infinity()), hi(3, -std::numeric_limits<double>::infinity());
        for (size_t i = 0; i < n; ++i)
            for (size_t k = 0; k < 3; ++k) {
                lo[k] = std::min(lo[k], static_cast<double>(l.positions[i * 3 + k]));
                hi[k] = std::max(hi[k], static_cast<double>(l.positions[i * 3 + k]));
            }
        std::vector<uint8_t> rgba(n * 4);
        for (size_t i = 0; i < n; ++i) {
            for (size_t k = 0; k < 3; ++k) rgba[i * 4 + k] = srgb_to_linear((l.colors[i] >> (8 * k)) & 255u);
            rgba[i * 4 + 3] = 255;
        }
        const int pos = add_accessor(m, add_view(m, l.positions.data(), l.positions.size() * 4, TINYGLTF_TARGET_ARRAY_BUFFER),
                                     TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, n);
        m.accessors[static_cast<size_t>(pos)].minValues = lo;
        m.accessors[static_cast<size_t>(pos)].maxValues = hi;
        const int col = add_accessor(m, add_view(m, rgba.data(), rgba.size(), TINYGLTF_TARGET_ARRAY_BUFFER),
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4, n, true);
        const int idx = add_accessor(m, add_view(m, l.indices.data(), l.indices.size() * 4, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER),
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, l.indices.size());
        tinygltf::Primitive prim;
        prim.attributes["POSITION"] = pos;
        prim.attributes["COLOR_0"] = col;
        prim.indices = idx;
        prim.material = 0;
        prim.mode = l.lines ? TINYGLTF_MODE_LINE : TINYGLTF_MODE_TRIANGLES;
        tinygltf::Mesh mesh;
        mesh.name = l.name;
        mesh.primitives.push_back(std::move(prim));
        m.meshes.push_back(std::move(mesh));
        tinygltf::Node node;
        node.name = l.name;
        node.mesh = static_cast<int>(m.meshes.size() - 1);
        m.nodes.push_back(std::move(node));
        scene.nodes.push_back(static_cast<int>(m.nodes.size() - 1));
    }
    m.scenes.push_back(std::move(scene));
    m.defaultScene = 0;

    std::ostringstream s;
    tinygltf::TinyGLTF writer;
    if (!writer.WriteGltfSceneToStream(&m, s, !binary, binary) || !s)
        return Status::internal("the glTF encoder failed");
    out = std::move(s).str();
    return Status::ok();
}

Status write_gltf(const std::string& path, const std::vector<GltfLayer>& layers) {
    std::string bytes;
    if (Status st = encode_gltf(layers, ends_with_glb(path), bytes); !st) return Status{st.code, path + ": " + st.message};
    return write_output_file(path, bytes);  // a temporary file renamed into place: a failed export leaves no half file
}

}  // namespace nav
