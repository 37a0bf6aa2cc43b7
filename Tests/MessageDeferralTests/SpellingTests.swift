import MessageDeferral
import Testing

@Suite("Spelling suggestions")
struct SpellingTests {
  @Test(arguments: [
    ("", "abc", 3), ("kitten", "sitting", 3), ("flaw", "lawn", 2), ("same", "same", 0),
  ])
  func editDistanceMatchesKnownValues(a: String, b: String, distance: Int) {
    #expect(Spelling.editDistance(a, b) == distance)
    #expect(Spelling.editDistance(b, a) == distance)
  }

  @Test func suggestsTheClosePlausibleName() {
    let names = ["storekit-auto", "screen-gate", "screen-gate-ceiling", "never"]
    #expect(Spelling.closest(to: "screen-gat", in: names) == "screen-gate")
    #expect(Spelling.closest(to: "nevr", in: names) == "never")
    #expect(Spelling.closest(to: "zzzzzzzzzz", in: names) == nil)
  }
}
