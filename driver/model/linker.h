// Linking an instruction chunk: every FieldOffset names a 32-bit immediate (the ALU immediate of
// a MOVI bundle, docs/isa.md §2.1/§2.3) that receives the low or high half of the 64-bit base
// address of a buffer: output/input activations (by layer name), parameters or scratch.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "driver/model/executable.h"

namespace coralsim::driver {

class LinkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Base addresses by buffer. A specific (kind, name, batch) entry wins over the default of its kind;
// parameters and scratch normally only have the default.
class BaseAddresses {
 public:
  BaseAddresses& set(BufferKind kind, uint64_t address);
  BaseAddresses& set(BufferKind kind, const std::string& name, uint64_t address, int32_t batch = 0);
  [[nodiscard]] std::optional<uint64_t> find(const BufferRef& ref) const;

 private:
  std::map<BufferKind, uint64_t> defaults_;
  std::map<std::tuple<BufferKind, std::string, int32_t>, uint64_t> named_;
};

// Reads / writes the 32-bit field starting at `bit` (LSB-first: bit k is bit k%8 of byte k/8).
// Throws LinkError when the field does not fit inside `bytes`.
uint32_t readBitField32(std::span<const uint8_t> bytes, int64_t bit);
void writeBitField32(std::span<uint8_t> bytes, int64_t bit, uint32_t value);

// Patches every field offset of `offsets` in `bytes` in place. Throws LinkError naming the field
// offset when it has no meta, lies outside the chunk, or its buffer has no address.
void linkBitstream(std::span<uint8_t> bytes, std::span<const FieldOffset> offsets, const BaseAddresses& addresses);

// A linked copy of one chunk.
std::vector<uint8_t> linkedCopy(const InstructionBitstream& chunk, const BaseAddresses& addresses);

}  // namespace coralsim::driver
