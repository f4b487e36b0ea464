#include "driver/model/linker.h"

namespace coralsim::driver {
namespace {

void checkField(size_t byteCount, int64_t bit) {
  const int64_t bits = static_cast<int64_t>(byteCount) * 8;
  if (bit < 0 || bit > bits - 32) {
    throw LinkError("32-bit field at bit " + std::to_string(bit) + " does not fit in " + std::to_string(byteCount) +
                    " bytes");
  }
}

std::string describe(const BufferRef& ref) {
  const auto kind = bufferKindShortName(ref.kind);
  std::string s = kind ? std::string(*kind) : "desc " + std::to_string(static_cast<int>(ref.kind));
  if (!ref.name.empty()) s += " '" + ref.name + "'";
  if (ref.batch != 0) s += " batch " + std::to_string(ref.batch);
  return s;
}

}  // namespace

BaseAddresses& BaseAddresses::set(BufferKind kind, uint64_t address) {
  defaults_[kind] = address;
  return *this;
}

BaseAddresses& BaseAddresses::set(BufferKind kind, const std::string& name, uint64_t address, int32_t batch) {
  named_[{kind, name, batch}] = address;
  return *this;
}

std::optional<uint64_t> BaseAddresses::find(const BufferRef& ref) const {
  if (auto it = named_.find({ref.kind, ref.name, ref.batch}); it != named_.end()) return it->second;
  if (auto it = defaults_.find(ref.kind); it != defaults_.end()) return it->second;
  return std::nullopt;
}

uint32_t readBitField32(std::span<const uint8_t> bytes, int64_t bit) {
  checkField(bytes.size(), bit);
  uint32_t value = 0;
  for (int i = 0; i < 32; ++i) {
    const int64_t b = bit + i;
    value |= static_cast<uint32_t>((bytes[static_cast<size_t>(b / 8)] >> (b % 8)) & 1u) << i;
  }
  return value;
}

void writeBitField32(std::span<uint8_t> bytes, int64_t bit, uint32_t value) {
  checkField(bytes.size(), bit);
  for (int i = 0; i < 32; ++i) {
    const int64_t b = bit + i;
    auto& byte = bytes[static_cast<size_t>(b / 8)];
    const auto mask = static_cast<uint8_t>(1u << (b % 8));
    byte = static_cast<uint8_t>(((value >> i) & 1u) ? (byte | mask) : (byte & ~mask));
  }
}

void linkBitstream(std::span<uint8_t> bytes, std::span<const FieldOffset> offsets, const BaseAddresses& addresses) {
  for (size_t i = 0; i < offsets.size(); ++i) {
    const auto& fo = offsets[i];
    const std::string where = "field offset " + std::to_string(i) + " (bit " + std::to_string(fo.offsetBit) + ")";
    if (!fo.target) throw LinkError(where + ": has no meta, so names no buffer");
    const auto address = addresses.find(*fo.target);
    if (!address) throw LinkError(where + ": no base address for " + describe(*fo.target));
    if (fo.target->half != AddressHalf::Lower32 && fo.target->half != AddressHalf::Upper32) {
      throw LinkError(where + ": unknown position " + std::to_string(static_cast<int>(fo.target->half)));
    }
    const uint32_t half = fo.target->half == AddressHalf::Upper32 ? static_cast<uint32_t>(*address >> 32)
                                                                  : static_cast<uint32_t>(*address);
    try {
      writeBitField32(bytes, fo.offsetBit, half);
    } catch (const LinkError& e) {
      throw LinkError(where + ": " + e.what());
    }
  }
}

std::vector<uint8_t> linkedCopy(const InstructionBitstream& chunk, const BaseAddresses& addresses) {
  std::vector<uint8_t> out = chunk.bytes;
  linkBitstream(out, chunk.fieldOffsets, addresses);
  return out;
}

}  // namespace coralsim::driver
