#!/usr/bin/env python3
"""Is compute w1[99:81] one number, the input nest's level-0 byte step? (docs/decoding-log.md "w1b86" §A)

Over every corpus 0x01: the pairs (w1[99:81], ComputeInputBytesCode w1[119:118]); then, for the computes whose
w1[99:84] (ComputeInputStepHigh) is not 0, Nest37's byte strides with that step at level 0 (input_byte_walk.h:
stride_i = carry_{i-1} + sum_{j<i} limit_j x stride_j, slot 0's carry 4 x w1[136:120] + w1[119:118], slot 1's
w2[45:27], slots 2-5's 4 x wrap + the two bits below it) and whether they are a padded H x W x C grid's: level 0
C = step (a tap column), level 1 a grid row R, level 2 C or 2C (the position column at stride 1 or 2), level 3 R or
2R, level 4 4 bytes (the next 4-channel block) with C = 4 x (level-4 limit + 1). Prints the counts and any packet
that breaks the rule.

  scan_input_step.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import opcode_packets, programs  # noqa: E402  (the scan scripts' one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def nest37_strides(packet, step):
    limits = [field(packet, 128 + 100, 18), field(packet, 256 + 9, 18), field(packet, 256 + 46, 18),
              field(packet, 256 + 83, 18)] + [field(packet, 256 + 120 + 37 * k, 18) for k in range(3)]
    carries = [4 * signed(field(packet, 128 + 120, 17), 17) + field(packet, 128 + 118, 2),
               signed(field(packet, 256 + 27, 19), 19)]
    carries += [4 * signed(field(packet, 256 + 66 + 37 * k, 17), 17) + field(packet, 256 + 64 + 37 * k, 2) for k in range(4)]
    strides = [step]
    for i in range(1, 7):
        strides.append(carries[i - 1] + sum(limits[j] * strides[j] for j in range(i)))
    return limits, strides


def is_channel_grid(limits, strides):
    c, row = strides[0], strides[1]
    if c != 4 * (limits[4] + 1) or any(limits[5:]):
        return False
    ok_col = limits[2] == 0 or strides[2] in (c, 2 * c)
    ok_row = limits[3] == 0 or strides[3] in (row, 2 * row)
    return ok_col and ok_row and strides[4] == 4 and row % c == 0 and row > 0


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    pairs = collections.Counter()
    grid = collections.Counter()
    for label, _, data in programs(sys.argv[2]):
        for pc, packet in opcode_packets(seg, data, 0x01):
            step = field(packet, 128 + 81, 19)
            pairs[(step if field(packet, 128 + 84, 16) == 0 else "C", field(packet, 128 + 118, 2))] += 1
            if field(packet, 128 + 84, 16) == 0:
                continue
            limits, strides = nest37_strides(packet, step)
            good = is_channel_grid(limits, strides)
            grid[(os.path.basename(label.split("#")[0]), good)] += 1
            if not good:
                print("  breaks: %s @ 0x%04x limits %s strides %s" % (label, pc, limits, strides))
    print("(w1[99:81], code) over all computes (C: w1[99:84] != 0):", dict(pairs))
    for (name, good), count in sorted(grid.items()):
        print("  %-55s %s %d" % (name, "channel grid" if good else "OTHER", count))


if __name__ == "__main__":
    main()
