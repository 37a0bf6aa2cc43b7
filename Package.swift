// swift-tools-version:6.0
// deferral-sim: a Monte Carlo simulator of App Store system-message deferral policies.
// Layout and dependency direction: ../shared/DESIGN.md §1 and CONTRIBUTING.md.
//   deferral-sim -> Reports -> Simulation -> MessageDeferral ; Simulation -> CGSL
import PackageDescription

let package = Package(
  name: "deferral-sim",
  products: [
    .executable(name: "deferral-sim", targets: ["deferral-sim"]),
    .executable(name: "deferral-bench", targets: ["deferral-bench"]),
    .library(name: "MessageDeferral", targets: ["MessageDeferral"]),
  ],
  targets: [
    .systemLibrary(
      name: "CGSL",
      pkgConfig: "gsl",
      providers: [.apt(["libgsl-dev"])]
    ),
    .target(name: "MessageDeferral"),
    .target(name: "Simulation", dependencies: ["MessageDeferral", "CGSL"]),
    .target(name: "Reports", dependencies: ["Simulation", "CGSL"]),
    .executableTarget(name: "deferral-sim", dependencies: ["Reports"]),
    .executableTarget(
      name: "deferral-bench",
      dependencies: ["Reports", "Simulation", "MessageDeferral", "CGSL"],
      path: "Benchmarks/deferral-bench"
    ),
    .testTarget(name: "MessageDeferralTests", dependencies: ["MessageDeferral"]),
    .testTarget(name: "SimulationTests", dependencies: ["Simulation", "CGSL"]),
    .testTarget(name: "ReportsTests", dependencies: ["Reports", "CGSL"]),
    .testTarget(name: "DeferralSimTests", dependencies: ["deferral-sim"]),
  ]
)
