// compiler/DeviceImageFile.h — device.bin, the device pass's output and the host pass's input:
// a sequence of LLVM OffloadBinary records (llvm::object::OffloadBinary, as in the
// `.llvm.offloading` section of clang's objects). One record holds the manifest (image kind
// IMG_None, string "offload-cxx" = "manifest"), each other one a device image for one
// architecture (an sm_XX cubin, a gfxXXX code object).
#pragma once

#include "Manifest.h"
#include "OffloadArch.h"

#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace offload::compiler {

/// One architecture's device code: bitcode inside objects, an image in a program.
struct DeviceImage {
  OffloadArch Arch = OffloadArch::host();  ///< its triple is the record's triple
  llvm::object::ImageKind Kind = llvm::object::IMG_None;
  std::string Bytes;   ///< the raw image: an executable cubin, an AMDGPU code object
};

struct DeviceImageFile {
  Manifest Kernels;
  std::vector<DeviceImage> Images;
};

std::string serializeDeviceImageFile(const DeviceImageFile &File);
/// One file's records (device.bin): exactly one manifest.
llvm::Expected<DeviceImageFile> parseDeviceImageFile(llvm::StringRef Bytes, llvm::StringRef Origin);
/// Records of one or more files one after another (the section of an object made by a partial
/// link, `ld -r a.o b.o`): a file per manifest, each with the images after it.
llvm::Expected<std::vector<DeviceImageFile>> parseDeviceImageFiles(llvm::StringRef Bytes,
                                                                   llvm::StringRef Origin);
llvm::Expected<DeviceImageFile> readDeviceImageFile(llvm::StringRef Path);
llvm::Error writeDeviceImageFile(const DeviceImageFile &File, llvm::StringRef Path);

} // namespace offload::compiler
