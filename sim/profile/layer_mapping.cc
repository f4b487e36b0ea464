#include "sim/profile/layer_mapping.h"

namespace coralsim::sim {

std::vector<LayerAssignment> assignPackets(const std::vector<ComputePacket>& packets,
                                           const std::vector<TwinLayer>& layers) {
  std::vector<LayerAssignment> out(layers.size());
  std::vector<size_t> macLayers;  // Edge TPU layers with MACs, in operator order
  uint64_t totalMacs = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    if (layers[i].onCpu) {
      out[i].mapping = "cpu";
    } else if (layers[i].macs == 0) {
      out[i].mapping = "no compute packet";
    } else {
      macLayers.push_back(i);
      totalMacs += layers[i].arrayMacs;
    }
  }
  // A pass-through compute (no clamp, multiplier 1: models/chip/pass_through_compute.h) computes no
  // layer's output, so its iterations are no layer's MACs: it does not advance the work axis.
  const auto work = [](const ComputePacket& p) { return p.passThrough ? uint64_t{0} : p.iterations; };
  uint64_t totalIterations = 0;
  for (const ComputePacket& p : packets) totalIterations += work(p);
  if (macLayers.empty() || totalIterations == 0) {
    for (size_t i : macLayers) out[i].mapping = "uncertain";
    return out;
  }
  // Fractions in double: the same inputs give the same assignment on every run.
  const auto total = static_cast<double>(totalIterations);
  const auto macs = static_cast<double>(totalMacs);
  // The MAC layer of each packet (an index into macLayers): by its midpoint on the work axis; a
  // pass-through's is the next working packet's (it stages or feeds that layer's input), or the last
  // working packet's when none follows.
  std::vector<size_t> layerOf(packets.size());
  size_t layer = 0;
  uint64_t layerEnd = layers[macLayers[0]].arrayMacs;  // cumulative MACs up to this layer's end
  uint64_t before = 0;
  for (size_t k = 0; k < packets.size(); ++k) {
    const uint64_t w = work(packets[k]);
    if (packets[k].passThrough) continue;
    const double mid = (static_cast<double>(before) + static_cast<double>(w) / 2) / total;
    while (layer + 1 < macLayers.size() && mid >= static_cast<double>(layerEnd) / macs) {
      ++layer;
      layerEnd += layers[macLayers[layer]].arrayMacs;
    }
    layerOf[k] = layer;
    before += w;
  }
  size_t next = layer;  // the layer of the last working packet
  for (size_t k = packets.size(); k-- > 0;) {
    if (packets[k].passThrough) {
      layerOf[k] = next;
    } else {
      next = layerOf[k];
    }
  }
  for (size_t k = 0; k < packets.size(); ++k) {
    LayerAssignment& a = out[macLayers[layerOf[k]]];
    a.packets.push_back(k);
    a.packetIterations += work(packets[k]);
  }
  for (size_t i : macLayers) {
    LayerAssignment& a = out[i];
    const double packetShare = static_cast<double>(a.packetIterations) / static_cast<double>(totalIterations);
    const double macShare = static_cast<double>(layers[i].arrayMacs) / static_cast<double>(totalMacs);
    a.agreement = packetShare / macShare;
    a.mapping = a.agreement >= kAgreementLow && a.agreement <= kAgreementHigh ? "mac-aligned" : "uncertain";
  }
  return out;
}

}  // namespace coralsim::sim
