#!/usr/bin/env python3
"""The 0x14's row form and the window 0x14s' copied bits (docs/decoding-log.md "rowform"), over every
corpus 0x14. Reports:

  A. w3 bit 103, Stage14SourceOn (w4 bit 30), the row-form bit F = w4 bit 11, whether R = w3[127:123] |
     w4[10:0] << 5 (16 bits from w3 bit 123) and S = w4[29:14] are non-zero, and whether R + S =
     Stage14Groups (w2[59:44]) mod 2^16;
  B. the 0x14s with F and SourceOn: R = Groups - Skip - 1 (Skip = w4[63:50]; the row after the skip) or
     another first part, with the one-hot pair w4[32:31] and w3[122:112] against max(1, (Groups + 1) / 64);
  C. the 0x14s whose next packet on every tile is a 0x11 ("pair14"): the shape of the write nest (a
     window: level 1 counting with address change -Groups, i.e. stride 0), w1[85:82] of the 0x14 and of
     the 0x11, and the 0x11's w0 bit 78 -- where the copy rule misses, per family.

Usage: scan_stage14_row_form.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
The shared reference parsers (seg.py, tfl.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys
from scan_lle_fields import bits


def signed(v, w):
    return v - (1 << w) if v >> (w - 1) else v


def mask(words, i):
    return bits(words[i], 12, 16)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import seg  # noqa: E402
    from scan_lle_fields import programs  # noqa: E402

    a, b, c = collections.Counter(), collections.Counter(), collections.Counter()
    examples = {}
    for label, _, data in programs(sys.argv[2]):
        family = label.split("/")[0]
        words = seg.words(data)
        packets, _ = seg.segment(words)
        tile = [(i, op) for (i, op, _) in packets if op < 0x20 and op != 0x1A]
        for n, (i, op) in enumerate(tile):
            if op != 0x14:
                continue
            w2, w3, w4 = words[i + 2], words[i + 3], words[i + 4]
            groups, skip, on = bits(w2, 44, 16), bits(w4, 50, 14), bits(w4, 30, 1)
            r = bits(w3, 123, 5) | bits(w4, 0, 11) << 5
            s, f = bits(w4, 14, 16), bits(w4, 11, 3)
            a[(bits(w3, 103, 1), on, f, "R,S set" if r or s else "R,S 0",
               "R+S=G" if (r + s) % 65536 == groups else "R+S!=G")] += 1
            if f and on:
                key = ("row after the skip" if r + skip + 1 == groups else "other first part", "w4[32:31]=%d" % bits(w4, 31, 2),
                       "w3[122:112]=max(1,(G+1)/64)" if bits(w3, 112, 11) == max(1, (groups + 1) // 64) else "w3[122:112] other")
                b[key] += 1
                examples.setdefault(key, "%s @ 0x%04x" % (label[-60:], i))
            nexts = {}
            for j, op2 in tile[n + 1:]:
                for t in range(16):
                    if mask(words, i) >> t & 1 and mask(words, j) >> t & 1 and t not in nexts:
                        nexts[t] = (j, op2)
                if len(nexts) == bin(mask(words, i)).count("1"):
                    break
            if not nexts or not all(o == 0x11 for _, o in nexts.values()):
                continue
            j = min(pc for pc, _ in nexts.values())
            outer = bits(w2, 77, 16)
            shape = "window" if outer and signed(bits(w2, 93, 17), 17) == -groups else ("outer" if outer else "flat")
            w1_rest_equal = (words[i + 1] ^ words[j + 1]) & ~(0xF << 82) == 0
            key = (shape, "0x14 w1[85:82]=%d" % bits(words[i + 1], 82, 4), "0x11 w1[85:82]=%d" % bits(words[j + 1], 82, 4),
                   "0x11 w0 bit 78=%d" % bits(words[j], 78, 1), "w1 equal but [85:82]" if w1_rest_equal else "w1 differs elsewhere",
                   family)
            c[key] += 1
            examples.setdefault(key, "%s @ 0x%04x / 0x%04x" % (label[-60:], i, j))
    print("A. (w3 bit 103, SourceOn, F = w4[13:11], R/S, R + S against Stage14Groups)")
    for k, v in sorted(a.items()):
        print("  %6d %s" % (v, k))
    print("B. F and SourceOn: the first part, the pair w4[32:31], w3[122:112]")
    for k, v in sorted(b.items()):
        print("  %6d %s  e.g. %s" % (v, k, examples[k]))
    print("C. paired 0x14s (every tile's next packet a 0x11): nest shape, w1[85:82] of both, the 0x11's w0 bit 78")
    for k, v in sorted(c.items()):
        print("  %6d %s  e.g. %s" % (v, k, examples[k]))


if __name__ == "__main__":
    main()
