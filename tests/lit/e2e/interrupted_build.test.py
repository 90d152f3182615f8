"""Starts 12 builds and interrupts each after a different delay (interrupted_build.test)."""
import os, signal, subprocess, sys, time

driver, source, work = sys.argv[1:4]
env = dict(os.environ, TMPDIR=os.path.join(work, "tmp"))


def defaults():
    """The builds start with the signals' default actions (lit's workers ignore SIGINT, and an
    ignored signal stays ignored in the driver, as in g++)."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(s, signal.SIG_DFL)

aborted = outputs = 0
for i in range(12):
    prog = os.path.join(work, "prog")
    if os.path.exists(prog):
        os.remove(prog)
    p = subprocess.Popen([driver, "-O2", source, "-o", prog], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=defaults)
    time.sleep(0.05 + 0.12 * i)
    p.send_signal(signal.SIGINT if i % 2 == 0 else signal.SIGTERM)
    rc = p.wait()
    aborted += rc in (-signal.SIGABRT, 134, -signal.SIGSEGV, 139)
    outputs += rc != 0 and os.path.exists(prog)  # an interrupted build leaves no program
def leftovers():
    """How many entries the builds left in TMPDIR, and their names when there are any."""
    names = sorted(os.listdir(os.path.join(work, "tmp")))
    return f"{len(names)} temporary folders left" + (f" {names}" if names else "")

print(f"interrupted 12 builds: {aborted} aborted, {outputs} outputs left, {leftovers()}")

# -c with split DWARF (the host compiler's object was written in place, so an interrupted compile
# could leave an object without its device code that `make` then took as up to date): an object
# left behind is a whole one.
obj = os.path.join(work, "k.o")
partial = 0
for i in range(8):
    if os.path.exists(obj):
        os.remove(obj)
    p = subprocess.Popen([driver, "-O2", "-g", "-gsplit-dwarf", "-c", source, "-o", obj], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=defaults)
    time.sleep(0.1 + 0.25 * i)
    p.send_signal(signal.SIGINT if i % 2 == 0 else signal.SIGTERM)
    p.wait()
    if os.path.exists(obj):
        sections = subprocess.run(["llvm-readelf-22", "-S", obj], capture_output=True, text=True).stdout
        partial += ".offload_cxx" not in sections
print(f"interrupted 8 compiles: {partial} objects without device code, {leftovers()}")

# The driver ends as g++ does (adversarial pass): killed by the signal it got — so that a shell
# loop or make stops on Ctrl-C — with no LLVM stack dump for SIGQUIT, no folder left; a signal
# it was started with ignored (nohup) stays ignored and the build completes.
wrong, dumps = [], 0
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
    p = subprocess.Popen([driver, "-O2", source, "-o", os.path.join(work, "prog")], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=defaults)
    time.sleep(0.4)
    p.send_signal(sig)
    err = p.communicate()[1].decode(errors="replace")
    if p.returncode != -sig:
        wrong.append(f"{sig.name}: {p.returncode}")
    dumps += "Stack dump" in err or "PLEASE submit" in err
print(f"signals end the driver by themselves: {', '.join(wrong) or 'all'}; {dumps} stack dumps, "
      f"{leftovers()}")
# SIGHUP ignored (nohup), and SIGINT ignored (a job started in the background by a shell
# without job control): the driver goes on and leaves a whole program, as g++ does.
for sig in (signal.SIGHUP, signal.SIGINT):
    prog = os.path.join(work, "prog-ignored-" + sig.name)
    p = subprocess.Popen([driver, "-O2", source, "-o", prog], env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL,
                         preexec_fn=lambda: (defaults(), signal.signal(sig, signal.SIG_IGN)))
    time.sleep(0.4)
    p.send_signal(sig)
    rc = p.wait()
    ok = subprocess.run([prog], env=env, stdout=subprocess.DEVNULL).returncode == 0 if os.path.exists(prog) else False
    print(f"an ignored {sig.name}: exit {rc}, program {'built and runs' if ok else 'missing or broken'}")

# The signal sent to the whole process group (Ctrl-C, Ctrl-\ in a shell): the commands get it
# too, and g++ ended by SIGQUIT left its ccXXXXXX.s in TMPDIR (adversarial pass, 2026-12-06):
# the commands' temporaries now go in the driver's own folder.
for i, sig in enumerate([signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGQUIT, signal.SIGINT, signal.SIGQUIT]):
    p = subprocess.Popen([driver, "-O2", source, "-o", os.path.join(work, "prog-group")], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=defaults,
                         start_new_session=True)
    time.sleep(0.2 + 0.25 * i)
    try:
        os.killpg(p.pid, sig)
    except ProcessLookupError:
        pass
    p.wait()
time.sleep(0.3)
print(f"signals to the process group: {leftovers()}")

# The first build with an empty cache makes the headers' PCH there: interrupted, it leaves no
# temporary of its own in the cache (three files per interruption before).
cache = os.path.join(work, "cache")
for delay in (0.3, 0.8, 1.5):
    p = subprocess.Popen([driver, "-O2", source, "-o", os.path.join(work, "prog-pch")],
                         env=dict(env, XDG_CACHE_HOME=cache), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, preexec_fn=defaults)
    time.sleep(delay)
    p.send_signal(signal.SIGTERM)
    p.wait()
cached = [n for _, _, files in os.walk(cache) for n in files] + \
         [d for _, dirs, _ in os.walk(cache) for d in dirs if "tmp" in d]
print(f"interrupted first builds leave in the cache: {sorted(n for n in cached if 'tmp' in n) or 'no temporaries'}")
