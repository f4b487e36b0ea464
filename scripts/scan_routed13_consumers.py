#!/usr/bin/env python3
"""Consumers of the 0x13 reads routed (0, 1) (w3 bit 107 without bit 105; docs/decoding-log.md "loomgab"):
for each such read of every corpus program, its w4[42:35] marks, whether a compute on its tiles takes it (an
0x01 / 0x02 / 0x03 whose ComputeStreamTag, w7[74:63], is the read's Stage13Channel, w2[92:81]: the compute
just before it, back to the tiles' previous 0x13, or the next one, up to their next 0x13), and the next 0x10 /
0x14 on its tiles. Prints one row per (marks, taken, next DMA) with its count and two examples; the check of
lle_fields.def Stage13TakenByCompute (w4 bit 35) and Stage13LeavesTile (w4 bit 39).

Usage: scan_routed13_consumers.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402
from scan_lle_fields import bit_range as bits  # noqa: E402

COMPUTES = (0x01, 0x02, 0x03)
READ, SYNC = 0x13, 0x1A


def tile_packets(seg, data):
    """(PC, opcode, words, tile mask) of every tile packet of one bitstream, in program order."""
    words = seg.words(data)
    found, _ = seg.segment(words)
    return [(i, op, words[i:i + n], (words[i] >> 12) & 0xFFFF) for i, op, n in found if op < 0x20]


def names_channel_before_another_read(packets, indices, mask, channel):
    """True if, walking `indices`, a compute on the read's tiles names `channel` before another read there."""
    for j in indices:
        _, op, ws, m = packets[j]
        if not m & mask or op == SYNC:
            continue
        if op == READ:
            return False
        if op in COMPUTES and bits(ws[7], 74, 63) == channel:
            return True
    return False


def taken_by(packets, i, mask, channel):
    """Where a compute on the read's tiles names its channel: 'before', 'after', or '' (none)."""
    if names_channel_before_another_read(packets, range(i - 1, -1, -1), mask, channel):
        return "before"
    if names_channel_before_another_read(packets, range(i + 1, len(packets)), mask, channel):
        return "after"
    return ""


def next_dma(packets, i, mask):
    for j in range(i + 1, len(packets)):
        _, op, _, m = packets[j]
        if not m & mask or op == SYNC:
            continue
        return "0x%02x" % op if op in (0x10, 0x14) else ""
    return "end"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    counts = collections.Counter()
    examples = collections.defaultdict(list)
    for label, _, data in scan_lle_fields.programs(sys.argv[2]):
        packets = tile_packets(seg, data)
        for i, (pc, op, ws, mask) in enumerate(packets):
            if op != READ or bits(ws[3], 107, 105) != 0b100:
                continue
            key = ("0x%02x" % bits(ws[4], 42, 35), taken_by(packets, i, mask, bits(ws[2], 92, 81)) or "-",
                   next_dma(packets, i, mask) or "-")
            counts[key] += 1
            if len(examples[key]) < 2:
                examples[key].append("%s @ 0x%04x" % (os.path.basename(label), pc))
    print("count\tw4[42:35]\ttaken by a compute\tnext 0x10 / 0x14\texamples")
    for key, n in counts.most_common():
        print("\t".join([str(n)] + list(key) + ["; ".join(examples[key])]))


if __name__ == "__main__":
    main()
