#!/usr/bin/env python3
"""Calibrate coralsim's timing model against published Edge TPU latencies.

Runs `coralsim run MODEL --iterations 2 --timing --json` for every corpus model listed in
scripts/timing-references.json (published steady-state latencies, USB 3 and USB 2), then

  1. reports the figures of the constants compiled into coralsim (what `coralsim run --timing`
     prints today): a markdown table per reference, mean absolute error, worst error, how many
     references are within +-30 %;
  2. fits the [calibrated] constants honestly on the same data: the two chip constants
     (compute_packet_cycles, tile_dma_packet_cycles, models/timing_model.h) by a grid search that
     re-runs the simulator, and for each grid point the two link constants per USB speed
     (out-transfer, in-transfer and host-turnaround seconds, sim/usb_link_model.cc) by least squares on the
     relative error; bandwidths stay at their documented values;
  3. estimates how well that generalises with leave-one-out: each reference is predicted by a fit
     (grid choice included) made without it;
  4. writes the report (markdown, with an SVG scatter plot of predicted vs measured beside it).

Python 3 standard library only (matplotlib is not needed: the SVG is written by hand).

usage: scripts/calibrate-timing.py REPORT.md [--coralsim build/coralsim] [--corpus ../shared/corpus]
                                   [--references scripts/timing-references.json] [--quick]
"""

import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The grid of chip constants the fit explores (cycles). --quick keeps the compiled-in point only.
COMPUTE_PACKET_GRID = [0, 300, 1000, 3000, 10000, 30000]
TILE_DMA_PACKET_GRID = [0, 100, 300, 1000, 3000]

# Documented link bandwidths (sim/usb_link_model.cc): not fitted.
BANDWIDTH = {"super": 310e6, "high": 36e6}


def fail(message):
    print("calibrate-timing: " + message, file=sys.stderr)
    sys.exit(1)


def run_model(coralsim, corpus, model, usb, constants):
    path = os.path.join(corpus, model)
    command = [coralsim, "run", path, "--iterations", "2", "--random", "1", "--timing", "--json", "--usb", usb]
    for name, value in sorted(constants.items()):
        command += ["--timing-constant", "%s=%d" % (name, value)]
    done = subprocess.run(command, capture_output=True, text=True)
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        fail("%s: coralsim printed no JSON (exit %d): %s" % (model, done.returncode, done.stderr.strip()[:300]))
    if done.returncode != 0 or "error" in result:
        fail("%s: the run failed: %s" % (model, result.get("error", done.stderr.strip()[:300])))
    if "timing" not in result:
        fail("%s: no 'timing' in the JSON (is %s built with --timing?)" % (model, coralsim))
    return result


def estimated_cycles(coralsim, corpus, model):
    """The compiler's own estimate (estimated_cycles_64bit) summed over the non-caching executables."""
    done = subprocess.run([coralsim, "inspect", os.path.join(corpus, model), "--json"], capture_output=True, text=True)
    try:
        info = json.loads(done.stdout)
    except json.JSONDecodeError:
        return None
    total = 0
    for op in info.get("edgetpu_ops", []):
        for package in op.get("packages", []):
            for exe in package.get("executables", []):
                if exe.get("type") == "PARAMETER_CACHING":
                    continue
                total += exe.get("estimated_cycles_64bit") or exe.get("estimated_cycles") or 0
    return total


class Sample:
    """One reference with the simulator's components at one grid point."""

    def __init__(self, ref, timing):
        self.ref = ref
        self.usb = ref["usb"]
        self.measured = ref["ms"] * 1e-3
        self.compute = timing["compute_ms"] * 1e-3
        self.cycles = timing["compute_cycles"]
        self.out_bytes = timing["bulk_out_bytes"]
        self.in_bytes = timing["bulk_in_bytes"]
        self.out_transfers = timing["bulk_out_transfers"]
        self.in_transfers = timing["bulk_in_transfers"]
        self.control = timing["control_transfers"]
        self.turnarounds = timing["host_turnarounds"]
        self.compiled_total = timing["total_ms"] * 1e-3
        self.compiled_usb = timing["usb_ms"] * 1e-3
        self.compiled_idle = timing["idle_ms"] * 1e-3
        # Compute hidden under the parameters the run streams (sim/device_clock.h); 0 when cached.
        self.overlap = timing.get("overlap_ms", 0.0) * 1e-3

    def fixed_part(self):
        bw = BANDWIDTH[self.usb]
        return self.compute - self.overlap + (self.out_bytes + self.in_bytes) / bw

    def features(self):
        return (self.out_transfers, self.in_transfers, self.turnarounds)

    def predict_with(self, coef):
        return self.fixed_part() + sum(f * c for f, c in zip(self.features(), coef))

    def predict(self, link):
        return self.predict_with(link[self.usb])


def solve_linear(a, b):
    """Gaussian elimination with partial pivoting; None when singular."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-30:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit_link(samples):
    """Per speed: out-transfer, in-transfer and turnaround seconds (all >= 0) minimising the squared
    relative error: every subset of the three columns is solved and the best non-negative one kept."""
    link = {}
    for usb in ("super", "high"):
        rows = [s for s in samples if s.usb == usb]
        best = None
        for mask in range(8):
            cols = [c for c in range(3) if mask >> c & 1]
            coef = [0.0, 0.0, 0.0]
            if cols and rows:
                a = [[0.0] * len(cols) for _ in cols]
                b = [0.0] * len(cols)
                for s in rows:
                    w = 1.0 / s.measured
                    x = [s.features()[c] * w for c in cols]
                    r = (s.measured - s.fixed_part()) * w
                    for i in range(len(cols)):
                        b[i] += x[i] * r
                        for j in range(len(cols)):
                            a[i][j] += x[i] * x[j]
                solved = solve_linear(a, b)
                if solved is None or min(solved) < 0:
                    continue
                for c, v in zip(cols, solved):
                    coef[c] = v
            error = sum(abs(s.predict_with(coef) - s.measured) / s.measured for s in rows)
            if best is None or error < best[0]:
                best = (error, tuple(coef))
        link[usb] = best[1] if best else (0.0, 0.0, 0.0)
    return link


def errors(samples, link):
    return [(s.predict(link) - s.measured) / s.measured for s in samples]


def summary(errs):
    if not errs:
        return 0.0, 0.0, 0
    mae = sum(abs(e) for e in errs) / len(errs)
    worst = max(abs(e) for e in errs)
    within = sum(1 for e in errs if abs(e) <= 0.30)
    return mae, worst, within


def svg_scatter(points, path, title):
    """points: (measured_ms, predicted_ms, usb). Log-log scatter with the y = x line and +-30 % band."""
    width, height, margin = 640, 520, 70
    values = [v for p in points for v in p[:2] if v > 0]
    lo = 10 ** math.floor(math.log10(min(values)))
    hi = 10 ** math.ceil(math.log10(max(values)))

    def x(v):
        return margin + (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * (width - 2 * margin)

    def y(v):
        return height - margin - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * (height - 2 * margin)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">'
           % (width, height), '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="24" font-size="15">%s</text>' % (margin, title)]
    # +-30 % band and the diagonal.
    band = " ".join("%.1f,%.1f" % (x(v), y(min(hi, v * 1.3))) for v in (lo, hi)) + " " + \
        " ".join("%.1f,%.1f" % (x(v), y(max(lo, v / 1.3))) for v in (hi, lo))
    out.append('<polygon points="%s" fill="#e8f0ff"/>' % band)
    out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888"/>' % (x(lo), y(lo), x(hi), y(hi)))
    decade = lo
    while decade <= hi * 1.0001:
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>' % (x(decade), y(lo), x(decade), y(hi)))
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>' % (x(lo), y(decade), x(hi), y(decade)))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (x(decade), height - margin + 18, decade))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (margin - 6, y(decade) + 4, decade))
        decade *= 10
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>'
               % (margin, margin, width - 2 * margin, height - 2 * margin))
    out.append('<text x="%d" y="%d" text-anchor="middle">measured latency (ms, log)</text>' % (width // 2, height - 20))
    out.append('<text x="18" y="%d" transform="rotate(-90 18 %d)" text-anchor="middle">predicted (ms, log)</text>'
               % (height // 2, height // 2))
    for measured, predicted, usb in points:
        colour = "#1f5fbf" if usb == "super" else "#d0402b"
        out.append('<circle cx="%.1f" cy="%.1f" r="4" fill="%s" fill-opacity="0.8"/>' % (x(measured), y(predicted), colour))
    out.append('<circle cx="%d" cy="%d" r="4" fill="#1f5fbf"/><text x="%d" y="%d">USB 3 (super)</text>'
               % (margin + 10, margin + 14, margin + 20, margin + 18))
    out.append('<circle cx="%d" cy="%d" r="4" fill="#d0402b"/><text x="%d" y="%d">USB 2 (high)</text>'
               % (margin + 10, margin + 32, margin + 20, margin + 36))
    out.append('<text x="%d" y="%d" fill="#557">shaded: within +-30 %%</text>' % (margin + 10, margin + 54))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="markdown report to write (the SVG plot goes beside it)")
    parser.add_argument("--coralsim", default=os.path.join(ROOT, "build", "coralsim"))
    parser.add_argument("--corpus", default=os.environ.get("CORALSIM_CORPUS", os.path.join(ROOT, "..", "shared", "corpus")))
    parser.add_argument("--references", default=os.path.join(HERE, "timing-references.json"))
    parser.add_argument("--quick", action="store_true", help="no grid search: the compiled-in chip constants only")
    args = parser.parse_args()

    if not os.access(args.coralsim, os.X_OK):
        fail("no coralsim executable at %s (build it, or pass --coralsim)" % args.coralsim)
    if not os.path.isdir(args.corpus):
        fail("no corpus at %s (pass --corpus or set CORALSIM_CORPUS)" % args.corpus)
    try:
        with open(args.references) as f:
            refs = json.load(f)["references"]
    except (OSError, ValueError, KeyError) as e:
        fail("%s: %s" % (args.references, e))
    missing = [r["model"] for r in refs if not os.path.isfile(os.path.join(args.corpus, r["model"]))]
    if missing:
        fail("references name models the corpus does not have: " + ", ".join(missing))

    # The compiled-in constants, as `coralsim run --timing` uses them.
    compiled = {}
    base = []
    for ref in refs:
        key = (ref["model"], ref["usb"])
        if key not in compiled:
            compiled[key] = run_model(args.coralsim, args.corpus, ref["model"], ref["usb"], {})["timing"]
        base.append(Sample(ref, compiled[key]))
    base_errs = [(s.compiled_total - s.measured) / s.measured for s in base]

    # Grid over the chip constants (chip cycles do not depend on the link speed: one run per model).
    grid = [(c, d) for c in COMPUTE_PACKET_GRID for d in TILE_DMA_PACKET_GRID]
    if args.quick:
        grid = []
    samples_at = {}
    for c, d in grid:
        constants = {"compute_packet_cycles": c, "tile_dma_packet_cycles": d}
        per_model = {}
        samples = []
        for ref in refs:
            if ref["model"] not in per_model:
                per_model[ref["model"]] = run_model(args.coralsim, args.corpus, ref["model"], "super", constants)["timing"]
            timing = dict(per_model[ref["model"]])
            # Link-dependent fields are recomputed from a run at the reference's speed only when they differ.
            if ref["usb"] != "super":
                timing_high = compiled[(ref["model"], "high")]
                for k in ("bulk_out_transfers", "bulk_in_transfers", "bulk_out_bytes", "bulk_in_bytes"):
                    timing[k] = timing_high[k]
            samples.append(Sample(ref, timing))
        samples_at[(c, d)] = samples
        print("grid compute_packet_cycles=%d tile_dma_packet_cycles=%d done" % (c, d), file=sys.stderr)

    def best_fit(exclude=None):
        best = None
        for point, samples in samples_at.items():
            train = [s for i, s in enumerate(samples) if i != exclude]
            link = fit_link(train)
            mae = summary(errors(train, link))[0]
            if best is None or mae < best[0]:
                best = (mae, point, link)
        return best

    fit = best_fit() if samples_at else None
    loo_errs = []
    if fit:
        for i in range(len(refs)):
            _, point, link = best_fit(exclude=i)
            s = samples_at[point][i]
            loo_errs.append((s.predict(link) - s.measured) / s.measured)

    estimates = {}
    for ref in refs:
        if ref["model"] not in estimates:
            estimates[ref["model"]] = estimated_cycles(args.coralsim, args.corpus, ref["model"])

    # ---- the report ------------------------------------------------------------------------------
    report_dir = os.path.dirname(os.path.abspath(args.report))
    os.makedirs(report_dir, exist_ok=True)
    svg_path = os.path.splitext(args.report)[0] + ".svg"
    svg_scatter([(s.measured * 1e3, s.compiled_total * 1e3, s.usb) for s in base], svg_path,
                "coralsim --timing vs published latency (compiled-in constants)")
    lines = ["# coralsim timing calibration", "",
             "Generated by `scripts/calibrate-timing.py` with `%s` over %d references (%d models) from `%s`."
             % (os.path.relpath(args.coralsim, ROOT), len(refs), len(estimates), os.path.relpath(args.references, ROOT)),
             "Predicted = one inference, the last of two iterations (parameters cached): USB transfer + compute + idle.",
             "", "![predicted vs measured](%s)" % os.path.basename(svg_path), ""]
    mae, worst, within = summary(base_errs)
    lines += ["## Compiled-in constants (what `coralsim run --timing` prints)", "",
              "Mean absolute error **%.1f %%**, worst %.1f %%, **%d of %d** within +-30 %%." % (mae * 100, worst * 100, within, len(base)), "",
              "| model | USB | measured ms | predicted ms | error | USB ms | compute ms | idle ms | chip cycles | compiler est. cycles | source |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for s, e in zip(base, base_errs):
        est = estimates.get(s.ref["model"])
        lines.append("| %s | %s | %.3f | %.3f | %+.1f %%%s | %.3f | %.3f | %.3f | %d | %s | %s |" % (
            os.path.basename(s.ref["model"]), s.usb, s.measured * 1e3, s.compiled_total * 1e3, e * 100,
            " **miss**" if abs(e) > 0.30 else "", s.compiled_usb * 1e3, s.compute * 1e3, s.compiled_idle * 1e3,
            s.cycles, est if est else "-", s.ref["source"]))
    lines.append("")
    if fit:
        fmae, point, link = fit
        fit_errs = errors(samples_at[point], link)
        _, fworst, fwithin = summary(fit_errs)
        lmae, lworst, lwithin = summary(loo_errs)
        lines += ["## Fit", "",
                  "Grid: compute_packet_cycles in %s, tile_dma_packet_cycles in %s; per grid point the link constants "
                  "per speed by least squares on the relative error (bandwidths fixed: %s)."
                  % (COMPUTE_PACKET_GRID, TILE_DMA_PACKET_GRID, ", ".join("%s %.0f MB/s" % (k, v / 1e6) for k, v in BANDWIDTH.items())), "",
                  "| constant | fitted value |", "|---|---|",
                  "| compute_packet_cycles | %d |" % point[0],
                  "| tile_dma_packet_cycles | %d |" % point[1]]
        for usb in ("super", "high"):
            lines.append("| %s out_transfer | %.2f us |" % (usb, link[usb][0] * 1e6))
            lines.append("| %s in_transfer | %.2f us |" % (usb, link[usb][1] * 1e6))
            lines.append("| %s host_turnaround | %.1f us |" % (usb, link[usb][2] * 1e6))
        lines += ["", "In-sample: mean absolute error **%.1f %%**, worst %.1f %%, %d of %d within +-30 %%." % (fmae * 100, fworst * 100, fwithin, len(fit_errs)),
                  "Leave-one-out (grid choice and link fit redone without the reference): mean absolute error **%.1f %%**, worst %.1f %%, %d of %d within +-30 %%." % (lmae * 100, lworst * 100, lwithin, len(loo_errs)),
                  "", "| model | USB | measured ms | fitted ms | error | leave-one-out error |", "|---|---|---|---|---|---|"]
        for s, e, l in zip(samples_at[point], fit_errs, loo_errs):
            lines.append("| %s | %s | %.3f | %.3f | %+.1f %% | %+.1f %% |" % (
                os.path.basename(s.ref["model"]), s.usb, s.measured * 1e3, s.predict(link) * 1e3, e * 100, l * 100))
        lines.append("")
    with open(args.report, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s and %s: compiled-in MAE %.1f %%, worst %.1f %%, %d/%d within 30 %%"
          % (args.report, svg_path, mae * 100, worst * 100, within, len(base)))
    if fit:
        print("fit: compute_packet_cycles=%d tile_dma_packet_cycles=%d %s; in-sample MAE %.1f %%, leave-one-out MAE %.1f %%"
              % (fit[1][0], fit[1][1], {k: tuple("%.2f us" % (x * 1e6) for x in v) for k, v in fit[2].items()},
                 fit[0] * 100, summary(loo_errs)[0] * 100))


if __name__ == "__main__":
    main()
