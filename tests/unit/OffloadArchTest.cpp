// Unit tests for OffloadArch: --offload-arch's names parsed once into a kind and a triple, and
// the one error for a name that is none of them.
#include "OffloadArch.h"

#include <gtest/gtest.h>

namespace {
using offload::compiler::OffloadArch;
using Kind = OffloadArch::Kind;

TEST(OffloadArch, ParsesEachKindWithItsTriple) {
  struct {
    const char *Name;
    Kind K;
    const char *Triple;
  } Cases[] = {
      {"sm_90", Kind::Nvidia, "nvptx64-nvidia-cuda"},
      {"sm_90a", Kind::Nvidia, "nvptx64-nvidia-cuda"},
      {"sm_100f", Kind::Nvidia, "nvptx64-nvidia-cuda"},
      {"sm_52", Kind::Nvidia, "nvptx64-nvidia-cuda"},
      {"gfx90a", Kind::Amd, "amdgcn-amd-amdhsa"},
      {"gfx1100", Kind::Amd, "amdgcn-amd-amdhsa"},
      {"gfx9-generic", Kind::Amd, "amdgcn-amd-amdhsa"},
      {"gfx90a:xnack+", Kind::Amd, "amdgcn-amd-amdhsa"},
      {"host", Kind::Host, "x86_64-unknown-linux-gnu"},
  };
  for (const auto &C : Cases) {
    llvm::Expected<OffloadArch> A = OffloadArch::parse(C.Name);
    ASSERT_TRUE(bool(A)) << C.Name << ": " << llvm::toString(A.takeError());
    EXPECT_EQ(A->name(), C.Name);
    EXPECT_EQ(A->kind(), C.K) << C.Name;
    EXPECT_EQ(A->triple(), C.Triple) << C.Name;
    EXPECT_EQ(A->isGpu(), C.K != Kind::Host) << C.Name;
    EXPECT_EQ(A->isNvidia(), C.K == Kind::Nvidia) << C.Name;
    EXPECT_EQ(A->isAmd(), C.K == Kind::Amd) << C.Name;
  }
  EXPECT_TRUE(OffloadArch::host() == llvm::cantFail(OffloadArch::parse("host")));
}

TEST(OffloadArch, RefusesOtherNamesWithTheOneMessage) {
  for (const char *Name : {"sm_9x", "sm_", "sm_90ab", "cuda", "gfx", "gfxfoo", "native", "",
                           "Host", "nvptx64", "sm90", "compute_90"}) {
    llvm::Expected<OffloadArch> A = OffloadArch::parse(Name);
    ASSERT_FALSE(bool(A)) << "accepted '" << Name << "' as " << A->name();
    EXPECT_EQ(llvm::toString(A.takeError()),
              std::string("unknown offload architecture '") + Name +
                  "' (expected sm_XX for NVIDIA, gfxXXX for AMD, or host)");
    EXPECT_FALSE(OffloadArch::tryParse(Name).has_value()) << Name;
  }
}

TEST(OffloadArch, OrdersByName) {
  // The order a link lowers its objects' architectures in.
  EXPECT_TRUE(llvm::cantFail(OffloadArch::parse("gfx90a")) < OffloadArch::host());
  EXPECT_TRUE(OffloadArch::host() < llvm::cantFail(OffloadArch::parse("sm_90")));
}
} // namespace
