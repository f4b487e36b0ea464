// `coralsim check-layers` (sim/layer_check/layer_check.h) over the corpus: every compiled model
// with its CPU twin beside it (X.tflite beside X_edgetpu.tflite) is checked layer by layer. The
// oracle is the twin run on the hle kernels (bit-exact against TFLite 2.9 on the golden models),
// not the lle code.
//
// 1. A model the lle rung runs fully: no layer differs with the twin's rounding (the checker's
//    default), every MAC layer with packets is compared whole; with the rung's shipped rounding
//    (fp32 half-even) none differs by more than 1 LSB.
// 2. A model where lle stops: the stop names opcode and PC, no layer differs, and every layer with
//    packets past the stop is "not reached".
// 3. A wrong decode is caught: one weight byte of the parameter stream flipped (the first 64-lane
//    block's weight for lane c, input byte 0: docs/isa.md §5.1, models/lle/mac_array.h) must be
//    reported as the first difference, at channel c of tile-slice 0, with both values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "sim/hle_host/twin_discovery.h"
#include "sim/layer_check/layer_check.h"
#include "tests/corpus/parameter_flip.h"
#include "tests/support/corpus.h"
#include "tests/support/golden_output.h"

namespace coralsim::sim::layer_check_corpus_test {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kSeed = 20240605;
// Measured (2026-11, "layercheck"): 15 compiled models with a twin beside them run fully on lle and
// have a layer to compare — the two LibrEdgeTPU Dense templates, the 7 iwatake stride and 4
// padding_stride programs (one 4-lane position), gabor 64² / 128² 7k (8-lane positions over 16 tiles);
// the padding sweep runs fully too but its PAD has no packet of its own. Of the fully compared layers,
// the two gabor convolutions write several positions a tile (lane_layout.h rule 2). Floors for the
// Dense-only fixtures below stay 2.
constexpr size_t kMinFullyChecked = 15;
// Layers of fully running programs whose several-position packets the layer map cannot place: an intermediate layer has no
// OutputLayout (lane_layout.h rule 2: "its positions stay unplaced, said, not guessed"). Since "convx" one such program runs
// fully -- model_conv, its ten 7 x 7 layers (docs/decoding-log.md "convx" §B compares them with a throwaway dump; a per-layer
// placement is its Next (1)). A bound, so that any other unplaced layer fails.
// Since "place2" the tile grid (tile_grid_placement.h, rule 3) places eight of them (conv2d_2 ... conv2d_9: their defined
// positions); conv2d and conv2d_1 stay unplaced (their packets write 12 tiles / one tile twice).
constexpr size_t kMaxNotPlacedLayers = 2;
// Measured ("place2"): layers of intermediate tensors placed by the tile grid — model_conv's eight (5,036 defined
// positions) and MobileNet v2 wo_fc 224²'s Conv1 (12,544) —, and positions of output layers placed by both rules: the
// eight RingCanary convolutions and gabor 64² / 128² (35,936 positions, all where the OutputLayout puts them).
constexpr size_t kMinGridLayers = 9;
constexpr size_t kMinGridPositions = 17'580;
constexpr size_t kMinGridAgreeingWithLayout = 35'936;
constexpr size_t kMinSeveralPositionLayers = 2;
constexpr size_t kMinDenseChecked = 2;
constexpr size_t kMinStopped = 1;

struct Checked {
  fs::path path;
  LayerCheckReport report;
};

// Every compiled model of the corpus with its twin beside it, checked with the twin's rounding within 1 LSB:
// presumably because the emulated fixed point starts from the packet's float32 effective scale (models/lle/requantizer.h), the
// twin's multiplier from its double scales, so an accumulator whose product lies near .5 may round apart
// (RingCanary 12x176x32's per-channel convolution: 18 of 67,584 elements with this seed, each by 1; its fp32 output equals
// the device's, docs/decoding-log.md "w12c" §B). How many differ by 1 is printed.
const std::vector<Checked>& checkedCorpus() {
  static const std::vector<Checked> checked = [] {
    std::vector<Checked> out;
    for (const fs::path& path : testing::corpusFiles("_edgetpu.tflite")) {
      if (!findTwinBeside(path).found) continue;
      const driver::ModelFile model = driver::loadModelFile(path);
      LayerCheckOptions options;
      options.seed = kSeed;
      options.tolerance = 1;
      try {
        out.push_back({path, checkLayers(model, path, options)});
      } catch (const std::exception& e) {
        // A twin the hle kernels cannot run, or a mapping run that fails: the checker says so;
        // what it must get right is measured on the models it can check.
        std::printf("  not checked: %s: %s\n", path.filename().string().c_str(), e.what());
      }
    }
    return out;
  }();
  return checked;
}

// The compiled models whose golden references disagree (tests/support/golden_output.h goldenReferenceSpread): none when the
// golden set is absent, and then such a program is judged like any other (and fails where the twin is not its bytes).
const std::set<fs::path>& referencesDisagree() {
  static const std::set<fs::path> models = [] {
    const auto golden = testing::goldenDir();
    const auto corpus = testing::corpusDir();
    return golden && corpus ? testing::compiledModelsWhoseGoldenReferencesDisagree(*golden, *corpus) : std::set<fs::path>{};
  }();
  return models;
}

// tolerance.max_abs_lsb of the golden model whose compiled model is `compiled` (1 when none names it).
int goldenToleranceOf(const fs::path& golden, const fs::path& compiled) {
  const auto corpus = testing::corpusDir();
  for (const auto& entry : fs::directory_iterator(golden)) {
    if (!entry.is_directory() || !fs::exists(entry.path() / "manifest.json")) continue;
    const testing::JsonValue manifest = testing::readJsonFile(entry.path() / "manifest.json");
    const testing::JsonValue* path = manifest.find("compiled") ? manifest.find("compiled")->find("path") : nullptr;
    if (path && corpus && (*corpus / path->text).lexically_normal() == compiled.lexically_normal()) {
      return testing::goldenReferenceSpread(manifest).maxAbsLsb;
    }
  }
  return 1;
}

// A fully running program whose golden's CPU references disagree (docs/decoding-log.md "hold17", "lift18": the PoseNet /
// BodyPix 16-channel decoders) is not judged layer by layer against the CPU twin: the twin is one of those references
// (TFLite's kernels with its own double scales), the device requantises with the f32 scales stored in the program, and
// their 1-LSB differences grow through the network; and the layer map cannot lay these programs' packets on the twin's
// layers (its MAC-work mapping says "uncertain", several-position layers have no placement, the packets it gives the
// output heads write more lanes than they have: "does not fit", its own sign of a wrong map). Its whole output is judged
// against its golden by corpus_lle (the "references disagree" class: the golden's tolerance against the preferred
// reference) and equals the device-scale twin (scripts/hold17_device_scale_twin.py). Here: every compute packet ran, and
// the verdicts are printed. Returns whether the program is of that class.
bool judgedByItsGoldenInstead(const Checked& c) {
  if (!referencesDisagree().contains(c.path.lexically_normal())) return false;
  EXPECT_EQ(c.report.lleComputePackets, c.report.computePackets) << c.path;
  size_t matched = 0, differs = 0, doesNotFit = 0, notPlaced = 0, uncertain = 0;
  for (const LayerCheckRow& row : c.report.rows) {
    matched += row.verdict == LayerVerdict::kMatched || row.verdict == LayerVerdict::kWithinTolerance;
    differs += row.verdict == LayerVerdict::kDiffers;
    doesNotFit += row.verdict == LayerVerdict::kDoesNotFit;
    notPlaced += row.verdict == LayerVerdict::kNotPlaced;
    uncertain += row.mapping == "uncertain";
  }
  std::printf("  %-50s lle ran fully (%zu compute packets): GOLDEN REFERENCES DISAGREE, judged by corpus_lle against its golden, "
              "not here; layer map: %zu matched, %zu differ, %zu do not fit, %zu not placed, %zu mapped uncertain\n",
              c.path.filename().string().c_str(), c.report.lleComputePackets, matched, differs, doesNotFit, notPlaced, uncertain);
  return true;
}

TEST(LayerCheckCorpus, ModelsLleRunsFullyMatchTheirTwinLayerByLayer) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  size_t full = 0, severalPositionLayers = 0, notPlaced = 0;
  for (const Checked& c : checkedCorpus()) {
    if (!c.report.lleCompleted) continue;
    if (judgedByItsGoldenInstead(c)) continue;
    EXPECT_FALSE(c.report.mismatch()) << c.path;
    // A program whose packets the layer map gives to no layer (the iwatake padding sweep: identity
    // copies into the padded output, a PAD without MACs; docs/decoding-log.md "pad13") has no layer to
    // compare: its whole output is compared with golden by corpus_lle instead. Said, not counted.
    if (std::ranges::all_of(c.report.rows, [](const LayerCheckRow& row) { return row.packets.empty(); })) {
      std::printf("  %-50s lle ran fully: no layer has a compute packet (output checked by corpus_lle)\n",
                  c.path.filename().string().c_str());
      continue;
    }
    // A program none of whose layers the map places or compares (model_mat_Add: its two-byte ADDs write a lane layout
    // the layer map does not place, docs/decoding-log.md "twobyte"; their bytes are checked against the twin's ADD
    // tensors by corpus_lle_two_byte): said loudly, not counted (kMinFullyChecked bounds what this can hide).
    if (std::ranges::none_of(c.report.rows, [](const LayerCheckRow& row) {
          return row.verdict == LayerVerdict::kMatched || row.verdict == LayerVerdict::kWithinTolerance ||
                 row.verdict == LayerVerdict::kDiffers;
        })) {
      std::printf("  %-50s lle ran fully: THE LAYER MAP COMPARES NONE OF ITS LAYERS (not counted; see corpus_lle_two_byte)\n",
                  c.path.filename().string().c_str());
      continue;
    }
    ++full;
    size_t compared = 0, offByOne = 0;
    for (const LayerCheckRow& row : c.report.rows) {
      offByOne += row.comparison.differing;
      EXPECT_NE(row.verdict, LayerVerdict::kDiffers) << c.path << " layer " << row.layer.index;
      EXPECT_NE(row.verdict, LayerVerdict::kDoesNotFit) << c.path << " layer " << row.layer.index;
      if (row.verdict == LayerVerdict::kNotPlaced) {
        ++notPlaced;
        std::printf("  %-50s layer %zu: POSITIONS NOT PLACED (no OutputLayout for an intermediate layer; bounded by kMaxNotPlacedLayers)\n",
                    c.path.filename().string().c_str(), static_cast<size_t>(row.layer.index));
      }
      if (row.verdict == LayerVerdict::kMatched || row.verdict == LayerVerdict::kWithinTolerance) {
        EXPECT_EQ(row.comparison.compared, row.comparison.elements) << c.path;
        compared += row.comparison.compared;
        const auto positions = row.comparison.elements / static_cast<size_t>(row.tensor.shape.back());
        severalPositionLayers += positions > 1 ? 1 : 0;
      }
    }
    EXPECT_GT(compared, 0u) << c.path << ": ran fully on lle but no layer was compared";
    // The shipped rounding: within 1 LSB of the twin (docs/decoding-log.md "Requantisation rounding").
    LayerCheckOptions shipped;
    shipped.seed = kSeed;
    shipped.rounding = models::RequantRounding::kFp32HalfEven;
    shipped.tolerance = 1;
    const LayerCheckReport fp32 = checkLayers(driver::loadModelFile(c.path), c.path, shipped);
    EXPECT_FALSE(fp32.mismatch()) << c.path;
    std::printf("  %-50s lle ran fully: %zu compute packets, %zu elements matched (%zu of them 1 LSB from the twin)\n",
                c.path.filename().string().c_str(), c.report.lleComputePackets, compared, offByOne);
  }
  EXPECT_GE(full, kMinFullyChecked);
  EXPECT_GE(severalPositionLayers, kMinSeveralPositionLayers);
  EXPECT_LE(notPlaced, kMaxNotPlacedLayers) << "more layers of fully running programs are left unplaced than model_conv's ten";
}

// Rule 3 (the tile grid, from the positions' addresses) on the reports checkedCorpus() already holds (no run of its
// own): every layer it places compares each placed position's channels and none differs by more than the tolerance;
// where rule 2 places a layer (the executable's OutputLayout, its own map), rule 3 puts every position where it does.
// Called from ModelsWhereLleStopsReportTheStopAndTheLayersNotReached: each ctest test is a process of its own and
// checkedCorpus() is its whole cost, so these assertions ride on a sweep that already runs (CI budget).
void expectTheTileGridPlacesIntermediateLayersAndAgreesWithTheOutputLayout() {
  size_t layers = 0, positions = 0, agree = 0, disagree = 0;
  for (const Checked& c : checkedCorpus()) {
    for (const LayerCheckRow& row : c.report.rows) {
      agree += row.comparison.gridAgrees;
      disagree += row.comparison.gridDisagrees;
      if (row.comparison.gridPlaced == 0) continue;
      ++layers;
      positions += row.comparison.gridPlaced;
      EXPECT_EQ(row.comparison.beyondTolerance, 0u) << c.path << " layer " << row.layer.index;
      EXPECT_EQ(row.comparison.compared, row.comparison.gridPlaced * static_cast<size_t>(row.tensor.shape.back()))
          << c.path << " layer " << row.layer.index;
      std::printf("  %-50s layer %zu: %zu positions by the tile grid, %zu bytes compared, %zu differ by 1 (%zu undefined)\n",
                  c.path.filename().string().c_str(), static_cast<size_t>(row.layer.index), row.comparison.gridPlaced,
                  row.comparison.compared, row.comparison.differing, row.comparison.undefinedPositions);
    }
  }
  std::printf("  tile grid: %zu layers, %zu positions; beside the OutputLayout: %zu agree, %zu disagree\n", layers, positions,
              agree, disagree);
  EXPECT_GE(layers, kMinGridLayers);
  EXPECT_GE(positions, kMinGridPositions);
  EXPECT_GE(agree, kMinGridAgreeingWithLayout);
  EXPECT_EQ(disagree, 0u);
}

TEST(LayerCheckCorpus, ModelsWhereLleStopsReportTheStopAndTheLayersNotReached) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  size_t stopped = 0, withNotReached = 0, placed = 0;
  for (const Checked& c : checkedCorpus()) {
    if (c.report.lleCompleted) continue;
    ++stopped;
    if (referencesDisagree().contains(c.path.lexically_normal())) {
      // A program whose golden's CPU references disagree (judgedByItsGoldenInstead above): a layer that differs from the
      // twin is reported and held to the golden's own tolerance (tolerance.max_abs_lsb: how far its references stand
      // apart), not to 1 LSB (DeepLab v3 pascal since "lift18": its 62nd layer, after 254 packets, max |d| 10, tolerance 20).
      for (const LayerCheckRow& row : c.report.rows) {
        if (row.verdict != LayerVerdict::kDiffers) continue;
        const std::optional<fs::path> golden = testing::goldenDir();
        const int tolerance = golden ? goldenToleranceOf(*golden, c.path) : 1;
        std::printf("  %-50s layer %zu differs from the twin by up to %u LSB (GOLDEN REFERENCES DISAGREE: held to the golden's "
                    "tolerance %d)\n", c.path.filename().string().c_str(), static_cast<size_t>(row.layer.index),
                    row.comparison.maxAbsDiff, tolerance);
        EXPECT_LE(static_cast<int>(row.comparison.maxAbsDiff), tolerance) << c.path << " layer " << row.layer.index;
      }
    } else {
      EXPECT_FALSE(c.report.mismatch()) << c.path << ": " << c.report.refusal;
    }
    EXPECT_NE(c.report.refusal.find("opcode 0x"), std::string::npos) << c.path << ": " << c.report.refusal;
    EXPECT_NE(c.report.refusal.find("PC 0x"), std::string::npos) << c.path << ": " << c.report.refusal;
    // The stop is placed at the layer owning the first packet lle did not execute, when one is mapped.
    if (c.report.stoppedAt) {
      ++placed;
      const LayerCheckRow& at = c.report.rows.at(*c.report.stoppedAt);
      EXPECT_NE(std::ranges::find(at.packets, c.report.lleComputePackets), at.packets.end()) << c.path;
      EXPECT_LT(at.packetsRun, at.packets.size()) << c.path;
    }
    size_t notReached = 0;
    for (const LayerCheckRow& row : c.report.rows) {
      if (row.packets.empty() || row.layer.onCpu) continue;
      if (row.packets.front() >= c.report.lleComputePackets) {
        EXPECT_EQ(row.verdict, LayerVerdict::kNotReached) << c.path << " layer " << row.layer.index;
        ++notReached;
      }
    }
    withNotReached += notReached > 0 ? 1 : 0;
    std::printf("  %-50s lle stopped after %zu of %zu compute packets, %zu layers not reached: %.80s\n",
                c.path.filename().string().c_str(), c.report.lleComputePackets, c.report.computePackets, notReached,
                c.report.refusal.c_str());
  }
  EXPECT_GE(stopped, kMinStopped);
  // (A model whose layers have no MACs, a PAD alone, maps its packets to no layer.)
  EXPECT_GE(withNotReached, kMinStopped);
  EXPECT_GE(placed, kMinStopped);
  expectTheTileGridPlacesIntermediateLayersAndAgreesWithTheOutputLayout();
}

// A 64-lane parameter block of a fully connected layer with K inputs: f32 scale[64], u32 slot[64],
// then the weights, byte (lane c, input i) at (i / 4) x 256 + c x 4 + i % 4 (docs/isa.md §5.1,
// models/lle/mac_array.h); the blocks follow each other in the parameter stream, one per tile.
constexpr size_t kBlockPrefix = 64 * 8;
size_t weightByte(size_t block, size_t inputs, unsigned lane) {
  return block * (kBlockPrefix + 64 * inputs) + kBlockPrefix + 4 * size_t{lane};
}

TEST(LayerCheckCorpus, AFlippedWeightByteIsTheFirstDifferenceAtItsChannel) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  size_t caught = 0;
  for (const Checked& c : checkedCorpus()) {
    if (!c.report.lleCompleted) continue;
    // A fully connected layer of one position (the parameter layout above) that the check compared whole. Its outputs
    // are whole 64-lane blocks, as that layout has them: model_dense (100 lanes a layer, 64 + 36 over two tiles, its
    // weights in cached bias-prefix rows, docs/decoding-log.md "dense43" §C) runs fully since "dense45" and is not of it.
    const LayerCheckRow* layer = nullptr;
    for (const LayerCheckRow& row : c.report.rows) {
      if (row.verdict == LayerVerdict::kMatched && row.layer.op == "FULLY_CONNECTED" &&
          row.layer.filterShape.size() == 2 && row.comparison.elements == size_t(row.tensor.shape.back()) &&
          row.tensor.shape.back() % 64 == 0) {
        layer = &row;
        break;
      }
    }
    if (!layer) continue;
    // Input byte 0 far from the input zero point, so the flip moves the accumulator by 128 x ~128,
    // and a lane whose twin value is far from both clamps, so the change cannot be clamped away.
    driver::ModelFile model = driver::loadModelFile(c.path);
    const driver::RunPlan plan = driver::planRun(model);
    std::vector<std::vector<uint8_t>> inputs = driver::randomInputs(plan, kSeed);
    ASSERT_FALSE(inputs.empty());
    inputs[0][0] = 255;
    LayerCheckOptions options;
    options.inputs = inputs;
    const LayerCheckReport clean = checkLayers(model, c.path, options);
    ASSERT_FALSE(clean.mismatch()) << c.path;
    const std::vector<uint8_t>& twin = clean.rows.at(layer->layer.index).tensor.bytes;
    const uint8_t flip = layer->tensor.int8 ? 0x80 : 0;
    // The second block (the second tile's channels) where there is one, from lane 17 on: a lane
    // and a slice other than the first, so the layout is tested, not just element 0.
    const size_t block = twin.size() > 64 ? 1 : 0;
    unsigned lane = 64;
    for (unsigned k = 0; k < 64 && lane == 64; ++k) {
      const unsigned l = (17 + k) % 64;
      const int v = twin.at(64 * block + l) ^ flip;
      if (v >= 64 && v < 192) lane = l;
    }
    ASSERT_LT(lane, 64u) << c.path << ": no mid-range lane in the slice";
    const auto layerInputs = static_cast<size_t>(layer->layer.filterShape[1]);
    driver::Executable* parameters = nullptr;
    for (auto& package : model.edgeTpuOps.at(0).packages) {
      for (auto& e : package.executables) {
        if (!e.parameters.empty() && !parameters) parameters = &e;
      }
    }
    ASSERT_NE(parameters, nullptr) << c.path;
    parameters->parameters.at(weightByte(block, layerInputs, lane)) ^= 0x80;

    const LayerCheckReport wrong = checkLayers(model, c.path, options);
    ASSERT_TRUE(wrong.mismatch()) << c.path << ": a flipped weight byte went unnoticed";
    const LayerCheckRow& row = wrong.rows.at(*wrong.firstDiffering);
    EXPECT_EQ(row.layer.index, layer->layer.index) << c.path;
    ASSERT_TRUE(row.comparison.first);
    const LaneDifference& d = *row.comparison.first;
    EXPECT_EQ(d.element, 64 * block + lane) << c.path;
    EXPECT_EQ(d.lane, lane) << c.path;
    EXPECT_EQ(d.packet, row.packets.front()) << c.path;
    EXPECT_EQ(d.twin, twin.at(64 * block + lane) ^ flip) << c.path;
    EXPECT_NE(d.lle, d.twin) << c.path;
    EXPECT_EQ(row.comparison.beyondTolerance, 1u) << c.path << ": one weight changes one output";
    std::printf("  %-50s weight of block %zu lane %u flipped: first difference layer %zu element %zu tile %u lane %u, lle %u twin %u\n",
                c.path.filename().string().c_str(), block, lane, row.layer.index, d.element, d.tile, d.lane, d.lle, d.twin);
    ++caught;
  }
  EXPECT_GE(caught, kMinDenseChecked);
}

// The model's output layer with an OutputLayout, or null.
const driver::Layer* outputLayerWithLayout(const driver::ModelFile& model) {
  for (const driver::Executable* e : driver::allExecutables(model)) {
    for (const driver::Layer& layer : e->outputLayers) {
      if (layer.outputLayout) return &layer;
    }
  }
  return nullptr;
}

// A layer whose packets write several positions a tile (lane_layout.h rule 2), changed on the device: one
// parameter byte flipped, the first of the parameter stream whose flip changes the lle rung's output
// (parameter_flip.h: no knowledge of the form's parameter layout). The checker must name that layer and, as
// its first difference, the lowest element where the lle rung's own output (run separately, gathered by
// the driver through the OutputLayout) differs from the twin's tensor, with both values, and the tile the
// layout gives that element.
TEST(LayerCheckCorpus, AChangedByteOfASeveralPositionLayerIsNamedWhereTheLleOutputFirstDiffers) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  size_t caught = 0;
  for (const Checked& c : checkedCorpus()) {
    if (!c.report.lleCompleted) continue;
    const LayerCheckRow* layer = nullptr;
    for (const LayerCheckRow& row : c.report.rows) {
      // (A layer left on the CPU, the PoseNet decoder op of the 16-channel decoders that run fully since "lift18", has no
      // shape: back() on it read past an empty vector.)
      if (row.tensor.shape.empty()) continue;
      const bool severalPositions = row.comparison.elements > static_cast<size_t>(row.tensor.shape.back());
      if (row.verdict == LayerVerdict::kMatched && severalPositions && row.comparison.compared == row.comparison.elements) layer = &row;
    }
    if (!layer) continue;
    driver::ModelFile model = driver::loadModelFile(c.path);
    const driver::RunPlan plan = driver::planRun(model);
    ASSERT_EQ(plan.outputs.size(), 1u) << c.path;
    ASSERT_EQ(plan.outputs[0].sizeBytes, layer->comparison.elements) << c.path << ": the layer is not the model's output";
    const std::vector<std::vector<uint8_t>> inputs = driver::randomInputs(plan, kSeed);
    const std::optional<testing::ParameterFlip> flip = testing::flipFirstOutputChangingParameter(model, inputs);
    ASSERT_TRUE(flip) << c.path << ": no parameter byte changes the lle output";
    const std::vector<uint8_t>* changed = &flip->changedOutput;
    const size_t flipped = flip->offset;
    // Where the device's output first differs from the twin (device encoding), found without the checker.
    const std::vector<uint8_t>& twin = layer->tensor.bytes;
    const uint8_t int8Flip = layer->tensor.int8 ? 0x80 : 0;
    size_t expected = twin.size();
    for (size_t e = 0; e < twin.size() && expected == twin.size(); ++e) expected = (*changed)[e] != (twin[e] ^ int8Flip) ? e : expected;
    ASSERT_LT(expected, twin.size()) << c.path << ": the changed output equals the twin";

    LayerCheckOptions options;
    options.inputs = inputs;
    const LayerCheckReport wrong = checkLayers(model, c.path, options);
    ASSERT_TRUE(wrong.mismatch()) << c.path << ": parameter byte " << flipped << " changed the output, unnoticed";
    const LayerCheckRow& row = wrong.rows.at(*wrong.firstDiffering);
    EXPECT_EQ(row.layer.index, layer->layer.index) << c.path;
    ASSERT_TRUE(row.comparison.first);
    const LaneDifference& d = *row.comparison.first;
    EXPECT_EQ(d.element, expected) << c.path;
    EXPECT_EQ(d.coordinates, coordinatesOf(layer->tensor.shape, expected)) << c.path;
    EXPECT_EQ(d.lle, (*changed)[expected]) << c.path;
    EXPECT_EQ(d.twin, twin[expected] ^ int8Flip) << c.path;
    EXPECT_EQ(d.lane, static_cast<unsigned>(d.coordinates.back())) << c.path;
    // The tile the program's OutputLayout gives the element (y, x) is the tile that wrote it.
    const driver::Layer* out = outputLayerWithLayout(model);
    ASSERT_NE(out, nullptr) << c.path;
    const size_t y = static_cast<size_t>(d.coordinates[d.coordinates.size() - 3]);
    const size_t x = static_cast<size_t>(d.coordinates[d.coordinates.size() - 2]);
    EXPECT_EQ(d.tile, static_cast<unsigned>(out->outputLayout->yCoordinateToLinearTileId.at(y) + out->outputLayout->xCoordinateToLinearTileId.at(x)))
        << c.path;
    size_t differing = 0;
    for (size_t e = 0; e < twin.size(); ++e) differing += (*changed)[e] != (twin[e] ^ int8Flip) ? 1 : 0;
    EXPECT_EQ(row.comparison.differing, differing) << c.path << ": the checker and the output disagree on how many bytes differ";
    std::printf("  %-50s parameter byte %zu flipped: layer %zu differs at element %zu (y %zu x %zu channel %u) tile %u, lle %u twin %u; %zu differ\n",
                c.path.filename().string().c_str(), flipped, row.layer.index, d.element, y, x, d.lane, d.tile, d.lle, d.twin, differing);
    ++caught;
  }
  EXPECT_GE(caught, kMinSeveralPositionLayers);
}

}  // namespace
}  // namespace coralsim::sim::layer_check_corpus_test
