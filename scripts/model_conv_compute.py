#!/usr/bin/env python3
"""Analysis model of the convolution compute packet (docs/decoding-log.md "convmac"): predicts a
compiled single-layer convolution's output from the bitstream's decoded fields, the
PARAMETER_CACHING executable's parameter bytes and an input image, so the decoding can be checked
against the CPU twins' golden outputs and the hardware ground truth before the lle rung runs it.

Usage: model_conv_compute.py SHARED_TOOLS_DIR GOLDEN_DIR CORPUS_DIR [--only SUBSTRING]
  Runs every rubensrech conv_2d / depthwise_conv_2d program under CORPUS_DIR that has golden cases
  (GOLDEN_DIR/<id>/*.in0.bin against *.tpu_out0.xnnpack.bin, else *.tpu_out0.bin) and the 500 x 500
  box convolution's hardware golden; prints bytes exact / compared and max |d| per program, then the
  decode set and the held-out set.

What the model reads from the packets (fields, not program names):
  - the convolution compute: the first 0x01 whose reduction (w0 level 0, ComputeK4W0 widened to 14
    bits) counts more than once and whose input address (ComputeInputAt4, w1[80:65]) is 0;
  - its three nests, each walked with the carry convention of "gridcopy" §A (level 0 steps one unit;
    when level i counts the address changes by the carry of slot i - 1):
      Nest37 (w1 bit 100): input address in 4-byte units of the padded grid (taps x, taps y, positions);
      Nest29 (w7 bit 90):  weight address in 4 x lanes-byte units (one group of 4 input bytes x lanes);
      Output37 (w5 bit 8): output address in 4-byte units from ComputeOutputAt (w4 bit 62, bytes);
    iteration n of the three walks belongs together; every R = iterations / outputs iterations one
    output (equal to w0 level 0 + 1 in these programs, checked);
  - lanes = 4 x (w4[102:99] + 1) (the output cells a weight group feeds);
  - the parameter prefix kind w16[46:45]: bit 46 a f32 scale and a u32 weight offset per lane, bit 45
    an int32 bias per lane, in the order scale, bias, offset (2: Dense / RingCanary; 1: bias only;
    3: all three; 0: none); the weights follow the prefix arrays (4 x lanes bytes each); without bit 46
    the weight offset is the packet's weight zero point w14[70:62];
  - requantisation: zp_in w14[86:78], multiplier w15[60:29], clamps w15[92:61] / w15[124:93], zp_out
    w16[37:29] (docs/isa.md §4.2), in float32, clamp then round half to even.
  - the padded grid: G = the stride of Nest37's tap-row level; the first identity compute's output
    address / 4 = p (G + 1) gives the top / left pad p; the block width T and rows from the identity
    computes' w0 nest. The grid border is filled from the neighbouring blocks of the image (zero
    outside it): that is the halo exchange of 0x15 / 0x16 / 0x18, which is NOT decoded -- modelled.
  - which tile holds which block and where its output bytes go in the output stream: the executable's
    OutputLayer (host metadata, shared tools/output_layout.py), assumed to hold for the input too.
Throwaway quality; nothing of the shared tools is copied (they are imported as libraries).
"""
import glob
import json
import os
import struct
import sys

import numpy as np
from scan_lle_fields import packet_bits as bits


def f32(u):
    return struct.unpack("<f", struct.pack("<I", u))[0]


def nest(v, word, bit, lw, fw, ww, pitch):
    """[(limit, carry)] of the 7 slots of a nest."""
    return [(bits(v, word, bit + pitch * i, lw), bits(v, word, bit + pitch * i + lw + fw, ww, True))
            for i in range(7)]


def strides(slots):
    """Per-level address steps under the carry convention: s0 = 1, s_i = carry_{i-1} + sum_{j<i} limit_j s_j."""
    out = [1]
    for i in range(1, len(slots)):
        out.append(slots[i - 1][1] + sum(slots[j][0] * out[j] for j in range(i)))
    return out


def addresses(slots, n):
    """Address (units) of flat iterations n (numpy int64 array) of a nest."""
    s = strides(slots)
    a = np.zeros_like(n)
    rest = n.copy()
    for (limit, _), step in zip(slots, s):
        a += (rest % (limit + 1)) * step
        rest //= (limit + 1)
    return a


def count(slots):
    c = 1
    for limit, _ in slots:
        c *= limit + 1
    return c


class Compute:
    def __init__(self, v, pc):
        self.v, self.pc = v, pc
        self.mask = bits(v, 0, 12, 16)
        self.w0 = [bits(v, 0, 62 + 14 * i, 14) for i in range(4)]
        self.n37 = nest(v, 1, 100, 18, 2, 17, 37)
        self.n29 = nest(v, 7, 90, 14, 2, 13, 29)
        self.o37 = nest(v, 5, 8, 18, 2, 17, 37)
        self.out_at = bits(v, 4, 62, 18)  # bytes; wider than ComputeOutputAt's 11 bits (4 G^2 > 2048)
        self.in_at4 = bits(v, 1, 65, 16)
        self.lanes = 4 * (bits(v, 4, 99, 4) + 1)
        self.prefix = bits(v, 16, 45, 2)
        self.zp_in = bits(v, 14, 78, 9)
        self.zp_w = bits(v, 14, 62, 9)
        self.mult = f32(bits(v, 15, 29, 32))
        self.hi = f32(bits(v, 15, 61, 32))
        self.lo = f32(bits(v, 15, 93, 32))
        self.zp_out = bits(v, 16, 29, 9)


def load(tools, path):
    sys.path.insert(0, os.path.join(tools, "isa"))
    sys.path.insert(0, tools)
    import tfl  # noqa: E402
    import seg  # noqa: E402
    import output_layout  # noqa: E402
    _, packages = tfl.load(path)
    exes = packages[0]["executables"]
    eo = [e for e in exes if e["type"] == "EXECUTION_ONLY"][0]
    pcs = [e for e in exes if e["type"] == "PARAMETER_CACHING"]
    params = pcs[0]["parameters"] if pcs else b""
    words = seg.words(eo["bitstreams"][0]["bitstream"])
    computes = []
    for index, op, length in seg.segment(words)[0]:
        if op == 0x01:
            v = 0
            for k in range(length):
                v |= words[index + k] << (128 * k)
            computes.append(Compute(v, index))
    layer = [l for t, l in output_layout.output_layers(path) if t == "EXECUTION_ONLY"][0]
    return computes, bytes(params), layer


def predict(computes, params, layer, image, channels):
    convs = [c for c in computes if c.w0[0] > 0 and c.in_at4 == 0]
    if not convs:
        raise ValueError("no convolution compute reads its grid from narrow unit 0 (ComputeInputAt4 = 0): "
                         "another tiling (the 1024^2 programs' computes read at 17664, 21760, ...)")
    conv = convs[0]
    ident = [c for c in computes if c.pc < conv.pc]  # the identity computes: the grid copies before it
    R = count(conv.n37) // count(conv.o37)  # iterations per output (= w0 level 0 + 1 here)
    assert R == conv.w0[0] + 1 and count(conv.n37) % count(conv.o37) == 0
    # the grid: G is the address step of the tap-row level (the level after the tap-column level)
    G = strides(conv.n37)[1]
    first = ident[0]
    u0 = first.out_at // 4
    assert first.out_at % 4 == 0 and u0 % (G + 1) == 0, ("identity output not on the grid diagonal", u0, G)
    p = u0 // (G + 1)
    T = first.w0[1] + 1
    L = layer["layout_full"]
    Y, X, Z = layer["y_dim"], layer["x_dim"], layer["z_dim"]
    # the interior of the grid is where the identity computes write (checked, not assumed)
    o = addresses(first.o37, np.arange(count(first.o37[:4]), dtype=np.int64)) + u0
    rows = first.w0[3] + 1
    expect = np.array([(p + r) * G + p + c for r in range(rows) for c in range(T)])
    assert np.array_equal(o[:len(expect)], expect), "identity output nest is not the grid interior"
    # parameters: prefix arrays, then weight groups of 4 x lanes bytes
    lanes = conv.lanes
    P = np.frombuffer(params, dtype=np.uint8)
    arrays = (2 if conv.prefix & 2 else 0) + (conv.prefix & 1)
    wbase = arrays * 4 * lanes
    A = 4 * lanes
    scale = np.ones(lanes, dtype=np.float32)
    bias = np.zeros(lanes, dtype=np.int64)
    w_off = np.full(lanes, conv.zp_w, dtype=np.int64)
    if conv.prefix & 2:
        scale = np.frombuffer(params[:A], dtype="<f4").astype(np.float32)
        at = 2 * A if conv.prefix & 1 else A
        w_off = np.frombuffer(params[at:at + A], dtype="<i4").astype(np.int64)
    if conv.prefix & 1:
        at = A if conv.prefix & 2 else 0
        bias = np.frombuffer(params[at:at + A], dtype="<i4").astype(np.int64)
    groups = (len(P) - wbase) // (4 * lanes)
    W = P[wbase:wbase + groups * 4 * lanes].reshape(groups, lanes, 4).astype(np.int64) - w_off[None, :, None]
    # per tile: the block, the grid, the MACs
    N = count(conv.n37)
    assert N == count(conv.n29) and N % R == 0
    Q = N // R
    stream = bytearray(layer["size_bytes"])
    tiles = {}
    for y in range(Y):
        for x in range(X):
            t = L["y_to_tile"][y] + L["x_to_tile"][x]
            oy, ox = tiles.get(t, (y, x))
            tiles[t] = (min(oy, y), min(ox, x))
    img = np.frombuffer(image, dtype=np.uint8).reshape(Y, X, channels).astype(np.int64)
    q = np.arange(Q, dtype=np.int64)
    out_units = addresses(conv.o37, q)
    for t, (by, bx) in tiles.items():
        grid = np.full((G * G, 4), 0, dtype=np.int64)
        gy, gx = np.divmod(np.arange(G * G), G)
        iy, ix = by + gy - p, bx + gx - p
        inside = (iy >= 0) & (iy < Y) & (ix >= 0) & (ix < X)
        grid[inside, :channels] = img[iy[inside], ix[inside]]
        grid -= conv.zp_in
        acc = np.zeros((Q, lanes), dtype=np.int64)
        for r in range(R):
            n = q * R + r
            a_in = addresses(conv.n37, n) + conv.in_at4
            a_w = addresses(conv.n29, n)
            acc += np.einsum("qi,qli->ql", grid[a_in], W[a_w])
        acc += bias[None, :]
        value = (acc.astype(np.float32) * scale[None, :]).astype(np.float32) * np.float32(conv.mult)
        value = np.minimum(np.maximum(value, np.float32(conv.lo)), np.float32(conv.hi))
        res = np.clip(np.rint(value) + conv.zp_out, 0, 255).astype(np.uint8)
        # the tile's output region (4-byte units from ComputeOutputAt), drained in address order
        region = np.zeros((int(out_units.max()) + 1, 4), dtype=np.uint8)
        region[out_units, :min(lanes, 4)] = res[:, :4]
        blob = region.reshape(-1).tobytes()
        off = L["tile_byte_offset"][t]
        stream[off:off + Q * 4] = blob[:Q * 4]
    out = bytearray(Y * X * Z)
    for y in range(Y):
        for x in range(X):
            t = L["y_to_tile"][y] + L["x_to_tile"][x]
            o = L["tile_byte_offset"][t] + L["y_local_offset"][y] * L["x_local_row_size"][x] + L["x_local_byte_offset"][x]
            out[(y * X + x) * Z:(y * X + x + 1) * Z] = stream[o:o + Z]
    return bytes(out), dict(R=R, G=G, p=p, T=T, lanes=lanes, prefix=conv.prefix, wbase=wbase, Q=Q, zp_w=conv.zp_w,
                            mult=conv.mult, zp_in=conv.zp_in, zp_out=conv.zp_out, lo=conv.lo, hi=conv.hi)


def cases(golden, corpus, relpath):
    gid = "rubensrech+Coral-TPU__" + os.path.basename(relpath).replace("_edgetpu.tflite", "")
    d = os.path.join(golden, gid)
    for inp in sorted(glob.glob(os.path.join(d, "*.in0.bin"))):
        stem = inp[:-len(".in0.bin")]
        ref = stem + ".tpu_out0.xnnpack.bin"
        if not os.path.exists(ref):
            ref = stem + ".tpu_out0.bin"
        yield "golden " + os.path.basename(stem), open(inp, "rb").read(), open(ref, "rb").read()
    base = os.path.dirname(os.path.dirname(relpath))
    hw = os.path.join(base, "golden", "golden_rand_" + os.path.basename(relpath).replace(".tflite", ".out"))
    if os.path.exists(hw):
        raw = open(hw, "rb").read()
        ndims = struct.unpack_from("<i", raw, 0)[0]
        dims = struct.unpack_from("<%di" % ndims, raw, 4)
        data = raw[28:]
        size = int(np.prod(dims))
        inp = open(os.path.join(base, "inputs_regenerated", "np_seed0_randint_0_255_u8_3000000.bin"), "rb").read()[:size]
        yield "hardware", inp, data[:size]


DECODE = ("conv_2d_1_32_32_1_3_3_", "conv_2d_1_64_64_1_3_3_", "conv_2d_1_256_256_1_40_40_")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    if only:
        args.remove(only)
    if len(args) != 3:
        sys.exit(__doc__)
    tools, golden, corpus = args
    totals = {"decode": [0, 0, 0], "held out": [0, 0, 0]}
    paths = sorted(glob.glob(os.path.join(corpus, "rubensrech+Coral-TPU", "**", "*conv_2d_*_edgetpu.tflite"), recursive=True))
    for path in paths:
        name = os.path.basename(path)
        if only and only not in name:
            continue
        computes, params, layer = load(tools, path)
        channels = layer["z_dim"]
        split = "decode" if name.startswith(DECODE) else "held out"
        for label, image, ref in cases(golden, corpus, path):
            try:
                got, info = predict(computes, params, layer, image, channels)
            except Exception as error:  # a program the model does not cover: say so
                print("%-58s %-16s not modelled: %r" % (name, label, error))
                break
            a = np.frombuffer(got, dtype=np.uint8).astype(int)
            b = np.frombuffer(ref, dtype=np.uint8).astype(int)
            exact = int((a == b).sum())
            maxd = int(np.abs(a - b).max())
            t = totals[split]
            t[0] += exact
            t[1] += len(b)
            t[2] = max(t[2], maxd)
            print("%-58s %-16s %-8s %9d / %9d exact, max|d| %d  %s" % (name, label, split, exact, len(b), maxd,
                                                                     json.dumps(info)))
    for split, (exact, n, maxd) in totals.items():
        if n:
            print("%s: %d / %d bytes exact (%.3f %%), max|d| %d" % (split, exact, n, 100.0 * exact / n, maxd))


if __name__ == "__main__":
    main()
