// The capture importers and trace-diff on the real Coral sessions of the shared corpus:
//  - every capture parses without error, with a transfer count checked against a count taken
//    from the text independently (lines of calls, completed URBs);
//  - libedgetpu's real open and close register sequences, replayed against the emulated device's
//    EP0, are all accepted;
//  - our driver's session on the emulated device and a real capture of the same model show no
//    protocol-relevant difference (trace-diff);
//  - traces (USB log, timeline, instruction trace) are byte-identical across two runs;
//  - a program with a weight feed (docs/decoding-log.md "conv32end") returns only its hinted output
//    bytes on EP 0x81 in its real capture: the feed's rows never reach the host.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "hosting/in_process_transport.h"
#include "driver/model/model_loader.h"
#include "driver/run/random_inputs.h"
#include "driver/transport/recording_transport.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "models/lle/lle_fields.h"
#include "models/scalar/decoded_program.h"
#include "sim/device.h"
#include "tests/support/corpus.h"
#include "tests/support/run_command.h"
#include "traces/json_value.h"
#include "traces/timeline_writer.h"
#include "traces/usb_diff.h"
#include "traces/usb_import.h"

namespace coralsim::traces::usb_capture_corpus_test {
namespace {

using coralsim::testing::corpusDir;

std::vector<std::filesystem::path> captureFiles() {
  std::vector<std::filesystem::path> out;
  const auto dir = corpusDir();
  if (!dir) return out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*dir)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".txt") continue;
    const std::string p = entry.path().string();
    if (p.find("log_wireshark") != std::string::npos || p.find("/dumps/") != std::string::npos ||
        p.find("usbmon") != std::string::npos) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

size_t countLines(const std::filesystem::path& path, const std::function<bool(const std::string&)>& pred) {
  std::ifstream in(path);
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) n += pred(line) ? 1 : 0;
  return n;
}

TEST(UsbCaptureCorpus, EveryRealCaptureImports) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto files = captureFiles();
  ASSERT_GE(files.size(), 5u) << "expected the iwatake2222 tshark exports and the coral-in-python dumps";
  size_t total = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    ImportedCapture c;
    ASSERT_NO_THROW(c = loadUsbSession(path.string(), driver::csrRegisterNamer())) << path;
    EXPECT_GT(c.log.transactions.size(), 0u);
    total += c.log.transactions.size();
    std::cout << "  " << path.filename().string() << ": " << captureFormatName(c.format) << ", "
              << c.log.transactions.size() << " transfers (" << c.stats.otherDeviceTransfers
              << " of other devices dropped, " << c.stats.skippedLines << " text lines skipped)\n";
    // Independent counts from the text.
    if (c.format == CaptureFormat::kLibusbLog) {
      EXPECT_EQ(c.log.transactions.size(), countLines(path, [](const std::string& l) { return l.starts_with("libusb_"); }));
    } else if (c.format == CaptureFormat::kTsharkDetail) {
      const size_t completions = countLines(path, [](const std::string& l) { return l.find("URB_COMPLETE ('C')") != std::string::npos; });
      EXPECT_EQ(c.log.transactions.size() + c.stats.otherDeviceTransfers, completions + c.stats.unmatchedSubmissions);
    } else if (c.format == CaptureFormat::kTsharkSummary) {
      // One transaction per bulk OUT submission and per bulk IN completion of the Coral.
      const size_t bulkOut = countLines(path, [](const std::string& l) {
        std::istringstream words(l);
        std::string frame, time, source;
        words >> frame >> time >> source;
        return source == "host" && l.find("URB_BULK out") != std::string::npos;
      });
      size_t bulk = 0;
      for (const auto& t : c.log.transactions) bulk += t.type == UsbTransferType::kBulk && !t.in() ? 1 : 0;
      EXPECT_EQ(bulk, bulkOut);
    }
  }
  std::cout << "  " << files.size() << " captures, " << total << " transfers\n";
}

// The vendor CSR accesses of one phase of a capture.
std::vector<const UsbTransaction*> csrAccesses(const UsbLog& log, bool openPhase) {
  size_t firstBulk = log.transactions.size(), lastBulk = 0;
  for (size_t i = 0; i < log.transactions.size(); ++i) {
    if (log.transactions[i].type != UsbTransferType::kBulk) continue;
    firstBulk = std::min(firstBulk, i);
    lastBulk = i;
  }
  std::vector<const UsbTransaction*> out;
  for (size_t i = 0; i < log.transactions.size(); ++i) {
    const bool inPhase = openPhase ? i < firstBulk : (firstBulk < log.transactions.size() && i > lastBulk);
    if (inPhase && log.transactions[i].csr) out.push_back(&log.transactions[i]);
  }
  return out;
}

std::vector<uint8_t> littleEndian(uint64_t v, unsigned bytes) {
  std::vector<uint8_t> out;
  for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  return out;
}

TEST(UsbCaptureCorpus, RealOpenAndCloseSequencesReplayOnTheEmulatedDevice) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const std::vector<std::string> captures = {
      "inigoliz+coral-in-python/dumps/dump_single_inference.txt",
      "iwatake2222+EdgeTPU_Analysis/Ops/log_wireshark/detail_model_conv_128x128x3x32x7x50_edgetpu.txt",
  };
  for (const std::string& rel : captures) {
    SCOPED_TRACE(rel);
    const auto path = *corpusDir() / rel;
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "missing " << path;
    const ImportedCapture c = loadUsbSession(path.string(), driver::csrRegisterNamer());
    sim::Device device;
    size_t replayed = 0, unknownWrites = 0;
    for (bool open : {true, false}) {
      const auto accesses = csrAccesses(c.log, open);
      EXPECT_GT(accesses.size(), 10u) << (open ? "open" : "close");
      for (const UsbTransaction* t : accesses) {
        usb::ControlSetup s{t->setup->bmRequestType, t->setup->bRequest, t->setup->wValue, t->setup->wIndex,
                            t->setup->wLength};
        std::vector<uint8_t> data;
        if (!t->in()) {
          if (!t->csr->value) {
            ++unknownWrites;  // the dump's data was cut by interleaved output
            continue;
          }
          data = littleEndian(*t->csr->value, t->csr->width / 8);
        }
        const usb::UrbResult r = device.control(s, data);
        EXPECT_EQ(r.status, usb::UrbStatus::kOk) << (open ? "open" : "close") << " step " << replayed << ": "
                                                 << t->csr->name << " (" << std::hex << t->csr->address << ")";
        if (t->in()) {
          EXPECT_EQ(r.data.size(), t->csr->width / 8);
        }
        ++replayed;
      }
    }
    std::cout << "  " << rel << ": replayed " << replayed << " CSR accesses (open + close), " << unknownWrites
              << " writes without data skipped\n";
    EXPECT_EQ(unknownWrites, 0u);
    EXPECT_TRUE(device.lastFault().empty()) << device.lastFault();
  }
}

struct Session {
  std::string usbLog;
  std::string timeline;
  std::string instructions;
  UsbLog log;
};

Session runSession(const std::filesystem::path& model, int iterations, bool traceChip) {
  Session out;
  std::ostringstream instructions;
  auto tracer = std::make_shared<Tracer>();
  TimelineWriter timeline(500'000'000);
  InstructionTraceWriter instructionWriter(instructions);
  sim::DeviceOptions options;
  if (traceChip) {
    tracer->addEventSink(&timeline);
    tracer->setInstructionSink(&instructionWriter);
    options.chip.tracer = tracer;
  }
  {
    sim::Device device(options);
    driver::InProcessTransport inner(device);
    out.log.origin = "driver";
    out.log.source = model.filename().string();
    driver::RecordingTransport transport(inner, out.log);
    const driver::ModelFile m = driver::loadModelFile(model.string());
    const driver::RunPlan plan = driver::planRun(m);
    driver::Runner runner(transport, {});
    runner.open();
    const driver::RunResult result = runner.run(plan, driver::randomInputs(plan, 7), iterations);
    EXPECT_TRUE(result.ok()) << result.error.value_or("");
    runner.close();
  }
  std::ostringstream usb, tl;
  writeUsbLog(out.log, usb);
  timeline.write(tl);
  out.usbLog = usb.str();
  out.timeline = tl.str();
  out.instructions = instructions.str();
  return out;
}

const char* const kPaddingModel = "iwatake2222+EdgeTPU_Analysis/InOut/model_padding/model_padding_256x256x3_edgetpu.tflite";

TEST(UsbCaptureCorpus, DriverSessionMatchesTheRealCaptureOfTheSameModel) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto model = *corpusDir() / kPaddingModel;
  const auto capture = *corpusDir() / "iwatake2222+EdgeTPU_Analysis/InOut/log_wireshark/log_padding_256x256.txt";
  if (!std::filesystem::exists(model) || !std::filesystem::exists(capture)) GTEST_SKIP() << "model or capture missing";
  const ImportedCapture real = loadUsbSession(capture.string(), driver::csrRegisterNamer());
  // The capture shows 5 inferences: count its instruction records' header transfers... by the
  // number of 16-byte event reads on EP 0x82 (one completion event per inference).
  int inferences = 0;
  for (const auto& t : real.log.transactions) inferences += t.endpoint == 0x82 && t.length == 16 ? 1 : 0;
  ASSERT_GT(inferences, 0);
  const Session sim = runSession(model, inferences, false);
  const UsbDiffReport report = diffUsbLogs(sim.log, real.log);
  std::ostringstream text;
  writeUsbDiffText(report, sim.log, real.log, text);
  std::cout << text.str();
  EXPECT_FALSE(report.hasRelevant()) << text.str();
  // The comparison was not vacuous: the phases and the bulk traffic were compared.
  ASSERT_EQ(report.phases.size(), 3u);
  EXPECT_GT(report.phases[0].csrA, 0u);
  EXPECT_EQ(report.phases[0].csrA, real.log.transactions.empty() ? 0u : report.phases[0].csrA);
  EXPECT_EQ(report.outputBytesA, report.outputBytesB);
  EXPECT_GT(report.outputBytesB, 0u);
}

// The weight feed (docs/decoding-log.md "conv32end" §B): iwatake's model_stride_256x256x3 holds one -- a
// stream-feeding pop (PopStreamFeed), the nested 0x27 after it (OutfeedNested) and a host-bound send with
// Dma10WeightFeed, carrying one 256-byte row -- and its real capture shows, in every inference, exactly
// the executable's hinted output bytes on EP 0x81 and nothing more. Were the feed's row host-bound, each
// inference would return 256 bytes more (the rung sends it nowhere, lle_rung.cc drainWeightFeed).
TEST(UsbCaptureCorpus, TheWeightFeedsRowsNeverReachTheHostInTheRealCapture) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto modelPath = *corpusDir() / "iwatake2222+EdgeTPU_Analysis/InOut/model_stride/model_stride_256x256x3_edgetpu.tflite";
  const auto capture = *corpusDir() / "iwatake2222+EdgeTPU_Analysis/InOut/log_wireshark/log_stride_256x256.txt";
  if (!std::filesystem::exists(modelPath) || !std::filesystem::exists(capture)) GTEST_SKIP() << "model or capture missing";
  const driver::ModelFile model = driver::loadModelFile(modelPath);
  uint64_t hintedOutputBytes = 0;
  size_t feedingPops = 0, feedOutfeeds = 0, feedSends = 0;
  for (const driver::Executable* e : driver::allExecutables(model)) {
    if (e->type != driver::ExecutableType::ExecutionOnly) continue;
    for (const driver::Layer& out : e->outputLayers) hintedOutputBytes += out.sizeBytes;
    for (const auto& bitstream : e->bitstreams) {
      const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
      bool feeding = false;
      for (const models::DecodedPacket& p : program->packets()) {
        const auto op = static_cast<uint8_t>(p.opcode);
        if (op == 0x26 && lle::readField(p.words, lle::LleField::PopStreamFeed) != 0) feeding = true, ++feedingPops;
        if (op == 0x27 && feeding && lle::readField(p.words, lle::LleField::OutfeedNested) != 0) feeding = false, ++feedOutfeeds;
        if (op == 0x10 && lle::readField(p.words, lle::LleField::Dma10ToOutfeed) != 0 &&
            lle::readField(p.words, lle::LleField::Dma10WeightFeed) != 0) {
          ++feedSends;
        }
      }
    }
  }
  ASSERT_GE(feedingPops, 1u);
  ASSERT_EQ(feedOutfeeds, feedingPops);
  ASSERT_EQ(feedSends, feedingPops);
  const ImportedCapture real = loadUsbSession(capture.string(), driver::csrRegisterNamer());
  size_t events = 0, outputs = 0;
  for (const auto& t : real.log.transactions) {
    events += t.endpoint == 0x82 && t.length == 16 ? 1 : 0;  // one completion event per executable run
    if (t.endpoint != 0x81 || t.length == 0) continue;              // the empty ones: URBs cancelled at close
    ++outputs;
    EXPECT_EQ(t.length, hintedOutputBytes) << "bulk-in on EP 0x81 at seq " << t.seq;
  }
  std::cout << events << " completion events, " << outputs << " output transfers of " << hintedOutputBytes << " bytes; " << feedingPops
            << " weight feed(s) in the program\n";
  // The first event is the parameter-caching run's (no output, its token then cached); each inference
  // after it returns one output transfer.
  ASSERT_GT(outputs, 0u);
  EXPECT_EQ(outputs + 1, events);
}

TEST(UsbCaptureCorpus, DriverOpenSequenceMatchesRealWrittenValues) {
  // The verbose tshark export carries every SETUP and data byte: the open sequence's CSR
  // addresses, widths and written values must match exactly (the model differs; only open is
  // compared).
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto model = *corpusDir() / kPaddingModel;
  const auto capture =
      *corpusDir() / "iwatake2222+EdgeTPU_Analysis/Ops/log_wireshark/detail_model_conv_128x128x3x32x7x50_edgetpu.txt";
  if (!std::filesystem::exists(model) || !std::filesystem::exists(capture)) GTEST_SKIP() << "model or capture missing";
  const ImportedCapture real = loadUsbSession(capture.string(), driver::csrRegisterNamer());
  const Session sim = runSession(model, 1, false);
  UsbDiffOptions options;
  options.phases = {"open"};
  const UsbDiffReport report = diffUsbLogs(sim.log, real.log, options);
  std::ostringstream text;
  writeUsbDiffText(report, sim.log, real.log, text);
  std::cout << text.str();
  EXPECT_FALSE(report.hasRelevant()) << text.str();
  EXPECT_EQ(report.phases.at(0).csrA, report.phases.at(0).csrB);
}

TEST(UsbCaptureCorpus, TracesAreByteIdenticalAcrossRuns) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto model = *corpusDir() / kPaddingModel;
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "model missing";
  const Session a = runSession(model, 2, true);
  const Session b = runSession(model, 2, true);
  EXPECT_GT(a.instructions.size(), 0u);
  EXPECT_NE(a.timeline.find("\"tile 0\""), std::string::npos);
  EXPECT_NE(a.timeline.find("DMA tag"), std::string::npos);
  EXPECT_EQ(a.usbLog, b.usbLog);
  EXPECT_EQ(a.timeline, b.timeline);
  EXPECT_EQ(a.instructions, b.instructions);
}

// The command line end to end: `coralsim run --trace-usb` then `coralsim trace-diff` against
// real captures, with its exit status (0: no protocol-relevant difference, 1: differences).
TEST(UsbCaptureCorpus, TraceDiffCommandExitStatus) {
  CORALSIM_REQUIRE_CORPUS(corpusDir());
  const auto model = *corpusDir() / kPaddingModel;
  const auto same = *corpusDir() / "iwatake2222+EdgeTPU_Analysis/InOut/log_wireshark/log_padding_256x256.txt";
  const auto other = *corpusDir() / "inigoliz+coral-in-python/dumps/dump_single_inference.txt";
  if (!std::filesystem::exists(model) || !std::filesystem::exists(same) || !std::filesystem::exists(other)) {
    GTEST_SKIP() << "model or captures missing";
  }
  const std::string coralsim = std::string(CORALSIM_BINARY_DIR) + "/coralsim";
  const auto log = std::filesystem::temp_directory_path() / ("coralsim_trace_diff_" + std::to_string(::getpid()) + ".jsonl");
  ASSERT_TRUE(coralsim::testing::runCommand(
      {coralsim, "run", model.string(), "--random", "3", "--iterations", "5", "--trace-usb", log.string()}));
  const auto clean = coralsim::testing::runCommand({coralsim, "trace-diff", log.string(), same.string()});
  ASSERT_TRUE(clean.has_value()) << "expected exit status 0 against the capture of the same model";
  EXPECT_NE(clean->find("no protocol-relevant difference"), std::string::npos) << *clean;
  // Another model, another device state: records and the EnableReset steps differ -> exit 1.
  const auto differs = coralsim::testing::runCommand({coralsim, "trace-diff", log.string(), other.string(), "--json"}, 1);
  ASSERT_TRUE(differs.has_value());
  const JsonValue v = JsonValue::parse(*differs);
  EXPECT_GT(*v.find("relevant_differences")->asUint(), 0u);
  // The log is the same session when read back: it equals itself.
  EXPECT_TRUE(coralsim::testing::runCommand({coralsim, "trace-diff", log.string(), log.string()}).has_value());
  std::filesystem::remove(log);
}

}  // namespace
}  // namespace coralsim::traces::usb_capture_corpus_test
