// compiler/Subprocess.h — every tool offload-cxx runs (the host compiler, clang, ptxas, lld)
// goes through runCommand, which prints it under -v, only prints it under --dry-run (-###), and
// turns a failure into an llvm::Error naming the tool.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Program.h"

#include <functional>
#include <string>
#include <vector>

namespace offload::compiler {

struct CommandOptions {
  bool Verbose = false;  ///< print each command and its time on stderr
  bool DryRun = false;   ///< print each command, run none
};

/// Runs Argv (Argv[0] is the program's path). Returns an error "'<tool>' failed (exit N)" if it
/// could not start or exited non-zero; the tool's own diagnostics go to stderr as they come.
llvm::Error runCommand(llvm::ArrayRef<std::string> Argv, const CommandOptions &Options);

/// As runCommand, with the tool's diagnostics (its stderr) written to StderrFile and returned in
/// Stderr instead of printed: for tools whose messages offload-cxx restates (DeviceDiagnostics.h).
llvm::Error runCommandCapturingErrors(llvm::ArrayRef<std::string> Argv,
                                      const CommandOptions &Options,
                                      const std::string &StderrFile, std::string &Stderr);

/// Appends the user's compile flags to Args, preceded by -std=c++20 unless they choose a
/// standard themselves (offload-cxx's headers need C++20).
void appendUserCompileFlags(std::vector<std::string> &Args, llvm::ArrayRef<std::string> UserFlags);
/// The same for offload-cxx's own clang compiles of the user's code (host metadata, device, CPU
/// image), with warnings off: the user's compiler already warned about the user's code once, and
/// no warning may point into a file offload-cxx generated.
/// When the host compiler is GCC, clang is told its version (-fgnuc-version=, read once from
/// `HostCompiler -dumpfullversion` at the first such compile): `__GNUC__` and
/// `__GNUC_MINOR__` are g++'s in every device compile, so that code that asks for them is the
/// same code on every device (clang's own say 4.2.1).
void appendUserFlagsForClang(std::vector<std::string> &Args, llvm::ArrayRef<std::string> UserFlags);
/// The host compiler's options that define macros (-pthread, -fopenmp, -specs, --param):
/// appendUserFlagsForClang gives clang the macros g++ defines or changes under them.
void setGccMacroFlags(std::vector<std::string> Flags);
/// The host compiler whose GCC version appendUserFlagsForClang gives clang (the driver's
/// --host-compiler, or a launcher's); none for clang++.
void setGccHostCompiler(const std::string &HostCompiler);

/// Files writeFile must never write over (the build's inputs): it returns an error naming one
/// instead.
void protectFiles(llvm::ArrayRef<std::string> Paths);

/// A file's stem for the names of temporary files, at most 48 characters (a temporary name joins
/// the output's stem and a source's: two 250-character names passed NAME_MAX).
std::string tempStem(llvm::StringRef Path);

/// Writes Contents to Path, or returns an error naming Path.
llvm::Error writeFile(llvm::StringRef Path, llvm::StringRef Contents);

/// A command started by startCommand, to be finished by finishCommand.
struct RunningCommand {
  std::vector<std::string> Argv;
  llvm::sys::ProcessInfo Process;
  double StartMilliseconds = 0;
  bool Started = false;
  /// Run by finishCommand once the command has succeeded (a lambda file's host compile puts
  /// right the dependency file g++ wrote for its rewrite: Build.cpp).
  std::function<llvm::Error()> AfterSuccess;
};

/// Starts Argv without waiting (printed as runCommand prints it; nothing runs under --dry-run),
/// so that independent steps overlap on the machine's cores.
llvm::Expected<RunningCommand> startCommand(llvm::ArrayRef<std::string> Argv,
                                            const CommandOptions &Options);
/// Waits for a started command; errors as runCommand's.
llvm::Error finishCommand(RunningCommand &Command, const CommandOptions &Options);

/// Prints "offload-cxx: <what> took N ms" under -v.
void reportTime(llvm::StringRef What, double Milliseconds, const CommandOptions &Options);

/// The path of program Name: the first of Candidates that exists, else Name found on PATH.
llvm::Expected<std::string> findTool(llvm::StringRef Name, llvm::ArrayRef<std::string> Candidates);

/// Folders an interrupted command removes (SIGINT, SIGTERM, SIGHUP, a closed pipe): kept as a
/// ready `rm -rf -- DIRS` command line, because a signal handler may do only async-signal-safe
/// work (removing a tree with LLVM's functions allocates: a SIGINT during malloc aborted the
/// driver with "corrupted double-linked list"). Up to four folders; a later call adds to them.
void removeOnSignal(const std::string &Dir);
/// From a signal handler: runs that command and waits for it (_Fork, execve, waitpid only).
void runSignalCleanup() noexcept;
/// From a signal handler (sys::SetInterruptFunction): runSignalCleanup, then the process ends
/// with status 130, as a shell reports an interrupted command (LLVM's handler returns after the
/// interrupt function: the driver went on, and wrote into the folder just removed). While a
/// command is being started it returns, and the driver ends as soon as that command is watched.
void exitAfterSignalCleanup() noexcept;

/// The signals that end a compile (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) end the driver as
/// they end g++: runSignalCleanup, then the same signal again with its default action, so that
/// the shell and `make` see a process killed by it (a loop stops on Ctrl-C; not exit status
/// 130, nor LLVM's stack dump for SIGQUIT). A signal the driver was started with ignored
/// (`nohup`, a background job's SIGQUIT) stays ignored. rememberStartingSignals must run first in
/// main, before LLVM installs its handlers; handleEndingSignals after.
void rememberStartingSignals();
void handleEndingSignals();

/// Path as a command's operand: "./-x.o" for "-x.o", which a tool would read as an option.
std::string asOperand(llvm::StringRef Path);

/// Path, or the file a symbolic link at Path names (followed to the end; one that does not exist
/// yet is made where the last link points, as open(2) makes it): where g++ would write Path.
std::string throughSymlink(const std::string &Path);

} // namespace offload::compiler
