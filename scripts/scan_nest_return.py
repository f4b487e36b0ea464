#!/usr/bin/env python3
"""The return carry of the TTU address nests (docs/decoding-log.md "wrap14"): the carry slot at the 33-bit
pitch past level 4's limit, read against the nest's last unit under the odometer (models/lle/loop_nest.h:
stride_0 = the level-0 step, stride_i = carry_{i-1} + sum_{j<i} limit_j x stride_j; last unit = sum_i
limit_i x stride_i). For every 0x14 write (Stage14WrapC, w3[79:64], 16 bits; level-0 step 1) and every
0x13 read (Stage13Wrap[4], w1 bit 115, 17 bits; level-0 step Stage13Step) of every corpus program, split
into the decode set (--decide SUBSTRING ..., default the PoseNet 353x481 and BodyPix 480x352 16 decoders)
and the held-out rest, it counts the slot = -(last unit), the slot = -(level-0 limit) (the relation
"decode2" wrote for 0x14) and neither, by whether an outer level counts, and tabulates the 0x14 forms where
the two readings differ (limits and level-1 stride) with Stage14LoopOn (w3 bit 80) against the sign of the
return.

Usage: scan_nest_return.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections

from scan_lle_fields import decide_args, opcode_packets, programs
from scan_lle_fields import bits

DECIDE = ["posenet_mobilenet_v1_075_353_481_16_quant_decoder", "bodypix_mobilenet_v1_075_480_352_16_quant_decoder"]


def signed(value, lo, width):
    v = bits(value, lo, width)
    return v - (1 << width) if v >> (width - 1) else v


def last_unit(step, limits, carries):
    """The offset of the nest's last unit (every level at its limit) under the odometer."""
    strides = [step]
    for i in range(1, len(limits)):
        strides.append(carries[i - 1] + sum(limits[j] * strides[j] for j in range(i)))
    return sum(limit * stride for limit, stride in zip(limits, strides)), strides


def nest14(p):
    """(level-0 step, limits, carries, return slot, its width) of a 0x14 (packet integer, word 0 lowest)."""
    w2 = 256
    limits = [bits(p, w2 + 44 + 33 * i, 16) for i in range(5)]
    carries = [signed(p, w2 + 60 + 33 * i, 17) for i in range(4)]
    return 1, limits, carries, signed(p, 384 + 64, 16), 16


def nest13(p):
    limits = [bits(p, 95, 16)] + [bits(p, 128 + 33 * i, 16) for i in range(4)]
    carries = [signed(p, 111 + 33 * i, 17) for i in range(4)]
    return signed(p, 78, 17), limits, carries, signed(p, 111 + 33 * 4, 17), 17


def main():
    _, corpus, decide = decide_args(__doc__, DECIDE)
    import seg  # noqa: E402  (shared reference tools, put on sys.path by decide_args)
    tally = collections.Counter()
    forms = collections.Counter()
    loop_on = collections.Counter()
    for label, _, data in programs(corpus):
        part = "decode set" if any(d in label for d in decide) else "held out"
        for opcode, read in ((0x14, nest14), (0x13, nest13)):
            for _, p in opcode_packets(seg, data, opcode):
                step, limits, carries, slot, width = read(p)
                last, strides = last_unit(step, limits, carries)
                mask = (1 << width) - 1
                outer = any(limits[1:])
                if (slot + last) & mask == 0:
                    reading = "-(last unit)"
                elif (slot + limits[0]) & mask == 0:
                    reading = "-(level-0 limit) only"
                else:
                    reading = "neither"
                tally[(opcode, part, outer, reading)] += 1
                if opcode == 0x14:
                    loop_on[(bits(p, 384 + 80, 1), "return < 0" if last > 0 else "return 0")] += 1
                    if slot != -limits[0]:
                        forms[(part, tuple(limits[:3]), strides[1], slot)] += 1
    print("opcode\tset\touter level counts\treading\tpackets")
    for key in sorted(tally):
        print("0x%02x\t%s\t%s\t%s\t%d" % (key[0], key[1], key[2], key[3], tally[key]))
    print("\n0x14 forms where -(last unit) != -(level-0 limit): set, limits 0..2, level-1 stride, Stage14WrapC: packets")
    for key, n in sorted(forms.items(), key=lambda kv: -kv[1])[:30]:
        print("%s\t%s\t%d\t%d\t%d" % (key[0], key[1], key[2], key[3], n))
    print("\n0x14 Stage14LoopOn against the return's sign: (bit, sign): packets")
    for key, n in sorted(loop_on.items()):
        print(key, n)


if __name__ == "__main__":
    main()
