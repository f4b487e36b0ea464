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
  uint64_t totalIterations = 0;
  for (const ComputePacket& p : packets) totalIterations += p.iterations;
  if (macLayers.empty() || totalIterations == 0) {
    for (size_t i : macLayers) out[i].mapping = "uncertain";
    return out;
  }
  // Fractions in double: the same inputs give the same assignment on every run.
  const auto total = static_cast<double>(totalIterations);
  const auto macs = static_cast<double>(totalMacs);
  size_t layer = 0;
  uint64_t layerEnd = layers[macLayers[0]].arrayMacs;  // cumulative MACs up to this layer's end
  uint64_t before = 0;
  for (size_t k = 0; k < packets.size(); ++k) {
    const uint64_t w = packets[k].iterations;
    const double mid = (static_cast<double>(before) + static_cast<double>(w) / 2) / total;
    while (layer + 1 < macLayers.size() && mid >= static_cast<double>(layerEnd) / macs) {
      ++layer;
      layerEnd += layers[macLayers[layer]].arrayMacs;
    }
    LayerAssignment& a = out[macLayers[layer]];
    a.packets.push_back(k);
    a.packetIterations += w;
    before += w;
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
