import Testing

@testable import MessageDeferral

/// The digest that brings unasked coordinators up to date (``PolicyEventDigest``): its inline
/// table of each screen kind's last appearance (``_KindMarks``).
@Suite("Policy event digest")
struct PolicyEventDigestTests {
  /// One mark per screen kind: a new kind needs a wider table, and this fails first.
  @Test func theMarksHaveOnePlacePerScreenKind() {
    #expect(_KindMarks().indices == 0..<ScreenKind.allCases.count)
  }

  /// Each kind's place holds its own number, apart from every other kind's.
  @Test func eachKindKeepsItsOwnMark() {
    var marks = _KindMarks()
    for index in marks.indices { marks[index] = UInt64(100 + index) }
    marks[3] = 7
    for index in marks.indices { #expect(marks[index] == (index == 3 ? 7 : UInt64(100 + index))) }
  }

  /// A screen's appearance is numbered in its kind's place; a launch keeps the marks (the gate
  /// rule reads only appearances after the last launch) and a reset forgets them.
  @Test func appearancesAreNumberedByKind() {
    var digest = PolicyEventDigest()
    digest.record(.screenAppeared(.home))
    digest.record(.sceneActivated)
    digest.record(.screenAppeared(.content))
    digest.record(.screenAppeared(.home))
    digest.record(.processLaunched)
    for kind in ScreenKind.allCases {
      let expected: UInt64 =
        switch kind {
        case .home: 4
        case .content: 3
        default: 0
        }
      #expect(digest.lastAppearance[kind.index] == expected, "\(kind)")
    }
    #expect(digest.lastReset == 5)
    digest.reset()
    for index in digest.lastAppearance.indices { #expect(digest.lastAppearance[index] == 0) }
  }
}
