#include "models/lle/kept_operand_weighing.h"

#include <initializer_list>

#include "models/lle/lle_fields.h"
#include "models/lle/w0_last_run.h"

namespace coralsim::lle {

bool KeptOperandWeighing::isForm(std::span<const isa::Word128> words) {
  return readField(words, LleField::ComputeInputBytes) == kUnitBytes && readField(words, LleField::ComputeInputRingOn) == 0 &&
         readField(words, LleField::ComputeWideWeights) != 0 && readField(words, LleField::ComputeUnsignedWideWeights) != 0 &&
         readField(words, LleField::ComputeSixteenBitResults) == 0 && readField(words, LleField::ComputeNluApply) == 0 &&
         readField(words, LleField::ComputeNest29CarryLow, 0) != 0;
}

std::variant<KeptOperandWeighing, std::string> KeptOperandWeighing::fromPacket(std::span<const isa::Word128> words) {
  KeptOperandWeighing form;
  if (const uint64_t k = readField(words, LleField::ComputeK4W0) + 1; k != kK) {
    return "K = ComputeK4W0 + 1 = " + std::to_string(k) + ": a 4-byte weight unit holds two 16-bit weights; only K = 2 is decoded";
  }
  if (readField(words, LleField::ComputeK4W1) != 0) {
    return "ComputeK4W1 = " + std::to_string(readField(words, LleField::ComputeK4W1)) + ": Nest37's level 0 must read one input unit an iteration";
  }
  if (readField(words, LleField::ComputeLimitW0Level4) != 0 || readField(words, LleField::ComputeLimitW0Levels56, 0) != 0 ||
      readField(words, LleField::ComputeLimitW0Levels56, 1) != 0) {
    return std::string("the w0 nest counts levels 4-6 (ComputeLimitW0Level4 / ComputeLimitW0Levels56): not executed here");
  }
  form.positions = levelIterations(words, {LleField::ComputeLimitW0});
  // Nest29: one 16-bit step a K iteration at level 0 and back (-(K - 1) x 2 bytes), the positions at level 1.
  if (readField(words, LleField::ComputeK4W7) + 1 != kK) {
    return "ComputeK4W7 = " + std::to_string(readField(words, LleField::ComputeK4W7)) + ": Nest29's level 0 does not step the K = 2 weights";
  }
  const int64_t slot0 = 4 * readSigned(words, LleField::ComputeKWrapW7) + static_cast<int64_t>(readField(words, LleField::ComputeNest29CarryLow, 0));
  if (slot0 != -static_cast<int64_t>(kK - 1) * 2) {
    return "Nest29's slot-0 carry (4 x ComputeKWrapW7 + ComputeNest29CarryLow[0]) = " + std::to_string(slot0) +
           " bytes: not the return after one 16-bit step (-2)";
  }
  if (readField(words, LleField::ComputeLimit29, 0) + 1 != form.positions || readField(words, LleField::ComputeLimit29, 1) != 0 ||
      readField(words, LleField::ComputeLimit29Level3) != 0) {
    return "Nest29's levels 1-3 (ComputeLimit29, ComputeLimit29Level3) do not count the " + std::to_string(form.positions) + " positions at level 1";
  }
  for (unsigned e = 0; e < fieldDef(LleField::ComputeLimit29High).count; ++e) {
    if (readField(words, LleField::ComputeLimit29High, e) != 0) return std::string("Nest29 counts levels 4-6 (ComputeLimit29High): not executed here");
  }
  const std::initializer_list<LleField> w10 = {LleField::ComputeK4W10, LleField::ComputeLimitW10, LleField::ComputeLimitW10Level3,
                                               LleField::ComputeLimitW10High};
  // The w10 nest counts the iterations that write: all positions x K, less the K steps the w0 nest's shorter last iteration
  // drops (ComputeW0LastRun at ComputeW0LastRunLevel, w0_last_run.h, docs/decoding-log.md "smx": nin_cnn / ensemble's 10-class
  // normalisations 2 x 2 - 1 = 3, MobileNet v1's 1,001-class ones 6 x 2 - 1 = 11; the trackers' whole walks drop none).
  if (const std::string problem = w0LastRunProblem(words); !problem.empty()) return problem;
  form.written = levelIterations(words, w10);
  if (const uint64_t walked = form.positions * kK - w0LastRunShortfall(words); form.written != walked) {
    return "the w10 nest counts " + std::to_string(form.written) + " iterations where the w0 nest walks " + std::to_string(walked) +
           " (positions x K, less the K steps its shorter last iteration drops: ComputeW0LastRun, ComputeW0LastRunLevel)";
  }
  if (const uint64_t units = readField(words, LleField::ComputeLaneGroups) + 1; units != form.iterations()) {
    return "ComputeLaneGroups + 1 = " + std::to_string(units) + " output units, not one for each of the " + std::to_string(form.iterations()) +
           " iterations";
  }
  return form;
}

uint32_t KeptOperandWeighing::weight(std::span<const uint8_t> operand, uint64_t position, uint64_t k, uint64_t lane) {
  const uint64_t at = position * kBlockBytes + kUnitBytes * (2 * (lane / 2) + k) + 2 * (lane % 2);
  return operand[at] | (uint32_t{operand[at + 1]} << 8);
}

std::variant<std::vector<int64_t>, std::string> KeptOperandWeighing::products(std::span<const uint8_t> inputUnits,
                                                                               std::span<const uint8_t> operand) const {
  if (inputUnits.size() != iterations() * kUnitBytes) return std::string("not one input unit an iteration");
  const uint64_t needed = (iterations() - 1) / kK * kBlockBytes + kUnitBytes * (2 + (iterations() - 1) % kK) + kUnitBytes;
  if (operand.size() > operandBytes() || operand.size() < needed) {
    return "a kept operand of " + std::to_string(operand.size()) + " bytes for " + std::to_string(iterations()) + " iterations of " +
           std::to_string(positions) + " positions (at most one 16-byte block a position, " + std::to_string(operandBytes()) + ", at least " +
           std::to_string(needed) + ")";
  }
  std::vector<int64_t> out;
  out.reserve(iterations() * kUnitBytes);
  for (uint64_t i = 0; i < iterations(); ++i) {
    const uint8_t* unit = inputUnits.data() + i * kUnitBytes;
    const uint32_t element0 = unit[0] | (uint32_t{unit[1]} << 8);
    const uint32_t element1 = unit[2] | (uint32_t{unit[3]} << 8);
    if (element0 != element1) {
      return "iteration " + std::to_string(i) + "'s input unit holds the 16-bit elements " + std::to_string(element0) + " and " +
             std::to_string(element1) + ": which lanes take which is not decoded";
    }
    for (uint64_t lane = 0; lane < kUnitBytes; ++lane) {
      out.push_back(int64_t{element0} * weight(operand, i / kK, i % kK, lane));
    }
  }
  return out;
}

}  // namespace coralsim::lle
