#!/usr/bin/env python3
"""The counts of docs/decoding-log.md "identcopy": the input element size of a compute, and where the
one-byte-element (identity) computes read their input: inside a window, a 0x14 staging write whose
nest comes back to the same units (an outer level of stride 0) on the compute's tiles.

Usage: scan_identity_window.py SHARED_TOOLS_ISA_DIR CORPUS_DIR

Prints:
  A. 0x01 (w1[83:81], w1[119:118]) pairs (ComputeInputBytes, ComputeInputBytesCode);
  B. for every compute with w1[83:81] = 1, where w1[80:65] (ComputeInputAt4) points among the windows
     on its tiles: the window's first unit ("base"), base + k x the window's units ("ring"), none of
     them ("miss"), or no window on its tiles; the same for w1[80:65] + 1 and - 1 (controls);
  C. the rubensrech convolution sweep, one line per identity compute: T (w0 level 1 + 1), rows (w0
     level 3 + 1), the window's units and passes, the input's offset from the base in units and in
     windows, and the rows of all identity computes that read the window against its passes;
  D. the identity copy executed on a random image (seed 7) for the single-channel rubensrech
     convolutions (and the 3-channel depthwise sweep), as models/lle executes it: each tile's window takes the next input pop to the tile
     pass by pass, the tile's one-byte computes take the passes in program order (row r: the first C T
     bytes of the next pass, C = K limit + 1 one-byte channels a position; ComputeInputAt4 must name the
     window: its base or base + k windows), and
     position x of row r goes to the r T + x-th unit of the output nest (Output37, from ComputeOutputAt /
     4). Checked against the geometry of the convolution that follows (K from its Nest37 level 0, G = T
     + K - 1, p = (K - 1) / 2): grid unit (p + r) G + p + x of a tile must hold image pixel (row0 + r, x)
     (its C channels), a tile keeping the pop's bytes after its 0x14's source skip (w4 bit 30 /
     w4[63:50], Stage14SourceOn / Stage14SourceSkip, "src14").
     row0 = the pop's offset / the image width, column offset = the tile's rank among the pop's
     destination tiles x T (independent of the skip).
The 0x14 nest is read as models/lle/write_nest.h reads it (limits Stage14Groups / Stage14OuterLimit,
carries Stage14WrapA/B/D/E, docs/decoding-log.md "write14"), its address as w2[26:11] in 4-byte units
("identform" §B). Packets are one little-endian bit string (bit = 128 x word + bit). Programs: as
scan_lle_fields.py.
"""
import os
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scan_lle_fields import packet_bits as bits  # noqa: E402


def window_of(v):
    """(first unit, units per pass, passes) of a 0x14 whose nest revisits its units, else None."""
    limits = [bits(v, 2, 44, 16)] + [bits(v, 2, 77 + 33 * i, 16) for i in range(4)]
    carries = [bits(v, 2, 60, 17, True), bits(v, 2, 93, 17, True), bits(v, 2, 126, 17, True), bits(v, 3, 31, 17, True)]
    strides = [1]
    for i in range(1, 5):
        strides.append(carries[i - 1] + sum(limits[j] * strides[j] for j in range(i)))
    for level in range(1, 5):
        if limits[level] > 0 and strides[level] == 0 and all(limits[j] == 0 for j in range(1, level)):
            return bits(v, 2, 11, 16), limits[0] + 1, limits[level] + 1
    return None


def output_units(v, first):
    """The units of the compute's output nest (Output37: w5 bit 8, 37-bit slots, 18-bit limit, 17-bit
    carry), level 0 fastest, as models/lle/output_nest.h walks them."""
    limits = [bits(v, 5, 8 + 37 * i, 18) for i in range(7)]
    carries = [bits(v, 5, 28 + 37 * i, 17, True) for i in range(6)]
    strides = [1]
    for i in range(1, 7):
        strides.append(carries[i - 1] + sum(limits[j] * strides[j] for j in range(i)))
    units = [first]
    for level in range(7):
        units = [u + c * strides[level] for c in range(limits[level] + 1) for u in units]
    return units


def execute_identity_copy(label, seq, seed=7):  # noqa: C901 (one walk per tile, as the rung)
    """Section D for one program: (tiles checked, pixels checked, pixels wrong, note)."""
    import random
    pops = [(pc, v) for pc, op, v, _ in seq if op == 0x26 and bits(v, 0, 12, 1) == 1]
    if not pops:
        return None
    # The image: as long as the last pop's offset plus the bytes its window takes (the pops' own length
    # fields are not used here: in the 40 x 40 programs PopBeatsHigh/Low read half the window's bytes).
    window_bytes = max(4 * w[1] * w[2] for w in (window_of(v) for _, op, v, _ in seq if op == 0x14) if w)
    length = max((bits(v, 2, 64, 16) - 1) * 8 for _, v in pops) + window_bytes
    rng = random.Random(seed)
    image = bytes(rng.randrange(256) for _ in range(length))
    conv = next((v for _, op, v, _ in seq if op == 0x01 and bits(v, 1, 81, 3) == 4 and bits(v, 1, 100, 18) > 0), None)
    channels = 1
    if conv is None:
        return None
    k = bits(conv, 1, 100, 18) + 1
    checked = wrong = 0
    tiles_checked = set()
    for tile in range(16):
        windows = []  # [base, units, passes, pass bytes, passes read, row0, column0]
        armed = None
        grid = {}
        t_width = None
        for pc, op, v, mask in seq:
            if not (mask >> tile) & 1 and op != 0x26:
                continue
            if op == 0x14:
                # Stage14SourceOn (w4 bit 30) / Stage14SourceSkip (w4[63:50]): the units of the pop the
                # tile lets pass before its write ("src14").
                armed = (window_of(v), bits(v, 4, 50, 14) + 1 if bits(v, 4, 30, 1) else 0)
            elif op == 0x26 and bits(v, 0, 12, 1) == 1 and (bits(v, 3, 25, 16) >> tile) & 1:
                if armed and armed[0]:
                    base, units, passes = armed[0]
                    offset = (bits(v, 2, 64, 16) - 1) * 8
                    data = image[offset + 4 * armed[1]:offset + 4 * units * passes]
                    # The tile's column: its rank among the pop's destination tiles (independent of the skip).
                    column = bin(bits(v, 3, 25, 16) & ((1 << tile) - 1)).count("1")
                    windows.append([base, units, passes, [data[4 * units * i:4 * units * (i + 1)] for i in range(passes)], 0,
                                    offset, column])
                armed = None
        # The computes wait for their windows (issued before the 0x14 that fills them) and take
        # the passes in program order.
        for pc, op, v, mask in seq:
            if (mask >> tile) & 1 and op == 0x01 and bits(v, 1, 81, 3) == 1 and bits(v, 0, 62, 8) <= 3:
                channels = bits(v, 0, 62, 8) + 1  # the K loop over one-byte channels of a position
                at = bits(v, 1, 65, 16)
                named = [w for w in windows if at >= w[0] and (at - w[0]) % w[1] == 0]
                if not named:
                    continue
                w = named[-1]
                columns, rows = bits(v, 0, 76, 14) + 1, bits(v, 0, 104, 14) + 1
                t_width = columns
                units = output_units(v, bits(v, 4, 62, 18) // 4)
                for n, unit in enumerate(units[:columns * rows]):
                    r, x = w[4] + n // columns, n % columns
                    pixel = w[3][r][channels * x:channels * (x + 1)] if r < len(w[3]) else b""
                    grid[unit] = (w, r, x, pixel if len(pixel) == channels else None)
                w[4] += rows
        if not grid:
            continue
        g, pad = t_width + k - 1, (k - 1) // 2
        tiles_checked.add(tile)
        for w in {id(e[0]): e[0] for e in grid.values()}.values():
            width = 4 * w[1]  # one pass: one image row
            for r in range(w[4]):
                for x in range(t_width):
                    got = grid.get((pad + r) * g + pad + x, (None, 0, 0, None))[3]
                    checked += 1
                    at = w[5] + r * width + channels * (t_width * w[6] + x)
                    want = image[at:at + channels] if at + channels <= len(image) else None
                    wrong += got != want or want is None
    return len(tiles_checked), checked, wrong, "K %d" % k


def place(address, windows):
    if not windows:
        return "no window"
    if any(address == base for base, _, _ in windows):
        return "base"
    if any(address > base and (address - base) % units == 0 for base, units, _ in windows):
        return "ring"
    return "miss"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import seg  # noqa: E402  (shared reference tools)
    import scan_lle_fields  # noqa: E402
    pairs = Counter()
    found = {key: Counter() for key in ("w1[80:65]", "w1[80:65] + 1", "w1[80:65] - 1")}
    by_k = defaultdict(Counter)
    sweep = []
    executed = []
    for label, _, data in scan_lle_fields.programs(sys.argv[2]):
        words = seg.words(data)
        packets, _ = seg.segment(words)
        seq = []
        for index, op, length in packets:
            if op in (0x01, 0x14, 0x26):
                v = 0
                for k in range(length):
                    v |= words[index + k] << (128 * k)
                seq.append((index, op, v, (words[index] >> 12) & 0xFFFF))
        windows = [(m, window_of(v)) for _, op, v, m in seq if op == 0x14 and window_of(v)]
        readers = defaultdict(int)  # (window's tiles, window) -> rows of the identity computes reading it
        for pc, op, v, mask in seq:
            if op != 0x01:
                continue
            pairs[(bits(v, 1, 81, 3), bits(v, 1, 118, 2))] += 1
            if bits(v, 1, 81, 3) != 1:
                continue
            mine = [w for m, w in windows if m & mask]
            mine_masks = [(m, w) for m, w in windows if m & mask]
            at = bits(v, 1, 65, 16)
            for key, address in (("w1[80:65]", at), ("w1[80:65] + 1", at + 1), ("w1[80:65] - 1", at - 1)):
                found[key][place(address, mine)] += 1
            by_k[bits(v, 0, 62, 8)][place(at, mine)] += 1
            rows = bits(v, 0, 104, 14) + 1
            hit = [w for w in mine if at >= w[0] and (at - w[0]) % w[1] == 0]
            # Every window of the same base on its tiles is read (one 0x14 per tile column, same nest).
            for m, w in mine_masks:
                if hit and w == hit[0]:
                    readers[(m, w)] += rows * (bits(v, 0, 90, 14) + 1)
            if "/conv_2d_1_" in label and hit and "#p0#" in label:
                sweep.append([label, pc, bits(v, 0, 76, 14) + 1, rows, hit[0], at, mask])
        if ("/conv_2d_1_" in label or "/depthwise_conv_2d_1_" in label) and "#p0#" in label:
            executed.append((label, execute_identity_copy(label, seq)))
        for row in sweep:
            if row[0] == label and len(row) == 7:
                row.append(sorted({(readers[(m, w)], w[2]) for m, w in windows if m & row[6] and w == row[4]}))
    print("A. 0x01 (w1[83:81], w1[119:118]): %s" % sorted(pairs.items(), key=lambda item: -item[1]))
    for key, counts in found.items():
        print("B. %-14s of the %d computes with w1[83:81] = 1: %s" % (key, sum(counts.values()), dict(counts)))
    for k in sorted(by_k):
        print("   K limit %d (%d channel groups): %s" % (k, k + 1, dict(by_k[k])))
    print("C. program | PC | T | rows | window (base, units, passes) | input - base (units, windows) | "
          "(rows read by all the program's identity computes from such a window on these tiles, its passes)")
    for label, pc, t, rows, (base, units, passes), at, _, total in sweep:
        print("   %s | 0x%04x | %d | %d | %d, %d, %d | %d, %d | %s" % (
            os.path.basename(label.split("#")[0]), pc, t, rows, base, units, passes, at - base, (at - base) // units, total))

    print("D. program | tiles checked | grid positions checked | wrong | the convolution's K")
    for label, result in executed:
        print("   %s | %s" % (os.path.basename(label.split("#")[0]), " | ".join(str(x) for x in result) if result else "no input pop"))


if __name__ == "__main__":
    main()
