#!/usr/bin/env python3
"""The 0x14's source-side count w3[122:106] (docs/decoding-log.md "w3rows"): "add128" read only its
high eleven bits (w3[122:112], 64-unit rows); are w3[111:106] its low six bits? Every table of that
section, over every corpus program.

Usage: scan_stage14_source_units.py SHARED_TOOLS_ISA_DIR CORPUS_DIR

  A  w3[111:106] with w3 bit 103 (Stage14SourceUnitsOn) set and clear; w3[111:96] with it clear
  B  per part (decode set: MobileNet v1 0.25 128 compiles and the LibrEdgeTPU colour 128x128 templates;
     held out: every other program): w3[122:106] against the span U (Stage14Groups + 1, plus
     Stage14SourceSkip + 1 where a one-part write skips) as it is, with the 64-unit floor, and with the
     floor only where Stage14SelectW5 is non-zero (the rung's rule); controls: the count read one bit
     lower (w3[122:105]) and "add128"'s rows alone (w3[122:112] x 64)
  C  the exceptions to the rung's rule, named

The shared reference parsers (tfl.py, seg.py) are used as libraries through scan_stage14_source.py.
"""
import os
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_stage14_source as s  # noqa: E402

DECODE_SET = re.compile(r"mobilenet_v1_0\.25_128_quant|color_[a-z]+_128x128_edgetpu")


def span(w):
    groups = s.bits(w[2], 44, 16)
    on, row_form = s.bits(w[4], 30, 1), s.bits(w[4], 11, 1)
    skip = s.bits(w[4], 50, 14) + 1 if on and not row_form else 0
    return groups + 1 + skip


def rules(w):
    u, count = span(w), s.bits(w[3], 106, 17)
    select_w5 = s.bits(w[5], 22, 2)
    return {
        "count == U": count == u,
        "count == max(64, U)": count == max(64, u),
        "count == U, floor 64 where Stage14SelectW5 != 0 (the rung)": count == (max(64, u) if select_w5 else u),
        "  control: w3[122:105] == the same": s.bits(w[3], 105, 18) == (max(64, u) if select_w5 else u),
        "  control: w3[122:112] x 64 == the same (add128's rows alone)": s.bits(w[3], 112, 11) * 64 == (max(64, u) if select_w5 else u),
    }


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    low = Counter()
    clear_form = Counter()
    tallies = {"decode set": Counter(), "held out": Counter()}
    totals = Counter()
    exceptions = Counter()
    for label, words, packets in s.walk(sys.argv[2]):
        part = "decode set" if DECODE_SET.search(label) else "held out"
        for index, op, length in packets:
            if op != 0x14:
                continue
            w = [words[index + k] for k in range(length)]
            on = s.bits(w[3], 103, 1)
            low[(on, s.bits(w[3], 106, 6))] += 1
            if not on:
                clear_form["w3[111:96] = 0x%04x, w3[122:112] = %d" % (s.bits(w[3], 96, 16), s.bits(w[3], 112, 11))] += 1
                continue
            totals[part] += 1
            for name, holds in rules(w).items():
                tallies[part][name] += holds
            if not rules(w)["count == U, floor 64 where Stage14SelectW5 != 0 (the rung)"]:
                exceptions["%s @ 0x%04x: count %d, U %d" % (label.split("/")[-1].split("#")[0], index,
                                                             s.bits(w[3], 106, 17), span(w))] += 1
    print("A. w3[111:106] by w3 bit 103: " + ", ".join("bit %d value %d: %d" % (k[0], k[1], v) for k, v in sorted(low.items())))
    print("   bit 103 clear: " + ", ".join("%s: %d" % kv for kv in clear_form.most_common()))
    print("B. w3[122:106] against the span U over the 0x14s with bit 103")
    for part in ("decode set", "held out"):
        print("   %s (%d 0x14s)" % (part, totals[part]))
        for name, n in tallies[part].items():
            print("     %-64s %d / %d" % (name, n, totals[part]))
    print("C. exceptions to the rung's rule")
    for name, n in sorted(exceptions.items()):
        print("   %s x%d" % (name, n))


if __name__ == "__main__":
    main()
