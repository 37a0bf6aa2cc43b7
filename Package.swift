// swift-tools-version:6.0
// deferral-sim: a Monte Carlo simulator of App Store system-message deferral policies.
// Layout and dependency direction: CONTRIBUTING.md ("Layout and dependencies").
//   deferral-sim -> Experiments -> Reports -> Fitting -> Simulation -> MessageDeferral ;
//   Simulation, Fitting -> CGSL
//   (Experiments plans and runs: it alone of the libraries calls the engine's Engine.run, the
//   fit's predictive check and the --precision search included; Fitting builds a scenario
//   from logs and says what its check simulates, never running it; LayeringTests checks)
import PackageDescription

let package = Package(
  name: "deferral-sim",
  // The platforms of MessageDeferralStoreKit, the library an app links (StoreKit's `Message`
  // API exists on iOS 16, Mac Catalyst 16 and visionOS 1, not on macOS). Linux builds the
  // simulator and compiles the library against StoreKitShim.
  platforms: [.iOS(.v16), .macCatalyst(.v16), .visionOS(.v1)],
  products: [
    .executable(name: "deferral-sim", targets: ["deferral-sim"]),
    .library(name: "MessageDeferral", targets: ["MessageDeferral"]),
    .library(name: "MessageDeferralStoreKit", targets: ["MessageDeferralStoreKit"]),
    // For the benchmarks' own package (Benchmarks/Package.swift), so that `swift build` here
    // never compiles deferral-bench: the engine's libraries, GSL and the StoreKit shim.
    .library(
      name: "DeferralSimEngine", targets: ["Experiments", "Reports", "Fitting", "Simulation"]),
    .library(name: "CGSL", targets: ["CGSL"]),
    .library(name: "StoreKitShim", targets: ["StoreKitShim"]),
    // Loaded with LD_PRELOAD by AllocationCountTests (Linux): counts a run's heap allocations.
    .library(name: "AllocationCounter", type: .dynamic, targets: ["AllocationCounter"]),
  ],
  targets: [
    .systemLibrary(
      name: "CGSL",
      pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"])]
    ),
    // Each module's README.md (what it owns, never imports, where to change what) is not a
    // source: excluded so SwiftPM does not warn about an unhandled file.
    .target(name: "MessageDeferral", exclude: ["README.md"]),
    .target(
      name: "Simulation", dependencies: ["MessageDeferral", "CGSL"], exclude: ["README.md"]),
    .target(
      name: "Fitting", dependencies: ["Simulation", "MessageDeferral", "CGSL"],
      exclude: ["README.md"]),
    .target(
      name: "Reports", dependencies: ["Fitting", "Simulation", "MessageDeferral", "CGSL"],
      exclude: ["README.md"]),
    .target(
      name: "Experiments",
      dependencies: ["Reports", "Fitting", "Simulation", "MessageDeferral", "CGSL"],
      exclude: ["README.md"]),
    // Apple's StoreKit/UIKit declarations the controller uses, for platforms without them
    // (empty where StoreKit's Message API exists): lets Linux compile and test the library.
    .target(name: "StoreKitShim", exclude: ["README.md"]),
    // What an app links: the controller feeding StoreKit's messages to the same Coordinator.
    .target(
      name: "MessageDeferralStoreKit", dependencies: ["MessageDeferral", "StoreKitShim"],
      exclude: ["README.md"]),
    .executableTarget(
      name: "deferral-sim",
      dependencies: ["Experiments", "Reports", "Fitting", "Simulation", "MessageDeferral"],
      exclude: ["README.md"]),
    // What the test targets share: the seeded generator, the runners of the built binary and
    // of scripts (a library target, not a test target, so test targets can depend on it).
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
    .testTarget(name: "MessageDeferralTests", dependencies: ["MessageDeferral", "TestSupport"]),
    .testTarget(name: "SimulationTests", dependencies: ["Simulation", "CGSL", "TestSupport"]),
    .testTarget(
      name: "FittingTests",
      dependencies: ["Fitting", "Simulation", "MessageDeferral", "TestSupport"]),
    // ReportsTests renders sweep pages from outcomes that Experiments computes.
    .testTarget(
      name: "ReportsTests",
      dependencies: ["Reports", "Experiments", "Fitting", "Simulation", "CGSL", "TestSupport"]),
    .testTarget(
      name: "ExperimentsTests",
      dependencies: ["Experiments", "Reports", "Simulation", "CGSL", "TestSupport"]),
    .testTarget(
      name: "DeferralSimTests",
      dependencies: ["deferral-sim", "TestSupport", "MessageDeferral", "Reports"]),
    // Simulated lives replayed through the shipped controller (release-built in CI).
    .executableTarget(
      name: "deferral-conformance",
      dependencies: ["MessageDeferralStoreKit", "StoreKitShim", "MessageDeferral", "Simulation"],
      path: "Conformance/deferral-conformance"),
    .testTarget(
      name: "MessageDeferralStoreKitTests",
      dependencies: [
        "MessageDeferralStoreKit", "StoreKitShim", "MessageDeferral", "deferral-conformance",
      ]),
    .executableTarget(
      name: "ship-it-example", dependencies: ["MessageDeferralStoreKit", "StoreKitShim"],
      path: "Examples/ship-it", exclude: ["recommended-policy.json", "fit-map.json"]),
  ]
)
