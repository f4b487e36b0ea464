#!/usr/bin/env python3
"""The execution-only receive's w1[98:88] (Recv11ExecCount, docs/decoding-log.md "count11") against its
loop: per w0 bit 78 (Recv11ExecInnerLevel), whether the count equals Recv11ExecRun + 1, is 0, or
something else, split by what next feeds the receive's tiles, over a decide set (programs whose path
contains one of DECIDE: add_128_128, voice_commands, the Dense templates) and the held-out rest.
Usage: scripts/scan_recv11_exec_count.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
"""
import collections
import sys

import scan_recv11_exec_form as form
from scan_recv11_exec_form import bits

DECIDE = ["add_128_128", "voice_commands", "templates/dense_256_edgetpu", "templates/dense_1024_edgetpu"]


def main():
    tools, corpus = sys.argv[1], sys.argv[2]
    tally = collections.Counter()
    others = collections.Counter()
    for label, packets in form.programs(tools, corpus):
        split = "decide" if any(d in label for d in DECIDE) else "held-out"
        for at, (_, op, packet) in enumerate(packets):
            if op != 0x11 or not bits(packet, 256 + 122, 1):
                continue
            inner = bits(packet, 78, 1)
            run = bits(packet, 95, 16)
            count = bits(packet, 128 + 88, 11)
            kind = "run+1" if count == run + 1 else "0" if count == 0 else "1" if count == 1 else "other"
            tally[(split, inner, kind, form.next_carrier(packets, at))] += 1
            if kind == "other" and inner:
                others[(label.split("/")[-1], run, count)] += 1
    for key, n in sorted(tally.items()):
        print("%-8s bit78=%d count=%-5s fed by %-12s %5d" % (*key, n))
    for key, n in sorted(others.items()):
        print("other:", key, n)


if __name__ == "__main__":
    main()
