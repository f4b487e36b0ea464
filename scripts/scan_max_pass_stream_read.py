#!/usr/bin/env python3
"""The reads a compute takes, by taker, and the softmax-form max passes' epilogue (docs/decoding-log.md "nin15").

Part 1: every 0x13 routed (0, 1) (w3 bit 107 without bit 105, w2 bit 97 clear) with w4 bit 35 alone among the consumer marks
(Stage13TakenByCompute without Stage13LeavesTile and the copy marks) of every distinct corpus program: the tile packet just
before it on its tiles (fences aside) and the next compute (0x01 / 0x02 / 0x03) after it on its tiles, each with '=ch' where it
names the read's Stage13Channel (w2[92:81]) as its stream tag (w7[74:63]); Stage13FeedsReduction (w6 bit 31); and, where the
taker after it is an 0x02, whether 4 x (Stage13SlotBeats + 1) (w2[129:114]) = (Max02Groups + 1) x Max02Lanes (w10[22:9],
w9[75:64]). One row per shape with its count and up to four examples.

Part 2: every softmax-form 0x02 (Max02Lanes != 0): the numbers at 0x01's epilogue places -- ZpWeight w14[70:62], ZpIn
w14[86:78], ZpOut w16[37:29], the addend w15[127:125] + w16[28:0] (signed), multiplier and clamps w15[60:29] / [92:61] /
[124:93] -- and whether addend = -ZpOut, ZpWeight = ZpOut and the clamps are [-ZpOut, 255 - ZpOut] (within one float ulp).

Usage: scan_max_pass_stream_read.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
"""
import collections
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402
from scan_lle_fields import bit_range as bits  # noqa: E402

COMPUTES = (0x01, 0x02, 0x03)
READ, FENCE = 0x13, 0x1A


def f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def near(a, b):
    return a == b or (math.isfinite(a) and abs(a - b) <= abs(b) * 2 ** -22 + 2 ** -20)


def taken_reads(label, tp, rows, examples):
    for k, (pc, op, ws, mask) in enumerate(tp):
        if op != READ or not (bits(ws[3], 107, 107) and not bits(ws[3], 105, 105) and not bits(ws[2], 97, 97)):
            continue
        w4 = ws[4]
        if not (bits(w4, 35, 35) and not bits(w4, 39, 39) and not bits(w4, 36, 36) and not bits(w4, 38, 38)):
            continue
        channel = bits(ws[2], 92, 81)
        before, after, fits = set(), set(), ""
        for t in range(16):
            if not mask & (1 << t):
                continue
            for j in range(k - 1, -1, -1):
                _, op2, ws2, m2 = tp[j]
                if m2 & (1 << t) and op2 != FENCE:
                    named = op2 in COMPUTES and len(ws2) > 7 and bits(ws2[7], 74, 63) == channel
                    before.add("%02x%s" % (op2, "=ch" if named else ""))
                    break
            for j in range(k + 1, len(tp)):
                _, op2, ws2, m2 = tp[j]
                if m2 & (1 << t) and op2 in COMPUTES:
                    named = bits(ws2[7], 74, 63) == channel
                    after.add("%02x%s%s" % (op2, "=ch" if named else "", "" if m2 == mask else "/other tiles"))
                    if op2 == 0x02 and named:
                        read_bytes = 4 * (bits(ws[2], 129, 114) + 1)
                        pass_bytes = (bits(ws2[10], 22, 9) + 1) * bits(ws2[9], 75, 64)
                        fits = "bytes %d = %d" % (read_bytes, pass_bytes) if read_bytes == pass_bytes else \
                            "bytes %d != %d" % (read_bytes, pass_bytes)
                    break
        key = ("before " + ",".join(sorted(before)), "next compute " + ",".join(sorted(after)),
               "FeedsReduction %d" % bits(ws[6], 31, 31), fits)
        rows[key] += 1
        if len(examples[key]) < 4:
            examples[key].append("%s @ 0x%04x" % (label.split("/")[-1], pc))


def max_passes(label, words, packets, rows, examples):
    for index, op, n in packets:
        if op != 0x02:
            continue
        ws = list(words[index:index + n]) + [0] * max(0, 17 - n)
        if bits(ws[9], 75, 64) == 0:
            continue  # the max pool form (0x01's layout)
        zp_w, zp_in, zp_out = bits(ws[14], 70, 62), bits(ws[14], 86, 78), bits(ws[16], 37, 29)
        addend = (bits(ws[16], 28, 0) << 3) | bits(ws[15], 127, 125)
        addend -= (1 << 32) if addend >> 31 else 0
        hi, lo = f32(bits(ws[15], 92, 61)), f32(bits(ws[15], 124, 93))
        identity = addend == -zp_out and zp_w == zp_out and zp_in == 0 and near(lo, -zp_out) and near(hi, 255 - zp_out)
        key = ("Z %d" % zp_out, "addend %d" % addend, "ZpWeight %d" % zp_w, "ZpIn %d" % zp_in,
               "mult %.8g" % f32(bits(ws[15], 60, 29)), "clamps [%g, %g]" % (lo, hi),
               "addend = -Z, ZpWeight = Z, clamps [-Z, 255 - Z]: %s" % ("yes" if identity else "NO"))
        rows[key] += 1
        if len(examples[key]) < 3:
            examples[key].append("%s @ 0x%04x" % (label.split("/")[-1], index))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402  (shared reference tools)
    reads, read_examples = collections.Counter(), collections.defaultdict(list)
    passes, pass_examples = collections.Counter(), collections.defaultdict(list)
    for label, _, words, packets in scan_lle_fields.distinct_segmented_programs(seg, sys.argv[2], []):
        tp = [(i, op, words[i:i + n], (words[i] >> 12) & 0xFFFF) for i, op, n in packets if op < 0x20]
        taken_reads(label, tp, reads, read_examples)
        max_passes(label, words, packets, passes, pass_examples)
    print("# reads routed (0, 1) taken by a compute (w4 bit 35 alone): %d" % sum(reads.values()))
    for key, n in sorted(reads.items(), key=lambda x: -x[1]):
        print("%d\t%s\t%s" % (n, "\t".join(key), "; ".join(read_examples[key])))
    print("# softmax-form 0x02 (Max02Lanes != 0): %d" % sum(passes.values()))
    for key, n in sorted(passes.items(), key=lambda x: -x[1]):
        print("%d\t%s\t%s" % (n, "\t".join(key), "; ".join(pass_examples[key])))


if __name__ == "__main__":
    main()
