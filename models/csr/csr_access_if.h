// CsrAccessIf: how the USB function reaches the chip's registers. The Beagle top exports it; the
// bridge (sim/usb_function.h) holds a port to it. Register accesses cost no simulated time (an EP0
// control transfer is answered at once), so both calls are non-blocking and may be made from outside
// a SystemC process while the simulation is paused.
#pragma once

#include <cstdint>

#include <systemc>

namespace coralsim::models {

class CsrAccessIf : public virtual sc_core::sc_interface {
 public:
  // `widthBits` is 32 or 64 (EP0 bRequest 1 or 0). A 32-bit access to a 64-bit register reaches
  // its low half; a 64-bit access to a 32-bit register is zero-extended (reads) or truncated
  // (writes). Unknown addresses are plain storage initialised to 0.
  virtual uint64_t read(uint32_t address, unsigned widthBits) = 0;
  virtual void write(uint32_t address, unsigned widthBits, uint64_t value) = 0;
};

}  // namespace coralsim::models
