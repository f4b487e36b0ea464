#!/usr/bin/env python3
"""The 0x14 staging write's w0[127:62] and w1 against its partner 0x11 receive (docs/decoding-log.md
"pair14"): for every 0x14 of every corpus program, the next tile packet on each tile of its mask
(sync 0x1a skipped: a fence moves no data), and whether those bits equal the 0x11's when that
packet is a 0x11. Split into a decide set (programs whose path contains one of --decide; default:
Dense-256 and rubensrech add_128_128) and the held-out rest, reported per corpus family. Reports:

  1. per 0x14: "every tile's next packet is a 0x11" (the rung's pairing rule; one 0x11 or one per group
     of its tiles), "some tiles only",
     "no 0x11 next"; for the paired, whether w0[127:62] and w1 equal the 0x11's;
  2. the unpaired 0x14s by the opcode that comes next on their tiles, and the same bits read in the
     0x11's layout (w0[73:62] tag, bit 78, level-0 limit w0[110:95], wraps -limit, w1[98:88] = limit
     + 1, w1[85:82] step) — whether they look like a receive's loop where no receive follows;
  3. the 12-bit tag w0[73:62] of a 0x14 followed by a compute, looked up as the w0[73:62] of any later
     0x10 / 0x11 / mesh packet and the 0x13 stream tag (w2[92:81]) on its tiles;
  4. the paired 0x14s whose w0 differs from the 0x11's (the LibrEdgeTPU bright templates' run of one
     0x14 per tile): whether tag = the 0x11's tag + rank x (limit + 1), rank = the place of the 0x14's
     tile among the 0x11's tiles and limit its own level-0 limit w0[110:95], with its wraps -limit and
     w1 holding at most the step (w1[85:82]): a slice of the receive's run, one per tile;
  5. the whole w0[127:62] of a 0x14 followed by a compute, found in which other packets of its
     bitstream (opcode, before / after it, on a shared tile or not).

Usage: scan_stage14_partner.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys
from scan_lle_fields import bits

DECIDE = ["templates/dense_256_edgetpu", "add_128_128__quant"]
COPY_W0 = ((1 << 128) - 1) ^ ((1 << 62) - 1)  # w0[127:62]
TILE_PACKETS_MAX = 0x20  # opcodes below this carry a tile mask at w0[27:12]
SYNC = 0x1A


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def mask_of(words, index):
    return bits(words[index], 12, 16)


def family(label):
    return label.split("/")[0]


def receive_reading(words, i):
    """The 0x14's copied bits read in the 0x11's layout (docs/decoding-log.md "decode4", "recvexec" §D)."""
    p = words[i] | (words[i + 1] << 128)
    limit = bits(p, 95, 16)
    wraps = [signed(bits(p, 111 + 33 * k, 17), 17) for k in range(3)]
    outer = [bits(p, 128 + 33 * k, 16) for k in range(3)]
    count, step = bits(p, 128 + 88, 11), bits(p, 128 + 82, 4)
    return (bits(p, 78, 1), all(w == -limit for w in wraps), count == limit + 1, step == (1 if limit else 0),
            outer == [0, 0, 0])


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from scan_lle_fields import decide_args, programs  # noqa: E402
    tools, corpus, decide = decide_args(__doc__, DECIDE)
    import seg  # noqa: E402

    pairing = collections.Counter()           # (set, family, rule outcome)
    unpaired_next = collections.Counter()     # (set, next opcode)
    unpaired_reading = collections.Counter()  # (next opcode, reading)
    tag_found = collections.Counter()
    ranked = collections.Counter()
    recurring = collections.Counter()  # 5.
    several = collections.Counter()  # paired with more than one 0x11 (one per group of its tiles)
    examples = collections.defaultdict(list)
    for label, _, data in programs(corpus):
        which = "decide" if any(d in label for d in decide) else "held out"
        words = seg.words(data)
        packets, _ = seg.segment(words)
        tile = [(i, op) for (i, op, _) in packets if op < TILE_PACKETS_MAX and op != SYNC]
        for n, (i, op) in enumerate(tile):
            if op != 0x14:
                continue
            nexts = {}  # tile -> (pc, opcode) of the next packet on it
            for j, op2 in tile[n + 1:]:
                for t in range(16):
                    if mask_of(words, i) >> t & 1 and mask_of(words, j) >> t & 1 and t not in nexts:
                        nexts[t] = (j, op2)
                if len(nexts) == bin(mask_of(words, i)).count("1"):
                    break
            receives = sorted({pc for pc, op2 in nexts.values() if op2 == 0x11})
            if not nexts:
                outcome = "nothing after it on its tiles"
            elif all(op2 == 0x11 for _, op2 in nexts.values()):
                # Every tile's next packet is a 0x11 (one, or one per group of its tiles): compared
                # with each, as the rung does.
                same0 = all(words[i] & COPY_W0 == words[j] & COPY_W0 for j in receives)
                same1 = all(words[i + 1] == words[j + 1] for j in receives)
                j = receives[0]
                outcome = "paired: w0 %s, w1 %s" % ("equal" if same0 else "differs", "equal" if same1 else "differs")
                if len(receives) > 1:
                    several[(which, outcome)] += 1
                if not same0:
                    partner_tiles = [t for t in range(16) if mask_of(words, j) >> t & 1]
                    mine = [t for t in range(16) if mask_of(words, i) >> t & 1]
                    rank = partner_tiles.index(mine[0]) if len(mine) == 1 and mine[0] in partner_tiles else None
                    p = words[i] | (words[i + 1] << 128)
                    limit = bits(p, 95, 16)
                    wraps_ok = all(signed(bits(p, 111 + 33 * k, 17), 17) == -limit for k in range(1))
                    w1_rest = words[i + 1] & ~(0xF << 82) & ~(((1 << 17) - 1) << 16) & ~(((1 << 17) - 1) << 49)
                    fits = (rank is not None and wraps_ok and w1_rest == 0
                            and bits(words[i], 62, 12) == bits(words[j], 62, 12) + rank * (limit + 1))
                    key = "tag = partner + rank x (limit + 1) [limit %d]" % limit if fits else "other"
                    ranked[(which, family(label), key)] += 1
                if not (same0 and same1):
                    examples[outcome].append("%s 0x%04x/0x%04x" % (label[:80], i, j))
            elif receives:
                outcome = "0x11 next on some tiles only"
                examples[outcome].append("%s 0x%04x" % (label[:80], i))
            else:
                first = min(nexts.values())
                outcome = "unpaired"
                unpaired_next[(which, "0x%02x" % first[1])] += 1
                unpaired_reading[("0x%02x" % first[1],) + receive_reading(words, i)] += 1
                if first[1] == 0x01:
                    hits = set()
                    for j, op3, _ in packets:
                        if j != i and words[j] & COPY_W0 == words[i] & COPY_W0:
                            shared = op3 < TILE_PACKETS_MAX and mask_of(words, j) & mask_of(words, i)
                            hits.add("0x%02x %s, %s" % (op3, "before" if j < i else "after",
                                                        "shared tile" if shared else "other tiles"))
                    for hit in hits or {"nowhere"}:
                        recurring[hit] += 1
                if first[1] == 0x01 and bits(words[i], 62, 12) >= 16:
                    tag = bits(words[i], 62, 12)
                    hit = "none"
                    for j, op3 in tile[n + 1:]:
                        if not mask_of(words, j) & mask_of(words, i):
                            continue
                        if op3 in (0x10, 0x11, 0x12, 0x15, 0x16, 0x18) and bits(words[j], 62, 12) == tag:
                            hit = "0x%02x w0[73:62]" % op3
                            break
                        if op3 == 0x13 and bits(words[j + 2], 81, 12) == tag:
                            hit = "0x13 w2[92:81]"
                            break
                    tag_found[hit] += 1
            pairing[(which, family(label), outcome)] += 1

    print("1. the pairing rule (every tile's next packet is a 0x11 whose w0[127:62], w1 the 0x14 copies)")
    for which in ("decide", "held out"):
        totals = collections.Counter()
        for (w, fam, outcome), count in sorted(pairing.items()):
            if w == which:
                print("  %-8s %-40s %-34s %6d" % (which, fam, outcome, count))
                totals[outcome] += count
        for outcome, count in sorted(totals.items()):
            print("  %-8s %-40s %-34s %6d" % (which, "TOTAL", outcome, count))
    for (which, outcome), count in sorted(several.items()):
        print("  %-8s %-40s %-34s %6d" % (which, "of them with several 0x11s", outcome, count))
    for outcome, lines in sorted(examples.items()):
        print("  examples, %s (%d): %s" % (outcome, len(lines), "; ".join(lines[:6])))
    print("2. unpaired 0x14s by the next opcode on their tiles")
    for key, count in sorted(unpaired_next.items()):
        print("  %-8s next %s %6d" % (key[0], key[1], count))
    print("   read as a receive's loop: (next, w0 bit 78, wraps = -limit, w1[98:88] = limit + 1, step, outer limits 0)")
    for key, count in sorted(unpaired_reading.items()):
        print("  %s %6d" % (key, count))
    print("3. tag w0[73:62] (>= 16) of a 0x14 before a compute, found later on its tiles as")
    for key, count in tag_found.most_common():
        print("  %-20s %6d" % (key, count))
    print("4. paired 0x14s whose w0[127:62] differs from the 0x11's")
    for key, count in sorted(ranked.items()):
        print("  %-8s %-40s %-46s %6d" % (key + (count,)))
    print("5. w0[127:62] of a 0x14 before a compute, found again in (one 0x14 may count in several rows)")
    for key, count in recurring.most_common():
        print("  %-32s %6d" % (key, count))


if __name__ == "__main__":
    main()
