// What `coralsim run` and `coralsim-usb run` share around a Runner: their common arguments
// (MODEL, --pretty, --service, --iterations), reading the --input files (or --random SEED) against
// the model's input list, and writing the outputs of --output. Errors name
// the file and, for size mismatches, the input and its expected size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/run/run_plan.h"
#include "driver/run/run_result.h"
#include "driver/run/runner.h"
#include "sim/cli/args.h"

namespace coralsim::cli {

std::vector<uint8_t> readBinaryFile(const std::string& path);
void writeBinaryFile(const std::string& path, const std::vector<uint8_t>& bytes);

// The model's inputs, one per line, for error messages.
std::string describeInputs(const driver::RunPlan& plan);

// The inputs `--input FILE ...` / `--random SEED` name (zeros when neither is given).
std::vector<std::vector<uint8_t>> gatherInputs(const Args& args, const driver::RunPlan& plan);

// `--output FILE`: one output → FILE; several → FILE.0, FILE.1, ...
void writeOutputs(const std::string& path, const driver::RunResult& result);

// The argument checks both `run` commands make first: exactly one MODEL or PROGRAM, --pretty only
// with --json.
void checkRunArguments(const Args& args);

// --service hints|events (default hints): the RunnerOptions both `run` commands start from.
[[nodiscard]] driver::RunnerOptions runnerOptionsFrom(const Args& args);

// --iterations N: 1..1000000, default 1.
[[nodiscard]] uint64_t iterationsFrom(const Args& args);

}  // namespace coralsim::cli
