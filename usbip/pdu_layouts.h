// The fixed-size blocks of the USB/IP protocol as C++ structs, generated from usbip/pdu_layouts.def
// (the one place where offsets and widths are written). Each block has a big-endian encoder and
// decoder, a FieldRef per field for error messages (usbip::field::CmdSubmitParams::ep, ...), and a
// FieldInfo table so tests can check the layouts cover their blocks exactly.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace coralsim::usbip {

// One field, as an error message names it: "USBIP_CMD_SUBMIT field transfer_buffer_length (0x18)".
struct FieldRef {
  std::string_view layout;  // the block's wire name
  std::string_view name;    // the field's wire name
  size_t offset = 0;        // inside its message (as the protocol document prints it)
  size_t bytes = 0;
};

enum class FieldKind { kU8, kU16, kU32, kS32, kBYTES, kPAD };

struct FieldInfo {
  FieldKind kind;
  std::string_view name;
  size_t offset;
  size_t bytes;
};

struct LayoutInfo {
  std::string_view name;
  size_t base;
  size_t size;
  std::span<const FieldInfo> fields;
};

// ---- the structs ----
#define USBIP_MEMBER_U8(m, n) uint8_t m = 0;
#define USBIP_MEMBER_U16(m, n) uint16_t m = 0;
#define USBIP_MEMBER_U32(m, n) uint32_t m = 0;
#define USBIP_MEMBER_S32(m, n) int32_t m = 0;
#define USBIP_MEMBER_BYTES(m, n) std::array<uint8_t, n> m{};
#define USBIP_MEMBER_PAD(m, n)
#define USBIP_LAYOUT(Type, wireName, blockBase, blockSize) \
  struct Type {                                      \
    static constexpr std::string_view kWireName = wireName; \
    static constexpr size_t kBase = blockBase;            \
    static constexpr size_t kSize = blockSize;
#define USBIP_FIELD(Type, kind, member, wireName, offset, bytes) USBIP_MEMBER_##kind(member, bytes)
#define USBIP_END(Type)                                         \
  friend bool operator==(const Type&, const Type&) = default;  \
  };
#include "usbip/pdu_layouts.def"
#undef USBIP_LAYOUT
#undef USBIP_FIELD
#undef USBIP_END
#undef USBIP_MEMBER_U8
#undef USBIP_MEMBER_U16
#undef USBIP_MEMBER_U32
#undef USBIP_MEMBER_S32
#undef USBIP_MEMBER_BYTES
#undef USBIP_MEMBER_PAD

// ---- field references: field::<Block>::<member> ----
namespace field {
#define USBIP_LAYOUT(Type, wireName, base, size) namespace Type {
#define USBIP_FIELD(Type, kind, member, wireName, offset, bytes) \
  inline constexpr FieldRef member{::coralsim::usbip::Type::kWireName, wireName, offset, bytes};
#define USBIP_END(Type) }
#include "usbip/pdu_layouts.def"
#undef USBIP_LAYOUT
#undef USBIP_FIELD
#undef USBIP_END
}  // namespace field

// ---- field tables (for tests and tools) ----
namespace layout_table {
#define USBIP_LAYOUT(Type, wireName, base, size) inline constexpr FieldInfo k##Type[] = {
#define USBIP_FIELD(Type, kind, member, wireName, offset, bytes) {FieldKind::k##kind, wireName, offset, bytes},
#define USBIP_END(Type) };
#include "usbip/pdu_layouts.def"
#undef USBIP_LAYOUT
#undef USBIP_FIELD
#undef USBIP_END
}  // namespace layout_table

// Every block of pdu_layouts.def, in declaration order.
[[nodiscard]] std::span<const LayoutInfo> allLayouts();

// ---- encoders / decoders: `block` starts at the block's first byte and holds >= kSize bytes ----
#define USBIP_LAYOUT(Type, wireName, base, size)             \
  void decodeFields(std::span<const uint8_t> block, Type& out); \
  void encodeFields(const Type& in, std::span<uint8_t> block);
#include "usbip/pdu_layouts.def"
#undef USBIP_LAYOUT

}  // namespace coralsim::usbip
