// swift-tools-version:6.0
// deferral-sim: a Monte Carlo simulator of App Store system-message deferral policies.
// Layout and dependency direction: CONTRIBUTING.md ("Layout and dependencies").
//   deferral-sim -> Experiments -> Reports -> Simulation -> MessageDeferral ; Simulation -> CGSL
//   (Experiments plans and runs: it alone of the libraries calls the engine's Engine.run)
import PackageDescription

let package = Package(
  name: "deferral-sim",
  products: [
    .executable(name: "deferral-sim", targets: ["deferral-sim"]),
    .library(name: "MessageDeferral", targets: ["MessageDeferral"]),
    // The engine's libraries as one product, for the benchmarks' own package
    // (Benchmarks/Package.swift), so that `swift build` here never compiles deferral-bench.
    .library(name: "DeferralSimEngine", targets: ["Experiments", "Reports", "Simulation"]),
    .library(name: "CGSL", targets: ["CGSL"]),
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
      name: "Reports", dependencies: ["Simulation", "MessageDeferral", "CGSL"],
      exclude: ["README.md"]),
    .target(
      name: "Experiments", dependencies: ["Reports", "Simulation", "MessageDeferral", "CGSL"],
      exclude: ["README.md"]),
    .executableTarget(
      name: "deferral-sim",
      dependencies: ["Experiments", "Reports", "Simulation", "MessageDeferral"],
      exclude: ["README.md"]),
    .testTarget(name: "MessageDeferralTests", dependencies: ["MessageDeferral"]),
    .testTarget(name: "SimulationTests", dependencies: ["Simulation", "CGSL"]),
    // ReportsTests renders sweep pages from outcomes that Experiments computes.
    .testTarget(
      name: "ReportsTests", dependencies: ["Reports", "Experiments", "Simulation", "CGSL"]),
    .testTarget(
      name: "ExperimentsTests", dependencies: ["Experiments", "Reports", "Simulation", "CGSL"]),
    .testTarget(name: "DeferralSimTests", dependencies: ["deferral-sim"]),
  ]
)
