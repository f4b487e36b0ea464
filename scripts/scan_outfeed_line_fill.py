#!/usr/bin/env python3
"""The line-form outfeed's bytes against its host-bound read's (docs/decoding-log.md "loomout").

Usage: scan_outfeed_line_fill.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
Prints, over every corpus program (raw .coral and every executable's chunks):
  §A  the host-bound 0x10 sends of the line format (w3 bit 99; Dma10OutfeedForm w2[93:92], w2[85:84] = 2, 2) paired in
      program order with the line-format 0x27s of their chunk (bit 27 clear, or bit 27 with bit 120 clear), each send
      joined to the last 0x13 before it on a shared tile with its stream tag: the read's bytes (4 x its five limits + 1)
      against the 0x27's (8 x (OutfeedLines + 1)), by relation; chunks whose two counts differ are counted, not paired.
  §B  per executable holding a line-format 0x27: whether the line-format 0x27s' bytes add up to its output layers'
      size_bytes, split by whether it holds a §A pair whose read is shorter than its line; and its output layers'
      tile row sizes (x_local_row_size) that are 4 mod 8.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the one corpus walk)
from scan_outfeed_form import field, outfeed_format, packet_words, read_bytes  # noqa: E402


def pairs_of(seg, data):
    """(read bytes or None, line bytes) of every line-form send / 0x27 pair of one chunk; None if unpaired."""
    words = seg.words(data)
    packets, _ = seg.segment(words)
    reads, sends, lines = [], [], []
    for index, op, length in packets:
        if op == 0x13:
            ws = packet_words(words, index, length, 7)
            reads.append((field(ws[0], 12, 16), field(ws[2], 81, 12), read_bytes(ws)))
        elif op == 0x10:
            ws = packet_words(words, index, length, 4)
            if field(ws[3], 99, 1) and (field(ws[2], 92, 2), field(ws[2], 84, 2)) == (2, 2):
                tag, mask = field(ws[0], 62, 12), field(ws[0], 12, 16)
                joined = [r for r in reads if r[1] == tag and r[0] & mask]
                sends.append(joined[-1][2] if joined else None)
        elif op == 0x27:
            w0 = packet_words(words, index, length, 1)[0]
            if outfeed_format(w0) == "line":
                lines.append(8 * (field(w0, 43, 21) + 1))
    if len(sends) != len(lines):
        return None, sum(lines)
    return list(zip(sends, lines)), sum(lines)


def relation(read, line):
    if read is None:
        return "no read joined"
    if read == line:
        return "read = line bytes"
    if read % 8 == 4 and read + 4 == line:
        return "read = 4 mod 8, line = read + 4 (the read rounded up to 8)"
    return "other (read %d, line %d)" % (read, line)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402

    rel, rel_programs = collections.Counter(), collections.defaultdict(set)
    unpaired = 0
    for label, _, data in scan_lle_fields.programs(sys.argv[2]):
        pairs, _ = pairs_of(seg, data)
        if pairs is None:
            unpaired += 1
            continue
        for read, line in pairs:
            r = relation(read, line)
            rel[r] += 1
            rel_programs[r].add(label.split("#")[0])
    print("§A line-form host-bound sends and their 0x27 (pairs, programs):")
    for r, n in sorted(rel.items()):
        print("  %-62s %5d  %d" % (r, n, len(rel_programs[r])))
    print("  chunks left out (line-form sends and 0x27s differ in number): %d" % unpaired)

    sizes, half_rows = collections.Counter(), collections.Counter()
    for relpath, _, _, exe in scan_lle_fields.executables(sys.argv[2]):
        total, short = 0, False
        for bitstream in exe["bitstreams"]:
            pairs, lines = pairs_of(seg, bitstream["bitstream"])
            total += lines
            short = short or any(read is not None and read < line for read, line in (pairs or []))
        if total == 0:
            continue
        size = sum(o["size_bytes"] for o in exe["outputs"])
        sizes[("holds a short read" if short else "no short read", "line bytes = size_bytes" if total == size else "differ")] += 1
        rows = [r for o in exe["outputs"] for r in (o.get("layout") or {}).get("x_local_row_size") or []]
        half_rows[("holds a short read" if short else "no short read", any(r % 8 == 4 for r in rows))] += 1
    print("§B executables with a line-form 0x27: sum of their line bytes against the output layers' size_bytes:")
    for k, n in sorted(sizes.items()):
        print("  %-20s %-24s %d" % (k[0], k[1], n))
    print("§B the same executables: an output tile row (x_local_row_size) of 4 mod 8 bytes:")
    for k, n in sorted(half_rows.items()):
        print("  %-20s %-6s %d" % (k[0], k[1], n))


if __name__ == "__main__":
    main()
