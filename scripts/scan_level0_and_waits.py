#!/usr/bin/env python3
"""Two measurements of docs/decoding-log.md "templates" over every corpus program:

  A. every distinct 0x14 / 0x11 pair (the 0x14's every tile's next tile packet a 0x11, fences skipped: the
     rung's pairing, "pair14") whose copied w0[127:62] agrees: the copy's w1 against the receive's, split
     into the wait count (w1[98:88], Recv11ExecCount), step (w1[85:82]), flag A (w1 bit 86), other bits,
     and by whether the receive's run (w0[110:95]) is 0;
  B. every distinct compute packet (0x01): the K loop's level 0 read as whole slot limits — w0[75:62],
     Nest29's w7[103:90], the w10 nest's w10[22:9] (14 bits each) and Nest37's w1[117:100] (18 bits) —
     whether any bit above the low 8 is set, and whether the w0 value equals Nest29's / the w10 nest's /
     Nest37's.

Split into a decide set (programs whose path contains one of --decide; default: the LibrEdgeTPU 64x64
colour templates) and the held-out rest.

Usage: scan_level0_and_waits.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys
from scan_lle_fields import bits

DECIDE = ["_64x64_edgetpu"]
COPY_W0 = ((1 << 128) - 1) ^ ((1 << 62) - 1)  # w0[127:62]
TILE_PACKETS_MAX = 0x20
SYNC = 0x1A


def mask_of(words, index):
    return bits(words[index], 12, 16)


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from scan_lle_fields import decide_args, programs  # noqa: E402
    _, corpus, decide = decide_args(__doc__, DECIDE)
    import seg  # noqa: E402

    waits = collections.Counter()
    wait_examples = collections.defaultdict(set)
    level0 = collections.Counter()
    level0_examples = collections.defaultdict(set)
    seen_pairs, seen_computes = set(), set()
    for label, _, data in programs(corpus):
        which = "decide" if any(d in label for d in decide) else "held out"
        words = seg.words(data)
        packets, _ = seg.segment(words)
        tile = [(i, op) for (i, op, _) in packets if op < TILE_PACKETS_MAX and op != SYNC]
        for n, (i, op) in enumerate(tile):
            if op == 0x01:
                key = tuple(words[i:i + 17])
                if key in seen_computes:
                    continue
                seen_computes.add(key)
                w0, w7, w10 = bits(words[i], 62, 14), bits(words[i + 7], 90, 14), bits(words[i + 10], 9, 14)
                w1 = bits(words[i + 1], 100, 18)
                high = w0 >> 8 or w7 >> 8 or w10 >> 8 or w1 >> 8
                row = (which, "a bit above the low 8" if high else "low 8 bits only",
                       "w0 = Nest29" if w0 == w7 else "w0 != Nest29",
                       "w10 = Nest29" if w10 == w7 else "w10 != Nest29",
                       "Nest37 = w0" if w1 == w0 else "Nest37 != w0")
                level0[row] += 1
                if high:
                    level0_examples[row].add("%s %d/%d/%d/%d" % (label.split("/")[-1][:40], w0, w7, w10, w1))
                continue
            if op != 0x14:
                continue
            nexts = {}
            for j, op2 in tile[n + 1:]:
                for t in range(16):
                    if mask_of(words, i) >> t & 1 and mask_of(words, j) >> t & 1 and t not in nexts:
                        nexts[t] = (j, op2)
                if len(nexts) == bin(mask_of(words, i)).count("1"):
                    break
            if not nexts or not all(op2 == 0x11 for _, op2 in nexts.values()):
                continue
            for j in sorted({pc for pc, _ in nexts.values()}):
                key = (words[i], words[i + 1], words[j], words[j + 1], words[j + 2])
                if key in seen_pairs or words[i] & COPY_W0 != words[j] & COPY_W0:
                    continue
                seen_pairs.add(key)
                differ = words[i + 1] ^ words[j + 1]
                if not differ:
                    waits[(which, "w1 equal", "")] += 1
                    continue
                count_c, count_p = bits(words[i + 1], 88, 11), bits(words[j + 1], 88, 11)
                count = ("count equal" if count_c == count_p else
                         "copy count 0, receive %s" % ("0" if not count_p else "> 0") if count_c == 0 else "copy count other")
                rest = differ & ~((0x7FF << 88) | (0xF << 82) | (1 << 86))
                row = (which, "run 0" if bits(words[j], 95, 16) == 0 else "run > 0",
                       count + ("; step differs" if bits(differ, 82, 4) else "") + ("; flag A differs" if bits(differ, 86, 1) else "")
                       + ("; other bits" if rest else ""))
                waits[row] += 1
                wait_examples[row].add(label.split("/")[-1][:40])

    print("A. 0x14 / 0x11 pairs whose w0 copy agrees (distinct pairs): the copy's w1 against the receive's")
    for row, c in sorted(waits.items()):
        print("  %-9s %-8s %-70s %5d  %s" % (row + (c, ", ".join(sorted(wait_examples[row])[:4]))))
    print("\nB. distinct computes: the K loop's level 0 as whole slot limits (w0 / Nest29 / w10 / Nest37)")
    for row, c in sorted(level0.items()):
        print("  %-9s %-22s %-13s %-14s %-14s %5d  %s" % (row + (c, ", ".join(sorted(level0_examples[row])[:3]))))


if __name__ == "__main__":
    main()
