# lit configuration for offload-cxx. Test folders: codegen/ (what the passes emit), errors/
# (build-time diagnostics), e2e/ (examples built and run on the CPU device, and on a GPU when
# one is present: REQUIRES: gpu).
import os
import shutil
import subprocess

import lit.formats

config.name = "offload-cxx"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.offload_cxx_bin_dir), "tests", "lit")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs", "guide.test.py",
                   "interrupted_build.test.py"]

# --param offload_archs=sm_90,host (ctest's lit-e2e-sm_90): every program is built for those
# architectures as well, so that a failure only a GPU build shows is a red test on a machine
# without a GPU. The programs still run on the CPU device there. Those runs get an exec root
# of their own, so both runs can go at once.
offload_archs = lit_config.params.get("offload_archs")
offload_cxx = os.path.join(config.offload_cxx_bin_dir, "offload-cxx")
if offload_archs:
    offload_cxx += " --offload-arch=" + offload_archs
    config.test_exec_root += "-" + offload_archs.replace(",", "-")
    config.name += " [" + offload_archs + "]"
    # Tests of the driver's handling of g++'s options, inputs and outputs (UNSUPPORTED:
    # archs-rerun) run once, in the default run: the architectures change nothing they check,
    # and they were a third of CI's time in this run (docs/design.md, "CI's time").
    config.available_features.add("archs-rerun")

tools = config.llvm_tools_dir
if offload_archs:  # a RUN line that names its own architectures keeps them
    config.substitutions.append((r"%offload-cxx(?=(?!.*--offload-arch))", offload_cxx))
config.substitutions.append(("%offload-cxx", os.path.join(config.offload_cxx_bin_dir, "offload-cxx")))
config.substitutions.append(("%src_root", config.offload_cxx_src_root))
config.substitutions.append(("%{offload_archs}", offload_archs or "host"))
# The differential kernel fuzzer's fixed batches (e2e/kernelfuzz.test): seeds 1-2 (-O1, -O2; 2
# and 3 threads) in the default run, 3-4 (-O3, -O0; 4 threads and 1) for the architectures: each
# -O level and thread count once in CI.
config.substitutions.append(("%{kernelfuzz_seeds}", "3:5" if offload_archs else "1:3"))
# The build tree's driver alone (no --offload-arch): for scripts that take it in $OFFLOAD_CXX.
# Every path here comes from lit.site.cfg.py (CMake), so the suite runs from any build directory.
config.substitutions.append(("%{offload_cxx_driver}", os.path.join(config.offload_cxx_bin_dir, "offload-cxx")))
config.substitutions.append(("%{build_root}", os.path.dirname(config.offload_cxx_bin_dir)))
# The CPU image's passes as an opt plugin (compiler/cpu/PassPlugin.cpp).
config.substitutions.append(("%{cpu_passes}", os.path.join(os.path.dirname(config.offload_cxx_bin_dir), "lib", "OffloadCxxCpuPasses.so")))
config.environment["PATH"] = os.pathsep.join([tools, config.environment.get("PATH", os.environ["PATH"])])
# The suite's tests compile with ~40 sets of flags (three headers each with sm_90: metadata,
# CPU image, device): the precompiled-header cache keeps them all
# (with the default 12, a third of the CPU images' compiles made their header again).
config.environment["OFFLOAD_CXX_PCH_KEEP"] = "96"
for var in ["OFFLOAD_INFO", "OFFLOAD_DEVICE", "OMP_TARGET_OFFLOAD", "CUDA_PATH", "HOME"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

ptxas = shutil.which("ptxas", path=os.pathsep.join([os.environ.get("CUDA_PATH", "/usr/local/cuda") + "/bin", "/usr/local/cuda/bin", os.environ["PATH"]]))
if ptxas:
    config.available_features.add("ptxas")
elif offload_archs and "sm_" in offload_archs:
    config.unsupported = True  # no CUDA toolkit: an NVIDIA build cannot be made here
try:
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
    if out.returncode == 0 and "GPU" in out.stdout:
        config.available_features.add("gpu")
except (OSError, subprocess.SubprocessError):
    pass
# Root, who can mount a small tmpfs to fill (e2e/disk_full.test; CI runs as root).
if os.geteuid() == 0 and shutil.which("mount"):
    config.available_features.add("root")
if shutil.which("clang++-22"):
    config.available_features.add("clang-host")
if shutil.which("mpicxx") and shutil.which("mpirun"):  # Open MPI: tests/lit/e2e/mpi.test
    config.available_features.add("mpi")
config.substitutions.append(("%{env_path}", config.environment["PATH"]))
config.substitutions.append(("%{bad_input_features}", "ptxas" if ptxas else "none"))
config.substitutions.append(("%python", "/usr/bin/python3"))
