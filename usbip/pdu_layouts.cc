// Encoders and decoders of the fixed USB/IP blocks, generated from usbip/pdu_layouts.def.
#include "usbip/pdu_layouts.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "usbip/big_endian.h"

namespace coralsim::usbip {
namespace {

// Callers slice exact blocks out of bounds-checked buffers; a short block here is a bug in the
// caller, not bad input, so it is a logic_error rather than a CodecError.
void requireBlock(size_t have, size_t need, std::string_view layout) {
  if (have < need) {
    throw std::logic_error("usbip: " + std::string(layout) + " block needs " + std::to_string(need) +
                           " bytes, got " + std::to_string(have));
  }
}

constexpr LayoutInfo kLayouts[] = {
#define USBIP_LAYOUT(Type, wireName, blockBase, blockSize) {wireName, blockBase, blockSize, layout_table::k##Type},
#include "usbip/pdu_layouts.def"
#undef USBIP_LAYOUT
};

}  // namespace

std::span<const LayoutInfo> allLayouts() { return kLayouts; }

#define USBIP_DECODE_U8(m, at, n) out.m = in[at];
#define USBIP_DECODE_U16(m, at, n) out.m = loadBe16(in + (at));
#define USBIP_DECODE_U32(m, at, n) out.m = loadBe32(in + (at));
#define USBIP_DECODE_S32(m, at, n) out.m = static_cast<int32_t>(loadBe32(in + (at)));
#define USBIP_DECODE_BYTES(m, at, n) std::copy_n(in + (at), n, out.m.begin());
#define USBIP_DECODE_PAD(m, at, n)
#define USBIP_LAYOUT(Type, wireName, blockBase, blockSize)                  \
  void decodeFields(std::span<const uint8_t> block, Type& out) { \
    requireBlock(block.size(), blockSize, wireName);                  \
    [[maybe_unused]] const uint8_t* in = block.data();           \
    [[maybe_unused]] constexpr size_t kBlockBase = blockBase;
#define USBIP_FIELD(Type, kind, member, wireName, offset, bytes) \
  USBIP_DECODE_##kind(member, (offset) - kBlockBase, bytes)
#define USBIP_END(Type) }
#include "usbip/pdu_layouts.def"
#undef USBIP_LAYOUT
#undef USBIP_FIELD
#undef USBIP_END

#define USBIP_ENCODE_U8(m, at, n) outBytes[at] = in.m;
#define USBIP_ENCODE_U16(m, at, n) storeBe16(outBytes + (at), in.m);
#define USBIP_ENCODE_U32(m, at, n) storeBe32(outBytes + (at), in.m);
#define USBIP_ENCODE_S32(m, at, n) storeBe32(outBytes + (at), static_cast<uint32_t>(in.m));
#define USBIP_ENCODE_BYTES(m, at, n) std::copy_n(in.m.begin(), n, outBytes + (at));
#define USBIP_ENCODE_PAD(m, at, n) std::fill_n(outBytes + (at), n, uint8_t{0});
#define USBIP_LAYOUT(Type, wireName, blockBase, blockSize)                \
  void encodeFields(const Type& in, std::span<uint8_t> block) { \
    requireBlock(block.size(), blockSize, wireName);                \
    [[maybe_unused]] uint8_t* outBytes = block.data();         \
    [[maybe_unused]] constexpr size_t kBlockBase = blockBase;
#define USBIP_FIELD(Type, kind, member, wireName, offset, bytes) \
  USBIP_ENCODE_##kind(member, (offset) - kBlockBase, bytes)
#define USBIP_END(Type) }
#include "usbip/pdu_layouts.def"
#undef USBIP_LAYOUT
#undef USBIP_FIELD
#undef USBIP_END

}  // namespace coralsim::usbip
