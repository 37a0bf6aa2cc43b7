// libFuzzer entry point: scenario files through decode and validate (CONTRIBUTING.md,
// "Fuzzing"). Built only by scripts/fuzz.sh, with -sanitize=fuzzer,address; it is not a
// SwiftPM target, so `swift build` and `swift test` never see it.
//
// The property checked is the loader's guarantee: any bytes, well-formed or not, give a
// Scenario or a ScenarioErrors value, and a Scenario it returns satisfies the invariants the
// engine relies on (compiling it, as `deferral-sim run` does first, must not trap). A trap, a
// sanitizer report, a timeout or running out of memory is a bug; libFuzzer saves the input
// under Fuzz/artifacts/.
import MessageDeferral
import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// With `SCENARIO_FUZZER_PRESET_DICT` set, prints the dictionary's preset lines, one per preset
/// of the catalog (`value_preset_deadline_aware="\"deadline-aware\""`), and exits:
/// `scripts/fuzz.sh` appends them to `Fuzz/scenario.dict`, so the dictionary never lags the
/// catalog.
@_cdecl("LLVMFuzzerInitialize")
public func scenarioFuzzerInitialize(
  _ argc: UnsafeMutablePointer<Int32>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
  guard getenv("SCENARIO_FUZZER_PRESET_DICT") != nil else { return 0 }
  for name in PolicyCatalog.presetNames {
    let key = String(name.map { $0 == "-" ? "_" : $0 })
    print("value_preset_\(key)=\"\\\"\(name)\\\"\"")
  }
  exit(0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func scenarioFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  do {
    let scenario = try ScenarioLoader.load(json: bytes, file: "fuzz.json")
    // A valid scenario must satisfy what the engine relies on: its samplers and alias tables
    // build (their preconditions are the invariants), and the baseline is a compared policy.
    _ = CompiledScenario(scenario)
    precondition(!scenario.policies.isEmpty, "a loaded scenario has no policies")
    precondition(
      scenario.policies.contains { $0.name == scenario.baseline },
      "the baseline is not one of the policies")
  } catch {
    // A user error is the expected outcome for most inputs; its text must render.
    precondition(!error.problems.isEmpty, "ScenarioErrors without a problem")
    _ = error.description
  }
  return 0
}
