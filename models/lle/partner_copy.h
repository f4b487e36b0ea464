// The pairing of a packet that copies another's fields (lle_partner_copies.def; the 0x14 staging
// write's w0[127:62] / w1 copy the 0x11 receive next on its tiles, docs/decoding-log.md "pair14").
// A 0x14 whose copied bits differ from the envelope is accepted only for its partner: it waits, per
// tile, for the next packet on that tile, which must be the partner opcode with the same bits.
// Anything else there (a compute, another 0x14, the end of the chunk) refuses it with the envelope's
// own refusal and what came instead; a partner with other bits refuses it naming the field, unless the
// copy is its tile's slice of the receive (receive_slice.h: the receive's tiles then deal out its rows). A 0x14
// inside the envelope needs no partner (the copied bits are the templates' values). Two readings of the
// partner come from docs/decoding-log.md "win14": a copy with an inner level (w0 bit 78) of an
// execution-only receive without one holds that receive's run one level up, and such a receive's run
// + 1 rows of 256 bytes must be the bytes the copying write's nest writes.
// A 0x14 whose word 4 is zero (kept_stream_write.h, docs/decoding-log.md "dma14") has no receive after it:
// its copied bits are those of the read kept on its tiles under its stream tag, which must come before it.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/isa/word128.h"
#include "models/lle/packet_envelope.h"
#include "models/lle/receive_slice.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::lle {

class PartnerCopyWatch {
 public:
  static constexpr unsigned kTiles = 16;

  // Called for every issued packet in program order with `pinnedRefusal` = checkEnvelope(packet, set)
  // (the check with the copied bits pinned). "" when the packet may run; otherwise the refusal.
  [[nodiscard]] std::string observe(const models::DecodedPacket& packet, const std::string& pinnedRefusal,
                                    EnvelopeSet set = EnvelopeSet::kShipped);
  // The refusal of a packet still waiting for its partner when the chunk ends ("" when none waits).
  [[nodiscard]] std::string finish() const;
  void clear();

  [[nodiscard]] bool waiting(unsigned tile) const { return awaiting_.at(tile).has_value(); }

 private:
  struct Awaiting {
    uint32_t pc = 0;
    uint8_t opcode = 0;
    std::vector<isa::Word128> words;  // the copying packet's own copy
    std::string pinnedRefusal;        // what the envelope said with the copied bits pinned
  };

  // "" when `partner` carries the copied bits, or (a 0x11) when the copy is its tile's slice of it (`slice` set).
  [[nodiscard]] static std::string comparePartner(const Awaiting& copy, const models::DecodedPacket& partner,
                                                  std::optional<ReceiveSlice>& slice);
  [[nodiscard]] static std::string dealtOut(const models::DecodedPacket& receive,
                                            const std::array<std::optional<ReceiveSlice>, kTiles>& slices);

  // A kept-stream write against the reads kept on its tiles: "" when every tile holds one under its
  // stream tag and the copied bits are that read's.
  [[nodiscard]] std::string compareKeptRead(const models::DecodedPacket& write) const;

  std::array<std::optional<Awaiting>, kTiles> awaiting_;
  // Per tile, the last read kept under each stream tag (0x13 words), for the kept-stream writes.
  std::array<std::map<uint64_t, std::vector<isa::Word128>>, kTiles> keptReads_;
};

}  // namespace coralsim::lle
