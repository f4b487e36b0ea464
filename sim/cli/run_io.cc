#include "sim/cli/run_io.h"

#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "driver/run/random_inputs.h"

namespace coralsim::cli {

std::vector<uint8_t> readBinaryFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open input file");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBinaryFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot create output file");
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error(path + ": write failed");
}

std::string describeInputs(const driver::RunPlan& plan) {
  std::ostringstream os;
  for (size_t i = 0; i < plan.inputs.size(); ++i) {
    const auto& s = plan.inputs[i];
    os << "\n  " << i << ": '" << s.name << "' " << s.typeName;
    if (s.sizeBytes) os << ", " << s.sizeBytes << " bytes";
    if (s.optional) os << " (optional)";
  }
  return os.str();
}

std::vector<std::vector<uint8_t>> gatherInputs(const Args& args, const driver::RunPlan& plan) {
  const std::vector<std::string> files = args.values("--input");
  if (!files.empty() && args.has("--random")) throw UsageError("--input and --random exclude each other");
  if (args.has("--random")) return driver::randomInputs(plan, *args.number("--random"));
  std::vector<std::vector<uint8_t>> inputs;
  if (files.empty()) {
    for (const auto& s : plan.inputs) {
      if (!s.optional) inputs.emplace_back(s.sizeBytes, 0);
    }
    return inputs;
  }
  const auto countError = [&] {
    return std::runtime_error(plan.model + ": " + std::to_string(files.size()) + " --input files for " +
                              std::to_string(plan.inputs.size()) + " inputs:" + describeInputs(plan));
  };
  if (files.size() > plan.inputs.size()) throw countError();
  for (size_t i = 0; i < files.size(); ++i) {
    std::vector<uint8_t> bytes = readBinaryFile(files[i]);
    const auto& spec = plan.inputs[i];
    if (spec.sizeBytes != 0 && bytes.size() != spec.sizeBytes && bytes.size() != spec.deviceBytes) {
      throw std::runtime_error(files[i] + ": " + std::to_string(bytes.size()) + " bytes, but input " + std::to_string(i) +
                               " '" + spec.name + "' of " + plan.model + " is " + std::to_string(spec.sizeBytes) +
                               " bytes (" + spec.typeName + ")");
    }
    inputs.push_back(std::move(bytes));
  }
  for (size_t i = files.size(); i < plan.inputs.size(); ++i) {
    if (!plan.inputs[i].optional) throw countError();
  }
  return inputs;
}

void writeOutputs(const std::string& path, const driver::RunResult& result) {
  if (result.outputs.size() == 1) {
    writeBinaryFile(path, result.outputs[0].bytes);
    return;
  }
  for (size_t i = 0; i < result.outputs.size(); ++i) {
    writeBinaryFile(path + "." + std::to_string(i), result.outputs[i].bytes);
  }
}

void checkRunArguments(const Args& args) {
  (void)args.onlyFile("MODEL or PROGRAM");
  args.requireJsonForPretty();
}

driver::RunnerOptions runnerOptionsFrom(const Args& args) {
  driver::RunnerOptions options;
  const std::string service = args.value("--service").value_or("hints");
  if (!driver::parseServiceMode(service, options.service)) {
    throw UsageError("--service expects hints or events, got '" + service + "'");
  }
  return options;
}

uint64_t iterationsFrom(const Args& args) {
  const uint64_t iterations = args.number("--iterations").value_or(1);
  if (iterations == 0 || iterations > 1'000'000) throw UsageError("--iterations expects 1..1000000");
  return iterations;
}

}  // namespace coralsim::cli
