#!/usr/bin/env python3
"""What does the compiler's `estimated_cycles_64bit` count? And does a compute cost formula bring
coralsim's cycles nearer to it without hurting the published latencies?

Input: the output of the corpus_compute_estimate test (its "row" lines: one per corpus executable,
see tests/corpus/compute_estimate_test.cc), e.g.
    build/tests/corpus/corpus_compute_estimate > oracle.txt

  1. Single-feature fits, estimate = a * feature^b in log space, for each candidate quantity
     (the compiler's single-layer formula over the twin's layers, twin MACs, MAC-loop iterations,
     simulated cycles, the cycles the compute packets cover, parameter/instruction/input/output bytes),
     tested leave-one-family-out: each family is predicted by a fit made without it. Prints the
     median and worst factor between prediction and estimate.
  2. With --sweep: re-runs coralsim with candidate values of the MAC cost (`--timing-constant
     mac_cycles_per_iteration=M`, compute_packet_cycles=C) on every executable with an estimate and
     on every published latency of scripts/timing-references.json, and prints for each candidate how
     many executables fall within 0.8-1.25x of the estimate and the latency MAE / within +-30 %.

Python 3 standard library only.

  3. With --choose NAME=V1,V2,...: picks one timing constant from the grid leave-one-family-out on
     the estimates (each family counted at the value chosen on the others).

usage: scripts/estimate-fit.py ORACLE.txt [--sweep [--candidates M,C:...]] [--choose NAME=V1,...]
                               [--fixed NAME=VALUE]... [--coralsim build/coralsim] [--corpus ../shared/corpus]
"""

import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FEATURES = ["single_layer_formula", "twin_macs", "mac_iterations", "cycles", "compute_busy_cycles", "parameter_bytes",
            "instruction_bytes", "input_bytes", "output_bytes"]
SWEEP = [(1, 300), (2, 300), (4, 300), (4, 0), (6, 0), (8, 0), (8, 300), (12, 0), (16, 0)]


def read_rows(path):
    header, rows = None, []
    with open(path) as f:
        for line in f:
            if not line.startswith("row\t"):
                continue
            cells = line.rstrip("\n").split("\t")[1:]
            if header is None:
                header = cells
                continue
            row = dict(zip(header, cells))
            for k in header:
                if k not in ("family", "model", "path", "executable", "type"):
                    row[k] = float(row[k])
            rows.append(row)
    if not rows:
        sys.exit("estimate-fit: no row lines in " + path)
    return rows


def fit(points):
    """Least squares of log(y) = log(a) + b log(x)."""
    n = len(points)
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 1.0
    return my - b * mx, b


def single_feature_fits(rows):
    print("## estimate = a * feature^b, leave-one-family-out\n")
    print("| feature | executables | b (all) | a (all) | median factor off | worst factor off |")
    print("|---|---|---|---|---|---|")
    for feature in FEATURES:
        usable = [r for r in rows if r["estimate"] > 0 and r[feature] > 0]
        families = sorted({r["family"] for r in usable})
        if len(families) < 3:
            continue
        errors = []
        for family in families:
            train = [(r[feature], r["estimate"]) for r in usable if r["family"] != family]
            la, b = fit(train)
            for r in usable:
                if r["family"] == family:
                    predicted = math.exp(la + b * math.log(r[feature]))
                    errors.append(abs(math.log(predicted / r["estimate"])))
        la, b = fit([(r[feature], r["estimate"]) for r in usable])
        errors.sort()
        print("| %s | %d | %.3f | %.3g | %.2fx | %.1fx |" % (feature, len(usable), b, math.exp(la),
                                                          math.exp(errors[len(errors) // 2]), math.exp(errors[-1])))
    print()
    # Proportional: estimate = MACs / k (b = 1), k fitted as the geometric mean of MACs / estimate.
    # Only executables with real MAC work (>= 1 M MACs): the trivial programs' estimates sit at a
    # floor of 16 cycles whatever their size, which a proportional law cannot describe.
    usable = [r for r in rows if r["estimate"] > 0 and r["twin_macs"] >= 1e6]
    print("## estimate = twin MACs / k (b = 1), leave-one-family-out, executables with >= 1 M MACs\n")
    print("| model | executable type | twin MACs | estimate | MACs per estimated cycle | predicted / estimate |")
    print("|---|---|---|---|---|---|")
    for r in usable:
        train = [math.log(x["twin_macs"] / x["estimate"]) for x in usable if x["family"] != r["family"]]
        k = math.exp(sum(train) / len(train))
        print("| %s | %s | %d | %d | %.1f | %.2f |" % (r["model"], r["type"], r["twin_macs"], r["estimate"],
                                                     r["twin_macs"] / r["estimate"], r["twin_macs"] / k / r["estimate"]))
    print()


def run(coralsim, path, usb, constants):
    command = [coralsim, "run", path, "--iterations", "2", "--random", "1", "--timing", "--json", "--usb", usb]
    for name, value in constants.items():
        command += ["--timing-constant", "%s=%d" % (name, value)]
    done = subprocess.run(command, capture_output=True, text=True)
    result = json.loads(done.stdout)
    if "error" in result:
        sys.exit("estimate-fit: %s: %s" % (path, result["error"]))
    return result


def sweep(rows, coralsim, corpus, candidates, fixed):
    refs = json.load(open(os.path.join(HERE, "timing-references.json")))["references"]
    with_estimate = [r for r in rows if r["estimate"] > 0]
    print("## MAC cost candidates\n")
    print("| mac_cycles_per_iteration | compute_packet_cycles | executables within 0.8-1.25x of the estimate "
          "| of them with >= 1000 estimated cycles | median ratio (>= 1000) | latency MAE | within +-30 % |")
    print("|---|---|---|---|---|---|---|")
    if fixed:
        print("(every candidate with %s)\n" % ", ".join("%s=%d" % kv for kv in sorted(fixed.items())))
    for mac, packet in candidates:
        constants = dict(fixed, mac_cycles_per_iteration=mac, compute_packet_cycles=packet)
        ratios = []
        cache = {}
        for r in with_estimate:
            # By path: distinct corpus files can share a name (two PoseNet 353x481 builds).
            if r["path"] not in cache:
                cache[r["path"]] = run(coralsim, os.path.join(corpus, r["path"]), "super", constants)
            result = cache[r["path"]]
            # The executable's run of the last iteration (steady state), as the test's table.
            runs = [x for x in result["runs"] if x["executable"] == r["executable"]]
            ratios.append((runs[-1]["cycles"] / r["estimate"], r["estimate"] >= 1000))
        errors = []
        for ref in refs:
            result = run(coralsim, os.path.join(corpus, ref["model"]), ref["usb"], constants)
            errors.append((result["timing"]["total_ms"] - ref["ms"]) / ref["ms"])
        big = sorted(x for x, large in ratios if large)
        inside = sum(1 for x, _ in ratios if 0.8 <= x <= 1.25)
        inside_big = sum(1 for x in big if 0.8 <= x <= 1.25)
        mae = sum(abs(e) for e in errors) / len(errors)
        within = sum(1 for e in errors if abs(e) <= 0.30)
        print("| %d | %d | %d of %d | %d of %d | %.3f | %.1f %% | %d of %d |" % (
            mac, packet, inside, len(ratios), inside_big, len(big), big[len(big) // 2], mae * 100, within, len(errors)))
        sys.stdout.flush()
    print()


def choose(rows, coralsim, corpus, name, grid, fixed):
    """Leave-one-family-out choice of one timing constant on the compiler's estimates: for each
    family, the grid value with the most executables within 0.8-1.25x among the other families
    (ties: the smaller median |log ratio|), then the held-out family counted at that value."""
    rows = [r for r in rows if r["estimate"] > 0]
    ratio = {}
    for value in grid:
        cache = {}
        for i, r in enumerate(rows):
            if r["path"] not in cache:
                cache[r["path"]] = run(coralsim, os.path.join(corpus, r["path"]), "super", dict(fixed, **{name: value}))
            runs = [x for x in cache[r["path"]]["runs"] if x["executable"] == r["executable"]]
            ratio[(value, i)] = runs[-1]["cycles"] / r["estimate"]
    inside = lambda x: 0.8 <= x <= 1.25
    print("## %s, chosen leave-one-family-out on the estimates\n" % name)
    print("| value | executables within 0.8-1.25x |\n|---|---|")
    for value in grid:
        print("| %d | %d of %d |" % (value, sum(inside(ratio[(value, i)]) for i in range(len(rows))), len(rows)))
    print("\n| held-out family | chosen on the others | held out within 0.8-1.25x |\n|---|---|---|")
    total = 0
    for family in sorted(set(r["family"] for r in rows)):
        others = [i for i, r in enumerate(rows) if r["family"] != family]
        held = [i for i, r in enumerate(rows) if r["family"] == family]

        def score(value):
            logs = sorted(abs(math.log(ratio[(value, i)])) for i in others)
            return (sum(inside(ratio[(value, i)]) for i in others), -logs[len(logs) // 2])

        best = max(grid, key=score)
        n = sum(inside(ratio[(best, i)]) for i in held)
        total += n
        print("| %s | %d | %d of %d |" % (family, best, n, len(held)))
    print("\nleave-one-family-out: %d of %d executables within 0.8-1.25x\n" % (total, len(rows)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("oracle")
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--candidates", help="MAC,FIXED pairs to sweep, e.g. 1,300:4,0 (default: the built-in list)")
    parser.add_argument("--fixed", action="append", default=[], metavar="NAME=VALUE",
                        help="another timing constant set for every candidate (repeatable), e.g. narrow_bytes_per_cycle=16")
    parser.add_argument("--choose", metavar="NAME=V1,V2,...",
                        help="choose one timing constant from a grid, leave-one-family-out on the estimates")
    parser.add_argument("--coralsim", default=os.path.join(ROOT, "build", "coralsim"))
    parser.add_argument("--corpus", default=os.environ.get("CORALSIM_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
    args = parser.parse_args()
    rows = read_rows(args.oracle)
    fixed = {name: int(value) for name, value in (item.split("=", 1) for item in args.fixed)}
    if args.choose:
        name, grid = args.choose.split("=", 1)
        choose(rows, args.coralsim, args.corpus, name, [int(v) for v in grid.split(",")], fixed)
        return
    single_feature_fits(rows)
    if args.sweep:
        candidates = SWEEP
        if args.candidates:
            candidates = [tuple(int(v) for v in pair.split(",")) for pair in args.candidates.split(":")]
        sweep(rows, args.coralsim, args.corpus, candidates, fixed)


if __name__ == "__main__":
    main()
