#include "core/formats/obj_export.h"

#include <charconv>
#include <cerrno>
#include <string>
#include <cstdio>
#include <cstring>

#include "core/io/file.h"

namespace nav {

// Wavefront OBJ with group `polymesh` (one face per polygon, vertices in stored order, which faces
// up) and, when given, group `detail` (its triangles). World coordinates at the floor height.
Status write_navmesh_obj(const std::string& path, const PolyMesh& pm, const PolyMeshDetail* dm) {
    OutputFile out;  // a temporary file renamed into place: a failed export leaves no half file
    if (Status st = out.open(path); !st) return st;
    std::FILE* f = out.file();
    std::fprintf(f, "# navkit export: %d polygons, %d vertices", pm.npolys, pm.nverts);
    if (dm) std::fprintf(f, "; detail %d triangles, %d vertices", dm->ntris, dm->nverts);
    std::fprintf(f, "\ng polymesh\n");
    for (int i = 0; i < pm.nverts; ++i) {
        const uint16_t* v = &pm.verts[static_cast<size_t>(i) * 3];
        std::fprintf(f, "v %.6g %.6g %.6g\n", pm.bmin[0] + v[0] * pm.cs, pm.bmin[1] + v[1] * pm.ch, pm.bmin[2] + v[2] * pm.cs);
    }
    for (int i = 0; i < pm.npolys; ++i) {
        const uint16_t* p = pm.poly(i);
        const int n = pm.poly_vert_count(i);
        if (n < 3) continue;
        std::fputc('f', f);
        for (int k = 0; k < n; ++k) std::fprintf(f, " %d", p[k] + 1);
        std::fputc('\n', f);
    }
    if (dm) {
        std::fprintf(f, "g detail\n");
        for (int i = 0; i < dm->nverts; ++i) {
            const float* v = &dm->verts[static_cast<size_t>(i) * 3];
            std::fprintf(f, "v %.6g %.6g %.6g\n", v[0], v[1], v[2]);
        }
        const long long first = pm.nverts + 1;  // OBJ indices are 1-based and global
        for (int m = 0; m < dm->nmeshes; ++m) {
            const uint32_t* md = &dm->meshes[static_cast<size_t>(m) * 4];
            for (uint32_t t = 0; t < md[3]; ++t) {
                const uint8_t* tri = &dm->tris[static_cast<size_t>(md[2] + t) * 4];
                std::fprintf(f, "f %lld %lld %lld\n", first + md[0] + tri[0], first + md[0] + tri[1], first + md[0] + tri[2]);
            }
        }
    }
    return out.commit();  // flushed, synced, closed and checked
}

Status write_tile_obj(const std::string& path, const NavTile& t) {
    OutputFile out;  // a temporary file renamed into place: a failed export leaves no half file
    if (Status st = out.open(path); !st) return st;
    std::FILE* f = out.file();
    std::fprintf(f, "# navkit export: %d polygons, %d vertices\ng navmesh\n", t.npolys(), t.nverts());
    for (int i = 0; i < t.nverts(); ++i) {
        const float* v = &t.verts[static_cast<size_t>(i) * 3];
        std::string line = "v";
        for (int k = 0; k < 3; ++k) {  // the shortest text that reads back as the same float
            char buf[32];
            const auto res = std::to_chars(buf, buf + sizeof buf, v[k]);
            line += ' ';
            line.append(buf, res.ptr);
        }
        line += '\n';
        std::fputs(line.c_str(), f);
    }
    for (int p = 0; p < t.npolys(); ++p) {
        const uint32_t first = t.poly_first[static_cast<size_t>(p)], n = static_cast<uint32_t>(t.poly_vert_count(static_cast<uint32_t>(p)));
        std::fputc('f', f);
        for (uint32_t k = 0; k < n; ++k) std::fprintf(f, " %u", t.edge_vert[first + k] + 1);
        std::fputc('\n', f);
    }
    return out.commit();  // flushed, synced, closed and checked
}

}  // namespace nav
