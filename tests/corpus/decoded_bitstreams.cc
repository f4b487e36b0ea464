#include "tests/corpus/decoded_bitstreams.h"

#include <memory>

#include "driver/model/model_file.h"

namespace coralsim::testing {

void forEachDecodedBitstream(const driver::ModelFile& model,
                             const std::function<void(const driver::Executable&, const models::DecodedProgram&)>& visit) {
  for (const driver::Executable* e : driver::allExecutables(model)) {
    for (const auto& bitstream : e->bitstreams) {
      // Held by name for the visit: the packets' word spans point into it.
      const std::shared_ptr<const models::DecodedProgram> program = models::DecodedProgram::fromBytes(bitstream.bytes);
      visit(*e, *program);
    }
  }
}

void forEachDecodedChunk(const driver::ModelFile& model,
                         const std::function<void(size_t chunk, const models::DecodedProgram&)>& visit) {
  size_t chunk = 0;
  forEachDecodedBitstream(model, [&](const driver::Executable&, const models::DecodedProgram& program) { visit(chunk++, program); });
  if (model.rawBitstream) {
    const std::shared_ptr<const models::DecodedProgram> program = models::DecodedProgram::fromBytes(model.rawBitstream->bytes);
    visit(chunk, *program);
  }
}

void forEachDecodedPacket(const driver::ModelFile& model,
                          const std::function<void(const driver::Executable&, const models::DecodedPacket&)>& visit) {
  forEachDecodedBitstream(model, [&](const driver::Executable& e, const models::DecodedProgram& program) {
    for (const models::DecodedPacket& p : program.packets()) visit(e, p);
  });
}

void forEachIssuedTilePacket(const driver::ModelFile& model, uint8_t opcode,
                             const std::function<void(const models::DecodedPacket&)>& visit) {
  forEachDecodedPacket(model, [&](const driver::Executable&, const models::DecodedPacket& p) {
    if (p.action == models::PacketAction::kIssue && p.tilePacket && static_cast<uint8_t>(p.opcode) == opcode) visit(p);
  });
}

void forEachIssuedCompute(const driver::ModelFile& model, const std::function<void(const models::DecodedPacket&)>& visit) {
  forEachIssuedTilePacket(model, 0x01, visit);
}

}  // namespace coralsim::testing
