#!/usr/bin/env python3
"""The 0x14 staging write's w0[127:62] / w1 where no 0x11 follows on its tiles (docs/decoding-log.md
"pair14b"): every corpus 0x14 by the packet next on each of its tiles (sync 0x1a skipped), and, for the
compute-feeding writes (w4 bit 101, Stage14FeedsCompute), the copied descriptor's level-0 run w0[110:95]
and its three wraps (w0 bit 111 + 33k, 17 bits) against the weight stream armed before it on its tiles
(the execution-only 0x11 or the 0x12 whose prefix the write stages, "prefix14" §B) and against the
compute after it. Split into a decide set (programs whose path contains one of --decide; default: the
PoseNet 16-channel decoders) and the held-out rest. Reports:

  1. every 0x14 by its form: paired (every tile's next packet a 0x11), kept-stream write (word 4 zero),
     compute-feeding (w4 bit 101), other; with the opcode next on its first tile;
  2. compute-feeding writes: (stream before it: prefix arrays = Bytes8 / 32 or none) x (run, wraps = -run)
     and whether run = ceil(arrays / 2) - 1 (0 without a prefixed stream), per set;
  3. the same run against the next compute's ComputeParamPrefix (w16[46:45]): popcount - 1;
  4. the copy's bits no declared field of the compute-feeding form reads (w0[77:74], bit 78, w0[94:79], the
     level-2 / 3 limits w1[48:33], w1[81:66], the step w1[85:82], w1 bit 87, w1[127:99]): their values;
  5. compute-feeding writes whose run is not the rule's: where they are (program, PC, previous packet).

Usage: scan_stage14_prefix_run.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import re
import sys
from scan_lle_fields import bits

DECIDE = ["posenet_mobilenet_v1_075_324_324_16_quant_decoder", "posenet_mobilenet_v1_075_353_481_16_quant_decoder",
          "posenet_mobilenet_v1_075_481_641_16_quant_decoder", "posenet_mobilenet_v1_075_721_1281_16_quant_decoder"]
TILE_PACKETS_MAX = 0x20  # opcodes below this carry a tile mask at w0[27:12]
SYNC = 0x1A
PREFIX_UNITS8_PER_ARRAY = 32  # a 256-byte prefix array in the receives' 8-byte units


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def packet_value(words, index, length):
    value = 0
    for k in range(length):
        value |= words[index + k] << (128 * k)
    return value


def stream_prefix_arrays(opcode, p):
    """The prefix arrays of the stream a receive arms (Bytes8 / 32), or None when it arms no prefixed stream."""
    if opcode == 0x11 and not (bits(p, 256 + 122, 1) and bits(p, 78, 1)):
        return None  # not the execution-only form with its nest
    if opcode == 0x12 and not bits(p, 78, 1):
        return None
    if opcode not in (0x11, 0x12) or not bits(p, 256 + 11, 1):
        return None
    return bits(p, 256 + 57, 7) // PREFIX_UNITS8_PER_ARRAY


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from scan_lle_fields import decide_args, programs  # noqa: E402
    _, corpus, decide = decide_args(__doc__, DECIDE)
    import seg  # noqa: E402

    forms = collections.Counter()
    runs = collections.Counter()
    against_compute = collections.Counter()
    rest = collections.Counter()
    off_rule = []
    for label, _, data in programs(corpus):
        which = "decide" if any(d in label for d in decide) else "held out"
        words = seg.words(data)
        packets, _ = seg.segment(words)
        tile = [(i, op, n) for (i, op, n) in packets if op < TILE_PACKETS_MAX and op != SYNC]
        previous = [None] * 16
        for k, (i, op, n) in enumerate(tile):
            mask = bits(words[i], 12, 16)
            if op == 0x14:
                p = packet_value(words, i, n)
                tiles = [t for t in range(16) if mask >> t & 1]
                nexts = {}
                for j, op2, n2 in tile[k + 1:]:
                    for t in tiles:
                        if bits(words[j], 12, 16) >> t & 1 and t not in nexts:
                            nexts[t] = (j, op2, n2)
                    if len(nexts) == len(tiles):
                        break
                first_next = "0x%02x" % nexts[tiles[0]][1] if tiles and tiles[0] in nexts else "none"
                feeds = bits(p, 512 + 101, 1)
                if nexts and all(v[1] == 0x11 for v in nexts.values()):
                    form = "paired (0x11 next)"
                elif bits(words[i + 4], 0, 128) == 0:
                    form = "kept-stream write (word 4 zero)"
                elif feeds:
                    form = "compute-feeding (w4 bit 101)"
                else:
                    form = "other"
                forms[(which, form, first_next)] += 1
                if feeds:
                    before = previous[tiles[0]] if tiles else None
                    arrays = stream_prefix_arrays(before[1], before[2]) if before else None
                    run = bits(p, 95, 16)
                    wraps = [signed(bits(p, 111 + 33 * e, 17), 17) for e in range(3)]
                    expected = 0 if not arrays else (arrays + 1) // 2 - 1
                    stream = "no prefixed stream" if arrays is None else "%d arrays (0x%02x)" % (arrays, before[1])
                    runs[(which, stream, run, all(w == -run for w in wraps), run == expected)] += 1
                    if run != expected or any(w != -run for w in wraps):
                        prev = "0x%02x @ 0x%04x" % (before[1], before[0]) if before else "none"
                        off_rule.append("%s %s 0x%04x run %d wraps %s after %s" % (which, label[-90:], i, run, wraps, prev))
                    nxt = nexts.get(tiles[0]) if tiles else None
                    if nxt and nxt[1] == 0x01:
                        c = packet_value(words, nxt[0], nxt[2])
                        prefix = bits(c, 16 * 128 + 45, 2)
                        against_compute[(which, "ComputeParamPrefix %d" % prefix, run,
                                         run == max(bin(prefix).count("1") - 1, 0))] += 1
                    rest[("w0[77:74]", bits(p, 74, 4))] += 1
                    rest[("w0 bit 78", bits(p, 78, 1))] += 1
                    rest[("w0[94:79]", bits(p, 79, 16))] += 1
                    rest[("w1[48:33]", bits(p, 128 + 33, 16))] += 1
                    rest[("w1[81:66]", bits(p, 128 + 66, 16))] += 1
                    rest[("w1[85:82]", bits(p, 128 + 82, 4))] += 1
                    rest[("w1 bit 87", bits(p, 128 + 87, 1))] += 1
                    rest[("w1[127:99]", bits(p, 128 + 99, 29))] += 1
            for t in range(16):
                if mask >> t & 1:
                    previous[t] = (i, op, packet_value(words, i, n))

    print("1. every 0x14 by form and the opcode next on its first tile")
    for key, count in sorted(forms.items()):
        print("  %-8s %-34s next %-5s %6d" % (key + (count,)))
    print("2. compute-feeding 0x14s: (set, stream before it, run w0[110:95], wraps = -run, run = ceil(arrays / 2) - 1)")
    for key, count in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        print("  %-8s %-26s run %3d  wraps -run %-5s rule %-5s %6d" % (key + (count,)))
    print("3. against the next compute's ComputeParamPrefix: (set, prefix, run, run = popcount - 1)")
    for key, count in sorted(against_compute.items()):
        print("  %-8s %-22s run %3d  %-5s %6d" % (key + (count,)))
    print("4. the copy's bits no declared field of the compute-feeding form reads: value counts")
    for key, count in sorted(rest.items()):
        print("  %-11s 0x%x %6d" % (key + (count,)))
    print("5. compute-feeding 0x14s off the rule (%d)" % len(off_rule))
    for line in off_rule[:40]:
        print("  " + re.sub(r"\s+", " ", line))


if __name__ == "__main__":
    main()
