#!/usr/bin/env python3
"""The write nest of the immediate 0x17 (docs/decoding-log.md "fill17b"): reads every immediate 0x17
(w5 bit 87) with w1 = w4 = 0 in the corpus as four levels (16-bit limit at a 33-bit pitch from w2 bit
44, level 0 innermost; Fill17Step = w3[47:31] applied when level 0 counts, Fill17Carry[i - 1] =
the 17-bit field at w2 bit 60 + 33 (i - 1) applied when level i counts) and reports:
  1. how many packets have which levels counting, with each counting level's stride
     (stride_i = Carry[i - 1] + sum_{j < i} limit_j x stride_j), and how many leave narrow memory;
  2. for the programs whose name contains --layout SUBSTRING (default model_padding_), the writes of
     the zero point (value = 4 x output zero point) mapped through the compiler's own output layout
     metadata (x_local_row_size, x_local_byte, y_local_y, y_tile + x_tile): which output pixels they
     cover. The layout metadata is never used to read the nest; it is a cross-check.

Usage: scan_fill17_nest.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--layout SUBSTRING]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import glob
import os
import sys

NARROW_BYTES = 192 * 1024  # ChipConfig narrow memory per tile


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def nest(words, index):
    """(first unit, limits, strides) of the 0x17 at `index`."""
    w2w3 = words[index + 2] | (words[index + 3] << 128)
    limits = [(w2w3 >> (44 + 33 * i)) & 0xFFFF for i in range(4)]
    carries = [signed((w2w3 >> (60 + 33 * i)) & 0x1FFFF, 17) for i in range(3)]
    strides = [signed((words[index + 3] >> 31) & 0x1FFFF, 17)]
    for i in range(1, 4):
        strides.append(carries[i - 1] + sum(limits[j] * strides[j] for j in range(i)))
    return (words[index + 2] >> 11) & 0xFFFF, limits, strides


def immediate_fills(words, packets):
    for index, op, _ in packets:
        if op == 0x17 and (words[index + 5] >> 87) & 1 and not words[index + 1] and not words[index + 4]:
            yield index


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    layout_only = "model_padding_"
    if "--layout" in sys.argv:
        layout_only = sys.argv[sys.argv.index("--layout") + 1]
        args.remove(layout_only)
    if len(args) != 2:
        sys.exit(__doc__)
    tools, corpus = args
    sys.path.insert(0, tools)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import seg  # noqa: E402
    import tfl  # noqa: E402
    from scan_lle_fields import programs  # noqa: E402

    shapes, outside, total = collections.Counter(), 0, 0
    for _, _, data in programs(corpus):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        for index in immediate_fills(words, packets):
            total += 1
            first, limits, strides = nest(words, index)
            low = first + sum(min(0, l * s) for l, s in zip(limits, strides))
            high = first + sum(max(0, l * s) for l, s in zip(limits, strides))
            outside += low < 0 or 4 * high + 4 > NARROW_BYTES
            shapes[tuple("L%d stride %d" % (i, strides[i]) for i in range(4) if limits[i])] += 1
    print("%d immediate 0x17s with w1 = w4 = 0; %d leave narrow memory" % (total, outside))
    for shape, count in shapes.most_common():
        print("  %5d  counting: %s" % (count, ", ".join(shape) or "none (one write)"))

    print("\nzero-point writes against the output layout (%s):" % layout_only)
    for path in sorted(glob.glob(os.path.join(corpus, "**", "*_edgetpu.tflite"), recursive=True)):
        if layout_only not in path:
            continue
        _, packages = tfl.load(path)
        for exe in packages[0]["executables"]:
            out = exe["outputs"][0]
            lay, height, width = out.get("layout"), out["y"], out["x"]
            if not lay:
                continue
            pitch = lay["x_local_row_size"][0] // 4
            words = seg.words(exe["bitstreams"][0]["bitstream"])
            packets, _ = seg.segment(words)
            for index in immediate_fills(words, packets):
                if (words[index + 5] >> 88) & 0xFFFFFFFF != out["zero_point"] * 0x01010101:
                    continue
                first, limits, strides = nest(words, index)
                tile = ((words[index] >> 12) & 0xFFFF).bit_length() - 1
                units = [first]
                for level in range(4):
                    units = [u + k * strides[level] for k in range(limits[level] + 1) for u in units]
                pixels = []
                for unit in sorted(units):
                    ly, lx = divmod(unit, pitch)
                    ys = [y for y in range(height) if lay["y_local_y"][y] == ly]
                    xs = [x for x in range(width) if lay["x_local_byte"][x] == 4 * lx]
                    pixels += [(y, x) for y in ys for x in xs if lay["y_tile"][y] + lay["x_tile"][x] == tile]
                columns = sorted({x for _, x in pixels})
                rows = sorted({y for y, _ in pixels})
                print("  %s %dx%d zp %d tile %d: %d writes, row pitch %s (layout %d): output columns %s, rows %d..%d" % (
                    os.path.basename(path), height, width, out["zero_point"], tile, len(units),
                    strides[2] if limits[2] else "-", pitch, columns, rows[0], rows[-1]))


if __name__ == "__main__":
    main()
