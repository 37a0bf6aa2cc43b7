// libFuzzer entry point: partial result files (run --shard, sweep --shard, merge
// --partial-out) through decoding, the checks merge makes, the merge itself and the reports
// of a whole merge (CONTRIBUTING.md, "Fuzzing"). Built only by scripts/fuzz-partials.sh, with
// -sanitize=fuzzer,address; it is not a SwiftPM target.
//
// Each input is tried twice: as written (the content digest refuses almost every mutation),
// and as an attacker would send it, with the content digest recomputed, so that the checks
// behind the digest (bounds, conservation, shapes, names, checked sums) are what stands
// between the input and the merge. The property: any bytes give a partial or a PartialError,
// a partial that passes the checks merges and reports without trapping, merging it twice is
// refused, and it reads back after writing. A trap, a sanitizer report, a timeout or running
// out of memory is a bug; libFuzzer saves the input under Fuzz/artifacts/.
import Experiments
import Foundation
import Reports
import Simulation

@_cdecl("LLVMFuzzerTestOneInput")
public func partialFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = size > 0 && data != nil ? Data(bytes: data!, count: size) : Data()
  guard let file = try? PartialFile.decode(bytes, path: "fuzz.json") else { return 0 }
  switch file {
  case .run(let partial):
    exercise(partial) { whole in
      let scenario = try whole.scenario(file: "fuzz.json")
      let result = RunResult(policies: scenario.policies, tallies: whole.tallies)
      for file in RunReport(scenario: scenario, result: result, baseline: scenario.baseline).files {
        _ = file.table.text
      }
    }
  case .sweep(let partial):
    exercise(partial) { whole in
      let (_, outcome) = try whole.outcome()
      _ = outcome.sweep.text + outcome.pareto.text
    }
  }
  return 0
}

/// Checks `partial` as written and re-signed, then merges and reports the re-signed one.
func exercise<Partial: MergeablePartial>(
  _ partial: Partial, report: (Partial) throws -> Void
) {
  _ = try? partial.check(path: "fuzz.json")
  var signed = partial
  guard let digest = try? PartialFile.contentDigest(partial) else { return }
  signed.contentSHA256 = digest
  guard (try? signed.check(path: "fuzz.json")) != nil else { return }
  // Written and read back, it passes the same checks.
  do {
    let text = try signed.encoded()
    let again = try JSONDecoder().decode(Partial.self, from: Data(text.utf8))
    try again.check(path: "again.json")
  } catch {
    preconditionFailure("a checked partial does not read back after writing: \(error)")
  }
  var merger = PartialMerger<Partial>()
  do {
    try merger.add(signed, path: "a.json")
  } catch {
    preconditionFailure("the first partial of a merge was refused: \(error.message)")
  }
  if (try? merger.add(signed, path: "b.json")) != nil {
    preconditionFailure("the same shards were merged twice")
  }
  guard let whole = try? merger.result(complete: true) else { return }
  _ = try? report(whole)
}
