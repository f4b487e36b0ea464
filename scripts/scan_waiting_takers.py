#!/usr/bin/env python3
"""Computes waiting for their weight stream, per tile, over every distinct corpus bitstream (docs/decoding-log.md
"wait2"): the question is what a tile does with two computes waiting at once.

Walk in program order. An execution-only 0x11 (w2 bit 122) arms its tag (Recv11ExecStream) on its tiles; a 0x12 or a
0x13 taken by a compute (Stage13TakenByCompute) arms another kind of stream there. An input pop (0x26 with PopIsInput)
into a tile marks the 0x11 stream armed there as the host's input stream ("input-fed"). A 0x01 whose ComputeStreamTag is
the 0x11 tag armed on its tiles takes that stream ("a taker"); a taker of a stream that is not input-fed waits until its
weights come: the host-bound weight-feed send (0x10 with Dma10WeightFeed and Dma10ToOutfeed) after a stream-feeding pop
(PopStreamFeed 3) feeds the waiting takers on the pop's tiles, a ring send of wide rows (0x10, not to the outfeed,
Dma10WeightFeed clear, Dma10RingSource 0, Dma10RingSourceForm 0, 1; "c10w0") the first waiting taker on each tile it names,
a parameter pop (not input, PopStreamFeed 0) into a tile with a waiting taker the first there ("dense43b").

Prints: takers of input-fed / other streams with their K groups (ComputeK4W0 + 1) and prefix (ComputeParamPrefix); every
time a taker arrives on a tile where another still waits (first and second by kind); how many takers each feed send
found per tile; what is left waiting at the end. Split decide / held out.

Usage: scan_waiting_takers.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide NAME...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_lle_envelope  # noqa: E402
import scan_lle_fields  # noqa: E402

DECIDE = ["model_mobilenet_v2_wo_fc_1024x512x3"]
ROWS = gen_lle_envelope.field_rows(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "lle", "lle_fields.def"))


def F(packet, name):
    return gen_lle_envelope.field_value(packet, ROWS[name])


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    import seg  # noqa: E402
    counts = collections.Counter()
    examples = collections.defaultdict(list)
    for label, part, words, packets in scan_lle_fields.distinct_segmented_programs(seg, corpus, decide):
        name = label.split("#")[0]
        armed = [None] * 16       # [kind, tag, input-fed]
        waiting = [[] for _ in range(16)]
        kept = [None] * 16        # (Stage13Channel, pc) of the last kept read
        feed_pop = None
        for i, op, length in packets:
            packet = 0
            for k in range(length):
                packet |= words[i + k] << (128 * k)
            mask = (words[i] >> 12) & 0xFFFF
            tiles = [t for t in range(16) if mask >> t & 1]
            if op == 0x11 and length >= 3 and (packet >> (2 * 128 + 122)) & 1:
                for t in tiles:
                    armed[t] = ["0x11", F(packet, "Recv11ExecStream"), False, i]
            elif op == 0x12:
                for t in tiles:
                    armed[t] = ["0x12", None, False]
            if op == 0x13 and length >= 3 and F(packet, "Stage13Route") == 0:
                for t in tiles:  # a kept read (Stage13Route 0, 0) under its stream tag, after whatever is armed there
                    kept[t] = (F(packet, "Stage13Channel"), i)
                    if armed[t] and armed[t][0] == "0x11" and armed[t][1] == kept[t][0]:
                        counts[(part, "tile-reads of a kept read on the tag of the 0x11 armed there, %s" % (
                            "input-fed" if armed[t][2] else "not input-fed"))] += 1
            if op == 0x13 and length >= 5 and F(packet, "Stage13Route") != 0 and F(packet, "Stage13TakenByCompute"):
                for t in tiles:
                    armed[t] = ["0x13", F(packet, "Stage13Channel"), False]
            elif op == 0x26 and length >= 4:
                pop_tiles = [t for t in range(16) if F(packet, "PopTiles") >> t & 1]
                if F(packet, "PopIsInput"):
                    for t in pop_tiles:
                        if armed[t] and armed[t][0] == "0x11":
                            armed[t][2] = True
                elif F(packet, "PopStreamFeed") == 3:
                    feed_pop = pop_tiles
                elif F(packet, "PopStreamFeed") == 0:
                    for t in pop_tiles:
                        if waiting[t]:
                            waiting[t].pop(0)
                            counts[(part, "a parameter pop fed the first waiting taker on a tile")] += 1
            elif op == 0x01 and length >= 17:
                tag = F(packet, "ComputeStreamTag")
                took = [t for t in tiles if armed[t] and armed[t][0] == "0x11" and armed[t][1] == tag]
                if not took:
                    continue
                input_fed = any(armed[t][2] for t in took)
                kind = "input-fed" if input_fed else "other"
                counts[(part, "takers of %s 0x11 streams: K groups %d, ComputeParamPrefix %d" % (
                    kind, F(packet, "ComputeK4W0") + 1, F(packet, "ComputeParamPrefix")))] += 1
                kept_after = all(kept[t] and kept[t][0] == tag and kept[t][1] > armed[t][3] for t in took)
                counts[(part, "takers of %s 0x11 streams: a kept read on their tag after the 0x11 on all their tiles: %s" % (
                    kind, kept_after))] += 1
                if input_fed:
                    examples[part + " input-fed taker"].append("%s 0x%04x tiles %s, mode 0x%x" % (
                        name, i, ",".join(map(str, took)), F(packet, "ComputeModeW15High")))
                for t in took:
                    armed[t] = None
                    if input_fed and "--input-waits" not in sys.argv:
                        continue
                    if waiting[t]:
                        counts[(part, "a taker on a tile where another still waits")] += 1
                        examples[part].append("%s tile %d: 0x%04x waits, 0x%04x comes" % (name, t, waiting[t][0], i))
                    waiting[t].append(i)
            elif op == 0x10 and length >= 4:
                to_outfeed, weight_feed = F(packet, "Dma10ToOutfeed"), F(packet, "Dma10WeightFeed")
                if to_outfeed and weight_feed and feed_pop is not None:
                    for t in feed_pop:
                        counts[(part, "host weight-feed send: %d taker(s) waiting on a pop tile" % len(waiting[t]))] += 1
                        waiting[t] = []
                    feed_pop = None
                elif (not to_outfeed and not weight_feed and F(packet, "Dma10RingSource") == 0 and
                      F(packet, "Dma10RingSourceForm") == 1 << 2):  # elements [0] = 0, [1] = 1 packed from element 0 up
                    for t in range(16):
                        if F(packet, "Dma10RingTiles") >> t & 1:
                            counts[(part, "ring send of wide rows: %d taker(s) waiting on a named tile" % len(waiting[t]))] += 1
                            if waiting[t]:
                                waiting[t].pop(0)
        for t in range(16):
            for pc in waiting[t]:
                counts[(part, "left waiting at the end of the bitstream")] += 1
                examples[part + " left"].append("%s tile %d: 0x%04x" % (name, t, pc))
    for key, value in sorted(counts.items()):
        print("%6d  %-9s %s" % (value, key[0], key[1]))
    for key, lines in sorted(examples.items()):
        for line in lines[:40]:
            print("example", key, line)
        if len(lines) > 40:
            print("example", key, "... %d more" % (len(lines) - 40))


if __name__ == "__main__":
    main()
