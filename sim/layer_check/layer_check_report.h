// How `coralsim check-layers` prints a LayerCheckReport (layer_check.h): a table for people, one
// JSON object for machines (keys in sim/layer_check/README.md). Deterministic.
#pragma once

#include <ostream>

#include "sim/layer_check/layer_check.h"

namespace coralsim::sim {

void writeLayerCheckText(std::ostream& out, const LayerCheckReport& report);
void writeLayerCheckJson(std::ostream& out, const LayerCheckReport& report, int indent = 0);

}  // namespace coralsim::sim
