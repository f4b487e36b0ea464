#!/usr/bin/env python3
"""Which levels of a prefixed weight stream the compute-feeding 0x14 after it counts as output blocks
(docs/decoding-log.md "bias14"). For every corpus compute-feeding 0x14 (w4 bit 101, Stage14FeedsCompute) whose
previous tile packet on its first tile (fences skipped) is a prefixed stream receive -- an execution-only 0x11 with
its nest (w2 bit 122, w0 bit 78) or a 0x12 with its nest, prefix flag w2 bit 11 -- the write's blocks w1[15:0]
against the receive's repeats (levels 1-3: 16 bits at w1 bit 0, 33, 66):

  levels 2-3  = (repeat[2] + 1)(repeat[3] + 1) - 1    (level 1 counts K parts)
  levels 1-3  = (repeat[1] + 1)(repeat[2] + 1)(repeat[3] + 1) - 1    (level 1 counts output blocks)

split by the prefix form (Bytes8 w2[63:57] = 32 x arrays: whole; + 1: the bias form) and whether level 1 counts.
Then the stream-feeding pop after the write (0x26, PopStreamFeed w2[60:59] = 3, parameter class, PopTiles w3[40:25]
naming the write's first tile): its 256-byte rows (PopBeatsHigh w0[103:96] x (PopRingLimit w0[74:55] + 1) + the last
pass, PopBeatsLow w1[64:55] + 1 or a whole ring where PopRingNeg16 w1[86:75] is 0; x 64 / 256) against
blocks x prefix arrays + transfers for either reading, where the two readings differ. Receives with a shorter last
repetition (0x11 w1 bit 121) are left out of the pop comparison. Decide set: programs whose path contains one of
--decide (default model_conv and MobileNet v2 wo_fc 224); the rest held out.

Usage: scan_stream_prefix_blocks.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import os
import sys
from scan_lle_fields import bits

DECIDE = ["model_conv_128x128x3x32x7x10", "model_mobilenet_v2_wo_fc_224x224x3"]
TILE_PACKETS_MAX = 0x20  # opcodes below this carry a tile mask at w0[27:12]
SYNC = 0x1A
POP = 0x26
UNITS8_PER_ARRAY = 32  # a 256-byte prefix array in 8-byte units
ROW_BYTES = 256


def packet_value(words, index, length):
    value = 0
    for k in range(length):
        value |= words[index + k] << (128 * k)
    return value


def prefixed_stream(opcode, p):
    """(bytes8, run, repeats, shorter last repetition) of a prefixed stream receive, or None."""
    if opcode == 0x11 and not (bits(p, 256 + 122, 1) and bits(p, 78, 1)):
        return None
    if opcode == 0x12 and not bits(p, 78, 1):
        return None
    if opcode not in (0x11, 0x12) or not bits(p, 256 + 11, 1):
        return None
    repeats = [bits(p, 128 + 33 * e, 16) for e in range(3)]
    return bits(p, 256 + 57, 7), bits(p, 95, 16), repeats, opcode == 0x11 and bits(p, 128 + 121, 1) == 1


def pop_rows(p):
    ring = bits(p, 55, 20) + 1
    last = ring if bits(p, 128 + 75, 12) == 0 else bits(p, 128 + 55, 10) + 1
    return (bits(p, 96, 8) * ring + last) * 64 / ROW_BYTES


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from scan_lle_fields import decide_args, programs  # noqa: E402
    _, corpus, decide = decide_args(__doc__, DECIDE)
    import seg  # noqa: E402

    readings = collections.Counter()
    pops = collections.Counter()
    examples = collections.defaultdict(list)
    for label, _, data in programs(corpus):
        which = "decide" if any(d in label for d in decide) else "held out"
        words = seg.words(data)
        packets, _ = seg.segment(words)
        previous = [None] * 16
        for k, (i, op, n) in enumerate(packets):
            if op >= TILE_PACKETS_MAX or op == SYNC:
                continue
            mask = bits(words[i], 12, 16)
            p = packet_value(words, i, n)
            tiles = [t for t in range(16) if mask >> t & 1]
            if op == 0x14 and bits(p, 512 + 101, 1) and tiles and previous[tiles[0]]:
                before = previous[tiles[0]]
                stream = prefixed_stream(before[1], before[2])
                if stream:
                    bytes8, run, rep, shorter = stream
                    form = "bias" if bytes8 % UNITS8_PER_ARRAY == 1 else "whole" if bytes8 % UNITS8_PER_ARRAY == 0 else "other"
                    blocks = bits(p, 128, 16)
                    levels23 = (rep[1] + 1) * (rep[2] + 1) - 1
                    levels13 = (rep[0] + 1) * (levels23 + 1) - 1
                    reading = ("both" if levels23 == levels13 else "levels 2-3") if blocks == levels23 else \
                        "levels 1-3" if blocks == levels13 else "neither"
                    readings[(which, form, "level 1 counts" if rep[0] else "level 1 idle", reading)] += 1
                    if reading in ("levels 2-3", "levels 1-3") and not shorter:
                        arrays = bytes8 // UNITS8_PER_ARRAY
                        transfers = (run + 1) * (levels13 + 1)
                        pop = None
                        for j, op2, n2 in packets[k + 1:]:
                            if op2 != POP:
                                continue
                            q = packet_value(words, j, n2)
                            if bits(q, 256 + 59, 2) == 3 and bits(q, 12, 1) == 0 and bits(q, 384 + 25, 16) >> tiles[0] & 1:
                                pop = (j, pop_rows(q))
                                break
                        said = "no feeding pop"
                        if pop:
                            said = "pop = levels 2-3" if pop[1] == (levels23 + 1) * arrays + transfers else \
                                "pop = levels 1-3" if pop[1] == (levels13 + 1) * arrays + transfers else "pop = neither"
                        pops[(which, "write = " + reading, said)] += 1
                        if len(examples[(which, reading, said)]) < 3:
                            examples[(which, reading, said)].append(
                                "%s 0x%04x after 0x%02x @ 0x%04x: run %d repeats %s blocks %d; pop %s" %
                                (label[-70:], i, before[1], before[0], run, rep, blocks,
                                 "0x%04x %g rows" % pop if pop else "none"))
            for t in tiles:
                previous[t] = (i, op, p)

    print("1. compute-feeding 0x14s after a prefixed stream: (set, prefix form, level 1, blocks = which levels)")
    for key, count in sorted(readings.items()):
        print("  %-8s %-6s %-15s %-11s %6d" % (key + (count,)))
    print("2. where the readings differ: the feeding pop's rows = blocks x arrays + transfers for which reading")
    for key, count in sorted(pops.items()):
        print("  %-8s %-20s %-18s %6d" % (key + (count,)))
    print("3. examples")
    for key in sorted(examples):
        for line in examples[key]:
            print("  %-8s %s" % (key[0], line))


if __name__ == "__main__":
    main()
