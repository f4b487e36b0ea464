#!/usr/bin/env python3
"""Part-row parameter pops (docs/decoding-log.md "rows"): which lanes of a 256-byte wide-memory row a
0x26 pop with PopRowQuarters (w3[55:54]) < 3 fills, and in what order. Joins every parameter pop of
every PARAMETER_CACHING executable with the receive it fills (per destination tile, the next 0x11 with
bit 61 set, in program order, as the lle rung does) and reports, split into a decide set (programs whose
path contains one of --decide, default the RingCanary 32-channel convolutions and bodypix 324) and the
held-out rest:

  1. the bits of the pop and of its receive that vary with PopRowQuarters (a lane offset or mask field
     would show here);
  2. receives of one tile whose rows overlap (two part-row pops tiling one row would show here);
  3. the stream bytes: in pops that open a layer block (their first 64 bytes are float32 scales), how
     many leading float32 scales the first 64 x quarters bytes hold, whether the rest of them is zero
     padding, and whether quarters = ceil(scales / 16): the channels sit at the start of each row's
     bytes, padded up to whole quarters, so the pop fills lanes 0 .. 16 x quarters - 1;
  4. the length: pop bytes against rows x 64 x quarters of its receive.

Usage: scan_part_rows.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import struct
import sys
from scan_lle_fields import bits


def joined_pops(tools, corpus):
    """(program, quarters, pop words, receive words, receive rows incl. prefix, pop bytes, stream bytes,
    (executable, tile, first row incl. prefix))."""
    sys.path.insert(0, tools)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import seg  # noqa: E402
    import scan_lle_fields  # noqa: E402
    for relpath, p, e, exe in scan_lle_fields.executables(corpus):
        if exe["type"] != "PARAMETER_CACHING":
            continue
        for c, bitstream in enumerate(exe["bitstreams"]):
            words = seg.words(bitstream["bitstream"])
            packets, _ = seg.segment(words)
            pending = collections.defaultdict(list)
            for index, op, length in packets:
                packet = words[index:index + length]
                if op == 0x11 and bits(packet[0], 61, 1):
                    for t in range(16):
                        if bits(packet[0], 12 + t, 1):
                            pending[t].append(packet)
                elif op == 0x26 and not bits(packet[0], 12, 1):
                    beats = (bits(packet[0], 96, 8) << 10 | bits(packet[1], 55, 10)) + 1
                    offset = (bits(packet[2], 64, 16) - 1) * 64
                    for t in range(16):
                        if not bits(packet[3], 25 + t, 1) or not pending[t]:
                            continue
                        receive = pending[t].pop(0)
                        prefix = bits(receive[2], 57, 7) // 32 if bits(receive[2], 11, 1) else 0
                        rows = bits(receive[0], 95, 16) + 1 + prefix
                        first = bits(receive[0], 62, 11) - prefix
                        yield (relpath, bits(packet[3], 54, 2) + 1, packet, receive, rows,
                               beats * 64, exe["parameters"][offset:offset + beats * 64],
                               ((relpath, p), e, c, t, first))


def leading_scales(data):
    """How many leading float32 values look like requantisation scales, and whether the rest is zero."""
    values = struct.unpack("<%df" % (len(data) // 4), data)
    n = 0
    while n < len(values) and 1e-9 < values[n] < 100:
        n += 1
    return n, not any(data[4 * n:])


def main():
    args = [a for a in sys.argv[1:]]
    decide = ["p32/", "bodypix_mobilenet_v1_075_324"]
    if "--decide" in args:
        at = args.index("--decide")
        decide = args[at + 1:]
        args = args[:at]
    if len(args) != 2:
        sys.exit(__doc__)
    pops = list(joined_pops(args[0], args[1]))
    split = lambda program: "decide" if any(d in program for d in decide) else "held out"

    print("1. bits varying with quarters (value counts per quarters), pop and receive:")
    for name, which in (("0x26", 2), ("0x11", 3)):
        for k in range(len(pops[0][which])):
            for b in range(128):
                by = collections.defaultdict(collections.Counter)
                for p in pops:
                    by[p[1]][bits(p[which][k], b, 1)] += 1
                overall = sum(by.values(), collections.Counter())
                if len(overall) < 2:
                    continue
                explained = sum(max(c.values()) for c in by.values()) / len(pops)
                if explained - max(overall.values()) / len(pops) > 0.05:
                    print("   %s w%d bit %3d: %s" % (name, k, b, {q: dict(c) for q, c in sorted(by.items())}))

    print("2. pairs of filled receives of one tile whose rows overlap (part-row pops tiling a row):")
    spans = collections.defaultdict(list)
    for program, quarters, _, _, rows, _, _, (package, e, c, t, first) in pops:
        spans[(program, package, e, c, t)].append((first, first + rows, quarters))
    overlap = collections.Counter()
    for key, tile_spans in spans.items():
        for i, a in enumerate(tile_spans):
            for b in tile_spans[i + 1:]:
                overlap[(split(key[0]), "part-row" if min(a[2], b[2]) < 4 else "whole", a[0] < b[1] and b[0] < a[1])] += 1
    for key, count in sorted(overlap.items()):
        print("   %-8s %-8s overlap %-5s %d pairs" % (key[0], key[1], key[2], count))

    print("3. pops opening a layer block: quarters = ceil(leading scales / 16), rest zero padding:")
    fit = collections.Counter()
    for program, quarters, _, _, _, _, data, _ in pops:
        if len(data) < 64 * quarters or leading_scales(data[:64])[0] < 16 and quarters > 1:
            continue
        n, padded = leading_scales(data[:64 * quarters])
        if n == 0:
            continue
        fit[(split(program), quarters, padded and (n + 15) // 16 == quarters)] += 1
    for key, count in sorted(fit.items()):
        print("   %-8s quarters %d  fits %-5s %d" % (key[0], key[1], key[2], count))

    print("4. part-row pops: (rows - 1) x 64 x quarters < bytes <= rows x 64 x quarters:")
    length = collections.Counter()
    for program, quarters, _, _, rows, size, _, _ in pops:
        if quarters < 4:
            length[(split(program), (rows - 1) * 64 * quarters < size <= rows * 64 * quarters)] += 1
    for key, count in sorted(length.items()):
        print("   %-8s fits %-5s %d" % (key[0], key[1], count))


if __name__ == "__main__":
    main()
