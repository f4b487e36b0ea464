#include "models/chip/fault_unit.h"

namespace coralsim::models {

const char* faultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kScalarCore: return "scalar core fault";
    case FaultKind::kInstructionFrame: return "instruction chunk error";
    case FaultKind::kTileSequence: return "tile packet error";
    case FaultKind::kOutfeed: return "outfeed error";
    case FaultKind::kCycleLimit: return "cycle limit exceeded";
    case FaultKind::kInternal: return "internal model error";
    case FaultKind::kUnsupported: return "not modelled by the datapath rung";
  }
  return "fault";
}

FaultUnit::FaultUnit(const sc_core::sc_module_name& name, CsrBlock& csrs)
    : sc_core::sc_module(name), interrupts("interrupts"), csrs_(csrs) {}

void FaultUnit::raise(FaultKind kind, const std::string& text, uint64_t cycle) {
  const auto bit = static_cast<uint64_t>(kind);
  csrs_.setStored(csr::hib_error_status, csrs_.stored(csr::hib_error_status) | bit);
  if (csrs_.stored(csr::hib_first_error_status) == 0) {
    csrs_.setStored(csr::hib_first_error_status, bit);
    csrs_.setStored(csr::hib_first_error_timestamp, cycle);
  }
  csrs_.setStored(csr::fatal_err_int_status, 1);
  // ScalarFault texts already start with "scalar core fault at PC ...".
  text_ = kind == FaultKind::kScalarCore ? text : std::string(faultKindName(kind)) + ": " + text;
  ++count_;
  constexpr uint32_t kFatalErrorBit = 1u << 0;
  if ((csrs_.stored(csr::fatal_err_int_control) & 1u) != 0) interrupts->pushInterrupt(kFatalErrorBit);
}

}  // namespace coralsim::models
