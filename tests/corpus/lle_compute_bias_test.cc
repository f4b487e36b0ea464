// ComputeBias (0x01 w15[127:125] low, w16[28:0] high; docs/decoding-log.md "eltw12" §A) against the
// quantisation of the CPU twins' ADD operators, the outside truth: a two-input ADD with input scales
// sa, sb, zero points za, zb and output scale so is computed as Wa (xa - za) + Wb (xb - zb) times the
// packet's multiplier m, with Wa = sa / (so m) and Wb = sb / (so m) integers, so the packet's addend must
// be -(za Wa + zb Wb). Decode set: mobilenet_v2_1.0_224_quant (its 8 distinct ADD epilogues); every
// other compiled model with a twin is held out (DeepLab v3, DeepLab edgetpu-slim, iwatake model_mat_Add
// in the corpus today). Skips loudly without the corpus.

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "driver/model/model_file.h"
#include "driver/model/model_loader.h"
#include "models/hle/graph.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "sim/hle_host/hle_graph.h"
#include "tests/corpus/decoded_bitstreams.h"
#include "tests/corpus/distinct_corpus_models.h"
#include "tests/support/corpus.h"

namespace coralsim::driver::lle_compute_bias_test {
namespace {

namespace fs = std::filesystem;
using coralsim::testing::forEachDecodedBitstream;
using coralsim::testing::forEachDistinctCorpusModel;
using lle::LleField;

constexpr uint8_t kCompute = 0x01;
constexpr int32_t kTfliteAdd = 0;  // BuiltinOperator ADD

struct Quant {
  double scale;
  int64_t deviceZeroPoint;  // uint8 as stored; int8 + 128 (the device's bytes)
};

std::optional<Quant> quantOf(const hle::Tensor& t) {
  if (t.scale.size() != 1 || t.zeroPoint.size() != 1) return std::nullopt;
  return Quant{t.scale[0], t.zeroPoint[0] + (t.type == hle::ElementType::Int8 ? 128 : 0)};
}

// The integer weight s / (so m) of one input, or nothing when it is not within 0.05 of an integer.
std::optional<int64_t> integerWeight(double s, double so, double m) {
  const double w = s / (so * m);
  const double r = std::round(w);
  return std::abs(w - r) < 0.05 ? std::optional<int64_t>(static_cast<int64_t>(r)) : std::nullopt;
}

TEST(LleCorpus, ComputeBiasIsMinusTheZeroPointsTimesTheAddInputsIntegerWeights) {
  CORALSIM_REQUIRE_CORPUS(coralsim::testing::corpusDir());
  size_t decodeSet = 0, decodeSetHeld = 0, heldOut = 0, heldOutHeld = 0, heldOutModels = 0, noTwin = 0;
  forEachDistinctCorpusModel({"_edgetpu.tflite"}, [&](const fs::path& path, const ModelFile& model) {
    // The distinct (multiplier, output zero point, addend) of the computes with an addend.
    std::set<std::tuple<uint32_t, uint64_t, int64_t>> epilogues;
    forEachDecodedBitstream(model, [&](const Executable&, const models::DecodedProgram& program) {
      for (const models::DecodedPacket& p : program.packets()) {
        if (static_cast<uint8_t>(p.opcode) != kCompute) continue;
        if (const int64_t bias = lle::readSigned(p.words, LleField::ComputeBias); bias != 0) {
          epilogues.emplace(static_cast<uint32_t>(lle::readField(p.words, LleField::ComputeMult)),
                            lle::readField(p.words, LleField::ComputeZpOut), bias);
        }
      }
    });
    if (epilogues.empty()) return;
    std::string stem = path.filename().string();
    stem.resize(stem.size() - std::string("_edgetpu.tflite").size());
    // The twin: beside the compiled model, else the corpus's file of that name (google-coral's test_data
    // keeps the compiled models in one repository and their twins in another).
    fs::path twinPath = path.parent_path() / (stem + ".tflite");
    if (!fs::exists(twinPath)) {
      for (const auto& entry : fs::recursive_directory_iterator(*coralsim::testing::corpusDir())) {
        if (entry.path().filename() == stem + ".tflite") {
          twinPath = entry.path();
          break;
        }
      }
    }
    if (!fs::exists(twinPath)) {
      noTwin += epilogues.size();
      return;
    }
    const ModelFile twin = loadModelFile(twinPath);
    if (!twin.tflite) return;
    const hle::Graph graph = sim::hleGraphFromTflite(*twin.tflite);
    // Each ADD of two quantised inputs: (sa, za), (sb, zb), (so, zo).
    std::vector<std::array<Quant, 3>> adds;
    for (const hle::Op& op : graph.ops) {
      if (op.builtinCode != kTfliteAdd || op.inputs.size() != 2 || op.outputs.size() != 1) continue;
      const auto a = quantOf(graph.tensors[op.inputs[0]]);
      const auto b = quantOf(graph.tensors[op.inputs[1]]);
      const auto o = quantOf(graph.tensors[op.outputs[0]]);
      if (a && b && o) adds.push_back({*a, *b, *o});
    }
    if (adds.empty()) {  // a twin without a quantised two-input ADD: nothing to compare with
      noTwin += epilogues.size();
      return;
    }
    const bool inDecodeSet = stem == "mobilenet_v2_1.0_224_quant";
    size_t held = 0;
    for (const auto& [multBits, zpOut, bias] : epilogues) {
      const double m = std::bit_cast<float>(multBits);
      bool explained = false;
      for (const auto& [a, b, o] : adds) {
        if (o.deviceZeroPoint != static_cast<int64_t>(zpOut)) continue;
        const auto wa = integerWeight(a.scale, o.scale, m);
        const auto wb = integerWeight(b.scale, o.scale, m);
        explained = explained || (wa && wb && -(a.deviceZeroPoint * *wa + b.deviceZeroPoint * *wb) == bias);
      }
      held += explained;
      if (!explained) std::printf("  not explained: %s m %.9g zo %llu bias %lld\n", stem.c_str(), m, static_cast<unsigned long long>(zpOut), static_cast<long long>(bias));
    }
    std::printf("%s %s: %zu / %zu distinct addends = -(za Wa + zb Wb) of a twin ADD\n", inDecodeSet ? "decode set" : "held out", stem.c_str(), held,
                epilogues.size());
    (inDecodeSet ? decodeSet : heldOut) += epilogues.size();
    (inDecodeSet ? decodeSetHeld : heldOutHeld) += held;
    heldOutModels += !inDecodeSet;
  });
  std::printf("ComputeBias: decode set %zu / %zu, held out %zu / %zu over %zu models; %zu addends in models without a quantised twin in the corpus\n",
              decodeSetHeld, decodeSet, heldOutHeld, heldOut, heldOutModels, noTwin);
  EXPECT_GT(decodeSet, 0u) << "mobilenet_v2_1.0_224_quant_edgetpu.tflite (the decode set) not found with its twin";
  EXPECT_EQ(decodeSetHeld, decodeSet);
  EXPECT_GT(heldOut, 0u) << "no held-out model with a twin and an addend";
  EXPECT_EQ(heldOutHeld, heldOut);
}

}  // namespace
}  // namespace coralsim::driver::lle_compute_bias_test
