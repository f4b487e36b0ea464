#!/usr/bin/env python3
"""Which pairing rule of the byte-stepped weighing's 16-bit results (docs/decoding-log.md "trk14c" §B, "trk15") gives the
trackers' golden outputs: a float model of the softmax chain ("sum03" §D: exponentials round(65535 e^x), their sum S,
t = 2^15.5 / sqrt(S / 65535) rounded (T1's bias 0 or 2.1e-5), u = min(32768, round(t^2 / 65535))), then 0x07d1's lanes
under each rule -- diagonal (u_lo, u_hi, u_lo, u_hi), rotating (u_lo x 4) -- rebuilt by 0x0949's weights 1 / 256, 0x09cb's
byte clamp(round(e_i x u' x 0x34000157)) - 128, and the twin's two FULLY_CONNECTED layers (TFLite reference integer
arithmetic, $CORALSIM_TOOLS/tflite-ref/tools/pyref.py) against each golden case's two output bytes.
Usage: scripts/trk15_pairing_rule_downstream.py PROGRAM...   (e.g. bright_64x64 color_cyan_64x64)
Prints per case: golden, the outputs each rule gives (one per T1 bias when they differ), (t, u, rebuilt u')."""
import sys, os, math, struct
TOOLS = os.environ.get('CORALSIM_TOOLS', '../shared/tools')
sys.path.insert(0, os.path.join(TOOLS, 'tflite-ref')); sys.path.insert(0, os.path.join(TOOLS, 'tflite-ref', 'tools'))
import tflite_fb, pyref  # noqa: E402
CORP = os.path.join(os.environ.get('CORALSIM_CORPUS', '../shared/corpus'), 'ricardodeazambuja+LibrEdgeTPU/libredgetpu/tracker/templates/')
GOLD = os.path.join(os.environ.get('CORALSIM_GOLDEN', '../shared/golden'), 'ricardodeazambuja+LibrEdgeTPU__')
M09cb = struct.unpack('<f', struct.pack('<I', 0x34000157))[0]

def rhe(x):  # round half even
    return int(round(x))

def model_parts(name):
    d = open(CORP + name + '.tflite', 'rb').read()
    m = tflite_fb.parse(d); sg = m['subgraphs'][0]; T = sg['tensors']
    return d, sg, T

def softmax_input(name, img):
    d, sg, T = model_parts(name)
    ops = sg['operators']
    conv = [o for o in ops if o['op'] == 'CONV_2D']
    if not conv:
        return [p - 128 for p in img], 1.0
    o = conv[0]; ti, tw, tb = o['inputs']; to = o['outputs'][0]
    w = pyref._unpack(T[tw]['dtype'], tflite_fb.buffer_data(d, T[tw]['buffer']))
    b = pyref._unpack(T[tb]['dtype'], tflite_fb.buffer_data(d, T[tb]['buffer']))[0]
    si = T[ti]['quant']['scale'][0]; sw = T[tw]['quant']['scale'][0]; so = T[to]['quant']['scale'][0]; zo = T[to]['quant']['zero_point'][0]
    mult, sh = pyref.quantize_multiplier(si * sw / so)
    out = []
    for p in range(len(img) // 3):
        acc = b + sum(img[3 * p + c] * w[c] for c in range(3))
        out.append(min(127, max(zo, pyref.mbqm_double(acc, mult, sh) + zo)))
    return out, so

def fcs(name, sm):
    d, sg, T = model_parts(name)
    res = []
    for o in sg['operators']:
        if o['op'] != 'FULLY_CONNECTED': continue
        ti, tw = o['inputs'][:2]; to = o['outputs'][0]
        w = pyref._unpack(T[tw]['dtype'], tflite_fb.buffer_data(d, T[tw]['buffer']))
        si = T[ti]['quant']['scale'][0]; zi = T[ti]['quant']['zero_point'][0]
        sw = T[tw]['quant']['scale'][0]; so = T[to]['quant']['scale'][0]; zo = T[to]['quant']['zero_point'][0]
        mult, sh = pyref.quantize_multiplier(si * sw / so)
        acc = sum((x - zi) * r for x, r in zip(sm, w))
        res.append(min(127, max(-128, pyref.mbqm_double(acc, mult, sh) + zo)))
    return res

def chain(q, scale, rule, tbias=0.0):
    mx = max(q)
    e = [rhe(65535 * math.exp(scale * (v - mx))) for v in q]
    S = sum(e); s = S / 65535
    t = rhe(2 ** 15.5 / math.sqrt(s) * (1 - tbias))
    t = min(65535, t)
    u = min(32768, rhe(t * t / 65535))
    lo, hi = u & 255, u >> 8
    if rule == 'diagonal':
        uu = lo + 256 * hi
    else:  # rotating: every lane takes lane 0 of its group
        uu = lo + 256 * lo
    sm = [min(255, max(0, rhe(ei * uu * M09cb))) - 128 for ei in e]
    return sm, (S, t, u, uu)

if __name__ == '__main__':
    progs = sys.argv[1:]
    for name in progs:
        g = GOLD + name
        cases = sorted({f.split('.')[0] for f in os.listdir(g) if f.endswith('.in0.bin')})
        for c in cases:
            img = list(open(g + '/%s.in0.bin' % c, 'rb').read())
            gold = list(struct.unpack('<2b', open(g + '/%s.tpu_out0.bin' % c, 'rb').read()))
            q, sc = softmax_input(name, img)
            row = [name, c, 'golden', gold]
            for rule in ('diagonal', 'rotating'):
                outs = set()
                for tb in (0.0, 2.1e-5):
                    sm, info = chain(q, sc, rule, tb)
                    outs.add(tuple(fcs(name, sm)))
                row += [rule, sorted(outs), info[1:]]
            print(*row)
