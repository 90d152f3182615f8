#!/usr/bin/env python3
"""kernelfuzz.py — the differential kernel fuzzer (issue 29).

Batches of random kernels (kernelgen.py) are built twice, as the CPU device runs them in work-item
loops (--cpu-image=on) and as fibers (--cpu-image=off, the reference: the host compiler's code,
one fiber per work-item), and run on the CPU device; every kernel prints a hash of everything it
wrote. A kernel whose hashes differ (or a build that fails, or a run that crashes or hangs) is
reduced (reduce) to a small kernel that still differs, which is written to regressions/ and from
then on is a test (tests/lit/e2e/kernelfuzz_regressions.test).

  kernelfuzz.py run --driver build/bin/offload-cxx --seeds 1:20 --count 40 [--jobs 2]
  kernelfuzz.py reduce --driver ... SEED INDEX          # by hand: one kernel of a batch
  kernelfuzz.py gpu-build --driver ... --seeds 1:10 --count 50 --out DIR
        # programs built for sm_90,host plus each one's reference hashes (fibers), for a GPU run:
        # run DIR/check.sh on the GPU machine (scripts/kernelfuzz-gpu.sh does both)

The -O level and the CPU device's thread count vary with the seed (-O0 to -O3, 1 to 4 threads).
The last line says how many kernels agreed: `kernelfuzz: N kernels agree, M differ`.
"""
from __future__ import annotations

import argparse
import copy
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernelgen  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REGRESSIONS = os.path.join(HERE, "regressions")
OPT_LEVELS = ["-O2", "-O0", "-O3", "-O1"]


def opt_for(seed: int) -> str:
    return OPT_LEVELS[seed % len(OPT_LEVELS)]


def threads_for(seed: int) -> str:
    return str(1 + seed % 4)


# --fast: the CPU image's code generation without LLVM's loop strength reduction, 74% of its
# compile on these kernels (the work-item loops transformation under test is unchanged).
EXTRA_LOOPS_FLAGS: list[str] = []


def build(driver: str, src: str, exe: str, opt: str, form: str, archs: str = "host", timeout: int = 1200):
    """(ok, log). form: 'loops' or 'fibers'."""
    cmd = [driver, opt, f"--offload-arch={archs}", "--cpu-image=" + ("on" if form == "loops" else "off"),
           "-w", src, "-o", exe] + (["-v"] + EXTRA_LOOPS_FLAGS if form == "loops" else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"build timed out: {' '.join(cmd)}"
    return p.returncode == 0, p.stdout + p.stderr


def run(exe: str, threads: str, timeout: int = 120) -> tuple[dict[str, str], str]:
    """Each kernel's hash, and what went wrong (empty if nothing)."""
    env = dict(os.environ, OFFLOAD_DEVICE="cpu", OFFLOAD_CPU_THREADS=threads)
    try:
        p = subprocess.run([exe], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {}, "timed out"
    hashes = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            hashes[parts[0]] = parts[1]
    problem = "" if p.returncode == 0 else f"exit {p.returncode}: {p.stderr.strip()[-400:]}"
    return hashes, problem


def compare(kernels, loops, fibers) -> list[str]:
    """Names of the kernels whose results differ (or are missing from either run)."""
    return [k.name for k in kernels if k.name not in loops or k.name not in fibers or loops[k.name] != fibers[k.name]]


def check_program(driver: str, program: str, opt: str, threads: str, work: str, archs: str = "host"):
    """Builds `program` both ways (the loops also for `archs`) and runs both on the CPU device:
    (loops, fibers, problem)."""
    src = os.path.join(work, "k.cpp")
    with open(src, "w") as f:
        f.write(program)
    with ThreadPoolExecutor(2) as pool:
        a = pool.submit(build, driver, src, os.path.join(work, "loops"), opt, "loops", archs)
        b = pool.submit(build, driver, src, os.path.join(work, "fibers"), opt, "fibers")
        (ok_l, log_l), (ok_f, log_f) = a.result(), b.result()
    if not ok_f:
        return None, None, "the reference build failed (a generator bug):\n" + log_f[-2000:]
    if not ok_l:
        return None, None, "the work-item loops build failed:\n" + log_l[-2000:]
    # A kernel the transformation broke runs as fibers, right but slow: a bug all the same.
    broken = [l for l in log_l.splitlines() if "fibers, because internal error" in l]
    if broken:
        return None, None, "the work-item loops build failed: " + broken[0][:300]
    loops, pl = run(os.path.join(work, "loops"), threads)
    fibers, pf = run(os.path.join(work, "fibers"), threads)
    if pf:
        return loops, fibers, "the reference run failed (a generator bug): " + pf
    again, _ = run(os.path.join(work, "fibers"), threads)
    if again != fibers:
        racy = sorted(n for n in fibers if again.get(n) != fibers[n])
        return loops, fibers, "the reference differs from itself (a generator bug: a race): " + " ".join(racy)
    return loops, fibers, ("loops run: " + pl) if pl else ""


# ------------------------------------------------------------------------- reduction
def statement_lists(k: kernelgen.Kernel):
    """Every statement list of the kernel and its helpers (each a list object to edit)."""
    lists = []

    def walk(stmts):
        lists.append(stmts)
        for s in stmts:
            walk(s.body)
            walk(s.orelse)
    walk(k.body)
    for h in k.helpers:
        walk(h.body)
    return lists


def candidates(k: kernelgen.Kernel):
    """Smaller kernels: one statement deleted, or replaced by its body or else-branch."""
    n_lists = len(statement_lists(k))
    for li in range(n_lists):
        for si in range(len(statement_lists(k)[li])):
            for how in ("delete", "body", "orelse"):
                c = copy.deepcopy(k)
                stmts = statement_lists(c)[li]
                s = stmts[si]
                if how == "delete":
                    del stmts[si]
                elif how == "body" and s.body:
                    stmts[si:si + 1] = s.body
                elif how == "orelse" and s.orelse:
                    stmts[si:si + 1] = s.orelse
                else:
                    continue
                yield c
    # Helpers no statement calls any more.
    text = "\n".join(kernelgen.print_kernel(k).splitlines())
    for hi, h in enumerate(k.helpers):
        if text.count(h.name + "(") <= 1:
            c = copy.deepcopy(k)
            del c.helpers[hi]
            yield c
    for vi in range(len(k.vars)):
        c = copy.deepcopy(k)
        del c.vars[vi]
        yield c
    if k.groups != (1, 1, 1):
        c = copy.deepcopy(k)
        c.groups = (1, 1, 1)
        yield c


def size(k: kernelgen.Kernel) -> int:
    return len(kernelgen.print_kernel(k).splitlines())


def reduce_kernel(driver: str, k: kernelgen.Kernel, opt: str, threads: str, log=print) -> kernelgen.Kernel:
    """The smallest kernel found (greedy, to a fixed point) whose two forms still differ."""
    work = tempfile.mkdtemp(prefix="kernelfuzz-reduce-")
    try:
        def kind(problem, loops, fibers, c):
            """What is wrong with candidate c: '' (nothing), or the class of the failure."""
            if problem.startswith("the reference"):
                return "invalid"
            if problem.startswith("the work-item loops build failed"):
                return "loops-build"
            return "differs" if problem or compare([c], loops, fibers) else ""

        loops, fibers, problem = check_program(driver, kernelgen.print_program([k]), opt, threads, work)
        wanted = kind(problem, loops, fibers, k)
        if wanted in ("", "invalid"):
            log(f"  {k.name}: {'agrees alone (the difference needs the batch)' if not wanted else problem}; kept whole")
            return k

        def differs(c):
            loops, fibers, problem = check_program(driver, kernelgen.print_program([c]), opt, threads, work)
            return kind(problem, loops, fibers, c) == wanted

        best = k
        progress = True
        while progress:
            progress = False
            for c in candidates(best):
                if size(c) < size(best) and differs(c):
                    best = c
                    progress = True
                    log(f"  reduced {k.name} to {size(best)} lines")
                    break
        return best
    finally:
        shutil.rmtree(work, ignore_errors=True)


def keep_regression(k: kernelgen.Kernel, opt: str, threads: str, why: str) -> str:
    os.makedirs(REGRESSIONS, exist_ok=True)
    path = os.path.join(REGRESSIONS, f"{k.name}.cpp")
    header = (f"// kernelfuzz regression: work-item loops and fibers differed ({why.splitlines()[0] if why else 'results'}).\n"
              f"// Reduced from kernelgen.py's kernel {k.name}; built {opt}, OFFLOAD_CPU_THREADS={threads}.\n"
              f"// FUZZ-OPT: {opt}\n// FUZZ-THREADS: {threads}\n")
    with open(path, "w") as f:
        f.write(header + kernelgen.print_program([k]))
    return path


# ------------------------------------------------------------------------- commands
def cmd_run(a) -> int:
    if a.fast:
        EXTRA_LOOPS_FLAGS.extend(["-Xoffload-device", "-mllvm", "-Xoffload-device", "-disable-lsr"])
    first, last = (int(x) for x in a.seeds.split(":"))
    agree = differ = 0
    failures = []
    start = time.time()
    for seed in range(first, last):
        if a.budget and time.time() - start > a.budget:
            print(f"kernelfuzz: time budget of {a.budget} s spent after seed {seed - 1}")
            break
        kernels = kernelgen.batch(seed, a.count, False)
        opt, threads = opt_for(seed), threads_for(seed)
        work = tempfile.mkdtemp(prefix=f"kernelfuzz-{seed}-")
        t0 = time.time()
        loops, fibers, problem = check_program(a.driver, kernelgen.print_program(kernels), opt, threads, work,
                                               a.archs)
        bad = compare(kernels, loops or {}, fibers or {}) if loops is not None else [k.name for k in kernels]
        # A build failure that names its kernel (an internal error of the transformation): that one.
        named = [k.name for k in kernels if f"'{k.name}'" in problem]
        if loops is None and named:
            bad = named
        if problem.startswith("the reference"):
            print(f"seed {seed}: {problem}")
            failures.append((seed, None, problem))
            differ += len(kernels)
            shutil.rmtree(work, ignore_errors=True)
            continue
        if loops is None and not named:  # nothing ran: no kernel counts as agreeing
            bad = [k.name for k in kernels]
        agree += len(kernels) - len(bad)
        differ += len(bad)
        print(f"seed {seed} ({opt}, {threads} threads): {len(kernels) - len(bad)} of {len(kernels)} agree"
              f"{' — ' + problem.splitlines()[0] if problem else ''} ({time.time() - t0:.0f} s)", flush=True)
        if bad and not a.no_reduce:
            by_name = {k.name: k for k in kernels}
            targets = bad if loops is not None and not problem else bad[:1]
            for name in targets[: a.max_reduce]:
                print(f"  {name} differs: reducing", flush=True)
                small = reduce_kernel(a.driver, by_name[name], opt, threads)
                path = keep_regression(small, opt, threads, problem)
                print(f"  kept {os.path.relpath(path)} ({size(small)} lines)", flush=True)
                failures.append((seed, name, path))
        elif bad:
            failures.append((seed, bad, problem))
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            shutil.copy(os.path.join(work, "k.cpp"), os.path.join(a.keep, f"batch-{seed}.cpp"))
        shutil.rmtree(work, ignore_errors=True)
    print(f"kernelfuzz: {agree} kernels agree, {differ} differ ({time.time() - start:.0f} s)")
    return 1 if differ else 0


def cmd_regressions(a) -> int:
    """Every kept regression, built both ways and run: the forms must agree."""
    files = sorted(f for f in os.listdir(REGRESSIONS) if f.endswith(".cpp")) if os.path.isdir(REGRESSIONS) else []
    failed = 0
    for name in files:
        text = open(os.path.join(REGRESSIONS, name)).read()
        opt = next((l.split(":", 1)[1].strip() for l in text.splitlines() if l.startswith("// FUZZ-OPT:")), "-O2")
        threads = next((l.split(":", 1)[1].strip() for l in text.splitlines() if l.startswith("// FUZZ-THREADS:")), "2")
        work = tempfile.mkdtemp(prefix="kernelfuzz-regression-")
        loops, fibers, problem = check_program(a.driver, text, opt, threads, work)
        shutil.rmtree(work, ignore_errors=True)
        same = not problem and loops and loops == fibers
        failed += not same
        print(f"{name}: {'agree' if same else 'DIFFER ' + (problem or f'{loops} != {fibers}')}")
    print(f"kernelfuzz regressions: {len(files) - failed} agree, {failed} differ")
    return 1 if failed else 0


def cmd_reduce(a) -> int:
    k = kernelgen.make_kernel(a.seed, a.index, False)
    small = reduce_kernel(a.driver, k, opt_for(a.seed), threads_for(a.seed))
    print(keep_regression(small, opt_for(a.seed), threads_for(a.seed), ""))
    return 0


def cmd_gpu_build(a) -> int:
    """Programs for a GPU run: each batch built for sm_90,host, with the fibers' hashes beside it."""
    first, last = (int(x) for x in a.seeds.split(":"))
    os.makedirs(a.out, exist_ok=True)
    names = []
    for seed in range(first, last):
        kernels = kernelgen.batch(seed, a.count, True)
        src = os.path.join(a.out, f"batch-{seed}.cpp")
        with open(src, "w") as f:
            f.write(kernelgen.print_program(kernels))
        opt = opt_for(seed)
        ok, log = build(a.driver, src, os.path.join(a.out, f"batch-{seed}"), opt, "loops", archs=a.archs)
        if not ok:
            print(f"seed {seed}: the GPU build failed:\n{log[-2000:]}")
            return 1
        okf, logf = build(a.driver, src, os.path.join(a.out, f"ref-{seed}"), opt, "fibers")
        if not okf:
            print(f"seed {seed}: the reference build failed:\n{logf[-2000:]}")
            return 1
        ref, problem = run(os.path.join(a.out, f"ref-{seed}"), threads_for(seed))
        if problem:
            print(f"seed {seed}: the reference run failed: {problem}")
            return 1
        with open(os.path.join(a.out, f"batch-{seed}.expected"), "w") as f:
            for k in kernels:
                f.write(f"{k.name} {ref[k.name]}\n")
        os.remove(os.path.join(a.out, f"ref-{seed}"))
        names.append(f"batch-{seed}")
        print(f"seed {seed}: built ({len(kernels)} kernels)", flush=True)
    with open(os.path.join(a.out, "programs.txt"), "w") as f:
        f.write("\n".join(names) + "\n")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="batches of kernels, loops against fibers")
    r.add_argument("--driver", required=True)
    r.add_argument("--seeds", required=True, help="FIRST:END (END excluded)")
    r.add_argument("--count", type=int, default=40, help="kernels per batch")
    r.add_argument("--no-reduce", action="store_true")
    r.add_argument("--max-reduce", type=int, default=3, help="kernels reduced per batch")
    r.add_argument("--keep", help="a folder to keep each batch's source in")
    r.add_argument("--archs", default="host", help="the loops build's --offload-arch (sm_90,host: the GPU "
                   "build must succeed too; the runs are on the CPU device)")
    r.add_argument("--fast", action="store_true", help="the CPU image's code generation without loop "
                   "strength reduction (74%% of its compile here; the transformation under test unchanged)")
    r.add_argument("--budget", type=float, default=0, help="stop starting batches after this many seconds")
    d = sub.add_parser("reduce", help="reduce one kernel of a batch")
    d.add_argument("--driver", required=True)
    d.add_argument("seed", type=int)
    d.add_argument("index", type=int)
    rg = sub.add_parser("regressions", help="the kept regressions, loops against fibers")
    rg.add_argument("--driver", required=True)
    g = sub.add_parser("gpu-build", help="batches built for a GPU, with the reference hashes")
    g.add_argument("--driver", required=True)
    g.add_argument("--seeds", required=True)
    g.add_argument("--count", type=int, default=50)
    g.add_argument("--archs", default="sm_90,host")
    g.add_argument("--out", required=True)
    a = ap.parse_args()
    return {"run": cmd_run, "reduce": cmd_reduce, "gpu-build": cmd_gpu_build, "regressions": cmd_regressions}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
