#!/usr/bin/env python3
"""The second nest of the reads a softmax pass takes (docs/decoding-log.md "nin16").

Part 1: every 0x13 of every distinct corpus program whose next compute (0x01 / 0x02 / 0x03) on its tiles is an 0x02 of the
softmax form (Max02Lanes != 0) or an 0x03 naming the read's Stage13Channel, the read having the second nest (w3 bit 101): its route (w3 bits 105 / 107), w3 bits 108 / 109, the second nest (Stage13Repeats,
Stage13StreamBeats), the triple after it (w3[139:124] run, w4[13:12] L, w4[28:14] rest), the read's groups (Stage13Groups + 1),
and the taker's beat walk (0x02: Max02BeatGroups / Max02Beats / Max02Groups + 1; 0x03: ComputeK4W0 / ComputeLimitW0[0] /
ComputeK4W10 + 1). It checks (Repeats, StreamBeats) = the taker's (groups a beat - 1, beats - 1), rest = Repeats - run where
L != 0, and (Repeats + 1)(StreamBeats + 1) - rest = the read's groups = the taker's.
Part 2: the triple's bits and w3 bit 108 over every other corpus 0x13 (must be 0).
Programs whose path contains one of --decide (default nin_cnn) are the decode set; the rest are held out.

Usage: scan_softmax_read_beats.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide SUBSTRING ...]
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_lle_envelope as envelope  # noqa: E402
import scan_lle_fields  # noqa: E402


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, ["nin_cnn"])
    import seg  # noqa: E402
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    fields = envelope.field_rows(os.path.join(root, "models", "lle", "lle_fields.def"))

    def v(packet, name, element=0):
        _, first, width, _, stride = fields[name]
        return (packet >> (first + element * stride)) & ((1 << width) - 1)

    def bits(packet, lo, width):
        return (packet >> lo) & ((1 << width) - 1)

    rows = collections.Counter()
    examples = collections.defaultdict(list)
    others = collections.Counter()
    seen = set()
    for label, _, data in scan_lle_fields.programs(corpus):
        if data in seen:
            continue
        seen.add(data)
        which = "decide" if any(d in label for d in decide) else "held out"
        words = seg.words(data)
        found, _ = seg.segment(words)
        packet = lambda i, n: sum(words[i + k] << (128 * k) for k in range(n))  # noqa: E731
        for k, (index, op, length) in enumerate(found):
            if op != 0x13:
                continue
            p = packet(index, length)
            run, level, rest = bits(p, 3 * 128 + 124, 16), bits(p, 4 * 128 + 12, 2), bits(p, 4 * 128 + 14, 15)
            b108, b109 = bits(p, 3 * 128 + 108, 1), bits(p, 3 * 128 + 109, 1)
            mask = (words[index] >> 12) & 0xFFFF
            taker = None
            for index2, op2, length2 in found[k + 1:]:
                if op2 in (0x01, 0x02, 0x03) and (words[index2] >> 12) & mask:
                    taker = (index2, op2, packet(index2, length2))
                    break
            softmax = taker and (taker[1] == 0x03 or (taker[1] == 0x02 and v(taker[2], "Max02Lanes") != 0))
            # The taker's stream: the read names the tag it sums / reduces and has the second nest (the one-line sent reads
            # between two passes, "bright02", and the max pass's (0, 1) stream read, "nin15", have none).
            softmax = softmax and v(p, "Stage13Channel") == v(taker[2], "ComputeStreamTag") and bits(p, 3 * 128 + 101, 1)
            if not softmax:
                others["other 0x13s: triple %s, w3 bit 108 %d" % ("0" if run == level == rest == 0 else "SET", b108)] += 1
                continue
            q = taker[2]
            if taker[1] == 0x02:
                walk = (v(q, "Max02BeatGroups"), v(q, "Max02Beats"), v(q, "Max02Groups") + 1)
            else:
                walk = (v(q, "ComputeK4W0"), v(q, "ComputeLimitW0", 0), v(q, "ComputeK4W10") + 1)
            repeats, beats, groups = v(p, "Stage13Repeats"), v(p, "Stage13StreamBeats"), v(p, "Stage13Groups") + 1
            covered = (repeats + 1) * (beats + 1) - (rest if level else 0)
            key = (which, "route %d,%d" % (v(p, "Stage13Route", 0), v(p, "Stage13Route", 1)), "bit108 %d bit109 %d" % (b108, b109),
                   "taker 0x%02x" % taker[1], "L %d run %d rest %d" % (level, run, rest),
                   "second nest = taker's beats: %s" % ((repeats, beats) == walk[:2]),
                   "rest = Repeats - run: %s" % (level == 0 or rest == repeats - run),
                   "covered = read's groups = taker's: %s" % (covered == groups == walk[2]))
            rows[key] += 1
            if len(examples[key]) < 3:
                examples[key].append("%s @ 0x%04x" % (label.split("/")[-1], index))
    print("# reads a softmax pass takes: %d" % sum(rows.values()))
    for key, n in sorted(rows.items()):
        print("%d\t%s\t%s" % (n, "\t".join(key), "; ".join(examples[key])))
    for key, n in sorted(others.items()):
        print("%d\t%s" % (n, key))


if __name__ == "__main__":
    main()
