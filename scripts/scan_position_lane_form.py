#!/usr/bin/env python3
"""Scan for the position-lane compute form (docs/decoding-log.md "obytes"): every corpus 0x01 whose output element
size w4[98:80] (ComputeOutputBytes, 19 bits) is not 4 or 1, with the relations that make it a depthwise layer whose
lanes are the output positions: element bytes = 4 x Output37's level-0 units U, positions P = ComputeLaneGroups + 1 =
Nest37's levels 3 x 4, Nest37 level 5 = the U channel units at stride 1, Nest37 levels 1-2 the taps (= ComputeKCount),
Nest29 = taps, P, U (levels 0-2), Output37 levels 1-6 idle, Output37's level-0 step = 1 - (P - 1) x ComputePositionStep37,
ComputePositionStep37 = U; and the next compute on its tiles reading its output (ComputeInputAt4 = ComputeOutputAt / 4),
with its K groups (ComputeKCount) against U.

Usage: scan_position_lane_form.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide NAME...]
  --decide: substrings of program labels in the decode set (default: the two 324 x 324 decoders).
Output: per set and relation, holds / computes; then the element sizes by set; then the readers.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields as scan  # noqa: E402
from scan_lle_fields import bits  # noqa: E402
from scan_lle_fields import packet_bits as field  # noqa: E402

# Compute nests (models/isa/compute_loop_nest.def): (first bit, limit width, flag width, wrap width, pitch).
NESTS = {"N37": (1 * 128 + 100, 18, 2, 17, 37), "N29": (7 * 128 + 90, 14, 2, 13, 29), "O37": (5 * 128 + 8, 18, 2, 17, 37)}


def signed(v, width):
    return v - (1 << width) if v >> (width - 1) else v


def nest(packet, name):
    lsb, lw, fw, ww, pitch = NESTS[name]
    limits = [bits(packet, lsb + level * pitch, lw) for level in range(7)]
    carries = [signed(bits(packet, lsb + level * pitch + lw + fw, ww), ww) for level in range(7)]
    return limits, carries


def strides(limits, carries, step=1):
    """loop_nest.h fromCarries: the carry of slot i - 1 is the change when level i counts."""
    s = [step]
    for i in range(1, 7):
        s.append(carries[i - 1] + sum(limits[j] * s[j] for j in range(i)))
    return s


def main():
    _, corpus, decide = scan.decide_args(__doc__, ["324_324_16"])
    import seg  # noqa: E402
    holds = collections.Counter()
    seen = collections.Counter()
    sizes = collections.Counter()
    readers = collections.Counter()
    for label, part, words, packets in scan.distinct_segmented_programs(seg, corpus, decide):
        computes = []
        for index, op, length in packets:
            if op != 0x01:
                continue
            packet = 0
            for k in range(length):
                packet |= words[index + k] << (128 * k)
            computes.append((index, packet))
        for n, (index, packet) in enumerate(computes):
            element = field(packet, 4, 80, 19)
            if element in (1, 4):
                continue
            sizes[(part, element)] += 1
            n37, c37 = nest(packet, "N37")
            s37 = strides(n37, c37)
            n29, _ = nest(packet, "N29")
            o37, _ = nest(packet, "O37")
            units = o37[0] + 1
            positions = field(packet, 4, 99, 20) + 1
            position_step = field(packet, 1, 120, 17)
            out_step = signed(field(packet, 4, 119, 9) | (field(packet, 5, 0, 8) << 9), 17)
            k_count = field(packet, 9, 64, 12)
            taps = (n37[0] + 1) * (n37[1] + 1) * (n37[2] + 1)
            checks = {
                "element bytes = 4 x Output37 level-0 units": element == 4 * units,
                "positions = ComputeLaneGroups + 1 = Nest37 levels 3 x 4": positions == (n37[3] + 1) * (n37[4] + 1),
                "Nest37 level 5 = the units, stride 1; level 6 idle": n37[5] == units - 1 and s37[5] == 1 and n37[6] == 0,
                "Nest37 levels 0-2 = the taps = ComputeKCount": taps == k_count and n37[0] == 0,
                "Nest29 = taps, positions, units": n29[0] + 1 == taps and n29[1] == positions - 1 and n29[2] == units - 1 and not any(n29[3:]),
                "Output37 levels 1-6 idle": not any(o37[1:]),
                "Output37 step = 1 - (positions - 1) x ComputePositionStep37": out_step == 1 - (positions - 1) * position_step,
                "ComputePositionStep37 = units": position_step == units,
                "Nest37 tap column = units, tap row = position row": s37[1] == units and s37[2] == s37[4],
            }
            for name, ok in checks.items():
                seen[(part, name)] += 1
                holds[(part, name)] += ok
            out_unit = field(packet, 4, 62, 18) // 4
            mask = field(packet, 0, 12, 16)
            reader = "none"
            for _, later in computes[n + 1:]:
                if field(later, 0, 12, 16) & mask and field(later, 1, 65, 16) == out_unit:
                    later_element = field(later, 4, 80, 19)
                    reader = "K groups %s U, element %d" % ("=" if field(later, 9, 64, 12) == units else "!=", later_element)
                    break
            readers[(part, reader)] += 1
    for key in sorted(seen):
        print("%s\t%s\t%d / %d" % (key[0], key[1], holds[key], seen[key]))
    for key in sorted(sizes):
        print("%s\telement bytes %d\t%d computes" % (key[0], key[1], sizes[key]))
    for key in sorted(readers):
        print("%s\tnext compute on its tiles reading its output: %s\t%d" % (key[0], key[1], readers[key]))


if __name__ == "__main__":
    main()
