#!/usr/bin/env python3
"""The mesh sides' shorter last repetition (docs/decoding-log.md "short18", after "relay111" §B and
"oldrecv" §C): every side of 0x15 / 0x16 / 0x17 / 0x18 that is on (stride non-zero) read at the execution-only
0x11's bits of its own nest (send: w1 bit 121 = on, w1[120:105] = L, w1[137:123] = short, w1 bit 122 beside
them; receive: w3 bit 70, w3[69:54], w3[86:72], w3 bit 71), tabulated by form:
  - ring: the relay's ring (slot bits 16:4 = 0x11, "relay111"), bit 122 / 71 clear;
  - bit 122: the side has bit 122 (receive: 71) set, with or without the flag;
and, for the flagged sides, whether short = limit0 - L with L <= limit0 and which levels count.

Then the streams: per program, per direction, per destination tile, the units every send puts on the mesh
(a FIFO, as LleRung::meshTransfer pairs them), relays taking the oldest stream sent towards them and sending
it on, receives taking the oldest; for every relay or receive whose nest has the flag, does its unit count
equal the stream's when read with its last level-0 pass L + 1 units long, and when read whole?
Split into a decide set (paths containing one of --decide; default conv 1024^2) and the held-out rest.

Usage: scan_mesh_last_run.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import collections
import math
import sys

import scan_recv11_exec_form as form
from scan_recv11_exec_form import bits

DECIDE = ["conv_2d_1_1024_1024_1_40_40"]
NEIGHBOUR = {0x15: +4, 0x16: -1, 0x17: -4, 0x18: +1}
# Absolute bit positions in the packet (word k at bit 128 k): stride, address / 4, first limit, run-mask slot,
# the last-repetition triple (L, flag, bit beside it, short).
SIDES = {
    "send": dict(stride=78, at=62, limit=95, slot=128 + 82, last=128 + 105, flag=128 + 121, beside=128 + 122, short=128 + 123),
    "receive": dict(stride=256 + 27, at=256 + 11, limit=256 + 44, slot=384 + 31, last=384 + 54, flag=384 + 70, beside=384 + 71,
                    short=384 + 72),
}
FILL = 5 * 128 + 87


def side(packet, name):
    s = SIDES[name]
    return dict(on=bits(packet, s["stride"], 17) != 0, at=bits(packet, s["at"], 16),
                limits=tuple(bits(packet, s["limit"] + 33 * i, 16) for i in range(4)),
                marks=bits(packet, s["slot"] + 4, 13), last=bits(packet, s["last"], 16), flag=bits(packet, s["flag"], 1),
                beside=bits(packet, s["beside"], 1), short=bits(packet, s["short"], 15))


def units(s, shortened):
    whole = math.prod(limit + 1 for limit in s["limits"])
    return whole - s["short"] if shortened and s["flag"] else whole


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        sys.exit(__doc__)
    decide = DECIDE
    if "--decide" in sys.argv:
        decide = sys.argv[sys.argv.index("--decide") + 1:]
    forms = collections.Counter()
    streams = collections.Counter()
    programs = collections.defaultdict(set)
    for label, packets in form.programs(args[0], args[1]):
        split = "decide" if any(d in label for d in decide) else "held out"
        sent = collections.defaultdict(collections.deque)  # (opcode, tile) -> (units, units read whole, flagged?)
        armed = collections.defaultdict(collections.deque)  # (opcode, tile) -> receive sides waiting
        for _, op, packet in packets:
            if op not in NEIGHBOUR:
                continue
            send, receive = side(packet, "send"), side(packet, "receive")
            fills = bits(packet, FILL, 1) != 0
            for s in (send, receive):
                if not s["on"] or not (s["flag"] or s["beside"]):
                    continue
                kind = "bit 122 / 71" if s["beside"] else ("ring" if s["marks"] == 0x11 else "other")
                levels = "".join(str(int(x != 0)) for x in s["limits"])
                key = (split, kind, s["flag"], levels)
                forms[key + ("sides",)] += 1
                if s["flag"]:
                    forms[key + ("short = limit0 - L",)] += s["last"] <= s["limits"][0] and s["short"] == s["limits"][0] - s["last"]
                programs[key].add(label.split("/")[-1].split("_edgetpu")[0])
            mask = bits(packet, 12, 16)
            tiles = [t for t in range(16) if mask >> t & 1]
            relay = send["on"] and receive["on"] and not fills and send["at"] == receive["at"] and send["limits"] == receive["limits"]
            if relay:
                tiles.sort(reverse=NEIGHBOUR[op] < 0)  # upstream first, as LleRung::relayMeshStream
                for t in tiles:
                    if not sent[(op, t)]:
                        streams[(split, "relay without a stream")] += 1
                        continue
                    arrived, arrived_whole, flagged_before = sent[(op, t)].popleft()
                    if receive["flag"]:
                        streams[(split, "flagged relays")] += 1
                        streams[(split, "flagged relays: stream = shortened walk")] += arrived == units(receive, True)
                        streams[(split, "flagged relays: stream = whole walk (every side read whole)")] += (
                            arrived_whole == units(receive, False))
                        if arrived != units(receive, True):
                            print("# %s: relay 0x%02x on tile %d: %d units arrived, its walk %s (L %d) takes %d" %
                                  (label, op, t, arrived, receive["limits"], receive["last"], units(receive, True)), file=sys.stderr)
                    sent[(op, t + NEIGHBOUR[op])].append((arrived, arrived_whole, flagged_before or receive["flag"]))
                continue
            if send["on"]:
                for t in tiles:
                    sent[(op, t + NEIGHBOUR[op])].append((units(send, True), units(send, False), send["flag"]))
            if receive["on"] and not fills:
                for t in tiles:
                    armed[(op, t)].append(receive)
            for t in range(16):
                queue, waiting = sent[(op, t)], armed[(op, t)]
                while queue and waiting:
                    count, count_whole, flagged_send = queue.popleft()
                    r = waiting.popleft()
                    if r["flag"] or flagged_send:
                        streams[(split, "flagged pairs")] += 1
                        streams[(split, "flagged pairs: units agree, shortened")] += count == units(r, True)
                        streams[(split, "flagged pairs: units agree, every side read whole")] += count_whole == units(r, False)
                        if count != units(r, True):
                            print("# %s: 0x%02x into tile %d: %d units sent, the receive %s takes %d" %
                                  (label, op, t, count, r["limits"], units(r, True)), file=sys.stderr)
    print("| part | form | flag | levels counting (0123) | sides | short = limit0 - L | programs |")
    print("|---|---|---|---|---|---|---|")
    for key in sorted(k[:4] for k in forms if k[4] == "sides"):
        print("| %s | %s | %d | %s | %d | %d | %s |" % (*key, forms[key + ("sides",)], forms[key + ("short = limit0 - L",)],
                                                    ", ".join(sorted(programs[key])[:3]) + (" ..." if len(programs[key]) > 3 else "")))
    print()
    for key in sorted(streams):
        print("%s: %s: %d" % (key[0], key[1], streams[key]))


if __name__ == "__main__":
    main()
