// The PC of the first packet a test looks for in a model's execution-only programs (the corpus floors compare it with
// the PC an lle refusal names, lle_refusal_pc.h).
#pragma once

#include "driver/model/model_file.h"
#include "models/scalar/decoded_program.h"

namespace coralsim::testing {

// -1 when no packet of the execution-only executables satisfies `wanted`.
template <typename Wanted>
long firstExecutionOnlyPc(const driver::ModelFile& model, Wanted wanted) {
  for (const driver::Executable* e : driver::allExecutables(model)) {
    if (e->type != driver::ExecutableType::ExecutionOnly) continue;
    for (const auto& bitstream : e->bitstreams) {
      const auto program = models::DecodedProgram::fromBytes(bitstream.bytes);
      for (const models::DecodedPacket& p : program->packets()) {
        if (wanted(p)) return static_cast<long>(p.pc);
      }
    }
  }
  return -1;
}

}  // namespace coralsim::testing
