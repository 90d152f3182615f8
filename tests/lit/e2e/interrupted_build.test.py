"""Starts 12 builds and interrupts each after a different delay (interrupted_build.test)."""
import os, signal, subprocess, sys, time

driver, source, work = sys.argv[1:4]
env = dict(os.environ, TMPDIR=os.path.join(work, "tmp"))
aborted = 0
for i in range(12):
    p = subprocess.Popen([driver, "-O2", source, "-o", os.path.join(work, "prog")], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.05 + 0.12 * i)
    p.send_signal(signal.SIGINT if i % 2 == 0 else signal.SIGTERM)
    rc = p.wait()
    aborted += rc in (-signal.SIGABRT, 134, -signal.SIGSEGV, 139)
left = len(os.listdir(os.path.join(work, "tmp")))
print(f"interrupted 12 builds: {aborted} aborted, {left} temporary folders left")
