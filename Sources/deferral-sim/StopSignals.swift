import Dispatch
import Foundation
import Reports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the tool does when told to stop (`SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`, and every
/// other catchable signal that would end it, ``stopping``): discard
/// every staged output folder, so the previous complete set of files stays, say so, and exit
/// with 128 + the signal number, as a shell reports a process killed by it.
///
/// The handlers run on a dispatch queue, not in signal context, so they may take locks and
/// remove files. `SIGQUIT` would otherwise reach the Swift runtime's backtracer, which prints
/// "Program crashed" and lets the run carry on.
enum StopSignals {
  nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

  /// Every signal a process can catch whose default action ends it (POSIX "T" and "A"
  /// signals, but `SIGPIPE`, which a closed standard output raises and which ends the
  /// process without a folder half-written: writes happen in staging), so that `SIGUSR1`
  /// or a CPU limit's `SIGXCPU` discards what was staged as `SIGTERM` does.
  static let stopping: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
    SIGXFSZ,
  ]

  static func install() {
    let queue = DispatchQueue(label: "deferral-sim.stop-signals")
    for signalNumber in stopping {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
      source.setEventHandler {
        OutputFolder.discardAll()
        let name = signalNumber == SIGINT ? "interrupted" : "stopped by signal \(signalNumber)"
        FileHandle.standardError.write(
          Data("\nerror: \(name); the output folder keeps its previous files\n".utf8))
        _exit(128 + signalNumber)
      }
      source.resume()
      sources.append(source)
    }
  }
}
