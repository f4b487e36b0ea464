#!/usr/bin/env python3
"""Do the compute's four loop nests all carry a level 7, the passes of the whole walk? (docs/decoding-log.md "w3b103" §A)

Over every corpus 0x01: the eighth slot of each nest -- the w0 nest's w1[45:32] (ComputeLimitW0Level7, w0 bit 62 + 7 x 14),
Nest37's w3[120:103] (w1 bit 100 + 7 x 37), Nest29's w9[50:37] (w7 bit 90 + 7 x 29), the w10 nest's w11[97:84] (w10 bit
9 + 7 x 29) -- and, where the passes are more than one, each of the input and weight nests' level-7 stride (loop_nest.h's
convention: slot 6's carry plus the walk of levels 0-6; Nest37 in bytes, slot carries 4 x wrap + the two bits below it,
level 0 stepping the input step of input_step.h; Nest29 in weight groups). Counts per program, split into the decode set
(wo_fc 224, the coralmicro PoseNet 353x481 decoder) and the held-out programs.

  scan_level7_nests.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import opcode_packets, programs  # noqa: E402  (the scan scripts' one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402

DECODE_SET = ("model_mobilenet_v2_wo_fc_224x224x3", "coralmicro/models/posenet_mobilenet_v1_075_353_481_quant_decoder")


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def level7_stride(limits, carries, step):
    strides = [step]
    for i in range(1, 8):
        strides.append(carries[i - 1] + sum(limits[j] * strides[j] for j in range(i)))
    return strides[7]


def nest37(packet):
    limits = [field(packet, 228 + 37 * k, 18) for k in range(7)]
    carries = [4 * signed(field(packet, 228 + 37 * k + 20, 17), 17) + field(packet, 228 + 37 * k + 18, 2) for k in range(7)]
    step = field(packet, 128 + 81, 19) if field(packet, 128 + 84, 16) else 4
    return level7_stride(limits, carries, step)


def nest29(packet):
    limits = [field(packet, 7 * 128 + 90 + 29 * k, 14) for k in range(7)]
    carries = [signed(field(packet, 7 * 128 + 90 + 29 * k + 16, 13), 13) for k in range(7)]
    return level7_stride(limits, carries, 1)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    counts = collections.Counter()
    for label, _, data in programs(sys.argv[2]):
        group = "decode" if any(d in label for d in DECODE_SET) else "held out"
        for pc, packet in opcode_packets(seg, data, 0x01):
            w0 = field(packet, 128 + 32, 14)
            slots = (field(packet, 3 * 128 + 103, 18), field(packet, 9 * 128 + 37, 14), field(packet, 11 * 128 + 84, 14))
            equal = all(s == w0 for s in slots)
            counts[(group, "level 7 equal in all four nests" if equal else "DIFFER")] += 1
            if not equal:
                print("  differs: %s @ 0x%04x w0 %d, Nest37 / Nest29 / w10 %s" % (label, pc, w0, slots))
            if w0 == 0:
                continue
            name = os.path.basename(label.split("#")[0])
            counts[(group, "passes > 1")] += 1
            counts[(group, "passes > 1: Nest37 level-7 stride 0" if nest37(packet) == 0 else "passes > 1: Nest37 stride OTHER")] += 1
            counts[(group, "passes > 1: Nest29 level-7 stride 0" if nest29(packet) == 0 else "passes > 1: Nest29 stride OTHER")] += 1
            counts[(name, "passes > 1")] += 1
    for key, count in sorted(counts.items()):
        print("  %-70s %-45s %d" % (key[0], key[1], count))


if __name__ == "__main__":
    main()
