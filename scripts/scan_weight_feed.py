#!/usr/bin/env python3
"""The weight feed (docs/decoding-log.md "conv32end"): the nested 0x27 after a stream-feeding pop and
the host-bound send after it, over every corpus program.

Usage: scan_weight_feed.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
Prints, over the corpus: the stream-feeding pops (0x26 with w2[60:59] set) and the nested 0x27s (w0
bits 27 and 120) that follow one before the next feeding pop; for each such 0x27 whether w0[88:74]
equals the pop's w0[103:96], its w0[63:43], whether the next 0x10 is host-bound with its beat nest
(w0[110:95], w1[15:0], ...) counting w0[88:74] + 1 beats, whether w1[69:56] advanced by 16 x the
previous feed's rows; and w3 bit 82 over every host-bound send (after a feed 0x27 or not).
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402


def beats(send):
    n = 1
    for level, (word, lsb) in enumerate([(0, 95), (1, 0), (1, 33), (1, 66), (1, 99)]):
        n *= field(send[word], lsb, 16) + 1
    return n


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    counts = collections.Counter()
    for label, _, data in scan_lle_fields.programs(sys.argv[2]):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        feed = None        # the pop's w0[103:96], while its 0x27 has not come
        armed = None       # the rows of a feed 0x27 whose send has not come
        previous = None    # (w1[69:56], rows) of the chunk's previous feed 0x27
        for i, op, length in packets:
            if op == 0x26 and length >= 4 and field(words[i + 2], 59, 2) != 0:
                counts["stream-feeding pops"] += 1
                counts["feeding pops before the previous one's nested 0x27"] += feed is not None
                feed = field(words[i], 96, 8)
            elif op == 0x27 and field(words[i], 27, 1) and field(words[i], 120, 1):
                if feed is None:
                    counts["nested 0x27 without a feeding pop before it"] += 1
                    continue
                w0, w1 = words[i], words[i + 1]
                rows = field(w0, 74, 15) + 1
                counts["feed 0x27s"] += 1
                counts["feed 0x27: w0[88:74] = the pop's w0[103:96]"] += field(w0, 74, 15) == feed
                counts["feed 0x27: w0[63:43] = %d" % field(w0, 43, 21)] += 1
                counts["feed 0x27: bit 123 = %d" % field(w0, 123, 1)] += 1
                if previous is not None:
                    counts["consecutive feed 0x27s"] += 1
                    counts["  w1[69:56] advanced by 16 x the previous rows"] += (field(w1, 56, 14) - previous[0]) % 16384 == 16 * previous[1] % 16384
                previous = (field(w1, 56, 14), rows)
                armed, feed = rows, None
            elif op == 0x10 and field(words[i + 3], 99, 1):
                send = words[i:i + length]
                if armed is not None:
                    counts["host-bound sends after a feed 0x27"] += 1
                    counts["  bit 82 set"] += field(send[3], 82, 1)
                    counts["  one tile"] += bin(field(send[0], 12, 16)).count("1") == 1
                    counts["  beats = w0[88:74] + 1"] += beats(send) == armed
                    counts["  w1 bits 86, 88 clear"] += field(send[1], 86, 1) == 0 and field(send[1], 88, 1) == 0
                    armed = None
                else:
                    counts["other host-bound sends"] += 1
                    counts["  bit 82 set (other)"] += field(send[3], 82, 1)
    for key, value in sorted(counts.items()):
        print("%6d  %s" % (value, key))


if __name__ == "__main__":
    main()
