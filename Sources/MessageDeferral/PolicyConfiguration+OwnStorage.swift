extension PolicyConfiguration {
  /// A copy whose collections have storage of their own, shared with no other value. Workers
  /// of a run each take one: a coordinator copied at every fork retains the configuration's
  /// collections, and a reference count written by two threads bounces its cache line between
  /// their cores (slowing every read near it).
  public func withOwnStorage() -> PolicyConfiguration {
    var copy = self
    copy.gate = gate.map { $0 }
    copy.gateOverrides = gateOverrides.map { $0 }
    copy.checkpoints = checkpoints.map { checkpoint in
      var own = checkpoint
      own.reasons = checkpoint.reasons.map { Set($0.map { $0 }) }
      return own
    }
    copy.reasonFilter = reasonFilter.map { Set($0.map { $0 }) }
    copy.ceilings = Dictionary(uniqueKeysWithValues: ceilings.map { ($0.key, $0.value) })
    copy.urgentConsent = urgentConsent.map { rule in
      var own = rule
      own.spares = Set(rule.spares.map { $0 })
      own.value = rule.value.map { value in
        var ownValue = value
        ownValue.costs = value.costs.map { $0 }
        return ownValue
      }
      return own
    }
    return copy
  }
}
