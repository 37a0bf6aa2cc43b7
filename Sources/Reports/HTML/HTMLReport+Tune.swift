import Foundation
import MessageDeferral

/// One evaluation of a tune, as the report draws it (``TuneSearch/Evaluation`` without the
/// search's types: Reports sits below Experiments).
public struct TuneReportEvaluation: Sendable {
  /// 0, 1, ... for search rounds; `nil` for the selection stage.
  public var round: Int?
  public var policy: String
  /// Each knob's value as text (empty for a compared preset).
  public var knobValues: [String]
  public var mean: Double
  public var feasible: Bool
  /// The stage's name on the chart (`round 2`, `local 1`); `nil`: `round N` or `selection`.
  public var stage: String?

  public init(
    round: Int?, policy: String, knobValues: [String], mean: Double, feasible: Bool,
    stage: String? = nil
  ) {
    self.round = round
    self.stage = stage
    self.policy = policy
    self.knobValues = knobValues
    self.mean = mean
    self.feasible = feasible
  }
}

extension HTMLReport {
  /// The page `tune` writes: the search's progress (every evaluation by stage, the best of
  /// each stage joined), each knob's effect on the objective (the first round's candidates:
  /// every setting, or a Latin hypercube spread over the knobs), and the verification on new
  /// users.
  public static func renderTune(
    name: String, objective: String, unit: String, knobs: [String],
    evaluations: [TuneReportEvaluation], winner: String, statement: String,
    verification: TuneVerification, verificationUnit: String
  ) -> String {
    var sections: [String] = []
    sections.append(
      "<header class=\"panel\" id=\"header\">\n<p class=\"eyebrow\">deferral-sim · tune</p>\n"
        + "<h1>\(Chart.escape(name))</h1>\n<p>\(Chart.escape(statement))</p>\n"
        + "<p>Selected: <strong>\(Chart.escape(winner))</strong>. Every evaluation is in "
        + "<code>tune.csv</code>; the verification on new users in "
        + "<code>verification.csv</code>.</p>\n</header>")
    sections.append(
      figure(
        id: "progress", heading: "Search progress",
        svg: tuneProgressChart(evaluations, objective: objective, unit: unit),
        caption:
          "Each point is one candidate's mean \(Chart.escape(objective)) in a stage (rounds "
          + "double the users; the selection stage runs the finalists and the compared presets "
          + "on new users); hollow points broke a constraint. The line joins each stage's best."))
    let firstRound = evaluations.filter { $0.round == 0 && $0.knobValues.count == knobs.count }
    for (index, knob) in knobs.enumerated() where !firstRound.isEmpty {
      sections.append(
        figure(
          id: "knob-\(index + 1)", heading: "Effect of \(knob)",
          svg: tuneKnobChart(firstRound, knob: index, name: knob, objective: objective),
          caption:
            "The first round's candidates: \(Chart.escape(knob)) against their mean "
            + "\(Chart.escape(objective)) (\(Chart.escape(unit))). The other knobs vary too "
            + "(every setting once, or a Latin hypercube spreading every knob over its range), "
            + "so a trend here is that "
            + "knob's effect on average over the others."))
    }
    var table = "<div class=\"table-wrap\"><table>\n<thead><tr><th scope=\"col\">Against</th>"
    table += "<th scope=\"col\">Metric</th><th scope=\"col\">tuned − other [95%]</th></tr></thead>"
    table += "\n<tbody>\n"
    let names = verification.report.result.policies.map(\.name)
    for other in names.indices.dropFirst() {
      for metric in verification.metrics {
        guard let difference = verification.report.pairedInterval(0, other, metric: metric)
        else { continue }
        let shown =
          metric.metric.unit
        table +=
          "<tr><td>\(Chart.escape(names[other]))</td><td>\(Chart.escape(metric.name))</td><td>"
          + Chart.escape(
            "\(TuneVerification.signed(difference.mean, shown)) "
              + "[\(TuneVerification.signed(difference.low, shown)), "
              + "\(TuneVerification.signed(difference.high, shown))]") + "</td></tr>\n"
      }
    }
    table += "</tbody></table></div>"
    sections.append(
      "<section class=\"panel\" id=\"verification\">\n<h2>Verified on new users</h2>\n<p>"
        + Chart.escape(verification.lines(unit: verificationUnit).first ?? "")
        + "</p>\n\(table)\n</section>")
    return page(title: "deferral-sim tune: \(name)", generator: nil, sections: sections)
  }

  /// Means by stage: x the stage (round 1, 2, ..., local 1, ..., selection), y the objective.
  static func tuneProgressChart(
    _ evaluations: [TuneReportEvaluation], objective: String, unit: String
  ) -> String {
    let rounds = (evaluations.compactMap(\.round).max() ?? -1) + 1
    let stages = rounds + (evaluations.contains { $0.round == nil } ? 1 : 0)
    let frame = ChartFrame(width: 720, height: 320, top: 16, right: 24, bottom: 56, left: 80)
    var canvas = ChartCanvas(width: frame.width, height: frame.height)
    let means = evaluations.map(\.mean)
    let (low, high) = paddedDomain(means)
    let y = LinearScale(domain: (low, high), range: (frame.plotBottom, frame.plotTop))
    let x = LinearScale(
      domain: (-0.5, Double(max(stages, 1)) - 0.5), range: (frame.plotLeft, frame.plotRight))
    let ticks = Chart.niceTicks(min: low, max: high, count: 5)
    let decimals = Chart.tickDecimals(min: low, max: high, count: 5)
    canvas.leftAxis(
      frame: frame,
      ticks: ticks.map { AxisTick(position: y($0), label: Chart.fixed($0, decimals)) },
      title: "\(objective) (\(unit))")
    canvas.bottomAxis(
      frame: frame,
      ticks: (0..<stages).map {
        stage in
        let named = evaluations.first { ($0.round ?? rounds) == stage }?.stage
        return AxisTick(
          position: x(Double(stage)),
          label: named ?? (stage < rounds ? "round \(stage + 1)" : "selection"))
      }, title: "Stage", grid: false)
    var best: [(x: Double, y: Double)] = []
    for stage in 0..<stages {
      let inStage = evaluations.filter { ($0.round ?? rounds) == stage }
      for evaluation in inStage {
        canvas.circle(
          x: x(Double(stage)), y: y(evaluation.mean), radius: 4,
          classes: evaluation.feasible ? "point series-0" : "point dominated series-0",
          title: "\(evaluation.policy): \(Chart.fixed(evaluation.mean, decimals + 1)) \(unit)")
      }
      if let top = inStage.map(\.mean).max() { best.append((x(Double(stage)), y(top))) }
    }
    if best.count > 1 { canvas.polyline(best, classes: "series-line series-0") }
    return canvas.svg(
      title: "Search progress",
      description: "Each candidate's mean \(objective) by stage of the search", id: "progress")
  }

  /// One knob's values (numbers on a linear axis, words as categories) against the mean.
  static func tuneKnobChart(
    _ evaluations: [TuneReportEvaluation], knob: Int, name: String, objective: String
  ) -> String {
    let texts = evaluations.map { $0.knobValues[knob] }
    let numbers = texts.map { Double($0) ?? (try? DurationText.seconds(in: $0)) }
    let numeric = numbers.allSatisfy { $0 != nil }
    let levels = numeric ? [] : Array(Set(texts)).sorted()
    let frame = ChartFrame(width: 720, height: 260, top: 16, right: 24, bottom: 56, left: 80)
    var canvas = ChartCanvas(width: frame.width, height: frame.height)
    let (low, high) = paddedDomain(evaluations.map(\.mean))
    let y = LinearScale(domain: (low, high), range: (frame.plotBottom, frame.plotTop))
    let decimals = Chart.tickDecimals(min: low, max: high, count: 5)
    canvas.leftAxis(
      frame: frame,
      ticks: Chart.niceTicks(min: low, max: high, count: 5).map {
        AxisTick(position: y($0), label: Chart.fixed($0, decimals))
      }, title: objective)
    let position: (Int) -> Double
    if numeric {
      let values = numbers.compactMap { $0 }
      let (xLow, xHigh) = paddedDomain(values)
      let x = LinearScale(domain: (xLow, xHigh), range: (frame.plotLeft, frame.plotRight))
      let xDecimals = Chart.tickDecimals(min: xLow, max: xHigh, count: 5)
      canvas.bottomAxis(
        frame: frame,
        ticks: Chart.niceTicks(min: xLow, max: xHigh, count: 5).map {
          AxisTick(position: x($0), label: Chart.fixed($0, xDecimals))
        }, title: name + (texts.contains { Double($0) == nil } ? " (seconds)" : ""))
      position = { x(values[$0]) }
    } else {
      let x = LinearScale(
        domain: (-0.5, Double(levels.count) - 0.5), range: (frame.plotLeft, frame.plotRight))
      canvas.bottomAxis(
        frame: frame,
        ticks: levels.enumerated().map {
          AxisTick(position: x(Double($0.offset)), label: $0.element)
        }, title: name, grid: false)
      position = { x(Double(levels.firstIndex(of: texts[$0])!)) }
    }
    for (index, evaluation) in evaluations.enumerated() {
      canvas.circle(
        x: position(index), y: y(evaluation.mean), radius: 4,
        classes: evaluation.feasible ? "point series-0" : "point dominated series-0",
        title: "\(evaluation.policy): \(name) = \(texts[index])")
    }
    return canvas.svg(
      title: "Effect of \(name)", description: "\(name) against the mean \(objective)",
      id: "knob-\(knob + 1)")
  }

  /// A domain around `values` with 5% room each side (a unit around one value).
  static func paddedDomain(_ values: [Double]) -> (Double, Double) {
    guard let low = values.min(), let high = values.max() else { return (0, 1) }
    if low == high { return (low - 1, high + 1) }
    let room = (high - low) * 0.05
    return (low - room, high + room)
  }
}
