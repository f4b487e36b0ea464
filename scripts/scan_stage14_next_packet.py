#!/usr/bin/env python3
"""What comes next on a 0x14's tiles against its w4 bit 101 (docs/decoding-log.md "stride" §B;
lle_fields.def Stage14FeedsCompute). For every 0x14 of every corpus program (parameter-caching
executables left out), the next tile packet on its tiles (sync 0x1a skipped: a fence moves no data),
tabulated by bit 101, by that packet's opcode, by Stage14SelectW5 (w5[23:22]) and by the packet
before the 0x14 on its tiles (an execution-only 0x11 with its prefix bit w2[11] or not). A
program family column says where each combination occurs.

  1. bit 101 against the next opcode (the rule the rung checks: set -> a compute or a 0x18, never a
     0x11; clear -> never a compute);
  2. the same split by Stage14SelectW5 and the packet before.

Usage: scan_stage14_next_packet.py SHARED_TOOLS_ISA_DIR CORPUS_DIR
The shared reference parsers are used as libraries through scan_recv11_exec_form.py.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_recv11_exec_form as recv  # noqa: E402

bits = recv.bits
SYNC = 0x1a


def next_on_tiles(packets, at, mask):
    for _, op, value in packets[at + 1:]:
        if op != SYNC and recv.tiles(op, value) & mask:
            return op
    return None


def before_on_tiles(packets, at, mask):
    for _, op, value in reversed(packets[:at]):
        if op != SYNC and recv.tiles(op, value) & mask:
            return op, value
    return None, None


def main(tools, corpus):
    by_next = collections.Counter()
    detail = collections.Counter()
    where = collections.defaultdict(set)
    for label, packets in recv.programs(tools, corpus):
        family = label.split("/")[0]
        for index, (_, op, value) in enumerate(packets):
            if op != 0x14:
                continue
            mask = bits(value, 12, 16)
            feeds = bits(value, 4 * 128 + 101, 1)
            nxt = next_on_tiles(packets, index, mask)
            nxt = "none" if nxt is None else "0x%02x" % nxt
            by_next[feeds, nxt] += 1
            where[feeds, nxt].add(family)
            prev_op, prev = before_on_tiles(packets, index, mask)
            prefix = bits(prev, 256 + 11, 1) if prev_op == 0x11 and bits(prev, 256 + 122, 1) else None
            detail[feeds, nxt, bits(value, 5 * 128 + 22, 2), "none" if prev_op is None else "0x%02x" % prev_op, prefix] += 1
    print("1. w4 bit 101 / next packet on the 0x14's tiles: count (families)")
    for key, count in sorted(by_next.items()):
        print("  bit101=%d next=%s: %d (%s)" % (key[0], key[1], count, ", ".join(sorted(where[key]))))
    print("2. bit 101, next, Stage14SelectW5, packet before, its prefix bit (execution-only 0x11): count")
    for key, count in sorted(detail.items(), key=str):
        print("  ", key, count)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
