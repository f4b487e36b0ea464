#!/usr/bin/env python3
"""The mesh packets with both sides off (docs/decoding-log.md "nin16").

Part 1: every 0x15-0x18 mesh packet (0x17's immediate form aside) of every distinct corpus program whose send and receive
level-0 strides are both 0: both flags, both run masks, both slots' bits above the level bits (0x17's receive: Fill17Step >> 4),
whether both sides name one address and one nest with carries 0 and no last-run flag, and the region's on bit and bus
(the packet's own: opcode - 0x12). Also every packet with the slot marks 4 on either side, and every other side with stride
0 and flags != 0.
Part 2: a program-order walk of the mesh streams per direction and tile, as the rung pairs them (a send pushes its units
towards its neighbour, a receive or relay takes the oldest stream sent towards its tile, a pass-through takes it and pushes it
on whole): for each pass-through tile, whether the stream sent last towards it carries the packet's nest's units, and whether
the oldest stream still queued towards it does (the walk's unit counts are first-order -- relays' rings, last runs beyond
L = 1 and the receives' own shapes are not modelled -- so streams it cannot pair stay queued and the oldest is often stale).
Units: the product of a side's counts less its last-run shortfall (LastShort x the count of the levels above 0 up to L,
only L = 1 here: a first-order count). Programs whose path contains one of --decide (default nin_cnn) are the decode set.

Usage: scan_mesh_pass_through.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_lle_envelope as envelope  # noqa: E402
import scan_lle_fields  # noqa: E402

OFFSET = {0x15: 4, 0x16: -1, 0x17: -4, 0x18: 1}


def layout(op):
    if op == 0x17:
        return dict(ss="Mesh17SendStride", rs="Mesh17RecvStride", sf="Mesh17SendFlags", rf="Fill17Flags", sa="Mesh17SendAt4",
                    ra="Fill17At4", sl="Mesh17SendLimit", rl="Fill17Limit", sc="Mesh17SendCarry", rc="Fill17Carry",
                    slo="Mesh17SendLevelOn", sm="Mesh17SendRingMarks", on="Mesh17RegionOn", link="Mesh17RegionLink",
                    slast="Mesh17SendLastRunOn", rlast="Mesh17RecvLastRunOn", sshort="Mesh17SendLastShort", rshort="Mesh17RecvLastShort")
    n = "Mesh%X" % op
    return dict(ss=n + "SendStride", rs=n + "RecvStride", sf=n + "SendFlags", rf=n + "Flags", sa=n + "SendAt4", ra=n + "RecvAt4",
                sl=n + "SendLimit", rl=n + "RecvLimit", sc=n + "SendCarry", rc=n + "RecvCarry", slo=n + "SendLevelOn",
                rlo=n + "RecvLevelOn", sm=n + "SendRingMarks", rm=n + "RecvRingMarks", on=n + "RegionOn", link=n + "RegionLink",
                slast=n + "SendLastRunOn", rlast=n + "RecvLastRunOn", sshort=n + "SendLastShort", rshort=n + "RecvLastShort")


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, ["nin_cnn"])
    import seg  # noqa: E402
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fields = envelope.field_rows(os.path.join(root, "models", "lle", "lle_fields.def"))

    def v(packet, name, element=0):
        _, first, width, _, stride = fields[name]
        return (packet >> (first + element * stride)) & ((1 << width) - 1)

    shapes, programs = collections.Counter(), collections.defaultdict(set)
    paired = collections.Counter()
    seen = set()
    for label, _, data in scan_lle_fields.programs(corpus):
        if data in seen:
            continue
        seen.add(data)
        which = "decide" if any(d in label for d in decide) else "held out"
        name = label.split("/")[-1].split("#")[0]
        words = seg.words(data)
        found, _ = seg.segment(words)
        sent = collections.defaultdict(collections.deque)  # (op, tile) -> units of the streams sent towards it
        for index, op, length in found:
            if op not in OFFSET:
                continue
            f = layout(op)
            p = sum(words[index + k] << (128 * k) for k in range(length))
            if op == 0x17 and v(p, "Fill17Immediate"):
                continue
            mask = (words[index] >> 12) & 0xFFFF
            step = v(p, "Fill17Step") if op == 0x17 else 0
            rlo = step & 15 if op == 0x17 else v(p, f["rlo"])
            rm = step >> 4 if op == 0x17 else v(p, f["rm"])
            ss, rs = v(p, f["ss"]), v(p, f["rs"])

            def units(limit, last, short):
                count = 1
                for e in range(4):
                    count *= v(p, limit, e) + 1
                return count - (v(p, short) * (v(p, limit, 1) + 1) // (v(p, limit, 1) + 1) if v(p, last) else 0)

            order = sorted(range(16), reverse=OFFSET[op] < 0)
            if ss == 0 and rs == 0:
                same = v(p, f["sa"]) == v(p, f["ra"]) and all(v(p, f["sl"], e) == v(p, f["rl"], e) for e in range(4))
                still = all(v(p, f["sc"], e) == 0 and v(p, f["rc"], e) == 0 for e in range(3)) and not v(p, f["slast"]) and not v(p, f["rlast"])
                key = ("0x%02x both strides 0" % op, "flags %d/%d" % (v(p, f["sf"]), v(p, f["rf"])),
                       "run masks %d/%d, marks %d/%d" % (v(p, f["slo"]) & 15, rlo, v(p, f["sm"]), rm),
                       "one address and nest, carries 0, no last run: %s" % (same and still),
                       "region on %d, own bus %s" % (v(p, f["on"]), v(p, f["link"]) == op - 0x12))
                shapes[key] += 1
                programs[key].add(name)
                want = units(f["rl"], f["rlast"], f["rshort"])
                for t in order:
                    if not mask & (1 << t):
                        continue
                    queue = sent[(op, t)]
                    oldest = queue[0] if queue else None
                    got = queue.pop() if queue else None  # the stream sent last towards it (see the docstring)
                    paired[(which, "the last stream sent towards it carries the nest's units: %s" % (got == want),
                            "so does the oldest still queued: %s" % (oldest == want))] += 1
                    sent[(op, t + OFFSET[op])].append(want if got is None else got)
                continue
            if v(p, f["sm"]) == 4 or rm == 4:
                shapes[("0x%02x marks 4 with a side on" % op,)] += 1
            if (ss == 0 and v(p, f["sf"])) or (rs == 0 and v(p, f["rf"])):
                shapes[("0x%02x flags on a side that is off, the other on" % op,)] += 1
            relay = ss and rs and v(p, f["sa"]) == v(p, f["ra"])
            for t in order:
                if not mask & (1 << t):
                    continue
                if rs:
                    queue = sent[(op, t)]
                    got = queue.popleft() if queue else None
                    if relay:
                        sent[(op, t + OFFSET[op])].append(got if got is not None else units(f["rl"], f["rlast"], f["rshort"]))
                if ss and not relay:
                    sent[(op, t + OFFSET[op])].append(units(f["sl"], f["slast"], f["sshort"]))
    print("# mesh packets with both strides 0 (part 1)")
    for key, n in sorted(shapes.items()):
        print("%d\t%s\t%s" % (n, "\t".join(key), ", ".join(sorted(programs[key]))))
    print("# pass-through tiles (part 2)")
    for key, n in sorted(paired.items()):
        print("%d\t%s" % (n, "\t".join(key)))


if __name__ == "__main__":
    main()
