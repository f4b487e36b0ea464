#!/usr/bin/env python3
"""The forward marks w1[85:83] of the copied / receive descriptor layout (docs/decoding-log.md "dense11";
lle_fields.def Stage14StreamPrefixForward): over every corpus 0x11 (execution-only and parameter-caching form),
0x12 and 0x14 (compute-feeding, kept-stream and other forms), bits 83 + i of word 1 against the three 17-bit wraps
at w0 bit 111 + 33i (the level i + 1 wraps). Reports, per set (decide: programs whose path contains one of
--decide, default model_dense; held out: the rest) and form: the marks, which wraps are positive and their values,
with a first example; then every packet where a mark and a +1 wrap disagree (none expected), and for the
compute-feeding 0x14s the marks against the packet before them on their first tile (fences skipped) and the
level-1 limit w1[15:0].

Usage: scan_prefix_forward_marks.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys
from scan_lle_fields import bits

DECIDE = ["model_dense_2x2x3x100x100"]
TILE_PACKETS_MAX = 0x20  # opcodes below this carry a tile mask at w0[27:12]
SYNC = 0x1A


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def form_of(op, words, i):
    if op == 0x11:
        return "0x11 execution-only" if bits(words[i + 2], 122, 1) else "0x11 parameter"
    if op == 0x12:
        return "0x12"
    if bits(words[i + 4], 101, 1):
        return "0x14 compute-feeding"
    return "0x14 kept-stream" if words[i + 4] == 0 else "0x14 other"


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from scan_lle_fields import decide_args, programs  # noqa: E402
    _, corpus, decide = decide_args(__doc__, DECIDE)
    import seg  # noqa: E402

    table = collections.Counter()
    first = {}
    disagree = []
    feeding = collections.Counter()
    for label, _, data in programs(corpus):
        which = "decide" if any(d in label for d in decide) else "held out"
        words = seg.words(data)
        packets, _ = seg.segment(words)
        previous = [None] * 16
        for i, op, n in packets:
            if op >= TILE_PACKETS_MAX or op == SYNC:
                continue
            mask = bits(words[i], 12, 16)
            if op in (0x11, 0x12, 0x14):
                form = form_of(op, words, i)
                marks = bits(words[i + 1], 83, 3)
                # w0[127:111], w1[32:16], w1[65:49]: none straddles a word
                wraps = [signed(bits(words[i + (111 + 33 * e) // 128], (111 + 33 * e) % 128, 17), 17) for e in range(3)]
                positive = tuple((e, w) for e, w in enumerate(wraps) if w > 0)
                key = (which, form, marks, positive)
                table[key] += 1
                first.setdefault(key, "%s 0x%04x" % (label[-60:], i))
                for e in range(3):
                    if (marks >> e & 1) != (wraps[e] == 1):
                        disagree.append("%s %s 0x%04x marks %d wraps %s" % (which, label[-60:], i, marks, wraps))
                        break
                if form == "0x14 compute-feeding":
                    tiles = [t for t in range(16) if mask >> t & 1]
                    before = previous[tiles[0]] if tiles else None
                    feeding[(which, marks, wraps[0], wraps[1], bits(words[i + 1], 0, 16),
                             "0x%02x" % before if before is not None else "none")] += 1
            for t in range(16):
                if mask >> t & 1:
                    previous[t] = op

    print("1. (set, form, marks w1[85:83], positive wraps (level - 1, value)): packets, first example")
    for key, count in sorted(table.items()):
        print("  %-8s %-22s marks %d  %-18s %6d  %s" % (key + (count, first[key])))
    print("2. packets whose marks and +1 wraps disagree: %d" % len(disagree))
    for line in disagree[:20]:
        print("  " + line)
    print("3. compute-feeding 0x14s: (set, marks, wrap[0], wrap[1], level-1 limit w1[15:0], packet before on the first tile)")
    for key, count in sorted(feeding.items()):
        if key[1]:
            print("  %-8s marks %d  wraps %d, %d  level-1 limit %d  after %s  %6d" % (key + (count,)))
    print("  (unmarked: %d)" % sum(c for k, c in feeding.items() if not k[1]))


if __name__ == "__main__":
    main()
