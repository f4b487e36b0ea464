#!/usr/bin/env python3
"""Where the time of an inference goes on real hardware, from the Wireshark text exports of usbmon
captures in the corpus (iwatake2222/EdgeTPU_Analysis `log_wireshark/*.txt`): per inference, the
phases between the bulk-OUT records (instructions, input, parameters), the output bulk-IN and the
event on EP 0x82. Used for docs/timing.md §5 (does the input transfer overlap the chip's work?).

An inference starts at a bulk-OUT submission (host → d.d.1, URB_BULK out) that follows the previous
inference's event completion (d.d.2 → host, URB_BULK in) or the start of the file, and ends at its
own event completion. Per inference it prints (milliseconds from the first submission):
  out_done  the last bulk-OUT completion before the first output data: every host byte accepted
  out_bytes the bulk-OUT payload bytes when the export carries URB lengths ('# length,...' columns;
            headers of 8 bytes included), else '-'
  first_in  the first bulk-IN completion on EP 0x81 that carries data (frame longer than 64 bytes)
  last_in   the last such completion before the event
  event     the EP 0x82 completion
  tail      first_in - out_done: chip work (and outfeed) that did not overlap a host transfer

Python 3 standard library only.

usage: scripts/capture-gaps.py CAPTURE.txt...
"""

import re
import sys

LINE = re.compile(r"^\s*(\d+)\s+([\d.]+)\s+(\S+)\s+→\s+(\S+)\s+USB\s+(\d+)\s+URB_BULK\s+(in|out)\s*(?:#\s*(.*))?$")


def endpoint(address):
    return int(address.split(".")[-1])


def inferences(path):
    current, out = None, []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(line)
        if not m:
            continue
        _, t, src, dst, frame, direction, extra = m.groups()
        t, frame = float(t), int(frame)
        submit = src == "host"
        if submit and direction == "out" and current is None:
            current = {"start": t, "out_done": None, "out_bytes": 0, "have_bytes": extra is not None,
                       "first_in": None, "last_in": None}
        if current is None:
            continue
        if submit and direction == "out" and extra:
            try:
                current["out_bytes"] += int(extra.split(",")[0])
            except ValueError:
                current["have_bytes"] = False
        if not submit and direction == "out" and current["first_in"] is None:
            current["out_done"] = t
        if not submit and direction == "in" and endpoint(src) == 1 and frame > 64:
            if current["first_in"] is None:
                current["first_in"] = t
            current["last_in"] = t
        if not submit and direction == "in" and endpoint(src) == 2:
            current["event"] = t
            out.append(current)
            current = None
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print("| capture | inference | out_bytes | out_done | first_in | last_in | event | tail |")
    print("|---|---|---|---|---|---|---|---|")
    for path in sys.argv[1:]:
        for i, inf in enumerate(inferences(path)):
            if inf["out_done"] is None or inf["first_in"] is None:
                continue
            ms = lambda key: (inf[key] - inf["start"]) * 1e3
            print("| %s | %d | %s | %.3f | %.3f | %.3f | %.3f | %.3f |" % (
                path.split("/")[-1], i, inf["out_bytes"] if inf["have_bytes"] else "-", ms("out_done"),
                ms("first_in"), ms("last_in"), ms("event"), ms("first_in") - ms("out_done")))


if __name__ == "__main__":
    main()
