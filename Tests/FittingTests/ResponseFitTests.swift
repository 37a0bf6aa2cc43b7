import Foundation
import MessageDeferral
import Testing

@testable import Fitting
@testable import Simulation

/// `fit-responses` (``ResponseFit``) recovers a logistic response model it did not see:
/// rows drawn from known chances by kind and wait, each estimate within 4.5 of its own standard
/// errors of the truth (the Wald interval's half-width is 1.96 of them).
@Suite("Responses fitted from a message log")
struct ResponseFitTests {
  static func withinError(
    _ estimate: Double, _ interval: ClosedRange<Double>, truth: Double
  )
    -> Bool
  {
    let se = (log(interval.upperBound) - log(interval.lowerBound)) / (2 * 1.96)
    return abs(log(estimate) - log(truth)) <= 4.5 * se
  }

  @Test func recoversChancesByKindAndWait() throws {
    var stream = RandomStream(seed: 31, replication: 0, user: 0, purpose: .response)
    var truth = ResponseModel.Chance(probability: 0.7)
    truth.odds.screenKinds[ScreenKind.launch.index] = 0.4
    truth.odds.screenKinds[ScreenKind.content.index] = 1.5
    truth.odds.perDayWaited = 0.8
    var rows: [ResponseFit.Row] = []
    let kinds: [ScreenKind] = [.home, .home, .launch, .content]
    for index in 0..<20_000 {
      let kind = kinds[index % kinds.count]
      let days = 3 * stream.uniform()
      let p = truth.probability(kind: kind, early: false, waitedDays: days, strength: 1)
      rows.append(
        ResponseFit.Row(
          reason: .billingIssue, kind: kind, waitedSeconds: days * 86_400,
          response: stream.uniform() < p ? .fixed : .notFixed))
    }
    let fit = ResponseFit(rows: rows)
    let estimate = try #require(fit.estimates.first { $0.name == "billing_issue.fixed" })
    #expect(estimate.reference == .home)
    #expect(estimate.separated.isEmpty)
    // The probability at the reference on its logit scale.
    let logit = { (p: Double) in log(p / (1 - p)) }
    let range = estimate.probabilityInterval
    let se = (logit(range.upperBound) - logit(range.lowerBound)) / (2 * 1.96)
    #expect(abs(logit(estimate.probability) - logit(0.7)) <= 4.5 * se, "\(estimate.probability)")
    for (kind, ratio) in [(ScreenKind.launch, 0.4), (.content, 1.5)] {
      let odds = try #require(estimate.kindOdds.first { $0.kind == kind })
      #expect(Self.withinError(odds.ratio, odds.interval, truth: ratio), "\(kind): \(odds.ratio)")
    }
    #expect(
      Self.withinError(estimate.perDayWaited, estimate.perDayWaitedInterval, truth: 0.8),
      "per day \(estimate.perDayWaited)")
    // The intervals are narrow enough to mean something at this size.
    #expect(estimate.perDayWaitedInterval.upperBound < 0.9)
    // Observed and fitted agree by kind (a saturated model in the kinds).
    for entry in estimate.byKind { #expect(abs(entry.observed - entry.fitted) < 0.01) }
    // The other chances had no row: kept, with a warning each.
    #expect(fit.warnings.count == 3)
    let model = fit.model(over: nil)
    #expect(abs(model.billingFixed.probability - estimate.probability) < 1e-12)
  }

  @Test func readsMessagesCSVAndRefusesBadRows() throws {
    let header =
      "policy,replication,user,message,reason,issued_at_s,delivered_at_s,displayed_at_s,wait_s,"
      + "screen,screen_kind,forced,attempts,outcome,response"
    let good =
      header + "\n"
      + "a,0,0,0,price_increase_consent,0,10,70,70,home,home,false,1,displayed,accepted\n"
      + "b,0,0,0,price_increase_consent,0,10,20,20,splash,launch,false,1,displayed,closed\n"
      + "a,0,1,0,billing_issue,0,5,,,,,false,0,pending,\n"
    let rows = try ResponseFit.parsed(text: good, file: "m.csv", policy: nil).get()
    #expect(rows.count == 2)
    #expect(
      rows[0]
        == .init(reason: .priceIncreaseConsent, kind: .home, waitedSeconds: 60, response: .accepted)
    )
    #expect(try ResponseFit.parsed(text: good, file: "m.csv", policy: "b").get().count == 1)
    let bad = good.replacingOccurrences(of: ",accepted", with: ",maybe")
    guard case .failure(let error) = ResponseFit.parsed(text: bad, file: "m.csv", policy: nil)
    else {
      Issue.record("a bad response was read")
      return
    }
    #expect(error.line == 2 && error.message.contains("'maybe'"))
    let noColumn = good.replacingOccurrences(of: ",response\n", with: "\n")
    guard
      case .failure(let missing) = ResponseFit.parsed(text: noColumn, file: "m.csv", policy: nil)
    else {
      Issue.record("a log without responses was read")
      return
    }
    #expect(missing.message.contains("no 'response' column"))
    let json =
      #"{"event": "store_message_response", "reason": "win_back_offer", "screen_kind": "home", "waited_seconds": 30, "response": "redeemed"}"#
      + "\n" + #"{"event": "screen_view", "screen": "home"}"#
    let lines = try ResponseFit.parsed(text: json, file: "log.jsonl", policy: nil).get()
    #expect(
      lines == [.init(reason: .winBackOffer, kind: .home, waitedSeconds: 30, response: .redeemed)])
  }
}
