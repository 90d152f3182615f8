"""Reads the dynamic loader's LD_DEBUG=libs output (stdin) and fails unless every library it
initialised is under BUNDLE or is one of the node's C library files (which a bundle must take
from the node: they match its dynamic loader). Prints each library and where it came from."""
import os
import re
import sys

bundle = os.path.realpath(sys.argv[1])
from_the_node = ("ld-linux", "libc.so", "libm.so", "libdl.so", "libpthread.so", "librt.so",
                 "libutil.so", "libresolv.so", "linux-vdso")
loaded = re.findall(r"calling init: (\S+)", sys.stdin.read())
if not loaded:
    sys.exit("no 'calling init:' lines: was LD_DEBUG=libs set?")
bad = []
for path in dict.fromkeys(loaded):
    real = os.path.realpath(path)
    if real.startswith(bundle + os.sep):
        print("bundle:", os.path.relpath(real, bundle))
    elif os.path.basename(path).startswith(from_the_node):
        print("node:", os.path.basename(path))
    else:
        bad.append(path)
for path in bad:
    print("FOREIGN:", path)
print("%d libraries, %d from outside the bundle that should not be" % (len(set(loaded)), len(bad)))
sys.exit(1 if bad else 0)
