// tests/fuzz/fuzz_object.cpp — libFuzzer target for reading an input of the link step as it
// reads it (readDeviceCode): any bytes — an ELF object, an archive, a damaged one — must give the
// device code of each member or an llvm::Error naming the input, never a crash. (Each record's
// checksum is off in this build, so that mutations reach the records' reader.)
#include "ObjectFiles.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace offload::compiler;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  llvm::MemoryBufferRef Bytes(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size), "fuzz.o");
  llvm::Expected<std::vector<DeviceImageFile>> Files = readDeviceCode(Bytes, "fuzz.o");
  if (!Files) {
    const std::string Message = llvm::toString(Files.takeError());
    if (Message.find("fuzz.o") == std::string::npos) {
      std::fprintf(stderr, "fuzz-object: an error does not name the input: %s\n", Message.c_str());
      std::abort();
    }
    return 0;
  }
  for (const DeviceImageFile &F : *Files)
    for (const DeviceImage &I : F.Images)
      if (I.Arch.name().empty() || I.Bytes.empty()) {
        std::fprintf(stderr, "fuzz-object: an image without its architecture or bytes\n");
        std::abort();
      }
  return 0;
}
