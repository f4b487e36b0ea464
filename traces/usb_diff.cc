#include "traces/usb_diff.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>

#include "traces/json_writer.h"

namespace coralsim::traces {
namespace {

using Seq = std::vector<const UsbTransaction*>;

struct Phases {
  Seq open, run, close;
};

Phases splitPhases(const UsbLog& log) {
  const auto& ts = log.transactions;
  size_t first = ts.size();
  size_t last = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (ts[i].type != UsbTransferType::kBulk) continue;
    first = std::min(first, i);
    last = i;
  }
  Phases p;
  for (size_t i = 0; i < ts.size(); ++i) {
    Seq& into = (first == ts.size() || i < first) ? p.open : (i <= last ? p.run : p.close);
    into.push_back(&ts[i]);
  }
  return p;
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

std::string describeCsr(const UsbTransaction& t) {
  const CsrAccess& c = *t.csr;
  std::string s = t.in() ? "read " : "write ";
  s += c.name.empty() ? hex(c.address) : c.name + " (" + hex(c.address) + ")";
  if (c.width == 64) s += " [64-bit]";
  if (c.value) s += (t.in() ? " -> " : " = ") + hex(*c.value);
  return s;
}

// Longest common subsequence alignment of two sequences under `same`. Returns index pairs;
// unmatched elements have the other index empty. Falls back to position-by-position alignment
// when the table would be too large (huge sessions).
struct Pair {
  std::optional<size_t> a, b;
};

template <typename T>
std::vector<Pair> align(const std::vector<T>& a, const std::vector<T>& b, const std::function<bool(const T&, const T&)>& same) {
  const size_t n = a.size(), m = b.size();
  std::vector<Pair> out;
  if (n * m > 32'000'000) {
    for (size_t i = 0; i < std::max(n, m); ++i) {
      Pair p;
      if (i < n) p.a = i;
      if (i < m) p.b = i;
      if (p.a && p.b && !same(a[i], b[i])) {
        out.push_back(Pair{i, std::nullopt});
        out.push_back(Pair{std::nullopt, i});
      } else {
        out.push_back(p);
      }
    }
    return out;
  }
  std::vector<uint32_t> table((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint32_t& { return table[i * (m + 1) + j]; };
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      at(i, j) = same(a[i], b[j]) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same(a[i], b[j])) {
      out.push_back(Pair{i++, j++});
    } else if (j >= m || (i < n && at(i + 1, j) >= at(i, j + 1))) {
      out.push_back(Pair{i++, std::nullopt});
    } else {
      out.push_back(Pair{std::nullopt, j++});
    }
  }
  return out;
}

std::optional<double> duration(const Seq& s) {
  std::optional<double> lo, hi;
  for (const UsbTransaction* t : s) {
    if (!t->timeUs) continue;
    lo = lo ? std::min(*lo, *t->timeUs) : *t->timeUs;
    hi = hi ? std::max(*hi, *t->timeUs) : *t->timeUs;
  }
  if (!lo) return std::nullopt;
  return *hi - *lo;
}

// The run phase measured between its neighbours: from the last open transfer to the first close
// transfer. A simulated session has times on control transfers only (bulk completions carry none,
// driver/transport/recording_transport.h), and this measure is the same for a capture, so the two compare.
std::optional<double> runDuration(const Phases& p) {
  std::optional<double> end, start;
  for (const UsbTransaction* t : p.close) {
    if (t->timeUs) {
      end = *t->timeUs;
      break;
    }
  }
  for (auto it = p.open.rbegin(); it != p.open.rend(); ++it) {
    if ((*it)->timeUs) {
      start = *(*it)->timeUs;
      break;
    }
  }
  if (start && end && *end >= *start) return *end - *start;
  return duration(p.run);
}

bool isCsr(const UsbTransaction* t) { return t->type == UsbTransferType::kControl && t->csr.has_value(); }
// A non-standard control transfer whose SETUP the capture did not show (a tshark summary).
bool isUnknownVendor(const UsbTransaction* t) {
  return t->type == UsbTransferType::kControl && !t->setup && t->request.empty();
}

std::string describeControl(const UsbTransaction& t) {
  if (t.csr) return describeCsr(t);
  return std::string(t.in() ? "read" : "write") + " (vendor request, SETUP not captured)";
}

void compareCsrs(const std::string& phase, const Seq& pa, const Seq& pb, const UsbDiffOptions& options,
                 UsbDiffReport& report, UsbPhaseSummary& summary) {
  Seq a, b;
  bool blind = false;  // some vendor request of this phase has no SETUP: compare directions only
  for (const UsbTransaction* t : pa) {
    if (isCsr(t) || isUnknownVendor(t)) {
      a.push_back(t);
      blind = blind || !t->csr;
    } else if (t->type == UsbTransferType::kControl) {
      ++summary.otherControlA;
    }
  }
  for (const UsbTransaction* t : pb) {
    if (isCsr(t) || isUnknownVendor(t)) {
      b.push_back(t);
      blind = blind || !t->csr;
    } else if (t->type == UsbTransferType::kControl) {
      ++summary.otherControlB;
    }
  }
  if (blind) {
    report.notCompared.push_back("phase " + phase +
                                 ": CSR addresses and values (a capture without SETUP packets): vendor requests "
                                 "compared by direction and order only");
  }
  summary.csrA = a.size();
  summary.csrB = b.size();
  if (summary.otherControlA != summary.otherControlB) {
    report.differences.push_back(UsbDifference{phase, "control", false,
                                               "standard/class control transfers (enumeration, DFU): " +
                                                   std::to_string(summary.otherControlA) + " vs " +
                                                   std::to_string(summary.otherControlB),
                                               std::nullopt, std::nullopt});
  }
  const std::function<bool(const UsbTransaction* const&, const UsbTransaction* const&)> same =
      [blind](const UsbTransaction* const& x, const UsbTransaction* const& y) {
        if (x->in() != y->in()) return false;
        return blind || (x->csr->address == y->csr->address && x->csr->width == y->csr->width);
      };
  for (const Pair& p : align(a, b, same)) {
    if (p.a && p.b) {
      const UsbTransaction& x = *a[*p.a];
      const UsbTransaction& y = *b[*p.b];
      if (!x.csr || !y.csr || !x.csr->value || !y.csr->value || *x.csr->value == *y.csr->value) continue;
      const bool read = x.in();
      report.differences.push_back(UsbDifference{
          phase, read ? "csr-read" : "csr-value", read ? options.compareReadValues : true,
          (read ? "read value differs: " : "written value differs: ") + describeCsr(x) + " vs " + hex(*y.csr->value),
          x.seq, y.seq});
    } else if (p.a) {
      const UsbTransaction& x = *a[*p.a];
      report.differences.push_back(UsbDifference{phase, "csr", true, "only in A: " + describeControl(x), x.seq, std::nullopt});
    } else {
      const UsbTransaction& y = *b[*p.b];
      report.differences.push_back(UsbDifference{phase, "csr", true, "only in B: " + describeControl(y), std::nullopt, y.seq});
    }
  }
}

struct RecordAt {
  RecordHeader header;
  uint64_t seq;
};

std::string describeRecord(const RecordHeader& r) {
  static constexpr const char* kNames[] = {"instructions", "input", "parameters"};
  return "record tag " + std::to_string(r.tag) + (r.tag < 3 ? std::string(" (") + kNames[r.tag] + ")" : "") + ", " +
         std::to_string(r.size) + " bytes";
}

// Without record headers, the lengths of the EP 0x01 transfers still show the record structure
// (libedgetpu sends each 8-byte header on its own, then the payload in transfers of at most 1 MiB).
void compareBulkOutLengths(const UsbLog& la, const UsbLog& lb, UsbDiffReport& report) {
  struct Out {
    uint32_t length;
    uint64_t seq;
  };
  auto collect = [](const UsbLog& log, bool& inexact) {
    std::vector<Out> v;
    for (const auto& t : log.transactions) {
      if (t.type != UsbTransferType::kBulk || t.endpoint != 0x01) continue;
      if (!t.lengthExact) inexact = true;
      v.push_back({t.length, t.seq});
    }
    return v;
  };
  bool inexact = false;
  const std::vector<Out> a = collect(la, inexact);
  const std::vector<Out> b = collect(lb, inexact);
  const std::function<bool(const Out&, const Out&)> same = [](const Out& x, const Out& y) { return x.length == y.length; };
  for (const Pair& p : align(a, b, same)) {
    if (p.a && p.b) continue;
    const bool inA = p.a.has_value();
    const Out& o = inA ? a[*p.a] : b[*p.b];
    report.differences.push_back(UsbDifference{"run", "bulk-out", !inexact,
                                               std::string("only in ") + (inA ? "A" : "B") + ": bulk OUT EP 0x01 of " +
                                                   std::to_string(o.length) + " bytes",
                                               inA ? std::optional<uint64_t>(o.seq) : std::nullopt,
                                               inA ? std::nullopt : std::optional<uint64_t>(o.seq)});
  }
  if (inexact) report.notCompared.push_back("bulk OUT lengths: some are lower bounds (frames cut by the capture); differences are informational");
}

void compareRecords(const UsbLog& la, const UsbLog& lb, UsbDiffReport& report) {
  std::vector<RecordAt> a, b;
  bool lostA = false, lostB = false;
  for (const auto& t : la.transactions) {
    for (const auto& r : t.records) a.push_back({r, t.seq});
    if (t.endpoint == 0x01 && t.type == UsbTransferType::kBulk && !t.lengthExact) lostA = true;
  }
  for (const auto& t : lb.transactions) {
    for (const auto& r : t.records) b.push_back({r, t.seq});
    if (t.endpoint == 0x01 && t.type == UsbTransferType::kBulk && !t.lengthExact) lostB = true;
  }
  report.recordsA = a.size();
  report.recordsB = b.size();
  if (a.empty() || b.empty()) {
    if (!a.empty() || !b.empty()) {
      report.notCompared.push_back(std::string("records: ") + (a.empty() ? "A" : "B") +
                                   " shows no record headers (a capture without bulk data); bulk OUT transfer "
                                   "lengths compared instead");
      compareBulkOutLengths(la, lb, report);
    }
    return;
  }
  if (lostA || lostB) {
    report.notCompared.push_back(std::string("records: ") + (lostA ? "A" : "B") +
                                 " has bulk OUT transfers of unknown length; records after them may be missing");
  }
  const std::function<bool(const RecordAt&, const RecordAt&)> same = [](const RecordAt& x, const RecordAt& y) {
    return x.header == y.header;
  };
  for (const Pair& p : align(a, b, same)) {
    if (p.a && p.b) continue;
    if (p.a) {
      report.differences.push_back(UsbDifference{"run", "records", !(lostA || lostB),
                                                 "only in A: " + describeRecord(a[*p.a].header), a[*p.a].seq, std::nullopt});
    } else {
      report.differences.push_back(UsbDifference{"run", "records", !(lostA || lostB),
                                                 "only in B: " + describeRecord(b[*p.b].header), std::nullopt, b[*p.b].seq});
    }
  }
}

struct EventAt {
  EventDescriptorRecord event;
  uint64_t seq;
};

std::string describeEvent(const EventDescriptorRecord& e) {
  return "event tag " + std::to_string(e.tag) + " address " + hex(e.address) + " length " + std::to_string(e.length);
}

void compareEvents(const UsbLog& la, const UsbLog& lb, UsbDiffReport& report) {
  std::vector<EventAt> a, b;
  size_t unknownA = 0, unknownB = 0;
  for (const auto& t : la.transactions) {
    if (t.endpoint != 0x82 || t.status != "ok") continue;
    if (t.event) a.push_back({*t.event, t.seq});
    else ++unknownA;
  }
  for (const auto& t : lb.transactions) {
    if (t.endpoint != 0x82 || t.status != "ok") continue;
    if (t.event) b.push_back({*t.event, t.seq});
    else ++unknownB;
  }
  report.eventsA = a.size();
  report.eventsB = b.size();
  if ((a.empty() && unknownA > 0) || (b.empty() && unknownB > 0)) {
    report.notCompared.push_back(std::string("events: ") + (a.empty() && unknownA > 0 ? "A" : "B") +
                                 " shows EP 0x82 transfers without their data");
    return;
  }
  const std::function<bool(const EventAt&, const EventAt&)> same = [](const EventAt& x, const EventAt& y) {
    return x.event == y.event;
  };
  for (const Pair& p : align(a, b, same)) {
    if (p.a && p.b) continue;
    if (p.a) {
      report.differences.push_back(
          UsbDifference{"run", "events", true, "only in A: " + describeEvent(a[*p.a].event), a[*p.a].seq, std::nullopt});
    } else {
      report.differences.push_back(
          UsbDifference{"run", "events", true, "only in B: " + describeEvent(b[*p.b].event), std::nullopt, b[*p.b].seq});
    }
  }
}

// One output read-back: the EP 0x81 transfers between two bulk OUT transfers.
struct OutputGroup {
  uint64_t firstSeq = 0;
  uint64_t bytes = 0;
  bool exact = true;
  bool hashed = true;  // every transfer carries a hash (or is empty)
  std::vector<std::pair<uint32_t, std::string>> pieces;
};

std::vector<OutputGroup> outputGroups(const UsbLog& log) {
  std::vector<OutputGroup> groups;
  bool open = false;
  for (const auto& t : log.transactions) {
    if (t.type == UsbTransferType::kBulk && !t.in()) {
      open = false;
      continue;
    }
    if (t.endpoint != 0x81 || t.status != "ok") continue;
    // An IN transfer of inexact length is a request logged at submission (a libusb call log), or
    // a frame cut by the capture: it says nothing about what the device sent.
    if (!t.lengthExact || t.length == 0) continue;  // zero-length: a URB cancelled at close
    if (!open) {
      groups.push_back(OutputGroup{});
      groups.back().firstSeq = t.seq;
      open = true;
    }
    OutputGroup& g = groups.back();
    g.bytes += t.length;
    if (t.length != 0 && !t.sha256) g.hashed = false;
    g.pieces.emplace_back(t.length, t.sha256.value_or(""));
  }
  return groups;
}

void compareOutputs(const UsbLog& la, const UsbLog& lb, UsbDiffReport& report) {
  auto inexactOutputs = [](const UsbLog& log) {
    return std::any_of(log.transactions.begin(), log.transactions.end(),
                       [](const UsbTransaction& t) { return t.endpoint == 0x81 && !t.lengthExact; });
  };
  if (inexactOutputs(la) || inexactOutputs(lb)) {
    report.notCompared.push_back(std::string("outputs: ") + (inexactOutputs(la) ? "A" : "B") +
                                 " does not show how many bytes EP 0x81 delivered");
    return;
  }
  const std::vector<OutputGroup> a = outputGroups(la);
  const std::vector<OutputGroup> b = outputGroups(lb);
  for (const auto& g : a) report.outputBytesA += g.bytes;
  for (const auto& g : b) report.outputBytesB += g.bytes;
  if (a.size() != b.size()) {
    report.differences.push_back(UsbDifference{"run", "outputs", true,
                                               "output read-backs on EP 0x81: " + std::to_string(a.size()) + " vs " +
                                                   std::to_string(b.size()),
                                               std::nullopt, std::nullopt});
  }
  bool sizeUnknown = false, hashUnknown = false;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const OutputGroup& x = a[i];
    const OutputGroup& y = b[i];
    if (!x.exact || !y.exact) {
      sizeUnknown = true;
      continue;
    }
    if (x.bytes != y.bytes) {
      report.differences.push_back(UsbDifference{"run", "outputs", true,
                                                 "output " + std::to_string(i) + ": " + std::to_string(x.bytes) + " vs " +
                                                     std::to_string(y.bytes) + " bytes",
                                                 x.firstSeq, y.firstSeq});
      continue;
    }
    if (!x.hashed || !y.hashed || x.pieces.size() != y.pieces.size()) {
      hashUnknown = true;
      continue;
    }
    bool same = true;
    for (size_t k = 0; k < x.pieces.size() && same; ++k) same = x.pieces[k] == y.pieces[k];
    if (!same) {
      report.differences.push_back(UsbDifference{"run", "outputs", true,
                                                 "output " + std::to_string(i) + ": same size (" + std::to_string(x.bytes) +
                                                     " bytes), different bytes (SHA-256 differs)",
                                                 x.firstSeq, y.firstSeq});
    }
  }
  if (sizeUnknown) report.notCompared.push_back("outputs: sizes not known exactly on one side");
  if (hashUnknown) {
    report.notCompared.push_back("outputs: bytes not compared (one side did not see all of them, or the transfers are split differently)");
  }
}

}  // namespace

size_t UsbDiffReport::relevantCount() const {
  return static_cast<size_t>(std::count_if(differences.begin(), differences.end(),
                                           [](const UsbDifference& d) { return d.relevant; }));
}

UsbDiffReport diffUsbLogs(const UsbLog& a, const UsbLog& b, const UsbDiffOptions& options) {
  UsbDiffReport report;
  const Phases pa = splitPhases(a);
  const Phases pb = splitPhases(b);
  auto wanted = [&](const std::string& phase) {
    return options.phases.empty() || std::find(options.phases.begin(), options.phases.end(), phase) != options.phases.end();
  };
  const std::pair<std::string, std::pair<const Seq*, const Seq*>> phases[] = {
      {"open", {&pa.open, &pb.open}}, {"run", {&pa.run, &pb.run}}, {"close", {&pa.close, &pb.close}}};
  for (const auto& [name, seqs] : phases) {
    if (!wanted(name)) continue;
    UsbPhaseSummary summary;
    summary.name = name;
    if (seqs.first->empty() != seqs.second->empty()) {
      report.notCompared.push_back("phase " + name + ": " + (seqs.first->empty() ? "A" : "B") +
                                   " has no transactions in it (a capture that starts later or ends earlier)");
      report.phases.push_back(summary);
      continue;
    }
    compareCsrs(name, *seqs.first, *seqs.second, options, report, summary);
    summary.durationUsA = name == "run" ? runDuration(pa) : duration(*seqs.first);
    summary.durationUsB = name == "run" ? runDuration(pb) : duration(*seqs.second);
    report.phases.push_back(summary);
  }
  if (wanted("run")) {
    compareRecords(a, b, report);
    compareEvents(a, b, report);
    compareOutputs(a, b, report);
  }
  return report;
}

namespace {
std::string ratio(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return "n/a";
  if (*a <= 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", *b / *a);
  return buf;
}
std::string micros(const std::optional<double>& v) {
  if (!v) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f us", *v);
  return buf;
}
}  // namespace

void writeUsbDiffText(const UsbDiffReport& report, const UsbLog& a, const UsbLog& b, std::ostream& out) {
  out << "A: " << a.source << " (" << a.origin << ", " << a.transactions.size() << " transactions)\n";
  out << "B: " << b.source << " (" << b.origin << ", " << b.transactions.size() << " transactions)\n";
  for (const UsbPhaseSummary& p : report.phases) {
    out << "phase " << p.name << ": CSR accesses " << p.csrA << " vs " << p.csrB << ", other control " << p.otherControlA
        << " vs " << p.otherControlB << ", duration " << micros(p.durationUsA) << " vs " << micros(p.durationUsB)
        << " (B/A " << ratio(p.durationUsA, p.durationUsB) << ")\n";
  }
  out << "records " << report.recordsA << " vs " << report.recordsB << ", events " << report.eventsA << " vs "
      << report.eventsB << ", output bytes " << report.outputBytesA << " vs " << report.outputBytesB << '\n';
  for (const std::string& n : report.notCompared) out << "not compared: " << n << '\n';
  for (const UsbDifference& d : report.differences) {
    out << (d.relevant ? "DIFF " : "info ") << d.phase << ' ' << d.category << ": " << d.what;
    if (d.seqA || d.seqB) {
      out << " [A#" << (d.seqA ? std::to_string(*d.seqA) : "-") << " B#" << (d.seqB ? std::to_string(*d.seqB) : "-") << ']';
    }
    out << '\n';
  }
  out << (report.hasRelevant() ? std::to_string(report.relevantCount()) + " protocol-relevant difference(s)\n"
                               : std::string("no protocol-relevant difference\n"));
}

void writeUsbDiffJson(const UsbDiffReport& report, const UsbLog& a, const UsbLog& b, std::ostream& out, int indent) {
  JsonWriter w(out, indent);
  w.beginObject();
  w.key("a").beginObject().field("source", a.source).field("origin", a.origin).field("transactions", a.transactions.size()).endObject();
  w.key("b").beginObject().field("source", b.source).field("origin", b.origin).field("transactions", b.transactions.size()).endObject();
  w.key("phases").beginArray();
  for (const UsbPhaseSummary& p : report.phases) {
    w.beginObject().field("name", p.name).field("csr_a", p.csrA).field("csr_b", p.csrB);
    w.field("other_control_a", p.otherControlA).field("other_control_b", p.otherControlB);
    w.key("duration_us_a");
    if (p.durationUsA) w.value(*p.durationUsA); else w.null();
    w.key("duration_us_b");
    if (p.durationUsB) w.value(*p.durationUsB); else w.null();
    w.key("duration_ratio_b_over_a");
    if (p.durationUsA && p.durationUsB && *p.durationUsA > 0) w.value(*p.durationUsB / *p.durationUsA); else w.null();
    w.endObject();
  }
  w.endArray();
  w.field("records_a", report.recordsA).field("records_b", report.recordsB);
  w.field("events_a", report.eventsA).field("events_b", report.eventsB);
  w.field("output_bytes_a", report.outputBytesA).field("output_bytes_b", report.outputBytesB);
  w.key("not_compared").beginArray();
  for (const std::string& n : report.notCompared) w.value(n);
  w.endArray();
  w.key("differences").beginArray();
  for (const UsbDifference& d : report.differences) {
    w.beginObject().field("phase", d.phase).field("category", d.category).field("relevant", d.relevant).field("what", d.what);
    if (d.seqA) w.field("seq_a", *d.seqA);
    if (d.seqB) w.field("seq_b", *d.seqB);
    w.endObject();
  }
  w.endArray();
  w.field("relevant_differences", report.relevantCount());
  w.endObject();
}

}  // namespace coralsim::traces
