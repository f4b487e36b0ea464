#!/usr/bin/env python3
"""How far the lle rung gets on every distinct corpus program, and which field stops it.

Runs `coralsim run --mode lle --random 1` once per distinct program (compiled `*_edgetpu.tflite`
and raw `.coral`, deduplicated by content) and groups the programs by where they stop: the packet
(opcode, PC) and the word/bits the rung refuses, exactly as the rung names them. This is the table
the closing notes of issue #12 report; re-running it is how a decode's reach is measured.

  scripts/lle-stops.py [--coralsim build/coralsim] [--corpus $CORALSIM_CORPUS] [--jobs 1]
                       [--tsv OUT.tsv] [--timeout 300]

Prints a Markdown table (stop -> programs) and a count by stopping opcode on stdout; progress on
stderr. --tsv also writes one line per program (file name, stop) for diffing two trees.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import distinct_program_files as distinct_programs  # noqa: E402

# A refusal before the run names the packet's engine ("opcode 0x14 (tile.dma14) at PC ..."); one during
# the run comes back in the device's fatal-error text without it ("lle: opcode 0x25 at PC ...").
UNDEFINED = re.compile(r"UNDEFINED: (\d+) of (\d+) bytes")
REFUSAL = re.compile(r"opcode (0x[0-9a-f]+)(?: \(([a-z0-9.]+)\))? at PC (0x[0-9a-f]+)[^:]*: (.*?)(?:\]|$)")


def compact(detail):
    """The refusal without the raw word dump: 'w3 bits 26:19' or the relation's text."""
    detail = re.sub(r"word (\d+) = [0-9a-f]{32}: bits ", r"w\1 bits ", detail)
    detail = detail.replace(" have no decoded meaning and differ from the envelope", "")
    detail = re.sub(r" \(models/lle/lle_envelope[^)]*\)", "", detail)
    return detail[:240]


def stop_of(coralsim, path, timeout):
    try:
        # The device-side transfer limit follows the script's own: on a loaded machine a large program
        # computes longer than coralsim's default 10 s per transfer, which is not a stop.
        run = subprocess.run([coralsim, "run", "--mode", "lle", "--random", "1",
                              "--timeout-ms", str(timeout * 1000), path],
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout} s"
    text = run.stdout + run.stderr
    match = REFUSAL.search(text)
    if match:
        opcode, _, pc, detail = match.groups()
        return f"{opcode} @ {pc}: {compact(detail)}"
    if run.returncode != 0:
        last = text.strip().splitlines()[-1] if text.strip() else f"exit {run.returncode}"
        return f"error: {last[:200]}"
    # A run whose outputs hold bytes computed from memory no packet wrote (docs/decoding-log.md "raw25") runs fully,
    # but its output is not a result: said so, and counted apart.
    undefined = UNDEFINED.findall(text)
    if undefined:
        return "runs fully, output undefined: " + ", ".join(f"{n} of {m} bytes" for n, m in undefined)
    return "runs fully"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coralsim", default="build/coralsim")
    parser.add_argument("--corpus", default=os.environ.get("CORALSIM_CORPUS", "../shared/corpus"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--tsv")
    args = parser.parse_args()
    if not os.path.isfile(args.coralsim):
        sys.exit(f"lle-stops: {args.coralsim}: no such program (build first, or pass --coralsim)")
    if not os.path.isdir(args.corpus):
        sys.exit(f"lle-stops: {args.corpus}: no corpus directory (set CORALSIM_CORPUS)")

    programs = list(distinct_programs(args.corpus))
    stops = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(stop_of, args.coralsim, p, args.timeout): p for p in programs}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            path = futures[future]
            stops[path] = future.result()
            print(f"[{done}/{len(programs)}] {os.path.basename(path)}: {stops[path]}", file=sys.stderr)

    def short(path):
        return re.sub(r"(_quant)?_edgetpu\.tflite$", "", os.path.basename(path))

    if args.tsv:
        with open(args.tsv, "w") as out:
            for path in programs:
                out.write(f"{os.path.basename(path)}\t{stops[path]}\n")

    by_stop = collections.defaultdict(list)
    for path in programs:
        by_stop[stops[path]].append(short(path))
    print("| programs | how far lle gets: the packet it stops at and the bits it refuses |")
    print("|---|---|")
    for stop, names in sorted(by_stop.items(), key=lambda item: (item[0] != "runs fully", item[0])):
        print(f"| {', '.join(names)} | {stop} |")
    counts = collections.Counter(
        s.split(":")[0] if s.startswith("runs fully") else s.split(" @ ")[0] for s in stops.values())
    print()
    print(f"{len(programs)} distinct programs: " +
          ", ".join(f"{key} {n}" for key, n in counts.most_common()))


if __name__ == "__main__":
    main()
