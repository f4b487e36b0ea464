#!/usr/bin/env python3
"""The block level of a compute-feeding 0x14 (docs/decoding-log.md "twice14"; models/lle/stage14_block_level.h).
For every 0x14 with w4 bit 101 (Stage14FeedsCompute) of every corpus program (parameter-caching executables left out),
its address nest (write_nest.h: level 0 Stage14Groups, levels 1-4 Stage14OuterLimit, carries WrapA/B/D/E; stride_i =
carry_{i-1} + the walk of the levels below) against the stream fields the same packet carries: the output blocks
(Stage14StreamPrefixBlocks + 1, w1[15:0]) and the staged prefix's parts (Stage14StreamPrefixRun + 1, w0[110:95]).

  1. the writes whose nest revisits a unit: is the revisiting level the outermost counting one, of stride 0, and
     does it count the blocks; do the levels below it visit distinct units;
  2. the counting levels between level 0 and the block level (and above level 0 where no block level exists):
     count = parts and stride 64 units (one 256-byte row a part)?
  3. the writes that revisit and are not a one-outer-level window (the shape the rung refused before "twice14"), by program.

Split into a decide set (programs whose path contains one of --decide; default the PoseNet 353x481 / 481x641 decoders,
16-channel and not) and the held-out rest.

Usage: scan_stage14_block_level.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers are used as libraries through scan_recv11_exec_form.py.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_recv11_exec_form as recv  # noqa: E402
import scan_lle_fields  # noqa: E402  (the scan scripts' shared command line)

bits, signed = recv.bits, recv.signed
DECIDE = ["posenet_mobilenet_v1_075_353_481", "posenet_mobilenet_v1_075_481_641"]
LEVELS = 5


def nest(v):
    limits = [bits(v, 256 + 44, 16)] + [bits(v, 256 + 77 + 33 * i, 16) for i in range(LEVELS - 1)]
    carries = [signed(bits(v, b, 17), 17) for b in (256 + 60, 256 + 93, 256 + 126, 384 + 31)]
    strides = [1]
    for i in range(1, LEVELS):
        strides.append(carries[i - 1] + sum(limits[j] * strides[j] for j in range(i)))
    return limits, strides


def revisits(limits, strides):
    units = [0]
    for limit, stride in zip(limits, strides):
        units = [u + k * stride for k in range(limit + 1) for u in units]
    return len(set(units)) != len(units)


def main():
    tools, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    args = [tools, corpus]
    block = collections.Counter()
    parts = collections.Counter()
    refused = collections.Counter()
    for label, packets in recv.programs(args[0], args[1]):
        split = "decide" if any(d in label for d in decide) else "held out"
        program = label.split("#")[0].split("/")[-1]
        for _, op, v in packets:
            if op != 0x14 or not bits(v, 512 + 101, 1):
                continue
            limits, strides = nest(v)
            blocks = bits(v, 128, 16) + 1
            run = bits(v, 95, 16)
            counting = [k for k in range(1, LEVELS) if limits[k]]
            outer = counting[-1] if counting else 0
            if revisits(limits, strides):
                below = list(limits)
                below[outer] = 0
                block[split, "revisits", "outermost stride 0" if outer and strides[outer] == 0 else "other",
                      "counts the blocks" if limits[outer] + 1 == blocks else "not the blocks",
                      "below distinct" if not revisits(below, strides) else "below revisits"] += 1
                window = strides[0] == 1 and len(counting) == 1 and strides[outer] == 0
                if not window:
                    refused[split, program] += 1
                top = outer
            else:
                block[split, "no revisit", "blocks 1" if blocks == 1 else "blocks %d" % blocks] += 1
                top = LEVELS
            for k in counting:
                if k >= top:
                    continue
                parts[split, "count = run + 1" if limits[k] == run else "count %d, run %d" % (limits[k] + 1, run),
                      "stride 64" if strides[k] == 64 else "stride %d" % strides[k], "block level above" if top < LEVELS else "no block level"] += 1
    print("1. compute-feeding writes: (split, revisits?, the revisiting level, its count, the levels below): writes")
    for key, n in sorted(block.items()):
        print("  ", key, n)
    print("2. counting levels below the block level (or any, without one): (split, count, stride): levels")
    for key, n in sorted(parts.items()):
        print("  ", key, n)
    print("3. revisiting writes that are not a one-outer-level window, by program (split, program): writes")
    for key, n in sorted(refused.items()):
        print("  ", key, n)


if __name__ == "__main__":
    main()
