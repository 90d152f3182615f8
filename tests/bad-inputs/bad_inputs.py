#!/usr/bin/env python3
"""The bad-input suite: every case does one wrong thing and must end with a clear error.

Each case asserts (1) the exit status is exactly 1 -- an error, not a crash or a signal;
(2) the output matches the error class's pattern (CLASSES: the same classes and wording as
docs/user-guide.md's "When things go wrong"); (3) the kernel is named and (4) the file:line is
given where they are known; (5) a failed build leaves no output file behind; (6) a failed launch
leaves the host data as it was (the "intact" cases check it themselves).

  bad_inputs.py --driver build/bin/offload-cxx --work DIR         build cases + run cases (CPU)
  bad_inputs.py --run-only --bin-dir B [--launcher L] --gpu        run cases on a GPU node

Prints one line per case and "N passed, N failed" (skipped cases say why); exits 1 on failure.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD_SOURCES = os.path.join(HERE, "sources")

# Error classes: name -> pattern of the one line that reports it.
CLASSES = {
    # build time (offload-cxx)
    "cxx-error": r":\d+:\d+: error: ",
    "kernel-not-marked": r"error: '\w+' is launched as a kernel but not marked: declare it with OFFLOAD_KERNEL",
    "not-a-kernel": r"offload-cxx: error: the function at 0x[0-9a-f]+ launched at [\w.-]+:\d+: not a kernel of this program",
    "kernel-internal-linkage": r"error: kernel '\w+' has internal linkage",
    "lambda-capture": r":\d+:\d+: error: offload::parallel_(for|reduce): the lambda (captures|uses) ",
    "kernel-local-type": r"error: kernel '[^']+' is instantiated with (the local type|a lambda)",
    "kernel-returns-value": r"error: .*a kernel must return void",
    "parameter-unmappable": r"error: kernel '\w+': parameter '\w+' of type '[^']+' cannot be mapped to the device",
    "pointer-parameter-indexed": r"error: kernel '\w+': parameter '\w+' of type '[^']+' maps one object, but the kernel (indexes it|does pointer arithmetic on it).*: take 'std::span<[^']+>' for a host array, or 'offload::device_ptr<[^']+>' for a device buffer's data",
    "argument-count": r"error: static assertion failed.*number of arguments",
    "device-unresolved": r"error: kernel '[^']+' calls '[^']+', which has no definition for the device",
    "no-ptxas": r"offload-cxx: error: --offload-arch=sm_\d+ needs the CUDA toolkit's ptxas, which was not found",
    "unknown-arch": r"offload-cxx: error: unknown offload architecture '[^']*'",
    "bad-manifest": r"offload-cxx: error: manifest '[^']+' is not valid",
    "bad-device-image": r"offload-cxx: error: device image file '[^']+' is not valid",
    "bad-object": r"offload-cxx: error: cannot read '[^']+': it is not an object file or archive",
    "missing-input": r"offload-cxx: error: no such file: '[^']+'",
    "unreadable-input": r"offload-cxx: error: cannot read '[^']+'",
    # A command without an input is g++'s as written (CMake's and autoconf's probes): its error.
    "no-input": r"(offload-cxx: error: no input file|g\+\+: fatal error: no input files)",
    "static-with-kernels": r"offload-cxx: error: -static: a program with kernels links offload's runtime",
    "defined-twice": r"offload-cxx: error: '[^']+' is defined in two of the program's files",
    "unwritable-output": r"offload-cxx: error: cannot write '[^']+'",
    "usage": r"offload-cxx: (error: |Unknown command line argument|for the -o option)",
    "not-an-offload-program": r"error: '[^']+' was not built by offload-cxx",
    "bundle-folder-taken": r"error: '[^']+' exists and is not a bundle",
    # run time (the program)
    "empty-grid": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+: empty grid",
    "launch-limit": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+: .* exceed.* the limit of every device",
    "no-such-device": r"offload-cxx: error: .*(device -?\d+ does not exist|invalid device number -?\d+|no such device)",
    "mandatory-offload": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+: OMP_TARGET_OFFLOAD=mandatory but no GPU",
    "out-of-device-memory": r"offload-cxx: error: .*(cannot allocate|has not|out of memory)",
    "copy-too-large": r"offload-cxx: error: copy at [^:]+:\d+: \d+ elements do not fit a buffer of \d+",
    "device-fault": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+ failed on ",
    "queued-device-fault": r"offload-cxx: error: one of \d+ queued launches failed on .*kernel '\w+' launched at [\w.-]+:\d+",
    "bad-environment": r"offload-cxx: error: .*(OFFLOAD_DEVICE|OFFLOAD_CPU_THREADS|OFFLOAD_CPU_SPIN_US|OFFLOAD_INFO|OFFLOAD_CPU_STACK|OFFLOAD_GPU_STREAMS|OFFLOAD_GPU_BACKEND|OFFLOAD_CUDA_SCHEDULE|OFFLOAD_PROFILE|OFFLOAD_TRACE|OMP_TARGET_OFFLOAD)=\S+ is not",
    "buffer-size-overflow": r"offload-cxx: error: buffer at [^:]+:\d+: (\d+ elements of \d+ bytes are more bytes than a 64-bit size holds|cannot allocate)",
    "work-items-never-meet": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+: in workgroup \(\d+,\d+,\d+\) some work-items wait at offload::barrier\(\) or at one warp operation while lanes of their warps wait at another",
    "kernel-threw": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+ threw an exception",
    "device-host-global": r"error: (\S+:[0-9]+: )?kernel '[^']+' uses the global variable '[^']+', which exists only on the host",
    "bundle-symlink": r"error: '[^']+' is a symbolic link: name the bundle's folder itself",
    "same-input-output": r"offload-cxx: error: input file '[^']+' is the same as output file",
    "ptxas-error": r":\d+:\d+: error: ptxas \(sm_\d+\): ",
    "span-overflow": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+: a span argument .* more bytes than a 64-bit size holds",
    "unreadable-argument": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+: an argument's memory at address 0x[0-9a-f]+ .* cannot be read",
    "host-api-in-kernel": r"offload-cxx: error: kernel '[^']+' uses offload's host API",
    "nested-launch": r"error: kernel '[^']+' launches kernel '[^']+': a kernel cannot launch kernels",
    "queued-temporary": r"error: static assertion failed: queue::launch: an argument is a temporary",
    "kernel-undefined": r"offload-cxx: error: kernel '[^']+' is launched but defined in no file of the program",
    "queue-device-mismatch": r"offload-cxx: error: kernel '\w+' launched at [\w.-]+:\d+: \.device = -?\d+, but the queue runs on",
}


class Case:
    def __init__(self, name, klass, kind, args, kernel=None, where=None, env=None, output=None,
                 setup=None, needs=(), gpu=None, note=""):
        self.name, self.klass, self.kind, self.args = name, klass, kind, args
        self.kernel, self.where, self.env, self.output = kernel, where, env or {}, output
        self.setup, self.needs, self.gpu, self.note = setup, set(needs), gpu, note


def marker_line(path, name):
    """The line of `path` marked "case:NAME"."""
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if re.search(r"case:%s\b" % re.escape(name), line):
                return number
    raise SystemExit("no line marked case:%s in %s" % (name, path))


def src(name):
    return os.path.join(BUILD_SOURCES, name + ".cpp")


def build_case(name, klass, kernel=None, marked=True, extra=(), **kw):
    """A source of sources/ (NAME.cpp) compiled into W/NAME, which must not appear."""
    return Case(name, klass, "build", ["{driver}", *extra, src(name), "-o", "{work}/" + name],
                kernel=kernel, where=(src(name), name) if marked else None,
                output="{work}/" + name, **kw)


def run_case(name, klass, kernel=None, env=None, gpu=None, marked=True, **kw):
    where = (os.path.join(HERE, "run_cases.cpp"), name) if marked else None
    return Case(name, klass, "run", [name], kernel=kernel, where=where, env=env, gpu=gpu, **kw)


FINE = src("fine")
DEVICE_SECTION = ".offload_cxx"  # compiler/ObjectFiles.h, DeviceSectionName
CASES = [
    # --- build: the user's C++ and kernels (host-metadata pass, clang's diagnostics) ---
    build_case("syntax", "cxx-error"),
    build_case("unmarked", "kernel-not-marked"),
    build_case("internal-linkage", "kernel-internal-linkage", kernel="hidden"),
    build_case("local-type", "kernel-local-type", kernel="store<local>"),
    build_case("lambda-type", "kernel-local-type", kernel="apply<"),
    build_case("raw-pointer-member", "parameter-unmappable", kernel="walk"),
    build_case("lambda-raw-pointer", "lambda-capture"),
    build_case("lambda-by-reference", "lambda-capture"),
    build_case("lambda-vector", "lambda-capture"),
    build_case("lambda-struct-span", "lambda-capture"),
    build_case("void-pointer", "parameter-unmappable", kernel="takes_void"),
    build_case("rvalue-reference", "parameter-unmappable", kernel="takes_rvalue"),
    build_case("not-trivially-copyable", "parameter-unmappable", kernel="takes_string"),
    build_case("pointer-indexed", "pointer-parameter-indexed", kernel="saxpy"),
    build_case("returns-value", "kernel-returns-value"),
    build_case("wrong-argument-count", "argument-count"),
    build_case("device-undefined-function", "device-unresolved", kernel="uses_host_only",
               marked=False, extra=["--offload-arch=sm_90,host"], needs={"ptxas"}),
    build_case("host-global", "device-host-global", kernel="reads_host", marked=False,
               extra=["--offload-arch=sm_90,host"], needs={"ptxas"}),
    build_case("nested-launch", "nested-launch", kernel="outer"),
    build_case("launch-through-helper", "host-api-in-kernel", kernel="outer", marked=False,
               extra=["--offload-arch=sm_90,host"], needs={"ptxas"}),
    Case("failed-build-keeps-other-file", "cxx-error", "build",
         ["{driver}", src("syntax"), "-o", "{work}/other.cpp"], setup="other-file"),
    build_case("long-double-gpu", "cxx-error", extra=["--offload-arch=sm_90,host"],
               needs={"ptxas"}),
    build_case("ptx-asm-error", "ptxas-error", extra=["--offload-arch=sm_90,host"],
               needs={"ptxas"}),
    build_case("queued-temporary", "queued-temporary"),
    Case("static-link", "static-with-kernels", "build",
         ["{driver}", "-static", FINE, "-o", "{work}/static"], output="{work}/static"),
    Case("defined-twice-gpu", "defined-twice", "build",
         ["{driver}", "--offload-arch=sm_90,host", src("defined-twice-a"), src("defined-twice-b"),
          "-o", "{work}/twice"], output="{work}/twice", needs={"ptxas"}),
    build_case("pointer-17-deep", "parameter-unmappable", kernel="deep"),
    build_case("undefined-kernel", "kernel-undefined", kernel="never_defined"),
    # --- build: architectures and toolkits ---
    Case("missing-ptxas", "no-ptxas", "build",
         ["{driver}", "--offload-arch=sm_90,host", FINE, "-o", "{work}/missing-ptxas"],
         env={"OFFLOAD_CXX_PTXAS": "/nonexistent/ptxas"}, output="{work}/missing-ptxas"),
    Case("unknown-arch", "unknown-arch", "build",
         ["{driver}", "--offload-arch=sm_9x,host", FINE, "-o", "{work}/unknown-arch"],
         output="{work}/unknown-arch"),
    Case("unknown-arch-word", "unknown-arch", "build",
         ["{driver}", "--offload-arch=cuda", FINE, "-o", "{work}/unknown-arch-word"],
         output="{work}/unknown-arch-word"),
    # --- build: damaged intermediate files ---
    Case("manifest-truncated", "bad-manifest", "build",
         ["{driver}", "--pass=device", "--manifest={work}/truncated.manifest", "-o", "{work}/t.bin"],
         setup="truncate-manifest", output="{work}/t.bin"),
    Case("manifest-wrong-format", "bad-manifest", "build",
         ["{driver}", "--pass=device", "--manifest={work}/wrong.manifest", "-o", "{work}/w.bin"],
         setup="wrong-manifest", output="{work}/w.bin"),
    Case("manifest-not-json", "bad-manifest", "build",
         ["{driver}", "--pass=device", "--manifest={work}/garbage.txt", "-o", "{work}/g.bin"],
         setup="garbage", output="{work}/g.bin"),
    Case("device-image-truncated", "bad-device-image", "build",
         ["{driver}", "--pass=host", "--device-image={work}/truncated.bin", FINE, "-o", "{work}/ti"],
         setup="truncate-image", output="{work}/ti"),
    Case("device-image-garbage", "bad-device-image", "build",
         ["{driver}", "--pass=host", "--device-image={work}/garbage.txt", FINE, "-o", "{work}/gi"],
         setup="garbage", output="{work}/gi"),
    Case("link-garbage-object", "bad-object", "build",
         ["{driver}", "{work}/garbage.o", "-o", "{work}/lg"], setup="garbage-object",
         output="{work}/lg"),
    # --- build: files and options ---
    Case("missing-input", "missing-input", "build",
         ["{driver}", "{work}/missing.cpp", "-o", "{work}/mi"], output="{work}/mi"),
    Case("input-is-a-folder", "unreadable-input", "build",
         ["{driver}", "{work}/folder.cpp", "-o", "{work}/fo"], setup="folder", output="{work}/fo"),
    Case("no-input", "no-input", "build", ["{driver}", "-o", "{work}/ni"], output="{work}/ni"),
    Case("input-is-dev-zero", "unreadable-input", "build",
         ["{driver}", "/dev/zero", "-o", "{work}/dz"], output="{work}/dz"),
    Case("manifest-is-dev-zero", "unreadable-input", "build",
         ["{driver}", "--pass=device", "--manifest=/dev/zero", "-o", "{work}/dzm.bin"],
         output="{work}/dzm.bin"),
    Case("device-image-is-dev-zero", "unreadable-input", "build",
         ["{driver}", "--pass=host", "--device-image=/dev/zero", FINE, "-o", "{work}/dzi"],
         output="{work}/dzi"),
    Case("unwritable-output", "unwritable-output", "build",
         ["{driver}", FINE, "-o", "{work}/no-such-folder/a"]),
    Case("compile-into-missing-folder", "unwritable-output", "build",
         ["{driver}", "-c", FINE, "-o", "{work}/no-such-folder/a.o"]),
    Case("compile-to-stdout", "usage", "build", ["{driver}", "-c", FINE, "-o", "-"]),
    Case("std-cxx17", "usage", "build", ["{driver}", "-std=c++17", FINE, "-o", "{work}/s17"],
         output="{work}/s17"),
    Case("output-is-a-folder", "unwritable-output", "build",
         ["{driver}", FINE, "-o", "{work}/out-folder"], setup="out-folder"),
    Case("unknown-pass", "usage", "build", ["{driver}", "--pass=everything", FINE, "-o", "{work}/up"],
         output="{work}/up"),
    Case("device-pass-without-manifest", "usage", "build",
         ["{driver}", "--pass=device", "-o", "{work}/dm.bin"], output="{work}/dm.bin"),
    Case("compile-many-to-one", "usage", "build",
         ["{driver}", "-c", FINE, src("unmarked"), "-o", "{work}/one.o"], output="{work}/one.o"),
    Case("compile-not-a-source", "usage", "build",
         ["{driver}", "-c", "{work}/garbage.o", "-o", "{work}/ns.o"], setup="garbage-object",
         output="{work}/ns.o"),
    Case("unknown-option", "usage", "build", ["{driver}", "--frobnicate", FINE, "-o", "{work}/uo"],
         output="{work}/uo"),
    Case("devices-not-offload-program", "not-an-offload-program", "build",
         ["{driver}", "devices", "{work}/plain-program"], setup="plain-program"),
    Case("bundle-not-offload-program", "not-an-offload-program", "build",
         ["{driver}", "bundle", "{work}/plain-program", "-o", "{work}/bundle-np"],
         setup="plain-program"),
    Case("bundle-folder-taken", "bundle-folder-taken", "build",
         ["{driver}", "bundle", "{work}/fine", "-o", "{work}/taken"], setup="taken-folder"),
    Case("bundle-folder-with-run-script", "bundle-folder-taken", "build",
         ["{driver}", "bundle", "{work}/fine", "-o", "{work}/scripts"], setup="scripts-folder"),
    Case("output-is-the-source", "same-input-output", "build",
         ["{driver}", "{work}/mine.cpp", "-o", "{work}/mine.cpp"], setup="own-source"),
    Case("object-is-the-source", "same-input-output", "build",
         ["{driver}", "-c", "{work}/mine.cpp", "-o", "{work}/mine.cpp"], setup="own-source"),
    Case("output-is-an-l-library", "same-input-output", "build",
         ["{driver}", "{work}/fine.o", "-L{work}", "-lmine", "-o", "{work}/libmine.a"],
         setup="own-library"),
    Case("bundle-through-a-symlink", "bundle-symlink", "build",
         ["{driver}", "bundle", "{work}/fine", "-o", "{work}/bundle-link"], setup="bundle-link"),
    Case("manifest-is-the-source", "same-input-output", "build",
         ["{driver}", "--pass=host-metadata", "{work}/mine.cpp", "-o", "{work}/mine.cpp"],
         setup="own-source"),
    Case("object-byte-flipped", "bad-device-image", "build",
         ["{driver}", "{work}/flipped.o", "-o", "{work}/flipped"], setup="flipped-object",
         output="{work}/flipped"),
    Case("object-offload-section-truncated", "bad-device-image", "build",
         ["{driver}", "{work}/cut.o", "-o", "{work}/cut"], setup="cut-object", output="{work}/cut"),
    Case("archive-truncated", "unreadable-input", "build",
         ["{driver}", "{work}/cut.a", "-o", "{work}/cuta"], setup="cut-archive",
         output="{work}/cuta"),
    Case("nested-launch-for-gpu", "nested-launch", "build",
         ["{driver}", "--offload-arch=sm_90,host", src("nested-launch"), "-o", "{work}/nl90"],
         kernel="outer", where=(src("nested-launch"), "nested-launch"), output="{work}/nl90",
         needs={"ptxas"}),
    # --- run: launches ---
    run_case("empty-grid", "empty-grid", kernel="set"),
    run_case("empty-threads", "empty-grid", kernel="set"),
    run_case("workgroup-too-large", "launch-limit", kernel="set"),
    run_case("workgroup-z-too-large", "launch-limit", kernel="set"),
    run_case("grid-too-large", "launch-limit", kernel="set"),
    run_case("invalid-device", "no-such-device", kernel="set"),
    run_case("negative-device", "no-such-device", kernel="set"),
    run_case("mandatory", "mandatory-offload", kernel="set", gpu=False,
             env={"OMP_TARGET_OFFLOAD": "mandatory"}, note="OMP_TARGET_OFFLOAD=mandatory, no GPU"),
    run_case("intact-launch", "launch-limit", kernel="scale"),
    run_case("intact-queue", "empty-grid", kernel="scale"),
    run_case("queue-bad-device", "no-such-device"),
    run_case("region-bad-device", "no-such-device"),
    run_case("buffer-bad-device", "no-such-device"),
    run_case("buffer-too-large", "out-of-device-memory"),
    run_case("buffer-copy-too-large", "copy-too-large"),
    run_case("queue-copy-too-large", "copy-too-large"),
    run_case("describe-bad-device", "no-such-device", marked=False),
    run_case("env-bad-device", "bad-environment", kernel="set", env={"OFFLOAD_DEVICE": "gpu9"}),
    run_case("env-bad-threads", "bad-environment", kernel="set",
             env={"OFFLOAD_CPU_THREADS": "many"}),
    run_case("env-bad-info", "bad-environment", kernel="set", env={"OFFLOAD_INFO": "garbage"}),
    run_case("env-stack-too-small", "bad-environment", kernel="set", env={"OFFLOAD_CPU_STACK": "1"}),
    run_case("env-bad-spin", "bad-environment", kernel="set", env={"OFFLOAD_CPU_SPIN_US": "-5"}),
    run_case("env-stack-too-large", "bad-environment", kernel="set",
             env={"OFFLOAD_CPU_STACK": "4611686018427387904"}),
    run_case("env-bad-streams", "bad-environment", kernel="set", env={"OFFLOAD_GPU_STREAMS": "maybe"}),
    run_case("env-bad-backend", "bad-environment", kernel="set", env={"OFFLOAD_GPU_BACKEND": "hip"}),
    run_case("buffer-bytes-overflow", "buffer-size-overflow"),
    run_case("buffer-rounding-wraps", "buffer-size-overflow"),
    run_case("throw-in-kernel", "kernel-threw", kernel="throws", gpu=False,
             note="a throw on a GPU is a trap: device-fault there"),
    run_case("throw-in-queued-kernel", "kernel-threw", kernel="throws"),
    run_case("size-t-grid-too-large", "launch-limit", kernel="set"),
    run_case("cpu-fault", "device-fault", kernel="read_far"),
    run_case("cpu-fault-queued", "device-fault", kernel="read_far", gpu=False,
             note="on a GPU: queued-device-fault, gpu-queue-fault"),
    run_case("cpu-write-past-copy", "device-fault", kernel="past_copy", gpu=False,
             note="past a device allocation on a GPU: undefined, a fault only when unmapped"),
    run_case("cpu-write-past-buffer", "device-fault", kernel="past_buffer", gpu=False,
             note="past a device allocation on a GPU: undefined, a fault only when unmapped"),
    run_case("cpu-stack-overflow", "device-fault", kernel="big_locals", gpu=False,
             note="a GPU work-item's locals live in its local memory"),
    run_case("pointer-to-unmarked-function", "not-a-kernel"),
    run_case("warp-barrier-deadlock", "work-items-never-meet", kernel="split_warp", gpu=False,
             note="on a GPU it hangs"),
    run_case("warp-ops-diverge", "work-items-never-meet", kernel="split_warp_ops", gpu=False,
             note="undefined on a GPU"),
    run_case("warp-barrier-deadlock-noexcept", "work-items-never-meet", kernel="split_warp_noexcept",
             gpu=False, note="on a GPU it hangs"),
    run_case("dynamic-shared-1mib", "launch-limit", kernel="set"),
    run_case("dynamic-shared-4gib", "launch-limit", kernel="set"),
    run_case("queue-device-mismatch", "queue-device-mismatch", kernel="set"),
    run_case("queue-destroyed-with-error", "empty-grid", kernel="set"),
    run_case("throw-in-noexcept-kernel", "kernel-threw", kernel="throws_noexcept", gpu=False,
             note="a throw on a GPU is a trap: device-fault there"),
    run_case("env-stack-garbage", "bad-environment", kernel="set", env={"OFFLOAD_CPU_STACK": "garbage"}),
    run_case("env-stack-negative", "bad-environment", kernel="set", env={"OFFLOAD_CPU_STACK": "-5"}),
    run_case("env-bad-cuda-schedule", "bad-environment", kernel="set",
             env={"OFFLOAD_CUDA_SCHEDULE": "fast"}),
    run_case("env-bad-omp-offload", "bad-environment", kernel="set",
             env={"OMP_TARGET_OFFLOAD": "bogus"}),
    run_case("env-bad-profile", "bad-environment", kernel="set", env={"OFFLOAD_PROFILE": "yes"}),
    run_case("env-bad-trace", "bad-environment", kernel="set", env={"OFFLOAD_TRACE": "trace.txt"}),
    run_case("env-trace-folder", "bad-environment", kernel="set",
             env={"OFFLOAD_TRACE": "{work}/trace-folder.json"}, setup="trace-folder"),
    run_case("env-bad-device-two-threads", "bad-environment", kernel="set",
             env={"OFFLOAD_DEVICE": "gpu9"}),
    run_case("span-bytes-overflow", "span-overflow", kernel="scale"),
    run_case("span-bad-pointer", "unreadable-argument", kernel="scale", gpu=False,
             note="libomptarget reads the bad address itself on a GPU"),
    run_case("env-stack-huge", "bad-environment", kernel="set",
             env={"OFFLOAD_CPU_STACK": "100000000000"}),
    # --- run, GPU only ---
    run_case("gpu-out-of-bounds", "device-fault", kernel="write_far", gpu=True),
    run_case("gpu-queue-fault", "queued-device-fault", kernel="write_far", gpu=True),
    run_case("gpu-deferred-fault-then-launch", "device-fault", kernel="write_far", gpu=True),
    run_case("gpu-deferred-fault-at-exit", "device-fault", kernel="write_far", gpu=True),
    run_case("gpu-buffer-too-large", "out-of-device-memory", gpu=True),
]


def prepare(setup, work, driver):
    """Makes the damaged or special inputs a case needs."""
    def fine_manifest():
        path = os.path.join(work, "fine.manifest")
        if not os.path.exists(path):
            subprocess.run([driver, "--pass=host-metadata", FINE, "-o", path], check=True)
        return path

    def fine_image():
        path = os.path.join(work, "fine.bin")
        if not os.path.exists(path):
            subprocess.run([driver, "--pass=device", "--manifest=" + fine_manifest(),
                            "--offload-arch=host", "-o", path], check=True)
        return path

    if setup == "truncate-manifest":
        data = open(fine_manifest()).read()
        open(os.path.join(work, "truncated.manifest"), "w").write(data[: len(data) // 2])
    elif setup == "wrong-manifest":
        open(os.path.join(work, "wrong.manifest"), "w").write('{"format": "something-else", "version": 99}\n')
    elif setup in ("garbage", "garbage-object"):
        open(os.path.join(work, "garbage.txt"), "w").write("not a manifest, not an image\n" * 8)
        with open(os.path.join(work, "garbage.o"), "wb") as f:
            f.write(b"\x7fELF" + b"\x00" * 60 + b"garbage" * 20)
    elif setup == "truncate-image":
        data = open(fine_image(), "rb").read()
        open(os.path.join(work, "truncated.bin"), "wb").write(data[: len(data) // 2])
    elif setup == "folder":
        os.makedirs(os.path.join(work, "folder.cpp"), exist_ok=True)
    elif setup == "plain-program":
        subprocess.run(["g++", "-x", "c++", "-", "-o", os.path.join(work, "plain-program")],
                       input="int main() {}\n", text=True, check=True)
    elif setup == "taken-folder":
        if not os.path.exists(os.path.join(work, "fine")):
            subprocess.run([driver, FINE, "-o", os.path.join(work, "fine")], check=True)
        os.makedirs(os.path.join(work, "taken"), exist_ok=True)
        open(os.path.join(work, "taken", "precious.txt"), "w").write("keep me\n")
    elif setup == "scripts-folder":  # a user's folder that happens to hold a `run` script
        if not os.path.exists(os.path.join(work, "fine")):
            subprocess.run([driver, FINE, "-o", os.path.join(work, "fine")], check=True)
        os.makedirs(os.path.join(work, "scripts"), exist_ok=True)
        open(os.path.join(work, "scripts", "run"), "w").write("#!/bin/sh\necho mine\n")
    elif setup == "out-folder":
        os.makedirs(os.path.join(work, "out-folder"), exist_ok=True)
    elif setup == "own-library":
        subprocess.run([driver, "-c", FINE, "-o", os.path.join(work, "fine.o")], check=True)
        subprocess.run(["ar", "rcs", os.path.join(work, "libmine.a"), os.path.join(work, "fine.o")],
                       check=True)
    elif setup == "bundle-link":
        if not os.path.exists(os.path.join(work, "fine")):
            subprocess.run([driver, FINE, "-o", os.path.join(work, "fine")], check=True)
        target = os.path.join(work, "bundle-target")
        if not os.path.isdir(target):
            subprocess.run([driver, "bundle", os.path.join(work, "fine"), "-o", target], check=True,
                           capture_output=True)
        link = os.path.join(work, "bundle-link")
        if not os.path.islink(link):
            os.symlink(target, link)
    elif setup == "own-source":
        shutil.copy(FINE, os.path.join(work, "mine.cpp"))
    elif setup == "trace-folder":  # OFFLOAD_TRACE names a folder
        os.makedirs(os.path.join(work, "trace-folder.json"), exist_ok=True)
    elif setup == "other-file":  # -o names a file of the user's that is not an input
        shutil.copy(FINE, os.path.join(work, "other.cpp"))
    elif setup == "cut-archive":  # an archive whose last member is cut short
        obj = os.path.join(work, "fine-for-archive.o")
        subprocess.run([driver, "-c", FINE, "-o", obj], check=True)
        whole = os.path.join(work, "whole.a")
        subprocess.run(["ar", "rcs", whole, obj], check=True)
        data = open(whole, "rb").read()
        open(os.path.join(work, "cut.a"), "wb").write(data[: len(data) * 3 // 4])
    elif setup in ("flipped-object", "cut-object"):
        # fine.cpp compiled, then one byte of its device code flipped (or the section cut short).
        obj = os.path.join(work, "fine-for-damage.o")
        subprocess.run([driver, "-c", FINE, "-o", obj], check=True)
        section = os.path.join(work, "section.bin")
        objcopy = shutil.which("llvm-objcopy-22") or "/usr/lib/llvm-22/bin/llvm-objcopy"
        subprocess.run([objcopy, "--dump-section", DEVICE_SECTION + "=" + section, obj], check=True)
        data = bytearray(open(section, "rb").read())
        if setup == "flipped-object":
            data[len(data) * 3 // 4] ^= 0x5a  # inside the last image's bytes
            out = os.path.join(work, "flipped.o")
        else:
            data = data[: len(data) - 64]
            out = os.path.join(work, "cut.o")
        open(section, "wb").write(bytes(data))
        subprocess.run([objcopy, "--update-section", DEVICE_SECTION + "=" + section, obj, out],
                       check=True)


def check(case, result, work):
    """Why the case failed, or None."""
    out = result.stdout + result.stderr
    if result.returncode < 0 or result.returncode >= 128:
        return "crashed (status %d)" % result.returncode
    if result.returncode != 1:
        return "exit status %d, expected 1" % result.returncode
    if not re.search(CLASSES[case.klass], out):
        return "no %s error (pattern %r)" % (case.klass, CLASSES[case.klass])
    if case.kernel and ("'%s'" % case.kernel) not in out and case.kernel not in out:
        return "the kernel '%s' is not named" % case.kernel
    if case.where:
        path, name = case.where
        place = "%s:%d" % (os.path.basename(path), marker_line(path, name))
        if place not in out:
            return "the place %s is not given" % place
    if case.output and os.path.exists(case.output.format(work=work)):
        return "a failed build left its output %s behind" % case.output.format(work=work)
    if case.name == "bundle-folder-taken" and not os.path.exists(os.path.join(work, "taken", "precious.txt")):
        return "the bundle command touched a folder that was not a bundle"
    if case.name == "bundle-folder-with-run-script" and \
            open(os.path.join(work, "scripts", "run")).read() != "#!/bin/sh\necho mine\n":
        return "the bundle command replaced the user's own run script"
    if case.setup == "own-library" and \
            subprocess.run(["ar", "t", os.path.join(work, "libmine.a")], capture_output=True).returncode:
        return "the user's library was overwritten"
    if case.setup == "bundle-link" and not os.path.exists(os.path.join(work, "bundle-target", "run")):
        return "the bundle the link points to was emptied"
    if case.setup == "other-file" and open(os.path.join(work, "other.cpp")).read() != open(FINE).read():
        return "a failed build removed or changed the file -o named"
    if case.setup == "own-source" and open(os.path.join(work, "mine.cpp")).read() != open(FINE).read():
        return "the user's source was overwritten"
    if case.kind == "build":  # a failed build leaves no temporary folder of its own
        tmp = os.path.join(work, "tmp", case.name)
        if os.path.isdir(tmp) and os.listdir(tmp):
            return "a failed build left %s behind in %s" % (", ".join(os.listdir(tmp)), tmp)
    if "HOST DATA CHANGED" in out:
        return "a failed launch changed the host data"
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--driver", help="offload-cxx")
    p.add_argument("--work", help="a scratch folder")
    p.add_argument("--run-only", action="store_true", help="only the run cases, from --bin-dir")
    p.add_argument("--bin-dir", help="where run_cases is (default: built into --work)")
    p.add_argument("--launcher", default="", help="runs a program, e.g. a bundle's run script")
    p.add_argument("--gpu", action="store_true", help="a GPU is present: run the GPU cases")
    p.add_argument("--features", default="", help="comma list: ptxas")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args()
    features = set(f for f in a.features.split(",") if f)
    work = os.path.abspath(a.work or "bad-inputs.work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    bin_dir = a.bin_dir
    driver = os.path.abspath(a.driver) if a.driver else None  # (--run-only: none)
    if not a.run_only:
        driver = os.path.abspath(a.driver)
        bin_dir = work
        subprocess.run([driver, "-O1", os.path.join(HERE, "run_cases.cpp"), "-o",
                        os.path.join(work, "run_cases")], check=True)
    passed = failed = skipped = 0
    for case in CASES:
        if a.run_only and case.kind != "run":
            continue
        why_skip = None
        if case.needs - features:
            why_skip = "needs " + ",".join(sorted(case.needs - features))
        elif case.gpu is True and not a.gpu:
            why_skip = "needs a GPU"
        elif case.gpu is False and a.gpu:
            why_skip = "needs a machine without a GPU"
        if why_skip:
            skipped += 1
            print("SKIP %-30s %s" % (case.name, why_skip))
            continue
        env = dict(os.environ)
        for var in ("OFFLOAD_DEVICE", "OMP_TARGET_OFFLOAD", "OFFLOAD_CPU_THREADS", "OFFLOAD_INFO"):
            env.pop(var, None)
        env.update({k: v.format(work=work) for k, v in case.env.items()})
        if case.setup and case.kind != "build":
            prepare(case.setup, work, driver)
        if case.kind == "build":
            if case.setup:
                prepare(case.setup, work, driver)
            cmd = [x.format(driver=driver, work=work) for x in case.args]
            # A private temporary folder: a failed build must leave nothing in it.
            env["TMPDIR"] = os.path.join(work, "tmp", case.name)
            shutil.rmtree(env["TMPDIR"], ignore_errors=True)
            os.makedirs(env["TMPDIR"])
        else:
            cmd = ([a.launcher] if a.launcher else []) + [os.path.join(bin_dir, "run_cases")] + case.args
        try:
            result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
            why = check(case, result, work)
        except subprocess.TimeoutExpired:
            why, result = "timed out", None
        if why:
            failed += 1
            print("FAIL %-30s [%s] %s" % (case.name, case.klass, why))
            if result is not None:
                print("     $ " + " ".join(cmd))
                for line in (result.stdout + result.stderr).splitlines()[:12]:
                    print("     | " + line)
        else:
            passed += 1
            first = next((l for l in (result.stdout + result.stderr).splitlines()
                          if re.search(CLASSES[case.klass], l)), "")
            print("PASS %-30s [%s] %s" % (case.name, case.klass, first.strip()[:150] if a.verbose else ""))
    print("%d passed, %d failed, %d skipped (%d cases)" % (passed, failed, skipped, len(CASES)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
