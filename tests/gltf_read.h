// Reading back the glTF files core/bake/gltf_export writes, with the tests' own tinygltf (the bake
// library's is private to it, in a namespace of its own): the reader is independent of the writer
// it checks. Include in one translation unit only (it compiles tinygltf's implementation). Per node: its name, primitive mode, vertex and index
// counts, and whether its COLOR_0 has one colour per vertex.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#define TINYGLTF_NO_FS
#include <tiny_gltf.h>

namespace navtest {

struct GltfNodeInfo {
    std::string name;
    int mode = -1;  // TINYGLTF_MODE_*
    size_t vertices = 0, indices = 0;
    bool colors_per_vertex = false;
    double min[3] = {0, 0, 0}, max[3] = {0, 0, 0};  // POSITION's bounds as the accessor states them
    std::vector<uint32_t> index_values;             // the index buffer as read back
};

// Parses `bytes` (GLB when binary, else JSON with embedded buffers); REQUIREs success.
inline std::vector<GltfNodeInfo> read_gltf_nodes(const std::string& bytes, bool binary) {
    tinygltf::TinyGLTF loader;
    tinygltf::Model m;
    std::string err, warn;
    const bool ok = binary ? loader.LoadBinaryFromMemory(&m, &err, &warn, reinterpret_cast<const unsigned char*>(bytes.data()),
                                                         static_cast<unsigned>(bytes.size()))
                           : loader.LoadASCIIFromString(&m, &err, &warn, bytes.data(), static_cast<unsigned>(bytes.size()), "");
    INFO("tinygltf: " << err << warn);
    REQUIRE(ok);
    REQUIRE(m.scenes.size() == 1);
    std::vector<GltfNodeInfo> out;
    for (int n : m.scenes[0].nodes) {
        const tinygltf::Node& node = m.nodes.at(static_cast<size_t>(n));
        GltfNodeInfo info;
        info.name = node.name;
        REQUIRE(node.mesh >= 0);
        const tinygltf::Mesh& mesh = m.meshes.at(static_cast<size_t>(node.mesh));
        REQUIRE(mesh.primitives.size() == 1);
        const tinygltf::Primitive& p = mesh.primitives[0];
        info.mode = p.mode;
        const tinygltf::Accessor& pos = m.accessors.at(static_cast<size_t>(p.attributes.at("POSITION")));
        const tinygltf::Accessor& col = m.accessors.at(static_cast<size_t>(p.attributes.at("COLOR_0")));
        const tinygltf::Accessor& idx = m.accessors.at(static_cast<size_t>(p.indices));
        info.vertices = pos.count;
        info.indices = idx.count;
        info.colors_per_vertex = col.count == pos.count;
        for (size_t k = 0; k < 3 && k < pos.minValues.size() && k < pos.maxValues.size(); ++k)
            info.min[k] = pos.minValues[k], info.max[k] = pos.maxValues[k];
        REQUIRE(idx.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
        const tinygltf::BufferView& v = m.bufferViews.at(static_cast<size_t>(idx.bufferView));
        const unsigned char* data = m.buffers.at(static_cast<size_t>(v.buffer)).data.data() + v.byteOffset + idx.byteOffset;
        info.index_values.resize(idx.count);
        std::memcpy(info.index_values.data(), data, idx.count * 4);
        out.push_back(std::move(info));
    }
    return out;
}

}  // namespace navtest
