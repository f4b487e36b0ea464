#!/usr/bin/env python3
"""The kept-stream write's thermometer against its kept read's flags (docs/decoding-log.md "twice14" §D;
models/lle/kept_write_marks.h). For every corpus 0x14 whose w4 bit 99 is clear (Stage14SourceSideOn: the write puts back a
read kept in its tiles), its w3[100:97] and w6[104:102], and the last 0x13 before it on its tiles whose Stage13Channel
(bits 337..348) is the write's stream tag (w0[73:62]): that read's Stage13Flags (w6[35:32]). Tabulated by (thermometer,
code, read flags or "no read"), with the programs, split into a decide set (--decide substrings; default the PoseNet
353x481 quant decoder) and the held-out rest.

Usage: scan_kept_write_marks.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_recv11_exec_form as recv  # noqa: E402
import scan_lle_fields  # noqa: E402  (the scan scripts' shared command line)

bits = recv.bits
DECIDE = ["posenet_mobilenet_v1_075_353_481_quant_decoder"]


def main():
    tools, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    args = [tools, corpus]
    table = collections.Counter()
    where = collections.defaultdict(set)
    for label, packets in recv.programs(args[0], args[1]):
        split = "decide" if any(d in label for d in decide) else "held out"
        program = label.split("#")[0].split("/")[-1]
        for i, (_, op, v) in enumerate(packets):
            if op != 0x14 or bits(v, 512 + 99, 1):
                continue
            mask, tag = bits(v, 12, 16), bits(v, 62, 12)
            read = None
            for _, op2, v2 in packets[:i]:
                if op2 == 0x13 and recv.tiles(op2, v2) & mask and bits(v2, 337, 12) == tag:
                    read = v2
            flags = "no read" if read is None else "read flags %d" % bits(read, 768 + 32, 4)
            key = (split, "w3[100:97] = %d" % bits(v, 384 + 97, 4), "code %d" % bits(v, 768 + 102, 3), flags)
            table[key] += 1
            where[key].add(program)
    for key, n in sorted(table.items()):
        print(n, key, ", ".join(sorted(where[key])))


if __name__ == "__main__":
    main()
