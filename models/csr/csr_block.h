// CsrBlock: the chip's register file, generated from usb/csr_table.def (the register map of the seam).
//
// It owns the storage, the power-on values, the access rules (RW / RO / W1C / W0C on the bits of
// the row's mask) and the width rules of docs/usb-protocol.md §2; the side effects belong to the
// modules that own the hardware behind a register: they register hooks per effect id at
// elaboration (no globals, one CsrBlock per chip). An address outside the table is plain storage
// initialised to 0 (std::map: deterministic).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string_view>

#include "models/csr/csr_access_if.h"

namespace coralsim::models {

enum class CsrAccess : uint8_t { RW, RO, W1C, W0C };
enum class CsrDomain : uint8_t { Aon, Gcb };

enum class CsrEffect : uint8_t {
#define CORAL_CSR_EFFECT(id, note) id,
#include "usb/csr_table.def"
#undef CORAL_CSR_EFFECT
  Count
};

struct CsrRegister {
  std::string_view name;
  uint32_t address = 0;
  uint32_t count = 1;
  unsigned widthBits = 64;
  uint64_t resetValue = 0;
  CsrAccess access = CsrAccess::RW;
  uint64_t accessMask = 0;
  CsrDomain domain = CsrDomain::Aon;
  CsrEffect effect = CsrEffect::None;
  std::string_view note;

  [[nodiscard]] constexpr uint32_t strideBytes() const { return widthBits / 8; }
  // One past the last byte of the register (or of the array).
  [[nodiscard]] constexpr uint64_t endAddress() const {
    return uint64_t{address} + uint64_t{count} * strideBytes();
  }
  [[nodiscard]] constexpr uint64_t widthMask() const {
    return widthBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << widthBits) - 1;
  }
};

inline constexpr CsrRegister kCsrTable[] = {
#define CORAL_CSR(name_, address_, count_, width_, reset_, access_, mask_, domain_, effect_, note_) \
  CsrRegister{#name_,                                                                            \
              address_,                                                                          \
              count_,                                                                            \
              width_,                                                                            \
              reset_,                                                                            \
              CsrAccess::access_,                                                                \
              static_cast<uint64_t>(mask_),                                                      \
              CsrDomain::domain_,                                                                \
              CsrEffect::effect_,                                                                \
              note_},
#include "usb/csr_table.def"
#undef CORAL_CSR
};

// Every register address by name: csr::scu_ctrl_3, csr::scalarRegisterFile (array base), ...
namespace csr {
#define CORAL_CSR(name_, address_, ...) inline constexpr uint32_t name_ = address_;
#include "usb/csr_table.def"
#undef CORAL_CSR
}  // namespace csr

struct CsrEffectInfo {
  std::string_view name;
  std::string_view note;
};
inline constexpr CsrEffectInfo kCsrEffects[] = {
#define CORAL_CSR_EFFECT(id, note) CsrEffectInfo{#id, note},
#include "usb/csr_table.def"
#undef CORAL_CSR_EFFECT
};
static_assert(std::size(kCsrEffects) == static_cast<size_t>(CsrEffect::Count));

[[nodiscard]] std::string_view csrAccessName(CsrAccess access);
[[nodiscard]] std::string_view csrEffectName(CsrEffect effect);

// The table row whose register (or array element) starts exactly at `address`; `index` receives
// the array element. nullptr for any other address (including the inside of a register).
[[nodiscard]] const CsrRegister* findCsr(uint32_t address, unsigned* index = nullptr);

class CsrBlock : public CsrAccessIf {
 public:
  // Hooks see register-native, full-width values; the block applies the access width.
  struct Hooks {
    // Returns what the host reads (e.g. computed status bits); `stored` is the block's storage.
    std::function<uint64_t(const CsrRegister& reg, unsigned index, uint64_t stored)> read;
    // Runs after the storage was updated; `value` is the new stored value, `written` the bits the
    // host wrote (before the access rules), for registers whose effect is the write itself.
    std::function<void(const CsrRegister& reg, unsigned index, uint64_t value, uint64_t written)> write;
  };

  CsrBlock();

  // Installs the hooks of one effect (replacing earlier ones). Called by owning modules.
  void setHooks(CsrEffect effect, Hooks hooks);

  // CsrAccessIf (host side: access rules, width rules, hooks).
  uint64_t read(uint32_t address, unsigned widthBits) override;
  void write(uint32_t address, unsigned widthBits, uint64_t value) override;

  // Owner side: the stored value, bypassing access rules and hooks.
  [[nodiscard]] uint64_t stored(uint32_t address) const;
  void setStored(uint32_t address, uint64_t value);

  // Power-on: every register to its reset value, unknown storage forgotten.
  void resetAll();
  // A reset of one domain (the GCB on force_sleep = 3): its registers back to their reset values.
  void resetDomain(CsrDomain domain);

 private:
  struct Cell {
    const CsrRegister* reg = nullptr;
    unsigned index = 0;
    uint64_t value = 0;
  };

  std::map<uint32_t, Cell> cells_;         // every register and array element, by address
  std::map<uint32_t, uint64_t> unknown_;   // addresses outside the table
  std::array<Hooks, static_cast<size_t>(CsrEffect::Count)> hooks_;
};

}  // namespace coralsim::models
