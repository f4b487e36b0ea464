#!/usr/bin/env python3
"""Offline twin of a compiled Edge TPU program's CPU model, run with the DEVICE's own requantisation scales.

docs/decoding-log.md "hold17". The CPU references of the golden (TFLite's integer kernels, xnnpack) requantise with
scales they compute themselves; the device multiplies float32(acc) by the f32 scale the compiler stored in the
program's parameter prefix arrays (each output block: f32 scales, int32 biases, u32 offsets; "dec17" §A), rounds half to
even ("round18") and clamps. This twin runs the uncompiled (CPU) model layer by layer in integers -- the accumulator
bias + sum((x - zx) * (w - zw)) is exact in any arithmetic -- and requantises each convolution's channel c with:

  --rule device   float32(acc) * s_c, s_c the f32 the compiler stored beside bias_c in the program's parameters,
                  ties to even, + output zero point, clamp to the activation's range.  (what the device does)
  --rule tflite   TFLite's fixed point (Q31 multiplier of double(si) * double(sw_c) / double(so), rounding
                  right shift), i.e. the golden's primary reference: a check of the twin itself (it must give the
                  primary bytes exactly).

The device scale is found, not assumed: every 4-aligned int32 of the program's parameter bytes equal to the twin's
bias_c is a candidate; each f32 up to 128 words before it that lies within 1e-4 (relative) of the double scale is a candidate at that
lane distance; a channel takes its candidate at the distance most of its layer's channels show (a block's scales lie
its lane count of words before its biases), which must be one f32 value (else the channel is reported ambiguous or
missing and the TFLite double scale rounded to f32 is used, counted). Supported operators: QUANTIZE
(a zero-point shift between int8 and uint8, or a requantisation with equal scales), PAD, CONV_2D,
DEPTHWISE_CONV_2D, CONCATENATION with equal quantisation. Anything else is skipped, and a compiled output that needs it is refused by name.

Usage: hold17_device_scale_twin.py TWIN.tflite COMPILED_edgetpu.tflite INPUT.bin OUT_PREFIX [--rule device|tflite]
writes OUT_PREFIX.N for the twin tensor behind each compiled output, in the compiled outputs' order (matched by
name, as the golden manifest's tensor_map does), and prints per layer how its scales were found.
"""
import argparse
import os
import struct
import sys

import numpy as np

# The shared reference tools ($CORALSIM_TOOLS, default ../shared/tools beside the checkout), read as libraries.
TOOLS = os.environ.get('CORALSIM_TOOLS', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'tools'))
sys.path.insert(0, os.path.join(TOOLS, 'tflite-ref'))
sys.path.insert(0, os.path.join(TOOLS, 'isa'))
import tflite_fb as F  # noqa: E402
import tfl  # noqa: E402

ACT_NONE, ACT_RELU, ACT_RELU_N1_TO_1, ACT_RELU6 = 0, 1, 2, 3


def conv_options(data, k, depthwise):
    ty, pos, fb = F.op_options(data, k)
    padding = fb.scalar(pos, 0, 'b', 0)
    sw = fb.scalar(pos, 1, 'i', 1)
    sh = fb.scalar(pos, 2, 'i', 1)
    act = fb.scalar(pos, 4 if depthwise else 3, 'b', 0)
    dil_w = fb.scalar(pos, 5 if depthwise else 4, 'i', 1)
    dil_h = fb.scalar(pos, 6 if depthwise else 5, 'i', 1)
    if dil_w != 1 or dil_h != 1:
        raise SystemExit('op %d: dilation %d x %d not modelled' % (k, dil_h, dil_w))
    return padding, sh, sw, act


def tensor_array(data, T, i):
    t = T[i]
    dt = {'INT8': np.int8, 'UINT8': np.uint8, 'INT32': np.int32}[t['dtype'].upper()]
    return np.frombuffer(F.buffer_data(data, t['buffer']), dtype=dt).reshape(t['shape'])


def act_range(act, scale, zp, qmin, qmax):
    if act == ACT_NONE:
        return qmin, qmax
    lo = 0.0 if act in (ACT_RELU, ACT_RELU6) else -1.0
    hi = {ACT_RELU: None, ACT_RELU6: 6.0, ACT_RELU_N1_TO_1: 1.0}[act]
    q = lambda v: zp + int(round(v / scale))  # noqa: E731  (TFLite's CalculateActivationRangeQuantized)
    return max(qmin, q(lo)), (qmax if hi is None else min(qmax, q(hi)))


def quantize_multiplier(m):
    """TFLite's QuantizeMultiplier (double -> Q31 multiplier and shift)."""
    if m == 0:
        return 0, 0
    mant, exp = np.frexp(m)
    q = int(round(mant * (1 << 31)))
    if q == (1 << 31):
        q //= 2
        exp += 1
    return q, int(exp)


def tflite_requant(acc, q, shift):
    """MultiplyByQuantizedMultiplier (TFLite 2.9 reference: SaturatingRoundingDoublingHighMul, RoundingDivideByPOT)."""
    left = shift if shift > 0 else 0
    right = -shift if shift < 0 else 0
    a = acc.astype(np.int64) * (1 << left)
    prod = a * q
    nudge = np.where(prod >= 0, 1 << 30, 1 - (1 << 30))
    x = (prod + nudge) // (1 << 31)
    # C++ integer division truncates toward zero
    x = np.where((prod + nudge) < 0, -((-(prod + nudge)) // (1 << 31)), x)
    if right == 0:
        return x
    mask = (1 << right) - 1
    rem = x & mask
    thr = (mask >> 1) + (x < 0)
    return (x >> right) + (rem > thr)


class DeviceScales:
    """The f32 scale the compiler stored beside each bias in the program's parameter bytes."""

    def __init__(self, compiled_path):
        _, pkgs = tfl.load(compiled_path)
        blob = b''.join(e['parameters'] for pk in pkgs for e in pk['executables'])
        # the bitstreams too: some programs carry parameters inside instruction chunks
        blob += b''.join(b['bitstream'] for pk in pkgs for e in pk['executables'] for b in e['bitstreams'])
        self.blob = blob
        n = len(blob) // 4
        self.i32 = np.frombuffer(blob[:4 * n], dtype='<i4')
        self.f32 = np.frombuffer(blob[:4 * n], dtype='<f4')
        self.index = {}
        for pos, v in enumerate(self.i32.tolist()):
            self.index.setdefault(v, []).append(pos)

    def scale(self, bias, expected):
        """{lane distance: set of f32 bits} of every candidate of one channel."""
        found = {}
        for pos in self.index.get(int(bias), []):
            for lanes in range(1, 129):
                p = pos - lanes
                if p < 0:
                    break
                v = float(self.f32[p])
                if np.isfinite(v) and expected > 0 and abs(v - expected) <= 1e-4 * expected:
                    found.setdefault(lanes, set()).add(int(self.i32[p]) & 0xffffffff)
        return found


def run(args):
    data = open(args.twin, 'rb').read()
    g = F.parse(data)['subgraphs'][0]
    T = g['tensors']
    dev = DeviceScales(args.compiled) if args.rule == 'device' else None
    vals = {}
    inp = g['inputs'][0]
    x = np.fromfile(args.input, dtype=np.uint8).reshape(T[inp]['shape'])
    vals[inp] = x.astype(np.int64)
    stats = []
    scales_out = open(args.scales, 'w') if args.scales else None
    for k, op in enumerate(g['operators']):
        name = op['op']
        if not all(i in vals or T[i]['buffer'] for i in op['inputs'] if i >= 0):
            continue
        out = op['outputs'][0]
        to = T[out]
        qmin, qmax = (-128, 127) if to['dtype'].upper() == 'INT8' else (0, 255)
        if name == 'QUANTIZE':
            ti = T[op['inputs'][0]]
            if ti['quant']['scale'][0] != to['quant']['scale'][0]:
                raise SystemExit('op %d: QUANTIZE with a scale change not modelled' % k)
            vals[out] = np.clip(vals[op['inputs'][0]] - ti['quant']['zero_point'][0] + to['quant']['zero_point'][0], qmin, qmax)
        elif name == 'PAD':
            pads = tensor_array(data, T, op['inputs'][1]).astype(int)
            zp = to['quant']['zero_point'][0]
            vals[out] = np.pad(vals[op['inputs'][0]], [tuple(p) for p in pads], constant_values=zp)
        elif name == 'CONCATENATION':
            ins = op['inputs']
            if any(T[i]['quant']['scale'][0] != to['quant']['scale'][0] or
                   T[i]['quant']['zero_point'][0] != to['quant']['zero_point'][0] for i in ins):
                raise SystemExit('op %d: CONCATENATION with a requantisation not modelled' % k)
            ty, pos, fb = F.op_options(data, k)
            axis = fb.scalar(pos, 0, 'i', 0)
            vals[out] = np.concatenate([vals[i] for i in ins], axis=axis)
        elif name in ('CONV_2D', 'DEPTHWISE_CONV_2D'):
            dw = name == 'DEPTHWISE_CONV_2D'
            ii, iw, ib = op['inputs'][:3]
            xin = vals[ii]
            ti, tw = T[ii], T[iw]
            w = tensor_array(data, T, iw).astype(np.int64)
            b = tensor_array(data, T, ib).astype(np.int64)
            zx = ti['quant']['zero_point'][0]
            zw = np.array(tw['quant']['zero_point'], dtype=np.int64)
            padding, sh, sw, act = conv_options(data, k, dw)
            _, H, W, C = xin.shape
            _, OH, OW, OC = to['shape']
            KH, KW = w.shape[1], w.shape[2]
            if padding == 0:  # SAME
                ph = max((OH - 1) * sh + KH - H, 0) // 2
                pw = max((OW - 1) * sw + KW - W, 0) // 2
            else:
                ph = pw = 0
            xp = np.full((1, H + KH + sh * OH, W + KW + sw * OW, C), zx, dtype=np.int64)
            xp[:, ph:ph + H, pw:pw + W, :] = xin
            xp = xp - zx
            acc = np.zeros((OH, OW, OC), dtype=np.int64)
            wz = w - (zw.reshape(-1, 1, 1, 1) if not dw else zw.reshape(1, 1, 1, -1))
            for ky in range(KH):
                for kx in range(KW):
                    win = xp[0, ky:ky + sh * OH:sh, kx:kx + sw * OW:sw, :][:OH, :OW, :]
                    if dw:
                        acc += win * wz[0, ky, kx, :]
                    else:
                        acc += win.reshape(-1, C) .dot(wz[:, ky, kx, :].T).reshape(OH, OW, OC)
            acc += b
            si = ti['quant']['scale'][0]
            so = to['quant']['scale'][0]
            zo = to['quant']['zero_point'][0]
            sws = tw['quant']['scale']
            if len(sws) == 1:
                sws = sws * OC
            lo, hi = act_range(act, so, zo, qmin, qmax)
            y = np.zeros_like(acc)
            found = amb = missing = 0
            mult = [np.float64(np.float32(si)) * np.float64(np.float32(sws[c])) / np.float64(np.float32(so)) for c in range(OC)]
            cands = [dev.scale(b[c], mult[c]) for c in range(OC)] if args.rule == 'device' else []
            # each block's scales lie `lanes` words before its biases: a float near the scale at another distance
            # is a coincidence (PoseNet 353x481_16 Conv2d_4_pointwise channel 78 has one 49 words before its bias,
            # the block's own 64). Take each channel's candidate at the distance most channels of the layer show.
            votes = {}
            for cand in cands:
                for d in cand:
                    votes[d] = votes.get(d, 0) + 1
            for c in range(len(cands)):
                if cands[c]:
                    best = max(cands[c], key=lambda d: (votes[d], -d))
                    cands[c] = cands[c][best]
            for c in range(OC):
                if args.rule == 'tflite':
                    q, s = quantize_multiplier(mult[c])
                    y[..., c] = tflite_requant(acc[..., c], q, s)
                    continue
                cand = cands[c]
                if len(cand) == 1:
                    sc = np.frombuffer(struct.pack('<I', next(iter(cand))), dtype='<f4')[0]
                    found += 1
                else:
                    amb += len(cand) > 1
                    missing += len(cand) == 0
                    sc = np.float32(mult[c])
                if scales_out:
                    scales_out.write('%d %d %d %08x\n' % (k, c, int(b[c]), struct.unpack('<I', struct.pack('<f', sc))[0]))
                prod = acc[..., c].astype(np.float32) * sc  # float32(acc) x f32 scale, in float32
                y[..., c] = np.rint(prod).astype(np.int64)  # ties to even
            vals[out] = np.clip(y + zo, lo, hi)[None]
            if args.rule == 'device':
                stats.append((k, name, to['name'][-34:], OC, found, amb, missing))
        else:
            print('op %2d %s: not modelled, its outputs not computed (an output that needs them is refused below)' % (k, name))
    for s in stats:
        print('op %2d %-17s %-34s channels %3d device scale found %3d ambiguous %d missing %d' % s)
    _, pkgs = tfl.load(args.compiled)
    names = [o['name'] for pk in pkgs for e in pk['executables'] if e['type'] == 'EXECUTION_ONLY' or len(pkgs[0]['executables']) == 1
             for o in e['outputs']]
    by_name = {T[i]['name']: i for i in range(len(T))}
    for j, nm in enumerate(names):
        i = by_name.get(nm)
        if i is None or i not in vals:
            raise SystemExit('compiled output %s: no twin tensor of that name computed' % nm)
        v = vals[i]
        v = v + 128 if T[i]['dtype'].upper() == 'INT8' else v
        v.astype(np.uint8).tofile('%s.%d' % (args.out, j))
        print('output %d %s -> %s.%d (%d bytes)' % (j, nm, args.out, j, v.size))


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('twin')
    ap.add_argument('compiled')
    ap.add_argument('input')
    ap.add_argument('out')
    ap.add_argument('--scales', help='write "op channel bias f32-bits" of every scale used (device rule)')
    ap.add_argument('--rule', choices=('device', 'tflite'), default='device')
    run(ap.parse_args())
