"""Checks that each given example file appears verbatim as a ```cpp block of the guide."""
import sys

guide = open(sys.argv[1]).read()
blocks = []
rest = guide
while "```cpp\n" in rest:
    rest = rest.split("```cpp\n", 1)[1]
    block, rest = rest.split("```", 1)
    blocks.append(block.rstrip("\n"))
missing = [path for path in sys.argv[2:] if open(path).read().rstrip("\n") not in blocks]
if missing:
    sys.exit("the guide's text differs from: " + ", ".join(missing))
