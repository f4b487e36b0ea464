#!/usr/bin/env python3
"""The counts of docs/decoding-log.md "identform": what tells the convolutions' identity compute from
the element-wise form, and where a compute's input sits. Reproducible over the whole corpus.

Usage: scan_compute_input.py SHARED_TOOLS_ISA_DIR CORPUS_DIR

Prints four tables:
  A. bits (of all 17 words) constant in every element-wise-nest compute and constant with the other
     value in every identity-nest compute (the form-bit search; K limit 0 in both);
  B. where the value of a 16-bit field at 0x01 w1 bit B (B = 64, 65, 66) points: the 4-byte-unit address
     of a 0x14 write on one of the compute's tiles (w2[26:11], and w2[26:15] x 16 as a control), an
     earlier / later compute's output address / 4 on its tiles, or nothing;
  C. the 0x14 w2[14:11] values (the 4-byte unit inside the 64-byte row of Stage14NarrowAt64) and w2[10:0];
  D. the identity form's Nest37 wraps against W = C x T (C = K limit + 1, T = Nest37 level-1 limit + 1);
  E. 0x01 w1[83:81] against w1[119:118] (the bits that still stop the identity computes).
Packets are read as one little-endian bit string (bit = 128 x word + bit). Programs: as scan_lle_fields.py.
"""
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import packet_bits as bits  # noqa: E402


def nest37(v):
    """(limit, wrap) of the 7 slots of the compute's Nest37 (w1 bit 100, 37-bit pitch: 18 / 2 / 17)."""
    out = []
    for i in range(7):
        b = 100 + 37 * i
        out.append((bits(v, 1, b, 18), bits(v, 1, b + 20, 17, True)))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402  (shared reference tools)
    import scan_lle_fields  # noqa: E402
    programs = []
    for label, _, data in scan_lle_fields.programs(sys.argv[2]):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        seq = []
        for index, op, length in packets:
            if op in (0x01, 0x14):
                v = 0
                for k in range(length):
                    v |= words[index + k] << (128 * k)
                seq.append((op, v, (words[index] >> 12) & 0xFFFF))
        programs.append((label, seq))
    computes = [v for _, seq in programs for op, v, _ in seq if op == 0x01]
    print("# %d compute packets, %d 0x14 packets" % (len(computes), sum(op == 0x14 for _, s in programs for op, _, _ in s)))

    # A. the form-bit search.
    def limits(v):
        return [limit for limit, _ in nest37(v)]
    k0 = [v for v in computes if bits(v, 0, 62, 8) == 0]
    elementwise = [v for v in k0 if limits(v)[:2] == [0, 0] and bits(v, 7, 90, 14) == limits(v)[2]]
    identity = [v for v in k0 if limits(v)[0] == 0 and limits(v)[1] > 0 and limits(v)[2] == 0 and bits(v, 0, 76, 14) > 0]
    separating = []
    for b in range(17 * 128):
        e = {(v >> b) & 1 for v in elementwise}
        i = {(v >> b) & 1 for v in identity}
        if len(e) == 1 and len(i) == 1 and e != i:
            separating.append("w%d bit %d" % (b // 128, b % 128))
    print("A. element-wise nest (K 0, Nest37 levels 0-1 = 0, positions at level 2): %d; identity nest (K 0, "
          "positions at level 1, rows at 3): %d; separating bits: %s" % (len(elementwise), len(identity), separating or "none"))
    print("   modes w15[28:0]: element-wise %s" % Counter(hex(bits(v, 15, 0, 29)) for v in elementwise).most_common(6))
    print("   modes w15[28:0]: identity     %s" % Counter(hex(bits(v, 15, 0, 29)) for v in identity).most_common(6))

    # B. the input-address join.
    for bit in (64, 65, 66):
        for low in (True, False):
            if bit != 65 and not low:
                continue
            table = Counter()
            for _, seq in programs:
                writes = [(bits(v, 2, 11, 16) if low else bits(v, 2, 15, 12) * 16, m) for op, v, m in seq if op == 0x14]
                outs = [(bits(v, 4, 62, 18), m) for op, v, m in seq if op == 0x01]
                n = 0
                for op, v, m in seq:
                    if op != 0x01:
                        continue
                    form = "identity form (w1[83:81] = 1)" if bits(v, 1, 81, 3) == 1 else "other computes"
                    at = bits(v, 1, bit, 16)
                    if at == 0:
                        where = "0"
                    elif any(a == at and wm & m for a, wm in writes):
                        where = "a 0x14 write's address"
                    elif any(o % 4 == 0 and o // 4 == at and om & m for o, om in outs[:n]):
                        where = "an earlier compute's output / 4"
                    elif any(o % 4 == 0 and o // 4 == at and om & m for o, om in outs):
                        where = "a later compute's output / 4"
                    else:
                        where = "none"
                    table[(form, where)] += 1
                    n += 1
            print("B. 0x01 w1[%d:%d] with the 0x14 address read as %s:" % (bit + 15, bit, "w2[26:11]" if low else "w2[26:15] x 16"))
            for key in sorted(table):
                print("   %-32s %-34s %6d" % (key[0], key[1], table[key]))

    # C. the 0x14's low address bits.
    writes = [v for _, seq in programs for op, v, _ in seq if op == 0x14]
    print("C. 0x14 w2[14:11]: %s; w2[10:0] non-zero in %d" % (
        sorted(Counter(bits(v, 2, 11, 4) for v in writes).items()), sum(bits(v, 2, 0, 11) != 0 for v in writes)))

    # D. the identity form's Nest37 wraps.
    table = Counter()
    for v in computes:
        if bits(v, 1, 81, 3) != 1:
            continue
        slots = nest37(v)
        c, t = slots[0][0] + 1, slots[1][0] + 1
        w = c * t
        quarter = (w + 2) // 4  # W / 4 rounded to nearest (.5 up)
        fits = slots[1][1] == w - quarter and all(wrap == -quarter for _, wrap in slots[2:6])
        table[("Nest37 level 2 = 0" if slots[2][0] == 0 else "Nest37 level 2 > 0",
               "wraps W - round(W/4), -round(W/4) x 4" if fits else "other")] += 1
    print("D. identity form (w1[83:81] = 1), Nest37 wraps against W = (K + 1) x T:")
    for key in sorted(table):
        print("   %-20s %-40s %6d" % (key[0], key[1], table[key]))

    # E. the two small fields next to the input address.
    table = Counter((bits(v, 1, 81, 3), bits(v, 1, 118, 2)) for v in computes)
    print("E. 0x01 (w1[83:81], w1[119:118]): %s" % sorted(table.items(), key=lambda item: -item[1]))


if __name__ == "__main__":
    main()
