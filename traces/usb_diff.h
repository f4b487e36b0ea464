// Comparison of two USB transaction logs (traces/usb_log.h) for `coralsim trace-diff`: a real
// capture against a simulated session, or two simulated sessions.
//
// Each log is split into phases by its bulk traffic: "open" (control transfers before the first
// bulk transfer), "run" (from the first to the last bulk transfer) and "close" (after it). Within a
// phase the CSR accesses are aligned by a longest common subsequence on (direction, register,
// width), so one extra or missing access shows as one difference, not as a shifted tail.
//
// Protocol-relevant (exit status 1): a CSR access present on one side only; a different written
// value; a different record sequence (tag, size) on EP 0x01; different event descriptors on EP
// 0x82; different output sizes or hashes on EP 0x81 (when both sides know them). Informational
// only: values READ back (a real chip's status bits and counters are not the simulator's; opt in
// with compareReadValues), standard and class control transfers (enumeration, DFU), timing.
// A comparison one side cannot support (a capture without data) is reported as "not compared".
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "traces/usb_log.h"

namespace coralsim::traces {

struct UsbDiffOptions {
  bool compareReadValues = false;
  // Phases to compare; empty = all of open, run, close.
  std::vector<std::string> phases;
};

struct UsbDifference {
  std::string phase;     // "open", "run", "close", "session"
  std::string category;  // "csr", "csr-value", "csr-read", "records", "events", "outputs", "control", "timing"
  bool relevant = true;
  std::string what;
  std::optional<uint64_t> seqA, seqB;  // the transactions concerned
};

struct UsbPhaseSummary {
  std::string name;
  size_t csrA = 0, csrB = 0;          // CSR accesses
  size_t otherControlA = 0, otherControlB = 0;
  // First to last transaction of the phase; for "run", from the last open transfer to the first
  // close transfer (simulated sessions time their control transfers only).
  std::optional<double> durationUsA, durationUsB;
};

struct UsbDiffReport {
  std::vector<UsbPhaseSummary> phases;
  size_t recordsA = 0, recordsB = 0;
  size_t eventsA = 0, eventsB = 0;
  size_t outputBytesA = 0, outputBytesB = 0;
  std::vector<std::string> notCompared;  // comparisons one side cannot support, with the reason
  std::vector<UsbDifference> differences;

  [[nodiscard]] size_t relevantCount() const;
  [[nodiscard]] bool hasRelevant() const { return relevantCount() != 0; }
};

UsbDiffReport diffUsbLogs(const UsbLog& a, const UsbLog& b, const UsbDiffOptions& options = {});

void writeUsbDiffText(const UsbDiffReport& report, const UsbLog& a, const UsbLog& b, std::ostream& out);
void writeUsbDiffJson(const UsbDiffReport& report, const UsbLog& a, const UsbLog& b, std::ostream& out, int indent);

}  // namespace coralsim::traces
