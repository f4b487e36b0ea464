#!/usr/bin/env python3
"""The parameter 0x25s as segments of their run's parameter stream (docs/decoding-log.md "trk128").

Disassembles every distinct corpus program with `coralsim disasm --fields`, follows the scalar core's descriptor
pushes (tag 2: the parameter bytes each requests, from the `sN = mov` immediates before `desc[2]`) and its fences
(`sc.sync`), and checks every parameter 0x25 (InfeedIsInput 0) against the rule of
models/lle/parameter_infeed_segments.h: the 0x25s since the last fence are the segments of the bytes delivered since
it, one after another; each states its start mod 128 KiB (InfeedOffset64 x 64), its length L as (L - 1) >> 16
(InfeedWraps64K) and its start beat less a first-fill term F (InfeedFirstBeats). Counts the forms of F and, for the
wraps, both readings ((L - 1) >> 16 and L >> 16), split by decide / held out (--hold SUBSTRING: held-out programs).

Usage: scan_parameter_infeed_segments.py [--coralsim build/coralsim] [--corpus DIR] [--hold SUBSTRING ...]
"""
import argparse
import collections
import importlib.util
import os
import re
import subprocess

RING = 128 * 1024


def distinct_programs(corpus):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("lle_stops", os.path.join(here, "lle-stops.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.distinct_programs(corpus)


def first_fill_term(start, length, first_beats):
    term = (start // 64 - first_beats) & 0xffff
    if term in (0, 2044):
        return "F 0" if term == 0 else "F 2044"
    if start == 0 and term == min(max(length // 64, 1), 2048) - 1:
        return "F first fill - 1"
    return None


def check_fence(pending, start, delivered):
    """(results, error) for the 0x25s pending at a fence: each result (infeed, S, L, form, wraps_floor_ok)."""
    starts = []
    for k, inf in enumerate(pending):
        if k == 0:
            starts.append(start)
            continue
        previous, wraps = starts[-1], pending[k - 1]["wraps"]
        found = next((s for s in range(previous + 64, delivered + 1, 64)
                      if s % RING == inf["off"] and (s - previous - 1) >> 16 == wraps), None)
        if found is None:
            return None, "no place for 0x25 @ %s" % inf["pc"]
        starts.append(found)
    results = []
    for k, inf in enumerate(pending):
        s = starts[k]
        e = starts[k + 1] if k + 1 < len(starts) else delivered
        if e <= s:
            return None, "empty segment @ %s" % inf["pc"]
        length = e - s
        if s % RING != inf["off"]:
            return None, "offset @ %s" % inf["pc"]
        if inf["wraps"] != (length - 1) >> 16:
            return None, "wraps @ %s: %d, L %d" % (inf["pc"], inf["wraps"], length)
        form = first_fill_term(s, length, inf["fb"])
        if form is None:
            return None, "InfeedFirstBeats @ %s: %d at S %d, L %d" % (inf["pc"], inf["fb"], s, length)
        results.append((inf, s, length, form, inf["wraps"] == length >> 16))
    return results, None


def scan(text):
    """Yield (executable type, results or None, error) per fence with pending parameter 0x25s."""
    regs, desc, delivered, pending, checked, exe, pc = {}, {}, 0, [], 0, None, None
    for line in text.splitlines():
        if line.startswith("// executable") or line.startswith("// raw"):
            m = re.match(r"// executable \d+ \((\w+)\)", line)
            exe = m.group(1) if m else "RAW"
            regs, desc, delivered, pending, checked = {}, {}, 0, [], 0
            continue
        if line.startswith("//   fields: Infeed") and "InfeedIsInput=0" in line:
            f = dict(re.findall(r"(\w+)=(\d+)", line))
            pending.append(dict(pc=pc, off=int(f["InfeedOffset64"]) * 64, wraps=int(f["InfeedWraps64K"]),
                                fb=int(f["InfeedFirstBeats"])))
            continue
        m = re.match(r"([0-9a-f]{4}): (.*)$", line)
        if not m:
            continue
        pc, body = m.groups()
        if body.startswith("sc.sync") and pending:
            results, error = check_fence(pending, checked, delivered)
            yield exe, results, error, len(pending)
            checked, pending = delivered, []
        for part in body.split(" ; "):
            part = part.strip()
            mm = re.match(r"s(\d+) = mov 0x([0-9a-f]+)$", part)
            if mm:
                regs[int(mm.group(1))] = int(mm.group(2), 16)
                continue
            mm = re.match(r"s(\d+) = ", part)
            if mm:
                regs.pop(int(mm.group(1)), None)
                continue
            mm = re.match(r"desc\[(\d)\] = s(\d+)$", part)
            if mm:
                desc[int(mm.group(1))] = regs.get(int(mm.group(2)))
                continue
            if part == "push" and desc.get(3) == 2:
                delivered += desc.get(2) or 0
    if pending:
        yield exe, None, "%d 0x25s without a fence" % len(pending), len(pending)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coralsim", default="build/coralsim")
    parser.add_argument("--corpus", default=os.environ.get("CORALSIM_CORPUS", "../shared/corpus"))
    parser.add_argument("--hold", nargs="*", default=["bright_128x128", "color_"])
    args = parser.parse_args()
    counts = collections.Counter()
    errors = []
    for path in distinct_programs(args.corpus):
        part = "held out" if any(h in os.path.basename(path) for h in args.hold) else "decide"
        text = subprocess.run([args.coralsim, "disasm", path, "--fields"], capture_output=True, text=True).stdout
        for exe, results, error, n in scan(text):
            counts[(part, "fences with %d 0x25s" % n)] += 1
            if error:
                errors.append((os.path.basename(path), exe, error))
                counts[(part, "0x25s at refused fences")] += n
                continue
            for _, s, _, form, floor_ok in results:
                counts[(part, exe, form, "S = 0" if s == 0 else "S > 0")] += 1
                counts[(part, "wraps = (L - 1) >> 16")] += 1
                counts[(part, "wraps = L >> 16 too" if floor_ok else "wraps = L >> 16 FAILS")] += 1
    for key in sorted(counts):
        print(" | ".join(key), counts[key])
    for e in errors:
        print("REFUSED", *e)


if __name__ == "__main__":
    main()
