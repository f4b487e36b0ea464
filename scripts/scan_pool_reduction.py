#!/usr/bin/env python3
"""The window pools' reduction levels (docs/decoding-log.md "avgp").

Every compute (0x01) of the average pool's form (ComputeInputBytes 0, ComputeCodeW9 0) of every distinct corpus
bitstream: Nest29's iterations (all seven levels), the w10 nest's (all seven), Output37's positions (all seven levels),
the taps of one position = Nest29's iterations / Output37's positions, the w10 levels n whose lowest n counts multiply
to those taps (the reduction's levels; several where a level above runs once), ComputeK4W10 + 1 (the earlier reading's
taps: w10 level 0 alone), the multiplier and its window 1 / multiplier, ComputeCodeW11 and the zero points.
Checks per compute: the nests count alike; the taps are a product of the w10 nest's lowest levels; for the averages
(multiplier below 1) the taps are the multiplier's window (round(1 / multiplier)); ComputeCodeW11 is one of the n.
Programs whose path contains one of --decide (default: the google-coral/edgetpu test_data copy of MobileNet v1 0.25 128,
whose pool @ 0x0880 counts its four output blocks at level 4) are the decode set; the rest are held out.

Usage: scan_pool_reduction.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
"""
import collections
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_lle_envelope as envelope  # noqa: E402
import scan_lle_fields  # noqa: E402

OUTPUT37_FIRST_BIT = 5 * 128 + 8  # models/isa/compute_loop_nest.def: Output37, w5 bit 8, 37-bit slots, 18-bit limits
OUTPUT37_PITCH, OUTPUT37_LIMIT_BITS, LEVELS = 37, 18, 7


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, ["google-coral+edgetpu/test_data/mobilenet_v1_0.25_128_quant_edgetpu"])
    import seg  # noqa: E402
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fields = envelope.field_rows(os.path.join(root, "models", "lle", "lle_fields.def"))

    def v(packet, name, element=0):
        _, first, width, _, stride = fields[name]
        return (packet >> (first + element * stride)) & ((1 << width) - 1)

    def product(counts):
        n = 1
        for c in counts:
            n *= c
        return n

    rows = collections.Counter()
    examples = collections.defaultdict(list)
    for label, which, words, found in scan_lle_fields.distinct_segmented_programs(seg, corpus, decide):
        for index, op, length in found:
            if op != 0x01:
                continue
            p = sum(words[index + k] << (128 * k) for k in range(length))
            if v(p, "ComputeInputBytes") != 0 or v(p, "ComputeCodeW9") != 0:
                continue
            nest29 = [v(p, "ComputeK4W7"), v(p, "ComputeLimit29", 0), v(p, "ComputeLimit29", 1), v(p, "ComputeLimit29Level3")]
            nest29 += [v(p, "ComputeLimit29High", i) for i in range(3)]
            w10 = [v(p, "ComputeK4W10"), v(p, "ComputeLimitW10", 0), v(p, "ComputeLimitW10", 1), v(p, "ComputeLimitW10Level3")]
            w10 += [v(p, "ComputeLimitW10High", i) for i in range(3)]
            out37 = [(p >> (OUTPUT37_FIRST_BIT + OUTPUT37_PITCH * i)) & ((1 << OUTPUT37_LIMIT_BITS) - 1) for i in range(LEVELS)]
            iterations = product(c + 1 for c in nest29)
            positions = product(c + 1 for c in out37)
            taps = iterations // positions if iterations % positions == 0 else None
            levels = [n for n in range(LEVELS + 1) if taps is not None and product(c + 1 for c in w10[:n]) == taps]
            mult = struct.unpack("<f", struct.pack("<I", v(p, "ComputeMult")))[0]
            average = 0.0 < mult < 1.0
            window = round(1.0 / mult) if average else None
            key = (which,
                   "average" if average else "multiplier %g (not an average)" % mult,
                   "nests alike: %s" % (iterations == product(c + 1 for c in w10)),
                   "taps a product of w10's lowest levels: %s" % bool(levels),
                   "taps = window: %s" % (window == taps if average else "-"),
                   "ComputeK4W10 + 1 = taps: %s" % (v(p, "ComputeK4W10") + 1 == taps),
                   "reduction levels %s" % levels,
                   "ComputeCodeW11 %d among them: %s" % (v(p, "ComputeCodeW11"), v(p, "ComputeCodeW11") in levels),
                   "zero points in/weight/out %d/%d/%d" % (v(p, "ComputeZpIn"), v(p, "ComputeZpWeight"), v(p, "ComputeZpOut")))
            rows[key] += 1
            if len(examples[key]) < 4:
                examples[key].append("%s @ 0x%04x (taps %s, positions %d)" % (label.split("/")[-1].split("#")[0], index, taps, positions))
    print("# computes of the average pool's form: %d" % sum(rows.values()))
    for key, n in sorted(rows.items()):
        print("%d\t%s\t%s" % (n, "\t".join(key), "; ".join(examples[key])))


if __name__ == "__main__":
    main()
