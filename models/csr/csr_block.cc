#include "models/csr/csr_block.h"

#include <utility>

namespace coralsim::models {
namespace {

uint64_t accessWidthMask(unsigned widthBits) {
  return widthBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << widthBits) - 1;
}

// The stored value after the host writes `value` to the bits `written` of a register whose bits
// in `mask` follow `access` (all other bits are read/write).
uint64_t applyAccess(CsrAccess access, uint64_t mask, uint64_t old, uint64_t value) {
  switch (access) {
    case CsrAccess::RW:
      return value;
    case CsrAccess::RO:
      return (old & mask) | (value & ~mask);
    case CsrAccess::W1C:
      return (old & mask & ~value) | (value & ~mask);
    case CsrAccess::W0C:
      return (old & mask & value) | (value & ~mask);
  }
  return value;
}

}  // namespace

std::string_view csrAccessName(CsrAccess access) {
  switch (access) {
    case CsrAccess::RW: return "RW";
    case CsrAccess::RO: return "RO";
    case CsrAccess::W1C: return "W1C";
    case CsrAccess::W0C: return "W0C";
  }
  return "?";
}

std::string_view csrEffectName(CsrEffect effect) {
  const auto i = static_cast<size_t>(effect);
  return i < std::size(kCsrEffects) ? kCsrEffects[i].name : std::string_view("?");
}

const CsrRegister* findCsr(uint32_t address, unsigned* index) {
  for (const CsrRegister& reg : kCsrTable) {
    if (address < reg.address || address >= reg.endAddress()) continue;
    const uint32_t offset = address - reg.address;
    if (offset % reg.strideBytes() != 0) return nullptr;
    if (index != nullptr) *index = offset / reg.strideBytes();
    return &reg;
  }
  return nullptr;
}

CsrBlock::CsrBlock() {
  for (const CsrRegister& reg : kCsrTable) {
    for (uint32_t i = 0; i < reg.count; ++i) {
      cells_[reg.address + i * reg.strideBytes()] = Cell{&reg, i, reg.resetValue & reg.widthMask()};
    }
  }
}

void CsrBlock::setHooks(CsrEffect effect, Hooks hooks) {
  hooks_[static_cast<size_t>(effect)] = std::move(hooks);
}

uint64_t CsrBlock::read(uint32_t address, unsigned widthBits) {
  const uint64_t widthMask = accessWidthMask(widthBits);
  const auto it = cells_.find(address);
  if (it == cells_.end()) {
    const auto u = unknown_.find(address);
    return u == unknown_.end() ? 0 : (u->second & widthMask);
  }
  const Cell& cell = it->second;
  uint64_t value = cell.value;
  const Hooks& hooks = hooks_[static_cast<size_t>(cell.reg->effect)];
  if (hooks.read) value = hooks.read(*cell.reg, cell.index, value);
  return value & cell.reg->widthMask() & widthMask;
}

void CsrBlock::write(uint32_t address, unsigned widthBits, uint64_t value) {
  const uint64_t widthMask = accessWidthMask(widthBits);
  const auto it = cells_.find(address);
  if (it == cells_.end()) {
    uint64_t& slot = unknown_[address];
    slot = (slot & ~widthMask) | (value & widthMask);
    return;
  }
  Cell& cell = it->second;
  const CsrRegister& reg = *cell.reg;
  // Only the bits this access covers change (a 32-bit write leaves the high half alone).
  const uint64_t written = widthMask & reg.widthMask();
  const uint64_t updated = applyAccess(reg.access, reg.accessMask, cell.value, value);
  cell.value = (cell.value & ~written) | (updated & written);
  const Hooks& hooks = hooks_[static_cast<size_t>(reg.effect)];
  if (hooks.write) hooks.write(reg, cell.index, cell.value, value & written);
}

uint64_t CsrBlock::stored(uint32_t address) const {
  const auto it = cells_.find(address);
  if (it != cells_.end()) return it->second.value;
  const auto u = unknown_.find(address);
  return u == unknown_.end() ? 0 : u->second;
}

void CsrBlock::setStored(uint32_t address, uint64_t value) {
  const auto it = cells_.find(address);
  if (it != cells_.end()) {
    it->second.value = value & it->second.reg->widthMask();
  } else {
    unknown_[address] = value;
  }
}

void CsrBlock::resetAll() {
  for (auto& [address, cell] : cells_) cell.value = cell.reg->resetValue & cell.reg->widthMask();
  unknown_.clear();
}

void CsrBlock::resetDomain(CsrDomain domain) {
  for (auto& [address, cell] : cells_) {
    if (cell.reg->domain == domain) cell.value = cell.reg->resetValue & cell.reg->widthMask();
  }
}

}  // namespace coralsim::models
