#!/usr/bin/env python3
"""The computes a host-bound weight feed serves (docs/decoding-log.md "feed2"): over every corpus bitstream, each
stream-feeding pop (0x26, PopStreamFeed = w2[60:59] = 3) with the computes that took an execution-only 0x11 stream
(w2 bit 122; tag Recv11ExecStream w0[73:62]) on its tiles since the previous such pop (a compute takes the stream
when its ComputeStreamTag w7[74:63] is the tag armed on its tiles), and the weight-feed send after it (0x10 with
Dma10WeightFeed w3 bit 82 and Dma10ToOutfeed w3 bit 99; its one tile w0[27:12], Dma10Channel w0[73:62]).

Usage: scan_feed_takers.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide NAME...]
Prints counts: feeds by number of taking computes, whether their tile masks are disjoint and cover the pop's tiles
(PopTiles w3[40:25]), whether they take one tag, where the send's tile is among them; split decide / held out.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402
from scan_lle_fields import bits as field  # noqa: E402

DECIDE = ["posenet_mobilenet_v1_075_353_481_16_quant_decoder", "posenet_mobilenet_v1_075_481_641_16_quant_decoder"]


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    import seg  # noqa: E402
    counts = collections.Counter()
    examples = {}
    for label, part, words, packets in scan_lle_fields.distinct_segmented_programs(seg, corpus, decide):
        armed = [None] * 16      # exec-form 0x11 tag per tile
        takers = []              # (pc, mask, tag) since the last feeding pop
        fed = None               # (pop pc, pop tiles, takers) until its send
        for i, op, length in packets:
            w = words[i:i + length]
            if op == 0x11 and length >= 3 and field(w[2], 122, 1):
                mask = field(w[0], 12, 16)
                for t in range(16):
                    if mask >> t & 1:
                        armed[t] = field(w[0], 62, 12)
            elif op == 0x12:  # a 0x12 stream (a broadcast's, "bcast") takes the tiles' next compute instead
                mask = field(w[0], 12, 16)
                for t in range(16):
                    if mask >> t & 1:
                        armed[t] = None
            elif op == 0x01 and length >= 8:
                mask, tag = field(w[0], 12, 16), field(w[7], 63, 12)
                if any(mask >> t & 1 and armed[t] == tag for t in range(16)):
                    takers.append((i, mask, tag))
                    for t in range(16):
                        if mask >> t & 1 and armed[t] == tag:
                            armed[t] = None
            elif op == 0x26 and length >= 4 and field(w[2], 59, 2) == 3:
                tiles = field(w[3], 25, 16)
                mine = [k for k in takers if k[1] & tiles]
                takers = [k for k in takers if not k[1] & tiles]
                fed = (i, tiles, mine)
            elif op == 0x10 and length >= 4 and not field(w[3], 99, 1) and field(w[3], 83, 16):
                to = field(w[3], 83, 16)  # a send between tiles (a ring weight feed, "c10w0"): its takers are fed
                takers = [k for k in takers if k[1] & ~to]
            elif op == 0x10 and length >= 4 and field(w[3], 82, 1) and field(w[3], 99, 1) and fed is not None:
                pop, tiles, mine = fed
                fed = None
                sender = field(w[0], 12, 16)
                n = len(mine)
                counts[(part, "feeds")] += 1
                counts[(part, "feeds with %d taking computes" % n)] += 1
                union = 0
                disjoint = True
                for _, m, _ in mine:
                    disjoint = disjoint and not (union & m)
                    union |= m
                counts[(part, "  n=%d: masks disjoint" % n)] += disjoint
                counts[(part, "  n=%d: one tag" % n)] += len({k[2] for k in mine}) == 1
                where = [j for j, k in enumerate(mine) if k[1] & sender]
                counts[(part, "  n=%d: the sender's tile is in %d taker(s)" % (n, len(where)))] += 1
                counts[(part, "  n=%d: the takers' tiles are all the pop's tiles" % n)] += union == tiles
                if not disjoint:
                    counts[(part, "overlapping takers in " + label.split("#")[0].split("/")[-1])] += 1
                key = (part, n)
                if n > 1 and key not in examples:
                    examples[key] = "%s pop @ 0x%04x tiles 0x%04x, takers %s, send @ 0x%04x tile 0x%04x row %d" % (
                        label, pop, tiles, ", ".join("0x%04x mask 0x%04x tag %d" % k for k in mine), i, sender, field(w[0], 62, 12))
    for key, value in sorted(counts.items()):
        print("%6d  %-9s %s" % (value, key[0], key[1]))
    for key, text in sorted(examples.items()):
        print("example", key, text)


if __name__ == "__main__":
    main()
