#!/usr/bin/env python3
"""Checks a navdebug screenshot: not blank, and showing the colours of the layer it draws.

usage: check_png.py IMAGE [--color R,G,B:MINFRAC]... [--hues N[:FRAC]] [--greys N]
                    [--same OTHER.png] [--differs OTHER.png[:MINFRAC]] [--area x0,y0,x1,y1]
                    [--max-color R,G,B:MAXFRAC]... [--hue DEG:MINFRAC]... [--max-hue DEG:MAXFRAC]...

Only the 3D view (the middle of the window, between the side panels) is examined. A --color matches
pixels that are a shaded version of R,G,B (lighting scales the colour, so a pixel p matches when
p ~= k * c for some k in [0.3, 1.35]); MINFRAC is the fraction of view pixels that must match.
--hues N asks for at least N distinct saturated hues (regions), --greys N for N distinct grey
levels (distance field). --same asks for a pixel-identical image (within --area when given); --differs for at least MINFRAC
(default 0.002) of the view's pixels to differ from OTHER. --area picks the examined rectangle in
fractions of the window (default 0.30,0.06,0.72,0.94: the 3D view), e.g. a side panel.
--max-color: at most MAXFRAC of the view matches the colour (as --color). --hue / --max-hue: at least /
at most FRAC of the view is saturated (max - min >= 40, max >= 50) with a hue within 15 degrees of
DEG (0 red, 60 yellow, 120 green, 180 cyan, 240 blue, 300 magenta). --flat-ok skips the blank
checks (a small --area may rightly be one colour).
Standard library only (zlib + struct decode the PNG)."""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("unsupported PNG format (want 8-bit RGB/RGBA, not interlaced)")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ft == 1:
                line[x] = (line[x] + a) & 255
            elif ft == 2:
                line[x] = (line[x] + b) & 255
            elif ft == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    path, colors, hues, greys, hue_frac = argv[1], [], 0, 0, 0.002
    max_colors, hue_checks, flat_ok = [], [], False  # (rgb, maxfrac); (deg, frac, is_max)
    same, differs, area, area_given = None, None, (0.30, 0.06, 0.72, 0.94), False
    i = 2
    while i < len(argv):
        if argv[i] == "--color":
            rgb, frac = argv[i + 1].split(":")
            colors.append((tuple(int(v) for v in rgb.split(",")), float(frac)))
        elif argv[i] == "--flat-ok":  # a small area may be plain: no blank check
            flat_ok = True
            i -= 1
        elif argv[i] == "--max-color":
            rgb, frac = argv[i + 1].split(":")
            max_colors.append((tuple(int(v) for v in rgb.split(",")), float(frac)))
        elif argv[i] in ("--hue", "--max-hue"):
            deg, frac = argv[i + 1].split(":")
            hue_checks.append((float(deg), float(frac), argv[i] == "--max-hue"))
        elif argv[i] == "--hues":  # N or N:FRAC (fraction of the view each hue must cover)
            n, _, f = argv[i + 1].partition(":")
            hues, hue_frac = int(n), float(f or 0.002)
        elif argv[i] == "--greys":
            greys = int(argv[i + 1])
        elif argv[i] == "--same":
            same = argv[i + 1]
        elif argv[i] == "--differs":
            other, _, f = argv[i + 1].partition(":")
            differs = (other, float(f or 0.002))
        elif argv[i] == "--area":
            area = tuple(float(v) for v in argv[i + 1].split(","))
            area_given = True
        else:
            print(f"check_png.py: unknown option {argv[i]}")
            return 2
        i += 2
    w, h, bpp, rows = read_png(path)
    x0, x1, y0, y1 = int(w * area[0]), int(w * area[2]), int(h * area[1]), int(h * area[3])
    pixels = []
    for y in range(y0, y1, 2):  # every other pixel is plenty
        r = rows[y]
        for x in range(x0, x1, 2):
            pixels.append((r[x * bpp], r[x * bpp + 1], r[x * bpp + 2]))
    total = len(pixels)
    counts = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    background, bg_count = max(counts.items(), key=lambda kv: kv[1])
    problems = []
    if len(counts) < 64 and not flat_ok:
        problems.append(f"only {len(counts)} distinct colours in the view (blank?)")
    if bg_count > 0.95 * total and not flat_ok:
        problems.append(f"{100.0 * bg_count / total:.1f}% of the view is one colour (blank?)")
    def color_frac(c):
        cc = sum(v * v for v in c)
        match = 0
        for p, n in counts.items():
            k = sum(a * b for a, b in zip(p, c)) / cc
            if 0.3 <= k <= 1.35 and sum((a - k * b) ** 2 for a, b in zip(p, c)) < 22 ** 2:
                match += n
        return match / total

    report = []
    for (c, minfrac) in colors:
        frac = color_frac(c)
        report.append(f"{c} {100 * frac:.2f}%")
        if frac < minfrac:
            problems.append(f"colour {c}: {100 * frac:.2f}% of the view, expected at least {100 * minfrac:.2f}%")
    for (c, maxfrac) in max_colors:
        frac = color_frac(c)
        report.append(f"{c} {100 * frac:.2f}%")
        if frac > maxfrac:
            problems.append(f"colour {c}: {100 * frac:.2f}% of the view, expected at most {100 * maxfrac:.2f}%")

    def hue_of(p):
        mx, mn = max(p), min(p)
        if mx < 50 or mx - mn < 40:
            return None
        r, g, b = p
        if mx == r:
            h = ((g - b) / (mx - mn)) % 6
        elif mx == g:
            h = (b - r) / (mx - mn) + 2
        else:
            h = (r - g) / (mx - mn) + 4
        return h * 60.0

    for (deg, frac, is_max) in hue_checks:
        n = 0
        for p, k in counts.items():
            hp = hue_of(p)
            if hp is not None and min(abs(hp - deg), 360 - abs(hp - deg)) <= 15:
                n += k
        f = n / total
        report.append(f"hue {deg:g} {100 * f:.2f}%")
        if is_max and f > frac:
            problems.append(f"hue {deg:g}: {100 * f:.2f}% of the view, expected at most {100 * frac:.2f}%")
        if not is_max and f < frac:
            problems.append(f"hue {deg:g}: {100 * f:.2f}% of the view, expected at least {100 * frac:.2f}%")
    if hues:
        bins = {}
        for p, n in counts.items():
            mx, mn = max(p), min(p)
            if mx < 60 or mx - mn < 50:
                continue
            r, g, b = p
            if mx == r:
                hue = ((g - b) / (mx - mn)) % 6
            elif mx == g:
                hue = (b - r) / (mx - mn) + 2
            else:
                hue = (r - g) / (mx - mn) + 4
            key = int(hue * 4)  # 24 hue bins
            bins[key] = bins.get(key, 0) + n
        seen = [k for k, n in bins.items() if n >= total * hue_frac]
        if len(seen) < hues:
            problems.append(f"{len(seen)} distinct hues, expected at least {hues}")
    if greys:
        levels = {p[0] // 4 for p, n in counts.items() if n >= 3 and max(p) - min(p) < 12 and p != background}
        if len(levels) < greys:
            problems.append(f"{len(levels)} grey levels, expected at least {greys}")
    if same is not None:
        w2, h2, bpp2, rows2 = read_png(same)
        if (w2, h2) != (w, h):
            problems.append(f"size {w}x{h} differs from {same} ({w2}x{h2})")
        else:
            ys, xs = (range(y0, y1), range(x0, x1)) if area_given else (range(h), range(w))
            diff = sum(1 for y in ys for x in xs if rows[y][x * bpp:x * bpp + 3] != rows2[y][x * bpp2:x * bpp2 + 3])
            if diff:
                problems.append(f"{diff} pixels differ from {same}")
    if differs is not None:
        other, minfrac = differs
        w2, h2, bpp2, rows2 = read_png(other)
        if (w2, h2) != (w, h):
            problems.append(f"size {w}x{h} differs from {other} ({w2}x{h2})")
        else:
            n = sum(1 for y in range(y0, y1, 2) for x in range(x0, x1, 2)
                    if rows[y][x * bpp:x * bpp + 3] != rows2[y][x * bpp2:x * bpp2 + 3])
            if n < minfrac * total:
                problems.append(f"only {100.0 * n / total:.2f}% of the view differs from {other}, expected {100 * minfrac:.2f}%")
    if problems:
        print(f"{path}: " + "; ".join(problems))
        return 1
    extra = "; " + ", ".join(report) if report else ""
    print(f"{path}: ok ({len(counts)} colours, background {100.0 * bg_count / total:.0f}%{extra})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
