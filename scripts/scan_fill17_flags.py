#!/usr/bin/env python3
"""The three flags after 0x17's write nest, w3[95:93] (docs/decoding-log.md "fill17c"): over every 0x17
of the corpus, how often each value occurs, and with what — the immediate bit, w1/w4 set, the number
of counting levels of the nest ("fill17b" §A), the step Fill17Step, the next data-moving packet — and
the lead of that section: for each 0x13 whose tiles' last 0x17 carried one non-zero value, flag bits
94 / 95 against the 0x13's w6 bits 33 / 34.

Usage: scan_fill17_flags.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys

# Packets that move no data between tiles and memories (scalar / control), skipped when looking for
# the next data-moving packet.
CONTROL = {0x1a, 0x20, 0x21, 0x24, 0x25, 0x26, 0x27}


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    tools, corpus = sys.argv[1:]
    sys.path.insert(0, tools)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import seg  # noqa: E402
    from scan_lle_fields import programs  # noqa: E402

    values, with_what, pairs = collections.Counter(), collections.defaultdict(set), collections.Counter()
    for _, _, data in programs(corpus):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        last_flags = {}  # tile -> flags of its last 0x17
        for n, (index, op, _) in enumerate(packets):
            if op >= 0x20 or op not in (0x13, 0x17):
                continue
            mask = (words[index] >> 12) & 0xFFFF
            tiles = [t for t in range(16) if mask >> t & 1]
            if op == 0x13:
                seen = {last_flags.get(t) for t in tiles}
                if len(seen) == 1 and next(iter(seen)):
                    flags, w6 = next(iter(seen)), (words[index + 6] >> 32) & 0xF
                    pairs[("bit 94", flags >> 1 & 1, "w6 bit 33", w6 >> 1 & 1)] += 1
                    pairs[("bit 95", flags >> 2 & 1, "w6 bit 34", w6 >> 2 & 1)] += 1
                continue
            flags = (words[index + 3] >> 93) & 7
            values[flags] += 1
            w2w3 = words[index + 2] | (words[index + 3] << 128)
            counting = sum(((w2w3 >> (44 + 33 * i)) & 0xFFFF) != 0 for i in range(4))
            following = next((o for _, o, _ in packets[n + 1:] if o not in CONTROL), None)
            with_what[flags].add("immediate %d" % ((words[index + 5] >> 87) & 1))
            with_what[flags].add("w1/w4 %s" % ("set" if words[index + 1] or words[index + 4] else "0"))
            with_what[flags].add("levels %d" % counting)
            with_what[flags].add("step %d" % signed((words[index + 3] >> 31) & 0x1FFFF, 17))
            with_what[flags].add("next 0x%02x" % following if following is not None else "next none")
            for t in tiles:
                last_flags[t] = flags
    print("w3[95:93] over %d 0x17s:" % sum(values.values()))
    for flags in range(8):
        print("  %d: %6d  %s" % (flags, values[flags], ", ".join(sorted(with_what[flags]))))
    print("\n0x13s whose tiles' last 0x17 carried one non-zero value:")
    for key, count in sorted(pairs.items()):
        print("  %6d  %s %d, %s %d" % ((count,) + key))


if __name__ == "__main__":
    main()
