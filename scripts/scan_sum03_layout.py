#!/usr/bin/env python3
"""Opcode 0x03 read through opcode 0x01's fields (docs/decoding-log.md "sum03"; models/lle/exp_sum_form.h): for every
corpus 0x03, the set bits no 0x01 field of lle_fields.def covers (the header w0[11:6] = the opcode aside), with how many
corpus 0x01 computes carry each of them; then per 0x03 the walk (ComputeK4W0 + 1 groups a beat, ComputeLimitW0[0] + 1
beats, ComputeK4W10 + 1 groups, ComputeKCount), the stream tag, the output address and w15[28:0]. Programs whose path
contains one of --decide (default bright_64x64) are the decode set; the rest are held out.

Usage: scan_sum03_layout.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_lle_envelope as envelope  # noqa: E402  (the .def readers)
import scan_lle_fields  # noqa: E402

HEADER_BITS = (1 << 12) - 1  # w0[11:0]: the opcode at [11:6]; the tile mask and sequence are 0x01 fields


def main():
    tools, corpus, decide = scan_lle_fields.decide_args(__doc__, ["bright_64x64"])
    import seg  # noqa: E402
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fields = envelope.field_rows(os.path.join(root, "models", "lle", "lle_fields.def"))
    compute = {name: row for name, row in fields.items() if row[0] == 0x01}
    covered = HEADER_BITS
    for row in compute.values():
        covered |= envelope.field_bits(row)
    sums, computes = [], []
    for label, _, data in scan_lle_fields.programs(corpus):
        for op in (0x01, 0x03):
            for index, packet in scan_lle_fields.opcode_packets(seg, data, op):
                (sums if op == 0x03 else computes).append((label, index, packet))
    outside = collections.Counter()
    for _, _, packet in sums:
        rest = packet & ~covered
        for b in range(rest.bit_length()):
            if rest >> b & 1:
                outside[b] += 1
    print("%d corpus 0x03s, %d 0x01s" % (len(sums), len(computes)))
    print("set bits of the 0x03s outside 0x01's fields: bit, 0x03s with it, 0x01s with it")
    for b, n in sorted(outside.items()):
        print("  w%d bit %d\t%d / %d\t%d / %d" % (b // 128, b % 128, n, len(sums), sum(1 for _, _, p in computes if p >> b & 1), len(computes)))
    value = lambda p, name, e=0: envelope.field_value(p >> (e * compute[name][4]), (0, compute[name][1], compute[name][2], 1, 0))
    print("set\tprogram\tpc\tbeat groups\tbeats\tgroups\tKCount\ttag\toutput at\tw15[28:0]")
    for label, index, p in sums:
        which = "decide" if any(d in label for d in decide) else "held out"
        print("%s\t%s\t0x%04x\t%d\t%d\t%d\t%d\t%d\t%d\t0x%08x" % (
            which, label, index, value(p, "ComputeK4W0") + 1, value(p, "ComputeLimitW0") + 1, value(p, "ComputeK4W10") + 1,
            value(p, "ComputeKCount"), value(p, "ComputeStreamTag"), value(p, "ComputeOutputAt"), (p >> (15 * 128)) & 0x1FFFFFFF))


if __name__ == "__main__":
    main()
