// tests/fuzz/fuzz_manifest.cpp — libFuzzer target for the manifest reader (parseManifest, which
// readManifest calls on a file's contents). Any input must give a manifest or an llvm::Error
// with a message, never a crash; and a manifest that parses must write back (toJSON) to text
// that parses to the same manifest.
#include "Manifest.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace offload::compiler;

static void failIf(bool Bad, const char *What) {
  if (Bad) {
    std::fprintf(stderr, "fuzz-manifest: %s\n", What);
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<Manifest> M = parseManifest(Text, "fuzz input");
  if (!M) {
    std::string Message = llvm::toString(M.takeError());
    failIf(Message.find("manifest 'fuzz input' is not valid: ") != 0,
           "an error message does not name the manifest");
    return 0;
  }
  const std::string Written = toJSON(*M);
  llvm::Expected<Manifest> Again = parseManifest(Written, "written back");
  if (!Again) {
    std::fprintf(stderr, "%s\n", llvm::toString(Again.takeError()).c_str());
    failIf(true, "a manifest written back does not parse");
  }
  failIf(toJSON(*Again) != Written, "a manifest written back parses to another manifest");
  return 0;
}
