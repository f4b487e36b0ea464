#include "driver/run/hint_check.h"

#include <algorithm>
#include <sstream>

namespace coralsim::driver {
namespace {

// Only activation buffers are told apart by name and batch; parameters and scratch are one buffer.
bool namedBuffer(BufferKind kind) { return kind == BufferKind::Input || kind == BufferKind::Output; }

HintedTransfer interruptTransfer(int type) {
  HintedTransfer t;
  t.interrupt = true;
  t.interruptType = type;
  return t;
}

}  // namespace

std::string describeTransfer(const HintedTransfer& t) {
  std::ostringstream os;
  if (t.interrupt) {
    os << "interrupt " << t.interruptType;
    return os.str();
  }
  os << (t.outfeed ? "OUT " : "IN ") << bufferKindShortName(t.kind).value_or("?");
  if (!t.name.empty()) os << " '" << t.name << "'";
  if (t.batch) os << " batch " << t.batch;
  os << " [" << t.offset << ", +" << t.length << ")";
  return os.str();
}

std::vector<HintedTransfer> transfersFromHints(const Executable& executable) {
  std::vector<HintedTransfer> out;
  if (!executable.dmaHints) return out;
  for (const DmaHint& h : executable.dmaHints->hints) {
    if (h.kind == HintKind::Interrupt) {
      out.push_back(interruptTransfer(static_cast<int>(h.interrupt)));
    } else if (h.kind == HintKind::Dma && h.buffer) {
      HintedTransfer t;
      t.kind = h.buffer->kind;
      t.name = namedBuffer(t.kind) ? h.buffer->name : "";
      t.batch = namedBuffer(t.kind) ? h.buffer->batch : 0;
      t.outfeed = h.direction == DmaDirection::Outfeed;
      t.offset = static_cast<uint64_t>(h.offset);
      t.length = static_cast<uint64_t>(h.size);
      out.push_back(t);
    }
  }
  return out;
}

std::string_view hintVerdictName(HintCheck::Verdict verdict) {
  switch (verdict) {
    case HintCheck::Verdict::kMatch: return "match";
    case HintCheck::Verdict::kPrefixMatch: return "prefix_match";
    case HintCheck::Verdict::kMismatch: return "mismatch";
    case HintCheck::Verdict::kNoHints: return "no_hints";
  }
  return "?";
}

HintCheck checkAgainstHints(const ExecutableRunRecord& run, const Executable& executable) {
  HintCheck check;
  if (!executable.dmaHints) return check;

  std::vector<HintedTransfer> pushed;
  for (const ObservedDescriptor& d : run.descriptors) {
    const uint8_t tag = d.descriptor.tag;
    if (tag >= 4) {
      pushed.push_back(interruptTransfer(tag - 4));
      continue;
    }
    if (tag == 0 || !d.target) {
      check.verdict = HintCheck::Verdict::kMismatch;
      std::ostringstream os;
      os << "descriptor " << pushed.size() << " (tag " << int{tag} << ", address 0x" << std::hex
         << d.descriptor.address << std::dec << ")"
         << (tag == 0 ? ": tag 0 is never pushed by a device" : " names no host buffer");
      check.detail = os.str();
      return check;
    }
    HintedTransfer t;
    t.kind = d.target->kind;
    t.name = d.target->name;
    t.batch = d.target->batch;
    t.outfeed = tag == 3;
    t.offset = d.target->offset;
    t.length = d.descriptor.length;
    if (!pushed.empty()) {
      HintedTransfer& last = pushed.back();
      if (!last.interrupt && last.kind == t.kind && last.name == t.name && last.batch == t.batch &&
          last.outfeed == t.outfeed && last.offset + last.length == t.offset) {
        last.length += t.length;
        continue;
      }
    }
    pushed.push_back(t);
  }

  const std::vector<HintedTransfer> hinted = transfersFromHints(executable);
  check.pushed = pushed.size();
  check.hinted = hinted.size();
  const bool deterministic = executable.dmaHints->fullyDeterministic;
  const bool match = deterministic ? pushed == hinted
                                   : pushed.size() >= hinted.size() &&
                                         std::equal(hinted.begin(), hinted.end(), pushed.begin());
  if (match) {
    check.verdict = deterministic ? HintCheck::Verdict::kMatch : HintCheck::Verdict::kPrefixMatch;
    return check;
  }
  check.verdict = HintCheck::Verdict::kMismatch;
  std::ostringstream os;
  os << pushed.size() << " merged descriptors vs " << hinted.size() << " hinted transfers";
  for (size_t i = 0; i < std::max(pushed.size(), hinted.size()); ++i) {
    const std::string a = i < pushed.size() ? describeTransfer(pushed[i]) : "-";
    const std::string b = i < hinted.size() ? describeTransfer(hinted[i]) : "-";
    if (a != b) {
      os << "; first difference at " << i << ": pushed " << a << ", hinted " << b;
      break;
    }
  }
  check.detail = os.str();
  return check;
}

}  // namespace coralsim::driver
