// FaultUnit: what happens when the chip stops on a fatal error (docs/usb-protocol.md §4.3).
//
// hib_error_status gets the fault's bit (FaultKind; never 0 after a fault), hib_first_error_status
// the first one and hib_first_error_timestamp its chip cycle [choice]; fatal_err_int_status
// becomes 1 and, when fatal_err_int_control enables it, the interrupt word with bit 0 goes out on
// EP 0x83. The text (naming the PC and the word) is kept for tools: Device::lastFault().
#pragma once

#include <string>

#include <systemc>

#include "models/chip/block_interfaces.h"
#include "models/chip/chip_ports.h"
#include "models/csr/csr_block.h"

namespace coralsim::models {

class FaultUnit : public sc_core::sc_module, public FaultSinkIf {
 public:
  sc_core::sc_port<InterruptStreamIf> interrupts;

  FaultUnit(const sc_core::sc_module_name& name, CsrBlock& csrs);

  void reset() { text_.clear(); count_ = 0; }

  void raise(FaultKind kind, const std::string& text, uint64_t cycle) override;

  [[nodiscard]] const std::string& lastText() const { return text_; }
  [[nodiscard]] uint64_t count() const { return count_; }

 private:
  CsrBlock& csrs_;
  std::string text_;
  uint64_t count_ = 0;
};

}  // namespace coralsim::models
