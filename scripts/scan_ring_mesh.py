#!/usr/bin/env python3
"""The ring / mesh joins of docs/decoding-log.md "ringmesh", per family and decode / held-out part:
  - 0x10 sends joined to the 0x13 read of their stream (same tag, a shared tile, nearest in the
    program): how many count ceil(read bytes / 256) beats (lle_fields.def Dma10Beats);
  - runs of one mesh opcode (0x15 / 0x16 / 0x18; tile fences inside a run allowed): whether the bytes
    the senders' nests move equal those the non-fill receives write (MeshNNSendLimit / RecvLimit).
Prints the markdown table of the log section. The C++ tests (tests/corpus/lle_ring_mesh_test.cc)
keep the corpus-wide totals; this script gives the split.

Usage: scan_ring_mesh.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
Uses the shared reference parsers (tfl.py, seg.py) as libraries through scan_lle_fields.py.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import bits  # noqa: E402

# The decode set of the log section; every other program is held out.
DECODE_SET = ("conv2d_12x128x32", "conv2d_12x128x128", "dense_256_edgetpu", "conv_2d_1_256_256", "model_padding_128x128x3_")
FAMILIES = [("RingCanary conv2d_12xWxC", "RingCanary"), ("rubensrech depthwise", "depthwise_conv"),
            ("rubensrech conv_2d", "conv_2d_1_"), ("iwatake model_*", "iwatake"), ("LibrEdgeTPU templates", "LibrEdgeTPU"),
            ("edgetpuxray raw", "edgetpuxray")]
MESH = (0x15, 0x16, 0x18)


def counts(value, first, levels):
    """Product of (limit + 1) of `levels` 16-bit limits from absolute bit `first` at a 33-bit pitch."""
    return math.prod(bits(value, first + 33 * i, 16) + 1 for i in range(levels))


def family(label):
    for name, key in FAMILIES:
        if key in label.split("#")[0]:
            return name
    return "other compiled (MobileNet, PoseNet, ...)"


def packets(data, seg):
    words = seg.words(data)
    found, _ = seg.segment(words)
    return [(op, sum(words[i + k] << (128 * k) for k in range(n))) for i, op, n in found]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    from scan_lle_fields import programs  # noqa: E402
    table = {}
    for label, kind, data in programs(sys.argv[2]):
        if kind == "PARAMETER_CACHING":
            continue
        row = table.setdefault((family(label), "decode" if any(d in label for d in DECODE_SET) else "held out"), [0, 0, 0, 0])
        pk = packets(data, seg)
        reads = [(k, v) for k, (op, v) in enumerate(pk) if op == 0x13]
        for k, (op, v) in enumerate(pk):
            tag = bits(v, 62, 12)
            if op != 0x10 or tag == 0:
                continue
            joined = [(abs(j - k), w) for j, w in reads if bits(w, 256 + 81, 12) == tag and bits(w, 12, 16) & bits(v, 12, 16)]
            if not joined:
                continue
            read = min(joined, key=lambda x: x[0])[1]
            read_bytes = 4 * counts(read, 95, 1) * counts(read, 128, 4)
            row[0] += 1
            row[1] += counts(v, 95, 1) * counts(v, 128, 4) == -(-read_bytes // 256)
        run = None
        runs = []
        for op, v in pk:
            if op in MESH:
                if run and run[0] == op:
                    run[1].append(v)
                else:
                    run = (op, [v])
                    runs.append(run)
            elif op != 0x1a:
                run = None
        for op, vs in runs:
            tiles = lambda v: bin(bits(v, 12, 16)).count("1")  # noqa: E731
            sent = sum(tiles(v) * 4 * counts(v, 95, 1) * counts(v, 128, 3) for v in vs if bits(v, 78, 1))
            got = sum(tiles(v) * 4 * counts(v, 300, 4) for v in vs if bits(v, 283, 1) and not bits(v, 727, 1))
            row[2] += 1
            row[3] += sent == got
    print("| family | part | sends joined to their read | beats = ceil(read bytes / 256) | mesh runs | bytes sent = received |")
    print("|---|---|---|---|---|---|")
    for (name, part), r in sorted(table.items()):
        print("| %s | %s | %d | %d | %d | %d |" % (name, part, *r))
    print("| all | | %d | %d | %d | %d |" % tuple(sum(r[i] for r in table.values()) for i in range(4)))


if __name__ == "__main__":
    main()
