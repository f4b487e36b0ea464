#!/usr/bin/env python3
"""Execution-only 0x11 receives that carry the parameter form's prefix bit (docs/decoding-log.md
"stride11"): every 0x11 with Recv11ExecutionForm (w2 bit 122) and w2 bit 11 set, in every corpus
program, read with the parameter form's prefix layout (w2[24:12] At64, w2[43:25] Span8, w2[56:44]
Last64, w2[63:57] Bytes8) and joined to the next compute on a shared tile. Reports:

  1. Bytes8 - Span8 (32 in every receive = one 256-byte array after the span);
  2. the next compute's ComputeParamPrefix (w16[46:45]) and lanes against (Bytes8, Span8);
  3. the receive's w0[73:62] against that compute's ComputeStreamTag (w7[74:63]);
  4. w2 bits 83, 84, 86, 112 and the 17-bit w2[106:90] (the bits the stride sweep stops on).

Usage: scan_recv11_exec_prefix.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
The shared reference parsers are used as libraries through scan_recv11_exec_form.py.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_recv11_exec_form as recv  # noqa: E402

bits, signed = recv.bits, recv.signed


def main(tools, corpus):
    counts = collections.Counter()
    stride_rows = []
    for label, packets in recv.programs(tools, corpus):
        for index, (pc, opcode, value) in enumerate(packets):
            if opcode != 0x11:
                continue
            w0, w2 = bits(value, 0, 128), bits(value, 256, 128)
            if not (bits(w2, 122, 1) and bits(w2, 11, 1)):
                continue
            counts["receives"] += 1
            mask, tag = bits(w0, 12, 16), bits(w0, 62, 12)
            at64, span8, last64, bytes8 = bits(w2, 12, 13), bits(w2, 25, 19), bits(w2, 44, 13), bits(w2, 57, 7)
            counts["Bytes8 = 32 + Span8", bytes8 == 32 + span8] += 1
            counts["Last64 - At64", last64 - at64] += 1
            counts["w2 bits (83, 84, 86, 112)", bits(w2, 83, 1), bits(w2, 84, 1), bits(w2, 86, 1), bits(w2, 112, 1)] += 1
            compute = next((v for _, op, v in packets[index + 1:] if op == 0x01 and bits(v, 12, 16) & mask), None)
            if compute is None:
                counts["no compute after it"] += 1
                continue
            prefix = bits(compute, 16 * 128 + 45, 2)
            lanes = 4 * (bits(compute, 4 * 128 + 99, 5) + 1)
            counts["tag = the compute's ComputeStreamTag", tag == bits(compute, 7 * 128 + 63, 12)] += 1
            counts["(ComputeParamPrefix, Bytes8, Span8)", prefix, bytes8, span8] += 1
            if "stride" in label:
                stride_rows.append((label.split("/")[-1][:48], hex(pc), at64, span8, last64, bytes8, tag, prefix, lanes,
                                    signed(bits(w2, 90, 17), 17)))
    for key, value in sorted(counts.items(), key=str):
        print(key, value)
    print("stride programs: label pc At64 Span8 Last64 Bytes8 tag ComputeParamPrefix lanes w2[106:90]")
    for row in stride_rows:
        print(*row)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
