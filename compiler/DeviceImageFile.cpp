// compiler/DeviceImageFile.cpp — see DeviceImageFile.h.
#include "DeviceImageFile.h"
#include "Subprocess.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstddef>

using namespace llvm;
using namespace llvm::object;

namespace offload::compiler {

static constexpr StringLiteral RecordKey = "offload-cxx";
/// Each record carries a checksum of its bytes (xxh3, hex): a damaged object (a flipped byte in
/// its offload section) is refused by name instead of reaching the bitcode reader, which may
/// crash on malformed input.
static constexpr StringLiteral ChecksumKey = "offload-cxx.checksum";

static std::string checksum(StringRef Bytes) { return utohexstr(xxh3_64bits(Bytes)); }

static SmallString<0> record(ImageKind Kind, MapVector<StringRef, StringRef> Strings,
                             StringRef Bytes) {
  OffloadBinary::OffloadingImage Image;
  Image.TheImageKind = Kind;
  Image.TheOffloadKind = OFK_OpenMP;
  const std::string Sum = checksum(Bytes);
  Strings[ChecksumKey] = Sum;
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
    Strings["triple"] = I.Arch.triple();
    Strings["arch"] = I.Arch.name();
    Append(record(I.Kind, Strings, I.Bytes));
  }
  return Out;
}

/// Checks that the OffloadBinary record at the start of `Bytes` (its header says how long it is)
/// lies within `Bytes` with everything it points to: LLVM 22's OffloadBinary::create checks the
/// header and the entry but follows the string offsets unchecked (a damaged file made it read
/// far outside the buffer). Returns the record's size, or an error saying what is wrong.
static Expected<uint64_t> checkRecord(StringRef Bytes) {
  using Header = OffloadBinary::Header;
  using Entry = OffloadBinary::Entry;
  using StringEntry = OffloadBinary::StringEntry;
  auto Bad = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Why);
  };
  auto U64 = [&](uint64_t At) { return support::endian::read64le(Bytes.data() + At); };
  if (Bytes.size() < sizeof(Header))
    return Bad("a record is truncated (" + Twine(Bytes.size()) + " bytes left)");
  if (identify_magic(Bytes) != file_magic::offload_binary)
    return Bad("a record does not start with the OffloadBinary magic bytes");
  const uint64_t Size = U64(offsetof(Header, Size));
  const uint64_t EntryAt = U64(offsetof(Header, EntryOffset));
  if (Size < sizeof(Header) || Size > Bytes.size())
    return Bad("a record's size (" + Twine(Size) + ") does not fit the " +
               Twine(Bytes.size()) + " bytes left");
  auto Within = [&](uint64_t At, uint64_t Length) { return At <= Size && Length <= Size - At; };
  if (!Within(EntryAt, sizeof(Entry)) || EntryAt % alignof(Entry))
    return Bad("a record's entry lies outside it");
  const uint64_t StringsAt = U64(EntryAt + offsetof(Entry, StringOffset));
  const uint64_t NumStrings = U64(EntryAt + offsetof(Entry, NumStrings));
  const uint64_t ImageAt = U64(EntryAt + offsetof(Entry, ImageOffset));
  const uint64_t ImageSize = U64(EntryAt + offsetof(Entry, ImageSize));
  if (!Within(ImageAt, ImageSize))
    return Bad("a record's image lies outside it");
  if (StringsAt > Size || StringsAt % alignof(StringEntry) ||
      NumStrings > (Size - StringsAt) / sizeof(StringEntry))
    return Bad("a record's string table lies outside it");
  const StringRef Record = Bytes.take_front(Size);
  for (uint64_t I = 0; I < NumStrings; ++I)
    for (uint64_t At : {U64(StringsAt + I * sizeof(StringEntry)),
                        U64(StringsAt + I * sizeof(StringEntry) + sizeof(uint64_t))})
      if (At >= Size || Record.find('\0', At) == StringRef::npos)
        return Bad("a record's string " + Twine(I) + " lies outside it");
  return Size;
}

Expected<std::vector<DeviceImageFile>> parseDeviceImageFiles(StringRef Bytes, StringRef Origin) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "device image file '" + Origin + "' is not valid: " + Why);
  };
  // The records one after another, each checked before OffloadBinary reads it (from an aligned
  // copy: it reads the header and entry in place).
  SmallVector<std::pair<std::unique_ptr<MemoryBuffer>, std::unique_ptr<OffloadBinary>>> Records;
  for (uint64_t At = 0; At < Bytes.size();) {
    Expected<uint64_t> Size = checkRecord(Bytes.drop_front(At));
    if (!Size)
      return Fail(toString(Size.takeError()) + " (at byte " + Twine(At) +
                  "; truncated, or not made by offload-cxx?)");
    std::unique_ptr<MemoryBuffer> Copy =
        MemoryBuffer::getMemBufferCopy(Bytes.substr(At, *Size), Origin);
    Expected<std::unique_ptr<OffloadBinary>> Binary = OffloadBinary::create(*Copy);
    if (!Binary)
      return Fail(toString(Binary.takeError()));
    Records.emplace_back(std::move(Copy), std::move(*Binary));
    At = alignTo(At + *Size, OffloadBinary::getAlignment());
  }
  if (Records.empty())
    return Fail("it holds no offload binary (truncated, or not made by offload-cxx)");
  // Each manifest starts a file (its images follow it): one in device.bin and in an object, one
  // per object joined by a partial link (`ld -r a.o b.o`), which concatenates their sections.
  std::vector<DeviceImageFile> Files;
  for (const auto &R : Records) {
    const OffloadBinary &B = *R.second;
    StringRef What = B.getString(RecordKey);
#if !defined(FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)  // the fuzzers explore past it
    if (B.getString(ChecksumKey) != checksum(B.getImage()))
      return Fail("its device code is damaged (a record's checksum does not match its bytes): "
                  "rebuild it");
#endif
    if (What == "manifest") {
      Expected<Manifest> M = parseManifest(B.getImage(), Origin);
      if (!M)
        return M.takeError();
      Files.emplace_back().Kernels = std::move(*M);
    } else if (What == "image") {
      if (Files.empty())
        return Fail("an image comes before any manifest");
      if (B.getArch().empty() || B.getTriple().empty() || B.getImage().empty())
        return Fail("an image lacks its architecture, triple or bytes");
      std::optional<OffloadArch> Arch = OffloadArch::tryParse(B.getArch());
      if (!Arch)
        return Fail("an image is for an unknown architecture '" + B.getArch() + "'");
      if (B.getTriple() != Arch->triple())
        return Fail("the image for " + Arch->name() + " is for '" + B.getTriple() +
                    "', not '" + Arch->triple() + "'");
      Files.back().Images.push_back({*Arch, B.getImageKind(), B.getImage().str()});
    } else {
      return Fail("a record was not made by offload-cxx");
    }
  }
  if (Files.empty())
    return Fail("it holds no manifest");
  return Files;
}

Expected<DeviceImageFile> parseDeviceImageFile(StringRef Bytes, StringRef Origin) {
  Expected<std::vector<DeviceImageFile>> Files = parseDeviceImageFiles(Bytes, Origin);
  if (!Files)
    return Files.takeError();
  if (Files->size() != 1)
    return createStringError(inconvertibleErrorCode(),
                             "device image file '" + Origin + "' is not valid: it holds " +
                                 Twine(Files->size()) + " manifests, not one");
  return std::move(Files->front());
}

Expected<DeviceImageFile> readDeviceImageFile(StringRef Path) {
  if (Error E = checkRegularFile(Path))
    return E;
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createFileError(Path, Buffer.getError());
  return parseDeviceImageFile((*Buffer)->getBuffer(), Path);
}

Error writeDeviceImageFile(const DeviceImageFile &File, StringRef Path) {
  return writeFile(Path, serializeDeviceImageFile(File));
}

} // namespace offload::compiler
