// The high-level datapath through the whole device, against data we did not write.
//
// For every golden model (../shared/golden) whose CPU twin is available: register COMPILED=TWIN
// (sim/hle_host/program_loader.h, with the manifest's documented tensor-name overrides), run one
// golden case's custom-op inputs through the unmodified host driver (Runner -> InProcessTransport
// -> Device) with `--mode hle` and again with `auto`, and compare every custom-op output the
// driver returns (device bytes, re-laid out and sign-flipped back by the driver) with the golden
// files: per tensor % exact and max |diff|, asserted within the manifest's tolerance where the
// kernels are exact (the bounds corpus_hle uses). auto must produce the same bytes.
//
// Ground truth (../shared/corpus/ground_truth, hardware-run test expectations): classification
// models run on cat.bmp (decoded and resized here, RESIZE_BILINEAR with half-pixel centres as
// libcoral does) must put the expected label in the top 3 above the expected score; PoseNet models
// with an expected-pose table get each confident expected keypoint checked against the device's
// heatmap and short-offset outputs (position within the table's 3 px after our own local decoding;
// see checkPoseKeypoints; the expected-pose table and, for the 16-stride test_data models, the
// reference CSVs the ground truth names). Prints one table row per model. Also: registration errors
// and `coralsim run --hle` (the rung per run in its JSON).
#include <unistd.h>  // getpid: temp names unique per process (worktrees and build trees run the same tests)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "driver/run/bmp_image.h"
#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "sim/cli/ground_truth.h"
#include "sim/device.h"
#include "sim/hle_host/program_loader.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"
#include "tests/support/json_reader.h"
#include "tests/support/run_command.h"

namespace fs = std::filesystem;
using coralsim::testing::JsonValue;

namespace {

// Measured 2026-11-21 on the shared golden set (table in models/hle/README.md): all 90 models run
// through the device and every custom-op output byte equals the TFLite 2.9 primary, as the kernels
// alone do (corpus_hle). So beyond the manifest bounds, any difference here is the device path's
// (byte order, tile layout, stream windows, scratch round trips, streaming input).
constexpr size_t kMinModelsThroughDevice = 90;
constexpr double kSmallModelExactFloorPercent = 99.9;  // as corpus_hle

std::string text(const JsonValue* v) { return v ? v->text : std::string(); }

JsonValue readJson(const fs::path& p) {
  const std::vector<uint8_t> bytes = coralsim::testing::readFile(p);
  return coralsim::testing::parseJson(std::string(bytes.begin(), bytes.end()));
}

std::optional<fs::path> twinPath(const JsonValue& manifest, const fs::path& golden) {
  const JsonValue* twin = manifest.find("twin");
  if (!twin) return std::nullopt;
  std::string path = text(twin->find("path"));
  if (text(twin->find("where")) == "corpus") {
    const auto corpus = coralsim::testing::corpusDir();
    if (!corpus) return std::nullopt;
    return *corpus / path;
  }
  if (path.starts_with("public/")) path = path.substr(7);
  return golden / path;
}

struct Comparison {
  size_t n = 0, exact = 0;
  int maxDiff = 0;
};

Comparison compare(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& ref, bool int8) {
  Comparison c;
  c.n = ref.size();
  if (ours.size() != ref.size()) {
    c.maxDiff = 255;
    return c;  // the driver returns exactly the tensor's bytes: any other size is wrong, nothing counts as exact
  }
  for (size_t i = 0; i < ref.size(); ++i) {
    const int a = int8 ? static_cast<int8_t>(ours[i]) : ours[i];
    const int b = int8 ? static_cast<int8_t>(ref[i]) : ref[i];
    if (a == b) ++c.exact;
    c.maxDiff = std::max(c.maxDiff, std::abs(a - b));
  }
  return c;
}

struct Row {
  std::string id;
  std::string status;  // "run", "skip: ...", "ERROR: ..."
  std::string toleranceClass;
  int bound = 0;
  std::string kase;
  size_t outputs = 0, n = 0, exact = 0, exactXnn = 0;
  int maxDiff = 0, maxDiffXnn = 0;
  std::string rungHle, rungAuto;
  bool autoSame = true;
  // The golden's derived twin is certain (twin.origin.confidence absent or "high"); below that (add_128_128's
  // inferred constant, docs/decoding-log.md "eltw12" §E) a rung other than hle may disagree with the twin.
  bool twinCertain = true;
  bool roundsPoolTies = false;  // goldenRoundsPoolTies: an lle output's exactness is reported, not asserted
  // auto ran (partly) on lle and differs from hle: its bytes against the golden's preferred reference.
  bool autoOnLle = false;
  size_t autoLleBytes = 0, autoLleExact = 0;
  int autoLleMaxDiff = 0;
  std::string groundTruth = "-";
  bool groundTruthFailed = false;
  double seconds = 0;
};

struct DeviceRun {
  coralsim::driver::RunResult result;
  std::string rungs;  // every run's rung, space separated
};

DeviceRun runOnDevice(const coralsim::driver::RunPlan& plan, const std::vector<std::vector<uint8_t>>& inputs,
                      const std::shared_ptr<const coralsim::hle::ProgramRegistry>& registry,
                      coralsim::models::ExecutionMode mode) {
  coralsim::sim::DeviceOptions options;
  options.chip.mode = mode;
  options.chip.hlePrograms = registry;
  coralsim::sim::Device device(options);
  // The hle rung computes the whole model when the first output window opens: allow for it.
  coralsim::driver::InProcessTransport transport(device, std::chrono::milliseconds(600'000));
  coralsim::driver::RunnerOptions runnerOptions;
  runnerOptions.pollTimeout = std::chrono::milliseconds(600'000);
  coralsim::driver::Runner runner(transport, runnerOptions);
  runner.open();
  DeviceRun run;
  run.result = runner.run(plan, inputs);
  runner.close();
  for (const auto& r : run.result.runs) run.rungs += (run.rungs.empty() ? "" : " ") + r.rung.value_or("?");
  return run;
}

// ---- ground truth: classification -----------------------------------------------------------

using coralsim::cli::ClassExpectation;

// The expectation of ground-truth entry `e` for the compiled model `compiledPath`, parsed from its
// "expect" text by the parser `coralsim demo` uses (sim/cli/ground_truth.h).
std::optional<ClassExpectation> classExpectation(const JsonValue& e, const std::string& compiledPath) {
  return coralsim::cli::parseClassExpectation(text(e.find("expect")), fs::path(compiledPath).filename().string());
}

// ---- ground truth: PoseNet keypoints ---------------------------------------------------------

// Checks each expected keypoint with score >= 0.5 against the device's outputs: among the heatmap
// cells next to the expected position (3 x 3), the one with the highest keypoint heatmap value,
// refined by its short offset (y offsets first, then x, as the PoseNet decoder reads them). This is
// only the local part of PoseNet's multi-pose decoding (output stride 16; the real decoder also
// follows the mid-range displacements from a root keypoint), so it is held to a looser bound than
// the table's 3 px: every keypoint within kPoseLoosePx (a neighbouring cell is 16 px away, so a
// wrong body part or person fails), and the count within 3 px is reported.
constexpr double kPoseLoosePx = 10.0;

struct Keypoint {
  double y = 0, x = 0, score = 0;
};
using Poses = std::vector<std::vector<Keypoint>>;  // pose, keypoint id

Poses posesFromJson(const JsonValue& expectation) {
  Poses poses;
  for (const JsonValue& pose : expectation.find("expected_poses_yx_score")->items) {
    poses.emplace_back();
    for (const JsonValue& k : pose.items) poses.back().push_back({k.items[0].asDouble(), k.items[1].asDouble(), k.items[2].asDouble()});
  }
  return poses;
}

// The reference CSVs next to the PoseNet test models: pose_id, pose_score, keypoint_id,
// keypoint_score, keypoint_x, keypoint_y, positions normalised to the input image.
Poses posesFromCsv(const fs::path& path, int width, int height) {
  const std::vector<uint8_t> bytes = coralsim::testing::readFile(path);
  const std::string textBytes(bytes.begin(), bytes.end());
  Poses poses;
  size_t at = textBytes.find('\n');  // skip the header
  while (at != std::string::npos && at + 1 < textBytes.size()) {
    const size_t end = textBytes.find('\n', at + 1);
    const std::string line = textBytes.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    at = end;
    double f[6];
    if (std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf,%lf,%lf", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5]) != 6) continue;
    const auto pose = static_cast<size_t>(f[0]);
    const auto id = static_cast<size_t>(f[2]);
    if (poses.size() <= pose) poses.resize(pose + 1);
    if (poses[pose].size() <= id) poses[pose].resize(id + 1);
    poses[pose][id] = {f[5] * height, f[4] * width, f[3]};
  }
  return poses;
}

std::string checkPoseKeypoints(const Poses& expected, const std::vector<float>& heatmaps,
                               const std::vector<float>& offsets, int cellsY, int cellsX, int keypoints,
                               size_t& checked, size_t& within, size_t& withinLoose) {
  constexpr int kStride = 16;
  constexpr double kTolerancePx = 3.0;  // the expected-pose table's own tolerance
  const auto heat = [&](int y, int x, int k) { return heatmaps[(static_cast<size_t>(y) * cellsX + x) * keypoints + k]; };
  const auto offset = [&](int y, int x, int c) { return offsets[(static_cast<size_t>(y) * cellsX + x) * keypoints * 2 + c]; };
  std::string worst;
  double worstDistance = 0;
  for (const std::vector<Keypoint>& pose : expected) {
    for (size_t k = 0; k < pose.size() && static_cast<int>(k) < keypoints; ++k) {
      const double ey = pose[k].y, ex = pose[k].x;
      if (pose[k].score < 0.5) continue;
      const int cy = static_cast<int>(std::lround(ey / kStride)), cx = static_cast<int>(std::lround(ex / kStride));
      int by = -1, bx = -1;
      for (int y = std::max(0, cy - 1); y <= std::min(cellsY - 1, cy + 1); ++y) {
        for (int x = std::max(0, cx - 1); x <= std::min(cellsX - 1, cx + 1); ++x) {
          if (by < 0 || heat(y, x, static_cast<int>(k)) > heat(by, bx, static_cast<int>(k))) {
            by = y;
            bx = x;
          }
        }
      }
      ++checked;
      if (by < 0) continue;
      const double py = by * kStride + offset(by, bx, static_cast<int>(k));
      const double px = bx * kStride + offset(by, bx, static_cast<int>(k) + keypoints);
      const double d = std::hypot(py - ey, px - ex);
      if (d <= kTolerancePx) ++within;
      if (d <= kPoseLoosePx) ++withinLoose;
      if (d > worstDistance) {
        worstDistance = d;
        char buf[160];
        std::snprintf(buf, sizeof buf, "keypoint %zu expected (%.0f, %.0f), found (%.1f, %.1f)", k, ey, ex, py, px);
        worst = buf;
      }
    }
  }
  return worst;
}

std::vector<float> dequantize(const std::vector<uint8_t>& bytes, bool int8, double scale, double zeroPoint) {
  std::vector<float> v(bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) {
    const double q = int8 ? static_cast<int8_t>(bytes[i]) : bytes[i];
    v[i] = static_cast<float>(scale * (q - zeroPoint));
  }
  return v;
}

// ---- one model ---------------------------------------------------------------------------------

class HleDevice {
 public:
  HleDevice(fs::path golden, fs::path corpus) : golden_(std::move(golden)), corpus_(std::move(corpus)) {
    groundTruth_ = readJson(corpus_ / "ground_truth" / "GROUND_TRUTH_public.json");
    poses_ = readJson(corpus_ / "ground_truth" / "edgetpu_posenet_expected_public.json");
  }

  Row run(const fs::path& dir) {
    Row r;
    r.id = dir.filename().string();
    const auto start = std::chrono::steady_clock::now();
    const JsonValue manifest = readJson(dir / "manifest.json");
    if (const JsonValue* tol = manifest.find("tolerance")) {
      r.toleranceClass = text(tol->find("class"));
      if (const JsonValue* m = tol->find("max_abs_lsb")) r.bound = static_cast<int>(m->asDouble());
    }
    if (const JsonValue* twinEntry = manifest.find("twin")) {
      if (const JsonValue* origin = twinEntry->find("origin")) {
        const std::string confidence = text(origin->find("confidence"));
        r.twinCertain = confidence.empty() || confidence.starts_with("high");
      }
    }
    r.roundsPoolTies = coralsim::testing::goldenRoundsPoolTies(manifest);
    const auto twin = twinPath(manifest, golden_);
    const std::string compiledRel = text(manifest.find("compiled")->find("path"));
    const fs::path compiled = corpus_ / compiledRel;
    if (!twin || !fs::exists(*twin) || !fs::exists(compiled)) {
      r.status = "skip: compiled model or twin not found";
      return r;
    }
    coralsim::sim::HleProgramSpec spec{compiled, *twin, {}, {}};
    for (const JsonValue& e : manifest.find("tensor_map")->items) {
      if (text(e.find("match")) == "override") spec.overrides[text(e.find("name"))] = text(e.find("twin_name"));
    }
    // The manifest's documented quantisation patches of the twin (older PoseNet compiles):
    // "quant patch: tensor N 'NAME' (s, zp) -> (s2, zp2) to match compiled tensor 'X'".
    if (const JsonValue* runnable = manifest.find("runnable_model")) {
      if (const JsonValue* derivation = runnable->find("derivation")) {
        // The printed scale is rounded: take the exact one from the compiled tensor it names.
        static const std::regex patch(
            R"(^quant patch: tensor \d+ '([^']*)' \([-0-9.e]+, -?\d+\) -> \(([-0-9.e]+), (-?\d+)\) to match compiled tensor '([^']*)')");
        for (const JsonValue& step : derivation->items) {
          std::smatch m;
          if (!std::regex_search(step.text, m, patch)) continue;
          coralsim::sim::QuantPatch q{std::stof(m[2].str()), std::stoll(m[3].str())};
          for (const JsonValue& op : manifest.find("compiled")->find("edgetpu_custom_ops")->items) {
            for (const JsonValue& t : op.find("outputs")->items) {
              if (text(t.find("name")) == m[4].str()) q.scale = static_cast<float>(t.find("scale")->asDouble());
            }
          }
          spec.quantPatches[m[1].str()] = q;
        }
      }
    }
    std::shared_ptr<const coralsim::hle::ProgramRegistry> registry;
    try {
      registry = coralsim::sim::buildHleRegistry({spec});
    } catch (const std::exception& e) {
      r.status = std::string("ERROR: registering: ") + e.what();
      return r;
    }
    const coralsim::driver::ModelFile model = coralsim::driver::loadModelFile(compiled);
    const coralsim::driver::RunPlan plan = coralsim::driver::planRun(model);

    // The golden case: a real image where there is one, else the first.
    const JsonValue* kase = &manifest.find("cases")->items.front();
    for (const JsonValue& c : manifest.find("cases")->items) {
      if (text(c.find("case")).starts_with("img_")) {
        kase = &c;
        break;
      }
    }
    r.kase = text(kase->find("case"));
    std::vector<std::vector<uint8_t>> inputs;
    for (const coralsim::driver::TensorSpec& in : plan.inputs) {
      const JsonValue* file = nullptr;
      for (const JsonValue& t : kase->find("tpu_inputs")->items) {
        if (text(t.find("compiled_name")) == in.name) file = t.find("file");
      }
      if (!file) {
        r.status = "ERROR: no golden tpu_input for device input '" + in.name + "'";
        return r;
      }
      inputs.push_back(coralsim::testing::readFile(dir / file->text));
    }

    DeviceRun hle = runOnDevice(plan, inputs, registry, coralsim::models::ExecutionMode::kHle);
    r.rungHle = hle.rungs;
    if (!hle.result.ok()) {
      const std::string& e = *hle.result.error;
      r.status = (e.find("is not supported by the high-level datapath") != std::string::npos ? "skip: " : "ERROR: ") + e;
      return r;
    }
    for (const coralsim::driver::OutputTensor& out : hle.result.outputs) {
      const JsonValue* golden = nullptr;
      for (const JsonValue& t : kase->find("tpu_outputs")->items) {
        if (text(t.find("compiled_name")) == out.name) golden = &t;
      }
      if (!golden) continue;  // an output of the package that the custom op does not expose
      const bool int8 = text(golden->find("dtype")) == "int8";
      if (const char* dump = std::getenv("CORALSIM_HLE_DEVICE_DUMP")) {  // debugging: the bytes the driver returned
        std::FILE* f = std::fopen((std::string(dump) + "/" + r.id + "." + std::to_string(r.outputs) + ".bin").c_str(), "wb");
        if (f) {
          std::fwrite(out.bytes.data(), 1, out.bytes.size(), f);
          std::fclose(f);
        }
      }
      const Comparison p = compare(out.bytes, coralsim::testing::readFile(dir / text(golden->find("file"))), int8);
      const Comparison x = compare(out.bytes, coralsim::testing::readPreferredGoldenOutput(dir, *golden), int8);
      ++r.outputs;
      r.n += p.n;
      r.exact += p.exact;
      r.exactXnn += x.exact;
      r.maxDiff = std::max(r.maxDiff, p.maxDiff);
      r.maxDiffXnn = std::max(r.maxDiffXnn, x.maxDiff);
    }

    // auto: the ladder must land on the same numbers (lle drops out where it cannot compute).
    DeviceRun autoRun = runOnDevice(plan, inputs, registry, coralsim::models::ExecutionMode::kAuto);
    r.rungAuto = autoRun.rungs;
    r.autoSame = autoRun.result.ok() && autoRun.result.outputs.size() == hle.result.outputs.size();
    for (size_t i = 0; r.autoSame && i < hle.result.outputs.size(); ++i) {
      r.autoSame = autoRun.result.outputs[i].bytes == hle.result.outputs[i].bytes;
    }
    // Where auto computed on lle the chip's float requantisation can differ from the twin's fixed-point
    // by one LSB: the numbers are then held against the golden's preferred reference (the fp32 variant,
    // which matched the device wherever there is hardware evidence; golden/README), not against hle.
    if (!r.autoSame && autoRun.result.ok() && r.rungAuto.find("lle") != std::string::npos) {
      r.autoOnLle = true;
      for (const coralsim::driver::OutputTensor& out : autoRun.result.outputs) {
        for (const JsonValue& t : kase->find("tpu_outputs")->items) {
          if (text(t.find("compiled_name")) != out.name) continue;
          const bool int8 = text(t.find("dtype")) == "int8";
          const Comparison c = compare(out.bytes, coralsim::testing::readPreferredGoldenOutput(dir, t), int8);
          r.autoLleBytes += c.n;
          r.autoLleExact += c.exact;
          r.autoLleMaxDiff = std::max(r.autoLleMaxDiff, c.maxDiff);
        }
      }
    }

    groundTruth(r, compiledRel, plan, registry, *kase, hle.result);
    r.status = "run";
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

 private:
  void groundTruth(Row& r, const std::string& compiledRel, const coralsim::driver::RunPlan& plan,
                   const std::shared_ptr<const coralsim::hle::ProgramRegistry>& registry, const JsonValue& kase,
                   const coralsim::driver::RunResult& result) {
    for (const JsonValue& e : groundTruth_.items) {
      const std::string kind = text(e.find("kind"));
      bool listed = false;
      for (const JsonValue& m : e.find("models_present")->items) listed = listed || m.text == compiledRel;
      if (!listed) continue;
      if (kind == "classification") classify(r, e, compiledRel, plan, registry, kase);
      if (kind == "pose" && plan.inputs.size() == 1 && plan.inputs[0].shape.size() == 4) {
        for (const JsonValue& in : e.find("inputs")->items) {
          if (!in.text.ends_with(".csv")) continue;
          const auto& shape = plan.inputs[0].shape;
          pose(r, posesFromCsv(corpus_ / in.text, shape[2], shape[1]), kase, result);
        }
      }
    }
    // PoseNet tables name models by file name only.
    const std::string file = fs::path(compiledRel).filename().string();
    for (const JsonValue& p : poses_.items) {
      bool listed = false;
      for (const JsonValue& m : p.find("models")->items) listed = listed || m.text == file;
      if (listed) pose(r, posesFromJson(p), kase, result);
    }
  }

  void classify(Row& r, const JsonValue& e, const std::string& compiledRel, const coralsim::driver::RunPlan& plan,
                const std::shared_ptr<const coralsim::hle::ProgramRegistry>& registry, const JsonValue& kase) {
    const auto expectation = classExpectation(e, compiledRel);
    if (!expectation || plan.inputs.size() != 1 || plan.inputs[0].shape.size() != 4) return;
    const auto image = coralsim::driver::readBmp(corpus_ / text(&e.find("inputs")->items.front()));
    const auto& shape = plan.inputs[0].shape;
    const std::vector<std::vector<uint8_t>> input{coralsim::driver::resizeBilinear(image, shape[2], shape[1], true)};
    DeviceRun run = runOnDevice(plan, input, registry, coralsim::models::ExecutionMode::kHle);
    if (!run.result.ok() || run.result.outputs.empty()) {
      r.groundTruth = "FAIL (run failed)";
      r.groundTruthFailed = true;
      return;
    }
    const JsonValue& out = kase.find("tpu_outputs")->items.front();
    const double scale = out.find("scale")->asDouble(), zp = out.find("zero_point")->asDouble();
    const auto& bytes = run.result.outputs.front().bytes;
    const size_t classes = bytes.size();
    std::vector<size_t> order(classes);
    for (size_t i = 0; i < classes; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
    bool found = false;
    double score = 0;
    for (size_t i = 0; i < 3 && i < order.size(); ++i) {
      if (static_cast<int>(order[i]) == expectation->label) {
        found = true;
        score = scale * (bytes[order[i]] - zp);
      }
    }
    const bool pass = found && score > expectation->minScore;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s top3 %d (want %d, %.3f > %.2f)", pass ? "PASS" : "FAIL", static_cast<int>(order[0]),
                  expectation->label, score, expectation->minScore);
    r.groundTruth = buf;
    r.groundTruthFailed = r.groundTruthFailed || !pass;
  }

  void pose(Row& r, const Poses& expectation, const JsonValue& kase, const coralsim::driver::RunResult& result) {
    // The heatmaps are [1, H, W, 17], the short offsets [1, H, W, 34] (their order and names
    // differ between compiles).
    constexpr int kKeypoints = 17;
    const auto& outs = kase.find("tpu_outputs")->items;
    const auto byDepth = [&](int depth) -> const JsonValue* {
      for (const JsonValue& t : outs) {
        const auto& shape = t.find("shape")->items;
        if (shape.size() == 4 && static_cast<int>(shape[3].asDouble()) == depth) return &t;
      }
      return nullptr;
    };
    const auto find = [&](const JsonValue* t) -> const coralsim::driver::OutputTensor* {
      for (const auto& o : result.outputs) {
        if (t && o.name == text(t->find("compiled_name"))) return &o;
      }
      return nullptr;
    };
    const JsonValue* hp = byDepth(kKeypoints);
    const JsonValue* sp = byDepth(2 * kKeypoints);
    const auto* heat = find(hp);
    const auto* off = find(sp);
    if (!heat || !off) return;
    const JsonValue& h = *hp;
    const JsonValue& s = *sp;
    const auto& shape = h.find("shape")->items;
    const int cellsY = static_cast<int>(shape[1].asDouble()), cellsX = static_cast<int>(shape[2].asDouble());
    const int keypoints = static_cast<int>(shape[3].asDouble());
    const auto deq = [&](const JsonValue& t, const coralsim::driver::OutputTensor& o) {
      return dequantize(o.bytes,
                        text(t.find("dtype")) == "int8", t.find("scale")->asDouble(), t.find("zero_point")->asDouble());
    };
    size_t checked = 0, within = 0, withinLoose = 0;
    const std::string worst =
        checkPoseKeypoints(expectation, deq(h, *heat), deq(s, *off), cellsY, cellsX, keypoints, checked, within, withinLoose);
    const bool pass = checked > 0 && withinLoose == checked;
    char buf[240];
    std::snprintf(buf, sizeof buf, "%s %zu/%zu keypoints within 3 px, %zu/%zu within %.0f px; worst: %s", pass ? "PASS" : "FAIL",
                  within, checked, withinLoose, checked, kPoseLoosePx, worst.c_str());
    r.groundTruth = buf;
    r.groundTruthFailed = r.groundTruthFailed || !pass;
  }

  fs::path golden_, corpus_;
  JsonValue groundTruth_, poses_;
};

TEST(HleDevice, GoldenModelsThroughTheDevice) {
  const auto golden = coralsim::testing::goldenDir();
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN; default ../shared/golden). ***\n";
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  std::vector<fs::path> dirs;
  // CORALSIM_HLE_DEVICE_FILTER=<substring> restricts the run (debugging; the floors then do not apply).
  const char* filter = std::getenv("CORALSIM_HLE_DEVICE_FILTER");
  for (const auto& e : fs::directory_iterator(*golden)) {
    if (filter && e.path().filename().string().find(filter) == std::string::npos) continue;
    if (e.is_directory() && fs::exists(e.path() / "manifest.json")) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  ASSERT_GT(dirs.size(), 0U);

  HleDevice harness(*golden, *coralsim::testing::corpusDir());
  std::vector<Row> rows;
  for (const auto& d : dirs) {
    std::printf("  %s\n", d.filename().string().c_str());
    std::fflush(stdout);
    rows.push_back(harness.run(d));
  }

  std::printf("\n%-62s %-8s %4s %-10s %3s %9s %5s %9s %5s %-8s %-4s %s\n", "model", "class", "±lsb", "case", "out",
              "exact%", "max|d|", "xnnpack%", "max|d|", "rungs", "auto", "ground truth");
  size_t ran = 0;
  for (const Row& r : rows) {
    if (r.status != "run") {
      std::printf("%-62.62s %s\n", r.id.c_str(), r.status.c_str());
      continue;
    }
    ++ran;
    std::printf("%-62.62s %-8s %4d %-10.10s %3zu %8.3f%% %5d %8.3f%% %5d %-8.8s %-4s %s\n", r.id.c_str(),
                r.toleranceClass.c_str(), r.bound, r.kase.c_str(), r.outputs, r.n ? 100.0 * r.exact / r.n : 0.0, r.maxDiff,
                r.n ? 100.0 * r.exactXnn / r.n : 0.0, r.maxDiffXnn, r.rungHle.c_str(), r.autoSame ? "same" : "DIFF",
                r.groundTruth.c_str());
  }
  size_t tensors = 0, bytes = 0, exactBytes = 0;
  for (const Row& r : rows) {
    tensors += r.outputs;
    bytes += r.n;
    exactBytes += r.exact;
  }
  std::printf("%zu of %zu golden models ran through the device on the hle rung; %zu custom-op outputs, %zu of %zu bytes "
              "equal to the golden primary\n",
              ran, rows.size(), tensors, exactBytes, bytes);

  for (const Row& r : rows) {
    SCOPED_TRACE(r.id);
    EXPECT_FALSE(r.status.starts_with("ERROR")) << r.status;
    if (r.status != "run") continue;
    EXPECT_GT(r.outputs, 0U) << "no custom-op output was compared";
    if (r.autoOnLle) {
      std::printf("%-62.62s auto (rungs: %s) differs from hle; against the golden's preferred reference %zu / %zu bytes "
                  "exact, max |d| %d (tolerance %d)\n",
                  r.id.c_str(), r.rungAuto.c_str(), r.autoLleExact, r.autoLleBytes, r.autoLleMaxDiff, r.bound);
      EXPECT_GT(r.autoLleBytes, 0U) << "auto on lle: no output compared with the golden";
      EXPECT_LE(r.autoLleMaxDiff, r.bound) << "auto on lle is outside the golden's tolerance (rungs: " << r.rungAuto << ")";
      if (r.twinCertain && !r.roundsPoolTies) {
        EXPECT_EQ(r.autoLleExact, r.autoLleBytes) << "auto on lle differs from hle and from the golden's preferred reference";
      }
    } else if (r.twinCertain) {
      EXPECT_TRUE(r.autoSame) << "auto mode returned different bytes (rungs: " << r.rungAuto << ")";
    } else if (!r.autoSame) {
      std::printf("%-62.62s auto (rungs: %s) differs from hle; the twin is below high confidence: reported, not asserted\n",
                  r.id.c_str(), r.rungAuto.c_str());
    }
    EXPECT_EQ(r.rungHle.find_first_not_of("hle "), std::string::npos) << "hle mode runs used rungs " << r.rungHle;
    EXPECT_FALSE(r.groundTruthFailed) << r.groundTruth;
    EXPECT_EQ(r.exact, r.n) << "device path differs from the golden primary (max |diff| " << r.maxDiff << ")";
    const double exactPercent = 100.0 * r.exact / std::max<size_t>(r.n, 1);
    if (r.toleranceClass == "exact") {
      EXPECT_EQ(r.exact, r.n);
    } else if (r.bound <= 2) {  // one to a few requantising layers: the manifest's own bound
      EXPECT_LE(r.maxDiff, r.bound);
      EXPECT_GE(exactPercent, kSmallModelExactFloorPercent);
    }
  }
  if (!filter) {
    EXPECT_GE(ran, kMinModelsThroughDevice);
  }
}

}  // namespace

// ---- registration errors and the CLI ------------------------------------------------------------

namespace {

const std::string kCoralsim = std::string(CORALSIM_BINARY_DIR) + "/coralsim";

TEST(HleRegistration, ATwinWithoutTheCustomOpTensorIsRefusedNamingTheTensorAndBothFiles) {
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  const fs::path compiled = *corpus / "google-coral+test_data/mobilenet_v1_0.25_128_quant_edgetpu.tflite";
  const fs::path wrongTwin = *corpus / "iwatake2222+EdgeTPU_Analysis/InOut/model_padding/model_padding_2x2x3.tflite";
  try {
    (void)coralsim::sim::registerHleProgram(compiled, wrongTwin);
    FAIL() << "expected HleProgramError";
  } catch (const coralsim::sim::HleProgramError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(compiled.string()), std::string::npos) << what;
    EXPECT_NE(what.find(wrongTwin.string()), std::string::npos) << what;
    EXPECT_NE(what.find("tensor 'input'"), std::string::npos) << what;
  }
  // A compiled model is not a CPU twin.
  EXPECT_THROW((void)coralsim::sim::registerHleProgram(compiled, compiled), coralsim::sim::HleProgramError);
  EXPECT_THROW((void)coralsim::sim::parseHleProgramSpec("only_one_file.tflite"), coralsim::sim::HleProgramError);
}

// Older PoseNet compiles name their outputs quant_heatmaps, quant_short_offsets, quant_mid_offsets;
// the twin keeps the graph's names. Heatmaps and short offsets have a unique twin tensor of the same
// shape, type and quantisation; mid offsets were quantised differently by the compiler, so only an
// explicit binding pairs them. The expected pairs are the golden manifest's tensor_map, which was
// made independently (by the golden tools, from the graphs).
TEST(HleRegistration, PoseNetOutputsNamedOtherwiseBindByShapeTypeQuantAsTheManifestDocuments) {
  const auto corpus = coralsim::testing::corpusDir();
  const auto golden = coralsim::testing::goldenDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  if (!golden) GTEST_SKIP() << "\n*** SKIPPED: golden data not found (set CORALSIM_GOLDEN) ***\n";
  const fs::path dir = *golden / "google-coral+edgetpu__posenet_mobilenet_v1_075_353_481_quant_decoder";
  const JsonValue manifest = readJson(dir / "manifest.json");
  const fs::path compiled = *corpus / text(manifest.find("compiled")->find("path"));
  const auto twin = twinPath(manifest, *golden);
  ASSERT_TRUE(twin && fs::exists(*twin) && fs::exists(compiled));

  const coralsim::hle::Program program =
      coralsim::sim::registerHleProgram(compiled, *twin, {{"quant_mid_offsets", "concat"}});
  std::map<std::string, std::pair<std::string, std::string>> bound;  // tensor -> (twin tensor, method)
  for (const auto& exe : program.executables) {
    for (const auto* layers : {&exe.inputs, &exe.outputs}) {
      for (const auto& b : *layers) bound[b.name] = {b.twinName, b.bindingMethod};
    }
  }
  size_t checked = 0;
  for (const JsonValue& e : manifest.find("tensor_map")->items) {
    const std::string name = text(e.find("name"));
    ASSERT_TRUE(bound.contains(name)) << name;
    EXPECT_EQ(bound[name].first, text(e.find("twin_name"))) << name;
    const bool renamed = name != text(e.find("twin_name"));
    const bool sameQuant = e.find("quant_equal")->boolean;
    EXPECT_EQ(bound[name].second, !renamed ? "name" : sameQuant ? "shape-type-quant" : "override") << name;
    ++checked;
  }
  EXPECT_EQ(checked, 4U);
  EXPECT_EQ(bound["quant_heatmaps"].second, "shape-type-quant");

  // Without the explicit binding: an error naming the tensor and the candidate of its shape and type.
  try {
    (void)coralsim::sim::registerHleProgram(compiled, *twin);
    FAIL() << "expected HleProgramError";
  } catch (const coralsim::sim::HleProgramError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'quant_mid_offsets'"), std::string::npos) << what;
    EXPECT_NE(what.find("'concat'"), std::string::npos) << what;
  }

  // The CLI: --hle auto finds the twin beside the compiled model, --hle-bind is the override, and
  // the JSON says how each tensor was bound.
  const auto printed = coralsim::testing::runCommand({kCoralsim, "run", compiled.string(), "--hle", "auto",
                                                      "--hle-bind", "quant_mid_offsets=concat", "--random", "1", "--json"});
  ASSERT_TRUE(printed.has_value());
  const JsonValue json = coralsim::testing::parseJson(*printed);
  ASSERT_NE(json.find("hle_twins"), nullptr) << *printed;
  const JsonValue& registered = json.find("hle_twins")->items.at(0);
  EXPECT_EQ(text(registered.find("registered_by")), "--hle auto");
  EXPECT_EQ(fs::path(text(registered.find("twin"))), compiled.parent_path() / twin->filename());
  std::map<std::string, std::string> by;
  for (const JsonValue& b : registered.find("bindings")->items) by[text(b.find("tensor"))] = text(b.find("by"));
  EXPECT_EQ(by["sub_2"], "name");
  EXPECT_EQ(by["quant_heatmaps"], "shape-type-quant");
  EXPECT_EQ(by["quant_short_offsets"], "shape-type-quant");
  EXPECT_EQ(by["quant_mid_offsets"], "override");
  // The twin computes the execution run; since docs/decoding-log.md "recv11" the lle rung caches the
  // parameters of this older compile (bit 61 clear, one-beat pops), which moves no output.
  for (const JsonValue& run : json.find("runs")->items) {
    EXPECT_EQ(text(run.find("rung")), text(run.find("type")) == "PARAMETER_CACHING" ? "lle" : "hle") << text(run.find("type"));
  }
  // A binding that names no custom-op tensor is a usage error.
  EXPECT_TRUE(coralsim::testing::runCommand({kCoralsim, "run", compiled.string(), "--hle", "auto", "--hle-bind",
                                             "no_such_tensor=concat"}, 2).has_value());
}

TEST(HleCli, RunNamesTheHleRungPerRunAndReturnsTheTwinsNumbers) {
  const auto corpus = coralsim::testing::corpusDir();
  const auto golden = coralsim::testing::goldenDir();
  CORALSIM_REQUIRE_CORPUS(corpus);
  if (!golden) GTEST_SKIP() << "golden data not found";
  const fs::path dir = *corpus / "google-coral+test_data";
  const fs::path compiled = dir / "mobilenet_v1_0.25_128_quant_edgetpu.tflite";
  const fs::path g = *golden / "google-coral+test_data__mobilenet_v1_0.25_128_quant";
  const fs::path out = fs::temp_directory_path() / ("coralsim_hle_cli_test_" + std::to_string(::getpid()) + ".bin");
  const auto printed = coralsim::testing::runCommand(
      {kCoralsim, "run", compiled.string(), "--mode", "hle", "--hle",
       compiled.string() + "=" + (dir / "mobilenet_v1_0.25_128_quant.tflite").string(), "--input",
       (g / "img_cat.in0.bin").string(), "--output", out.string(), "--json"});
  ASSERT_TRUE(printed.has_value());
  const JsonValue json = coralsim::testing::parseJson(*printed);
  EXPECT_EQ(text(json.find("mode")), "hle");
  size_t runs = 0;
  for (const JsonValue& run : json.find("runs")->items) {
    EXPECT_EQ(text(run.find("rung")), "hle");
    ++runs;
  }
  EXPECT_EQ(runs, 2U);  // PARAMETER_CACHING, EXECUTION_ONLY
  EXPECT_TRUE(json.find("outputs")->items.front().find("computed")->boolean);
  const std::vector<uint8_t> ours = coralsim::testing::readFile(out);
  const std::vector<uint8_t> expected = coralsim::testing::readFile(g / "img_cat.tpu_out0.bin");
  // Exactly the tensor's 1001 bytes, as libedgetpu returns them (the device writes 1008).
  EXPECT_EQ(ours, expected);
  EXPECT_EQ(json.find("outputs")->items.front().find("size")->asDouble(), static_cast<double>(expected.size()));
  fs::remove(out);
  // A malformed --hle is a usage error (exit status 2).
  EXPECT_TRUE(coralsim::testing::runCommand({kCoralsim, "run", compiled.string(), "--hle", "x.tflite"}, 2).has_value());
}

}  // namespace
