import MessageDeferral

#if canImport(Foundation)
  import Foundation
#endif

/// The policy a controller runs, as loaded from the file `deferral-sim export-policy` wrote
/// (``PolicyFile``), or StoreKit's default with the reason the file could not be used.
///
/// Never fails: a missing, unreadable or unknown file gives ``storeKitDefault(because:)``,
/// under which the controller starts no listener, so StoreKit shows every message itself as
/// soon as it can (nothing is hidden), and ``fallbackReason`` says why.
public struct ShippedPolicy: Sendable, Equatable {
  /// The policy's name (the file's `name`), or `storekit-default`.
  public var name: String
  /// What the coordinator runs; `nil`: StoreKit's own presentation (no listener).
  public var configuration: PolicyConfiguration?
  /// The file's provenance, when one was read.
  public var provenance: PolicyFile.Provenance?
  /// Why the file was not used (file, JSON path, what and how to fix); `nil` when it was.
  public var fallbackReason: String?

  /// A policy to run as given (tests, previews; an app loads a file).
  public init(name: String, configuration: PolicyConfiguration) {
    self.name = name
    self.configuration = configuration
  }

  /// StoreKit's default presentation, with the reason.
  public static func storeKitDefault(because reason: String) -> ShippedPolicy {
    var policy = ShippedPolicy(
      name: "storekit-default", configuration: PolicyCatalog.Preset.storeKitAuto.configuration)
    policy.configuration = nil
    policy.fallbackReason = reason
    return policy
  }

  /// Reads a policy file's text; `file` names it in messages.
  public static func decode(jsonText: String, file: String) -> ShippedPolicy {
    let value: ConfigValue
    do {
      value = try _PolicyJSON.parse(jsonText)
    } catch {
      return .storeKitDefault(
        because: "\(file):\(error.line):\(error.column): not JSON: \(error.message); "
          + "export it again with 'deferral-sim export-policy NAME -o \(file)'")
    }
    switch PolicyFile.read(value) {
    case .success(let document):
      var policy = ShippedPolicy(
        name: document.policy.name, configuration: document.policy.configuration)
      policy.provenance = document.provenance
      return policy
    case .failure(let issues):
      return .storeKitDefault(
        because: issues.issues.map { "\(file): \($0.path): \($0.message)" }.joined(
          separator: "\n"))
    }
  }

  #if canImport(Foundation)
    /// Reads the policy file at `path` (for example `Bundle.main.path(forResource:
    /// "recommended-policy", ofType: "json")`); `nil` or a missing file gives StoreKit's
    /// default with the reason.
    public static func load(path: String?) -> ShippedPolicy {
      guard let path else {
        return .storeKitDefault(
          because: "no policy file in the app bundle; add the file 'deferral-sim export-policy' "
            + "wrote to the app target")
      }
      guard let data = FileManager.default.contents(atPath: path) else {
        return .storeKitDefault(
          because: "\(path): cannot be read; check that it is in the app bundle")
      }
      return decode(jsonText: String(decoding: data, as: UTF8.self), file: path)
    }
  #endif
}
