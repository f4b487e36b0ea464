// The register table (usb/csr_table.def) and the CsrBlock generated from it: table
// consistency, the registers docs/usb-protocol.md names, width rules, access kinds, hooks.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "models/chip_config.h"
#include "models/csr/csr_block.h"

namespace coralsim::models::csr_block_test {
namespace {

TEST(CsrTable, NoOverlapsNoDuplicateNames) {
  std::vector<const CsrRegister*> rows;
  for (const CsrRegister& r : kCsrTable) rows.push_back(&r);
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->address < b->address; });
  for (size_t i = 1; i < rows.size(); ++i) {
    EXPECT_LE(rows[i - 1]->endAddress(), rows[i]->address)
        << rows[i - 1]->name << " overlaps " << rows[i]->name;
  }
  std::set<std::string_view> names;
  for (const CsrRegister& r : kCsrTable) EXPECT_TRUE(names.insert(r.name).second) << "duplicate name " << r.name;
}

TEST(CsrTable, RowsAreWellFormed) {
  for (const CsrRegister& r : kCsrTable) {
    SCOPED_TRACE(std::string(r.name));
    EXPECT_TRUE(r.widthBits == 32 || r.widthBits == 64);
    EXPECT_EQ(r.address % r.strideBytes(), 0u) << "naturally aligned";
    EXPECT_GE(r.count, 1u);
    EXPECT_EQ(r.resetValue & ~r.widthMask(), 0u) << "reset value wider than the register";
    if (r.access != CsrAccess::RW) {
      EXPECT_NE(r.accessMask & r.widthMask(), 0u) << "access kind governs no bit";
    }
    EXPECT_LT(static_cast<size_t>(r.effect), std::size(kCsrEffects));
    EXPECT_FALSE(r.note.empty());
    // §2: the 0x1xxxx region is 32-bit, the 0x4xxxx region 64-bit.
    EXPECT_EQ(r.widthBits, (r.address >> 16) == 1 ? 32u : 64u);
    // Only GCB registers (tiles 0x40000-0x43FFF, scalar core 0x44000-0x47FFF) are reset with it.
    EXPECT_EQ(r.domain == CsrDomain::Gcb, r.address >= 0x40000 && r.address < 0x48000);
  }
}

// Every address docs/usb-protocol.md §5.3/§5.4/§7 has a host touch is a named register.
TEST(CsrTable, CoversTheRegistersDriversUse) {
  const uint32_t used[] = {
      0x1A30C, 0x1A314, 0x1A318, 0x1A33C, 0x1907C, 0x1A000, 0x1A0D4, 0x1A0D8, 0x1A0DC, 0x1A500, 0x1A600, 0x1A558,
      0x1A658, 0x1A540, 0x1A544, 0x1A640, 0x1A644, 0x1A704, 0x1A200, 0x4A000, 0x48788, 0x48790, 0x40020, 0x400C0,
      0x40150, 0x40110, 0x40250, 0x40298, 0x402E0, 0x40328, 0x40190, 0x401D0, 0x40210, 0x44018, 0x44158, 0x44198,
      0x441D8, 0x44218, 0x44258, 0x44028, 0x44020, 0x44038, 0x44040, 0x44048, 0x486F0, 0x48700, 0x48708, 0x486D0,
      0x4C058, 0x4C060, 0x4C068, 0x4C070, 0x4C078, 0x4C080, 0x4C088, 0x4C090, 0x4C098, 0x4C0A0, 0x4C0A8, 0x4C148,
      0x4C150, 0x4C160, 0x44400, 0x444F8, 0x44500, 0x44538};
  for (uint32_t a : used) EXPECT_NE(findCsr(a), nullptr) << std::hex << "0x" << a;
  unsigned index = 0;
  const CsrRegister* r = findCsr(0x44400 + 8 * 31, &index);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->name, "scalarRegisterFile");
  EXPECT_EQ(index, 31u);
  EXPECT_EQ(findCsr(0x44404), nullptr) << "inside an array element";
  EXPECT_EQ(findCsr(0x44600), nullptr);
}

TEST(CsrTable, PowerOnValuesOfAppendixA) {
  CsrBlock b;
  EXPECT_EQ(b.read(0x1A30C, 32), 0x000F0959u);
  EXPECT_EQ(b.read(0x1A314, 32), 0x00190000u);
  EXPECT_EQ(b.read(0x1A33C, 32), 0x000C003Fu);
  EXPECT_EQ(b.read(0x1A704, 32), 0x0070007Fu);
  EXPECT_EQ(b.read(0x1A0D4, 32), 0x00000001u);
  EXPECT_EQ(b.read(0x4C148, 64), 0xF0u);
  EXPECT_EQ(b.read(0x44018, 64), 0u);
  EXPECT_EQ(b.read(0x486F0, 64), 0u);
}

TEST(CsrBlock, WidthRules) {
  CsrBlock b;
  // 64-bit register: a 32-bit access reaches the low half and leaves the high half alone.
  b.write(csr::descr_ep, 64, 0x1122334455667788ull);
  EXPECT_EQ(b.read(csr::descr_ep, 32), 0x55667788u);
  b.write(csr::descr_ep, 32, 0xAABBCCDDu);
  EXPECT_EQ(b.read(csr::descr_ep, 64), 0x11223344AABBCCDDull);
  // 32-bit register: a 64-bit read is zero-extended, a 64-bit write truncated.
  EXPECT_EQ(b.read(csr::scu_ctrl_0, 64), 0x000F0959ull);
  b.write(csr::scu_ctrl_0, 64, 0xFFFFFFFF00000123ull);
  EXPECT_EQ(b.read(csr::scu_ctrl_0, 64), 0x123ull);
}

TEST(CsrBlock, UnknownAddressesArePlainStorage) {
  CsrBlock b;
  EXPECT_EQ(b.read(0x4ABC0, 64), 0u);
  b.write(0x4ABC0, 64, 0x0123456789ABCDEFull);
  EXPECT_EQ(b.read(0x4ABC0, 64), 0x0123456789ABCDEFull);
  EXPECT_EQ(b.read(0x4ABC0, 32), 0x89ABCDEFull);
  b.write(0x4ABC0, 32, 0x11111111u);
  EXPECT_EQ(b.read(0x4ABC0, 64), 0x0123456711111111ull);
  b.write(0x1BEEF, 32, 7);
  EXPECT_EQ(b.read(0x1BEEF, 32), 7u);
  b.resetAll();
  EXPECT_EQ(b.read(0x4ABC0, 64), 0u);
}

TEST(CsrBlock, AccessKinds) {
  CsrBlock b;
  // W1C bits 16..18 of rambist_ctrl_1, the rest read/write.
  b.setStored(csr::rambist_ctrl_1, 0x0075007F);
  b.write(csr::rambist_ctrl_1, 32, 0x0001000F);  // clears status bit 16, writes the RW bits
  EXPECT_EQ(b.read(csr::rambist_ctrl_1, 32), 0x0004000Fu);
  // W0C: writing 0 clears, writing 1 keeps.
  b.setStored(csr::top_level_int_1_status, 0x3);
  b.write(csr::top_level_int_1_status, 64, 0x1);
  EXPECT_EQ(b.read(csr::top_level_int_1_status, 64), 0x1u);
  b.write(csr::top_level_int_1_status, 64, 0x0);
  EXPECT_EQ(b.read(csr::top_level_int_1_status, 64), 0x0u);
  // RO: host writes change nothing.
  b.setStored(csr::currentPc, 42);
  b.write(csr::currentPc, 64, 7);
  EXPECT_EQ(b.read(csr::currentPc, 64), 42u);
}

TEST(CsrBlock, HooksSeeIndexAndNativeValues) {
  CsrBlock b;
  std::vector<std::pair<unsigned, uint64_t>> writes;
  b.setHooks(CsrEffect::ScalarRegister,
             {[](const CsrRegister&, unsigned i, uint64_t) -> uint64_t { return 1000 + i; },
              [&](const CsrRegister& reg, unsigned i, uint64_t value, uint64_t) {
                EXPECT_EQ(reg.name, "scalarRegisterFile");
                writes.emplace_back(i, value);
              }});
  EXPECT_EQ(b.read(csr::scalarRegisterFile + 8 * 5, 64), 1005u);
  b.write(csr::scalarRegisterFile + 8 * 7, 32, 0xDEAD);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0], (std::pair<unsigned, uint64_t>{7, 0xDEAD}));
}

TEST(CsrBlock, GcbDomainReset) {
  CsrBlock b;
  b.write(csr::scalarCoreRunControl, 64, 1);
  b.write(csr::descr_ep, 64, 0xFF);
  b.write(csr::tileconfig0, 64, 0x7F);
  b.resetDomain(CsrDomain::Gcb);
  EXPECT_EQ(b.read(csr::scalarCoreRunControl, 64), 0u);
  EXPECT_EQ(b.read(csr::descr_ep, 64), 0xFFu);
  EXPECT_EQ(b.read(csr::tileconfig0, 64), 0x7Fu);
}

TEST(ExecutionMode, NamesRoundTrip) {
  for (ExecutionMode m : {ExecutionMode::kAuto, ExecutionMode::kLle, ExecutionMode::kHle, ExecutionMode::kProtocol}) {
    ExecutionMode parsed{};
    ASSERT_TRUE(parseExecutionMode(executionModeName(m), parsed));
    EXPECT_EQ(parsed, m);
  }
  ExecutionMode parsed{};
  EXPECT_FALSE(parseExecutionMode("LLE", parsed));
  EXPECT_FALSE(parseExecutionMode("", parsed));
}

}  // namespace
}  // namespace coralsim::models::csr_block_test
