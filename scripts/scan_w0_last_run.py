#!/usr/bin/env python3
"""The w0 nest's shorter last iteration (docs/decoding-log.md "smx"): w1[59:46] (a run) and w1[61:60] (a level L) of every
opcode-0x01 / 0x02 / 0x03 packet of every distinct corpus program (0x03 and the max pool are laid out as 0x01; the softmax-form
0x02 has the same bits, Max02LastBeatGroups / Max02LastBeatLevel).

For each packet with either bit range set, or a softmax-form 0x02 / 0x03 (every one), it prints and checks:
  * the beat walk: groups a beat (level 0, ComputeK4W0 / Max02BeatGroups), beats (level 1), the groups the packet walks
    (ComputeK4W10 + 1 / Max02Groups + 1) = beats x groups a beat, less (groups a beat - 1 - run) where L = 1;
  * where L = 2: level 1 runs once, and the weight stream the 0x12 before it on its first tile arms (Recv12Run + 1 transfers
    a repetition, its repeats, less Recv12LastShort) = (ComputeK4W0 + 1) x (ComputeLimitW0[1] + 1) - (ComputeK4W0 - run);
  * for a softmax pass: the read it takes (the last 0x13 before it on its tiles naming its tag) carries the same (run, L) in
    its triple (Stage13RepeatLastRun / LastRunLevel, "nin16");
  * for an 0x01 with L = 1: the groups its w10 nest counts (ComputeK4W10 + 1) = the walk.
Then the count of packets with both ranges 0 per opcode. Programs whose path contains one of --decide are the decode set.

Usage: scan_w0_last_run.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_lle_envelope as envelope  # noqa: E402
import scan_lle_fields  # noqa: E402

DEFAULT_DECIDE = ["nin_cnn", "mobilenet_v1_0.25_128_quant_edgetpu"]


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, DEFAULT_DECIDE)
    import seg  # noqa: E402
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fields = envelope.field_rows(os.path.join(root, "models", "lle", "lle_fields.def"))

    def v(packet, name, element=0):
        _, first, width, _, stride = fields[name]
        return (packet >> (first + element * stride)) & ((1 << width) - 1)

    rows = collections.Counter()
    examples = collections.defaultdict(list)
    zero = collections.Counter()
    for label, part, words, found in scan_lle_fields.distinct_segmented_programs(seg, corpus, decide):
        packet = lambda i, n: sum(words[i + k] << (128 * k) for k in range(n))  # noqa: E731
        for k, (index, op, length) in enumerate(found):
            if op not in (0x01, 0x02, 0x03):
                continue
            p = packet(index, length)
            run, level = v(p, "ComputeW0LastRun"), v(p, "ComputeW0LastRunLevel")
            softmax = op == 0x03 or (op == 0x02 and v(p, "Max02Lanes") != 0)
            if run == 0 and level == 0 and not softmax:
                zero["0x%02x" % op] += 1
                continue
            mask = (words[index] >> 12) & 0xFFFF
            if op == 0x02 and softmax:
                bg, beats, groups = v(p, "Max02BeatGroups"), v(p, "Max02Beats"), v(p, "Max02Groups") + 1
                tag = v(p, "Max02StreamTag")
            else:
                bg, beats, groups = v(p, "ComputeK4W0"), v(p, "ComputeLimitW0", 0), v(p, "ComputeK4W10") + 1
                tag = v(p, "ComputeStreamTag")
            checks = []
            if level == 0:
                checks.append("run 0: %s" % (run == 0))
            if level <= 1 and (op != 0x01 or level == 1):
                walk = (beats + 1) * (bg + 1) - ((bg - run) if level == 1 else 0)
                checks.append("walk = groups: %s" % (walk == groups))
                if level == 1:
                    checks.append("run < groups a beat: %s" % (run < bg))
            if level == 2:
                passes = v(p, "ComputeLimitW0", 1)
                walk = (bg + 1) * (passes + 1) - (bg - run)
                checks.append("level 1 once: %s" % (v(p, "ComputeLimitW0", 0) == 0))
                recv = None
                first_tile = (mask & -mask)
                for index2, op2, length2 in reversed(found[:k]):
                    if op2 == 0x12 and (words[index2] >> 12) & first_tile:
                        recv = packet(index2, length2)
                        break
                if recv is None:
                    checks.append("0x12 before it: none")
                else:
                    transfers = v(recv, "Recv12Run") + 1
                    for i in range(3):
                        transfers *= v(recv, "Recv12Repeat", i) + 1
                    if v(recv, "Recv12LastRunOn"):
                        transfers -= v(recv, "Recv12LastShort")
                    checks.append("0x12 transfers = K walk: %s" % (transfers == walk))
            if softmax:
                read = None
                for index2, op2, length2 in reversed(found[:k]):
                    if op2 == 0x13 and (words[index2] >> 12) & mask and v(packet(index2, length2), "Stage13Channel") == tag:
                        read = packet(index2, length2)
                        break
                if read is None:
                    checks.append("read: none")
                else:
                    triple = (v(read, "Stage13RepeatLastRun"), v(read, "Stage13RepeatLastRunLevel"))
                    checks.append("read's (run, L) = (%d, %d): same %s" % (triple + (triple == (run, level),)))
            key = (part, "0x%02x" % op, "softmax" if softmax else "", "L %d run %d" % (level, run),
                   "groups a beat %d, beats %d, groups %d" % (bg + 1, beats + 1, groups), "; ".join(checks))
            rows[key] += 1
            if len(examples[key]) < 3:
                examples[key].append("%s@0x%04x" % (os.path.basename(label), index))
    for key in sorted(rows):
        print("%4d  %s\n      %s" % (rows[key], "  |  ".join(key), ", ".join(examples[key])))
    for op, n in sorted(zero.items()):
        print("%s with w1[61:46] = 0 (not softmax passes): %d" % (op, n))


if __name__ == "__main__":
    main()
