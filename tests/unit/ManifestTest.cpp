// Unit tests for the manifest (llvm::json) and device.bin (llvm::object::OffloadBinary) readers
// and writers: round trips, and clear errors on damaged input.
#include "DeviceImageFile.h"
#include "Manifest.h"

#include <gtest/gtest.h>

namespace {
using namespace offload::compiler;

Manifest sample() {
  Manifest M;
  M.Source = "/src/fill.cpp";
  M.CompileArgs = {"-I/inc", "-DN=4"};
  for (const char *Sym : {"_Z4fillIdEvPA256_T_S0_", "_Z4fillIfEvPA256_T_S0_"}) {
    ManifestKernel K;
    K.Name = Sym[9] == 'd' ? "fill<double>" : "fill<float>";
    K.HostSymbol = Sym;
    K.Entry = deviceEntryName(Sym);
    K.Callee = "static_cast<void (*)(int)>(&::k)";
    K.DeclaredAt = "fill.cpp:9";
    K.Params = {{"x", "double (*)[256]", offload::abi::param_kind::map_tofrom},
                {"value", "double", offload::abi::param_kind::literal}};
    M.addKernel(K);
  }
  return M;
}

std::string errorText(llvm::Error E) { return llvm::toString(std::move(E)); }

TEST(Manifest, RoundTrips) {
  Manifest M = sample();
  llvm::Expected<Manifest> Back = parseManifest(toJSON(M), "test");
  ASSERT_TRUE(bool(Back)) << errorText(Back.takeError());
  EXPECT_EQ(Back->Source, M.Source);
  EXPECT_EQ(Back->CompileArgs, M.CompileArgs);
  ASSERT_EQ(Back->Kernels.size(), 2u);
  EXPECT_EQ(Back->Kernels[1].Name, "fill<float>");
  EXPECT_EQ(Back->Kernels[0].Entry, "__offload_entry_Z4fillIdEvPA256_T_S0_");
  EXPECT_EQ(Back->Kernels[0].Params[1].Kind, offload::abi::param_kind::literal);
  EXPECT_EQ(Back->Kernels[0].Params[1].Name, "value");
}

TEST(Manifest, EveryParamKindRoundTripsAsTheABISpellsIt) {
  using offload::abi::param_kind;
  const param_kind Kinds[] = {param_kind::map_tofrom,  param_kind::map_to,  param_kind::literal,
                              param_kind::value_copy,  param_kind::span_tofrom,
                              param_kind::span_to,     param_kind::device,  param_kind::unmappable};
  Manifest M = sample();
  M.Kernels[0].Params.clear();
  for (param_kind K : Kinds)
    M.Kernels[0].Params.push_back({"p", "T", K});
  const std::string Text = toJSON(M);
  // The JSON holds the ABI's names, not numbers.
  EXPECT_NE(Text.find("\"kind\": \"span_to\""), std::string::npos) << Text;
  EXPECT_NE(Text.find("\"kind\": \"value\""), std::string::npos) << Text;
  llvm::Expected<Manifest> Back = parseManifest(Text, "kinds");
  ASSERT_TRUE(bool(Back)) << errorText(Back.takeError());
  ASSERT_EQ(Back->Kernels[0].Params.size(), std::size(Kinds));
  for (size_t I = 0; I < std::size(Kinds); ++I)
    EXPECT_EQ(Back->Kernels[0].Params[I].Kind, Kinds[I])
        << "parameter " << I << " came back as " << offload::abi::param_kind_name(Back->Kernels[0].Params[I].Kind);
}

TEST(Manifest, RefusesAnUnknownParamKind) {
  const std::string Text = toJSON(sample());
  const std::string Known = "\"kind\": \"literal\"";
  for (const char *Unknown : {"\"kind\": \"literally\"", "\"kind\": \"2\"", "\"kind\": \"\""}) {
    std::string Damaged = Text;
    ASSERT_NE(Damaged.find(Known), std::string::npos) << Text;
    Damaged.replace(Damaged.find(Known), Known.size(), Unknown);
    llvm::Expected<Manifest> M = parseManifest(Damaged, "kinds.manifest");
    ASSERT_FALSE(bool(M)) << "accepted " << Unknown;
    const std::string Message = errorText(M.takeError());
    EXPECT_NE(Message.find("kinds.manifest"), std::string::npos) << Message;
    EXPECT_NE(Message.find("': parameter 1 has the unknown kind \"" + std::string(Unknown).substr(9)),
              std::string::npos)
        << Message;
  }
}

TEST(Manifest, AddKernelKeepsOneEntryPerInstantiation) {
  Manifest M = sample();
  M.addKernel(M.Kernels[0]);
  EXPECT_EQ(M.Kernels.size(), 2u);
}

TEST(Manifest, RejectsDamagedInput) {
  struct {
    std::string Text, Expected;
  } Cases[] = {
      {"{", "is not valid"},
      {"[]", "not an offload-cxx manifest"},
      {R"({"format":"offload-cxx-manifest","version":99,"source":"a","kernels":[]})", "version 99"},
      {R"({"format":"offload-cxx-manifest","version":1,"kernels":[]})", "missing \"source\""},
      {R"({"format":"offload-cxx-manifest","version":1,"source":"a","kernels":[{"name":"k"}]})",
       "lacks \"host_symbol\""},
      {R"({"format":"offload-cxx-manifest","version":1,"source":"a","kernels":[{"name":"k",
          "host_symbol":"_Z1kv","entry":"wrong","callee":"k","declared_at":"","params":[]}]})",
       "entry does not match"},
  };
  for (auto &C : Cases) {
    llvm::Expected<Manifest> M = parseManifest(C.Text, "bad.manifest");
    ASSERT_FALSE(bool(M)) << C.Text;
    std::string Message = errorText(M.takeError());
    EXPECT_NE(Message.find("bad.manifest"), std::string::npos) << Message;
    EXPECT_NE(Message.find(C.Expected), std::string::npos) << Message;
  }
}

TEST(DeviceImageFile, RoundTripsManifestAndImages) {
  DeviceImageFile F;
  F.Kernels = sample();
  F.Images.push_back({llvm::cantFail(OffloadArch::parse("sm_90")), llvm::object::IMG_Cubin,
                      "\x7f" "ELFcubin"});
  F.Images.push_back({llvm::cantFail(OffloadArch::parse("gfx90a")), llvm::object::IMG_Object,
                      "\x7f" "ELFhsaco"});
  llvm::Expected<DeviceImageFile> Back = parseDeviceImageFile(serializeDeviceImageFile(F), "t");
  ASSERT_TRUE(bool(Back)) << errorText(Back.takeError());
  EXPECT_EQ(Back->Kernels.Kernels.size(), 2u);
  ASSERT_EQ(Back->Images.size(), 2u);
  EXPECT_EQ(Back->Images[0].Arch.name(), "sm_90");
  EXPECT_TRUE(Back->Images[0].Arch.isNvidia());
  EXPECT_EQ(Back->Images[1].Arch.name(), "gfx90a");
  EXPECT_EQ(Back->Images[1].Arch.triple(), "amdgcn-amd-amdhsa");
  EXPECT_EQ(Back->Images[1].Bytes, "\x7f" "ELFhsaco");
}

TEST(DeviceImageFile, SplitsJoinedFilesAtEachManifest) {
  // What `ld -r a.o b.o` makes of two objects' sections: one after the other.
  DeviceImageFile A, B;
  A.Kernels = sample();
  A.Images.push_back({llvm::cantFail(OffloadArch::parse("sm_90")), llvm::object::IMG_Cubin,
                      "\x7f" "ELFa"});
  B.Kernels = sample();
  B.Kernels.Source = "/src/b.cpp";
  const std::string Joined = serializeDeviceImageFile(A) + serializeDeviceImageFile(B);
  llvm::Expected<std::vector<DeviceImageFile>> Files = parseDeviceImageFiles(Joined, "ab.o");
  ASSERT_TRUE(bool(Files)) << errorText(Files.takeError());
  ASSERT_EQ(Files->size(), 2u);
  EXPECT_EQ((*Files)[0].Images.size(), 1u);
  EXPECT_EQ((*Files)[1].Images.size(), 0u);
  EXPECT_EQ((*Files)[1].Kernels.Source, "/src/b.cpp");
  // device.bin holds one file: two are refused, named.
  llvm::Expected<DeviceImageFile> One = parseDeviceImageFile(Joined, "device.bin");
  ASSERT_FALSE(bool(One));
  EXPECT_NE(errorText(One.takeError()).find("2 manifests"), std::string::npos);
}

TEST(DeviceImageFile, RejectsTruncatedAndForeignFiles) {
  DeviceImageFile F;
  F.Kernels = sample();
  std::string Bytes = serializeDeviceImageFile(F);
  for (std::string Damaged : {Bytes.substr(0, Bytes.size() / 2), std::string("not a device.bin"),
                              std::string()}) {
    llvm::Expected<DeviceImageFile> Back = parseDeviceImageFile(Damaged, "broken.bin");
    ASSERT_FALSE(bool(Back));
    std::string Message = errorText(Back.takeError());
    EXPECT_NE(Message.find("broken.bin"), std::string::npos) << Message;
  }
}
} // namespace
