/// Suggestions for misspelled names: unknown JSON keys, policy names, command-line options.
///
/// Used wherever a user error should say "did you mean ...?". Pure and allocation-light;
/// meant for short identifiers, not for long texts.
public enum Spelling {
  /// The Levenshtein edit distance between two strings, counted in Unicode scalars.
  ///
  /// - Complexity: O(*m* × *n*) time and O(*n*) memory.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let left = Array(a.unicodeScalars)
    let right = Array(b.unicodeScalars)
    if left.isEmpty { return right.count }
    if right.isEmpty { return left.count }
    var previous = Array(0...right.count)
    var current = [Int](repeating: 0, count: right.count + 1)
    for i in 1...left.count {
      current[0] = i
      for j in 1...right.count {
        let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[right.count]
  }

  /// The candidate closest to `name`, when it is close enough to be a plausible typo.
  ///
  /// "Close enough" is an edit distance of at most a third of the longer name (at least 2),
  /// or one name containing the other ignoring case. Ties go to the earlier candidate, so
  /// the answer is deterministic.
  public static func closest<S: Sequence>(to name: String, in candidates: S) -> String?
  where S.Element == String {
    var best: (name: String, distance: Int)?
    let lowered = name.lowercased()
    for candidate in candidates {
      let distance = editDistance(lowered, candidate.lowercased())
      let limit = max(2, max(name.count, candidate.count) / 3)
      let contains =
        !lowered.isEmpty
        && (candidate.lowercased().contains(lowered) || lowered.contains(candidate.lowercased()))
      guard distance <= limit || contains else { continue }
      if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    return best?.name
  }
}
