#!/usr/bin/env python3
"""The computes after every corpus 0x03 (docs/decoding-log.md "trk14"): on the 0x03's tiles, the next two 0x01 computes
(the squaring of the table's result and the compute after it) and the 0x13 read between them, with the fields that say what
they read and write; then the distinct field signatures (addresses left out) and how many 0x03 chains share each.
Programs whose path contains one of --decide (default bright_64x64) are the decode set; the rest are held out.

Usage: scan_sum03_chain.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_lle_envelope as envelope  # noqa: E402  (the .def readers)
import scan_lle_fields  # noqa: E402

SHAPE = ["ComputeK4W0", "ComputeK4W1", "ComputeK4W7", "ComputeK4W10", "ComputeKCount", "ComputeInputBytes", "ComputeOut37Limit0",
         "ComputeStreamTag", "ComputeWideWeights", "ComputeUnsignedWideWeights", "ComputeSixteenBitResults", "ComputeNluApply"]
ADDRESSES = ["ComputeInputAt4", "ComputeOutputAt"]


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, ["bright_64x64"])
    import seg  # noqa: E402
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fields = envelope.field_rows(os.path.join(root, "models", "lle", "lle_fields.def"))

    def value(packet, name, element=0):
        _, first, width, _, stride = fields[name]
        return (packet >> (first + element * stride)) & ((1 << width) - 1)

    def f32(bits):
        return struct.unpack("<f", struct.pack("<I", bits))[0]

    def compute(packet):
        shape = ["%s %d" % (n[7:], value(packet, n)) for n in SHAPE]
        shape.append("LimitW0 %s" % [value(packet, "ComputeLimitW0", e) for e in range(3)])
        shape.append("Limit29 %s" % [value(packet, "ComputeLimit29", e) for e in range(2)])
        shape.append("LimitW10 %s" % [value(packet, "ComputeLimitW10", e) for e in range(2)])
        shape.append("weight carry 4 x %d + %d" % (value(packet, "ComputeKWrapW7") - (1 << 13) * (value(packet, "ComputeKWrapW7") >> 12),
                                                  value(packet, "ComputeNest29CarryLow")))
        shape.append("mult %.9g clamps [%g, %g]" % (f32(value(packet, "ComputeMult")), f32(value(packet, "ComputeClampLo")),
                                                    f32(value(packet, "ComputeClampHi"))))
        shape.append("w14[54:51] %d" % ((packet >> (14 * 128 + 51)) & 15))
        return ", ".join(shape), " ".join("%s %d" % (n[7:], value(packet, n)) for n in ADDRESSES)

    signatures = collections.Counter()
    for label, _, data in scan_lle_fields.programs(corpus):
        words = seg.words(data)
        found, _ = seg.segment(words)
        which = "decide" if any(d in label for d in decide) else "held out"
        for i, (index, op, length) in enumerate(found):
            if op != 0x03:
                continue
            mask = (words[index] >> 12) & 0xFFFF
            sum_packet = sum(words[index + k] << (128 * k) for k in range(length))
            print("%s\t%s\t0x03 @ 0x%04x: output at %d, %d groups" % (which, label, index, value(sum_packet, "ComputeOutputAt"),
                                                                       value(sum_packet, "ComputeK4W10") + 1))
            chain = []
            for index2, op2, length2 in found[i + 1:]:
                if op2 not in (0x01, 0x13) or not (words[index2] >> 12) & mask:
                    continue
                packet = sum(words[index2 + k] << (128 * k) for k in range(length2))
                if op2 == 0x01:
                    shape, addresses = compute(packet)
                    chain.append("compute: " + shape)
                    print("\t0x01 @ 0x%04x: %s; %s" % (index2, shape, addresses))
                    if len([c for c in chain if c.startswith("compute")]) == 2:
                        break
                else:
                    read = "read: %d units on stream %d, route %s, taken by compute %d" % (
                        value(packet, "Stage13Groups") + 1, value(packet, "Stage13Channel"),
                        [value(packet, "Stage13Route", e) for e in range(2)], value(packet, "Stage13TakenByCompute"))
                    chain.append(read)
                    print("\t0x13 @ 0x%04x: %s from narrow %d" % (index2, read, 4 * value(packet, "Stage13NarrowAt4")))
            signatures[tuple(chain)] += 1
    print("%d distinct chains over %d 0x03s" % (len(signatures), sum(signatures.values())))
    for chain, n in signatures.most_common():
        print("%d x\n  %s" % (n, "\n  ".join(chain)))


if __name__ == "__main__":
    main()
