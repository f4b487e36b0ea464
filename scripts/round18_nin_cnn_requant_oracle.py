#!/usr/bin/python3
"""Which requantisation rounding reproduces the Edge TPU's own outputs for prbodmann's nin_cnn?

The oracle: prbodmann+Coral-TPU/ensemble_tpu/golden/nin_cnn_edgetpu.raw holds the 10 dequantised softmax scores
(multiples of 1/256) the Edge TPU produced for the 30 CIFAR images in inputs/nin_cnn_edgetpu.raw (ground_truth
GROUND_TRUTH_public.json "golden_pb_nin_cnn": generated ON the device). The network is run offline, in integers,
from the CPU twin nin_cnn.tflite's weights, biases and scales, with a switchable requantiser; the scores are
compared with the device's.

The softmax runs on the device too (the custom op's output is the softmax's, scale 1/256), and its arithmetic is
not decoded, so the last step is modelled two ways (float softmax of the dequantised logits rounded to 1/256,
half-even and half-away); a logit one LSB off moves the scores by ~30 % (exp(0.326)), far more than a softmax's
own rounding, so the images whose logits differ between rules tell the rules apart whatever the softmax does.
The script also reports, per rule, the logits themselves and where two rules' logits differ.

Needs numpy (Debian's python3-numpy: run with /usr/bin/python3). Data from $CORALSIM_CORPUS; exits 77 when absent.
Usage: scripts/round18_nin_cnn_requant_oracle.py [--model nin_cnn|...] [--verbose]
"""
import argparse
import os
import sys

import numpy as np

TOOLS = os.environ.get("CORALSIM_TOOLS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "tools"))
sys.path.insert(0, os.path.join(TOOLS, "tflite-ref"))
import tflite_fb  # noqa: E402

F32 = np.float32
EXACT_POOL = False


def rint_half_toward_zero(x):
    return np.sign(x) * np.ceil(np.abs(x) - 0.5)


def rint_half_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


# ---- the candidate requantisers -------------------------------------------------------------------------------
# Each takes the int32 accumulator (bias included, input zero point removed), the channel's device scale `s`
# (float32: the twin's per-channel weight scale, what the parameter prefix's f32 array holds, "dec17" §A), the
# packet's float32 multiplier `m` (input scale / output scale) and the twin's double multiplier `M`
# (input scale x weight scale / output scale, as TFLite computes it), and returns the value before the zero point.

def quantize_multiplier(d):
    q, shift = np.frexp(d)
    qf = np.floor(q * (1 << 31) + 0.5).astype(np.int64)
    top = qf == (1 << 31)
    qf = np.where(top, qf // 2, qf)
    shift = np.where(top, shift + 1, shift)
    return qf, shift


def tflite_fixed_point(acc, M):
    """MultiplyByQuantizedMultiplier: SaturatingRoundingDoublingHighMul + RoundingDivideByPOT (gemmlowp)."""
    qm, shift = quantize_multiplier(np.asarray(M, dtype=np.float64))
    acc = acc.astype(np.int64)
    left = np.where(shift > 0, shift, 0)
    right = np.where(shift > 0, 0, -shift)
    x = np.clip(acc * (np.int64(1) << left), -(1 << 31), (1 << 31) - 1)
    ab = x * qm
    nudge = np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    v = ab + nudge
    hi = np.where(v >= 0, v // (1 << 31), -((-v) // (1 << 31)))  # C++ division truncates
    mask = (np.int64(1) << right) - 1
    rem = hi & mask
    thr = (mask >> 1) + np.where(hi < 0, 1, 0)
    return (hi >> right) + np.where(rem > thr, 1, 0)


def rule_values(rule, acc, accNoBias, bias, s, m, M):
    a32 = acc.astype(F32)
    if rule == "fp32-half-even":
        return np.rint((a32 * s).astype(F32) * m)
    if rule == "fp32-half-away":
        return rint_half_away((a32 * s).astype(F32) * m)
    if rule == "fp32-half-up":
        return np.floor((a32 * s).astype(F32) * m + F32(0.5))
    if rule == "fp32-half-toward-zero":
        return rint_half_toward_zero((a32 * s).astype(F32) * m)
    if rule == "fp32-folded-half-even":  # acc x float32(s x m)
        return np.rint(a32 * (s * m).astype(F32))
    if rule == "fp32-bias-after-scale":  # (acc_without_bias x s + bias x s) x m, float32
        return np.rint(((accNoBias.astype(F32) * s).astype(F32) + (bias.astype(F32) * s).astype(F32)).astype(F32) * m)
    if rule == "double-half-even":
        return np.rint(acc.astype(np.float64) * s.astype(np.float64) * np.float64(m))
    if rule == "double-half-away":
        return rint_half_away(acc.astype(np.float64) * s.astype(np.float64) * np.float64(m))
    if rule in ("tflite-fixed-point(twin M)", "tflite-cpu", "tflite-fixed-point convs, fp32 pool"):
        return tflite_fixed_point(acc, M)
    if rule == "tflite-fixed-point(device s*m)":
        return tflite_fixed_point(acc, s.astype(np.float64) * np.float64(m))
    raise ValueError(rule)


RULES = ["fp32-half-even", "fp32-half-away", "fp32-half-up", "fp32-half-toward-zero", "fp32-folded-half-even", "fp32-bias-after-scale",
         "double-half-even", "double-half-away", "tflite-fixed-point(twin M)", "tflite-fixed-point(device s*m)",
         "tflite-fixed-point convs, fp32 pool", "tflite-cpu"]  # the last: TFLite's CPU kernels (fixed point, and its own average pool rounding)


# ---- the network ---------------------------------------------------------------------------------------------

class Twin:
    def __init__(self, path):
        self.data = open(path, "rb").read()
        self.g = tflite_fb.parse(self.data)["subgraphs"][0]
        self.T = self.g["tensors"]

    def array(self, t):
        dt = {"int8": np.int8, "int32": np.int32, "uint8": np.uint8, "float32": np.float32}[self.T[t]["dtype"]]
        return np.frombuffer(tflite_fb.buffer_data(self.data, self.T[t]["buffer"]), dtype=dt).reshape(self.T[t]["shape"])

    def q(self, t):
        return self.T[t]["quant"]


def conv_valid(x, w):
    """x: H x W x C int64 (zero point removed), w: O x kh x kw x C int64 -> Ho x Wo x O sums."""
    H, W, C = x.shape
    O, kh, kw, _ = w.shape
    Ho, Wo = H - kh + 1, W - kw + 1
    cols = np.empty((Ho, Wo, kh, kw, C), dtype=np.int64)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, i, j, :] = x[i:i + Ho, j:j + Wo, :]
    return cols.reshape(Ho * Wo, -1) @ w.reshape(O, -1).T.astype(np.int64)


def softmax_scores(logits, qi, softmax_rounding):
    z = (logits - qi["zero_point"][0]).astype(np.float64) * qi["scale"][0]
    p = np.exp(z - z.max())
    p /= p.sum()
    t = p * 256.0
    r = np.rint(t) if softmax_rounding == "half-even" else np.floor(t + 0.5)
    return np.clip(r, 0, 255).astype(np.int64)


def run(twin, image, rule):
    ops = twin.g["operators"]
    x = None
    for op in ops:
        name = op["op"]
        if name == "QUANTIZE":
            qo = twin.q(op["outputs"][0])
            # TFLite's QUANTIZE: round(x / scale) half away from zero, + zero point.
            x = np.clip(rint_half_away(image.astype(F32) / F32(qo["scale"][0])) + qo["zero_point"][0], -128, 127).astype(np.int64)
            x = x.reshape(twin.T[op["outputs"][0]]["shape"][1:])
        elif name == "CONV_2D":
            ti, tw, tb = op["inputs"]
            to = op["outputs"][0]
            qi, qw, qo = twin.q(ti), twin.q(tw), twin.q(to)
            w = twin.array(tw).astype(np.int64)
            b = twin.array(tb).astype(np.int64)
            sums = conv_valid(x - qi["zero_point"][0], w)  # weights symmetric (zero point 0)
            acc = sums + b
            M = np.float64(qi["scale"][0]) * np.array(qw["scale"], dtype=np.float64) / np.float64(qo["scale"][0])
            # nin_cnn's compiled convolutions carry the packet multiplier 1.0 (coralsim disasm: mult=1.0), so the
            # prefix's f32 scale is the whole effective scale; taken here as float32 of TFLite's double multiplier.
            s = M.astype(F32)
            m = F32(1.0)
            v = rule_values(rule, acc, sums, b, s, m, M)
            zo = qo["zero_point"][0]
            # Fused ReLU: clamp at the zero point; without it the int8 range.
            lo = zo if "Relu" in (twin.T[to]["name"] or "") else -128
            y = np.clip(v + zo, lo, 127).astype(np.int64)
            Ho = twin.T[to]["shape"][1]
            x = y.reshape(Ho, -1, w.shape[0])
        elif name == "MAX_POOL_2D":
            H, W, C = x.shape
            x = x.reshape(H // 2, 2, W // 2, 2, C).max(axis=(1, 3))
        elif name == "AVERAGE_POOL_2D":
            qi = twin.q(op["inputs"][0])
            zi = qi["zero_point"][0]
            H, W, C = x.shape
            n = H * W
            if rule == "tflite-cpu":
                # TFLite's CPU int8 average pool: (sum + n/2) / n on the raw values, C++ division (toward zero).
                num = x.reshape(-1, C).sum(axis=0) + n // 2
                x = np.clip(np.where(num >= 0, num // n, -((-num) // n)), -128, 127)
            else:
                # The device: an epilogue of scale 1 and multiplier 1 / n over the sum less the zero point.
                tot = (x - zi).reshape(-1, C).sum(axis=0)
                one = np.ones(C, dtype=F32)
                # The compiled pool's multiplier is one float32 ulp below 1 / n (nin_cnn's 4 x 4 pool:
                # mult=0.0624999963 in coralsim disasm), which sends every exact tie toward zero; --exact-pool
                # uses 1 / n itself (then the tie rule decides ~1 / 16 of the pool's outputs).
                pm = F32(1.0 / n) if EXACT_POOL else np.nextafter(F32(1.0 / n), F32(0))
                pool_rule = "fp32-half-even" if rule == "tflite-fixed-point convs, fp32 pool" else rule
                v = rule_values(pool_rule, tot, tot, np.zeros(C, np.int64), one, pm, np.full(C, np.float64(pm)))
                x = np.clip(v + zi, -128, 127).astype(np.int64)
        elif name == "SOFTMAX":
            return x.reshape(-1).copy(), twin.q(op["inputs"][0])
    raise RuntimeError("no SOFTMAX in the twin")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="nin_cnn")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--exact-pool", action="store_true", help="average pool multiplier exactly 1 / n (not the compiled one)")
    args = ap.parse_args()
    global EXACT_POOL
    EXACT_POOL = args.exact_pool
    corpus = os.environ.get("CORALSIM_CORPUS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "corpus"))
    base = os.path.join(corpus, "prbodmann+Coral-TPU", "ensemble_tpu")
    twin_path = os.path.join(base, "models", args.model + ".tflite")
    if not os.path.exists(twin_path):
        print("skip: no", twin_path)
        return 77
    twin = Twin(twin_path)
    images = np.fromfile(os.path.join(base, "inputs", args.model + "_edgetpu.raw"), "<f4").reshape(-1, 32, 32, 3)
    golden = np.rint(np.fromfile(os.path.join(base, "golden", args.model + "_edgetpu.raw"), "<f4").reshape(-1, 10) * 256).astype(np.int64)
    logits = {}
    print(f"{args.model}: {len(images)} images, device scores x 256 from golden/{args.model}_edgetpu.raw")
    print(f"{'rule':34s} {'softmax':9s} {'images exact':>12s} {'scores exact':>12s} {'sum |d|':>8s} {'max |d|':>7s}")
    qsoft = None
    for rule in RULES:
        for img in images:
            lg, qsoft = run(twin, img, rule)
            logits.setdefault(rule, []).append(lg)
        for sm in ("half-even", "half-away"):
            exact = scores = tot = mx = 0
            for k in range(len(images)):
                q = softmax_scores(logits[rule][k], qsoft, sm)
                d = np.abs(q - golden[k])
                exact += int(d.max() == 0)
                scores += int((d == 0).sum())
                tot += int(d.sum())
                mx = max(mx, int(d.max()))
            print(f"{rule:34s} {sm:9s} {exact:>7d} / {len(images):<3d} {scores:>6d} / {golden.size:<4d} {tot:>8d} {mx:>7d}")
    base_rule = RULES[0]
    print("\nlogits (avg pool output, int8) differing from", base_rule)
    for rule in RULES[1:]:
        diff = [k for k in range(len(images)) if not np.array_equal(logits[rule][k], logits[base_rule][k])]
        print(f"  {rule:34s} images {len(diff):2d}: {diff}")
    if args.verbose:
        for k in range(len(images)):
            print(k, "device scores", golden[k].tolist())
            for rule in RULES:
                print("   ", f"{rule:34s}", "logits", logits[rule][k].tolist(), "scores", softmax_scores(logits[rule][k], qsoft, "half-even").tolist())
    return 0


if __name__ == "__main__":
    sys.exit(main())
