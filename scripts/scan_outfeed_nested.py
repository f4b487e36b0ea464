#!/usr/bin/env python3
"""Nested outfeed (0x27, w0 bit 27 set and any of w0[127:43] set) scanner (docs/decoding-log.md "outfeed27").

Usage: scan_outfeed_nested.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
Prints, over every corpus program: the 0x27 forms (one-loop, single line, nested), for the nested
form the value counts of w0 bit 120, bit 123, w0[127:121], the 10-bit fields at w0[73:64] and
w0[104:95] and the bits 89 / 120 after them, whether w0[73:64] == w0[104:95], the distinct w1 values,
and the opcode of the next tile packet after each nested 0x27 (and, for a 0x10, its Dma10ToOutfeed).
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    forms = collections.Counter()
    nested = collections.Counter()
    w1s = collections.Counter()
    after = collections.Counter()
    same = collections.Counter()
    programs = collections.Counter()
    for label, _, data in scan_lle_fields.programs(sys.argv[2]):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        for j, (index, op, length) in enumerate(packets):
            if op != 0x27:
                continue
            w0 = words[index]
            w1 = words[index + 1] if length > 1 else 0
            single = field(w0, 27, 1)
            loops = field(w0, 43, 21) != 0 or (w0 >> 64) != 0
            form = "one-loop" if not single else ("nested" if loops else "single line")
            forms[form] += 1
            if form != "nested":
                continue
            programs[label.split("#")[0]] += 1
            nested[(field(w0, 120, 1), field(w0, 123, 1), field(w0, 121, 7) & ~0x5, field(w0, 89, 1))] += 1
            same[field(w0, 64, 10) == field(w0, 95, 10)] += 1
            w1s["%032x" % w1] += 1
            nxt = next(((op2, words[i2 + 3] if l2 > 3 else 0) for i2, op2, l2 in packets[j + 1:] if op2 not in (0x20, 0x21)),
                       (None, 0))
            after[(nxt[0], field(nxt[1], 99, 1) if nxt[0] == 0x10 else None)] += 1
    print("0x27 forms:", dict(forms))
    print("nested (bit120, bit123, w0[127:121] other bits, bit89):", dict(nested))
    print("nested w0[73:64] == w0[104:95]:", dict(same))
    print("nested w1 values: %d distinct; top:" % len(w1s), w1s.most_common(5))
    print("next non-scalar packet after a nested 0x27 (opcode, Dma10ToOutfeed):", dict(after))
    print("programs with nested 0x27s: %d" % len(programs))


if __name__ == "__main__":
    main()
