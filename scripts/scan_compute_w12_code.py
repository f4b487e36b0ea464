#!/usr/bin/env python3
"""What goes with the compute's w12[31:27], bits 42, 44, 45 and 82? (docs/decoding-log.md "w12c" §A)

Over every corpus 0x01: w12[31:27] (always 0 or odd: read as 2M + 1), bits 42, 44, 45, 82 (45 and 82 are
counted apart so that their agreement shows), tabulated against the input element size (w1[83:81]), the
requantisation (clamps +-inf with multiplier 1: an unrequantised pass), the NLU flag (w15 bit 26), the
parameter prefix (w16[46:45]), the ring input (w4 bit 2) and the low byte of the mode bits (w15[7:0]); with
--programs, the programs each combination occurs in.

  scan_compute_w12_code.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--programs]
"""
import collections
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import opcode_packets, programs  # noqa: E402  (the scan scripts' one corpus walk)
from scan_lle_fields import packet_bits as field  # noqa: E402


def as_float(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        sys.exit(__doc__)
    sys.path.insert(0, args[0])
    import seg  # noqa: E402
    table = collections.defaultdict(collections.Counter)
    where = collections.defaultdict(set)
    agree45_82 = total = 0
    for label, _, data in programs(args[1]):
        for _, packet in opcode_packets(seg, data, 0x01):
            total += 1
            agree45_82 += field(packet, 12, 45, 1) == field(packet, 12, 82, 1)
            unrequantised = (abs(as_float(field(packet, 15, 61, 32))) == float("inf")
                             and as_float(field(packet, 15, 29, 32)) == 1.0)
            key = (field(packet, 12, 27, 5), field(packet, 12, 42, 1), field(packet, 12, 44, 1), field(packet, 12, 45, 1),
                   field(packet, 12, 82, 1))
            context = (field(packet, 1, 81, 3), "raw" if unrequantised else "requant", field(packet, 15, 26, 1),
                       field(packet, 16, 45, 2), field(packet, 4, 2, 1), "0x%02x" % field(packet, 15, 0, 8))
            table[key][context] += 1
            where[key].add(label.split("#")[0].split("/")[-1])
    print("computes %d; w12 bit 45 == bit 82 in %d" % (total, agree45_82))
    print("w12[31:27]\tb42\tb44\tb45\tb82\tcount\t(input bytes, requantisation, NLU, prefix, ring, mode[7:0]) x count")
    for key in sorted(table):
        contexts = ", ".join("%s x%d" % (c, n) for c, n in table[key].most_common())
        print("%d\t%d\t%d\t%d\t%d\t%d\t%s" % (key + (sum(table[key].values()), contexts)))
        if "--programs" in sys.argv:
            print("\t\t" + ", ".join(sorted(where[key])))


if __name__ == "__main__":
    main()
