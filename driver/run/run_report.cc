#include "driver/run/run_report.h"

#include <cstdio>

#include "driver/hex_text.h"
#include "driver/run/hint_check.h"
#include "traces/json_writer.h"

namespace coralsim::driver {
namespace {

std::string typeName(ExecutableType t) {
  return std::string(executableTypeName(t).value_or("type " + std::to_string(static_cast<int>(t))));
}

// RunTiming as a JSON object (docs/run-json.md, "timing").
void writeTimingJson(traces::JsonWriter& w, const RunTiming& t) {
  w.beginObject();
  w.field("usb_speed", t.usbSpeed);
  w.field("clock_hz", static_cast<double>(t.clock.value()));
  w.field("total_ms", t.totalTime.value() * 1e3);
  w.field("usb_ms", t.usbTime.value() * 1e3);
  w.field("compute_ms", t.computeTime.value() * 1e3);
  w.field("idle_ms", t.idleTime.value() * 1e3);
  w.field("overlap_ms", t.overlapTime.value() * 1e3);
  w.field("compute_cycles", t.computeCycles.value());
  w.field("control_transfers", t.controlTransfers);
  w.field("bulk_out_transfers", t.bulkOutTransfers);
  w.field("bulk_out_bytes", t.bulkOutBytes.value());
  w.field("bulk_in_transfers", t.bulkInTransfers);
  w.field("bulk_in_bytes", t.bulkInBytes.value());
  w.field("host_turnarounds", t.hostTurnarounds);
  w.endObject();
}

std::string bufferLabel(BufferKind kind, const std::string& name, int32_t batch) {
  std::string s(bufferKindShortName(kind).value_or("?"));
  if (!name.empty()) s += " '" + name + "'";
  if (batch != 0) s += " batch " + std::to_string(batch);
  return s;
}

std::string tagName(uint8_t tag) {
  switch (tag) {
    case 0: return "instructions";
    case 1: return "input";
    case 2: return "parameters";
    case 3: return "output";
    default: return tag <= 7 ? "interrupt " + std::to_string(tag - 4) : "tag " + std::to_string(tag);
  }
}

}  // namespace

// "1.234 ms = USB 0.500 ms + compute 0.634 ms (317,000 cycles at 500 MHz) + idle 0.100 ms"
std::string describeTiming(const RunTiming& t) {
  auto ms = [](units::Duration time) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f ms", time.value() * 1e3);
    return std::string(buffer);
  };
  return ms(t.totalTime) + " = USB " + ms(t.usbTime) + " (" + t.usbSpeed + " speed, " +
         std::to_string(t.bulkOutTransfers) + " OUT transfers / " + std::to_string(t.bulkOutBytes.value()) +
         " bytes, " + std::to_string(t.bulkInTransfers) + " IN transfers / " + std::to_string(t.bulkInBytes.value()) +
         " bytes) + compute " + ms(t.computeTime) + " (" + std::to_string(t.computeCycles.value()) + " cycles at " +
         std::to_string(static_cast<uint64_t>(static_cast<double>(t.clock.value()) / 1e6)) + " MHz) + idle " +
         ms(t.idleTime) + (t.overlapTime.value() > 0 ? " - overlap " + ms(t.overlapTime) : "");
}

std::string describeTarget(const ObservedDescriptor& d) {
  if (!d.target) return "";
  return bufferLabel(d.target->kind, d.target->name, d.target->batch) + "+" + hexText(d.target->offset);
}

void writeRunJson(const RunResult& r, const RunReportContext& c, std::ostream& out, int indent) {
  traces::JsonWriter w(out, indent);
  w.beginObject();
  w.field("coralsim_version", c.coralsimVersion);
  w.field("model", r.model);
  w.key("mode");
  if (r.executionMode) w.value(*r.executionMode);
  else w.null();
  w.field("mode_requested", c.requestedMode);
  w.field("service", serviceModeName(r.service));
  w.field("iterations", r.iterations);
  w.key("cycles");
  if (r.cycles) w.value(*r.cycles);
  else w.null();
  w.key("runs").beginArray();
  for (const ExecutableRunRecord& run : r.runs) {
    w.beginObject();
    w.field("executable", run.executable);
    w.field("type", typeName(run.type));
    w.field("parameter_caching_token", run.parameterCachingToken);
    w.field("iteration", run.iteration);
    w.field("service", serviceModeName(run.service));
    w.key("rung");
    if (run.rung) w.value(*run.rung);
    else w.null();
    if (run.rungNote) w.field("rung_note", *run.rungNote);
    if (!run.deviceNotes.empty()) {
      w.key("device_notes").beginArray();
      for (const std::string& note : run.deviceNotes) w.value(note);
      w.endArray();
    }
    if (!run.serviceNote.empty()) w.field("service_note", run.serviceNote);
    w.field("completed", run.completed);
    w.key("cycles");
    if (run.cycles) w.value(*run.cycles);
    else w.null();
    w.field("descriptor_source", descriptorSourceName(run.descriptorSource));
    w.key("descriptors").beginArray();
    for (const ObservedDescriptor& d : run.descriptors) {
      w.beginObject();
      w.field("tag", d.descriptor.tag);
      w.field("address", d.descriptor.address);
      w.field("length", d.descriptor.length);
      if (d.target) {
        w.field("buffer", bufferLabel(d.target->kind, d.target->name, d.target->batch));
        w.field("offset", d.target->offset);
      }
      w.endObject();
    }
    w.endArray();
    w.key("hints");
    if (run.hintCheck) {
      w.beginObject();
      w.field("verdict", hintVerdictName(run.hintCheck->verdict));
      w.field("pushed", run.hintCheck->pushed);
      w.field("hinted", run.hintCheck->hinted);
      if (!run.hintCheck->detail.empty()) w.field("detail", run.hintCheck->detail);
      w.endObject();
    } else {
      w.null();
    }
    w.field("instruction_bytes", run.instructionBytes);
    w.key("traffic").beginArray();
    for (const BufferTraffic& t : run.traffic) {
      w.beginObject();
      w.field("buffer", bufferLabel(t.kind, t.name, t.batch));
      w.field("sent", t.sentBytes);
      w.field("received", t.receivedBytes);
      w.endObject();
    }
    w.endArray();
    if (run.timing) {
      w.key("timing");
      writeTimingJson(w, *run.timing);
    }
    w.endObject();
  }
  w.endArray();
  w.key("skipped").beginArray();
  for (const SkippedRun& s : r.skipped) {
    w.beginObject();
    w.field("executable", s.executable);
    w.field("type", typeName(s.type));
    w.field("iteration", s.iteration);
    w.field("reason", s.reason);
    w.endObject();
  }
  w.endArray();
  w.key("outputs").beginArray();
  for (const OutputTensor& o : r.outputs) {
    w.beginObject();
    w.field("name", o.name);
    w.field("type", o.typeName);
    w.field("size", static_cast<uint64_t>(o.bytes.size()));
    w.field("tensor_size", o.tensorBytes);
    w.field("device_size", o.deviceBytes);
    w.field("sha256", o.sha256);
    w.key("computed");
    if (o.computed) w.value(*o.computed);
    else w.null();
    w.field("layout", o.deviceLayout ? "device" : "tflite");
    w.field("relaid_out", o.relaidOut);
    w.field("sign_flipped", o.signFlipped);
    w.field("undefined_bytes", o.undefinedBytes);
    w.endObject();
  }
  w.endArray();
  if (r.timing) {
    w.key("timing");
    writeTimingJson(w, *r.timing);
  }
  if (!c.hleTwins.empty()) {
    w.key("hle_twins").beginArray();
    for (const HleTwinReport& t : c.hleTwins) {
      w.beginObject();
      w.field("compiled", t.compiled);
      w.field("twin", t.twin);
      w.field("registered_by", t.registeredBy);
      w.key("bindings").beginArray();
      for (const HleTwinReport::Binding& b : t.bindings) {
        w.beginObject();
        w.field("role", b.role);
        w.field("tensor", b.tensor);
        w.field("twin_tensor", b.twinTensor);
        w.field("by", b.method);
        if (!b.note.empty()) w.field("note", b.note);
        w.endObject();
      }
      w.endArray();
      w.endObject();
    }
    w.endArray();
  }
  if (c.hleAuto) w.field("hle_auto", *c.hleAuto);
  if (r.error) w.field("error", *r.error);
  w.endObject();
}

void writeHleTwinsText(const RunReportContext& c, std::ostream& out) {
  if (c.hleAuto) out << "hle twin (--hle auto): " << *c.hleAuto << "\n";
  for (const HleTwinReport& t : c.hleTwins) {
    out << "hle twin: " << t.compiled << " = " << t.twin << " (" << t.registeredBy << ")\n";
    for (const HleTwinReport::Binding& b : t.bindings) {
      out << "  " << b.role << " '" << b.tensor << "' -> twin '" << b.twinTensor << "' (by " << b.method << ")";
      if (!b.note.empty()) out << "; note: " << b.note;
      out << "\n";
    }
  }
}

void writeRunText(const RunResult& r, const RunReportContext& c, std::ostream& out) {
  out << "model: " << r.model << "\n";
  out << "service: " << serviceModeName(r.service) << " (descr_ep " << (r.service == ServiceMode::kHints ? "0xf0" : "0xff")
      << "), execution mode: " << r.executionMode.value_or("unknown") << " (requested " << c.requestedMode << ")\n";
  writeHleTwinsText(c, out);
  for (size_t i = 0; i < r.runs.size(); ++i) {
    const ExecutableRunRecord& run = r.runs[i];
    out << "run " << i << ": " << run.executable;
    if (r.iterations > 1) out << ", iteration " << run.iteration;
    out << ", " << serviceModeName(run.service) << (run.completed ? ", completed" : ", NOT completed");
    if (run.cycles) out << ", " << *run.cycles << " cycles";
    if (run.rung) out << ", rung " << *run.rung;
    if (run.rungNote) out << " (" << *run.rungNote << ")";
    out << "\n";
    if (!run.serviceNote.empty()) out << "  note: " << run.serviceNote << "\n";
    for (const std::string& note : run.deviceNotes) out << "  device note: " << note << "\n";
    if (run.timing) out << "  predicted time: " << describeTiming(*run.timing) << "\n";
    out << "  instructions sent: " << run.instructionBytes << " bytes";
    for (const BufferTraffic& t : run.traffic) {
      out << "; " << bufferLabel(t.kind, t.name, t.batch) << ": ";
      if (t.sentBytes) out << "sent " << t.sentBytes;
      if (t.sentBytes && t.receivedBytes) out << ", ";
      if (t.receivedBytes) out << "received " << t.receivedBytes;
      if (!t.sentBytes && !t.receivedBytes) out << "none";
    }
    out << "\n  descriptors (" << descriptorSourceName(run.descriptorSource) << "): " << run.descriptors.size() << "\n";
    if (run.hintCheck) {
      out << "  descriptors vs the executable's DMA hints: " << hintVerdictName(run.hintCheck->verdict);
      if (run.hintCheck->verdict != HintCheck::Verdict::kNoHints) {
        out << " (" << run.hintCheck->pushed << " merged transfers, " << run.hintCheck->hinted << " hinted)";
      }
      if (!run.hintCheck->detail.empty()) out << ": " << run.hintCheck->detail;
      out << "\n";
    }
    for (const ObservedDescriptor& d : run.descriptors) {
      out << "    tag " << int{d.descriptor.tag} << " " << tagName(d.descriptor.tag) << "  address "
          << hexText(d.descriptor.address, 16) << "  length " << d.descriptor.length;
      if (d.target) out << "  = " << describeTarget(d);
      out << "\n";
    }
  }
  for (const SkippedRun& s : r.skipped) {
    out << "skipped: " << s.executable;
    if (r.iterations > 1) out << ", iteration " << s.iteration;
    out << ": " << s.reason << "\n";
  }
  out << "simulated cycles: ";
  if (r.cycles) out << *r.cycles << "\n";
  else out << "unknown (the transport has no simulator behind it)\n";
  if (r.timing) out << "predicted device time per inference (last iteration): " << describeTiming(*r.timing) << "\n";
  out << "outputs:\n";
  for (const OutputTensor& o : r.outputs) {
    out << "  '" << o.name << "' " << o.typeName << ": " << o.bytes.size() << " bytes";
    if (o.tensorBytes != o.bytes.size()) out << " (tensor " << o.tensorBytes << ")";
    if (o.deviceBytes != o.bytes.size()) out << " (the device wrote " << o.deviceBytes << " with padding)";
    out << ", sha256 " << o.sha256;
    if (o.computed && !*o.computed) out << "  " << c.notComputedText;
    else if (!o.computed) out << "  (the device does not say whether it was computed)";
    if (o.relaidOut) out << "  [re-laid out from the device's tile-major order]";
    if (o.deviceLayout) out << "  [device tile-major order: re-layout not applied]";
    if (o.undefinedBytes != 0) {
      out << "  UNDEFINED: " << o.undefinedBytes << " of " << o.bytes.size()
          << " bytes (computed from memory no packet wrote; their values mean nothing)";
    }
    out << "\n";
  }
  if (r.error) out << "error: " << *r.error << "\n";
}

}  // namespace coralsim::driver
