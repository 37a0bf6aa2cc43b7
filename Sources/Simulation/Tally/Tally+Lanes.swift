extension Tally {
  /// The report name of a reason lane (``Engine/laneName(_:)``), for the layers that format a
  /// tally without running the engine.
  public static func laneName(_ lane: Int) -> String { Engine.laneName(lane) }
}
