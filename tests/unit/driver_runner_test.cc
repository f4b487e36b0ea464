// The runner against a scripted fake device (tests/unit/fake_coral.h): record framing, the
// hint-driven walk of docs/usb-protocol.md §6.1, parameter caching by token (§6.2), event-driven
// answering, int8 sign flipping (docs/isa.md §5.4). Expected traffic is derived from the
// executables built here (hint offsets and sizes, link points read back from the chunks the
// device received), never from the runner's own bookkeeping.
#include <gtest/gtest.h>

#include <numeric>

#include "usb/event_packet.h"
#include "driver/model/linker.h"
#include "driver/transport/record_framing.h"
#include "driver/run/run_plan.h"
#include "driver/run/runner.h"
#include "tests/unit/fake_coral.h"
#include "traces/sha256.h"

namespace coralsim::driver::driver_runner_test {
namespace {

using testing::FakeCoral;

constexpr const char* kIn = "in:0";
constexpr const char* kOut = "out:0";

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + 7 * i);
  return v;
}

FieldOffset link(int32_t bit, BufferKind kind, AddressHalf half, const std::string& name = "") {
  return FieldOffset{BufferRef{kind, 0, name, half}, bit};
}

DmaHint dma(BufferKind kind, DmaDirection dir, int32_t offset, int32_t size, const std::string& name = "") {
  DmaHint h;
  h.kind = HintKind::Dma;
  h.direction = dir;
  h.buffer = BufferRef{kind, 0, name, AddressHalf::Lower32};
  h.offset = offset;
  h.size = size;
  return h;
}
DmaHint instr(int32_t chunk) {
  DmaHint h;
  h.kind = HintKind::Instruction;
  h.chunk = chunk;
  return h;
}
DmaHint interrupt0() {
  DmaHint h;
  h.kind = HintKind::Interrupt;
  h.direction = DmaDirection::Outfeed;
  return h;
}
DmaHint fence() {
  DmaHint h;
  h.kind = HintKind::Fence;
  return h;
}

Layer layer(const std::string& name, int32_t size) {
  Layer l;
  l.name = name;
  l.sizeBytes = size;
  l.yDim = 1;
  l.xDim = 1;
  l.zDim = size;
  return l;
}

// A chunk of `words` 16-byte words whose first four words carry the IN/OUT/PARAM link points.
InstructionBitstream chunk(size_t words, uint8_t seed, bool io) {
  InstructionBitstream c;
  c.bytes = pattern(words * 16, seed);
  c.fieldOffsets.push_back(link(70, BufferKind::Parameter, AddressHalf::Lower32));
  c.fieldOffsets.push_back(link(128 + 70, BufferKind::Parameter, AddressHalf::Upper32));
  if (io) {
    c.fieldOffsets.push_back(link(256 + 70, BufferKind::Input, AddressHalf::Lower32, kIn));
    c.fieldOffsets.push_back(link(384 + 70, BufferKind::Input, AddressHalf::Upper32, kIn));
    c.fieldOffsets.push_back(link(512 + 70, BufferKind::Output, AddressHalf::Lower32, kOut));
    c.fieldOffsets.push_back(link(640 + 70, BufferKind::Output, AddressHalf::Upper32, kOut));
  }
  return c;
}

// EXECUTION_ONLY: I0 A(0,24) F P(0,8) O(0,12) X0; input 20 bytes (the DMA reads 4 past the end,
// like libedgetpu allows), output 12 bytes.
Executable executionOnly(uint64_t token) {
  Executable e;
  e.type = ExecutableType::ExecutionOnly;
  e.name = "model";
  e.parameterCachingToken = token;
  e.bitstreams.push_back(chunk(6, 0x11, true));
  e.parameters = pattern(8, 0x40);
  e.inputLayers.push_back(layer(kIn, 20));
  e.outputLayers.push_back(layer(kOut, 12));
  e.dmaHints = DmaHints{true,
                        {instr(0), dma(BufferKind::Input, DmaDirection::Infeed, 0, 24, kIn), fence(),
                         dma(BufferKind::Parameter, DmaDirection::Infeed, 0, 8),
                         dma(BufferKind::Output, DmaDirection::Outfeed, 0, 12, kOut), interrupt0()}};
  return e;
}

// PARAMETER_CACHING: I0 P(0,32) X0.
Executable parameterCaching(uint64_t token, uint8_t seed = 0x60) {
  Executable e;
  e.type = ExecutableType::ParameterCaching;
  e.name = "Unknown";
  e.parameterCachingToken = token;
  e.bitstreams.push_back(chunk(2, seed, false));
  e.parameters = pattern(32, seed);
  e.dmaHints = DmaHints{true, {instr(0), dma(BufferKind::Parameter, DmaDirection::Infeed, 0, 32), interrupt0()}};
  return e;
}

struct Model {
  Executable pc;
  Executable eo;
  RunPlan plan;
};

std::unique_ptr<Model> makeModel(uint64_t token) {
  auto m = std::make_unique<Model>();
  m->pc = parameterCaching(token);
  m->eo = executionOnly(token);
  PlanUnit unit;
  unit.label = "package";
  unit.parameterCaching = PlannedExecutable{&m->pc, "PC"};
  unit.programs.push_back(PlannedExecutable{&m->eo, "EO"});
  m->plan.model = "test.tflite";
  m->plan.units.push_back(unit);
  TensorSpec in;
  in.name = kIn;
  in.typeName = "UINT8";
  in.sizeBytes = 20;
  in.deviceBytes = 20;
  m->plan.inputs.push_back(in);
  TensorSpec out = in;
  out.name = kOut;
  out.sizeBytes = out.deviceBytes = 12;
  m->plan.outputs.push_back(out);
  return m;
}

driver::DeviceDescriptor completion() { return {4, 0, 0}; }

// Script for one hint-driven PC + EO run: the EO output is ready on EP 0x81 (the host reads it
// before it waits for the completion event, as the hints order), and two completion events.
void scriptPcAndEo(FakeCoral& dev, const std::vector<uint8_t>& output) {
  dev.outputFifo.insert(dev.outputFifo.end(), output.begin(), output.end());
  dev.events.push_back([](FakeCoral&) { return completion(); });
  dev.events.push_back([](FakeCoral&) { return completion(); });
}

// The 64-bit address linked at word `word` (low half) and `word + 1` (high half), bit 70.
uint64_t linkedAddress(const std::vector<uint8_t>& chunkBytes, size_t word) {
  return uint64_t{readBitField32(chunkBytes, static_cast<int64_t>(word * 128 + 70))} |
         uint64_t{readBitField32(chunkBytes, static_cast<int64_t>((word + 1) * 128 + 70))} << 32;
}

TEST(RecordFraming, HeaderIsLengthLittleEndianThenTagNibble) {
  const auto h = usb::encodeRecordHeader(0x00037220, 0x11);  // 225,824 bytes; tag masked to the low nibble
  const std::array<uint8_t, 8> want = {0x20, 0x72, 0x03, 0x00, 0x01, 0, 0, 0};
  EXPECT_EQ(h, want);
}

TEST(RecordFraming, HeaderIsItsOwnTransferAndPayloadGoesInOneMebibytePieces) {
  FakeCoral dev;
  const std::vector<uint8_t> payload = pattern((5u << 19) + 3, 1);  // 2.5 MiB + 3
  sendRecord(dev, 2, payload);
  const std::vector<size_t> want = {8, 1u << 20, 1u << 20, (1u << 19) + 3};
  EXPECT_EQ(dev.outTransfers, want);
  ASSERT_EQ(dev.records.size(), 1u);
  EXPECT_EQ(dev.records[0].tag, 2);
  EXPECT_EQ(dev.records[0].payload, payload);
  EXPECT_FALSE(dev.headerBytesNonZero);
}

TEST(EventPacket, DecodesAddressLengthAndTagNibble) {
  const std::vector<uint8_t> p = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x10, 0x00, 0x00, 0x00, 0xF3, 9, 9, 9};
  const DeviceDescriptor d = usb::decodeEventPacket(p);
  EXPECT_EQ(d.address, 0x1122334455667788u);
  EXPECT_EQ(d.length, 16u);
  EXPECT_EQ(d.tag, 3);
  EXPECT_THROW(usb::decodeEventPacket(std::vector<uint8_t>(15)), std::invalid_argument);
}

TEST(Runner, HintDrivenRunSendsRecordsInHintOrder) {
  auto m = makeModel(0x1234);
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  const std::vector<uint8_t> output = pattern(12, 0x90);
  scriptPcAndEo(dev, output);
  const std::vector<uint8_t> input = pattern(20, 0x30);
  const RunResult r = runner.run(m->plan, {input});
  ASSERT_TRUE(r.ok()) << *r.error;

  // PC: [tag 0 chunk][tag 2 params]; EO: [tag 0 chunk][tag 1 input + 4 zero bytes][tag 2 params].
  ASSERT_EQ(dev.records.size(), 5u);
  EXPECT_EQ(dev.records[0].tag, 0);
  EXPECT_EQ(dev.records[0].payload.size(), m->pc.bitstreams[0].bytes.size());
  EXPECT_EQ(dev.records[1].tag, 2);
  EXPECT_EQ(dev.records[1].payload, m->pc.parameters);
  EXPECT_EQ(dev.records[2].tag, 0);
  EXPECT_EQ(dev.records[2].payload.size(), m->eo.bitstreams[0].bytes.size());
  EXPECT_EQ(dev.records[3].tag, 1);
  std::vector<uint8_t> wantInput = input;
  wantInput.resize(24, 0);  // the hint reads 4 bytes past the 20-byte tensor: zero padding
  EXPECT_EQ(dev.records[3].payload, wantInput);
  EXPECT_EQ(dev.records[4].tag, 2);
  EXPECT_EQ(dev.records[4].payload, m->eo.parameters);

  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].name, kOut);
  EXPECT_EQ(r.outputs[0].bytes, output);
  EXPECT_EQ(r.outputs[0].sha256, traces::Sha256::hex(output));
  EXPECT_EQ(dev.inTransfers81, std::vector<size_t>{12});  // exactly the hinted size, never more
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_TRUE(r.runs[0].completed);
  EXPECT_TRUE(r.runs[1].completed);
  EXPECT_EQ(r.runs[1].descriptorSource, DescriptorSource::kInterruptEventsOnly);
}

TEST(Runner, LinksDistinctPageAlignedBasesAboveFourGiB) {
  auto m = makeModel(0x1234);
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  scriptPcAndEo(dev, pattern(12, 0));
  ASSERT_TRUE(runner.run(m->plan, {pattern(20, 0)}).ok());
  const auto& eoChunk = dev.records[2].payload;
  const uint64_t param = linkedAddress(eoChunk, 0);
  const uint64_t in = linkedAddress(eoChunk, 2);
  const uint64_t out = linkedAddress(eoChunk, 4);
  for (uint64_t a : {param, in, out}) {
    EXPECT_EQ(a % 4096, 0u) << std::hex << a;
    EXPECT_GE(a, uint64_t{1} << 32) << std::hex << a;
  }
  EXPECT_NE(param, in);
  EXPECT_NE(in, out);
  EXPECT_NE(param, out);
  // Everything outside the link points is the chunk as stored.
  std::vector<uint8_t> unlinked = eoChunk;
  for (const FieldOffset& fo : m->eo.bitstreams[0].fieldOffsets) writeBitField32(unlinked, fo.offsetBit, readBitField32(m->eo.bitstreams[0].bytes, fo.offsetBit));
  EXPECT_EQ(unlinked, m->eo.bitstreams[0].bytes);
}

TEST(Runner, ParameterCachingRunsOnlyWhenTheTokenChanges) {
  auto a = makeModel(0xAAAA);
  auto b = makeModel(0xBBBB);
  FakeCoral dev;
  Runner runner(dev);
  runner.open();

  auto runAndCountPc = [&](Model& m) {
    dev.records.clear();
    const bool cachedBefore = runner.cachedParameterToken() == m.pc.parameterCachingToken;
    if (!cachedBefore) dev.events.push_back([](FakeCoral&) { return completion(); });
    dev.outputFifo.assign(12, 0);
    dev.events.push_back([](FakeCoral&) { return completion(); });
    const RunResult r = runner.run(m.plan, {pattern(20, 0)});
    EXPECT_TRUE(r.ok()) << r.error.value_or("");
    int pcRuns = 0;
    for (const auto& run : r.runs) pcRuns += run.type == ExecutableType::ParameterCaching;
    // The PC program's parameter record (32 bytes, tag 2) is on the wire exactly when it ran.
    int pcParamRecords = 0;
    for (const auto& rec : dev.records) pcParamRecords += rec.tag == 2 && rec.payload == m.pc.parameters;
    EXPECT_EQ(pcRuns, pcParamRecords);
    return pcRuns;
  };
  EXPECT_EQ(runAndCountPc(*a), 1);  // first run: cache parameters
  EXPECT_EQ(runAndCountPc(*a), 0);  // same token: skipped
  EXPECT_EQ(runAndCountPc(*b), 1);  // another model's token ran last
  EXPECT_EQ(runAndCountPc(*a), 1);  // and back
  runner.close();
  runner.open();
  EXPECT_EQ(runAndCountPc(*a), 1);  // the close/open reset wiped the device's parameters
}

TEST(Runner, TokenZeroAlwaysRunsParameterCaching) {
  auto m = makeModel(0);
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  for (int i = 0; i < 2; ++i) {
    scriptPcAndEo(dev, pattern(12, 0));
    const RunResult r = runner.run(m->plan, {pattern(20, 0)});
    ASSERT_TRUE(r.ok()) << *r.error;
    ASSERT_EQ(r.runs.size(), 2u);
    EXPECT_EQ(r.runs[0].type, ExecutableType::ParameterCaching);
    EXPECT_TRUE(r.skipped.empty());
  }
}

TEST(Runner, IterationsSkipParameterCachingAfterTheFirst) {
  auto m = makeModel(0x77);
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  scriptPcAndEo(dev, pattern(12, 1));
  dev.outputFifo.insert(dev.outputFifo.end(), 12, 2);
  dev.events.push_back([](FakeCoral&) { return completion(); });
  const RunResult r = runner.run(m->plan, {pattern(20, 0)}, 2);
  ASSERT_TRUE(r.ok()) << *r.error;
  ASSERT_EQ(r.runs.size(), 3u);
  EXPECT_EQ(r.runs[2].iteration, 1);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].iteration, 1);
  EXPECT_EQ(r.outputs[0].bytes, std::vector<uint8_t>(12, 2));  // the last iteration's outputs
}

TEST(Runner, EventDrivenServiceAnswersEachEventAndSendsTheNextChunkWhenDue) {
  // EO with two chunks: I0 A(0,16) I1 O(0,12) X0. The device asks for the input in two halves.
  Executable eo = executionOnly(0);
  eo.bitstreams.push_back(chunk(3, 0x22, false));
  eo.inputLayers[0].sizeBytes = 16;
  eo.dmaHints = DmaHints{true,
                         {instr(0), dma(BufferKind::Input, DmaDirection::Infeed, 0, 16, kIn), instr(1),
                          dma(BufferKind::Output, DmaDirection::Outfeed, 0, 12, kOut), interrupt0()}};
  RunPlan plan;
  plan.model = "m";
  PlanUnit unit;
  unit.programs.push_back({&eo, "EO"});
  plan.units.push_back(unit);
  TensorSpec in;
  in.name = kIn;
  in.sizeBytes = in.deviceBytes = 16;
  plan.inputs.push_back(in);

  FakeCoral dev;
  RunnerOptions o;
  o.service = ServiceMode::kEvents;
  Runner runner(dev, o);
  runner.open();
  EXPECT_EQ(dev.reg(0x4C148), 0xFFu);
  // Addresses come from the chunk the device received, as a device would echo them.
  auto inAddr = [](FakeCoral& d) { return linkedAddress(d.recordsWithTag(0).at(0).payload, 2); };
  auto outAddr = [](FakeCoral& d) { return linkedAddress(d.recordsWithTag(0).at(0).payload, 4); };
  dev.events.push_back([&](FakeCoral& d) { return DeviceDescriptor{1, inAddr(d), 8}; });
  dev.events.push_back([&](FakeCoral& d) {
    EXPECT_EQ(d.recordsWithTag(0).size(), 1u) << "chunk 1 must wait until the hinted input bytes are served";
    return DeviceDescriptor{1, inAddr(d) + 8, 8};
  });
  dev.events.push_back([&](FakeCoral& d) {
    EXPECT_EQ(d.recordsWithTag(0).size(), 2u) << "chunk 1 is due once 16 input bytes went out";
    for (uint8_t b : pattern(12, 0xA0)) d.outputFifo.push_back(b);
    return DeviceDescriptor{3, outAddr(d), 12};
  });
  dev.events.push_back([](FakeCoral&) { return DeviceDescriptor{6, 0, 0}; });  // sc host interrupt 2: ignored
  dev.events.push_back([](FakeCoral&) { return completion(); });

  const std::vector<uint8_t> input = pattern(16, 0x55);
  const RunResult r = runner.run(plan, {input});
  ASSERT_TRUE(r.ok()) << *r.error;
  ASSERT_EQ(dev.records.size(), 4u);
  EXPECT_EQ(dev.records[0].tag, 0);
  EXPECT_EQ(dev.records[1].tag, 1);
  EXPECT_EQ(dev.records[1].payload, std::vector<uint8_t>(input.begin(), input.begin() + 8));
  EXPECT_EQ(dev.records[2].tag, 1);
  EXPECT_EQ(dev.records[2].payload, std::vector<uint8_t>(input.begin() + 8, input.end()));
  EXPECT_EQ(dev.records[3].tag, 0);
  EXPECT_EQ(dev.records[3].payload.size(), eo.bitstreams[1].bytes.size());
  EXPECT_EQ(r.outputs.at(0).bytes, pattern(12, 0xA0));
  // Descriptors come from the events, each resolved to its buffer.
  const auto& run = r.runs.at(0);
  EXPECT_EQ(run.descriptorSource, DescriptorSource::kEvents);
  ASSERT_EQ(run.descriptors.size(), 5u);
  ASSERT_TRUE(run.descriptors[1].target);
  EXPECT_EQ(run.descriptors[1].target->kind, BufferKind::Input);
  EXPECT_EQ(run.descriptors[1].target->name, kIn);
  EXPECT_EQ(run.descriptors[1].target->offset, 8u);
  ASSERT_TRUE(run.descriptors[2].target);
  EXPECT_EQ(run.descriptors[2].target->kind, BufferKind::Output);
  EXPECT_FALSE(run.descriptors[4].target);
}

TEST(Runner, EventAtAnAddressOutsideEveryBufferFailsTheRunWithItsAddress) {
  auto m = makeModel(0);
  m->plan.units[0].parameterCaching.reset();
  FakeCoral dev;
  RunnerOptions o;
  o.service = ServiceMode::kEvents;
  Runner runner(dev, o);
  runner.open();
  dev.events.push_back([](FakeCoral&) { return DeviceDescriptor{1, 0x42, 8}; });
  const RunResult r = runner.run(m->plan, {pattern(20, 0)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->find("0x0000000000000042"), std::string::npos) << *r.error;
  EXPECT_NE(r.error->find("EO"), std::string::npos) << *r.error;
  EXPECT_EQ(r.runs.size(), 1u);  // the failed run is still reported
}

TEST(Runner, HintModeFallsBackToEventsForNonDeterministicHints) {
  auto m = makeModel(0);
  m->plan.units[0].parameterCaching.reset();
  m->eo.dmaHints->fullyDeterministic = false;
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  dev.events.push_back([](FakeCoral& d) {
    EXPECT_EQ(d.reg(0x4C148), 0xFFu) << "descr_ep switched to every descriptor for this run";
    return completion();
  });
  const RunResult r = runner.run(m->plan, {pattern(20, 0)});
  ASSERT_TRUE(r.ok()) << *r.error;
  EXPECT_EQ(r.runs[0].service, ServiceMode::kEvents);
  EXPECT_NE(r.runs[0].serviceNote.find("not fully deterministic"), std::string::npos);
  EXPECT_EQ(dev.reg(0x4C148), 0xF0u) << "and back afterwards";
}

// A TFLite model whose one edgetpu op (the EXECUTION_ONLY executable above, layers of 20 and 12
// bytes) reads `input` and writes `output`.
ModelFile tfliteAround(const TfliteTensor& input, const TfliteTensor& output) {
  ModelFile model;
  model.kind = ModelKind::Tflite;
  model.path = "model.tflite";
  TfliteModel tfl;
  TfliteSubgraph sg;
  sg.tensors = {input, output};
  tfl.subgraphs.push_back(sg);
  model.tflite = tfl;
  EdgeTpuCustomOp op;
  op.inputs = {0};
  op.outputs = {1};
  Package pkg;
  pkg.executables.push_back(executionOnly(0));
  op.packages.push_back(pkg);
  model.edgeTpuOps.push_back(op);
  return model;
}

TEST(Runner, Int8TensorsFlipTheirSignBitOnTheWire) {
  // A TFLite model whose edgetpu op has int8 input and output tensors.
  const ModelFile model =
      tfliteAround(TfliteTensor{kIn, {1, 20}, 9, 0, {0.5f}, {-1}, 0}, TfliteTensor{kOut, {1, 12}, 9, 0, {0.5f}, {3}, 0});
  const RunPlan plan = planRun(model);  // points into `model`
  ASSERT_EQ(plan.inputs.size(), 1u);
  EXPECT_TRUE(plan.inputs[0].flipsSign);
  EXPECT_EQ(plan.inputs[0].typeName, "INT8");
  EXPECT_EQ(plan.inputs[0].sizeBytes, 20u);

  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  const std::vector<uint8_t> deviceOut = {0x00, 0x7F, 0x80, 0xFF, 1, 2, 3, 4, 5, 6, 7, 8};
  dev.outputFifo.assign(deviceOut.begin(), deviceOut.end());
  dev.events.push_back([](FakeCoral&) { return completion(); });
  std::vector<uint8_t> input = pattern(20, 0x7D);  // int8 bit patterns, includes 0x7F/0x80 crossings
  const RunResult r = runner.run(plan, {input});
  ASSERT_TRUE(r.ok()) << *r.error;
  const auto inputs = dev.recordsWithTag(1);
  ASSERT_EQ(inputs.size(), 1u);
  for (size_t i = 0; i < input.size(); ++i) {
    EXPECT_EQ(inputs[0].payload[i], static_cast<uint8_t>(input[i] ^ 0x80)) << "byte " << i;
  }
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_TRUE(r.outputs[0].signFlipped);
  for (size_t i = 0; i < deviceOut.size(); ++i) {
    // int8 = device uint8 - 128: 0x00 -> -128 (0x80), 0x80 -> 0, 0xFF -> 127.
    EXPECT_EQ(static_cast<int8_t>(r.outputs[0].bytes[i]), static_cast<int>(deviceOut[i]) - 128) << "byte " << i;
  }
}

// The device pads an output layer (1001 classes -> 1008 bytes); libedgetpu hands the application
// exactly the TFLite tensor's bytes. Here the layer is 12 bytes, the tensor [1, 10] uint8.
TEST(Runner, OutputsAreExactlyTheTfliteTensorsBytesWithoutTheLayersPadding) {
  const ModelFile model =
      tfliteAround(TfliteTensor{kIn, {1, 20}, 3, 0, {0.5f}, {0}, 0}, TfliteTensor{kOut, {1, 10}, 3, 0, {0.5f}, {3}, 0});
  const RunPlan plan = planRun(model);  // points into `model`
  ASSERT_EQ(plan.outputs.size(), 1u);
  EXPECT_EQ(plan.outputs[0].sizeBytes, 10u);
  EXPECT_EQ(plan.outputs[0].deviceBytes, 12u);

  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  const std::vector<uint8_t> deviceOut = pattern(12, 0x21);
  dev.outputFifo.assign(deviceOut.begin(), deviceOut.end());
  dev.events.push_back([](FakeCoral&) { return completion(); });
  const RunResult r = runner.run(plan, {pattern(20, 3)});
  ASSERT_TRUE(r.ok()) << *r.error;
  ASSERT_EQ(r.outputs.size(), 1u);
  const OutputTensor& o = r.outputs[0];
  EXPECT_EQ(o.bytes, std::vector<uint8_t>(deviceOut.begin(), deviceOut.begin() + 10));
  EXPECT_EQ(o.tensorBytes, 10u);
  EXPECT_EQ(o.deviceBytes, 12u);
  EXPECT_EQ(o.sha256, traces::Sha256::hex(o.bytes));
}

TEST(Runner, HintModeTakesDescriptorsFromTheDeviceLogAndResolvesThem) {
  auto m = makeModel(0);
  m->plan.units[0].parameterCaching.reset();
  FakeCoral dev;
  dev.withIntrospection = true;
  dev.computed = false;
  dev.log = {{4, 0, 0}};  // from an earlier run: must not show up
  Runner runner(dev);
  runner.open();
  dev.events.push_back([](FakeCoral& d) {
    const std::vector<uint8_t> chunk0 = d.recordsWithTag(0).at(0).payload;
    d.log.push_back({1, linkedAddress(chunk0, 2), 24});
    d.log.push_back({2, linkedAddress(chunk0, 0), 8});
    d.log.push_back({3, linkedAddress(chunk0, 4) + 4, 8});
    d.log.push_back({4, 0, 0});
    d.cycles += 1234;
    return completion();
  });
  dev.outputFifo.assign(12, 0);
  const RunResult r = runner.run(m->plan, {pattern(20, 0)});
  ASSERT_TRUE(r.ok()) << *r.error;
  const auto& run = r.runs.at(0);
  EXPECT_EQ(run.descriptorSource, DescriptorSource::kDeviceLog);
  ASSERT_EQ(run.descriptors.size(), 4u);
  EXPECT_EQ(run.descriptors[0].target->kind, BufferKind::Input);
  EXPECT_EQ(run.descriptors[1].target->kind, BufferKind::Parameter);
  EXPECT_EQ(run.descriptors[2].target->kind, BufferKind::Output);
  EXPECT_EQ(run.descriptors[2].target->offset, 4u);
  EXPECT_EQ(run.cycles, 1234u);
  EXPECT_EQ(r.cycles, 1234u);
  EXPECT_EQ(r.executionMode, "protocol");
  EXPECT_EQ(r.outputs[0].computed, false);
}

TEST(Runner, ATransportFailureEndsTheRunWithAnErrorAndForgetsTheCache) {
  auto m = makeModel(0x99);
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  dev.events.push_back([](FakeCoral&) { return completion(); });  // PC completes
  // EO: no completion event scripted -> the fake "times out".
  dev.outputFifo.assign(12, 0);
  const RunResult r = runner.run(m->plan, {pattern(20, 0)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->find("EP 0x82"), std::string::npos) << *r.error;
  EXPECT_FALSE(runner.cachedParameterToken().has_value());
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_FALSE(r.runs[1].completed);
}

TEST(Runner, RejectsInputsOfTheWrongSizeNamingTheTensor) {
  auto m = makeModel(0);
  FakeCoral dev;
  Runner runner(dev);
  runner.open();
  try {
    (void)runner.run(m->plan, {pattern(19, 0)});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("in:0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("19"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)runner.run(m->plan, {}), std::invalid_argument);
}

TEST(Runner, RawProgramIsServedByEventsWithStreamOffsets) {
  ModelFile model;
  model.kind = ModelKind::RawBitstream;
  model.path = "add1.coral";
  InstructionBitstream raw;
  raw.bytes = pattern(48, 3);
  model.rawBitstream = raw;
  const RunPlan plan = planRun(model);
  ASSERT_TRUE(plan.rawProgram);
  ASSERT_EQ(plan.inputs.size(), 2u);

  FakeCoral dev;
  Runner runner(dev);  // hints asked for; a raw program has none
  runner.open();
  dev.events.push_back([](FakeCoral&) { return DeviceDescriptor{1, 4, 8}; });
  dev.events.push_back([](FakeCoral& d) {
    for (uint8_t b : {9, 8, 7, 6, 5, 4, 3, 2}) d.outputFifo.push_back(b);
    return DeviceDescriptor{3, 0, 8};
  });
  dev.events.push_back([](FakeCoral&) { return completion(); });
  const std::vector<uint8_t> stream = pattern(16, 0x20);
  const RunResult r = runner.run(plan, {stream});
  ASSERT_TRUE(r.ok()) << *r.error;
  EXPECT_EQ(r.runs[0].service, ServiceMode::kEvents);
  ASSERT_EQ(dev.records.size(), 2u);
  EXPECT_EQ(dev.records[0].payload, raw.bytes);  // unlinked, as stored
  EXPECT_EQ(dev.records[1].payload, std::vector<uint8_t>(stream.begin() + 4, stream.begin() + 12));
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].bytes, (std::vector<uint8_t>{9, 8, 7, 6, 5, 4, 3, 2}));
}

}  // namespace
}  // namespace coralsim::driver::driver_runner_test
