"""Compares the instructions of the two entries of a PTX file (codegen/lambda-vs-kernel.test):
the lambda kernel's and the OFFLOAD_KERNEL function's, without debug locations and labels."""
import difflib, re, sys

ptx = open(sys.argv[1]).read()
bodies = {}
for chunk in ptx.split(".visible .entry ")[1:]:
    name = chunk.split("(")[0]
    body = chunk[chunk.index("{") + 1:chunk.index("\n}")].replace(name, "ENTRY")
    lines = []
    for line in body.split("\n"):
        line = line.strip()
        if not line or line.startswith(("//", ".loc", "$L__tmp", "$L__func")):
            continue
        lines.append(re.sub(r"\$L__BB\d+_", "$L__BB_", line))
    bodies["lambda" if "lambda_kernel" in name else "kernel"] = lines
kernel, lam = bodies["kernel"], bodies["lambda"]
diff = list(difflib.unified_diff(kernel, lam, lineterm="", n=0))
print(f"{len(kernel)} instructions; " + ("identical" if not diff else "differ:"))
for line in diff:
    print(line)
