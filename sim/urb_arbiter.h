// UrbArbiter: the one place where the host withdrawing a bulk/interrupt URB and the device taking
// it are decided, without the simulation kernel's thread.
//
// Why: a cancel used to be a job on the kernel thread, so the caller (the USB/IP connection
// answering USBIP_CMD_UNLINK, the in-process transport after a timeout) waited until the running
// simulation slice returned — for the whole of a long datapath computation. A real device's host
// controller answers an unlink at once. With the arbiter, `withdraw` answers immediately and
// exactly: true when the device has not completed the URB yet (its completion will then never
// run, and the device drops it from its queue when it comes to it, so no later output byte or
// event goes into a URB nobody waits for), false when the device completed it (the completion is
// on its way).
//
// Protocol (every call thread-safe):
//   host    expect(id)    when the URB is submitted, before the kernel sees it;
//           withdraw(id)  on cancel: true iff it was expected and not yet claimed;
//   device  withdrawn(id) before taking more bytes for a queued URB: a withdrawn one is dropped
//                         from its queue (bytes it already took stay taken, as on a host
//                         controller that stops a transfer part-way);
//           claim(id)     when completing it: false iff it was withdrawn (the completion is then
//                         dropped); ids never expected (URBs handed to the USB function directly)
//                         are always claimable;
//           forget(id)    once the withdrawn URB has left the device's queues;
//           clear()       at the end of a lease.
// An id leaves the table when it is claimed or forgotten, so the table holds at most the URBs in
// flight.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace coralsim::sim {

class UrbArbiter {
 public:
  void expect(uint64_t id);
  [[nodiscard]] bool withdraw(uint64_t id);
  [[nodiscard]] bool withdrawn(uint64_t id) const;
  [[nodiscard]] bool claim(uint64_t id);
  void forget(uint64_t id);
  void clear();
  [[nodiscard]] size_t trackedCount() const;

 private:
  enum class State : uint8_t { kExpected, kWithdrawn };
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, State> states_;
};

}  // namespace coralsim::sim
