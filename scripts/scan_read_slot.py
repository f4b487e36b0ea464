#!/usr/bin/env python3
"""The 0x13's w2 bit 97 and the 16-bit slot at w2[129:114] (docs/decoding-log.md "conv64"), over every
corpus program.

Usage: scan_read_slot.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
Prints, per (route w3 bits 105 / 107, w3 bit 101, w2 bit 97): how many 0x13s, how many with the slot 0,
how many with the slot = ceil(read bytes / 256) - 1 (bytes = 4 x the product of the nest's running
levels: Stage13Groups where w2 bit 20 is set, w1's four 16-bit limits where w2 bits 21..24 are), how
many a later 0x10 of the same stream tag (w0[73:62] = the read's w2[92:81]) drains before the next
0x13, and of those how many with the slot = ceil(bytes / 256) - 1 and = the send's beat-nest product
less one. Then, per route, the values of w4 bits 40 / 32 / 31.
"""
import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402


def read_bytes(packet):
    units = field(packet, 95, 16) + 1 if field(packet, 256 + 20, 1) else 1
    for level in range(4):
        if field(packet, 256 + 21 + level, 1):
            units *= field(packet, 128 + 33 * level, 16) + 1
    return 4 * units


def send_beats(words, at, length):
    send = sum(w << (128 * k) for k, w in enumerate(words[at:at + length]))
    return math.prod(field(send, lsb, 16) + 1 for lsb in (95, 128, 128 + 33, 128 + 66, 128 + 99))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    rows = collections.defaultdict(collections.Counter)
    w4 = collections.defaultdict(collections.Counter)
    for label, _, data in scan_lle_fields.programs(sys.argv[2]):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        for n, (i, op, length) in enumerate(packets):
            if op != 0x13:
                continue
            packet = sum(w << (128 * k) for k, w in enumerate(words[i:i + length]))
            route = (field(packet, 384 + 105, 1), field(packet, 384 + 107, 1))
            key = "route %d,%d  w3 bit 101 %d  w2 bit 97 %d" % (route + (field(packet, 384 + 101, 1), field(packet, 256 + 97, 1)))
            slot = field(packet, 256 + 114, 16)
            beats = (read_bytes(packet) + 255) // 256
            row = rows[key]
            row["0x13s"] += 1
            row["slot 0"] += slot == 0
            row["slot = ceil(bytes / 256) - 1"] += slot == beats - 1
            tag = field(packet, 256 + 81, 12)
            for j, later, later_length in packets[n + 1:]:
                if later == 0x13:
                    break
                if later == 0x10 and field(words[j], 62, 12) == tag:
                    row["drained by a send of its tag"] += 1
                    row["  and slot = ceil(bytes / 256) - 1"] += slot == beats - 1
                    row["  and slot = the send's beats - 1"] += slot == send_beats(words, j, later_length) - 1
                    break
            w4["route %d,%d" % route]["w4 bits 40/32/31 = %d%d%d" % tuple(field(packet, 512 + b, 1) for b in (40, 32, 31))] += 1
    for key in sorted(rows):
        print(key + ": " + ", ".join("%s %d" % kv for kv in rows[key].items()))
    for key in sorted(w4):
        print(key + ": " + ", ".join("%s: %d" % kv for kv in sorted(w4[key].items())))


if __name__ == "__main__":
    main()
