// coralsim's libedgetpu.so.1 under Google's TensorFlow Lite 2.9 C library, unmodified: the
// library from npm tfjs-tflite-node@0.0.2 (fetched into the build tree by fetch-tflite.sh, the
// CTest fixture), the delegate created through the TFLite external-delegate plugin entry point
// exactly as tflite_runtime.load_delegate does, and whole compiled corpus models run by TFLite's
// interpreter — the edgetpu-custom-op on coralsim (hle rung, CPU twin registered with the `hle`
// delegate option), any CPU ops after it on TFLite's own kernels. Every graph output is compared
// byte for byte with the golden files (../shared/golden: TFLite 2.9 on the CPU twin), for every
// golden case on one interpreter, so later cases run with the parameters already cached.
//
// Skips loudly without the TFLite library (no network when the fixture ran) or without the
// corpus. CORALSIM_LIBEDGETPU_FILTER=<substring> picks models; CORALSIM_LIBEDGETPU_MAX_BYTES
// (default 1300000) bounds the compiled model size of the default run.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/libedgetpu/tflite_c_api.h"
#include "tests/support/corpus.h"
#include "tests/support/json_reader.h"

namespace fs = std::filesystem;
using coralsim::testing::JsonValue;

namespace {

std::string text(const JsonValue* v) { return v ? v->text : std::string(); }

JsonValue readJson(const fs::path& p) {
  const std::vector<uint8_t> bytes = coralsim::testing::readFile(p);
  return coralsim::testing::parseJson(std::string(bytes.begin(), bytes.end()));
}

fs::path tfliteLibrary() {
  if (const char* env = std::getenv("CORALSIM_TFLITE_C_LIB"); env && *env) return env;
  return CORALSIM_TFLITE_DEFAULT_LIB;
}

std::string lastReport;
void captureReport(const char* message) { lastReport = message; }

std::string interpreterErrors;
void collectInterpreterError(void* /*user*/, const char* format, va_list args) {
  char buffer[2048];
  std::vsnprintf(buffer, sizeof buffer, format, args);
  interpreterErrors += std::string(buffer) + "\n";
}

class LibedgetpuTflite : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path lib = tfliteLibrary();
    if (!fs::exists(lib)) {
      GTEST_SKIP() << "\n*** SKIPPED: Google's TFLite 2.9 C library not found at " << lib
                   << " (the libedgetpu_fetch_tflite fixture could not fetch npm tfjs-tflite-node@0.0.2: no network?"
                      " Set CORALSIM_TFLITE_C_LIB). The drop-in libedgetpu.so.1 is NOT tested. ***\n";
    }
    const std::string error = tflite_.load(lib);
    ASSERT_EQ(error, "");
    ASSERT_EQ(plugin_.load(CORALSIM_LIBEDGETPU_PATH), "");
  }

  // One delegate through the plugin ABI, with `options`.
  void* createDelegate(const std::map<std::string, std::string>& options) {
    std::vector<std::string> keys, values;
    for (const auto& [k, v] : options) {
      keys.push_back(k);
      values.push_back(v);
    }
    std::vector<char*> k, v;
    for (size_t i = 0; i < keys.size(); ++i) {
      k.push_back(keys[i].data());
      v.push_back(values[i].data());
    }
    lastReport.clear();
    return plugin_.createDelegate(k.data(), v.data(), k.size(), &captureReport);
  }

  coralsim::testing::TfliteCApi tflite_;
  coralsim::testing::EdgeTpuPlugin plugin_;
};

struct Row {
  std::string model;
  std::string status;  // "ok", "MISMATCH ...", "ERROR ...", "skip ..."
  int cases = 0;
  int outputs = 0;
  int exact = 0;
  uint64_t bytes = 0;
};

fs::path twinPath(const JsonValue& manifest, const fs::path& golden, const fs::path& corpus) {
  const JsonValue* twin = manifest.find("twin");
  std::string path = text(twin ? twin->find("path") : nullptr);
  if (text(twin->find("where")) == "corpus") return corpus / path;
  if (path.starts_with("public/")) path = path.substr(7);
  return golden / path;
}

TEST_F(LibedgetpuTflite, PluginRejectsUnknownOptionThroughReportError) {
  EXPECT_EQ(createDelegate({{"no_such_option", "1"}}), nullptr);
  EXPECT_NE(lastReport.find("no_such_option"), std::string::npos) << lastReport;
  EXPECT_EQ(createDelegate({{"device", "pci:0"}}), nullptr);
  EXPECT_NE(lastReport.find("PCIe"), std::string::npos) << lastReport;
}

TEST_F(LibedgetpuTflite, CorpusModelsGiveGoldenOutputs) {
  const auto golden = coralsim::testing::goldenDir();
  const auto corpus = coralsim::testing::corpusDir();
  CORALSIM_REQUIRE_CORPUS(golden && corpus);
  std::cout << "TFLite " << tflite_.Version() << " with " << plugin_.version() << "\n";
  const char* filter = std::getenv("CORALSIM_LIBEDGETPU_FILTER");
  const uint64_t maxBytes = std::getenv("CORALSIM_LIBEDGETPU_MAX_BYTES")
                                ? std::strtoull(std::getenv("CORALSIM_LIBEDGETPU_MAX_BYTES"), nullptr, 10)
                                : 1'300'000;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(*golden)) {
    if (e.is_directory() && fs::exists(e.path() / "manifest.json")) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());

  std::vector<Row> rows;
  for (const fs::path& dir : dirs) {
    Row r;
    r.model = dir.filename().string();
    if (filter && r.model.find(filter) == std::string::npos) continue;
    const JsonValue manifest = readJson(dir / "manifest.json");
    const JsonValue& compiledInfo = *manifest.find("compiled");
    const fs::path compiled = *corpus / text(compiledInfo.find("path"));
    const fs::path twin = twinPath(manifest, *golden, *corpus);
    bool overridden = false;
    for (const JsonValue& e : manifest.find("tensor_map")->items) overridden = overridden || text(e.find("match")) == "override";
    bool customCpuOp = false;
    for (const JsonValue& op : compiledInfo.find("cpu_ops")->items) customCpuOp = customCpuOp || op.text == "PosenetDecoderOp";
    if (!filter && static_cast<uint64_t>(std::stoull(text(compiledInfo.find("size")))) > maxBytes) continue;
    if (!fs::exists(compiled) || !fs::exists(twin)) {
      r.status = "skip: compiled model or twin not found";
    } else if (overridden) {
      r.status = "skip: the twin needs tensor-name overrides (not a delegate option)";
    } else if (customCpuOp) {
      r.status = "skip: PosenetDecoderOp is a custom CPU op this TFLite does not have";
    }
    if (!r.status.empty()) {
      rows.push_back(r);
      continue;
    }

    void* delegate = createDelegate({{"hle", compiled.string() + "=" + twin.string()}, {"mode", "hle"}});
    if (!delegate) {
      r.status = "ERROR: delegate: " + lastReport;
      rows.push_back(r);
      continue;
    }
    void* model = tflite_.ModelCreateFromFile(compiled.c_str());
    void* options = tflite_.InterpreterOptionsCreate();
    tflite_.InterpreterOptionsSetNumThreads(options, 1);
    tflite_.InterpreterOptionsAddDelegate(options, delegate);
    interpreterErrors.clear();
    tflite_.InterpreterOptionsSetErrorReporter(options, &collectInterpreterError, nullptr);
    void* interpreter = model ? tflite_.InterpreterCreate(model, options) : nullptr;
    if (!interpreter || tflite_.InterpreterAllocateTensors(interpreter) != 0) {
      r.status = "ERROR: interpreter: " + interpreterErrors;
    } else {
      r.status = "ok";
      for (const JsonValue& kase : manifest.find("cases")->items) {
        const std::string caseName = text(kase.find("case"));
        for (const JsonValue& in : kase.find("model_inputs")->items) {
          const int index = std::stoi(text(in.find("index")));
          void* tensor = tflite_.InterpreterGetInputTensor(interpreter, index);
          const std::vector<uint8_t> bytes = coralsim::testing::readFile(dir / text(in.find("file")));
          if (tflite_.TensorCopyFromBuffer(tensor, bytes.data(), bytes.size()) != 0) {
            r.status = "ERROR: " + caseName + ": input " + std::to_string(index) + " has " +
                       std::to_string(bytes.size()) + " bytes, the tensor " + std::to_string(tflite_.TensorByteSize(tensor));
          }
        }
        if (r.status != "ok") break;
        if (tflite_.InterpreterInvoke(interpreter) != 0) {
          r.status = "ERROR: " + caseName + ": invoke: " + interpreterErrors;
          break;
        }
        ++r.cases;
        // Golden for each graph output: the final output where CPU ops follow the custom op,
        // else the custom-op output of the same name.
        const int outputs = tflite_.InterpreterGetOutputTensorCount(interpreter);
        for (int o = 0; o < outputs; ++o) {
          const void* tensor = tflite_.InterpreterGetOutputTensor(interpreter, o);
          const std::string name = tflite_.TensorName(tensor);
          std::string file;
          for (const JsonValue& f : kase.find("final_outputs")->items) {
            if (text(f.find("index")) == std::to_string(o)) file = text(f.find("file"));
          }
          for (const JsonValue& t : kase.find("tpu_outputs")->items) {
            if (file.empty() && text(t.find("name")) == name) file = text(t.find("file"));
          }
          if (file.empty()) continue;  // no golden for this output
          const std::vector<uint8_t> expected = coralsim::testing::readFile(dir / file);
          std::vector<uint8_t> got(tflite_.TensorByteSize(tensor));
          tflite_.TensorCopyToBuffer(tensor, got.data(), got.size());
          ++r.outputs;
          r.bytes += got.size();
          if (got == expected) {
            ++r.exact;
          } else {
            size_t differ = 0;
            for (size_t i = 0; i < std::min(got.size(), expected.size()); ++i) differ += got[i] != expected[i];
            r.status = "MISMATCH: " + caseName + " output '" + name + "': " + std::to_string(got.size()) + " bytes vs golden " +
                       std::to_string(expected.size()) + ", " + std::to_string(differ) + " differ";
          }
        }
      }
    }
    if (interpreter) tflite_.InterpreterDelete(interpreter);
    tflite_.InterpreterOptionsDelete(options);
    if (model) tflite_.ModelDelete(model);
    plugin_.destroyDelegate(delegate);
    rows.push_back(r);
  }

  std::cout << "\n| model | cases | graph outputs exact | bytes compared | status |\n|---|---|---|---|---|\n";
  int ok = 0;
  for (const Row& r : rows) {
    std::cout << "| " << r.model << " | " << r.cases << " | " << r.exact << "/" << r.outputs << " | " << r.bytes << " | "
              << r.status << " |\n";
    if (r.status == "ok" && r.outputs > 0) ++ok;
    EXPECT_TRUE(r.status == "ok" || r.status.starts_with("skip")) << r.model << ": " << r.status;
  }
  std::cout << ok << " models bit-exact through TFLite " << tflite_.Version() << "\n";
  if (!filter) {
    EXPECT_GE(ok, 10) << "too few models ran: the corpus or the golden set looks incomplete";
  }
}

}  // namespace
