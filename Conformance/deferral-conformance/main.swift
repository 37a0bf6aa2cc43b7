// deferral-conformance: simulated lives of every preset (and a custom policy with every knob
// set) replayed through the shipped MessageDeferralController on the StoreKit shim; every
// display decision and its time must match the engine's. Exit 1 on any mismatch.
//
//   swift build -c release --product deferral-conformance
//   .build/release/deferral-conformance [--lives N] [--policy NAME] [--fault RULE]
//
// --fault breaks one adapter rule of the replay on purpose (listener-at-launch,
// scene-active-at-open), to show that the check fails.
import MessageDeferral

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

var lives = 10_000
var only: String?
var fault = ReplayFault.none
var arguments = CommandLine.arguments.dropFirst()
func usage(_ problem: String) -> Never {
  print("deferral-conformance: \(problem)")
  print("usage: deferral-conformance [--lives N] [--policy NAME] [--fault RULE]")
  exit(2)
}
while let argument = arguments.popFirst() {
  switch argument {
  case "--lives":
    guard let text = arguments.popFirst(), let count = Int(text), count > 0 else {
      usage("--lives needs a positive whole number, such as --lives 10000")
    }
    lives = count
  case "--policy":
    guard let name = arguments.popFirst(), Conformance.policies.contains(where: { $0.name == name })
    else {
      usage("--policy needs one of " + Conformance.policies.map(\.name).joined(separator: ", "))
    }
    only = name
  case "--fault":
    guard let name = arguments.popFirst(), let rule = ReplayFault(rawValue: name) else {
      usage("--fault needs one of " + ReplayFault.allCases.map(\.rawValue).joined(separator: ", "))
    }
    fault = rule
  default:
    usage("unknown argument '\(argument)'")
  }
}

var failed = false
for policy in Conformance.policies where only == nil || policy.name == only {
  let summary = await Conformance.check(policy, lives: lives, fault: fault)
  print(summary.line)
  if summary.mismatches > 0 { failed = true }
}
print(failed ? "conformance: MISMATCHES" : "conformance: all match")
exit(failed ? 1 : 0)
