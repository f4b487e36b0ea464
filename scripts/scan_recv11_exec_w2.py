#!/usr/bin/env python3
"""The execution-only receive's w2[118:94] (docs/decoding-log.md "w2recv"): by w2 bit 106
(Recv11ExecWideValue), whether w2[118:112] equals Recv11ExecCount (w1[98:88]) or Run + 1 (w0[110:95]),
and whether w2[105:94] (signed) equals -4 x w2[118:112],
over a decide set (add_128_128, conv2d 12x128x128, MobileNet v1 0.25) and the held-out rest.
Usage: scripts/scan_recv11_exec_w2.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
"""
import collections
import sys

import scan_recv11_exec_form as form
from scan_recv11_exec_form import bits

DECIDE = ["add_128_128", "conv2d_12x128x128_", "mobilenet_v1_0.25_128_quant_edgetpu"]


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def main():
    tools, corpus = sys.argv[1], sys.argv[2]
    tally = collections.Counter()
    for label, packets in form.programs(tools, corpus):
        split = "decide" if any(d in label for d in DECIDE) else "held-out"
        for _, op, packet in packets:
            if op != 0x11 or not bits(packet, 256 + 122, 1):
                continue
            wide = bits(packet, 256 + 106, 1)
            count = bits(packet, 128 + 88, 11)
            run = bits(packet, 95, 16)
            rows = bits(packet, 256 + 112, 7)
            rewind = signed(bits(packet, 256 + 94, 12), 12)
            rows_kind = "count" if rows == count else "run+1" if rows == run + 1 else "0" if rows == 0 else "other"
            tally[(split, wide, rows_kind, "-4 x rows" if rewind == -4 * rows else "other")] += 1
    for (split, wide, rows_kind, kind), n in sorted(tally.items()):
        print("%-8s bit106=%d w2[118:112]=%-5s w2[105:94] %-9s %5d" % (split, wide, rows_kind, kind, n))


if __name__ == "__main__":
    main()
