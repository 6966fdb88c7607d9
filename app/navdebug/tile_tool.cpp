#include "tile_tool.h"

#include <algorithm>

namespace navdebug {

int tile_index(const nav::Bake& b, TileXZ t) {
    if (!b.tiled() || t.first < 0 || t.second < 0 || t.first >= b.layout.cols || t.second >= b.layout.rows) return -1;
    return t.first + t.second * b.layout.cols;
}

std::optional<TileXZ> tile_at(const nav::Bake& b, float x, float z) {
    if (!b.tiled()) return std::nullopt;
    for (int tz = 0; tz < b.layout.rows; ++tz)
        for (int tx = 0; tx < b.layout.cols; ++tx) {
            float box[4];
            nav::tile_box(b.config, b.layout, tx, tz, box);
            if (x >= box[0] && x < box[2] && z >= box[1] && z < box[3]) return TileXZ{tx, tz};
        }
    return std::nullopt;
}

std::shared_ptr<const nav::Bake> TileOnlyView::make(const std::shared_ptr<const nav::Bake>& bake, TileXZ tile) {
    if (!bake || !bake->tiled()) return bake;
    const int keep = tile_index(*bake, tile);
    auto v = std::make_shared<nav::Bake>(*bake);
    std::lock_guard lk(m_);
    shells_.resize(v->tiles.size());
    for (size_t i = 0; i < v->tiles.size(); ++i) {
        auto& t = v->tiles[i];
        if (!t || static_cast<int>(i) == keep) continue;
        auto& [src, shell] = shells_[i];
        if (src != t) {
            auto s = std::make_shared<nav::TileBake>();
            s->tx = t->tx;
            s->tz = t->tz;
            s->config = t->config;
            s->stats = t->stats;
            s->built_through = t->built_through;
            s->ms = t->ms;
            s->tile = t->tile;
            if (t->polymesh && t->polymesh->npolys == 0) s->polymesh = t->polymesh;
            src = t;
            shell = std::move(s);
        }
        t = shell;
    }
    return v;
}

TileTimes tile_times(const nav::Bake& b) {
    TileTimes r;
    std::vector<double> ms;
    double worst = -1;
    for (const auto& t : b.tiles) {
        if (!t) continue;
        ms.push_back(t->ms);
        r.sum_ms += t->ms;
        if (t->ms > worst) worst = t->ms, r.slowest = {t->tx, t->tz};
    }
    r.count = static_cast<int>(ms.size());
    if (ms.empty()) return r;
    std::sort(ms.begin(), ms.end());
    r.min_ms = ms.front();
    r.max_ms = ms.back();
    const size_t n = ms.size();
    r.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    return r;
}

int tiles_present(const nav::Bake& b) {
    int n = 0;
    for (const auto& t : b.tiles) n += t != nullptr;
    return n;
}

}  // namespace navdebug
