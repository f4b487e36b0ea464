#!/usr/bin/env python3
"""What ComputePositionStep37 (Nest37 slot 0's carry, the level-1 carry) holds over the corpus's computes
(docs/decoding-log.md "trkfc"): against the single-position / element-wise relation PositionStep37 = P (P =
ComputePositions + 1) and against "the whole walk" (ComputeK4W1 + 1) x ComputePositions + 1, by form; and the
computes whose K reduction runs over Nest37 level 2 (positions counted by Nest37 but one output position).
Fields are read by name from models/lle/lle_fields.def (word, lsb, width, count, pitch).

  scan_position_step37.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--list]
"""
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from scan_lle_fields import programs  # noqa: E402

DEF = re.compile(r"CORAL_LLE_FIELD\((\w+),\s*0x01,\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),")


def compute_fields():
    table = {}
    for line in open(os.path.join(HERE, "..", "models", "lle", "lle_fields.def")):
        m = DEF.search(line)
        if m:
            name, word, lsb, width, count, pitch = m.group(1), *map(int, m.groups()[1:])
            table[name] = (128 * word + lsb, width, count, pitch)
    return table


FIELDS = compute_fields()


def get(packet, name, element=0, signed=False):
    bit, width, _, pitch = FIELDS[name]
    v = (packet >> (bit + element * pitch)) & ((1 << width) - 1)
    if signed and v >> (width - 1):
        v -= 1 << width
    return v


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        sys.exit(__doc__)
    sys.path.insert(0, args[0])
    import seg  # noqa: E402
    table = collections.Counter()
    listing = []
    seen = set()
    for label, _, data in programs(args[1]):
        if data in seen:
            continue
        seen.add(data)
        words = seg.words(data)
        found, _ = seg.segment(words)
        for index, op, length in found:
            if op != 0x01:
                continue
            packet = 0
            for k in range(length):
                packet |= words[index + k] << (128 * k)
            step = get(packet, "ComputePositionStep37", signed=True)
            k = get(packet, "ComputeK4W1")
            p = get(packet, "ComputePositions")
            out = get(packet, "ComputeOutPositions")
            four = get(packet, "ComputeInputBytes") == 4
            plain = four and get(packet, "ComputeInputRingOn") == 0 and get(packet, "ComputeNest37Limit1") == 0 \
                and get(packet, "ComputeParamPrefix") == 0 and get(packet, "ComputeUnrequantisedCopy") == 0
            old = step == p + 1
            whole = step == (k + 1) * p + 1
            ksplit = plain and p > 0 and out == 0 and k > 0
            key = ("4-byte plain" if plain else "other", "P>1" if p else "P=1", "K>1" if k else "K=1",
                   "out=0" if out == 0 else "out>0", "=P" if old else "", "=(K+1)P+1" if whole else "")
            table[key] += 1
            if ksplit or (plain and not old):
                carry1 = get(packet, "ComputeNest37Carry1", signed=True)
                listing.append((label.split("/")[-1], "0x%04x" % index, "K4W1", k, "P-1", p, "out", out, "step", step,
                                "carry1(bytes)", carry1, "KWrap37[0]", get(packet, "ComputeKWrap37", 0, True),
                                "K4W0", get(packet, "ComputeK4W0"), "K4W7", get(packet, "ComputeK4W7"),
                                "Limit29", get(packet, "ComputeLimit29", 0), get(packet, "ComputeLimit29", 1),
                                "LimitW10", get(packet, "ComputeLimitW10", 0), "LimitW0", get(packet, "ComputeLimitW0", 0),
                                "lanes", get(packet, "ComputeLaneGroups"), "wide", get(packet, "ComputeWideWeights")))
    print("distinct computes: %d" % sum(table.values()))
    for key, n in sorted(table.items()):
        print("%6d  %s" % (n, "  ".join(x for x in key if x)))
    print("plain 4-byte computes where the step is not P (K-split or other): %d" % len(listing))
    if "--list" in sys.argv:
        for row in listing:
            print("  " + " ".join(str(x) for x in row))


if __name__ == "__main__":
    main()
