// The control-plane oracle as a library function: do the descriptors a device pushed during one
// executable run equal that executable's own DmaHints? The compiler wrote the hints; the device
// derived its descriptors by executing the scalar program, so agreement checks the simulated core
// against something coralsim did not write (docs/isa.md §3.8).
//
// Method (the same as ../shared/tools/isa/emucheck2.py): descriptors are resolved to host buffers,
// a DMA that continues the previous one on the same buffer in the same direction is merged into
// it, and the resulting list of DMAs and interrupts must equal the hints' DMA and interrupt entries
// (instruction and fence hints have no descriptor). For executables whose hints are not fully
// deterministic only the hinted prefix must match.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/model/executable.h"
#include "driver/run/run_result.h"

namespace coralsim::driver {

// One entry of the comparison: a (merged) DMA on a host buffer, or an interrupt.
struct HintedTransfer {
  bool interrupt = false;
  int interruptType = 0;
  BufferKind kind = BufferKind::Input;
  std::string name;  // layer name; empty for parameters and scratch
  int32_t batch = 0;
  bool outfeed = false;  // device to host
  uint64_t offset = 0;
  uint64_t length = 0;

  friend bool operator==(const HintedTransfer&, const HintedTransfer&) = default;
};

std::string describeTransfer(const HintedTransfer& transfer);

// The DMA and interrupt entries of an executable's hints, in order.
std::vector<HintedTransfer> transfersFromHints(const Executable& executable);

std::string_view hintVerdictName(HintCheck::Verdict verdict);  // "match", "prefix_match", ...

// Compares one run record (its descriptors resolved to host buffers) with its executable's hints.
HintCheck checkAgainstHints(const ExecutableRunRecord& run, const Executable& executable);

}  // namespace coralsim::driver
