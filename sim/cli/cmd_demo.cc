// `coralsim demo`: the README's main job. Runs the embedded demo program (models/isa/demo/
// sum_loop.s, assembled here by coralsim's own assembler) on an emulated Coral through the same
// host driver and USB function a real device gets, reads the scalar registers back the way a
// debugger does (control transfers to the CSRs), and checks the result against a value computed
// independently on the host. Then, when the shared corpus is present, a real compiled model
// classifies a real image: the CPU twin beside the model is registered (`--hle auto`), the device's
// descriptors are checked against the model's own DMA hints, and the top classes against the
// hardware ground truth (sim/cli/ground_truth.h), with the predicted device latency.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "driver/transport/beagle_csrs.h"
#include "driver/run/bmp_image.h"
#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/run/run_plan.h"
#include "driver/run/run_report.h"
#include "driver/run/runner.h"
#include "driver/run/tensor_encoding.h"
#include "models/isa/assembler.h"
#include "models/isa/demo/demo_program.h"
#include "models/isa/word128.h"
#include "sim/cli/args.h"
#include "sim/cli/classification.h"
#include "sim/cli/commands.h"
#include "sim/cli/datapath_options.h"
#include "sim/cli/ground_truth.h"
#include "sim/device.h"
#include "sim/hle_host/program_loader.h"
#include "sim/hle_host/twin_discovery.h"

#ifndef CORALSIM_VERSION
#define CORALSIM_VERSION "unknown"
#endif

namespace coralsim::cli {
namespace {

// The corpus model the demo runs by default: MobileNet v1 (0.25, 128×128) from Google's
// test_data, the classic Edge TPU classifier (parameter caching + execution-only executables).
constexpr const char* kDefaultCorpusModel =
    "google-coral+test_data/mobilenet_v1_0.25_128_quant_edgetpu.tflite";
// The image it classifies: the corpus's cat, which upstream tests classified on real Edge TPUs.
constexpr const char* kDefaultCorpusImage = "google-coral+test_data/cat.bmp";
constexpr size_t kTopClasses = 5;

const std::vector<OptionSpec> kOptions = {
    {"--model", true, "FILE", "the compiled model of part 2 (default: MobileNet v1 0.25 from the corpus)"},
    {"--image", true, "FILE", "the BMP image part 2 classifies (default with the default model: cat.bmp)"},
    {"--no-model", false, "", "run only the embedded program"},
    {"--show-program", false, "", "print the demo program's assembly text first"},
    {"--help", false, "", "show this help"},
};

void printHelp() {
  std::cout << "usage: coralsim demo [--model FILE [--image FILE.bmp] | --no-model] [--show-program]\n\n"
               "1. Assembles the embedded demo program (models/isa/demo/sum_loop.s: sums 1..10 with a\n"
               "   branch loop and with a hardware loop, then pushes a completion descriptor carrying\n"
               "   the sum), runs it on an emulated Coral USB Accelerator in this process through the\n"
               "   host driver, reads the scalar registers back over control transfers, and checks the\n"
               "   result against 1+2+...+10 computed on the host.\n"
               "2. Runs a real compiled model (default: " << kDefaultCorpusModel << "\n"
               "   under $CORALSIM_CORPUS or ../shared/corpus; skipped with a message when there is none)\n"
               "   and checks the descriptors the simulated scalar core pushed against the model's own DMA\n"
               "   hints. Its CPU twin is found as 'coralsim run --hle auto' finds it: X.tflite beside\n"
               "   X_edgetpu.tflite (the output says which, or that there was none); with it the hle rung\n"
               "   computes the outputs. A classifier is given an image (default: " << kDefaultCorpusImage << ",\n"
               "   resized bilinearly with half-pixel centres; without one, seeded random inputs) and the\n"
               "   demo prints the top-5 labels and scores (labels: the *labels*.txt beside the model with\n"
               "   one line per class), the rung that computed them, the predicted device latency (the\n"
               "   timing model of 'coralsim run --timing', steady state) and the check against the\n"
               "   hardware ground truth (ground_truth/GROUND_TRUTH_public.json: expected label in the top 3\n"
               "   above the expected score).\n\n"
               "options:\n"
            << describeOptions(kOptions)
            << "\nexit status: 0 every check passed, 1 a check failed, 2 usage error\n";
}

// $CORALSIM_CORPUS, else ../shared/corpus from the working directory, else beside the checkout
// that holds this binary (build/coralsim -> ../../shared/corpus).
std::optional<std::filesystem::path> findCorpus() {
  if (const char* env = std::getenv("CORALSIM_CORPUS"); env && *env) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
    return std::nullopt;
  }
  std::vector<std::filesystem::path> candidates = {"../shared/corpus"};
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path() / "../../shared/corpus");
  for (const auto& c : candidates) {
    if (std::filesystem::is_directory(c)) return std::filesystem::weakly_canonical(c);
  }
  return std::nullopt;
}

struct Session {
  explicit Session(driver::ServiceMode service, const sim::DeviceOptions& options = {})
      : device(options), transport(device), runner(transport, driver::RunnerOptions{.service = service, .deviceTime = true}) {
    runner.open();
  }
  sim::Device device;
  driver::InProcessTransport transport;
  driver::Runner runner;
};

driver::RunReportContext reportContext() {
  driver::RunReportContext context;
  context.coralsimVersion = CORALSIM_VERSION;
  context.requestedMode = "auto";
  return context;
}

// Part 1. Returns true when every check passed.
bool runEmbeddedProgram(bool showProgram) {
  std::cout << "== 1. the embedded demo program (" << isa::demoProgramName()
            << "), assembled by coralsim's own assembler\n";
  if (showProgram) std::cout << isa::demoProgramText() << "\n";
  const isa::AssembledProgram assembled = isa::assemble(isa::demoProgramText(), isa::demoProgramName());
  const std::vector<uint8_t> bytes = isa::bytesFromWords(assembled.words);
  std::cout << "assembled: " << assembled.words.size() << " words (" << bytes.size() << " bytes)\n\n";

  const driver::ModelFile program = driver::loadModelFromMemory(bytes, "sum_loop.coral");
  const driver::RunPlan plan = driver::planRun(program);
  Session session(driver::ServiceMode::kEvents);
  driver::RunResult result = session.runner.run(plan, {});
  driver::writeRunText(result, reportContext(), std::cout);

  // The debugger's view: registers read through CSRs, as edgetpuxray does on real hardware.
  std::cout << "\nscalar registers read back over EP0 (scalarRegisterFile 0x44400 + 8*i):\n ";
  std::vector<uint64_t> s(8);
  for (unsigned i = 0; i < s.size(); ++i) {
    s[i] = session.transport.read64(driver::csr::scalarRegisterFile + 8 * i);
    std::cout << " s" << i << "=" << s[i];
  }
  std::cout << "\n  predicates (0x44500 + 8*i):";
  for (unsigned i = 0; i < 2; ++i) {
    std::cout << " p" << i << "=" << session.transport.read64(driver::csr::predicateRegisterFile + 8 * i);
  }
  std::cout << "\n";
  session.runner.close();

  // The expectation, computed here and not by the simulator: 1 + 2 + ... + 10.
  const uint64_t expected = 10 * 11 / 2;
  bool ok = result.ok();
  const driver::ObservedDescriptor* completion = nullptr;
  for (const auto& run : result.runs) {
    for (const auto& d : run.descriptors) {
      if (d.descriptor.tag >= 4) completion = &d;
    }
  }
  if (!completion) {
    std::cout << "CHECK FAILED: the program pushed no completion descriptor\n";
    return false;
  }
  const bool sumsAgree = completion->descriptor.tag == 4;  // the program pushes tag 5 if they differ
  ok = ok && sumsAgree && completion->descriptor.length == expected && s[0] == expected && s[2] == expected;
  std::cout << "\ncheck: completion descriptor tag " << int{completion->descriptor.tag}
            << (sumsAgree ? " (INT0: both loops agree)" : " (INT1: the loops disagree)") << ", length "
            << completion->descriptor.length << "; s0 = " << s[0] << ", s2 = " << s[2] << "; expected "
            << expected << " -> " << (ok ? "PASS" : "FAIL") << "\n";
  return ok;
}

// The CPU twin beside `model` (as `coralsim run --hle auto`), registered into `options` when it
// pairs. Prints what was found; returns the report lines for the run text.
driver::RunReportContext registerTwinBeside(const std::filesystem::path& model, sim::DeviceOptions& options) {
  driver::RunReportContext context = reportContext();
  const sim::TwinSearch search = sim::findTwinBeside(model);
  context.hleAuto = search.description;
  if (!search.found) return context;
  try {
    const sim::HleProgramSpec spec{model, search.candidate, {}, {}};
    std::vector<hle::Program> programs;
    programs.push_back(sim::registerHleProgram(spec.compiled, spec.cpu));
    context.hleTwins.push_back(hleTwinReport(spec, programs.front(), "--hle auto"));
    options.chip.hlePrograms = std::make_shared<const hle::ProgramRegistry>(std::move(programs));
  } catch (const std::exception& e) {
    *context.hleAuto += ", but it does not pair with the compiled model, so it is not registered: " + std::string(e.what());
  }
  return context;
}

// The model's inputs from `image` when it has one uint8 [1, H, W, 3] input, else nullopt.
std::optional<std::vector<std::vector<uint8_t>>> imageInputs(const driver::RunPlan& plan, const std::filesystem::path& image) {
  if (plan.inputs.size() != 1) return std::nullopt;
  const driver::TensorSpec& in = plan.inputs[0];
  if (in.type != driver::kTfliteUint8 || in.shape.size() != 4 || in.shape[0] != 1 || in.shape[3] != 3) return std::nullopt;
  const driver::RgbImage rgb = driver::readBmp(image);
  // libcoral's classification tests resize with half-pixel centres (ground_truth notes).
  return std::vector<std::vector<uint8_t>>{driver::resizeBilinear(rgb, in.shape[2], in.shape[1], true)};
}

// The TFLite tensor of the model's output `name` (for its shape and quantisation).
const driver::TfliteTensor* outputTensor(const driver::ModelFile& model, const std::string& name) {
  if (!model.tflite || model.tflite->subgraphs.empty()) return nullptr;
  const auto& g = model.tflite->subgraphs[0];
  for (int32_t t : g.outputs) {
    if (t >= 0 && static_cast<size_t>(t) < g.tensors.size() && g.tensors[static_cast<size_t>(t)].name == name) {
      return &g.tensors[static_cast<size_t>(t)];
    }
  }
  return nullptr;
}

// `path` relative to `corpus` ("" when outside it), as the ground truth names files.
std::string corpusRelative(const std::filesystem::path& path, const std::optional<std::filesystem::path>& corpus) {
  if (!corpus) return "";
  std::error_code ec;
  const auto rel = std::filesystem::weakly_canonical(path, ec).lexically_relative(std::filesystem::weakly_canonical(*corpus, ec));
  if (ec || rel.empty() || *rel.begin() == "..") return "";
  return rel.generic_string();
}

// The top classes, their labels, and the ground-truth check. Returns false when the check failed.
bool reportClassification(const driver::ModelFile& model, const driver::RunResult& result,
                          const std::filesystem::path& modelPath, const std::filesystem::path& image,
                          const std::optional<std::filesystem::path>& corpus) {
  if (result.outputs.size() != 1) return true;
  const driver::OutputTensor& out = result.outputs.front();
  const driver::TfliteTensor* tensor = outputTensor(model, out.name);
  if (!tensor) return true;
  std::vector<ClassScore> top;
  try {
    top = topClasses(out.bytes, *tensor, kTopClasses);
  } catch (const std::invalid_argument& e) {
    std::cout << "note: not read as a classifier: " << e.what() << "\n";
    return true;
  }
  const size_t classes = classCount(*tensor);
  const auto labelsPath = findLabelsBeside(modelPath, classes);
  const std::vector<std::string> labels = labelsPath ? readLabels(*labelsPath) : std::vector<std::string>{};
  std::cout << "\n" << image.filename().string() << ": top-" << top.size() << " of " << classes << " classes (output '"
            << out.name << "', computed on the " << result.executionMode.value_or("?") << " rung; labels: "
            << (labelsPath ? labelsPath->filename().string() : "none beside the model with " + std::to_string(classes) + " lines")
            << ")\n";
  for (size_t i = 0; i < top.size(); ++i) {
    std::cout << "  " << i + 1 << ". " << std::setw(4) << top[i].index << "  " << std::fixed << std::setprecision(4)
              << top[i].score << "  " << (top[i].index < labels.size() ? labels[top[i].index] : "?") << "\n";
  }
  std::cout.unsetf(std::ios::floatfield);
  std::cout << std::setprecision(6);

  const std::string modelRel = corpusRelative(modelPath, corpus), imageRel = corpusRelative(image, corpus);
  const auto truth = modelRel.empty() || imageRel.empty() ? std::nullopt : findClassGroundTruth(*corpus, modelRel, imageRel);
  if (!truth) {
    std::cout << "ground truth: no hardware record for " << (modelRel.empty() ? modelPath.string() : modelRel) << " on "
              << (imageRel.empty() ? image.string() : imageRel) << "\n";
    return true;
  }
  const ClassExpectation& want = truth->expectation;
  std::optional<size_t> rank;
  for (size_t i = 0; i < top.size() && i < static_cast<size_t>(want.topK); ++i) {
    if (static_cast<int>(top[i].index) == want.label) rank = i;
  }
  const bool pass = rank && top[*rank].score > want.minScore;
  char line[256];
  std::snprintf(line, sizeof line, "label %d (%s) in the top %d with a score above %.2f: %s", want.label,
                static_cast<size_t>(want.label) < labels.size() ? labels[static_cast<size_t>(want.label)].c_str() : "?",
                want.topK, want.minScore,
                rank ? ("rank " + std::to_string(*rank + 1) + ", score " + std::to_string(top[*rank].score)).c_str()
                     : "not in the top classes");
  std::cout << "check against the hardware ground truth (" << truth->id << ": \"" << truth->expectText << "\"):\n  "
            << line << " -> " << (pass ? "PASS" : "FAIL") << "\n";
  return pass;
}

// Part 2. Returns true when every check passed (or there was nothing to run).
bool runCorpusModel(const std::optional<std::string>& explicitModel, const std::optional<std::string>& explicitImage) {
  const auto corpus = findCorpus();
  std::filesystem::path modelPath;
  std::optional<std::filesystem::path> image;
  if (explicitImage) image = *explicitImage;
  if (explicitModel) {
    modelPath = *explicitModel;
  } else {
    if (!corpus) {
      std::cout << "\n== 2. skipped: no corpus found (set CORALSIM_CORPUS, or place ../shared/corpus beside\n"
                   "   the checkout; or pass --model FILE)\n";
      return true;
    }
    modelPath = *corpus / kDefaultCorpusModel;
    if (!image) image = *corpus / kDefaultCorpusImage;
  }
  std::cout << "\n== 2. a real compiled model: " << modelPath.string() << "\n";
  const driver::ModelFile model = driver::loadModelFile(modelPath);
  const driver::RunPlan plan = driver::planRun(model);

  sim::DeviceOptions options;
  driver::RunReportContext context = registerTwinBeside(modelPath, options);
  std::optional<std::vector<std::vector<uint8_t>>> inputs;
  if (image) {
    inputs = imageInputs(plan, *image);
    std::cout << "input: " << (inputs ? image->string() + " (resized bilinearly to the model's input)"
                                      : "seeded random (the model has no single uint8 [1,H,W,3] input for the image)")
              << "\n";
  } else {
    std::cout << "input: seeded random (no --image)\n";
  }
  Session session(driver::ServiceMode::kHints, options);
  driver::RunResult result = session.runner.run(plan, inputs ? *inputs : driver::randomInputs(plan, 1), 2);
  session.runner.close();
  driver::writeRunText(result, context, std::cout);

  bool ok = result.ok() && !result.runs.empty();
  size_t checked = 0;
  for (const auto& run : result.runs) {
    if (!run.hintCheck || !run.hintCheck->ok()) ok = false;
    else ++checked;
  }
  std::cout << "\ncheck: " << checked << " of " << result.runs.size()
            << " executable runs pushed exactly the descriptors of the model's DMA hints"
            << " (the second iteration skips PARAMETER_CACHING: its token is cached) -> "
            << (ok ? "PASS" : "FAIL") << "\n";
  if (result.timing) {
    char latency[160];
    std::snprintf(latency, sizeof latency, "%.3f ms (USB %.3f ms + compute %.3f ms + idle %.3f ms)",
                  result.timing->totalTime.value() * 1e3, result.timing->usbTime.value() * 1e3,
                  result.timing->computeTime.value() * 1e3, result.timing->idleTime.value() * 1e3);
    std::cout << "predicted device latency per inference (timing model, parameters cached): " << latency << "\n";
  }
  const bool computed = !result.outputs.empty() &&
                        std::all_of(result.outputs.begin(), result.outputs.end(),
                                    [](const driver::OutputTensor& o) { return o.computed.value_or(false); });
  if (computed) {
    std::cout << "note: output numbers computed on the " << result.executionMode.value_or("?") << " rung.\n";
    if (inputs) ok = reportClassification(model, result, modelPath, *image, corpus) && ok;
  } else {
    std::cout << "note: output numbers are NOT computed (protocol rung: right sizes and timing, no numbers);\n"
                 "      the control plane above is executed exactly from the bitstream. To compute them,\n"
                 "      place the model's CPU twin X.tflite beside X_edgetpu.tflite, or register it:\n"
                 "      coralsim run MODEL --hle MODEL=TWIN.tflite\n";
  }
  return ok;
}

}  // namespace

int runDemo(const CommandArgs& argv) {
  const Args args(argv, kOptions);
  if (args.has("--help")) {
    printHelp();
    return 0;
  }
  if (!args.positional().empty()) throw UsageError("takes no positional arguments");
  if (args.has("--model") && args.has("--no-model")) throw UsageError("--model and --no-model exclude each other");
  if (args.has("--image") && args.has("--no-model")) throw UsageError("--image and --no-model exclude each other");

  bool ok = runEmbeddedProgram(args.has("--show-program"));
  if (!args.has("--no-model")) ok = runCorpusModel(args.value("--model"), args.value("--image")) && ok;
  std::cout << "\ndemo: " << (ok ? "all checks passed" : "A CHECK FAILED") << "\n";
  return ok ? 0 : 1;
}

}  // namespace coralsim::cli
