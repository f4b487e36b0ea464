#!/usr/bin/env python3
"""Weight broadcasts that carry one 0x12 stream together (docs/decoding-log.md "halo" §B).

Usage: scan_broadcast_parts.py CORALSIM CORPUS_DIR

For every distinct corpus program (as scripts/lle-stops.py picks them) it reads `CORALSIM disasm --fields` and
groups the weight broadcasts (0x10 with Dma10WeightFeed set and Dma10ToOutfeed clear) that follow one 0x12 with
no compute or other 0x12 between them. For each group of two or more it prints the senders (tile, Dma10Channel,
Dma10BroadcastRows + 1) and whether their rows add up to the stream's: its transfers
(Recv12Run + 1) x the product of (Recv12Repeat + 1), plus its prefix arrays (Recv12PrefixBytes8 / 32 with
Recv12PrefixOn) once for each of its (Recv12Repeat[1] + 1) x (Recv12Repeat[2] + 1) blocks -- the stream's blocks
as the 0x12 names them, before a compute-feeding write restates them. Ends with the counts by group size.
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import distinct_program_files as distinct_programs  # noqa: E402

PACKET = re.compile(r"^([0-9a-f]{4,}): (\S+)")
FIELD = re.compile(r"(\w+)=([\d,]+)")


def stream_rows(fields):
    repeats = fields.get("Recv12Repeat", [0, 0, 0])
    transfers = fields["Recv12Run"][0] + 1
    for r in repeats:
        transfers *= r + 1
    prefix = fields["Recv12PrefixBytes8"][0] // 32 if fields.get("Recv12PrefixOn", [0])[0] else 0
    return transfers + prefix * (repeats[1] + 1) * (repeats[2] + 1)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    coralsim, corpus = sys.argv[1], sys.argv[2]
    counts = collections.Counter()
    for path in distinct_programs(corpus):
        listing = subprocess.run([coralsim, "disasm", path, "--fields"], capture_output=True, text=True).stdout.split("\n")
        stream = None  # (pc, rows) of the last 0x12
        group = []

        def close():
            if stream and group:
                size = len(group)
                counts["groups of %d" % size] += 1
                if size > 1:
                    carried = sum(rows for _, _, rows in group)
                    counts["groups of %d adding up to the stream's rows" % size] += carried == stream[1]
                    print("%s: 0x12 @ %s (%d rows): %s = %d" % (os.path.basename(path), stream[0], stream[1],
                          " + ".join("%d from tile %d row %d" % (rows, tile, row) for tile, row, rows in group), carried))
            group.clear()

        for i, line in enumerate(listing):
            m = PACKET.match(line)
            if not m:
                continue
            fields = {k: [int(x) for x in v.split(",")] for k, v in FIELD.findall(listing[i + 1] if i + 1 < len(listing) else "")}
            if m.group(2) == "tile.dma10" and fields.get("Dma10WeightFeed", [0])[0] == 1 and fields.get("Dma10ToOutfeed", [1])[0] == 0:
                group.append((fields["Dma10Mask"][0].bit_length() - 1, fields["Dma10Channel"][0], fields["Dma10BroadcastRows"][0] + 1))
            elif m.group(2) == "tile.dma12":
                close()
                stream = (m.group(1), stream_rows(fields))
            elif m.group(2) == "tile.compute" and group:
                close()
        close()
    for key, value in sorted(counts.items()):
        print("%6d  %s" % (value, key))


if __name__ == "__main__":
    main()
