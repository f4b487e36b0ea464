#!/usr/bin/env python3
"""The execution-only receive's w1 bits 105-137 (docs/decoding-log.md "oldrecv"): a shorter last
repetition of its loop nest. Every 0x11 with w2 bit 122 set (Recv11ExecutionForm) and w0 bit 78 set
(the loop nest: Run = w0[110:95] rows - 1, Repeat = w1[15:0]) is read with
  L    = w1[120:105]           (16 bits; candidate: the last repetition's run limit),
  on   = w1 bit 121,
  X    = w1[137:123]           (15 bits, crossing into w2[9:0]; candidate: Run - L, the units the last
                                repetition drops), w1 bit 122 below it,
and, where the next carrier into the receive's tiles is an input pop, the pop's 256-byte rows
(ceil(input bytes / 256), input bytes = 8 x (16,384 x PopInputBeatsHigh + PopInputBeats + 1), and without
the high part) against the rows the nest takes:
(Run + 1) x (Repeat + 1) with every repetition whole, (Run + 1) x Repeat + L + 1 with the last one
shortened to L + 1 rows. Split into a decide set (paths containing one of --decide; default: PoseNet
353x481 and rubensrech conv 500^2) and the held-out rest.

Usage: scan_recv11_exec_last_run.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...] [--list]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import sys

import scan_recv11_exec_form as form
from scan_recv11_exec_form import bits

DECIDE = ["posenet_mobilenet_v1_075_353_481", "conv_2d_1_500_500_1_40_40"]


def next_input_pop(packets, at):
    """The input pop that next feeds the receive's tiles, or None when another carrier comes first."""
    mask = bits(packets[at][2], 12, 16)
    for _, op, packet in packets[at + 1:]:
        if not form.tiles(op, packet) & mask:
            continue
        if op == 0x26 and bits(packet, 12, 1):
            return packet
        if op == 0x26 or op in form.CARRIERS:
            return None
    return None


def pop_input_bytes(pop, high=True):
    """Input bytes of an input pop: 8 per 64-byte ring beat. A one-beat pop takes its length from its ring
    loop ("recv11" §C); w0[103:96] (PopInputBeatsHigh, "oldrecv" §B) counts 16,384 beats, left out with
    high=False (the reading before it)."""
    beats = bits(pop, 128 + 55, 20) + 1 + (16384 * bits(pop, 96, 8) if high else 0)
    if beats == 1:
        beats = bits(pop, 55, 20) + 1
    return 8 * beats


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        sys.exit(__doc__)
    tools, corpus = args[0], args[1]
    decide = DECIDE
    if "--decide" in sys.argv:
        decide = sys.argv[sys.argv.index("--decide") + 1:]
    tally = collections.Counter()
    for label, packets in form.programs(tools, corpus):
        split = "decide" if any(d in label for d in decide) else "held-out"
        for at, (pc, op, packet) in enumerate(packets):
            if op != 0x11 or not bits(packet, 256 + 122, 1) or not bits(packet, 78, 1):
                continue
            run = bits(packet, 95, 16)
            repeat = bits(packet, 128, 16)
            last, on, short = bits(packet, 128 + 105, 16), bits(packet, 128 + 121, 1), bits(packet, 128 + 123, 15)
            extra = bits(packet, 128 + 99, 6) or bits(packet, 128 + 122, 1)
            shaped = on or last or short or extra
            key = "with bit 121" if on else ("other bits, no 121" if shaped else "without")
            tally[(split, key, "receives")] += 1
            if on:
                tally[(split, key, "X = Run - L")] += short == run - last
                tally[(split, key, "L <= Run")] += last <= run
                tally[(split, key, "w1[104:99] and w1[122] zero")] += not extra
            pop = next_input_pop(packets, at)
            if pop is None:
                continue
            pop_rows = -(-pop_input_bytes(pop) // 256)
            whole = (run + 1) * (repeat + 1)
            shortened = (run + 1) * repeat + last + 1 if on else whole
            tally[(split, key, "fed by an input pop")] += 1
            tally[(split, key, "pop rows = nest rows (last repetition L + 1 where bit 121)")] += pop_rows == shortened
            tally[(split, key, "pop rows = (Run + 1) x (Repeat + 1) (every repetition whole)")] += pop_rows == whole
            low_rows = -(-pop_input_bytes(pop, high=False) // 256)
            tally[(split, key, "the same, pop length without w0[103:96] (PopInputBeatsHigh)")] += low_rows == shortened
            if "--list" in sys.argv and on:
                print("%-9s %-70s 0x%04x run %3d repeat %4d L %3d X %3d pop rows %5d whole %5d" % (
                    split, label.split("/")[-1][:70], pc, run, repeat, last, short if on else -1, pop_rows, whole))
    for key, n in sorted(tally.items()):
        print("%-8s %-20s %-62s %5d" % (*key, n))


if __name__ == "__main__":
    main()
