// Binding a compiled model's custom-op tensors to CPU-twin tensors (sim/hle_host/twin_tensor_match.h)
// and finding the twin beside a compiled model (sim/hle_host/twin_discovery.h), on synthetic tensor
// descriptions and files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "driver/run/tensor_encoding.h"
#include "sim/hle_host/twin_discovery.h"
#include "sim/hle_host/twin_tensor_match.h"

namespace {

using coralsim::driver::TfliteTensor;
using coralsim::sim::matchTwinTensor;
using coralsim::sim::TwinBindingMethod;

TfliteTensor tensor(std::string name, std::vector<int32_t> shape, float scale, int64_t zeroPoint,
                    coralsim::driver::TfliteTensorType type = coralsim::driver::kTfliteUint8) {
  TfliteTensor t;
  t.name = std::move(name);
  t.shape = std::move(shape);
  t.type = type;
  t.scale = {scale};
  t.zeroPoint = {zeroPoint};
  return t;
}

// A twin like PoseNet's: graph names, three outputs of distinct shapes, intermediates that share
// the heatmap's shape and type but not its quantisation.
std::vector<TfliteTensor> poseTwin() {
  return {
      tensor("sub_2", {1, 353, 481, 3}, 0.0078125f, 128),
      tensor("MobilenetV1/Conv2d_13/Relu6", {1, 23, 31, 17}, 0.0235294f, 0),
      tensor("MobilenetV1/heatmap_2/BiasAdd", {1, 23, 31, 17}, 0.0470588f, 128),
      tensor("MobilenetV1/offset_2/BiasAdd", {1, 23, 31, 34}, 0.392157f, 128),
      tensor("concat", {1, 23, 31, 64}, 1.38758f, 117),
  };
}

TEST(TwinTensorMatch, SameNameWins) {
  const auto twin = poseTwin();
  const auto m = matchTwinTensor(tensor("sub_2", {1, 353, 481, 3}, 0.0078125f, 128), twin, {});
  EXPECT_EQ(m.index, 0);
  EXPECT_EQ(m.method, TwinBindingMethod::kName);
  EXPECT_EQ(coralsim::sim::twinBindingMethodName(m.method), "name");
  EXPECT_TRUE(m.note.empty());
}

TEST(TwinTensorMatch, DifferentNameBindsTheUniqueTensorOfSameShapeTypeAndQuantisation) {
  const auto twin = poseTwin();
  // Tensor 1 has the shape and type too, but another quantisation: only tensor 2 matches.
  const auto m = matchTwinTensor(tensor("quant_heatmaps", {1, 23, 31, 17}, 0.0470588f, 128), twin, {});
  EXPECT_EQ(m.index, 2) << m.error;
  EXPECT_EQ(m.method, TwinBindingMethod::kShapeTypeQuant);
  EXPECT_EQ(coralsim::sim::twinBindingMethodName(m.method), "shape-type-quant");
  // The element type counts: an int8 tensor of that shape and quantisation has no match.
  const auto int8 = matchTwinTensor(
      tensor("quant_heatmaps", {1, 23, 31, 17}, 0.0470588f, 128, coralsim::driver::kTfliteInt8), twin, {});
  EXPECT_EQ(int8.index, -1);
}

TEST(TwinTensorMatch, AmbiguousMatchIsAnErrorListingTheCandidates) {
  auto twin = poseTwin();
  twin.push_back(tensor("MobilenetV1/heatmap_copy", {1, 23, 31, 17}, 0.0470588f, 128));
  const auto m = matchTwinTensor(tensor("quant_heatmaps", {1, 23, 31, 17}, 0.0470588f, 128), twin, {});
  EXPECT_EQ(m.index, -1);
  EXPECT_NE(m.error.find("ambiguous"), std::string::npos) << m.error;
  EXPECT_NE(m.error.find("tensor 2 'MobilenetV1/heatmap_2/BiasAdd'"), std::string::npos) << m.error;
  EXPECT_NE(m.error.find("tensor 5 'MobilenetV1/heatmap_copy'"), std::string::npos) << m.error;
  EXPECT_EQ(m.error.find("Relu6"), std::string::npos) << "another quantisation is no candidate: " << m.error;
  EXPECT_NE(m.error.find("--hle-bind 'quant_heatmaps=TWIN_TENSOR'"), std::string::npos) << m.error;
}

TEST(TwinTensorMatch, NoTensorWithTheQuantisationListsThoseOfSameShapeAndType) {
  const auto twin = poseTwin();
  const auto m = matchTwinTensor(tensor("quant_mid_offsets", {1, 23, 31, 64}, 0.980392f, 128), twin, {});
  EXPECT_EQ(m.index, -1);
  EXPECT_NE(m.error.find("none has its shape, type and quantisation"), std::string::npos) << m.error;
  EXPECT_NE(m.error.find("tensor 4 'concat' UINT8 [1,23,31,64] q(1.38758, 117)"), std::string::npos) << m.error;
  const auto nothing = matchTwinTensor(tensor("logits", {1, 1001}, 0.1f, 0), twin, {});
  EXPECT_EQ(nothing.index, -1);
  EXPECT_NE(nothing.error.find("nor one of its shape and type"), std::string::npos) << nothing.error;
}

TEST(TwinTensorMatch, OverrideWinsOverNameAndShapeAndSaysWhatDiffers) {
  const auto twin = poseTwin();
  const auto m = matchTwinTensor(tensor("quant_mid_offsets", {1, 23, 31, 64}, 0.980392f, 128), twin,
                                 {{"quant_mid_offsets", "concat"}});
  EXPECT_EQ(m.index, 4) << m.error;
  EXPECT_EQ(m.method, TwinBindingMethod::kOverride);
  EXPECT_NE(m.note.find("q(1.38758, 117)"), std::string::npos) << m.note;
  // An override even beats a twin tensor of the same name.
  const auto beatsName = matchTwinTensor(tensor("sub_2", {1, 353, 481, 3}, 0.0078125f, 128), twin,
                                         {{"sub_2", "MobilenetV1/heatmap_2/BiasAdd"}});
  EXPECT_EQ(beatsName.index, 2);
  EXPECT_EQ(beatsName.method, TwinBindingMethod::kOverride);
  const auto missing = matchTwinTensor(tensor("quant_mid_offsets", {1, 23, 31, 64}, 0.980392f, 128), twin,
                                       {{"quant_mid_offsets", "no_such_tensor"}});
  EXPECT_EQ(missing.index, -1);
  EXPECT_NE(missing.error.find("'no_such_tensor', which the twin does not have"), std::string::npos) << missing.error;
}

TEST(TwinDiscovery, FindsXTfliteBesideXEdgetpuTflite) {
  const auto dir = std::filesystem::temp_directory_path() / ("coralsim_twin_discovery_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "net_edgetpu.tflite") << "x";
  const auto none = coralsim::sim::findTwinBeside(dir / "net_edgetpu.tflite");
  EXPECT_FALSE(none.found);
  EXPECT_EQ(none.candidate, dir / "net.tflite");
  EXPECT_NE(none.description.find("does not exist"), std::string::npos) << none.description;
  std::ofstream(dir / "net.tflite") << "x";
  const auto found = coralsim::sim::findTwinBeside(dir / "net_edgetpu.tflite");
  EXPECT_TRUE(found.found);
  EXPECT_EQ(found.candidate, dir / "net.tflite");
  const auto unnamed = coralsim::sim::findTwinBeside(dir / "net.tflite");
  EXPECT_FALSE(unnamed.found);
  EXPECT_TRUE(unnamed.candidate.empty());
  EXPECT_NE(unnamed.description.find("not named X_edgetpu.tflite"), std::string::npos) << unnamed.description;
  std::filesystem::remove_all(dir);
}

}  // namespace
