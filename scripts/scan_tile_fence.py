#!/usr/bin/env python3
"""Tile fence (0x1a) scanner (docs/decoding-log.md "sync1a"): how the fence's payload fields relate to
the tile packets around it, over every corpus program, and whether a size sweep's fences differ.

Usage: scan_tile_fence.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--sweep REGEX]
Prints: the value counts of each payload field (w0[43], [62:44] flag set, [78:63] count, [88:79]
engine set, [104:89], [107], [110:109]) and the bits no field covers; for each bit of a partial flag
set and of a partial engine set, the opcodes of the previous and next tile packets (fences skipped);
with --sweep, each matching program's fence payloads (w0 >> 42, by PC) so sweep members can be compared.
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the one corpus walk)

FIELDS = [("mode", 43, 1), ("flags", 44, 19), ("count", 63, 16), ("engines", 79, 10), ("high", 89, 16),
          ("flag107", 107, 1), ("flag109", 109, 2)]
TILE_OPS = {0x01, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19}
FENCE = 0x1A


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    sweep = None
    if "--sweep" in sys.argv:
        sweep = re.compile(sys.argv[sys.argv.index("--sweep") + 1])
        args.remove(sweep.pattern)
    if len(args) != 2:
        sys.exit(__doc__)
    sys.path.insert(0, args[0])
    import seg  # noqa: E402
    values = {name: collections.Counter() for name, _, _ in FIELDS}
    uncovered = collections.Counter()
    covered = (0xFFFF << 12) | (0x3FFF << 28) | 0xFFF  # mask, sequence, predicate + opcode
    for _, lsb, width in FIELDS:
        covered |= ((1 << width) - 1) << lsb
    around = {"flags": collections.defaultdict(lambda: (collections.Counter(), collections.Counter())),
              "engines": collections.defaultdict(lambda: (collections.Counter(), collections.Counter()))}
    full = {"flags": (0, 0x1FFFF, 0x7FFFF), "engines": (0x3FF,)}
    fences = 0
    for label, _, data in scan_lle_fields.programs(args[1]):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        ops = [op for _, op, _ in packets]
        if sweep and sweep.search(label):
            print("%s\t%s" % (label, " ".join("0x%04x:%x" % (i, words[i] >> 42) for i, op, _ in packets if op == FENCE)))
        for j, (index, op, _) in enumerate(packets):
            if op != FENCE:
                continue
            fences += 1
            w0 = words[index]
            field = {name: (w0 >> lsb) & ((1 << width) - 1) for name, lsb, width in FIELDS}
            for name, v in field.items():
                values[name][v] += 1
            for b in range(128):
                if (w0 & ~covered) >> b & 1:
                    uncovered[b] += 1
            prev = next((o for o in reversed(ops[:j]) if o in TILE_OPS), None)
            after = next((o for o in ops[j + 1:] if o in TILE_OPS), None)
            for name in around:
                if field[name] in full[name]:
                    continue
                for b in range(32):
                    if field[name] >> b & 1:
                        around[name][b][0][prev] += 1
                        around[name][b][1][after] += 1
    print("# %d fences" % fences)
    for name, _, _ in FIELDS:
        print("%s\t%d values\t%s" % (name, len(values[name]),
                                     " ".join("0x%x:%d" % kv for kv in values[name].most_common(12))))
    print("uncovered bits set: %s" % (dict(uncovered) or "none"))
    op = lambda o: "-" if o is None else "%02x" % o  # noqa: E731
    for name, bits in around.items():
        for b in sorted(bits):
            before, after = bits[b]
            print("%s bit %d\tprevious %s\tnext %s" % (
                name, b, " ".join("%s:%d" % (op(o), n) for o, n in before.most_common(3)),
                " ".join("%s:%d" % (op(o), n) for o, n in after.most_common(3))))


if __name__ == "__main__":
    main()
