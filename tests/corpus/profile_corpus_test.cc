// `coralsim profile` on a real model (sim/profile/layer_profile.h): MobileNet v2 from the corpus,
// with its CPU twin found by name. Checks what must hold whatever the mapping's quality: every
// compute packet of the inference is assigned to exactly one layer, the MACs the packets' decoded
// loop limits stand for are of the order of the twin's MACs (the loop decoding measures MAC work),
// the figures are identical across runs, and the timeline gets a `layers` track.
#include <gtest/gtest.h>

#include <sstream>

#include "sim/profile/layer_profile.h"
#include "tests/support/corpus.h"
#include "traces/timeline_writer.h"

namespace coralsim::sim::profile_corpus_test {
namespace {

std::optional<std::filesystem::path> corpusFile(const std::string& name) {
  for (const auto& f : testing::corpusFiles(name)) {
    if (f.filename() == name) return f;
  }
  return std::nullopt;
}

TEST(ProfileCorpus, MobileNetV2PacketsAllMapToOneLayerAndTheProfileIsDeterministic) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  const auto model = corpusFile("mobilenet_v2_1.0_224_quant_edgetpu.tflite");
  const auto twin = corpusFile("mobilenet_v2_1.0_224_quant.tflite");
  ASSERT_TRUE(model && twin) << "MobileNet v2 or its CPU twin is missing from the corpus";
  ProfileOptions options;
  options.twin = *twin;
  traces::TimelineWriter timeline(500'000'000);
  options.timeline = &timeline;
  const LayerProfile p = profileModel(*model, options);

  ASSERT_FALSE(p.packets.empty());
  std::vector<int> owners(p.packets.size(), 0);
  size_t macLayers = 0, aligned = 0;
  for (const LayerProfileRow& r : p.rows) {
    for (size_t k : r.assignment.packets) ++owners.at(k);
    if (r.layer.macs > 0 && !r.layer.onCpu) ++macLayers;
    if (r.assignment.mapping == "mac-aligned") ++aligned;
  }
  for (size_t k = 0; k < owners.size(); ++k) EXPECT_EQ(owners[k], 1) << "packet " << k;
  // 1 stem convolution, 17 inverted-residual blocks (the first without its expansion: 2 + 16 x 3
  // layers), the 1280-channel 1x1 convolution and the 1x1 classifier: 53 layers with MACs.
  EXPECT_EQ(macLayers, 53u);
  const double ratio = static_cast<double>(p.packetMacs) / static_cast<double>(p.twinMacs);
  std::printf("MobileNet v2: %zu compute packets, packet MACs / twin MACs %.3f, %zu of %zu MAC layers mac-aligned\n",
              p.packets.size(), ratio, aligned, macLayers);
  // Every twin MAC lies inside some iteration of a decoded loop nest (an iteration is at most 64
  // cells x 4 bytes), so the packets' array work is at least the twin's MACs. It is 6.0x of them:
  // depthwise layers run iterations that fill a fraction of the cells (a channel loop inside the
  // nest, one MAC per iteration where the 14 x 14 x 576 layer's 63,504 iterations per tile x 16
  // tiles = its 1,016,064 MACs; docs/decoding-log.md "taps").
  EXPECT_GE(ratio, 0.9);
  EXPECT_LT(ratio, 8.0);
  EXPECT_EQ(p.streamedParameterBytes, 0u) << "MobileNet v2's parameters fit on chip (PARAMETER_CACHING)";
  EXPECT_GT(p.cachedParameterBytes, 0u);

  std::ostringstream first, second, trace;
  writeProfileJson(first, p);
  options.timeline = nullptr;
  writeProfileJson(second, profileModel(*model, options));
  EXPECT_EQ(first.str(), second.str()) << "the profile differs between two runs";
  timeline.write(trace);
  EXPECT_NE(trace.str().find("\"layers\""), std::string::npos) << "no 'layers' track in the timeline";
}

// The k x k taps are loop levels of the compute packet (models/isa/compute_loop_nest.def): on
// convolutions whose layers fill the tile's 64 MAC cells per output channel group, the packets'
// array work (iterations x 256) equals the twin's MAC-array work (output channels padded to 64).
// Before the nest was decoded the 7 x 7 convolution's packets stood for 0.041x of it.
TEST(ProfileCorpus, KxKConvolutionPacketsCountTheirTaps) {
  CORALSIM_REQUIRE_CORPUS(testing::corpusDir());
  for (const std::string name : {"model_conv_128x128x3x32x7x10", "conv2d_12x128x128_to_128_k3_s1_same_quant",
                                 "conv2d_12x176x64_to_64_k3_s1_same_quant"}) {
    const auto model = corpusFile(name + "_edgetpu.tflite");
    const auto twin = corpusFile(name + ".tflite");
    ASSERT_TRUE(model && twin) << name << " or its CPU twin is missing from the corpus";
    ProfileOptions options;
    options.twin = *twin;
    const LayerProfile p = profileModel(*model, options);
    uint64_t arrayMacs = 0;
    for (const LayerProfileRow& r : p.rows) {
      if (!r.layer.onCpu) arrayMacs += r.layer.arrayMacs;
    }
    ASSERT_GT(arrayMacs, 0u) << name;
    const double ratio = static_cast<double>(p.packetMacs) / static_cast<double>(arrayMacs);
    std::printf("%s: packet array work / twin array MACs %.3f\n", name.c_str(), ratio);
    EXPECT_GT(ratio, 0.9) << name;
    EXPECT_LT(ratio, 1.25) << name;
  }
}

}  // namespace
}  // namespace coralsim::sim::profile_corpus_test
