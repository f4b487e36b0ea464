#!/usr/bin/env python3
"""The execution-only form of the 0x11 receive (docs/decoding-log.md "recvexec"): every 0x11 with
w2 bit 122 set (Recv11ExecutionForm) in every corpus program (execution-only and stand-alone
executables of the compiled models, and the raw *.coral programs), split into a decide set
(programs whose path contains one of --decide; default: Dense-256, the edgetpuxray div2 sweep with
its aarch64 compiles, three sizes of the iwatake stride sweep and two rubensrech conv sizes) and the
held-out rest. Reports:

  1. the two flags (w1 bit 86 = Recv11ExecFlagA; w2 bit 80 = Recv11ExecFlagB, w2 bit 88 its echo):
     counts per pair, whether the echo equals bit 80, and what next carries data into the receive's
     tiles (an input pop, a 0x10 send, a compute, a mesh transfer) per pair;
  2. twin compiles (--twin A B: path substrings of one program compiled twice): the bits in which
     their 0x14 / 0x11 / 0x26 packets differ, packet by packet in program order;
  3. the level-0 loop of the receive per w0 bit 78: limit w0[110:95], three 17-bit wraps at
     w0[127:111] + 33k, w1[98:88] against limit + 1 (the transfer count), w1[85:82] against 1 when
     the loop runs (0 when it does not), and the limits w1[15:0], w1[48:33], w1[81:66].

Usage: scan_recv11_exec_form.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the scan scripts' shared command line)
from scan_lle_fields import bits  # noqa: E402

DECIDE = ["templates/dense_256_edgetpu", "edgetpuxray/programs/div2", "model_stride_2x2x3", "model_stride_64x64x3",
          "model_stride_128x128x3", "conv_2d_1_32_32_1_3_3", "conv_2d_1_256_256_1_40_40"]
TWINS = [("programs/div2_8.coral", "programs/div2_8_aarch64.coral"),
         ("programs/div2_10.coral", "programs/div2_10_aarch64.coral")]
CARRIERS = {0x10: "0x10 send", 0x01: "compute", 0x12: "mesh 0x12", 0x15: "mesh 0x15", 0x16: "mesh 0x16",
            0x18: "mesh 0x18"}


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def packet_int(words):
    return sum(w << (128 * i) for i, w in enumerate(words))


def programs(tools, corpus):
    """(label, [(pc, opcode, packet as one integer)]) for every non-parameter-caching bitstream."""
    sys.path.insert(0, tools)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import seg  # noqa: E402
    import scan_lle_fields  # noqa: E402

    def packets(bitstream):
        words = seg.words(bitstream)
        found, _ = seg.segment(words)
        return [(i, op, packet_int(words[i:i + n])) for i, op, n in found]
    for label, data in scan_lle_fields.raw_programs(corpus):
        yield label, packets(data)
    for relpath, p, e, exe in scan_lle_fields.executables(corpus):
        if exe["type"] == "PARAMETER_CACHING":
            continue
        for c, bitstream in enumerate(exe["bitstreams"]):
            yield "%s#p%d#e%d#c%d" % (relpath, p, e, c), packets(bitstream["bitstream"])


def tiles(op, packet):
    return bits(packet, 3 * 128 + 25, 16) if op == 0x26 else bits(packet, 12, 16)


def next_carrier(packets, at):
    """What next carries data into the tiles of the receive at index `at`."""
    mask = bits(packets[at][2], 12, 16)
    for _, op, packet in packets[at + 1:]:
        if not tiles(op, packet) & mask:
            continue
        if op == 0x26:
            return "input pop" if bits(packet, 12, 1) else "parameter pop"
        if op in CARRIERS:
            return CARRIERS[op]
    return "nothing"


def main():
    tools, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    args = [tools, corpus]
    split = lambda program: "decide" if any(d in program for d in decide) else "held out"
    flags = collections.Counter()
    sources = collections.Counter()
    loops = collections.Counter()
    twins = {}
    for program, packets in programs(args[0], args[1]):
        s = split(program)
        for key in (k for pair in TWINS for k in pair):
            if program.endswith(key):
                twins[key] = [(pc, op, p) for pc, op, p in packets if op in (0x14, 0x11, 0x26)]
        for at, (pc, op, p) in enumerate(packets):
            if op != 0x11 or not bits(p, 256 + 122, 1):
                continue
            a, b, echo = bits(p, 128 + 86, 1), bits(p, 256 + 80, 1), bits(p, 256 + 88, 1)
            flags[(s, a, b, echo == b)] += 1
            sources[(a, b, next_carrier(packets, at))] += 1
            form = "w0 bit 78 = %d" % bits(p, 78, 1)
            limit = bits(p, 95, 16)
            wraps = [signed(bits(p, 111 + 33 * k, 17), 17) for k in range(3)]
            count, step = bits(p, 128 + 88, 11), bits(p, 128 + 82, 4)
            outer = [bits(p, 128 + 33 * k, 16) for k in range(3)]
            loops[(form, s, "wraps = -limit", wraps == [-limit] * 3)] += 1
            loops[(form, s, "w1[98:88] = limit + 1", count == limit + 1)] += 1
            loops[(form, s, "w1[85:82] = 1 if limit else 0", step == (1 if limit else 0))] += 1
            loops[(form, s, "all three", wraps == [-limit] * 3 and count == limit + 1 and step == (1 if limit else 0))] += 1
            loops[(form, s, "limit 0 (one transfer)", limit == 0)] += 1
            loops[(form, s, "levels 1..3 limits 0", outer == [0, 0, 0])] += 1
    print("1. flags (split, Recv11ExecFlagA, Recv11ExecFlagB, echo == B): receives")
    for key, n in sorted(flags.items()):
        print("   %-8s A=%d B=%d echo-equal=%-5s %d" % (key + (n,)))
    print("   what next carries data into the receive's tiles, per flag pair:")
    for key, n in sorted(sources.items()):
        print("   A=%d B=%d %-14s %d" % (key + (n,)))
    print("2. twin compiles: bits in which their 0x14 / 0x11 / 0x26 packets differ")
    for one, other in TWINS:
        if one not in twins or other not in twins:
            continue
        print("   %s vs %s" % (one, other))
        for (pc, op, p), (pc2, op2, p2) in zip(twins[one], twins[other]):
            diff = p ^ p2
            text = ", ".join("w%d[%d]" % (k // 128, k % 128) for k in range(4 * 128) if diff >> k & 1) or "identical"
            print("     0x%02x @ 0x%04x / 0x%04x: %s" % (op, pc, pc2, text if op == op2 else "other opcode"))
    print("3. the receive's level-0 loop (form, split, relation, holds): receives")
    for key, n in sorted(loops.items()):
        print("   %-15s %-8s %-32s %-5s %d" % (key + (n,)))


if __name__ == "__main__":
    main()
