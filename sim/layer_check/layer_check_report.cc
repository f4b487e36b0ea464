#include "sim/layer_check/layer_check_report.h"

#include <cstdio>
#include <string>

#include "traces/json_writer.h"

namespace coralsim::sim {
namespace {

std::string shapeText(const std::vector<int32_t>& shape) {
  if (shape.empty()) return "-";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

std::string coordinatesText(const std::vector<int32_t>& c) {
  std::string s = "[";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
  return s + "]";
}

std::string byteText(uint8_t b) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%02x (%u)", b, b);
  return text;
}

std::string describeDifference(const LayerCheckRow& row) {
  const LaneDifference& d = *row.comparison.first;
  char pc[16];
  std::snprintf(pc, sizeof pc, "0x%04x", d.pc);
  return "layer " + std::to_string(row.layer.index) + " " + row.layer.op + ", tensor " + std::to_string(row.tensor.index) +
         " '" + row.tensor.name + "' element " + std::to_string(d.element) + " " + coordinatesText(d.coordinates) +
         ": lle " + byteText(d.lle) + ", twin " + byteText(d.twin) + " (device encoding" +
         (row.tensor.int8 ? ": int8 XOR 0x80" : "") + "); compute packet " + std::to_string(d.packet) + " at PC " + pc +
         ", tile " + std::to_string(d.tile) + ", lane " + std::to_string(d.lane) + ", narrow address " +
         std::to_string(d.narrowAddress) + "; " + std::to_string(row.comparison.differing) + " of " +
         std::to_string(row.comparison.compared) + " compared elements differ (" +
         std::to_string(row.comparison.beyondTolerance) + " beyond the tolerance), max |d| " +
         std::to_string(row.comparison.maxAbsDiff);
}

}  // namespace

void writeLayerCheckText(std::ostream& out, const LayerCheckReport& r) {
  out << "check-layers of " << r.model << ": the lle rung's tile memory against the CPU twin's tensors\n";
  out << "CPU twin: " << r.twin << " (" << r.twinNote << "); lle rounding " << r.rounding << ", tolerance "
      << r.tolerance << " LSB\n";
  if (r.lleCompleted) {
    out << "lle: ran fully, " << r.lleComputePackets << " of the inference's " << r.computePackets
        << " compute packets\n";
  } else {
    out << "lle: stopped after " << r.lleComputePackets << " of the inference's " << r.computePackets
        << " compute packets";
    if (r.stoppedAt) {
      const LayerCheckRow& row = r.rows[*r.stoppedAt];
      out << ", in or before layer " << row.layer.index << " " << row.layer.op << " (its compute packet "
          << r.lleComputePackets << " was not executed)";
    }
    out << ": " << r.refusal << "\n";
  }
  out << "mapping: compute packets to layers by cumulative MAC work (as `coralsim profile`); lanes laid on the\n"
         "layer's first output: one-position packets as channel slices, tiles ascending; several-position packets\n"
         "through the executable's OutputLayout; identity copies (input staging) not compared\n"
         "(sim/layer_check/lane_layout.h); pass-through computes (no clamp, multiplier 1) off the MAC axis, given to the\n"
         "layer after them, not compared (sim/profile/layer_mapping.h)\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%4s %-18s %-40s %-12s %-9s %-11s %s\n", "#", "op", "output tensor", "shape",
                "packets", "compared", "verdict");
  out << line;
  for (const LayerCheckRow& row : r.rows) {
    const std::string tensor = "#" + std::to_string(row.tensor.index) + " " + row.tensor.name;
    const std::string packets =
        row.packets.empty() ? "-" : std::to_string(row.packetsRun) + "/" + std::to_string(row.packets.size());
    const std::string compared = row.packetsRun == 0 ? "-"
                                                     : std::to_string(row.comparison.compared) + "/" +
                                                           std::to_string(row.comparison.elements);
    std::string verdict = layerVerdictName(row.verdict);
    if (row.comparison.differing > 0) {
      verdict += " (" + std::to_string(row.comparison.differing) + " differ, max |d| " +
                 std::to_string(row.comparison.maxAbsDiff) + ")";
    }
    if (row.comparison.slicesBeyond > 0 && !row.comparison.unplacedWhy.empty()) verdict += " (" + row.comparison.unplacedWhy + ")";
    if (row.comparison.unplaced > 0) {
      verdict += " (" + std::to_string(row.comparison.unplaced) + " positions unplaced" +
                 (row.comparison.unplacedWhy.empty() ? "" : ": " + row.comparison.unplacedWhy) + ")";
    }
    if (row.comparison.undefinedPositions > 0) verdict += " [" + std::to_string(row.comparison.undefinedPositions) + " positions undefined]";
    if (row.comparison.gridAgrees + row.comparison.gridDisagrees > 0) {
      verdict += " [tile grid: " + std::to_string(row.comparison.gridAgrees) + " positions where the OutputLayout puts them, " +
                 std::to_string(row.comparison.gridDisagrees) + " elsewhere]";
    }
    if (row.comparison.gridPlaced > 0) verdict += " [" + std::to_string(row.comparison.gridPlaced) + " positions by the tile grid]";
    if (row.mapping == "uncertain") verdict += " [mapping uncertain]";
    std::snprintf(line, sizeof line, "%4zu %-18s %-40.40s %-12s %-9s %-11s %s\n", row.layer.index, row.layer.op.c_str(),
                  tensor.c_str(), shapeText(row.tensor.shape).c_str(), packets.c_str(), compared.c_str(),
                  verdict.c_str());
    out << line;
  }
  out << "\n";
  if (r.firstDiffering) {
    out << "first difference: " << describeDifference(r.rows[*r.firstDiffering]) << "\n";
    out << "result: MISMATCH\n";
    return;
  }
  size_t matched = 0, notReached = 0;
  for (const LayerCheckRow& row : r.rows) {
    matched += row.verdict == LayerVerdict::kMatched || row.verdict == LayerVerdict::kPartlyComputed ||
                       row.verdict == LayerVerdict::kWithinTolerance
                   ? 1
                   : 0;
    notReached += row.verdict == LayerVerdict::kNotReached ? 1 : 0;
    if (row.comparison.first) out << "difference within the tolerance: " << describeDifference(row) << "\n";
  }
  out << "result: no difference in " << matched << " layer(s) the lle rung computed";
  if (notReached > 0) out << "; " << notReached << " layer(s) not reached";
  out << "\n";
}

void writeLayerCheckJson(std::ostream& out, const LayerCheckReport& r, int indent) {
  traces::JsonWriter w(out, indent);
  w.beginObject();
  w.field("model", r.model).field("twin", r.twin).field("twin_note", r.twinNote).field("rounding", r.rounding);
  w.field("tolerance", r.tolerance);
  w.field("compute_packets", static_cast<uint64_t>(r.computePackets));
  w.field("lle_compute_packets", static_cast<uint64_t>(r.lleComputePackets));
  w.field("lle_completed", r.lleCompleted);
  if (r.lleCompleted) {
    w.key("stop").null().key("refusal").null();
  } else {
    w.field("stop", r.stop).field("refusal", r.refusal);
  }
  w.field("mismatch", r.mismatch());
  if (r.firstDiffering) {
    w.field("first_differing_layer", static_cast<uint64_t>(r.rows[*r.firstDiffering].layer.index));
  } else {
    w.key("first_differing_layer").null();
  }
  if (r.stoppedAt) {
    w.field("stopped_at_layer", static_cast<uint64_t>(r.rows[*r.stoppedAt].layer.index));
  } else {
    w.key("stopped_at_layer").null();
  }
  w.key("layers").beginArray();
  for (const LayerCheckRow& row : r.rows) {
    w.beginObject();
    w.field("index", static_cast<uint64_t>(row.layer.index)).field("op", row.layer.op);
    w.field("tensor", row.tensor.index).field("tensor_name", row.tensor.name);
    w.key("shape").beginArray();
    for (int32_t d : row.tensor.shape) w.value(d);
    w.endArray();
    w.field("mapping", row.mapping).field("agreement", row.agreement);
    w.key("packets").beginArray();
    for (size_t k : row.packets) w.value(static_cast<uint64_t>(k));
    w.endArray();
    w.field("packets_run", static_cast<uint64_t>(row.packetsRun));
    w.field("elements", static_cast<uint64_t>(row.comparison.elements));
    w.field("compared", static_cast<uint64_t>(row.comparison.compared));
    w.field("differing", static_cast<uint64_t>(row.comparison.differing));
    w.field("beyond_tolerance", static_cast<uint64_t>(row.comparison.beyondTolerance));
    w.field("max_abs_diff", row.comparison.maxAbsDiff);
    w.field("unplaced", static_cast<uint64_t>(row.comparison.unplaced));
    w.field("grid_placed", static_cast<uint64_t>(row.comparison.gridPlaced));
    w.field("undefined_positions", static_cast<uint64_t>(row.comparison.undefinedPositions));
    w.field("grid_agrees_with_layout", static_cast<uint64_t>(row.comparison.gridAgrees));
    w.field("grid_disagrees_with_layout", static_cast<uint64_t>(row.comparison.gridDisagrees));
    w.field("unplaced_why", row.comparison.unplacedWhy);
    w.field("staging_packets", static_cast<uint64_t>(row.comparison.stagingPackets));
    w.field("verdict", layerVerdictName(row.verdict));
    if (row.comparison.first) {
      const LaneDifference& d = *row.comparison.first;
      w.key("first_difference").beginObject();
      w.field("element", static_cast<uint64_t>(d.element));
      w.key("coordinates").beginArray();
      for (int32_t c : d.coordinates) w.value(c);
      w.endArray();
      w.field("packet", static_cast<uint64_t>(d.packet)).field("pc", d.pc).field("tile", d.tile).field("lane", d.lane);
      w.field("narrow_address", d.narrowAddress).field("lle", d.lle).field("twin", d.twin);
      w.endObject();
    } else {
      w.key("first_difference").null();
    }
    w.endObject();
  }
  w.endArray();
  w.endObject();
  out << "\n";
}

}  // namespace coralsim::sim
