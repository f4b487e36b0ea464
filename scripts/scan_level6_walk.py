#!/usr/bin/env python3
"""Which computes set ComputeWrapW10[2], and is the level-6 walk under ComputeTopLevelPasses one shape from any row?
(docs/decoding-log.md "wrap10")

Over every distinct corpus 0x01 (identical bitstreams once): ComputeWrapW10[2] (w10 bit 25 + 2 x 29, signed 13) by
ComputePartialSumWalkOn (w11 bit 99), ComputeLevelFourPasses (w15 bit 10), ComputeTopLevelPasses (w15 bit 12). For the
computes with WrapW10[2] = +1: the first row (w9[121:110]) 0 or not, the w0 nest's level 7 (w1[45:32]), the w10 nest's
row strides (level L: wrap[L - 1] + the walk of the counting levels 1 .. L - 1; level 7 from slot 6's wrap), whether the
nest has the "w15b12" shape (levels 1, 2, 5 idle, level 3 stride 1, level 4 stride level 3's count, level 6 counting with
stride 0), and the compute-feeding 0x14 last before it on each of its tiles (Stage14SplitPassPairs, w5[14:0]) against
half level 6's count. Decode set: MobileNet v2 wo_fc 224 / 512; every other program held out.

  scan_level6_walk.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import programs  # noqa: E402  (the scan scripts' one corpus walk)
from scan_lle_fields import packet_bits as field  # noqa: E402

DECODE_SET = ("model_mobilenet_v2_wo_fc_224x224x3", "model_mobilenet_v2_wo_fc_512x512x3")


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def row_strides(limits, wraps):
    strides = [0] * 8
    for level in range(1, 8):
        strides[level] = wraps[level - 1] + sum(limits[b] * strides[b] for b in range(1, level))
    return strides


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    by_switch, walks = collections.Counter(), collections.Counter()
    seen = set()
    for label, _, data in programs(sys.argv[2]):
        if data in seen:
            continue
        seen.add(data)
        group = "decode" if any(d in label for d in DECODE_SET) else "held out"
        words = seg.words(data)
        packets, _ = seg.segment(words)
        feeding = {}
        for index, op, length in packets:
            packet = 0
            for k in range(length):
                packet |= words[index + k] << (128 * k)
            mask = (words[index] >> 12) & 0xFFFF
            tiles = [t for t in range(16) if mask >> t & 1]
            if op == 0x14:
                for t in tiles:
                    feeding[t] = field(packet, 5, 0, 15) if field(packet, 4, 101, 1) else None
            if op != 0x01:
                continue
            feeds = [feeding.pop(t, None) for t in tiles]
            wraps = [signed(field(packet, 10, 25 + 29 * i, 13), 13) for i in range(7)]
            if wraps[2] == 0:
                continue
            switch = (field(packet, 11, 99, 1), field(packet, 15, 10, 1), field(packet, 15, 12, 1))
            by_switch[(group, "walk switch %d, w15 bit 10 %d, bit 12 %d" % switch, "+1" if wraps[2] == 1 else "other")] += 1
            if wraps[2] != 1:
                continue
            limits = [field(packet, 10, 9 + 29 * i, 14) for i in range(7)] + [field(packet, 1, 32, 14)]
            strides = row_strides(limits, wraps)
            shape = (limits[6] > 0 and strides[6] == 0 and limits[1] == limits[2] == limits[5] == 0 and
                     (limits[3] == 0 or strides[3] == 1) and (limits[4] == 0 or strides[4] == limits[3] + 1))
            key = (group, "bit 12 %d" % switch[2], "row 0" if field(packet, 9, 110, 12) == 0 else "row > 0",
                   "level 7, stride %d" % strides[7] if limits[7] else "no level 7", "w15b12 shape" if shape else "other shape")
            walks[key] += 1
            if switch[2]:
                walks[(group, "tile-feeds")] += len(feeds)
                walks[(group, "tile-feeds with half level 6's passes")] += sum(1 for f in feeds if f == (limits[6] + 1) // 2)
    for key, count in sorted(by_switch.items()):
        print("  %-9s %-45s WrapW10[2] %-5s %d" % (key + (count,)))
    for key, count in sorted(walks.items()):
        print("  %s: %d" % (" / ".join(key), count))


if __name__ == "__main__":
    main()
