#!/usr/bin/env python3
"""Pixel counts for tests/e2e/screenshots_tiles.sh (uses check_png.read_png).

tile_pixels.py inside IMG R,G,B GROW MIN_INSIDE MAX_OUTSIDE
    The bounding box of the pixels of exactly colour R,G,B (the selected tile's outline, drawn
    without depth test), grown by GROW times its size on every side; the saturated pixels that
    are not the outline colour (region colours) must be at least MIN_INSIDE of the view inside
    the box and at most MAX_OUTSIDE of all of them outside it.
tile_pixels.py outside IMG R,G,B GROW MIN_OUTSIDE
    The same box; at least MIN_OUTSIDE of the saturated pixels lie outside it (the check above
    can fail: with every tile drawn the regions spread past the tile).
tile_pixels.py saturated IMG X0,Y0,X1,Y1
    Prints the fraction of saturated pixels in the area (fractions of the image).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_png import read_png  # noqa: E402


def saturated(p):
    mx, mn = max(p), min(p)
    return mx >= 60 and mx - mn >= 50


def pixels(path):
    w, h, bpp, rows = read_png(path)
    for y in range(0, h, 2):
        r = rows[y]
        for x in range(0, w, 2):
            yield x, y, (r[x * bpp], r[x * bpp + 1], r[x * bpp + 2])


def box_of(path, rgb):
    xs, ys = [], []
    for x, y, p in pixels(path):
        if all(abs(a - b) <= 6 for a, b in zip(p, rgb)):
            xs.append(x)
            ys.append(y)
    if len(xs) < 20:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def main(argv):
    cmd, path = argv[1], argv[2]
    if cmd == "saturated":
        w, h, _, _ = read_png(path)
        x0, y0, x1, y1 = (float(v) for v in argv[3].split(","))
        n = tot = 0
        for x, y, p in pixels(path):
            if x0 * w <= x < x1 * w and y0 * h <= y < y1 * h:
                tot += 1
                n += saturated(p)
        print(f"{n / max(tot, 1):.5f}")
        return 0
    rgb = tuple(int(v) for v in argv[3].split(","))
    grow = float(argv[4])
    box = box_of(path, rgb)
    if box is None:
        print(f"{path}: no outline of colour {rgb} (the selected tile's box) found")
        return 1
    bw, bh = box[2] - box[0], box[3] - box[1]
    gx0, gy0, gx1, gy1 = box[0] - grow * bw, box[1] - grow * bh, box[2] + grow * bw, box[3] + grow * bh
    inside = outside = total = 0
    for x, y, p in pixels(path):
        total += 1
        if not saturated(p) or all(abs(a - b) <= 40 for a, b in zip(p, rgb)):
            continue
        if gx0 <= x <= gx1 and gy0 <= y <= gy1:
            inside += 1
        else:
            outside += 1
    sat = max(inside + outside, 1)
    msg = (f"tile box {box} (grown by {grow:g}), coloured pixels inside {100 * inside / total:.2f}% of the view, "
           f"outside {100 * outside / sat:.2f}% of them")
    if cmd == "inside":
        min_inside, max_outside = float(argv[5]), float(argv[6])
        if inside < min_inside * total or outside > max_outside * sat:
            print(f"{path}: {msg}; expected inside >= {100 * min_inside:.2f}%, outside <= {100 * max_outside:.2f}%")
            return 1
    else:
        min_outside = float(argv[5])
        if outside < min_outside * sat:
            print(f"{path}: {msg}; expected outside >= {100 * min_outside:.2f}%")
            return 1
    print(f"{path}: ok, {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
