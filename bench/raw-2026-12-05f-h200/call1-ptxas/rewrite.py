import re, sys
# ptxas wrapper: rewrite `add.s64 A, B, C<<32; ... shr.s64 D, A, 32;` into a 32-bit add on B's high half
src = [a for a in sys.argv[1:] if a.endswith('.ptx')][0]
text = open(src).read()
adds = {}
for m in re.finditer(r"add\.s64\s+(%rd\d+), (%rd\d+), (-?\d+);", text):
    n = int(m.group(3))
    if n % (1 << 32) == 0 and n != 0:
        adds[m.group(1)] = (m.group(2), n >> 32)
count = 0
def sub(m):
    global count
    d, a = m.group(1), m.group(2)
    if a not in adds: return m.group(0)
    b, c = adds[a]
    c = ((c + 2**31) % 2**32) - 2**31
    count += 1
    return ("{ .reg .b32 %%ofx_lo, %%ofx_hi; mov.b64 {%%ofx_lo, %%ofx_hi}, %s; add.s32 %%ofx_hi, %%ofx_hi, %d; cvt.s64.s32 %s, %%ofx_hi; }" % (b, c, d))
text = re.sub(r"shr\.s64\s+(%rd\d+), (%rd\d+), 32;", sub, text)
out = src + ".rw.ptx"
open(out, 'w').write(text)
sys.stderr.write("rewrite: %d\n" % count) if count == 0 else None
import os
args = [out if a == src else a for a in sys.argv[1:]]
os.execv("/usr/local/cuda/bin/ptxas", ["ptxas"] + args)
