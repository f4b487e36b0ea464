#!/usr/bin/env python3
"""Part-row parameter pops (docs/decoding-log.md "dense45"): over every distinct corpus bitstream, each parameter pop
(0x26, PopIsInput w0 bit 12 clear, PopStreamFeed w2[60:59] 0) with PopRowQuarters (w3[55:54]) < 3, classified by what
waits for it on its tiles (PopTiles w3[40:25]) at that point of the program:
  receive   -- a parameter-caching 0x11 (w2 bit 122 clear) on the tile not yet filled by a pop;
  staging   -- a 0x14 on the tile since its last pop (what the rung arms as a staging write);
  stream    -- a compute that took a looping execution-only 0x11 stream (not re-armed by a 0x12 since) (its tag w0[73:62] = the compute's
               ComputeStreamTag w7[74:63]) and no pop since.
For the pops with a waiting stream it prints the stream's rows (prefix arrays + transfers, as the rung reads a receive:
Recv11PrefixOn w1 bit 58 ... -- here taken as the pop's rows), the pop's rows (ring bytes / 64 / (quarters)), and the
waiting compute's lanes (4 x (ComputeLaneGroups + 1)) against the part's 16 x (quarters) lanes.

Usage: scan_part_row_pops.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide NAME...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402
from scan_lle_fields import bits as field  # noqa: E402

DECIDE = ["model_dense_2x2x3x100x100"]


def pop_ring_bytes(w):
    """The pop's length in ring bytes (= stream bytes for a parameter pop), as lle_rung.cc pop() reads it."""
    beats = (field(w[0], 96, 8) << 10 | field(w[1], 55, 10)) + 1
    repeat = field(w[1], 75, 12)
    if beats == 1 and repeat == 0:
        beats = field(w[0], 55, 20) + 1
    return beats * 64


def stream_rows(w):
    """Rows of the stream an execution-only 0x11 arms, as lle_rung.cc reads it: Recv11PrefixBytes8 (w2[63:57]) / 32
    prefix arrays where Recv11PrefixOn (w2 bit 11), then (Recv11ExecRun w0[110:95] + 1) x the three repeats + 1
    (16 bits from packet bit 128, 33 apart) transfers (a short last run not subtracted)."""
    packet = sum(word << (128 * k) for k, word in enumerate(w))
    transfers = field(packet, 95, 16) + 1
    for i in range(3):
        transfers *= field(packet, 128 + 33 * i, 16) + 1
    return (field(w[2], 57, 7) // 32 if field(w[2], 11, 1) else 0) + transfers


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, DECIDE)
    import seg  # noqa: E402
    counts = collections.Counter()
    programs = collections.defaultdict(set)
    details = []
    tally = collections.Counter()
    for label, part, words, packets in scan_lle_fields.distinct_segmented_programs(seg, corpus, decide):
        armed = [None] * 16     # (tag, stream rows) of the tile's execution-only stream, not yet taken
        took = [None] * 16      # (pc, lanes) of the compute that took the tile's stream, no pop since
        receives = [0] * 16     # caching receives not yet filled
        staging = [False] * 16  # a 0x14 since the tile's last pop
        for i, op, length in packets:
            w = words[i:i + length]
            mask = field(w[0], 12, 16)
            tiles = [t for t in range(16) if mask >> t & 1]
            if op == 0x11 and length >= 3:
                for t in tiles:
                    if field(w[2], 122, 1):
                        armed[t] = (field(w[0], 62, 12), stream_rows(w))
                    else:
                        receives[t] += 1
            elif op == 0x12:
                for t in tiles:   # a 0x12 arms the tile's stream anew; a ring send feeds it, not the host
                    armed[t] = None
            elif op == 0x14 and length >= 3:
                for t in tiles:
                    staging[t] = True
            elif op == 0x01 and length >= 8:
                tag = field(w[7], 63, 12)
                lanes = 4 * (field(w[4], 99, 20) + 1)
                for t in tiles:
                    if armed[t] and armed[t][0] == tag:
                        armed[t], took[t] = None, (i, lanes, armed[t][1])
            elif op == 0x26 and length >= 4 and not field(w[0], 12, 1):
                ptiles = [t for t in range(16) if field(w[3], 25, 16) >> t & 1]
                quarters = field(w[3], 54, 2) + 1
                if quarters < 4 and field(w[2], 59, 2) == 0:
                    kind = []
                    if any(receives[t] for t in ptiles):
                        kind.append("receive")
                    if any(staging[t] for t in ptiles):
                        kind.append("staging")
                    if any(took[t] for t in ptiles):
                        kind.append("stream")
                    key = (part, "quarters %d" % quarters, "+".join(kind) or "nothing")
                    counts[key] += 1
                    programs[key].add(label.split("/")[-1])
                    waiting = [took[t] for t in ptiles if took[t]]
                    if waiting:
                        rows = pop_ring_bytes(w) // (64 * quarters)
                        tally[(part, "rows = stream rows")] += all(rows == c[2] for c in waiting)
                        tally[(part, "quarters = ceil(lanes / 16)")] += all(quarters == -(-c[1] // 16) for c in waiting)
                        tally[(part, "pops with a waiting stream")] += 1
                    if "stream" in kind or ("staging" in kind and "receive" not in kind):
                        details.append((label.split("/")[-1], "0x%04x" % i, "quarters %d" % quarters,
                                        "bytes %d" % pop_ring_bytes(w), "rows %d" % (pop_ring_bytes(w) // (64 * quarters)),
                                        "tiles %s" % ptiles, "compute (pc, lanes, stream rows) %s" % sorted(set(
                                            ("0x%04x" % took[t][0], took[t][1], took[t][2]) if took[t] else None for t in ptiles),
                                            key=str), "+".join(kind)))
                for t in ptiles:
                    if receives[t]:
                        receives[t] -= 1
                    staging[t] = False
                    took[t] = None
    for key in sorted(counts):
        print(" | ".join(key), counts[key], "programs:", len(programs[key]), sorted(programs[key])[:5])
    for key in sorted(tally):
        print(" | ".join(key), tally[key])
    for d in details:
        print(*d)


if __name__ == "__main__":
    main()
