#!/usr/bin/env python3
"""Writes a device.bin seed with a device-image record, for the device-image fuzzer's corpus.

The device pass run with --offload-arch=host writes only the manifest record (the CPU device
needs no image), so this appends one OffloadBinary record (LLVM 22 layout, version 1) holding a
small fake image with the strings the reader expects ("offload-cxx" = "image", triple, arch).
Usage: make_image_seed.py <device.bin with a manifest> <output>
"""
import struct
import sys

MAGIC = b"\x10\xff\x10\xad"
HEADER = "<4sIQQQ"   # magic, version, size, entry offset, entry size
ENTRY = "<HHIQQQQ"   # image kind, offload kind, flags, string offset, strings, image offset, size


def record(image_kind, strings, image):
    header_size = struct.calcsize(HEADER)
    entry_size = struct.calcsize(ENTRY)
    string_entries_at = header_size + entry_size
    table_at = string_entries_at + 16 * len(strings)
    table = b""
    offsets = []
    for key, value in strings:
        k = table_at + len(table)
        table += key + b"\0"
        v = table_at + len(table)
        table += value + b"\0"
        offsets.append((k, v))
    image_at = (table_at + len(table) + 7) // 8 * 8
    size = (image_at + len(image) + 7) // 8 * 8
    out = bytearray(size)
    struct.pack_into(HEADER, out, 0, MAGIC, 1, size, header_size, entry_size)
    struct.pack_into(ENTRY, out, header_size, image_kind, 1, 0, string_entries_at, len(strings),
                     image_at, len(image))
    for i, (k, v) in enumerate(offsets):
        struct.pack_into("<QQ", out, string_entries_at + 16 * i, k, v)
    out[table_at:table_at + len(table)] = table
    out[image_at:image_at + len(image)] = image
    return bytes(out)


base = open(sys.argv[1], "rb").read()
base += b"\0" * (-len(base) % 8)
IMG_CUBIN = 3
image = record(IMG_CUBIN, [(b"offload-cxx", b"image"), (b"triple", b"nvptx64-nvidia-cuda"),
                           (b"arch", b"sm_90")], b"\x7fELF fake cubin for the fuzzer's seed\n")
open(sys.argv[2], "wb").write(base + image)
