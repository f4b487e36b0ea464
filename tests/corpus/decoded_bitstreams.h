// The walk over a model's decoded bitstreams that the corpus scans share: every bitstream of every executable,
// decoded by the walker and held by it while the visit runs. A visit gets references that are valid for the call
// (the program, its packets and their word spans) and never a reference into a temporary: a range-for over
// DecodedProgram::fromBytes(...)->packets() reads the packets after the temporary program is freed (ASan, stop 32's
// CI), and these helpers are the one place that holds the program by name for the loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "driver/model/model_file.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::testing {

// Every bitstream of every executable of `model` (driver::allExecutables order), decoded; `visit` sees the executable
// and the program it holds. Decoding errors propagate (ProgramDecodeError): the corpus programs all decode.
void forEachDecodedBitstream(const driver::ModelFile& model,
                             const std::function<void(const driver::Executable&, const models::DecodedProgram&)>& visit);

// Every instruction chunk of `model`, decoded: its executables' bitstreams (in forEachDecodedBitstream's order), then
// its raw program (a raw .coral file's), numbered from 0 in that order.
void forEachDecodedChunk(const driver::ModelFile& model,
                         const std::function<void(size_t chunk, const models::DecodedProgram&)>& visit);

// Every packet of every decoded bitstream of `model`, in program order, with its executable.
void forEachDecodedPacket(const driver::ModelFile& model,
                          const std::function<void(const driver::Executable&, const models::DecodedPacket&)>& visit);

// Each issued tile packet with `opcode` (action kIssue, a tile packet) of every decoded bitstream of `model`.
void forEachIssuedTilePacket(const driver::ModelFile& model, uint8_t opcode,
                             const std::function<void(const models::DecodedPacket&)>& visit);

// Each issued 0x01 compute of every decoded bitstream of `model`.
void forEachIssuedCompute(const driver::ModelFile& model, const std::function<void(const models::DecodedPacket&)>& visit);

}  // namespace coralsim::testing
