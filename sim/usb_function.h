// UsbFunction: the device side of the USB link — the one USB function model in front of the
// Beagle chip (docs/ARCHITECTURE.md §1; the USB/IP server and the in-process Device drive it).
//
//   EP0   standard and class requests through the UsbPersonality (sim/usb_personality.h): the
//         descriptors of the personality in effect (runtime 18d1:9302 or DFU bootloader 1a6e:089a),
//         the DFU engine in the bootloader, DFU_DETACH in the runtime; the switch between them when
//         the host re-enumerates (docs/usb-protocol.md §1.5, §10.5 item 7), which also flushes the
//         bridge like a bus reset. Vendor CSR requests in the runtime personality exactly as §2:
//         0xC0 read / 0x40 write, bRequest 0 = 64-bit, 1 = 32-bit, address = wIndex << 16 | wValue,
//         little-endian data of exactly wLength bytes, never a STALL. The bootloader has no CSRs
//         and no endpoints: vendor requests and every bulk/interrupt URB are STALLed there.
//   0x01  bulk OUT: a byte stream of records [u32 LE length][tag & 0xF][3 bytes] + payload, parsed
//         independently of transfer boundaries (a header may arrive one byte at a time, or together
//         with payload and further records). Tag 0 → instruction queue, 1 → input infeed,
//         2 → parameter infeed, 3..15 consumed and discarded. An OUT URB completes when all its
//         bytes were accepted; a full chip buffer keeps it pending (backpressure, never an error).
//   0x81  outputs: each outfeed DMA is cut into chunks of outfeed_chunk_length × 8 bytes; an IN
//         URB completes when it is full or at the end of a chunk that is not a multiple of the max
//         packet size (a short packet), never with more than its length (§4.1).
//   0x82  one 16-byte event per URB {u64 address, u32 length, tag}, for descriptors whose tag is
//         enabled in descr_ep (0x4C148; tag 0 never) (§4.2).
//   0x83  4-byte interrupt words (bit 0 fatal error); silent in normal operation (§4.3).
// Time: the function keeps the device clock (sim/device_clock.h) — every bulk record, output DMA
// and event is charged its USB link time there, to the executable run it belongs to (read from the
// chip through ChipClockIf), and every completion it produces carries its simulated instant
// (usb::UrbResult::simulated): OUT transfers when their last byte was accepted, IN transfers when
// their last byte crossed the link, control transfers when answered.
// Queued events, outputs, interrupts and the parser state are flushed on a chip reset (GCB reset,
// gcbb_credit0 pulse) and on a bus reset; events and outputs are otherwise kept until read.
//
// Threading: every method runs on the simulation kernel's thread — the host-side ones while the
// simulation is paused (sim/simulation_kernel.h) — except urbArbiter(), which any thread may use:
// a host withdraws a URB there at once (sim/urb_arbiter.h); the function drops withdrawn URBs
// from its queues when it reaches them and claims each URB as it completes it. Completions are collected, not
// called: the kernel delivers them after sc_start() returns.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include <systemc>

#include "models/chip/chip_ports.h"
#include "models/csr/csr_access_if.h"
#include "sim/device_clock.h"
#include "sim/urb_arbiter.h"
#include "sim/usb_descriptors.h"
#include "sim/usb_personality.h"
#include "usb/event_packet.h"
#include "usb/interrupt_packet.h"
#include "usb/record_header.h"
#include "usb/usb_types.h"

namespace coralsim::sim {

class UsbFunction : public sc_core::sc_module,
                    public models::OutputStreamIf,
                    public models::EventStreamIf,
                    public models::InterruptStreamIf,
                    public models::BridgeResetIf {
 public:
  SC_HAS_PROCESS(UsbFunction);

  sc_core::sc_port<models::CsrAccessIf> csr;
  sc_core::sc_port<models::ByteSinkIf> instructionSink;  // tag 0
  sc_core::sc_port<models::ByteSinkIf> inputSink;        // tag 1
  sc_core::sc_port<models::ByteSinkIf> parameterSink;    // tag 2
  sc_core::sc_port<models::ChipClockIf> chipClock;       // cycles and run boundaries

  using Completion = std::function<void(usb::UrbResult)>;
  struct CompletedUrb {
    Completion done;
    usb::UrbResult result;
  };

  // Bounds on host-controlled sizes (simulator limits, not hardware facts; docs/sanitizers.md
  // lists every bound of the host-facing code). libedgetpu reads at most 1 MiB per IN transfer and
  // keeps a handful of URBs per endpoint; the largest corpus instruction chunk is far below 64 MiB.
  //  - an IN URB longer than kMaxInUrbBytes completes at once with kInvalid (its length would
  //    otherwise size the buffer gathered for it);
  //  - a URB beyond kMaxPendingUrbsPerEndpoint still pending on its endpoint completes at once
  //    with kInvalid;
  //  - an instruction record (tag 0) announcing more than kMaxInstructionRecordBytes is consumed
  //    and discarded (so the record stream stays in step) instead of being buffered whole for the
  //    scalar core; the chip raises the fatal-error interrupt (EP 0x83, when
  //    fatal_err_int_control enables it) and rejectedInstructionRecords() counts it.
  static constexpr uint32_t kMaxInUrbBytes = 64u << 20;
  static constexpr size_t kMaxPendingUrbsPerEndpoint = 4096;
  static constexpr uint32_t kMaxInstructionRecordBytes = 64u << 20;

  explicit UsbFunction(const sc_core::sc_module_name& name);

  // Link configuration, power-on personality and the device clock (the link model of `speed`, the
  // chip clock `clock`), applied when a Device leases the slot.
  void configure(usb::UsbSpeed speed, bool zlpAfterAlignedTail, usb::CoralPersonality initial, units::Frequency clock);
  [[nodiscard]] usb::UsbSpeed speed() const { return speed_; }
  [[nodiscard]] const UsbPersonality& personality() const { return personality_; }
  // The device clock: device time now, and what each executable run was charged.
  [[nodiscard]] const DeviceClock& deviceClock() const { return clock_; }
  [[nodiscard]] usb::SimulatedInstant now() const { return clock_.now(chipClock->cycles()); }

  // ---- host side (simulation paused) ----
  usb::UrbResult control(const usb::ControlSetup& setup, std::span<const uint8_t> outData);
  void submitOut(uint64_t id, uint8_t endpoint, std::vector<uint8_t> data, Completion done);
  void submitIn(uint64_t id, uint8_t endpoint, uint32_t length, Completion done);
  // Removes a pending URB without completing it. False when it is not pending here.
  bool cancel(uint64_t id);
  // Where hosts announce and withdraw URBs without waiting for the kernel thread (thread-safe).
  [[nodiscard]] UrbArbiter& urbArbiter() { return arbiter_; }
  // Bus reset: every pending URB completes with kShutdown, the bridge is flushed; CSRs stay. A
  // personality switch armed by a DFU download or DFU_DETACH takes effect.
  void busReset();
  // End of a lease: forgets every pending URB without completing it, flushes the bridge.
  void detach();
  // Queues a completion for a URB that never reached this function (bus reset of a submission
  // the kernel had not applied yet).
  void queueCompletion(uint64_t id, Completion done, usb::UrbResult result) {
    complete(id, std::move(done), std::move(result));
  }
  // Completions produced since the last call, in order.
  [[nodiscard]] std::vector<CompletedUrb> takeCompletions();
  [[nodiscard]] size_t pendingUrbCount() const;
  // Instruction records refused for announcing more than kMaxInstructionRecordBytes.
  [[nodiscard]] uint64_t rejectedInstructionRecords() const { return rejectedInstructionRecords_; }

  // ---- chip side ----
  void pushOutput(models::OutputDma dma) override;
  void pushEvent(const models::Descriptor& descriptor) override;
  void pushInterrupt(uint32_t bits) override;
  void flushBridge() override;

 private:
  struct OutUrb {
    uint64_t id = 0;
    std::vector<uint8_t> data;
    size_t consumed = 0;
    Completion done;
  };
  struct InUrb {
    uint64_t id = 0;
    uint32_t length = 0;
    std::vector<uint8_t> data;  // EP 0x81: bytes gathered so far
    Completion done;
  };
  // One outfeed DMA on its way to EP 0x81, cut into outfeed_chunk_length pieces as it is read
  // (a chunk that does not fill its last packet ends the IN transfer with a short packet). Its
  // not-computed zero tail is produced only as the host reads it (see models::OutputDma).
  struct PendingOutput {
    models::OutputDma dma;
    uint64_t chunkBytes = 0;  // outfeed_chunk_length in bytes when the DMA left the chip
    uint64_t sent = 0;        // bytes handed to IN URBs so far
    DeviceClock::OutputStart start;  // where the DMA starts on the link (stamps of its URBs)
  };
  struct QueuedEvent {
    std::array<uint8_t, usb::kEventPacketBytes> packet;
    usb::SimulatedInstant at;  // when it crossed the link
  };

  void outPump();  // SC_THREAD: the record parser
  [[nodiscard]] models::ByteSinkIf* sinkForTag(uint8_t tag);
  // The executable run a transfer happening now belongs to: the one in progress, else the next.
  [[nodiscard]] uint64_t chargedRun() const;
  void resetParser();
  // Queues the completion of URB `id` unless a host withdrew it (then it is dropped unseen).
  void complete(uint64_t id, Completion done, usb::UrbResult result);
  // Drops the withdrawn URBs at the front of `queue`; true when a live URB is left in front.
  bool dropWithdrawnFront(std::deque<InUrb>& queue);
  void serviceOutputs();
  void serviceEvents();
  void serviceInterrupts();
  [[nodiscard]] std::deque<InUrb>* inQueue(uint8_t endpoint);
  usb::UrbResult answerControl(const usb::ControlSetup& setup, std::span<const uint8_t> outData);
  usb::UrbResult csrRequest(const usb::ControlSetup& setup, std::span<const uint8_t> outData);
  // The bridge side of a bus reset: pending URBs given back with kShutdown, queues flushed.
  void resetBridge();

  usb::UsbSpeed speed_ = usb::UsbSpeed::kSuper;
  bool zlpAfterAlignedTail_ = false;
  UsbPersonality personality_;

  // EP 0x01 record parser.
  std::deque<OutUrb> outUrbs_;
  std::array<uint8_t, usb::kRecordHeaderBytes> header_{};
  size_t headerFill_ = 0;
  uint64_t payloadLeft_ = 0;
  uint8_t recordTag_ = 0;
  bool discardRecord_ = false;  // the current record is consumed without reaching the chip
  uint64_t rejectedInstructionRecords_ = 0;
  sc_core::sc_event outWork_;

  std::deque<InUrb> outputUrbs_;     // EP 0x81
  std::deque<InUrb> eventUrbs_;      // EP 0x82
  std::deque<InUrb> interruptUrbs_;  // EP 0x83
  std::deque<PendingOutput> outputs_;
  std::deque<QueuedEvent> events_;
  std::deque<uint32_t> interrupts_;

  std::vector<CompletedUrb> completions_;
  DeviceClock clock_;
  UrbArbiter arbiter_;
};

}  // namespace coralsim::sim
