#!/usr/bin/env python3
"""The counts of docs/decoding-log.md "nlu": which corpus programs load a non-linear-unit table (0x19),
what function each table approximates, which compute packets apply it, and how far the table alone
lands from the CPU twin's op. Reproducible over the whole corpus; nothing is keyed on a file name
except the hold-out split (--decide).

Usage: scan_nlu_apply.py SHARED_TOOLS_ISA_DIR CORPUS_DIR TFLITE_REF_DIR [--runner RUN_TFLITE] [--decide SUBSTRING...]
  TFLITE_REF_DIR is shared/tools/tflite-ref (its tflite_fb.py reads the CPU twins).
  --runner: tflite-ref's bin/run_tflite_2_9 (built by its setup.sh): E then also compares against the
  twin's SOFTMAX run alone by the CPU interpreter (a single-op copy of the twin, tflite_fb.single_op_model).
  --decide: programs whose label contains one of the substrings form the decode set, the rest are
  held out (default: the 64x64 tracker templates and the stand-alone MobileNet v1 0.25).

Prints:
  A. every program with a 0x19: its tables (by the function they fit) and the twin's ops of interest;
  B. each distinct table: breakpoints, the candidate functions' relative error over its domain, the
     header and tail words;
  C. the compute packets: a label independent of the mode bits ("the first compute on its tiles after
     a table load") against every one of the 17 x 128 packet bits, decode set and held out apart;
     the w15[28:0] mode bits against the table on the compute's tiles;
  D. the table-applying computes' multiplier and clamps against the twin's softmax input scale;
  E. the softmax of each twin computed with the exp table in place of exp (normalisation exact),
     against a float model of TFLite's softmax kernel on seeded random inputs, and with --runner against
     the interpreter's bytes for the same inputs: bytes exact, max |d|.
Packets are read as one little-endian bit string (bit = 128 x word + bit). Programs: as
scan_lle_fields.py. Python 3 stdlib only.
"""
import math
import os
import random
import struct
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import packet_bits as bits  # noqa: E402

DEFAULT_DECIDE = ["64x64", "test_data/mobilenet_v1_0.25_128_quant_edgetpu"]


def f32(u):
    return struct.unpack("<f", struct.pack("<I", u & 0xFFFFFFFF))[0]


def table_of(v):
    """(coef[8][5], breakpoints[7], tail, header) of a 0x19 packet (docs/isa.md §4.4: float32s from bit 62)."""
    coef = [[f32(v >> (62 + 32 * (5 * s + k))) for k in range(5)] for s in range(8)]
    br = [f32(v >> (62 + 32 * (40 + b))) for b in range(7)]
    tail = (v >> (62 + 32 * 47)) & 0xFFFFFFFF
    return coef, br, tail, v & ((1 << 62) - 1)


def evaluate(table, x):
    coef, br = table[0], table[1]
    s = 0
    while s < 7 and x >= br[s]:
        s += 1
    c = coef[s]
    return (((c[4] * x + c[3]) * x + c[2]) * x + c[1]) * x + c[0]


CANDIDATES = {
    "65535 exp(x)": lambda x: 65535 * math.exp(x),
    "65536 / sqrt(2x)": lambda x: 65536 / math.sqrt(2 * x) if x > 0 else float("nan"),
    "65536 / x": lambda x: 65536 / x if x else float("nan"),
    "256 sigmoid(x)": lambda x: 256 / (1 + math.exp(-x)),
    "128 tanh(x) + 128": lambda x: 128 * math.tanh(x) + 128,
}


def domain(table):
    """The x range the table's segments cover: the finite breakpoints, one segment-width beyond."""
    br = [b for b in table[1] if math.isfinite(b)]
    lo, hi = br[0], br[-1]
    if len(br) < 7:  # an open last segment: the breakpoints are the range-reduced domain
        return lo, hi + (hi - br[-2])
    return lo - (br[1] - br[0]), 0.0 if hi < 0 else hi + (hi - br[-2])


def fit(table):
    lo, hi = domain(table)
    out = {}
    for name, f in CANDIDATES.items():
        worst = 0.0
        for i in range(2001):
            x = lo + (hi - lo) * i / 2000
            ref = f(x)
            if not math.isfinite(ref) or ref == 0:
                worst = float("inf")
                break
            worst = max(worst, abs(evaluate(table, x) - ref) / abs(ref))
        out[name] = worst
    return (lo, hi), out


def twin_ops(tools_ref, corpus, label):
    """The CPU twin (the .tflite beside the *_edgetpu.tflite) of a program: [(op, input quant, output quant)]
    of its non-linear ops, or None when there is no twin."""
    import tflite_fb  # noqa: E402  (shared reference tools)
    path = os.path.join(corpus, label.split("#")[0].replace("_edgetpu.tflite", ".tflite"))
    if not os.path.exists(path):
        return None
    data = open(path, "rb").read()
    model = tflite_fb.parse(data)
    sg = model["subgraphs"][0]
    out = []
    for i, op in enumerate(sg["operators"]):
        if op["op"] in ("SOFTMAX", "LOGISTIC", "TANH", "HARD_SWISH", "EXP", "RSQRT", "LOG_SOFTMAX"):
            _, pos, fb = tflite_fb.op_options(data, i)
            beta = fb.scalar(pos, 0, "f", 1.0) if op["op"] == "SOFTMAX" and pos else None
            t_in, t_out = sg["tensors"][op["inputs"][0]], sg["tensors"][op["outputs"][0]]
            out.append((op["op"], t_in["dtype"], t_in["quant"], t_out["quant"], t_in["shape"], beta))
    return out


def tflite_softmax(q, s_in, beta, s_out, zp_out, lo, hi):
    """A float model of TFLite's quantised softmax kernel (exp of beta s (q - max), normalised, requantised)."""
    m = max(q)
    e = [math.exp(beta * s_in * (x - m)) for x in q]
    total = sum(e)
    return [min(hi, max(lo, round(v / total / s_out) + zp_out)) for v in e]


def table_softmax(q, s_in, beta, s_out, zp_out, lo, hi, table, clamp_lo):
    """The same softmax with the exp table in place of exp: x = beta s (q - max), clamped to [clamp_lo, 0]
    as the applying compute's w15 clamps do, the table's value (65535 e^x) kept in float; normalisation exact."""
    m = max(q)
    e = [max(0.0, evaluate(table, max(clamp_lo, min(0.0, beta * s_in * (x - m))))) for x in q]
    total = sum(e)
    return [min(hi, max(lo, round(v / total / s_out) + zp_out)) for v in e]


def run_softmax(runner, corpus, twin, q, dtype):
    """The twin's SOFTMAX alone, run by the CPU interpreter on the quantised input q (a list of ints)."""
    import subprocess
    import tempfile
    import tflite_fb  # noqa: E402
    data = open(os.path.join(corpus, twin.replace("_edgetpu.tflite", ".tflite")), "rb").read()
    index = next(i for i, op in enumerate(tflite_fb.parse(data)["subgraphs"][0]["operators"]) if op["op"] == "SOFTMAX")
    single, _ = tflite_fb.single_op_model(data, index)
    fmt = "b" if dtype == "int8" else "B"
    with tempfile.TemporaryDirectory() as tmp:
        model, given = os.path.join(tmp, "m.tflite"), os.path.join(tmp, "in.bin")
        open(model, "wb").write(single)
        open(given, "wb").write(struct.pack("<%d%s" % (len(q), fmt), *q))
        subprocess.run([runner, model, "--in", "0=" + given, "--out-prefix", os.path.join(tmp, "o")], check=True,
                       stdout=subprocess.DEVNULL)
        out = open(os.path.join(tmp, "o.out0.bin"), "rb").read()
    return list(struct.unpack("<%d%s" % (len(out), fmt), out))


def main():
    args = [a for a in sys.argv[1:]]
    decide = DEFAULT_DECIDE
    runner = None
    if "--runner" in args:
        i = args.index("--runner")
        runner = args[i + 1]
        del args[i:i + 2]
    if "--decide" in args:
        i = args.index("--decide")
        decide = args[i + 1:]
        args = args[:i]
    if len(args) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, args[0])
    sys.path.insert(0, args[2])
    import seg  # noqa: E402
    import scan_lle_fields  # noqa: E402
    corpus = args[1]

    computes = []  # (label, in_decide_set, pc, v, table kind on its tiles, first after a load)
    programs = []
    tables = {}
    for label, _, data in scan_lle_fields.programs(corpus):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        on_tile = {}
        fresh = set()  # tiles loaded with a table and not yet computed on
        loads = []
        for index, op, length in packets:
            v = 0
            for k in range(length):
                v |= words[index + k] << (128 * k)
            mask = (words[index] >> 12) & 0xFFFF
            tiles = [t for t in range(16) if mask >> t & 1]
            if op == 0x19:
                t = table_of(v)
                key = (tuple(map(tuple, t[0])), tuple(t[1]), t[2])
                tables.setdefault(key, (t, []))[1].append((label, index, t[3] & ~(0xFFFF << 12) & ((1 << 46) - 1)))
                name = "T%d" % list(tables).index(key)
                loads.append((index, name, mask))
                for tile in tiles:
                    on_tile[tile] = name
                    fresh.add(tile)
            elif op == 0x01:
                held = tuple(sorted({on_tile.get(t, "-") for t in tiles}))
                first = any(t in fresh for t in tiles)
                fresh -= set(tiles)
                computes.append((label, any(d in label for d in decide), index, v, held, first))
        if loads:
            programs.append((label, loads))

    # B first: name the tables by what they fit.
    names = {}
    print("B. tables (%d distinct)" % len(tables))
    for i, (key, (t, users)) in enumerate(tables.items()):
        (lo, hi), errors = fit(t)
        best = min(errors, key=errors.get)
        names["T%d" % i] = best
        print("  T%d: %d loads in %d programs; tail %d; w0[45:0] outside the tile mask: %s; breakpoints %s" % (
            i, len(users), len({u[0] for u in users}), t[2], sorted({hex(u[2]) for u in users}),
            ", ".join("%.5g" % b for b in t[1])))
        print("      domain [%.4g, %.4g]; max relative error: %s -> %s" % (
            lo, hi, ", ".join("%s %.2e" % (n, e) for n, e in sorted(errors.items(), key=lambda kv: kv[1])[:3]), best))

    print("\nA. programs with a 0x19 (%d)" % len(programs))
    for label, loads in programs:
        ops = twin_ops(args[2], corpus, label)
        twin = "no twin" if ops is None else "; ".join(
            "%s %s in s=%.6g zp=%d out s=%.6g zp=%d beta %s" % (o, dt, qi["scale"][0], qi["zero_point"][0], qo["scale"][0],
                                                               qo["zero_point"][0], b) for o, dt, qi, qo, _, b in ops)
        print("  %s: %s | twin: %s" % (label, ", ".join("%s@%d mask %04x" % (names[n], pc, m) for pc, n, m in loads), twin))

    # C. the label: the first compute on a tile after an exp-table load to it.
    print("\nC. compute packets: %d; on tiles holding a table: %d" % (len(computes), sum(c[4] != ("-",) for c in computes)))
    exp_tables = {n for n, f in names.items() if "exp" in f}
    for part, chosen in (("decode set", True), ("held out", False)):
        rows = [c for c in computes if c[1] == chosen]
        label_rows = [c for c in rows if c[5] and set(c[4]) & exp_tables]
        other = [c for c in rows if not (c[5] and set(c[4]) & exp_tables)]
        sep = []
        for b in range(17 * 128):
            a = {(c[3] >> b) & 1 for c in label_rows}
            o = {(c[3] >> b) & 1 for c in other}
            if len(a) == 1 and len(o) == 1 and a != o:
                sep.append("w%d bit %d = %d" % (b // 128, b % 128, a.pop()))
        print("  %s: %d computes in %d programs; first after an exp load: %d; separating bits: %s" % (
            part, len(rows), len({c[0] for c in rows}), len(label_rows), sep or "none"))
        if not sep:  # bits set in every labelled compute: how often elsewhere
            always = [b for b in range(17 * 128) if label_rows and all((c[3] >> b) & 1 for c in label_rows)]
            for b in always:
                if 128 * 15 <= b < 128 * 15 + 29:
                    print("    w15 bit %d set in every labelled compute, in %d of %d others" % (
                        b - 128 * 15, sum((c[3] >> b) & 1 for c in other), len(other)))
    for b in (26, 28):
        by = Counter((bits(c[3], 15, b, 1), "+".join(names.get(h, h) for h in c[4]), c[5]) for c in computes)
        print("  w15 bit %d: %s" % (b, ", ".join("%s [%s%s]: %d" % (k[0], k[1], ", first" if k[2] else "", n)
                                                 for k, n in sorted(by.items()) if k[0] or k[1] != "-")))
    modes = Counter((hex(bits(c[3], 15, 0, 29)), "+".join(names.get(h, h) for h in c[4])) for c in computes
                    if bits(c[3], 15, 26, 1) or bits(c[3], 15, 28, 1))
    print("  modes with bit 26 or 28: %s" % ", ".join("%s on [%s]: %d" % (m, t, n) for (m, t), n in sorted(modes.items())))

    # D. the applying computes' fields against the twin.
    print("\nD. computes with w15 bit 26: multiplier, clamps, zero points against the twin's softmax input")
    seen = defaultdict(Counter)
    for label, _, _, v, held, _ in computes:
        if not bits(v, 15, 26, 1):
            continue
        ops = twin_ops(args[2], corpus, label) or []
        s_in = next((qi["scale"][0] * (b or 1.0) for o, _, qi, _, _, b in ops if o == "SOFTMAX"), None)
        mult = f32(bits(v, 15, 29, 32))
        seen[label.split("#")[0]][("mult %.8g" % mult, "twin beta s_in %s" % ("%.8g" % s_in if s_in else "-"),
                                   "f32 equal" if s_in and struct.pack("<f", s_in) == struct.pack("<f", mult) else "differ",
                                   "clamps [%.6g, %.6g]" % (f32(bits(v, 15, 93, 32)), f32(bits(v, 15, 61, 32))),
                                   "zp in %d out %d" % (bits(v, 14, 78, 9), bits(v, 16, 29, 9)))] += 1
    for label, c in seen.items():
        for k, n in c.items():
            print("  %s: %d x %s" % (label, n, ", ".join(k)))
    exp_key = next(t for i, (key, (t, _)) in enumerate(tables.items()) if "exp" in names["T%d" % i])
    lo_clamp = -13.038104  # the applying computes' lower clamp (D); the table's value there:
    print("  exp table at the lower clamp %.6g: %.4f (65535 e^x %.4f); at 0: %.4f" % (
        lo_clamp, evaluate(exp_key, lo_clamp), 65535 * math.exp(lo_clamp), evaluate(exp_key, 0.0)))

    # E. the softmax with the table.
    print("\nE. twin softmax with the exp table in place of exp (normalisation exact) vs a float model of the kernel")
    rng = random.Random(12)
    done = set()
    for label, _ in programs:
        twin = label.split("#")[0]
        ops = twin_ops(args[2], corpus, label)
        if not ops or twin in done:
            continue
        done.add(twin)
        for o, dtype, qi, qo, shape, beta in ops:
            if o != "SOFTMAX":
                continue
            n = shape[-1]
            lo, hi = (-128, 127) if dtype == "int8" else (0, 255)
            exact = total = worst = 0
            run_exact = run_worst = model_vs_run = 0
            for trial in range(20):
                spread = rng.choice([8, 32, 128, 255])
                base = rng.randint(lo, hi - spread)
                q = [rng.randint(base, base + spread) for _ in range(n)]
                ref = tflite_softmax(q, qi["scale"][0], beta, qo["scale"][0], qo["zero_point"][0], lo, hi)
                got = table_softmax(q, qi["scale"][0], beta, qo["scale"][0], qo["zero_point"][0], lo, hi, exp_key, lo_clamp)
                exact += sum(a == b for a, b in zip(ref, got))
                total += n
                worst = max(worst, max(abs(a - b) for a, b in zip(ref, got)))
                if runner:
                    interp = run_softmax(runner, corpus, twin, q, dtype)
                    run_exact += sum(a == b for a, b in zip(interp, got))
                    run_worst = max(run_worst, max(abs(a - b) for a, b in zip(interp, got)))
                    model_vs_run = max(model_vs_run, max(abs(a - b) for a, b in zip(interp, ref)))
            print("  %s: %d x %d outputs, %.3f %% exact, max |d| %d against the float model" % (twin, 20, n, 100.0 * exact / total, worst))
            if runner:
                print("      against the interpreter: %.3f %% exact, max |d| %d (float model vs interpreter: max |d| %d)" % (
                    100.0 * run_exact / total, run_worst, model_vs_run))


if __name__ == "__main__":
    main()
