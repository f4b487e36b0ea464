#!/usr/bin/env python3
"""The 0x14 staging write's source side (docs/decoding-log.md "src14"): which units of the popped stream
each tile keeps. Every table of that section, over every corpus program.

Usage: scan_stage14_source.py SHARED_TOOLS_ISA_DIR CORPUS_DIR

  A  the format: w3 bit 103 against "w3[127:112] or w4[63:0] non-zero", and w4 bit 30 (Stage14SourceOn)
  B  the address pair of the 0x14s with bit 30: SourceBase (w4[49:34]) against the write's address
     (w2[26:11], 4-byte units), SourceEnd (w4[81:66]) against Base + Skip (w4[63:50]) mod 2^16;
     the controls are the same tests one bit off
  B2 SourceBase against the distribution's origin (the address of its first write without bit 30,
     "x14" §A), and where the write lands: at Base, or at Base + Skip + 1 (its units' pop place)
  C  the size sweeps, decode set and held out: per tile of each distribution, Skip + 1 against the
     units of the tiles before it (Dense, matmul_256, add_128_128) or a quarter row per tile group (the
     iwatake stride sweep); the padding sweep's three 0x14s @ 0x0051 with the same checks as B
  D  the row form's fields (w3[122:112], w3[127:123] + w4[10:0], w4[29:16]) against the group loop and
     the skip: corpus-fitted relations, not executed
  E  the windows ("write14" §C): 0x14 nests that write a unit twice, and whether a compute on the same
     tiles before the next 0x14 reads inside the window (ComputeInputAt4, 0x01 w1[80:65])

The shared reference parsers (tfl.py, seg.py) are used as libraries through scan_lle_fields.py.
"""
import os
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_lle_fields  # noqa: E402  (the one corpus walk of the scan scripts)
from scan_lle_fields import bits  # noqa: E402


def packet_bits(words, bit, width):
    """A field that may straddle words: bit is word x 128 + bit."""
    value = 0
    for i in range(width):
        b = bit + i
        value |= ((words[b // 128] >> (b % 128)) & 1) << i
    return value


def signed(value, width):
    return value - (1 << width) if value >> (width - 1) else value


def write_units(w):
    """The 0x14 write nest's units (write_nest.h): five levels at the 33-bit pitch, level 0 one unit,
    level i's stride = carry_{i-1} + sum_{j<i} limit_j x stride_j. None when it is too big to list."""
    limits = [packet_bits(w, 300, 16)] + [packet_bits(w, 333 + 33 * i, 16) for i in range(4)]
    carries = [signed(packet_bits(w, 316 + 33 * i, 17), 17) for i in range(4)]
    strides = [1]
    for i in range(1, 5):
        strides.append(carries[i - 1] + sum(limits[j] * strides[j] for j in range(i)))
    total = 1
    for limit in limits:
        total *= limit + 1
    if total > 200000:
        return None
    units = [0]
    for i in range(5):
        units = [u + k * strides[i] for k in range(limits[i] + 1) for u in units]
    return units


class Stage14:
    def __init__(self, label, pc, w):
        self.label, self.pc, self.w = label, pc, w
        self.mask = bits(w[0], 12, 16)
        self.groups = bits(w[2], 44, 16)
        self.at = bits(w[2], 11, 16)  # 4-byte units (identform §B)
        self.format = bits(w[3], 103, 1)
        self.on = bits(w[4], 30, 1)
        # Base and End are 16 bits like the address ("x14" §B: w4 bits 48-49 / 80-81 its bits 14-15)
        self.base, self.skip, self.end = bits(w[4], 34, 16), bits(w[4], 50, 14), bits(w[4], 66, 16)
        self.select = bits(w[4], 31, 2)
        self.rest = bits(w[3], 112, 16) | bits(w[4], 0, 64) << 16
        self.chunks = bits(w[3], 112, 11)
        self.row_left = bits(w[3], 123, 5) | bits(w[4], 0, 11) << 5
        self.column16 = bits(w[4], 16, 14)

    def name(self):
        return "%s @ 0x%04x" % (self.label.split("/")[-1].split("#")[0], self.pc)


def walk(corpus):
    import seg  # noqa: E402
    for label, _, data in scan_lle_fields.programs(corpus):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        yield label, words, packets


def table_a(all14):
    print("A. format: w3 bit 103 x (w3[127:112] or w4[63:0] non-zero) x Stage14SourceOn (w4 bit 30)")
    counts = Counter((p.format, p.rest != 0, p.on) for p in all14)
    for key, n in sorted(counts.items()):
        print("   bit103 %d  non-zero %-5s  on %d : %d" % (key[0], key[1], key[2], n))


def table_b(on14):
    print("B. the address pair of the %d 0x14s with Stage14SourceOn" % len(on14))
    tests = {
        "Base == address (16 bits)": lambda p: p.base == p.at,
        "  of them with address >= 2^14 (bits 48-49 in use)": lambda p: p.base == p.at and p.at >= 1 << 14,
        "  control: Base == address + 1": lambda p: p.base == (p.at + 1) % (1 << 16),
        "  control: w4[46:33] == address mod 2^14": lambda p: bits(p.w[4], 33, 14) == p.at % (1 << 14),
        "End == Base + Skip mod 2^16": lambda p: p.end == (p.base + p.skip) % (1 << 16),
        "  control: w4[82:67] == Base + Skip": lambda p: bits(p.w[4], 67, 16) == (p.base + p.skip) % (1 << 16),
        "Skip < Groups + 1": lambda p: p.skip < p.groups + 1,
    }
    for name, test in tests.items():
        print("   %-46s %d / %d" % (name, sum(1 for p in on14 if test(p)), len(on14)))
    misses = Counter(p.name() for p in on14 if p.base != p.at)
    print("   Base misses:", ", ".join("%s x%d" % (k, v) for k, v in sorted(misses.items())))
    print("   selects w4[32:31] with bit 30:", dict(Counter(p.select for p in on14)))


# Size sweeps: (family, regex on the file name, decode set sizes).
SWEEPS = [
    ("iwatake stride (quarter rows)", r"model_stride_(\d+x\d+)x3_edgetpu", {"64x64", "128x128", "256x256"}),
    ("Dense (column groups)", r"dense_(\d+)_edgetpu", {"256"}),
    ("iwatake padding", r"model_padding_(\d+x\d+)x3_edgetpu", {"64x64", "128x128", "256x256"}),
    ("iwatake padding_stride", r"model_padding_stride_(\d+x\d+)x3_edgetpu", set()),
]


def table_b2(by_program):
    modulus = 1 << 16
    tally, names = Counter(), defaultdict(Counter)
    for label, program14 in by_program.items():
        for run in distributions(program14):
            first = next((q for q in run if not q.on), None)
            for p in run:
                if not p.on:
                    continue
                origin = "no non-skipping write" if first is None else (
                    "Base == origin" if p.base == first.at % modulus else "Base != origin")
                own = p.at % modulus
                lands = ("lands at Base" if own == p.base else
                         "lands at Base + Skip + 1" if own == (p.base + p.skip + 1) % modulus else "lands elsewhere")
                tally[(origin, lands)] += 1
                names[(origin, lands)][p.name().split(" @")[0]] += 1
    print("B2. SourceBase against the distribution's origin (its first write without Stage14SourceOn)")
    for key, n in sorted(tally.items()):
        print("   %-24s %-26s %4d  e.g. %s" % (key[0], key[1], n, ", ".join(sorted(names[key])[:3])))


def distributions(program14):
    """Runs of consecutive 0x14s whose tiles do not overlap: one distribution, tile group by tile group."""
    run = []
    for p in program14:
        if run and (any(q.mask & p.mask for q in run) or p.pc - run[-1].pc > 16):
            yield run
            run = []
        run.append(p)
    if run:
        yield run


def table_c(by_program):
    print("C. size sweeps: Skip + 1 per tile group k of each distribution (decode set / held out)")
    for family, pattern, decode in SWEEPS:
        tally = {"decode": Counter(), "held out": Counter()}
        for label, program14 in by_program.items():
            m = re.search(pattern, label)
            if not m or "padding_stride" in label and "padding_stride" not in pattern:
                continue
            part = "decode" if m.group(1) in decode else "held out"
            for run in distributions(program14):
                if len(run) < 2 or not any(p.on for p in run):
                    continue
                for k, p in enumerate(run):
                    start = (p.skip + 1) if p.on else 0
                    if "padding" in family:
                        ok = (not p.on or (p.base == p.at and p.end == (p.base + p.skip) % (1 << 16)))
                        tally[part]["address pair holds" if ok else "address pair differs"] += 1
                        tally[part]["skip units %d" % start] += 1
                    elif "stride" in family:
                        ok = start * 4 == k * (p.groups + 1)
                        tally[part]["k x (Groups + 1) / 4" if ok else "other"] += 1
                    else:
                        ok = start == k * (p.groups + 1)
                        tally[part]["k x (Groups + 1)" if ok else "other"] += 1
        for part in ("decode", "held out"):
            if tally[part]:
                print("   %-30s %-8s %s" % (family, part, ", ".join("%s: %d" % kv for kv in sorted(tally[part].items()))))


def table_d(b103):
    print("D. the row form's fields over the %d 0x14s with w3 bit 103 (corpus-fitted, not executed)" % len(b103))
    tests = {
        "w3[122:112] == max(1, (Groups + 1) // 64)": lambda p: p.chunks == max(1, (p.groups + 1) // 64),
        "w3[127:123]+w4[10:0] == Groups - Skip - 1 (on)": lambda p: p.on and p.row_left == (p.groups - p.skip - 1) % (1 << 16),
        "w4[29:16] x 4 == Skip + 1 (on)": lambda p: p.on and p.column16 * 4 == p.skip + 1,
        "both of the two above (on)": lambda p: p.on and p.row_left == (p.groups - p.skip - 1) % (1 << 16) and p.column16 * 4 == p.skip + 1,
    }
    on = sum(1 for p in b103 if p.on)
    for name, test in tests.items():
        n = sum(1 for p in b103 if test(p))
        print("   %-50s %d / %d" % (name, n, on if "(on)" in name else len(b103)))


def table_e(corpus):
    print("E. windows: 0x14 nests that write a unit twice; a compute on their tiles before the next 0x14")
    counts = Counter()
    examples = {}
    for label, words, packets in walk(corpus):
        for n, (index, op, length) in enumerate(packets):
            if op != 0x14:
                continue
            w = [words[index + k] for k in range(length)]
            units = write_units(w)
            if units is None or len(set(units)) == len(units):
                continue
            p = Stage14(label, index, w)
            low, high = p.at + min(units), p.at + max(units)
            verdict, first = "no compute before the next 0x14 on its tiles", None
            for index2, op2, _ in packets[n + 1:]:
                if op2 >= 0x20 or not bits(words[index2], 12, 16) & p.mask:
                    continue
                if op2 == 0x14:
                    break
                if op2 == 0x01:
                    read_at = bits(words[index2 + 1], 65, 16)
                    if first is None:
                        first = read_at
                    if low <= read_at <= high:
                        verdict = "a compute reads inside the window (%s)" % ("the first" if first == read_at else "a later one")
                        break
            if verdict.startswith("no") and first is not None:
                verdict = "computes, none reads inside the window"
            counts[verdict] += 1
            examples.setdefault(verdict, p.name())
    for verdict, n in counts.most_common():
        print("   %-50s %5d  e.g. %s" % (verdict, n, examples[verdict]))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    corpus = sys.argv[2]
    all14, by_program = [], defaultdict(list)
    for label, words, packets in walk(corpus):
        for index, op, length in packets:
            if op == 0x14:
                p = Stage14(label, index, [words[index + k] for k in range(length)])
                all14.append(p)
                by_program[label].append(p)
    print("%d 0x14s in %d bitstreams" % (len(all14), len(by_program)))
    table_a(all14)
    table_b([p for p in all14 if p.on])
    table_b2(by_program)
    table_c(by_program)
    table_d([p for p in all14 if p.format])
    table_e(corpus)


if __name__ == "__main__":
    main()
