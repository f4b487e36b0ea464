#!/usr/bin/env python3
"""Does anything else in a compute packet predict a bit of its word 12? (docs/decoding-log.md "w12" §A)

For each bit named on the command line, over every corpus 0x01 whose w12 is not all zero (optionally only
the 4-byte, K-reducing, non-ring computes: --conv-form): the best predictors among (a) every other bit of
the packet, alone or inverted, and (b) "level L of the w0 nest / Nest29 / Nest37 / Output37 / the w10 nest
counts" (limit > 0), with the agreement count and the 2 x 2 table. A bit that some other field decides
shows up here as agreement = all computes.

  scan_compute_w12.py SHARED_TOOLS_ISA_DIR CORPUS_DIR BIT... [--conv-form] [--top N]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import opcode_packets, programs  # noqa: E402  (the scan scripts' one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402


# Level limits (count - 1) of the compute's nests, as lle_fields.def declares them: absolute bit, width.
NESTS = {
    "w0": [(62 + 14 * k, 14) for k in range(4)] + [(118, 10)],
    "nest29": [(128 * 7 + 90 + 29 * k, 14) for k in range(4)],
    "nest37": [(128 + 100 + 37 * k, 18) for k in range(4)],
    "out37": [(128 * 5 + 8 + 37 * k, 18) for k in range(4)],
    "w10": [(128 * 10 + 9 + 29 * k, 14) for k in range(4)],
}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    top = 5
    if "--top" in sys.argv:
        top = int(sys.argv[sys.argv.index("--top") + 1])
        args.remove(str(top))
    if len(args) < 3:
        sys.exit(__doc__)
    sys.path.insert(0, args[0])
    import seg  # noqa: E402
    bits = [int(b) for b in args[2:]]
    packets = []
    for _, _, data in programs(args[1]):
        for _, packet in opcode_packets(seg, data, 0x01):
            if field(packet, 128 * 12, 128) == 0:
                continue
            if "--conv-form" in sys.argv and (field(packet, 128 + 81, 3) != 4 or field(packet, 62, 14) == 0
                                               or field(packet, 128 * 4 + 2, 1)):
                continue
            packets.append(packet)
    predictors = {"w%d bit %d" % (p // 128, p % 128): (lambda x, p=p: field(x, p, 1))
                  for p in range(17 * 128) if not 12 * 128 <= p < 13 * 128}
    for nest, levels in NESTS.items():
        for level, (lsb, width) in enumerate(levels):
            predictors["%s level %d counts" % (nest, level)] = lambda x, lsb=lsb, width=width: int(field(x, lsb, width) > 0)
    print("computes with w12 != 0%s: %d" % (" (conv form)" if "--conv-form" in sys.argv else "", len(packets)))
    for bit in bits:
        target = [field(x, 128 * 12 + bit, 1) for x in packets]
        ranked = []
        for name, predict in predictors.items():
            table = collections.Counter((predict(x), t) for x, t in zip(packets, target))
            agree = table[(1, 1)] + table[(0, 0)]
            ranked.append((max(agree, len(packets) - agree), name, dict(table)))
        ranked.sort(key=lambda r: -r[0])
        print("w12 bit %d: set in %d" % (bit, sum(target)))
        for agree, name, table in ranked[:top]:
            print("  %6d / %d  %-24s %s" % (agree, len(packets), name, table))


if __name__ == "__main__":
    main()
