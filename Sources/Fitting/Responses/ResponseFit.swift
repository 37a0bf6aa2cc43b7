import Foundation
import MessageDeferral
import Simulation

/// The response model (``ResponseModel``) estimated from a message log: one row per sheet shown,
/// with its reason, the kind of the screen under it, how long the app held it and what the
/// user did (`deferral-sim fit-responses`, scenarios/README.md "responses").
///
/// Each chance is a logistic regression by maximum likelihood (Newton–Raphson on the
/// log-likelihood, which is concave): an intercept at the reference kind (the most frequent
/// calm kind in the rows, else the most frequent kind), one log odds ratio per other kind seen,
/// and one per day held. So the fitted `probability` is the chance over the reference kind at
/// no wait, the kinds' odds go to `screen_kinds`, the hold to `per_day_waited`; `interrupting`
/// and `first_seconds` stay 1 (the kinds absorb the first; a message log does not say when
/// the app came to the foreground, so the second cannot be told). Intervals are Wald 95%
/// intervals on the log odds from the observed information.
public struct ResponseFit: Sendable {
  /// One sheet shown and what the user did with it.
  public struct Row: Sendable, Equatable {
    public var reason: Reason
    public var kind: ScreenKind
    public var waitedSeconds: Double
    public var response: SheetResponse

    public init(reason: Reason, kind: ScreenKind, waitedSeconds: Double, response: SheetResponse) {
      self.reason = reason
      self.kind = kind
      self.waitedSeconds = waitedSeconds
      self.response = response
    }
  }

  /// One fitted chance: the estimate, its 95% interval, and the rows behind it by kind.
  public struct Estimate: Sendable {
    /// What it is: `price_increase_consent.choice`.
    public var name: String
    public var rows: Int
    public var reference: ScreenKind
    public var probability: Double
    public var probabilityInterval: ClosedRange<Double>
    /// Odds ratio against the reference kind, by kind seen (with its interval).
    public var kindOdds: [(kind: ScreenKind, ratio: Double, interval: ClosedRange<Double>)]
    public var perDayWaited: Double
    public var perDayWaitedInterval: ClosedRange<Double>
    /// By kind: rows, observed share of successes, mean fitted chance.
    public var byKind: [(kind: ScreenKind, rows: Int, observed: Double, fitted: Double)]
    /// Kinds whose rows all succeed or all fail (their odds are at the bound, not estimated).
    public var separated: [ScreenKind]

    /// The chance as a ``ResponseModel/Chance``.
    public var chance: ResponseModel.Chance {
      var chance = ResponseModel.Chance(probability: probability)
      for entry in kindOdds { chance.odds.screenKinds[entry.kind.index] = entry.ratio }
      chance.odds.perDayWaited = perDayWaited
      return chance
    }
  }

  public var estimates: [Estimate]
  /// What the log could not decide (a chance with no row, a kind at the bound).
  public var warnings: [String]

  /// The response model, starting from `template` (the scenario's own, kept for every chance
  /// the log has no row for).
  public func model(over template: ResponseModel?) -> ResponseModel {
    var model =
      template
      ?? ResponseModel(
        consentChoice: .init(probability: 1), consentAccept: .init(probability: 1),
        billingFixed: .init(probability: 1), winBackRedeemed: .init(probability: 1))
    for estimate in estimates {
      switch estimate.name {
      case "price_increase_consent.choice": model.consentChoice = estimate.chance
      case "price_increase_consent.accept": model.consentAccept = estimate.chance
      case "billing_issue.fixed": model.billingFixed = estimate.chance
      case "win_back_offer.redeemed": model.winBackRedeemed = estimate.chance
      default: break
      }
    }
    return model
  }

  /// Fits every chance the rows allow.
  public init(rows: [Row]) {
    var estimates: [Estimate] = []
    var warnings: [String] = []
    let consent = rows.filter { $0.reason == .priceIncreaseConsent }
    let chances: [(String, [(Row, Bool)])] = [
      ("price_increase_consent.choice", consent.map { ($0, $0.response != .closed) }),
      (
        "price_increase_consent.accept",
        consent.filter { $0.response != .closed }.map { ($0, $0.response == .accepted) }
      ),
      (
        "billing_issue.fixed",
        rows.filter { $0.reason == .billingIssue }.map { ($0, $0.response == .fixed) }
      ),
      (
        "win_back_offer.redeemed",
        rows.filter { $0.reason == .winBackOffer }.map { ($0, $0.response == .redeemed) }
      ),
    ]
    for (name, data) in chances {
      guard data.count >= 2 else {
        warnings.append(
          "\(name): \(data.count) row(s) in the log; kept the scenario's value (give more sheets)")
        continue
      }
      let estimate = Self.fit(name: name, data)
      if !estimate.separated.isEmpty {
        warnings.append(
          "\(name): every sheet over \(estimate.separated.map(\.rawValue).joined(separator: ", ")) "
            + "had the same outcome; its odds ratio is at the bound (e^±8), not estimated")
      }
      estimates.append(estimate)
    }
    self.estimates = estimates
    self.warnings = warnings
  }

  /// Largest |log odds| a coefficient may take (a separated kind stops there).
  static let bound = 8.0

  static func fit(name: String, _ data: [(Row, Bool)]) -> Estimate {
    var counts: [ScreenKind: Int] = [:]
    for (row, _) in data { counts[row.kind, default: 0] += 1 }
    let seen = counts.keys.sorted()
    let calm = seen.filter { !$0.isInterruptible }
    let pool = calm.isEmpty ? seen : calm
    let reference = pool.max { (counts[$0]!, $1.index) < (counts[$1]!, $0.index) }!
    let others = seen.filter { $0 != reference }
    let waits = data.map { $0.0.waitedSeconds / 86_400 }
    let fitsWait = Set(waits).count > 1
    // Columns: intercept, one per other kind, the wait (when it varies).
    let columns = 1 + others.count + (fitsWait ? 1 : 0)
    func features(_ index: Int) -> [Double] {
      var x = [Double](repeating: 0, count: columns)
      x[0] = 1
      if let column = others.firstIndex(of: data[index].0.kind) { x[1 + column] = 1 }
      if fitsWait { x[columns - 1] = waits[index] }
      return x
    }
    let design = data.indices.map(features)
    let outcomes = data.map { $0.1 ? 1.0 : 0.0 }
    var beta = [Double](repeating: 0, count: columns)
    var information = [[Double]](
      repeating: [Double](repeating: 0, count: columns), count: columns)
    for _ in 0..<100 {
      var gradient = [Double](repeating: 0, count: columns)
      information = [[Double]](repeating: [Double](repeating: 0, count: columns), count: columns)
      for (x, y) in zip(design, outcomes) {
        let eta = zip(x, beta).reduce(0) { $0 + $1.0 * $1.1 }
        let p = 1 / (1 + exp(-eta))
        let w = max(p * (1 - p), 1e-12)
        for i in 0..<columns {
          gradient[i] += (y - p) * x[i]
          for j in 0..<columns { information[i][j] += w * x[i] * x[j] }
        }
      }
      // A tiny ridge keeps the step finite when a kind is separated.
      var system = information
      for i in 0..<columns { system[i][i] += 1e-9 }
      guard let step = solve(system, gradient) else { break }
      var largest = 0.0
      for i in 0..<columns {
        beta[i] = min(bound, max(-bound, beta[i] + step[i]))
        largest = max(largest, abs(step[i]))
      }
      if largest < 1e-10 { break }
    }
    let covariance = invert(information) ?? information.map { $0.map { _ in Double.infinity } }
    func interval(_ index: Int) -> ClosedRange<Double> {
      let se = covariance[index][index].squareRoot()
      guard se.isFinite else { return -Double.infinity...Double.infinity }
      return (beta[index] - 1.96 * se)...(beta[index] + 1.96 * se)
    }
    func logistic(_ eta: Double) -> Double { 1 / (1 + exp(-eta)) }
    let interceptInterval = interval(0)
    var separated: [ScreenKind] = []
    var kindOdds: [(kind: ScreenKind, ratio: Double, interval: ClosedRange<Double>)] = []
    for (column, kind) in others.enumerated() {
      let b = beta[1 + column]
      if abs(b) >= bound - 1e-9 { separated.append(kind) }
      let range = interval(1 + column)
      kindOdds.append((kind, exp(b), exp(range.lowerBound)...exp(range.upperBound)))
    }
    var byKind: [(kind: ScreenKind, rows: Int, observed: Double, fitted: Double)] = []
    for kind in seen {
      let indices = data.indices.filter { data[$0].0.kind == kind }
      let observed = indices.filter { data[$0].1 }.count
      let fitted = indices.map { index in
        logistic(zip(design[index], beta).reduce(0) { $0 + $1.0 * $1.1 })
      }.reduce(0, +)
      byKind.append(
        (
          kind, indices.count, Double(observed) / Double(indices.count),
          fitted / Double(indices.count)
        ))
    }
    let wait = fitsWait ? beta[columns - 1] : 0
    let waitRange = fitsWait ? interval(columns - 1) : 0...0
    return Estimate(
      name: name, rows: data.count, reference: reference, probability: logistic(beta[0]),
      probabilityInterval: logistic(
        interceptInterval.lowerBound)...logistic(
          interceptInterval.upperBound),
      kindOdds: kindOdds, perDayWaited: exp(wait),
      perDayWaitedInterval: exp(waitRange.lowerBound)...exp(waitRange.upperBound),
      byKind: byKind, separated: separated)
  }

  /// Solves `a x = b` by Gaussian elimination with partial pivoting (`nil`: singular).
  static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
    let n = b.count
    var m = a
    var v = b
    for column in 0..<n {
      let pivot = (column..<n).max { abs(m[$0][column]) < abs(m[$1][column]) }!
      guard abs(m[pivot][column]) > 1e-300 else { return nil }
      m.swapAt(column, pivot)
      v.swapAt(column, pivot)
      for row in (column + 1)..<n {
        let factor = m[row][column] / m[column][column]
        guard factor != 0 else { continue }
        for k in column..<n { m[row][k] -= factor * m[column][k] }
        v[row] -= factor * v[column]
      }
    }
    var x = [Double](repeating: 0, count: n)
    for row in stride(from: n - 1, through: 0, by: -1) {
      var sum = v[row]
      for k in (row + 1)..<n { sum -= m[row][k] * x[k] }
      x[row] = sum / m[row][row]
    }
    return x
  }

  /// The inverse of `a`, column by column (`nil`: singular).
  static func invert(_ a: [[Double]]) -> [[Double]]? {
    let n = a.count
    var columns: [[Double]] = []
    for j in 0..<n {
      var unit = [Double](repeating: 0, count: n)
      unit[j] = 1
      guard let column = solve(a, unit) else { return nil }
      columns.append(column)
    }
    return (0..<n).map { i in (0..<n).map { j in columns[j][i] } }
  }
}

extension ResponseFit {
  /// The rows of a message log: `messages.csv` from `run --messages-log` (its `response`
  /// column; the wait is `displayed_at_s − delivered_at_s`), or JSON lines of the shipped
  /// library's `store_message_response` records (`reason`, `screen_kind`, `waited_seconds`,
  /// `response`). Rows of `policy` only, when given. Throws a message naming the line.
  public static func parsed(
    text: String, file: String, policy: String?
  ) -> Result<[Row], FitInputError> {
    do {
      return .success(try rows(text: text, file: file, policy: policy))
    } catch {
      return .failure(error)
    }
  }

  static func rows(
    text: String, file: String, policy: String?
  ) throws(FitInputError) -> [Row] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    guard let first = lines.first else {
      throw FitInputError(file: file, message: "the log is empty; give a message log")
    }
    if first.hasPrefix("{") { return try jsonRows(lines, file: file, policy: policy) }
    // CSV fields as the fit's log reader splits them (a quoted name may hold a comma).
    func fields(_ line: Substring) -> [String] {
      _LogParser.split(ArraySlice(line.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }
    let header = fields(first)
    func column(_ name: String) throws(FitInputError) -> Int {
      guard let index = header.firstIndex(of: name) else {
        throw FitInputError(
          file: file, line: 1,
          message: "no '\(name)' column; give messages.csv of a run of a scenario with a "
            + "'responses' section (run --messages-log), or the shipped library's JSON lines")
      }
      return index
    }
    let reasonColumn = try column("reason")
    let kindColumn = try column("screen_kind")
    let deliveredColumn = try column("delivered_at_s")
    let displayedColumn = try column("displayed_at_s")
    let responseColumn = try column("response")
    let policyColumn = header.firstIndex(of: "policy")
    var rows: [Row] = []
    for (offset, line) in lines.dropFirst().enumerated() {
      let fields = fields(line)
      guard fields.count == header.count else {
        throw FitInputError(
          file: file, line: offset + 2,
          message: "\(fields.count) fields, the header has \(header.count)")
      }
      if let policy, let policyColumn, fields[policyColumn] != policy { continue }
      guard !fields[responseColumn].isEmpty else { continue }
      rows.append(
        try row(
          reason: fields[reasonColumn], kind: fields[kindColumn],
          waited: {
            guard let shown = Double(fields[displayedColumn]),
              let delivered = Double(fields[deliveredColumn])
            else { return nil }
            return shown - delivered
          }(), response: fields[responseColumn], file: file, line: offset + 2))
    }
    return rows
  }

  static func jsonRows(
    _ lines: [Substring], file: String, policy: String?
  ) throws(FitInputError) -> [Row] {
    var rows: [Row] = []
    for (offset, line) in lines.enumerated() {
      let node: JSONNode
      do {
        node = try JSONReader.parse(Array(line.utf8))
      } catch {
        throw FitInputError(file: file, line: offset + 1, message: "not JSON: \(error.message)")
      }
      func text(_ key: String) -> String? {
        if case .string(let value)? = node[key]?.value { return value }
        return nil
      }
      guard text("event") == "store_message_response" else { continue }
      if let policy, let rowPolicy = text("policy"), rowPolicy != policy { continue }
      var waited: Double?
      if case .number(let value, _)? = node["waited_seconds"]?.value { waited = value }
      rows.append(
        try row(
          reason: text("reason") ?? "", kind: text("screen_kind") ?? "", waited: waited,
          response: text("response") ?? "", file: file, line: offset + 1))
    }
    return rows
  }

  static func row(
    reason: String, kind: String, waited: Double?, response: String, file: String, line: Int
  ) throws(FitInputError) -> Row {
    guard let screenKind = ScreenKind(rawValue: kind) else {
      throw FitInputError(
        file: file, line: line,
        message: "screen kind '\(kind)' is none of "
          + ScreenKind.allCases.map(\.rawValue).joined(separator: ", "))
    }
    guard let waited, waited.isFinite, waited >= 0 else {
      throw FitInputError(
        file: file, line: line,
        message: "no wait (a number of seconds at least 0) for a sheet shown")
    }
    let responses: [String: SheetResponse] = [
      "accepted": .accepted, "declined": .declined, "closed": .closed, "fixed": .fixed,
      "not fixed": .notFixed, "not_fixed": .notFixed, "redeemed": .redeemed,
      "not redeemed": .notRedeemed, "not_redeemed": .notRedeemed, "seen": .seen,
    ]
    guard let value = responses[response] else {
      throw FitInputError(
        file: file, line: line,
        message: "response '\(response)' is none of accepted, declined, closed, fixed, "
          + "not fixed, redeemed, not redeemed, seen")
    }
    guard let messageReason = Reason(name: reason) else {
      throw FitInputError(
        file: file, line: line,
        message: "reason '\(reason)' is none of price_increase_consent, billing_issue, "
          + "win_back_offer, generic, unknown_<raw value>")
    }
    return Row(reason: messageReason, kind: screenKind, waitedSeconds: waited, response: value)
  }
}

extension ResponseModel {
  /// The model as a scenario's `responses` section (the keys scenarios/README.md documents),
  /// with `sources` saying where each chance came from.
  public func configValue(sources: [String: String]) -> ConfigValue {
    func rounded(_ value: Double) -> ConfigValue {
      .number((value * 1e6).rounded() / 1e6)
    }
    func chance(_ chance: Chance) -> ConfigValue {
      var odds: [ConfigValue.Member] = []
      if chance.odds.interrupting != 1 {
        odds.append(.init(key: "interrupting", value: rounded(chance.odds.interrupting)))
      }
      if chance.odds.firstSeconds != 1 {
        odds.append(.init(key: "first_seconds", value: rounded(chance.odds.firstSeconds)))
      }
      if chance.odds.perDayWaited != 1 {
        odds.append(.init(key: "per_day_waited", value: rounded(chance.odds.perDayWaited)))
      }
      let kinds = ScreenKind.allCases.filter { chance.odds.screenKinds[$0.index] != 1 }
      if !kinds.isEmpty {
        odds.append(
          .init(
            key: "screen_kinds",
            value: .object(
              kinds.map {
                .init(key: $0.rawValue, value: rounded(chance.odds.screenKinds[$0.index]))
              }
            )))
      }
      var members: [ConfigValue.Member] = [
        .init(key: "probability", value: rounded(chance.probability))
      ]
      if !odds.isEmpty { members.append(.init(key: "odds", value: .object(odds))) }
      return .object(members)
    }
    var members: [ConfigValue.Member] = [
      .init(
        key: "price_increase_consent",
        value: .object([
          .init(key: "choice", value: chance(consentChoice)),
          .init(key: "accept", value: chance(consentAccept)),
        ])),
      .init(
        key: "billing_issue", value: .object([.init(key: "fixed", value: chance(billingFixed))])),
      .init(
        key: "win_back_offer",
        value: .object([.init(key: "redeemed", value: chance(winBackRedeemed))])),
      .init(key: "first_seconds", value: .number(firstSeconds)),
      .init(key: "moment_strength", value: .number(momentStrength)),
      .init(key: "after_close", value: .string(afterClose.rawValue)),
    ]
    if !sources.isEmpty {
      members.append(
        .init(
          key: "sources",
          value: .object(
            sources.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) })
        ))
    }
    return .object(members)
  }
}
