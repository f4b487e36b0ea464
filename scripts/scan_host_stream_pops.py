#!/usr/bin/env python3
"""Parameter pops after a compute that took an execution-only 0x11 stream on their tiles (docs/decoding-log.md
"dense43b"): over every distinct corpus bitstream, each parameter pop (0x26, PopIsInput w0 bit 12 clear) whose tiles
(PopTiles w3[40:25]) all have a compute that took a looping execution-only 0x11 stream (w2 bit 122; tag w0[73:62], the
compute's ComputeStreamTag w7[74:63]) and not yet fed, split by PopStreamFeed (w2[60:59]), by whether a parameter-caching
0x11 (w2 bit 122 clear) came on any of its tiles since that compute, and by whether a host-bound weight-feed send (0x10,
Dma10WeightFeed w3 bit 82, Dma10ToOutfeed w3 bit 99) follows before the next pop.

Usage: scan_host_stream_pops.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide NAME...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402
from scan_lle_fields import bits as field  # noqa: E402

DECIDE = ["model_dense_2x2x3x100x100"]


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    import seg  # noqa: E402
    counts = collections.Counter()
    programs = collections.defaultdict(set)
    for label, part, words, packets in scan_lle_fields.distinct_segmented_programs(seg, corpus, decide):
        armed = [None] * 16
        took = [False] * 16      # a compute took the tile's stream, no pop since
        caching = [False] * 16   # a parameter-caching 0x11 on the tile since then
        last = None              # the last classified pop's key, until its send or the next pop
        for i, op, length in packets:
            w = words[i:i + length]
            if op == 0x11 and length >= 3:
                mask = field(w[0], 12, 16)
                for t in range(16):
                    if mask >> t & 1:
                        if field(w[2], 122, 1):
                            armed[t] = field(w[0], 62, 12)
                        else:
                            caching[t] = True
            elif op == 0x01 and length >= 8:
                mask, tag = field(w[0], 12, 16), field(w[7], 63, 12)
                for t in range(16):
                    if mask >> t & 1 and armed[t] == tag:
                        armed[t], took[t], caching[t] = None, True, False
            elif op == 0x26 and length >= 4 and not field(w[0], 12, 1):
                tiles = field(w[3], 25, 16)
                ts = [t for t in range(16) if tiles >> t & 1]
                if ts and all(took[t] for t in ts):
                    key = (part, "PopStreamFeed %d" % field(w[2], 59, 2),
                           "caching 0x11 since" if any(caching[t] for t in ts) else "no caching 0x11")
                    last = key
                    counts[key + ("pops",)] += 1
                    programs[key].add(label.split("/")[-1])
                for t in ts:
                    took[t] = False
            elif op == 0x10 and length >= 4 and field(w[3], 82, 1) and field(w[3], 99, 1) and last is not None:
                counts[last + ("followed by a weight-feed send",)] += 1
                last = None
    for key in sorted(counts):
        print(" | ".join(key), counts[key])
    for key in sorted(programs):
        print(" | ".join(key), "programs:", len(programs[key]), sorted(programs[key])[:6])


if __name__ == "__main__":
    main()
