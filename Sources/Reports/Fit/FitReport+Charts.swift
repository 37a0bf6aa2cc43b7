import Fitting
import Foundation
import Simulation

extension FitReport {
  /// The observed data's style: the ink colour, solid.
  static let observedStyle = SeriesStyle.ink()
  /// The fit's style: blue, dashed.
  static let fittedStyle = SeriesStyle(colour: 0, variant: 1)

  /// One duration's observed CDF (Kaplan–Meier, censoring included) against the fitted one,
  /// on a log time axis.
  static func cdfChart(_ summary: DurationFitSummary, id: String) -> String {
    let width = 480.0
    let steps = summary.empirical.steps
    let low = max(DurationFit.resolution, (steps.first?.seconds ?? 1) / 1.5)
    let high = max(low * 10, (steps.last?.seconds ?? 10) * 1.5)
    let entries = [
      LegendEntry(label: "observed (Kaplan–Meier)", style: observedStyle, symbol: .line),
      LegendEntry(
        label: summary.chosen.map { "fitted \($0.family.rawValue)" } ?? "no fit",
        style: fittedStyle,
        symbol: .line),
    ]
    let frame = ChartFrame(width: width, height: 300, top: 62, right: 18, bottom: 52, left: 52)
    var canvas = ChartCanvas(width: width, height: frame.height)
    canvas.text(summary.name, x: 0, y: 16, classes: "panel-title")
    canvas.legend(entries, x: frame.plotLeft, y: 26, maxWidth: width - frame.plotLeft)
    let x = LogScale(domain: (low, high), range: (frame.plotLeft, frame.plotRight))
    let y = LinearScale(domain: (0, 1), range: (frame.plotBottom, frame.plotTop))
    canvas.leftAxis(
      frame: frame,
      ticks: [0, 25, 50, 75, 100].map { AxisTick(position: y($0 / 100), label: "\(Int($0))%") },
      title: "")
    canvas.bottomAxis(
      frame: frame,
      ticks: Chart.durationTicks(min: low, max: high, count: 6).map {
        AxisTick(position: x($0), label: Chart.durationTickLabel($0))
      }, title: "Duration (log scale)")
    var points: [(x: Double, y: Double)] = [(x(low), y(0))]
    for step in steps where step.seconds >= low && step.seconds <= high {
      points.append((x(step.seconds), points.last!.y))
      points.append((x(step.seconds), y(step.cdf)))
    }
    points.append((x(high), points.last!.y))
    canvas.polyline(points, classes: "series-line \(observedStyle.classes)")
    if let fitted = summary.chosen {
      let curve = (0...120).map { index -> (x: Double, y: Double) in
        let seconds = low * pow(high / low, Double(index) / 120)
        return (x(seconds), y(fitted.cdf(seconds)))
      }
      canvas.polyline(curve, classes: "series-line \(fittedStyle.classes)")
    }
    return canvas.svg(
      title: "\(summary.name): observed and fitted CDF",
      description: "The share of durations at or below a time: observed (Kaplan–Meier, "
        + "censored durations included) and the fitted distribution.", id: id)
  }

  /// Observed against simulated shares over small counts (the last bucket is "N or more").
  static func comparisonBars(
    title: String, axisTitle: String, observed: [Int: Int], simulated: [Int: Int], buckets: Int,
    id: String
  ) -> String {
    func shares(_ counts: [Int: Int]) -> [Double] {
      let total = Double(max(1, counts.values.reduce(0, +)))
      var result = Array(repeating: 0.0, count: buckets)
      for (value, count) in counts where value >= 1 {
        result[min(value, buckets) - 1] += Double(count) / total
      }
      return result
    }
    let series = [shares(observed), shares(simulated)]
    let width = 480.0
    let frame = ChartFrame(width: width, height: 300, top: 62, right: 18, bottom: 52, left: 52)
    var canvas = ChartCanvas(width: width, height: frame.height)
    canvas.text(title, x: 0, y: 16, classes: "panel-title")
    canvas.legend(
      [
        LegendEntry(label: "observed", style: observedStyle, symbol: .box),
        LegendEntry(label: "simulated from the fit", style: fittedStyle, symbol: .box),
      ], x: frame.plotLeft, y: 26, maxWidth: width - frame.plotLeft)
    let top = Chart.niceDomain(min: 0, max: max(0.01, series.flatMap { $0 }.max() ?? 0), count: 4).1
    let y = LinearScale(domain: (0, top), range: (frame.plotBottom, frame.plotTop))
    canvas.leftAxis(
      frame: frame,
      ticks: Chart.niceTicks(min: 0, max: top, count: 4).map {
        AxisTick(position: y($0), label: Chart.fixed($0 * 100, 0) + "%")
      }, title: "")
    let slot = frame.plotWidth / Double(buckets)
    canvas.bottomAxis(
      frame: frame,
      ticks: (0..<buckets).map {
        AxisTick(
          position: frame.plotLeft + slot * (Double($0) + 0.5),
          label: $0 == buckets - 1 ? "\(buckets)+" : "\($0 + 1)")
      }, title: axisTitle, grid: false)
    for (index, values) in series.enumerated() {
      for (bucket, share) in values.enumerated() {
        let left = frame.plotLeft + slot * Double(bucket) + slot * (0.12 + 0.38 * Double(index))
        canvas.rect(
          x: left, y: y(share), width: slot * 0.38, height: frame.plotBottom - y(share),
          classes: "bar \((index == 0 ? observedStyle : fittedStyle).classes)",
          title: "\(index == 0 ? "observed" : "simulated"): \(Chart.fixed(share * 100, 1))%")
      }
    }
    return canvas.svg(
      title: title,
      description: "\(title): share observed in the log and simulated from the "
        + "fitted scenario.", id: id)
  }
}
