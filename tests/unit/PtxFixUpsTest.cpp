// PtxFixUps: the PTX changes made before ptxas reads clang's output (compiler/PtxFixUps.h).
#include "PtxFixUps.h"

#include <gtest/gtest.h>

using offload::compiler::quoteSafeFileDirectives;
using offload::compiler::splitHighHalfAdds;

namespace {

// The shape clang 22 emits for `(long long)(int)(gid * 2654435761u + C)` with two values of C
// (tests/kernelfuzz/gpu-regressions/ptxas-13.0/small-20013.cpp): ptxas 13.0 -O3 computed both with 78.
const char *TwoHighAdds = ".visible .entry k(\n"
                          ")\n"
                          "{\n"
                          "\tld.param.b64 \t%rd11, [k_param_0];\n"
                          "\tmul.lo.s64 \t%rd24, %rd11, -7046029290881679360;\n"
                          "\tadd.s64 \t%rd49, %rd24, 335007449088;\n"
                          "\tshr.s64 \t%rd50, %rd49, 32;\n"
                          "\tadd.s64 \t%rd53, %rd24, -4294967296;\n"
                          "\tshr.s64 \t%rd54, %rd53, 32;\n"
                          "\tret;\n"
                          "}\n";

TEST(PtxFixUpsTest, HighHalfAddsOfAProductBecome32BitArithmetic) {
  unsigned N = 0;
  const std::string Out = splitHighHalfAdds(TwoHighAdds, &N);
  EXPECT_EQ(N, 2u);
  // -7046029290881679360 is 2654435761 * 2^32: the high half is lo(%rd11) * 2654435761.
  EXPECT_NE(Out.find("\t{ .reg .b32 %ofx_lo, %ofx_hi; cvt.u32.u64 %ofx_lo, %rd11; mad.lo.s32 "
                     "%ofx_hi, %ofx_lo, -1640531535, 78; cvt.s64.s32 %rd50, %ofx_hi; }\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("mad.lo.s32 %ofx_hi, %ofx_lo, -1640531535, -1; cvt.s64.s32 %rd54, %ofx_hi; }"),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("shr.s64"), std::string::npos);
  // The adds stay (ptxas drops them when nothing else reads them).
  EXPECT_NE(Out.find("add.s64 \t%rd49, %rd24, 335007449088;"), std::string::npos);
}

TEST(PtxFixUpsTest, HighHalfAddsOfOtherValuesAddToTheHighHalf) {
  const std::string Ptx = "{\n"
                          "\tld.param.b64 \t%rd1, [k_param_0];\n"
                          "\tshl.b64 \t%rd2, %rd1, 32;\n"
                          "\tadd.s64 \t%rd3, %rd1, 12884901888;\n"
                          "\tshr.s64 \t%rd4, %rd3, 32;\n"
                          "\tadd.s64 \t%rd5, %rd2, 12884901888;\n"
                          "\tshr.s64 \t%rd6, %rd5, 32;\n"
                          "}\n";
  unsigned N = 0;
  const std::string Out = splitHighHalfAdds(Ptx, &N);
  EXPECT_EQ(N, 2u);
  EXPECT_NE(Out.find("mov.b64 {%ofx_lo, %ofx_hi}, %rd1; add.s32 %ofx_hi, %ofx_hi, 3; "
                     "cvt.s64.s32 %rd4, %ofx_hi; }"),
            std::string::npos)
      << Out;
  // shl by 32: the high half is the low half of %rd1.
  EXPECT_NE(Out.find("cvt.u32.u64 %ofx_lo, %rd1; mad.lo.s32 %ofx_hi, %ofx_lo, 1, 3; "
                     "cvt.s64.s32 %rd6, %ofx_hi; }"),
            std::string::npos)
      << Out;
}

TEST(PtxFixUpsTest, LeavesOtherShiftsAndAddsAsTheyAre) {
  // Not a multiple of 2^32; a shift by 31; a logical shift; a guarded shift.
  const std::string Ptx = "{\n"
                          "\tadd.s64 \t%rd2, %rd1, 4294967297;\n"
                          "\tshr.s64 \t%rd3, %rd2, 32;\n"
                          "\tadd.s64 \t%rd4, %rd1, 4294967296;\n"
                          "\tshr.s64 \t%rd5, %rd4, 31;\n"
                          "\tshr.u64 \t%rd6, %rd4, 32;\n"
                          "\t@%p1 shr.s64 \t%rd7, %rd4, 32;\n"
                          "}\n";
  unsigned N = 7;
  EXPECT_EQ(splitHighHalfAdds(Ptx, &N), Ptx);
  EXPECT_EQ(N, 0u);
}

TEST(PtxFixUpsTest, LeavesRegistersWrittenTwiceAsTheyAre) {
  // %rd1 is a loop's value (written in two places): its high half at the add may not be its
  // high half at the shift. Registers are per function: the second function's %rd1 is its own.
  const std::string Ptx = ".func f()\n{\n"
                          "\tmov.b64 \t%rd1, 0;\n"
                          "$L1:\n"
                          "\tadd.s64 \t%rd2, %rd1, 4294967296;\n"
                          "\tadd.s64 \t%rd1, %rd1, 1;\n"
                          "\tshr.s64 \t%rd3, %rd2, 32;\n"
                          "}\n"
                          ".func g()\n{\n"
                          "\tld.param.b64 \t%rd1, [g_param_0];\n"
                          "\tadd.s64 \t%rd2, %rd1, 8589934592;\n"
                          "\tshr.s64 \t%rd3, %rd2, 32;\n"
                          "}\n";
  unsigned N = 0;
  const std::string Out = splitHighHalfAdds(Ptx, &N);
  EXPECT_EQ(N, 1u);
  EXPECT_NE(Out.find("\tshr.s64 \t%rd3, %rd2, 32;\n}\n.func g()"), std::string::npos) << Out;
  EXPECT_NE(Out.find("add.s32 %ofx_hi, %ofx_hi, 2; cvt.s64.s32 %rd3, %ofx_hi; }"),
            std::string::npos)
      << Out;
}

TEST(PtxFixUpsTest, QuotesInFileDirectivesBecomeApostrophes) {
  EXPECT_EQ(quoteSafeFileDirectives("\t.file\t1 \"/tmp/a\"b.cpp\"\n\tret;"),
            "\t.file\t1 \"/tmp/a'b.cpp\"\n\tret;");
  EXPECT_EQ(quoteSafeFileDirectives("\t.file\t1 \"/tmp/ab.cpp\""), "\t.file\t1 \"/tmp/ab.cpp\"");
}

} // namespace
