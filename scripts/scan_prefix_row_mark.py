#!/usr/bin/env python3
"""Is a weight stream's Recv12PrefixBytes8 of 33 one 256-byte prefix row? (docs/decoding-log.md "w3b103" §B)

Over every corpus 0x12 with its nest and Recv12PrefixOn: Bytes8 (w2[63:57]) and Span8 (w2[43:25]); where the stream
has no repeats (one block, Recv12Repeat all 0) and a weight broadcast (0x10 with Dma10WeightFeed, w3 bit 82) after it
names one of its tiles (Dma10BroadcastTiles, w3[98:83]), the broadcast's rows (Dma10BroadcastRows + 1, w0[110:95] + 1)
less the stream's transfers (Run + 1): the prefix rows it carries. Then per program directory (the compile's source)
how many streams carry 32 and 33, and whether any bit of the 0x12 or of the next compute on its tiles other than the two
fields tells 32 from 33. Decode set: the google-coral+edgetpu PoseNet 353x481 quant decoder (the stop); held out: the rest.

  scan_prefix_row_mark.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import programs  # noqa: E402  (the scan scripts' one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402

DECODE_SET = "edgetpu/test_data/posenet/posenet_mobilenet_v1_075_353_481_quant_decoder"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402
    rows = collections.Counter()
    sources = collections.Counter()
    separating = None
    for label, _, data in programs(sys.argv[2]):
        group = "decode" if DECODE_SET in label else "held out"
        words = seg.words(data)
        found, _ = seg.segment(words)
        packets = []
        for index, op, length in found:
            packet = 0
            for k in range(length):
                packet |= words[index + k] << (128 * k)
            packets.append((index, op, packet))
        for i, (pc, op, packet) in enumerate(packets):
            if op != 0x12 or not field(packet, 78, 1) or not field(packet, 256 + 11, 1):
                continue
            bytes8, span8 = field(packet, 256 + 57, 7), field(packet, 256 + 25, 19)
            mask = field(packet, 12, 16)
            sources[(label.split("/")[0], bytes8, span8)] += 1
            compute = next((p for _, o, p in packets[i + 1:] if o == 0x01 and field(p, 12, 16) & mask), None)
            if bytes8 in (32, 33) and compute is not None:
                bits = (packet, compute)
                if separating is None:
                    separating = {32: [None, None], 33: [None, None]}
                for side in (0, 1):
                    ones, zeros = separating[bytes8][side] or (bits[side], ~bits[side])
                    separating[bytes8][side] = (ones & bits[side], zeros & ~bits[side])
            repeats = [field(packet, 128 + 33 * e, 16) for e in range(3)]
            if any(repeats):
                continue
            transfers = field(packet, 95, 16) + 1
            for _, o, p in packets[i + 1:]:
                if o == 0x10 and field(p, 3 * 128 + 82, 1) and field(p, 3 * 128 + 83, 16) & mask:
                    rows[(group, "Bytes8 %d Span8 %d: broadcast rows - transfers = %d" % (bytes8, span8, field(p, 95, 16) + 1 - transfers))] += 1
                    break
    for key, count in sorted(rows.items()):
        print("  %-10s %-60s %d" % (key[0], key[1], count))
    for key, count in sorted(sources.items()):
        print("  %-45s Bytes8 %3d Span8 %3d  %d" % (key + (count,)))
    if separating:
        # Bits constant within each value and different between them (the always-1 of one is always-0 of the other).
        for side, name in ((0, "0x12"), (1, "next compute")):
            ones32, zeros32 = separating[32][side]
            ones33, zeros33 = separating[33][side]
            split = (ones32 & zeros33) | (zeros32 & ones33)
            bits = [b for b in range(17 * 128) if split >> b & 1]
            print("  %s bits that tell 32 from 33: %s" % (name, ", ".join("w%d bit %d" % (b // 128, b % 128) for b in bits) or "none"))


if __name__ == "__main__":
    main()
