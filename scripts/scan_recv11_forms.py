#!/usr/bin/env python3
"""The two forms of the 0x11 parameter receive (docs/decoding-log.md "recv11"): bit 61 set (newer
compiles) and clear (older compiles). For every receive of every PARAMETER_CACHING executable, split
into a decide set (programs whose path contains one of --decide; default three sizes of the iwatake
stride sweep and the older MobileNet v1 0.25 compile) and the held-out rest, reports:

  1. the row-loop relations of "decode4" §A per form: wraps = -limit, row step 1 (a loop that runs once
     may carry 0 or 1), the limits of nest levels 1..3 (w1[15:0], w1[48:33], w1[81:66]) zero, and in
     the older form's prefix receives the values they carry instead (w2 bit 79, Recv11Wrap[0], step);
  2. where the rows go: pairs of receives into one tile, as [Recv11Row - prefix rows, Recv11Row +
     limit + 1), overlapping or back to back, and the highest row end; and the same pairs if the older
     prefix form's step of 3 were a row stride;
  3. the pop that fills each receive (per tile, program order, as the lle rung joins them): pop bytes
     against rows x 64 x quarters (PopRowQuarters + 1), the pop's length read from its beat fields, or
     from its ring-loop limit when the beat fields read one beat (PopBeats 0, PopRingNeg16 0);
  4. a model compiled by both (--twin OLDER NEWER path substrings): pops of the older compile whose
     bytes equal a pop of the newer one, by form.

Usage: scan_recv11_forms.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the scan scripts' shared command line)
from scan_lle_fields import bits  # noqa: E402

DECIDE = ["model_stride_2x2x3", "model_stride_64x64x3", "model_stride_128x128x3",
          "google-coral+edgetpu/test_data/mobilenet_v1_0.25_128_quant_edgetpu"]
TWIN = ("google-coral+edgetpu/test_data/mobilenet_v1_0.25_128_quant_edgetpu",
        "google-coral+test_data/mobilenet_v1_0.25_128_quant_edgetpu")


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def packet_int(words):
    return sum(w << (128 * i) for i, w in enumerate(words))


class Receive:
    def __init__(self, words):
        p = packet_int(words)
        self.newer = bits(p, 61, 1)
        self.row = bits(p, 62, 11)
        self.limit = bits(p, 95, 16)
        self.wraps = [signed(bits(p, 111 + 33 * k, 17), 17) for k in range(3)]
        self.outer_limits = [bits(p, 128 + 33 * k, 16) for k in range(3)]
        self.step = signed(bits(p, 210, 17), 17)
        self.prefix_on = bits(p, 256 + 11, 1)
        self.prefix_rows = bits(p, 256 + 57, 7) // 32 if self.prefix_on else 0
        self.older_prefix = bits(p, 256 + 79, 1)
        self.first = self.row - self.prefix_rows
        self.rows = self.prefix_rows + self.limit + 1


def pop_bytes(words):
    """(bytes, form): the beat fields, or the ring-loop limit when they read one beat."""
    beats = (bits(words[0], 96, 8) << 10 | bits(words[1], 55, 10)) + 1
    if beats == 1 and bits(words[1], 75, 12) == 0:
        return (bits(words[0], 55, 20) + 1) * 64, "ring-limit"
    return beats * 64, "beats"


def executables(tools, corpus):
    sys.path.insert(0, tools)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import seg  # noqa: E402
    import scan_lle_fields  # noqa: E402
    for relpath, p, e, exe in scan_lle_fields.executables(corpus):
        if exe["type"] != "PARAMETER_CACHING":
            continue
        for c, bitstream in enumerate(exe["bitstreams"]):
            words = seg.words(bitstream["bitstream"])
            packets, _ = seg.segment(words)
            yield ("%s#p%d#e%d#c%d" % (relpath, p, e, c), exe["parameters"],
                   [(op, words[i:i + n]) for i, op, n in packets])


def main():
    tools, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    args = [tools, corpus]
    split = lambda program: "decide" if any(d in program for d in decide) else "held out"
    relations = collections.Counter()
    pairs = collections.Counter()
    ends = collections.defaultdict(int)
    lengths = collections.Counter()
    twin_pops = {TWIN[0]: [], TWIN[1]: []}
    for program, parameters, packets in executables(args[0], args[1]):
        s = split(program)
        per_tile = collections.defaultdict(list)
        pending = collections.defaultdict(list)
        for op, words in packets:
            if op == 0x11:
                r = Receive(words)
                form = "bit61=%d" % r.newer
                relations[(s, form, "wrap[1], wrap[2] = -limit", r.wraps[1] == -r.limit and r.wraps[2] == -r.limit)] += 1
                relations[(s, form, "outer limits 0", r.outer_limits == [0, 0, 0])] += 1
                relations[(s, form, "w2 bit 79 == (bit 61 clear and prefix)",
                           r.older_prefix == (1 - r.newer) * r.prefix_on)] += 1
                if r.older_prefix:
                    relations[(s, form, "older prefix: wrap[0] = 1, step = 3", r.wraps[0] == 1 and r.step == 3)] += 1
                else:
                    relations[(s, form, "wrap[0] = -limit", r.wraps[0] == -r.limit)] += 1
                    relations[(s, form, "step 1 (limit 0: 0 or 1)", r.step == 1 or (r.limit == 0 and r.step == 0))] += 1
                ends[(s, form)] = max(ends[(s, form)], r.first + r.rows)
                for t in range(16):
                    if bits(words[0], 12 + t, 1):
                        per_tile[t].append(r)
                        pending[t].append(r)
            elif op == 0x26 and not bits(words[0], 12, 1):
                size, how = pop_bytes(words)
                quarters = bits(words[3], 54, 2) + 1
                offset = (bits(words[2], 64, 16) - 1) * 64
                for t in range(16):
                    if not bits(words[3], 25 + t, 1) or not pending[t]:
                        continue
                    r = pending[t].pop(0)
                    fits = (r.rows - 1) * 64 * quarters < size <= r.rows * 64 * quarters
                    lengths[(s, "bit61=%d" % r.newer, how, fits)] += 1
                    for key in twin_pops:
                        if program.startswith(key):
                            twin_pops[key].append((r, parameters[offset:offset + size]))
        for t, receives in per_tile.items():
            for i, a in enumerate(receives):
                for b in receives[i + 1:]:
                    form = "bit61=%d" % a.newer
                    overlap = a.first < b.first + b.rows and b.first < a.first + a.rows
                    touch = a.first + a.rows == b.first or b.first + b.rows == a.first
                    pairs[(s, form, "contiguous rows", "overlap" if overlap else "back to back" if touch else "apart")] += 1
                    if a.older_prefix or b.older_prefix:
                        span = lambda r: (r.first, r.row + 3 * r.limit + 1) if r.older_prefix else (r.first, r.first + r.rows)
                        (a0, a1), (b0, b1) = span(a), span(b)
                        pairs[(s, form, "older prefix, step 3 as a row stride", "overlap" if a0 < b1 and b0 < a1 else "none")] += 1
    print("1. relations per form (count of receives):")
    for key, n in sorted(relations.items()):
        print("   %-8s %-9s %-42s %-5s %d" % (key + (n,)))
    print("2. pairs of receives into one tile:")
    for key, n in sorted(pairs.items()):
        print("   %-8s %-9s %-38s %-12s %d" % (key + (n,)))
    for key, end in sorted(ends.items()):
        print("   %-8s %-9s highest row end %d" % (key + (end,)))
    print("3. pop bytes within (rows - 1, rows] x 64 x quarters of its receive:")
    for key, n in sorted(lengths.items()):
        print("   %-8s %-9s length from %-10s fits %-5s %d" % (key + (n,)))
    print("4. twin compile: older pops whose bytes equal a pop of the newer compile:")
    newer = {data for _, data in twin_pops[TWIN[1]]}
    twin = collections.Counter((r.prefix_on, data in newer) for r, data in twin_pops[TWIN[0]])
    for (prefix, same), n in sorted(twin.items()):
        print("   prefix %d  identical %-5s %d" % (prefix, same, n))


if __name__ == "__main__":
    main()
