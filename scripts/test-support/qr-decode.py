#!/usr/bin/env python3
"""Decode QR Code SVGs written by WardenCore's QRCode.svg(...) with a third-party decoder (zxing-cpp).

Usage: scripts/test-support/qr-decode.py [--hex] [--names] PATH...

Each PATH is an .svg file or a directory (its *.svg files, in name order). Each SVG is rasterised by this script
(the format is Warden's own: a viewBox in modules, a background <rect> and one <path> made of closed axis-aligned
rectangles "M x y h n v 1 h -n z") into a grayscale bitmap with 4 pixels per module, and decoded by zxing-cpp.

Output, one line per file: the decoded content as a JSON string (the raw bytes decoded as UTF-8, undecodable bytes
as \\udcXX surrogate escapes), or with --hex the raw bytes in lower-case hex. With --names each line starts with the
file name and a tab. Exit status: 0 if every file decoded to exactly one QR Code, 1 if any did not, 2 on bad usage,
3 if the decoder is not installed (install it with: pip install -r tests/interop/requirements.txt, or scripts/test).
"""

import json
import os
import re
import sys
import xml.etree.ElementTree as ET

PIXELS_PER_MODULE = 4
SVG_NS = "{http://www.w3.org/2000/svg}"


def rasterise(svg_path):
    """Return (width, height, bytearray of 8-bit gray, 255 = white) for one of Warden's QR SVGs."""
    root = ET.parse(svg_path).getroot()
    if root.tag != SVG_NS + "svg":
        raise ValueError("not an SVG document")
    view_box = [float(v) for v in root.get("viewBox", "").replace(",", " ").split()]
    if len(view_box) != 4 or view_box[0] != 0 or view_box[1] != 0:
        raise ValueError("expected viewBox=\"0 0 W H\"")
    width, height = int(view_box[2]), int(view_box[3])
    scale = PIXELS_PER_MODULE
    px_w, px_h = width * scale, height * scale
    image = bytearray([255]) * (px_w * px_h)

    def fill(x0, y0, x1, y1, value):
        x0, x1 = sorted((x0, x1))
        y0, y1 = sorted((y0, y1))
        xa, xb = max(0, round(x0 * scale)), min(px_w, round(x1 * scale))
        ya, yb = max(0, round(y0 * scale)), min(px_h, round(y1 * scale))
        row = bytes([value]) * max(0, xb - xa)
        for y in range(ya, yb):
            image[y * px_w + xa:y * px_w + xb] = row

    paths = 0
    for element in root.iter():
        fill_colour = (element.get("fill") or "#000").lower()
        value = 255 if fill_colour in ("#fff", "#ffffff", "white") else 0
        if element.tag == SVG_NS + "rect":
            x, y = float(element.get("x", 0)), float(element.get("y", 0))
            fill(x, y, x + float(element.get("width")), y + float(element.get("height")), value)
        elif element.tag == SVG_NS + "path":
            paths += 1
            for points in subpaths(element.get("d", "")):
                xs = sorted({p[0] for p in points})
                ys = sorted({p[1] for p in points})
                if len(xs) != 2 or len(ys) != 2:
                    raise ValueError(f"subpath is not an axis-aligned rectangle: {points}")
                fill(xs[0], ys[0], xs[1], ys[1], value)
    if paths != 1:
        raise ValueError(f"expected exactly one <path>, found {paths}")
    return px_w, px_h, image


def subpaths(d):
    """Yield each closed subpath's corner points; supports M/m, H/h, V/v, L/l and Z/z."""
    tokens = re.findall(r"[MmHhVvLlZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", d)
    x = y = 0.0
    points = []
    i = 0
    command = None
    while i < len(tokens):
        token = tokens[i]
        if token.isalpha():
            command = token
            i += 1
            if command in "Zz":
                if points:
                    yield points
                    x, y = points[0]
                points = []
                continue
        if command is None:
            raise ValueError("path data must start with a command")
        if command in "MmLl":
            dx, dy = float(tokens[i]), float(tokens[i + 1])
            i += 2
            x, y = (x + dx, y + dy) if command.islower() else (dx, dy)
            if command in "Mm":
                if points:
                    raise ValueError("unclosed subpath")
                command = "l" if command == "m" else "L"
        elif command in "Hh":
            value = float(tokens[i])
            i += 1
            x = x + value if command == "h" else value
        elif command in "Vv":
            value = float(tokens[i])
            i += 1
            y = y + value if command == "v" else value
        else:
            raise ValueError(f"unsupported path command {command}")
        points.append((x, y))
    if points:
        raise ValueError("unclosed subpath at end of path data")


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    unknown = flags - {"--hex", "--names"}
    if unknown or not args:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import zxingcpp
    except ImportError:
        print("qr-decode: the zxing-cpp decoder is not installed; install it with "
              "`python3 -m pip install -r tests/interop/requirements.txt` (scripts/test does this)", file=sys.stderr)
        return 3

    files = []
    for arg in args:
        if os.path.isdir(arg):
            files += sorted(os.path.join(arg, n) for n in os.listdir(arg) if n.endswith(".svg"))
        else:
            files.append(arg)
    status = 0
    for path in files:
        name = os.path.basename(path)
        try:
            width, height, pixels = rasterise(path)
        except (ValueError, ET.ParseError, OSError) as error:
            print(f"qr-decode: {path}: cannot render: {error}", file=sys.stderr)
            status = 1
            continue
        view = memoryview(pixels).cast("B", (height, width))
        results = zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormat.QRCode)
        if len(results) != 1:
            print(f"qr-decode: {path}: found {len(results)} QR codes, expected 1", file=sys.stderr)
            status = 1
            continue
        raw = bytes(results[0].bytes)
        if "--hex" in flags:
            text = raw.hex()
        else:
            text = json.dumps(raw.decode("utf-8", "surrogateescape"), ensure_ascii=True)
        print(f"{name}\t{text}" if "--names" in flags else text, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
