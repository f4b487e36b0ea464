#!/usr/bin/env python3
"""The 0x14's copy of its partner 0x11 when the copy holds the receive's run one level up (docs/decoding-log.md
"win14"): for every 0x14 of every corpus program whose every tile's next tile packet (fences skipped) is a 0x11,
both packets' copied bits read in the 0x11's execution-only layout ("recvexec" §D): tag w0[77:62], run flag
w0 bit 78, level-0 limit w0[110:95], wraps w0 bit 111 + 33k (k = 0..2), level-1..3 limits w1[15:0], w1[48:33],
w1[81:66], step w1[85:82], flag w1 bit 86, count w1[98:88], and the rest of w1. Reports, split into the decide
set (--decide SUBSTRING ..., default rubensrech conv 64^2) and the held-out rest:

  1. per pair, the partner's run flag (bit 78) and whether the copy is bit-equal, equal but for the idle step
     ("conv3"), or another form; for the others, which of the fields above differ;
  2. for pairs whose partner has bit 78 clear: whether the copy is the "level-1 form" (copy bit 78 set, its
     level-0 limit 0 and wraps 0, its level-1 limit = the partner's level-0 limit, its count = the partner's,
     step 1 and flag w1 bit 86 set, everything else equal), with the partner's step / flag / count values;
  3. every partner 0x11 with bit 78 clear in the corpus (paired or not): its count, step, flag, wraps, limits
     above level 0 (the form's invariants);
  4. every paired 0x14 (every tile's next packet a 0x11): its copied bit 78 against its select w4[109:108] (Stage14SelectW4);
  5. every execution-only 0x11 whose next data carrier is an input pop (0x26 with PopIsInput, PopTiles sharing a
     tile, before any other 0x11 on those tiles): the receive's iterations (the product of limit + 1 over its
     four levels) against ceil(the pop's stream bytes / 256) (64-byte ring beats x 8), by bit 78 (a negative
     result: the pop length reading does not follow the run);
  6. every paired 0x14: the iterations of its (first) partner's descriptor x 256 against the bytes its own nest
     writes ((Stage14Groups + 1) x 4 x the product of Stage14OuterLimit + 1), by the partner's bit 78.

Usage: scan_stage14_level_copy.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys
from scan_lle_fields import bits

DECIDE = ["conv_2d_1_64_64_1_3_3"]
TILE_PACKETS_MAX = 0x20
SYNC = 0x1A


def reading(w0, w1):
    """The copied bits in the execution-only receive's layout (the 256-bit pair w0 | w1 << 128)."""
    p = w0 | (w1 << 128)
    return {
        "tag": bits(p, 62, 16),
        "run78": bits(p, 78, 1),
        "limit0": bits(p, 95, 16),
        "wraps": tuple(bits(p, 111 + 33 * k, 17) for k in range(3)),
        "limits123": tuple(bits(p, 128 + 33 * k, 16) for k in range(3)),
        "step": bits(p, 128 + 82, 4),
        "flag86": bits(p, 128 + 86, 1),
        "gap87": bits(p, 128 + 87, 1),
        "count": bits(p, 128 + 88, 11),
        "w1high": bits(p, 128 + 99, 29),
        "w0low": bits(p, 79, 16),
    }


def level_one_form(copy, partner):
    """The copy holds the partner's level-0 run as its level-1 limit (see the module doc, 2.)."""
    return (copy["run78"] == 1 and partner["run78"] == 0 and copy["limit0"] == 0 and copy["wraps"] == (0, 0, 0)
            and partner["wraps"] == (0, 0, 0) and copy["limits123"] == (partner["limit0"],) + partner["limits123"][1:]
            and partner["limits123"][0] == 0 and copy["count"] == partner["count"] and copy["step"] == 1
            and copy["flag86"] == 1 and copy["tag"] == partner["tag"] and copy["gap87"] == partner["gap87"]
            and copy["w1high"] == partner["w1high"] and copy["w0low"] == partner["w0low"])


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from scan_lle_fields import decide_args, programs  # noqa: E402
    tools, corpus, decide = decide_args(__doc__, DECIDE)
    import seg  # noqa: E402

    outcome = collections.Counter()
    differing = collections.Counter()
    form = collections.Counter()
    clear_receives = collections.Counter()
    examples = collections.defaultdict(list)
    select = collections.Counter()
    runs = collections.Counter()
    nest_bytes = collections.Counter()
    for label, _, data in programs(corpus):
        which = "decide" if any(d in label for d in decide) else "held out"
        words = seg.words(data)
        packets, _ = seg.segment(words)
        tile = [(i, op) for (i, op, _) in packets if op < TILE_PACKETS_MAX and op != SYNC]
        for i, op in tile:
            if op == 0x11 and bits(words[i + 2], 122, 2) == 3 and not bits(words[i], 78, 1):
                r = reading(words[i], words[i + 1])
                clear_receives[(which, "count %d step %d flag86 %d wraps %s limits123 %s" % (
                    r["count"], r["step"], r["flag86"], "0" if r["wraps"] == (0, 0, 0) else "set",
                    "0" if r["limits123"] == (0, 0, 0) else "set"))] += 1
        for n, (i, op, _) in enumerate(packets):
            if op != 0x11 or bits(words[i + 2], 122, 2) != 3:
                continue
            mask = bits(words[i], 12, 16)
            for j, op2, _ in packets[n + 1:]:
                if op2 == 0x11 and bits(words[j], 12, 16) & mask:
                    break
                if op2 == 0x26 and bits(words[j + 3], 25, 16) & mask and bits(words[j], 12, 1):
                    beats = bits(words[j + 1], 55, 10) + 1024 * bits(words[j], 96, 8) + 1
                    r = reading(words[i], words[i + 1])
                    iterations = 1
                    for limit in (r["limit0"],) + r["limits123"]:
                        iterations *= limit + 1
                    runs[(which, "bit 78 %d" % r["run78"], "iterations %s ceil(pop bytes / 256)" % (
                        "=" if iterations == -(-beats * 8 // 256) else "!="))] += 1
                    if iterations != -(-beats * 8 // 256):
                        examples[(which, "run != pop")].append("%s 0x%04x it %d pop %d" % (
                            label[-50:], i, iterations, beats * 8))
                    break
        for n, (i, op) in enumerate(tile):
            if op != 0x14:
                continue
            mask = bits(words[i], 12, 16)
            nexts = {}
            for j, op2 in tile[n + 1:]:
                for t in range(16):
                    if mask >> t & 1 and bits(words[j], 12, 16) >> t & 1 and t not in nexts:
                        nexts[t] = (j, op2)
                if len(nexts) == bin(mask).count("1"):
                    break
            if not nexts or not all(op2 == 0x11 for _, op2 in nexts.values()):
                continue
            select[(which, "bit 78 %d, SelectW4 %d" % (bits(words[i], 78, 1), bits(words[i + 4], 108, 2)))] += 1
            first = reading(words[min(pc for pc, _ in nexts.values())], words[min(pc for pc, _ in nexts.values()) + 1])
            iterations = 1
            for limit in (first["limit0"],) + first["limits123"]:
                iterations *= limit + 1
            written = (bits(words[i + 2], 44, 16) + 1) * 4
            for k in range(4):
                at = 2 * 128 + 77 + 33 * k
                written *= bits(words[i + at // 128], at % 128, 16) + 1
            nest_bytes[(which, "partner bit 78 %d" % first["run78"], "iterations x 256 %s nest bytes" % (
                "=" if iterations * 256 == written else ("<" if iterations * 256 < written else ">")))] += 1
            for j in sorted({pc for pc, _ in nexts.values()}):
                copy, partner = reading(words[i], words[i + 1]), reading(words[j], words[j + 1])
                flag = partner["run78"]
                if words[i] >> 62 == words[j] >> 62 and words[i + 1] == words[j + 1]:
                    result = "equal"
                elif {k for k in copy if copy[k] != partner[k]} == {"step"} and partner["limit0"] == 0:
                    result = "equal but the idle step"
                elif level_one_form(copy, partner):
                    result = "level-1 form"
                    form[(which, "partner step %d flag86 %d count %d limit0 %d" % (
                        partner["step"], partner["flag86"], partner["count"], partner["limit0"]))] += 1
                else:
                    result = "other"
                    differing[(which, flag, ",".join(sorted(k for k in copy if copy[k] != partner[k])))] += 1
                outcome[(which, "partner bit 78 %d" % flag, result)] += 1
                if result not in ("equal", "equal but the idle step"):
                    examples[(which, result)].append("%s 0x%04x/0x%04x" % (label[-70:], i, j))
    print("1. pairs by the partner's bit 78 and the copy's form")
    for key, count in sorted(outcome.items()):
        print("  %-8s %-18s %-26s %6d" % (key + (count,)))
    print("   other forms: the fields that differ")
    for key, count in sorted(differing.items()):
        print("  %-8s bit78 %d  %-50s %6d" % (key + (count,)))
    print("2. level-1 form pairs by the partner's values")
    for key, count in sorted(form.items()):
        print("  %-8s %-50s %6d" % (key + (count,)))
    print("3. every execution-only 0x11 with bit 78 clear")
    for key, count in sorted(clear_receives.items()):
        print("  %-8s %-60s %6d" % (key + (count,)))
    print("4. every paired 0x14: its copied bit 78 and Stage14SelectW4")
    for key, count in sorted(select.items()):
        print("  %-8s %-40s %6d" % (key + (count,)))
    print("5. execution-only receives fed by an input pop: iterations against ceil(the pop's bytes / 256)")
    for key, count in sorted(runs.items()):
        print("  %-8s %-10s %-40s %6d" % (key + (count,)))
    print("6. paired 0x14s: the partner's iterations x 256 against the bytes the 0x14's nest writes")
    for key, count in sorted(nest_bytes.items()):
        print("  %-8s %-18s %-34s %6d" % (key + (count,)))
    for key, lines in sorted(examples.items()):
        print("  examples %s (%d): %s" % (key, len(lines), "; ".join(lines[:8])))


if __name__ == "__main__":
    main()
