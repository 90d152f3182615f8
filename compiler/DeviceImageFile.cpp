// compiler/DeviceImageFile.cpp — see DeviceImageFile.h.
#include "DeviceImageFile.h"
#include "Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::object;

namespace offload::compiler {

static constexpr StringLiteral RecordKey = "offload-cxx";

static SmallString<0> record(ImageKind Kind, MapVector<StringRef, StringRef> Strings,
                             StringRef Bytes) {
  OffloadBinary::OffloadingImage Image;
  Image.TheImageKind = Kind;
  Image.TheOffloadKind = OFK_OpenMP;
  Image.StringData = std::move(Strings);
  Image.Image = MemoryBuffer::getMemBufferCopy(Bytes);
  return OffloadBinary::write(Image);
}

std::string serializeDeviceImageFile(const DeviceImageFile &File) {
  std::string Out;
  auto Append = [&](const SmallString<0> &R) {
    Out.append(R.begin(), R.end());
    Out.resize(alignTo(Out.size(), OffloadBinary::getAlignment()), '\0');
  };
  std::string ManifestText = toJSON(File.Kernels);
  MapVector<StringRef, StringRef> ManifestStrings;
  ManifestStrings[RecordKey] = "manifest";
  Append(record(IMG_None, ManifestStrings, ManifestText));
  for (const DeviceImage &I : File.Images) {
    MapVector<StringRef, StringRef> Strings;
    Strings[RecordKey] = "image";
    Strings["triple"] = I.Triple;
    Strings["arch"] = I.Arch;
    Append(record(I.Kind, Strings, I.Bytes));
  }
  return Out;
}

Expected<DeviceImageFile> parseDeviceImageFile(StringRef Bytes, StringRef Origin) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "device image file '" + Origin + "' is not valid: " + Why);
  };
  std::unique_ptr<MemoryBuffer> Copy = MemoryBuffer::getMemBufferCopy(Bytes, Origin);
  SmallVector<OffloadFile> Records;
  if (Error E = extractOffloadBinaries(Copy->getMemBufferRef(), Records))
    return Fail(toString(std::move(E)));
  if (Records.empty())
    return Fail("it holds no offload binary (truncated, or not made by offload-cxx)");
  DeviceImageFile File;
  bool SawManifest = false;
  for (const OffloadFile &R : Records) {
    const OffloadBinary &B = *R.getBinary();
    StringRef What = B.getString(RecordKey);
    if (What == "manifest") {
      Expected<Manifest> M = parseManifest(B.getImage(), Origin);
      if (!M)
        return M.takeError();
      File.Kernels = std::move(*M);
      SawManifest = true;
    } else if (What == "image") {
      if (B.getArch().empty() || B.getTriple().empty() || B.getImage().empty())
        return Fail("an image lacks its architecture, triple or bytes");
      File.Images.push_back(
          {B.getTriple().str(), B.getArch().str(), B.getImageKind(), B.getImage().str()});
    } else {
      return Fail("a record was not made by offload-cxx");
    }
  }
  if (!SawManifest)
    return Fail("it holds no manifest");
  return File;
}

Expected<DeviceImageFile> readDeviceImageFile(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createFileError(Path, Buffer.getError());
  return parseDeviceImageFile((*Buffer)->getBuffer(), Path);
}

Error writeDeviceImageFile(const DeviceImageFile &File, StringRef Path) {
  return writeFile(Path, serializeDeviceImageFile(File));
}

} // namespace offload::compiler
