"""Prints the NVIDIA images embedded in a program, one `sm_XX` a line: every ELF inside the file
(past its own header) whose e_machine is EM_CUDA (190); the architecture is bits 8-15 of
e_flags (CUDA 12 and 13 cubins). Used by plain_link.cmake."""
import struct
import sys

data = open(sys.argv[1], "rb").read()
at = data.find(b"\x7fELF", 1)
while at >= 0:
    if at + 52 <= len(data) and struct.unpack_from("<H", data, at + 18)[0] == 190:
        print("sm_%d" % ((struct.unpack_from("<I", data, at + 48)[0] >> 8) & 0xFF))
    at = data.find(b"\x7fELF", at + 4)
