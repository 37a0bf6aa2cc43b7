import Foundation
import MessageDeferral
import Simulation
import TestSupport
import Testing

@testable import Experiments
@testable import Reports

/// Merge trusts nothing: every partial file is checked on its own (digests of its sources and
/// content, bounds, conservation, names) and merges use checked arithmetic, so an edited file
/// is refused with a message naming the file and the field, never merged and never a trap.
@Suite("Partial files: hardening")
struct PartialHardeningTests {
  /// A real partial (shard 1 of 12 of PartialTreeTests) as a JSON object.
  static func runObject() throws -> [String: Any] {
    let text = try PartialTreeTests.partials[1].encoded()
    return try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
  }

  /// Writes `object` to a temporary file and reads it as a partial: the error's message.
  static func refusal(_ object: [String: Any]) throws -> String? {
    let path = TestScratch.directory
      .appendingPathComponent("partial-\(UUID().uuidString)-of-12.json").path
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try PartialFile.read(contentsOf: path)
      return nil
    } catch {
      return error.message
    }
  }

  /// Applies `edit` to the first tally of a real partial.
  static func editingTally(_ edit: (inout [String: Any]) -> Void) throws -> [String: Any] {
    var object = try runObject()
    var tallies = object["tallies"] as! [[[String: Any]]]
    edit(&tallies[0][0])
    object["tallies"] = tallies
    return object
  }

  static func lane(_ tally: [String: Any], _ key: String) -> [Int] { tally[key] as! [Int] }

  @Test func anUneditedPartialIsRead() throws {
    #expect(try Self.refusal(Self.runObject()) == nil)
  }

  /// Each edit and the words its refusal must contain.
  @Test func editedCountsAreRefused() throws {
    let cases: [([String: Any], [String])] = [
      // +5 on one displayed count: issued = displayed + expired + pending no longer holds.
      (
        try Self.editingTally { $0["displayed"] = Self.lane($0, "displayed").map { $0 + 5 } },
        ["$.tallies[0][0].issued[0]", "every issued message ends in exactly one"]
      ),
      (try Self.editingTally { $0["sheets"] = -3 }, ["$.tallies[0][0].sheets", "negative"]),
      (
        try Self.editingTally { $0["breaks"] = Int.max },
        ["$.tallies[0][0].breaks", "above the largest count"]
      ),
      // A consistent edit (one displayed message counted as expired) passes every count check
      // and is refused by the content digest.
      (
        try Self.editingTally { tally in
          var displayed = Self.lane(tally, "displayed")
          var expired = Self.lane(tally, "expired")
          let lane = displayed.firstIndex { $0 > 0 } ?? 0
          displayed[lane] -= 1
          expired[lane] += 1
          tally["displayed"] = displayed
          tally["expired"] = expired
        }, ["$.content_sha256", "edited after it was written"]
      ),
      (
        try Self.editingTally { tally in
          var latency = tally["latency"] as! [[String: Any]]
          latency[0]["bins"] = [[-1, 1]]
          tally["latency"] = latency
        }, ["$.tallies[0][0].latency[0].bins", "a bin is [index from 0 to 1319"]
      ),
    ]
    for (object, words) in cases {
      let message = try #require(try Self.refusal(object))
      for word in words {
        #expect(message.contains(word), "\(message)")
      }
      #expect(!message.contains("not valid JSON"))
    }
  }

  /// Histogram counts that used to trap while decoding (a sum past Int.max, a negative count,
  /// bins holding more than the count) are decoding errors.
  @Test(arguments: [
    #"{"count": 1, "below": 9223372036854775807, "above": 1, "sum": 0, "bins": []}"#,
    #"{"count": -1, "below": 0, "above": 0, "sum": 0, "bins": []}"#,
    #"{"count": 1, "below": 0, "above": 0, "sum": 1, "minimum": 1, "maximum": 1,"#
      + #" "bins": [[700, 9007199254740992], [701, 9007199254740992]]}"#,
  ])
  func histogramCountsOutOfRangeAreDecodingErrors(json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(LatencyHistogram.self, from: Data(json.utf8))
    }
  }

  /// The embedded scenario's digest is recomputed: a renamed scenario is refused.
  @Test func anEditedScenarioIsRefused() throws {
    var object = try Self.runObject()
    object["scenario_source"] = (object["scenario_source"] as! String)
      .replacingOccurrences(of: "indie-subscription", with: "renamed")
    let message = try #require(try Self.refusal(object))
    #expect(message.contains("$.scenario_sha256: is not the SHA-256 of $.scenario_source"))
  }

  /// A sweep partial: an edited sweep text, and a sweep name that would escape results/.
  @Test func anEditedSweepIsRefused() throws {
    let plan = try SweepShardTests.plan()
    let text = try SweepShardTests.partial(plan, shard: 0, of: 2).encoded()
    let original = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    #expect(try Self.refusal(original) == nil)
    var edited = original
    edited["sweep_source"] = (original["sweep_source"] as! String)
      .replacingOccurrences(of: "\"seed\": 7", with: "\"seed\": 9")
    #expect(try Self.refusal(edited)?.contains("$.sweep_sha256") == true)
    for name in ["../../../../tmp/x/PWNED", "..", "/tmp/x", "a/b", "", "-x"] {
      var escaping = original
      escaping["sweep_name"] = name
      let message = try #require(try Self.refusal(escaping), "\(name)")
      #expect(message.contains("$.sweep_name"), "\(message)")
    }
  }

  /// Counts that fit one by one but whose sum overflows are refused at the merge, naming the
  /// file and the field, instead of trapping in Tally.merge.
  @Test func anOverflowingMergeIsRefused() throws {
    var big = PartialTreeTests.partials[0]
    big.tallies[1][2].sheets = Tally.maximumCount
    big.tallies[1][2].simulatedSeconds = Int64.max - 1
    let first = try PartialTreeTests.roundTrip(big, path: "first")
    var second = PartialTreeTests.partials[1]
    second.tallies[1][2].sheets = 1
    second = try PartialTreeTests.roundTrip(second, path: "second")
    #expect {
      try PartialResult.merge([first, second], paths: ["a.json", "b.json"])
    } throws: { error in
      (error as? PartialError)?.message.hasPrefix("b.json: $.tallies[1][2].sheets") == true
    }
    second.tallies[1][2].sheets = 0
    second.tallies[1][2].simulatedSeconds = 2
    #expect {
      try PartialResult.merge([first, second], paths: ["a.json", "b.json"])
    } throws: { error in
      (error as? PartialError)?.message.contains("$.tallies[1][2].simulatedSeconds") == true
    }
  }

  /// Folders: every partial-*-of-N.json in them, and a clear refusal when there is none.
  @Test func aFolderGivesItsPartials() throws {
    let folder = TestScratch.directory
      .appendingPathComponent("parts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect {
      try PartialFile.paths([folder.path])
    } throws: { error in
      (error as? PartialError)?.message.contains("no partial-*-of-N.json file") == true
    }
    for name in ["partial-3-of-12.json", "partial-0-5-of-12.json", "notes.txt", "partial-x.json"] {
      try Data().write(to: folder.appendingPathComponent(name))
    }
    let paths = try PartialFile.paths([folder.path])
    #expect(
      paths.map { ($0 as NSString).lastPathComponent }
        == ["partial-0-5-of-12.json", "partial-3-of-12.json"])
  }
}
