import Fitting
import Foundation
import Simulation

/// `deferral-bench fit LOG MAP`: the cost of `deferral-sim fit` on a log: the streaming pass and
/// the fits (no report, no predictive check), in this process alone so its peak resident memory
/// (`VmHWM`) is the fit's. Prints `name: value` lines. A log of a million rows or more:
/// `deferral-sim run scenarios/fit-samples/round-trip.json --users 3000 --events-log ...`.
enum FitBench {
  static func run(log: String, map mapPath: String) throws {
    let map = try FitMap.load(contentsOf: mapPath)
    let started = Measure.nanoseconds()
    let result = try ScenarioFit.fit(files: [log], map: map)
    let seconds = Double(Measure.nanoseconds() - started) / 1e9
    let rows = result.observations.rows
    let bytes = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
    print("fit_rows: \(rows)")
    print("fit_file_mib: \(String(format: "%.1f", Double(bytes) / 1_048_576))")
    print("fit_users: \(result.observations.users)")
    print("fit_screens: \(result.screens.count)")
    print("fit_seconds: \(String(format: "%.2f", seconds))")
    print("fit_rows_per_second: \(Int(Double(rows) / seconds))")
    if let peak = Measure.peakResidentKiB() {
      print("fit_peak_rss_mib: \(String(format: "%.1f", Double(peak) / 1024))")
    }
  }
}
