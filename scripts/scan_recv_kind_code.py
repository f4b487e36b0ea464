#!/usr/bin/env python3
"""The stream receives' w2[87:81] (docs/decoding-log.md "mnv1d"): every execution-only 0x11 (w2[123:122] = 3) and
every 0x12 of every distinct corpus bitstream, its w2[87:81] against what the receive is for:

  - its form: w2 bit 106 (Recv11ExecWideValue; set in every 0x12), w0 bit 78 (the loop nest), w2 bit 11 (a prefix);
  - "block prefixes": the next tile packet on its first tile (fences skipped) is a compute-feeding 0x14
    (Stage14FeedsCompute) of the receive's tag (Stage14FeedTag = w0[73:62]) that names one stream prefix array
    (Stage14StreamPrefixArrays 1, Stage14StreamPrefixOn) and as many blocks as the receive's run
    (Stage14StreamPrefixBlocks = w0[110:95]): "nin14" §A's receive that streams one prefix a block of the compute
    after the write;
  - otherwise the next packet's opcode on that tile.

Prints one row per (code, form, kind) with counts and the programs, then the decide / held-out split per code.
Decide set (--decide SUBSTRING...; default: ensemble and MobileNet v1 0.25 128 co-compiled with 3quant); held out:
every other program.

Usage: scan_recv_kind_code.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402
from scan_lle_fields import bits  # noqa: E402
import gen_lle_envelope  # noqa: E402

DECIDE = ["ensemble_edgetpu", "mobilenet_v1_0.25_128_quant_cocompiled_with_3quant"]
DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "lle", "lle_fields.def")


def main():
    tools, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    import seg  # noqa: E402
    rows = gen_lle_envelope.field_rows(DEF)

    def field(packet, name):
        return gen_lle_envelope.field_value(packet, rows[name])

    kinds = collections.Counter()
    programs = collections.defaultdict(set)
    split = collections.Counter()
    for label, part, words, found in scan_lle_fields.distinct_segmented_programs(seg, corpus, decide):
        packets = [(i, op, sum(words[i + k] << (128 * k) for k in range(n))) for i, op, n in found]
        for at, (pc, op, packet) in enumerate(packets):
            if op == 0x11 and bits(packet, 256 + 122, 2) != 3:
                continue
            if op not in (0x11, 0x12):
                continue
            code = bits(packet, 256 + 81, 7)
            wide = bits(packet, 256 + 106, 1)
            inner = bits(packet, 78, 1)
            prefix = bits(packet, 256 + 11, 1)
            tag = bits(packet, 62, 12)
            run = bits(packet, 95, 16)
            mask = bits(packet, 12, 16)
            first = mask & -mask
            kind = "end"
            for _, nop, npacket in packets[at + 1:]:
                if nop >= 0x20 or nop == 0x1a or not bits(npacket, 12, 16) & first:
                    continue
                kind = "0x%02x" % nop
                if (nop == 0x14 and field(npacket, "Stage14FeedsCompute") and field(npacket, "Stage14FeedTag") == tag
                        and field(npacket, "Stage14StreamPrefixArrays") == 1 and field(npacket, "Stage14StreamPrefixOn")
                        and field(npacket, "Stage14StreamPrefixBlocks") == run):
                    kind = "block prefixes"
                break
            key = (op, code, wide, inner, prefix, kind)
            kinds[key] += 1
            programs[key].add(os.path.basename(label.split("#")[0]).replace("_edgetpu.tflite", ""))
            split[(code, part, kind == "block prefixes")] += 1
    print("opcode\tw2[87:81]\tw2 bit 106\tw0 bit 78\tw2 bit 11\tnext on its first tile\treceives\tprograms")
    for key in sorted(kinds):
        names = sorted(programs[key])
        shown = ", ".join(names[:4]) + (" … (%d)" % len(names) if len(names) > 4 else "")
        print("0x%02x\t%d\t%d\t%d\t%d\t%s\t%d\t%s" % (key[0], key[1], key[2], key[3], key[4], key[5], kinds[key], shown))
    print("\nw2[87:81]\tset\tblock-prefix receives\tothers")
    for code in sorted({k[0] for k in split}):
        for part in ("decide", "held out"):
            print("%d\t%s\t%d\t%d" % (code, part, split[(code, part, True)], split[(code, part, False)]))


if __name__ == "__main__":
    main()
