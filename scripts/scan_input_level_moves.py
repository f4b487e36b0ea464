#!/usr/bin/env python3
"""The counts of docs/decoding-log.md "ringconv": the compute's w3[127:121] (ComputeInputLevelMoves)
against the strides of its input nest, and the fifth bit of ComputeLaneGroups (w4 bit 103).

Usage: scan_input_level_moves.py SHARED_TOOLS_ISA_DIR CORPUS_DIR

Prints:
  A. over every 0x01 compute, per Nest37 level that counts (limit > 0): the level's w3[121 + level] bit
     against whether the level's byte stride is 0, with one-bit-off controls (the bit of the level
     above / below); the computes with a disagreement, by program; the same with the strides read
     without the carry's low bits (4-byte units) as a control of the byte reading;
  B. the RingCanary 12 x W x C identity computes (0x01 with 4-byte elements and an input ring):
     channels C (Nest37 level 0 count x 4), lanes from w4[102:99] and from w4[103:99], the mask;
     and the corpus values of w4[103:99] where bit 103 is set.
Strides: level 0 steps one input element (w1[83:81] bytes); the carry of slot i, applied when level
i + 1 counts, is 4 x its 17-bit wrap + the two bits before it (docs/decoding-log.md "convwire" §A);
stride_i = carry_{i-1} + sum_{j<i} limit_j x stride_j (models/lle/loop_nest.h). Packets are read as one
little-endian bit string. Programs: as scan_lle_fields.py.
"""
import os
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import packet_bits as bits  # noqa: E402


def nest37(v):
    """(limit, low carry bits, wrap) of the 7 slots of Nest37 (w1 bit 100, pitch 37: 18 / 2 / 17)."""
    return [(bits(v, 1, 100 + 37 * i, 18), bits(v, 1, 118 + 37 * i, 2), bits(v, 1, 120 + 37 * i, 17, True)) for i in range(7)]


def strides(nest, element_bytes, byte_carries=True):
    out = [element_bytes]
    for i in range(1, 7):
        limit, low, wrap = nest[i - 1]
        carry = 4 * wrap + (low if byte_carries else 0)
        out.append(carry + sum(nest[j][0] * out[j] for j in range(i)))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402  (shared reference tools)
    import scan_lle_fields  # noqa: E402
    computes = []
    for label, _, data in scan_lle_fields.programs(sys.argv[2]):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        for index, op, length in packets:
            if op != 0x01:
                continue
            v = 0
            for k in range(length):
                v |= words[index + k] << (128 * k)
            computes.append((label, index, v))
    print("# %d compute packets (0x01)" % len(computes))

    # A. the mask against the strides.
    for title, shift, byte_carries in (("w3[121 + level]", 0, True), ("control: bit of the level above", 1, True),
                                       ("control: bit of the level below", -1, True),
                                       ("control: strides without the carries' low bits", 0, False)):
        table = Counter()
        bad = Counter()
        for label, _, v in computes:
            mask = bits(v, 3, 121, 7)
            element = bits(v, 1, 81, 3) or 4
            nest = nest37(v)
            s = strides(nest, element, byte_carries)
            disagrees = False
            for level in range(7):
                if nest[level][0] == 0 or not 0 <= level + shift < 7:
                    continue
                bit = (mask >> (level + shift)) & 1
                table[(bit, s[level] != 0)] += 1
                disagrees |= bit != (s[level] != 0)
            if disagrees:
                bad[os.path.basename(label.split("#")[0])] += 1
        print("A. %s, counting levels: set & stride != 0: %d, set & stride 0: %d, clear & stride 0: %d, clear & stride != 0: %d; "
              "computes with a disagreement: %d" % (title, table[(1, True)], table[(1, False)], table[(0, False)], table[(0, True)],
                                                    sum(bad.values())))
        if shift == 0 and byte_carries:
            print("   masks: %s" % Counter(bits(v, 3, 121, 7) for _, _, v in computes).most_common())
            print("   disagreeing, by program: %s" % bad.most_common())

    # B. the RingCanary identity computes and w4 bit 103.
    print("B. 4-byte computes with an input ring (w4 bit 2):")
    for label, index, v in computes:
        if bits(v, 4, 2, 1) == 0 or bits(v, 1, 81, 3) != 4:
            continue
        channels = 4 * (nest37(v)[0][0] + 1)
        print("   %s @ 0x%04x: C = %d, lanes w4[102:99] %d, w4[103:99] %d, mask %s, ring %d" % (
            os.path.basename(label.split("#")[0]), index, channels, 4 * (bits(v, 4, 99, 4) + 1), 4 * (bits(v, 4, 99, 5) + 1),
            format(bits(v, 3, 121, 7), "07b"), bits(v, 4, 3, 16)))
    high = Counter(bits(v, 4, 99, 5) for _, _, v in computes if bits(v, 4, 103, 1))
    print("   w4 bit 103 set in %d computes; w4[103:99] there: %s" % (sum(high.values()), sorted(high.items())))


if __name__ == "__main__":
    main()
