#!/usr/bin/env python3
"""The 0x13 read's partial-run mark (docs/decoding-log.md "w2k13"): w2[61:46] (the run), w2[64:62] (the level L whose
last iteration holds the partial runs), w2[79:65] (the rest), over every distinct corpus bitstream.

Usage: scan_read13_partial_run.py SHARED_TOOLS_ISA_DIR CORPUS_DIR [--decide NAME...]
For every 0x13 whose w2[80:25] is not zero, and as a count for all: whether the bits outside w2[79:46] are
clear, whether L is the outermost counting level of the read's nest (read_nest.h: level 0 Stage13Groups with its
Stage13Step, levels 1-4 Stage13OuterLimit with the carries Stage13Wrap), which level below L runs one unit at a
time (stride +1: the unit level k), and whether run + rest = limit_k. Then every read a 0x14 copies (w4 bits 36 and 38,
Stage13TakenByCopy) joined with the next 0x14 on its tiles: whether that write has the row form (Stage14SourceRowForm w4
bit 11) with Stage14SourceRowRest (w3[138:123]) = the run and Stage14SourceRowSkip (w4[29:14]) = the rest, and whether its
nest (Stage14Groups w2[59:44] where Stage14LoopOn w3 bit 80, Stage14OuterLimit w2 bits 77 + 33 i) writes the read's whole
walk or the walk less the rest of each run of L's last iteration. Decide set: programs whose path
contains one of the --decide names (default ensemble_edgetpu, deeplab_mobilenet_edgetpu_slim); the rest held out.
"""
import collections
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the one corpus walk)
from scan_lle_fields import bits as field  # noqa: E402


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def nest(packet):
    """(limits, strides) of the read's five levels, as read_nest.h / loop_nest.h build them."""
    limits = [field(packet, 95, 16) if field(packet, 256 + 20, 1) else 0]
    limits += [field(packet, 128 + 33 * i, 16) if field(packet, 256 + 21 + i, 1) else 0 for i in range(4)]
    strides = [signed(field(packet, 78, 17), 17)]
    for i in range(1, 5):
        strides.append(signed(field(packet, 111 + 33 * (i - 1), 17), 17) + sum(limits[j] * strides[j] for j in range(i)))
    return limits, strides


def join_copies(seg, data, label, part, copied, counts):
    """The next 0x14 on the tiles of each copied read of one bitstream, as the docstring says."""
    if not copied:
        return
    words = seg.words(data)
    found, _ = seg.segment(words)
    packets = [(i, op, sum(w << (128 * k) for k, w in enumerate(words[i:i + length]))) for i, op, length in found]
    for n, (pc, op, _) in enumerate(packets):
        if (part, label, pc) not in copied:
            continue
        packet, limits, strides, run, level, rest, k = copied[(part, label, pc)]
        whole = 1
        for limit in limits:
            whole *= limit + 1
        runs = 1
        for i in range(level):
            if i != k:
                runs *= limits[i] + 1
        less = whole - rest * runs if level else whole
        for _, later, write in packets[n + 1:]:
            if later != 0x14 or not field(write, 12, 16) & field(packet, 12, 16):
                continue
            units = field(write, 256 + 44, 16) + 1 if field(write, 384 + 80, 1) else 1
            for i in range(4):
                units *= field(write, 256 + 77 + 33 * i, 16) + 1
            form = field(write, 512 + 11, 1)
            key = "%s: copied reads %s the mark" % (part, "with" if level else "without")
            counts[key] += 1
            counts[key + ", 0x14 of the row form"] += form
            counts[key + ", row form with RowRest = run and RowSkip = rest"] += (
                form and field(write, 384 + 123, 16) == run and field(write, 512 + 14, 16) == rest)
            counts[key + ", 0x14 writes the whole walk"] += units == whole
            counts[key + ", 0x14 writes the walk less the rests"] += units == less and less != whole
            break


def main():
    _, corpus, decide = scan_lle_fields.decide_args(__doc__, ["ensemble_edgetpu", "deeplab_mobilenet_edgetpu_slim"])
    import seg  # noqa: E402
    seen = set()
    counts = collections.Counter()
    copied = {}
    for label, _, data in scan_lle_fields.programs(corpus):
        digest = hashlib.sha1(data).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        part = "decide" if any(name in label for name in decide) else "held out"
        for pc, packet in scan_lle_fields.opcode_packets(seg, data, 0x13):
            w2 = field(packet, 256, 128)
            counts["0x13s"] += 1
            limits, strides = nest(packet)
            copied_read = field(packet, 512 + 36, 1) and field(packet, 512 + 38, 1)
            if field(w2, 25, 56) == 0:
                if copied_read:
                    copied[(part, label, pc)] = (packet, limits, strides, 0, 0, 0, None)
                continue
            counts[part + ": reads with w2[80:25] set"] += 1
            outside = field(w2, 25, 21) | field(w2, 80, 1)
            last_run, level, short = field(w2, 46, 16), field(w2, 62, 3), field(w2, 65, 15)
            counting = [i for i in range(5) if limits[i]]
            outermost = max(counting) if counting else 0
            unit = [i for i in range(level) if strides[i] == 1 and limits[i]]
            k = unit[0] if unit else None
            ok = outside == 0 and level == outermost and k is not None and short == limits[k] - last_run
            counts[part + ": L = outermost counting level, run + rest = limit_k (k the innermost stride-1 level)"] += ok
            print("%s\t%s\t0x%04x\tL %d\tk %s\tlimits %s\tstrides %s\trun %d\trest %d\t%s" % (
                part, label, pc, level, k, limits, strides, last_run, short, "ok" if ok else "MISS"))
            if copied_read:
                copied[(part, label, pc)] = (packet, limits, strides, last_run, level, short, k)
        join_copies(seg, data, label, part, copied, counts)
        copied.clear()
    for key, value in counts.items():
        print("# %s: %d" % (key, value))


if __name__ == "__main__":
    main()
