#include "models/chip/descriptor_unit.h"

namespace coralsim::models {

namespace tag {
constexpr uint8_t kInput = 1;
constexpr uint8_t kParameter = 2;
constexpr uint8_t kOutput = 3;
}  // namespace tag

DescriptorUnit::DescriptorUnit(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), infeed("infeed"), outfeed("outfeed"), events("events") {}

void DescriptorUnit::push(const Descriptor& descriptor, uint64_t cycle) {
  log_.push_back(descriptor);
  switch (descriptor.tag) {
    case tag::kInput:
      outfeed->closeWindow(cycle);
      infeed->request(InfeedClass::kInput, descriptor.length, cycle);
      break;
    case tag::kParameter:
      outfeed->closeWindow(cycle);
      infeed->request(InfeedClass::kParameter, descriptor.length, cycle);
      break;
    case tag::kOutput:
      outfeed->openWindow(descriptor.length, cycle);  // closes the previous window first
      break;
    default:
      outfeed->closeWindow(cycle);
      break;
  }
  events->pushEvent(descriptor);
}

}  // namespace coralsim::models
