#!/usr/bin/env python3
"""The host-bound send's outfeed format and the nested 0x27 it meets (docs/decoding-log.md "splitpad").

Usage: scan_outfeed_form.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
Prints, over every corpus program:
  §A  the host-bound 0x10 sends (w3 bit 99) paired in program order with the 0x27s of their chunk (the
      k-th send with the k-th 0x27, whichever comes first: the lle rung's pairing), by the send's
      w2[93:92] / w2[85:84] (Dma10OutfeedForm) and the 0x27's format (w0 bit 120: nested); and the
      slots of every 0x10 by Dma10ReadForm (w1 bits 86 / 88) and destination.
  §B  for the nested 0x27s with w0 bit 123 clear whose send drains a known 0x13 read (same stream tag
      on a shared tile, last before the send): whether (w0[52:43] + 1) x 4 or x 8 is the read's bytes;
      w1 bit 100 and w1[46:45] by format and path; w0[26:12] of the host-bound nested 0x27s against the
      running total of the groups before them (restarting at 0).
Chunks whose host-bound sends and 0x27s differ in number are left out of the pairing and counted.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402


def packet_words(words, index, length, count):
    return [words[index + k] if length > k else 0 for k in range(count)]


def as_int(ws):
    return sum(w << (128 * k) for k, w in enumerate(ws))


def outfeed_format(w0):
    if not field(w0, 27, 1):
        return "line"  # one loop
    return "nested" if field(w0, 120, 1) else "line"  # single line: bit 27 with no loop field


def read_bytes(ws):
    """4 x the product of a 0x13's five limits (Stage13Groups, Stage13OuterLimit)."""
    n = as_int(ws)
    units = field(n, 95, 16) + 1
    for i in range(4):
        units *= field(n, 128 + 33 * i, 16) + 1
    return 4 * units


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402

    pairs = collections.Counter()
    slots = collections.Counter()
    unpaired_chunks = 0
    nested_size = collections.Counter()
    word1 = collections.Counter()
    scalar_at = collections.Counter()
    for _, _, data in scan_lle_fields.programs(sys.argv[2]):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        reads, sends, outfeeds = [], [], []
        for index, op, length in packets:
            if op == 0x13:
                ws = packet_words(words, index, length, 7)
                reads.append((field(ws[0], 12, 16), field(ws[2], 81, 12), read_bytes(ws)))
            elif op == 0x10:
                ws = packet_words(words, index, length, 4)
                slot = (field(ws[2], 92, 2), field(ws[2], 84, 2))
                host = field(ws[3], 99, 1)
                slots[(slot, (field(ws[1], 86, 1), field(ws[1], 88, 1)), "host" if host else "tiles")] += 1
                if host:
                    tag, mask = field(ws[0], 62, 12), field(ws[0], 12, 16)
                    joined = [r for r in reads if r[1] == tag and r[0] & mask]
                    sends.append((slot, joined[-1][2] if joined else None))
            elif op == 0x27:
                w0, w1 = packet_words(words, index, length, 2)
                outfeeds.append((w0, w1))
        if len(sends) != len(outfeeds):
            unpaired_chunks += 1
        else:
            for (slot, read), (w0, w1) in zip(sends, outfeeds):
                form = outfeed_format(w0)
                pairs[(form, slot)] += 1
                if form == "nested" and not field(w0, 123, 1) and read is not None:
                    groups = field(w0, 43, 10) + 1
                    nested_size[("x4 = read bytes", 4 * groups == read)] += 1
                    nested_size[("x8 = read bytes", 8 * groups == read)] += 1
        run = 0
        for w0, w1 in outfeeds:
            form = outfeed_format(w0)
            path = field(w1, 45, 2)
            word1[(form, field(w1, 100, 1), path)] += 1
            if form == "nested" and path == 0:
                at = field(w0, 12, 15)
                if at == 0:
                    run = 0
                scalar_at[at == run] += 1
                run = at + field(w0, 43, 10) + 1
    print("§A host-bound sends paired with their 0x27 (format, (w2[93:92], w2[85:84])):")
    for key, n in sorted(pairs.items()):
        print("  %-8s %s  %d" % (key[0], key[1], n))
    print("  chunks left out (sends and 0x27s differ in number): %d" % unpaired_chunks)
    print("§A every 0x10 ((w2[93:92], w2[85:84]), Dma10ReadForm (bit 86, bit 88), destination):")
    for key, n in sorted(slots.items()):
        print("  %s %s %-5s %d" % (key[0], key[1], key[2], n))
    print("§B nested 0x27 (bit 123 clear) with a joined read: (w0[52:43] + 1) x 4 / x 8 = the read's bytes:")
    for key, n in sorted(nested_size.items()):
        print("  %s %s: %d" % (key[0], key[1], n))
    print("§B 0x27 (format, w1 bit 100, w1[46:45]):")
    for key, n in sorted(word1.items()):
        print("  %s %d %d  %d" % (key[0], key[1], key[2], n))
    print("§B host-bound nested 0x27: w0[26:12] = the running group total (restarting at 0): %s" % dict(scalar_at))


if __name__ == "__main__":
    main()
