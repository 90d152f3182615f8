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
    K.Params = {{"x", "double (*)[256]", "tofrom"}, {"value", "double", "literal"}};
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
  EXPECT_EQ(Back->Kernels[0].Params[1].Kind, "literal");
  EXPECT_EQ(Back->Kernels[0].Params[1].Name, "value");
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
  F.Images.push_back({"nvptx64-nvidia-cuda", "sm_90", llvm::object::IMG_Cubin, "\x7f" "ELFcubin"});
  F.Images.push_back({"amdgcn-amd-amdhsa", "gfx90a", llvm::object::IMG_Object, "\x7f" "ELFhsaco"});
  llvm::Expected<DeviceImageFile> Back = parseDeviceImageFile(serializeDeviceImageFile(F), "t");
  ASSERT_TRUE(bool(Back)) << errorText(Back.takeError());
  EXPECT_EQ(Back->Kernels.Kernels.size(), 2u);
  ASSERT_EQ(Back->Images.size(), 2u);
  EXPECT_EQ(Back->Images[0].Arch, "sm_90");
  EXPECT_EQ(Back->Images[1].Triple, "amdgcn-amd-amdhsa");
  EXPECT_EQ(Back->Images[1].Bytes, "\x7f" "ELFhsaco");
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
