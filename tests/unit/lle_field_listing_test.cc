// `coralsim disasm --fields`: a packet read through the lle field table (models/lle/field_listing.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "models/isa/disassembler.h"
#include "models/isa/opcodes.h"
#include "models/isa/assembler.h"
#include "models/lle/field_listing.h"
#include "models/lle/lle_fields.h"

namespace coralsim::lle::lle_field_listing_test {
namespace {

// An all-zero packet of `op` with its opcode set.
std::vector<isa::Word128> blankPacket(uint8_t op) {
  std::vector<isa::Word128> words(isa::packetLength(static_cast<isa::Opcode>(op)));
  words[0].setBits(6, 6, op);
  return words;
}

void setField(std::vector<isa::Word128>& words, LleField field, uint64_t value) {
  const LleFieldDef& f = fieldDef(field);
  words[f.lsb / 128].setBits(f.lsb % 128, f.width, value);
}

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(LleFieldListing, NamesEachDecodedFieldWithItsValueAndTheSetBitsNoFieldCovers) {
  std::vector<isa::Word128> packet = blankPacket(0x14);
  setField(packet, LleField::Stage14NarrowAt64, 1234);  // no corpus 0x14 starts at row 1234
  setField(packet, LleField::Stage14NarrowUnit, 9);
  setField(packet, LleField::Stage14OuterLimit, 5);     // element 0 only
  setField(packet, LleField::Stage14SourceSideOn, 1);   // a write that takes a stream
  packet[3].setBits(97, 1, 1);                          // Stage14WordThreeMark since "bright3"
  packet[3].setBits(101, 1, 1);                         // w3[101]: no field there (w3[122:106] is Stage14SourceUnits since "w3rows",
                                                        // bit 103 Stage14SourceUnitsOn; w3[100:98] Stage14WordThreeLevels since "dense",
                                                        // bit 98 Stage14KeptWriteW3Bit98 without the source side, "dma14")
  packet[4].setBits(33, 1, 1);                          // w4[33] (w4[40] is Stage14SourceBase since "src14", w4[32:31] Stage14SourceCompileMark since "conv3")
  const PacketFieldListing listing = listPacketFields(packet);
  EXPECT_TRUE(contains(listing.fields, "Stage14NarrowAt64=1234"));
  EXPECT_TRUE(contains(listing.fields, "Stage14NarrowUnit=9"));
  EXPECT_TRUE(contains(listing.fields, "Stage14OuterLimit=5,0,0,0"));
  EXPECT_EQ(listing.undecodedBits, (std::vector<std::string>{"w3[101]", "w4[33]"}))
      << "the opcode bits and the bits of decoded fields are not 'not decoded'";
}

TEST(LleFieldListing, OpcodesWithoutAFieldTableListNothing) {
  EXPECT_TRUE(listPacketFields(blankPacket(0x3e)).fields.empty());
  EXPECT_TRUE(listPacketFields({}).fields.empty());
}

TEST(LleFieldListing, TheNotesAreCommentsAndTheListingStillReassembles) {
  std::vector<isa::Word128> packet = blankPacket(0x14);
  setField(packet, LleField::Stage14NarrowAt64, 7);
  isa::DisassemblyOptions options;
  options.packetNotes = [](std::span<const isa::Word128> p) { return listPacketFields(p).fields; };
  const std::string text = isa::disassemble(packet, options);
  EXPECT_NE(text.find("\n//   Stage14NarrowAt64=7\n"), std::string::npos) << text;
  EXPECT_EQ(isa::assemble(text).words, packet);
}

}  // namespace
}  // namespace coralsim::lle::lle_field_listing_test
