#!/usr/bin/env python3
"""Execution-only 0x11 receives with one transfer (docs/decoding-log.md "trkrun" §B): over every distinct corpus bitstream,
each execution-form 0x11 (Recv11ExecutionForm w2 bit 122) with its loop form (Recv11ExecInnerLevel w0 bit 78), Recv11ExecRun
(w0[110:95]) 0 and no prefix (Recv11PrefixOn w2 bit 11), classified by what comes next on its tiles: the first pop (0x26) naming
one of its tiles -- a stream-feeding pop (PopStreamFeed w2[60:59] = 3, PopIsInput w0 bit 12 clear) or another --, whether a
compute (0x01) naming the receive's tag (ComputeStreamTag w7[74:63] = Recv11ExecStream w0[73:62]) runs on its tiles before that
pop, whether a 0x14 on its tiles comes just before it (the pop-fed input form's staging write), and whether a host-bound
weight-feed send (0x10, Dma10WeightFeed w3 bit 82, Dma10ToOutfeed w3 bit 99) follows the pop.

Usage: scan_run0_weight_receives.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide NAME...]
Prints counts by class, split decide / held out, and one example of each class.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402
from scan_lle_fields import bits as field  # noqa: E402

DECIDE = ["color_blue_64x64", "color_cyan_64x64", "bright_64x64"]


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    import seg  # noqa: E402
    counts = collections.Counter()
    examples = {}
    for label, part, words, packets in scan_lle_fields.distinct_segmented_programs(seg, corpus, decide):
        plist = [(i, op, length) for i, op, length in packets]
        for n, (i, op, length) in enumerate(plist):
            w = words[i:i + length]
            if op != 0x11 or length < 3 or not field(w[2], 122, 1) or not field(w[0], 78, 1):
                continue
            if field(w[0], 95, 16) != 0 or field(w[2], 11, 1):
                continue
            mask, tag = field(w[0], 12, 16), field(w[0], 62, 12)
            before = plist[n - 1][1] if n > 0 else None
            staged = before == 0x14 and field(words[plist[n - 1][0]], 12, 16) & mask != 0
            compute_first = False
            pop_kind = "no pop"
            feed_send = False
            for j in range(n + 1, len(plist)):
                i2, op2, len2 = plist[j]
                w2 = words[i2:i2 + len2]
                if op2 == 0x01 and len2 >= 8 and field(w2[0], 12, 16) & mask and field(w2[7], 63, 12) == tag:
                    compute_first = True
                if op2 == 0x26 and len2 >= 4 and field(w2[3], 25, 16) & mask:
                    if field(w2[2], 59, 2) == 3 and not field(w2[0], 12, 1):
                        pop_kind = "stream-feeding pop"
                        for k in range(j + 1, min(j + 12, len(plist))):
                            i3, op3, len3 = plist[k]
                            w3 = words[i3:i3 + len3]
                            if op3 == 0x10 and len3 >= 4 and field(w3[3], 82, 1) and field(w3[3], 99, 1):
                                feed_send = True
                                break
                    elif field(w2[0], 12, 1):
                        pop_kind = "input pop"
                    else:
                        pop_kind = "parameter pop (PopStreamFeed %d)" % field(w2[2], 59, 2)
                    break
            key = "%s; compute on its tag before it: %s; 0x14 just before the receive: %s; weight-feed send after: %s" % (
                pop_kind, compute_first, staged, feed_send)
            counts[(part, key)] += 1
            examples.setdefault((part, key), "%s @ 0x%04x tiles 0x%04x tag %d" % (label, i, mask, tag))
    for key, value in sorted(counts.items()):
        print("%6d  %-9s %s" % (value, key[0], key[1]))
    for key, text in sorted(examples.items()):
        print("example", key[0], "|", key[1], "|", text)


if __name__ == "__main__":
    main()
