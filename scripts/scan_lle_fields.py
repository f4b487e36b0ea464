#!/usr/bin/env python3
"""Field scanner for decoding (docs/decoding-log.md): the values that chosen bit ranges of one packet
opcode take in every corpus program, one row per packet, so a hypothesis about a field can be checked
against all programs at once (and a hold-out split made by program name).

Usage: scan_lle_fields.py SHARED_TOOLS_ISA_DIR CORPUS_DIR OPCODE FIELD... [--signed] [--only SUBSTRING]
  FIELD is wK[hi:lo] (bits of word K of the packet), e.g. w0[105:96] w1[20:14]
Output (tab-separated): program, executable type, word index of the packet (PC), the field values,
then the packet's tile mask and, for tile packets, its sequence number; a header row names the columns.
With --signed the fields are read as two's complement of their width.

Programs: every *_edgetpu.tflite (all executables and chunks) and every raw *.coral under CORPUS_DIR.
The shared reference parsers (tfl.py, seg.py) are used as libraries; nothing of them is copied.
"""
import glob
import hashlib
import os
import re
import sys

FIELD = re.compile(r"w(\d+)\[(\d+):(\d+)\]$")


def bits(value, lsb, width):
    """The `width` bits of `value` from bit `lsb` up (a word's or a whole packet's bits): the one field reader of the scan
    scripts, so a reading bug is fixed once."""
    return (value >> lsb) & ((1 << width) - 1)


def bit_range(value, hi, lo):
    """Bits hi..lo of `value`, both ends included, as the decoding log writes them (w2[87:81])."""
    return bits(value, lo, hi - lo + 1)


def packet_bits(packet, word, lsb, width, signed=False):
    """Bits of 128-bit word `word` of a packet held as one integer (word 0 lowest), two's complement with `signed`."""
    x = bits(packet, 128 * word + lsb, width)
    return x - (1 << width) if signed and x >> (width - 1) else x


def executables(corpus):
    """(corpus-relative path, package index, executable index, executable) of every compiled model
    the shared reference parser reads, in path order; a file it cannot read is named on stderr and
    skipped. The one corpus walk of the scan scripts."""
    import tfl  # noqa: E402  (shared reference tools, on sys.path)
    for path in sorted(glob.glob(os.path.join(corpus, "**", "*_edgetpu.tflite"), recursive=True)):
        try:
            _, packages = tfl.load(path)
        except Exception as error:  # a file the reference parser cannot read: say so, go on
            print("# skipped %s: %s" % (path, error), file=sys.stderr)
            continue
        for p, package in enumerate(packages):
            for e, exe in enumerate(package["executables"]):
                yield os.path.relpath(path, corpus), p, e, exe


def raw_programs(corpus):
    """(corpus-relative path, bytes) of every raw .coral program, in path order."""
    for path in sorted(glob.glob(os.path.join(corpus, "**", "*.coral"), recursive=True)):
        yield os.path.relpath(path, corpus), open(path, "rb").read()


def distinct_program_files(corpus):
    """The path of every compiled model (*_edgetpu.tflite) and raw program (*.coral) under CORPUS, in walk order, once
    per distinct content (the corpus holds several copies of some files): the programs lle-stops.py runs."""
    seen = set()
    for root, _, files in sorted(os.walk(corpus)):
        for name in sorted(files):
            if not (name.endswith("_edgetpu.tflite") or name.endswith(".coral")):
                continue
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
            if digest not in seen:
                seen.add(digest)
                yield path


def programs(corpus):
    for label, data in raw_programs(corpus):
        yield label, "coral", data
    for relpath, p, _, exe in executables(corpus):
        for c, bitstream in enumerate(exe["bitstreams"]):
            yield "%s#p%d#c%d" % (relpath, p, c), str(exe["type"]), bitstream["bitstream"]


def distinct_segmented_programs(seg, corpus, decide):
    """(label, "decide" or "held out", words, packets) of every distinct bitstream or raw program, once each
    (identical bytes in several trees are scanned once), segmented by the shared reference segmenter `seg`."""
    seen = set()
    for label, _, data in programs(corpus):
        if data in seen:
            continue
        seen.add(data)
        part = "decide" if any(d in label for d in decide) else "held out"
        words = seg.words(data)
        packets, _ = seg.segment(words)
        yield label, part, words, packets


def opcode_packets(seg, data, opcode):
    """(word index, the packet's words joined into one integer, word 0 lowest) of every `opcode`
    packet of one bitstream, as the shared reference segmenter `seg` finds them."""
    words = seg.words(data)
    found, _ = seg.segment(words)
    for index, op, length in found:
        if op != opcode:
            continue
        packet = 0
        for k in range(length):
            packet |= words[index + k] << (128 * k)
        yield index, packet


def decide_args(doc, default_decide):
    """The scan scripts' command line: TOOLS_ISA_DIR CORPUS_DIR [--decide NAME...]. Returns (tools, corpus,
    decide set); puts the shared tools on sys.path so `seg` imports."""
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        sys.exit(doc)
    decide = default_decide
    if "--decide" in sys.argv:
        decide = sys.argv[sys.argv.index("--decide") + 1:]
        args = args[:2]
    sys.path.insert(0, args[0])
    return args[0], args[1], decide


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    signed = "--signed" in sys.argv
    only = None
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1]
        args.remove(only)
    if len(args) < 4:
        sys.exit(__doc__)
    tools, corpus, opcode = args[0], args[1], int(args[2], 16)
    fields = []
    for text in args[3:]:
        m = FIELD.match(text)
        if not m:
            sys.exit("field %r is not wK[hi:lo]" % text)
        fields.append((text, int(m.group(1)), int(m.group(2)), int(m.group(3))))
    sys.path.insert(0, tools)
    import seg  # noqa: E402
    print("\t".join(["program", "type", "pc"] + [f[0] for f in fields] + ["mask", "seq"]))
    for label, kind, data in programs(corpus):
        if only and only not in label:
            continue
        words = seg.words(data)
        packets, _ = seg.segment(words)
        for index, op, length in packets:
            if op != opcode:
                continue
            values = []
            for _, k, hi, lo in fields:
                if k >= length:
                    sys.exit("opcode 0x%02x has %d words, no word %d" % (opcode, length, k))
                width = hi - lo + 1
                v = (words[index + k] >> lo) & ((1 << width) - 1)
                if signed and v >> (width - 1):
                    v -= 1 << width
                values.append(str(v))
            w0 = words[index]
            mask = (w0 >> 12) & 0xFFFF
            seq = (w0 >> 28) & 0x3FFF if opcode == 0x1A else (w0 >> 46) & 0x3FFF if opcode < 0x20 else ""
            print("\t".join([label, kind, "0x%04x" % index] + values + ["0x%04x" % mask, str(seq)]))


if __name__ == "__main__":
    main()
