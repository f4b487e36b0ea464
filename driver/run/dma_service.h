// The two ways the host serves one executable run (driver/run/service_mode.h). Both return once the
// completion event (tag 4) has arrived, and throw RunError / TransportError otherwise.
#pragma once

#include "driver/run/executable_run.h"

namespace coralsim::driver {

// descr_ep 0xF0: walk the DmaHints in order like libedgetpu (docs/usb-protocol.md §6.1):
//   instruction chunk k  → record(len, tag 0) + linked chunk k
//   DMA infeed           → record(size, tag 1, or 2 for parameters) + that slice of the buffer
//   DMA outfeed          → exactly `size` bytes from EP 0x81 into the output / scratch buffer
//   interrupt n          → events from EP 0x82 until one with tag 4 + n
//   fence                → nothing: every call here is already synchronous
// If no interrupt hint delivered the completion event, waits for it after the last hint.
// Requires the executable to have DmaHints.
void serveByHints(ExecutableRun& run);

// descr_ep 0xFF: send instruction chunks in the order of the instruction hints, then answer every
// event: tag 1 → send that slice of the input or scratch buffer its address names, tag 2 → the
// parameter slice, tag 3 → read `length` bytes into the output or scratch buffer, tag 4 → done.
// Chunk k+1 goes out as soon as the host has served as many input, parameter and output bytes as
// the hints list before it (the single OUT endpoint is a byte stream: sending it earlier could
// block the data the device is waiting for). Without hints every chunk is sent up front.
void serveByEvents(ExecutableRun& run);

}  // namespace coralsim::driver
