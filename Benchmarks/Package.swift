// swift-tools-version:6.0
// deferral-bench, in a package of its own so that building or testing deferral-sim never
// compiles it: `swift build -c release --package-path Benchmarks` (Benchmarks/README.md).
// It links the root package's products `DeferralSimEngine`, `CGSL`, `MessageDeferral`,
// `MessageDeferralStoreKit` and `StoreKitShim`. SwiftPM names a local dependency by its
// folder, which is the clone's own name (`deferral-sim`, `main`, ...), so the manifest reads
// it from its own path.
import Foundation
import PackageDescription

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
  name: "deferral-bench",
  dependencies: [.package(path: "..")],
  targets: [
    .executableTarget(
      name: "deferral-bench",
      dependencies: [
        "DeferralSimEngine", "MessageDeferral", "CGSL", "MessageDeferralStoreKit", "StoreKitShim",
      ].map {
        .product(name: $0, package: root)
      },
      path: "deferral-bench"
    )
  ]
)
