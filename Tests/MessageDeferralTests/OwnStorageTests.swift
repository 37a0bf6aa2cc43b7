import MessageDeferral
import Testing

/// ``PolicyConfiguration/withOwnStorage()``: what every worker of a run copies its policies
/// with, so that no reference count is written by two threads.
@Suite("Configurations with storage of their own")
struct OwnStorageTests {
  /// The base address of an array's storage (`nil` when it has none).
  static func address<Element>(_ array: [Element]) -> UnsafeRawPointer? {
    array.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
  }

  @Test(arguments: PolicyCatalog.presets.map(\.name))
  func aCopyEqualsItsPresetAndSharesNoArray(_ name: String) throws {
    let preset = try #require(PolicyCatalog.presets.first { $0.name == name }).configuration
    let copy = preset.withOwnStorage()
    #expect(copy == preset)
    if !preset.gate.isEmpty { #expect(Self.address(copy.gate) != Self.address(preset.gate)) }
    if !preset.checkpoints.isEmpty {
      #expect(Self.address(copy.checkpoints) != Self.address(preset.checkpoints))
    }
    if !preset.gateOverrides.isEmpty {
      #expect(Self.address(copy.gateOverrides) != Self.address(preset.gateOverrides))
    }
    if let costs = preset.urgentConsent?.value?.costs, !costs.isEmpty {
      #expect(Self.address(copy.urgentConsent!.value!.costs) != Self.address(costs))
    }
  }

  /// Every preset with collections has one at least (else the test above checks nothing).
  @Test func thePresetsHaveArraysToCopy() {
    #expect(PolicyCatalog.presets.contains { !$0.configuration.gate.isEmpty })
    #expect(PolicyCatalog.presets.contains { !$0.configuration.checkpoints.isEmpty })
  }
}
