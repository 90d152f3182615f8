// tests/fuzz/fuzz_device_image.cpp — libFuzzer target for the device-image file reader
// (parseDeviceImageFile, which readDeviceImageFile calls on a file's bytes). Any input must give
// a file or an llvm::Error with a message, never a crash; a file that parses must serialize to
// bytes that parse to the same manifest and images.
#include "DeviceImageFile.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace offload::compiler;

static void failIf(bool Bad, const char *What) {
  if (Bad) {
    std::fprintf(stderr, "fuzz-device-image: %s\n", What);
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  llvm::StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<DeviceImageFile> File = parseDeviceImageFile(Bytes, "fuzz input");
  if (!File) {
    std::string Message = llvm::toString(File.takeError());
    failIf(Message.find("'fuzz input'") == std::string::npos,
           "an error message does not name the file");
    return 0;
  }
  const std::string Written = serializeDeviceImageFile(*File);
  llvm::Expected<DeviceImageFile> Again = parseDeviceImageFile(Written, "written back");
  if (!Again) {
    std::fprintf(stderr, "%s\n", llvm::toString(Again.takeError()).c_str());
    failIf(true, "a device image file written back does not parse");
  }
  failIf(toJSON(Again->Kernels) != toJSON(File->Kernels), "the manifest changed on a round trip");
  failIf(Again->Images.size() != File->Images.size(), "the images changed on a round trip");
  for (std::size_t I = 0; I < File->Images.size(); ++I) {
    const DeviceImage &A = File->Images[I], &B = Again->Images[I];
    failIf(!(A.Arch == B.Arch) || A.Kind != B.Kind || A.Bytes != B.Bytes,
           "an image changed on a round trip");
  }
  return 0;
}
