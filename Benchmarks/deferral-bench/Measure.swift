import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Monotonic time, medians, CPU time and peak memory: what every benchmark section uses.
enum Measure {
  /// Nanoseconds on `CLOCK_MONOTONIC` (never steps back, unaffected by clock changes).
  static func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }

  /// Seconds taken by `body`, on the monotonic clock.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = nanoseconds()
    try body()
    return Double(nanoseconds() - start) / 1e9
  }

  /// CPU seconds (user + system) used by this process so far, all threads.
  static func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return value(usage.ru_utime) + value(usage.ru_stime)
  }

  /// The median (the mean of the two middle values for an even count).
  static func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty, "No values to take the median of")
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// This process's peak resident set size in KiB (`VmHWM` in `/proc/self/status`).
  static func peakResidentKiB() -> Int? {
    statusField("VmHWM:")
  }

  static func statusField(_ name: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      return Int(
        line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
  }

  /// The 1-minute load average (`/proc/loadavg`), to show how busy the machine was.
  static func loadAverage() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
      return nil
    }
    return Double(text.split(separator: " ").first ?? "")
  }
}

/// Checksums of measured work land here, so the optimizer cannot drop the work (a store to a
/// global is observable). Written from one thread only.
nonisolated(unsafe) var checksumSink = 0

/// Writes `text` and a line break to standard error (progress and diagnostics; standard output
/// carries only the table and the headline figures).
func printError(_ text: String) {
  FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}
