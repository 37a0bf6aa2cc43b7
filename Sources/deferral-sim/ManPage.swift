/// `deferral-sim help --man`: the man page (roff, `man(7)` macros), generated from the
/// command table as `--help` is.
enum ManPage {
  /// Text made safe for roff: backslashes doubled, a leading `.` or `'` escaped, dashes as
  /// `\-` so they copy as ASCII hyphen-minus.
  static func escape(_ text: String) -> String {
    var result = text.replacingOccurrences(of: "\\", with: "\\e")
      .replacingOccurrences(of: "-", with: "\\-")
    if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
    return result
  }

  static func page(version: String) -> String {
    var lines = [
      ".TH DEFERRAL-SIM 1 \"\" \"deferral-sim \(version)\" \"User Commands\"",
      ".SH NAME",
      "deferral\\-sim \\- compare App Store system\\-message deferral policies on synthetic users",
      ".SH SYNOPSIS",
      ".B deferral\\-sim",
      ".I command",
      "[\\fIoptions\\fR]",
      ".SH DESCRIPTION",
      "A Monte Carlo discrete\\-event simulator: it generates synthetic users from a scenario",
      "file, runs every deferral policy on the same users (common random numbers), and reports",
      "onboarding interruptions, consent latency and deadline misses, fallbacks fired and more,",
      "with 95% intervals, as CSV files, a table and an HTML report.",
      ".SH COMMANDS",
    ]
    for command in Commands.all {
      let spec = command.spec
      lines.append(".SS \"\(spec.name) \(escape(spec.positionalUsage))\"")
      lines.append(escape(spec.abstract))
      for option in spec.options {
        lines.append(".TP")
        var name = "\\fB\\-\\-\(escape(option.name))\\fR"
        if let short = option.short { name = "\\fB\\-\(short)\\fR, " + name }
        if let value = option.valueName { name += " \\fI\(escape(value))\\fR" }
        lines.append(name)
        lines.append(escape(option.help))
      }
      if !spec.discussion.isEmpty {
        lines.append(".PP")
        for line in spec.discussion.split(separator: "\n", omittingEmptySubsequences: false) {
          lines.append(line.isEmpty ? ".PP" : escape(String(line)))
          if line.hasPrefix("  ") { lines.append(".br") }
        }
      }
    }
    lines += [
      ".SH EXIT STATUS",
      ".TP", "0", "success",
      ".TP", "1",
      "a failure while running: an unwritable output folder, a folder in use or holding other",
      "files, a full disk, a scenario whose users loop past the event budget",
      ".TP", "2", "bad usage or bad input, found before any work starts",
      ".TP", "128+N", "stopped by signal N; the output folder keeps its previous files",
      ".SH FILES",
      ".TP", "results/NAME/",
      "a run's output folder: summary.csv, paired.csv, by\\-screen.csv, by\\-reason.csv,",
      "replications.csv, manifest.json, report.html (results/README.md documents every column)",
      ".TP", "scenarios/",
      "the bundled scenarios, their JSON Schema and scenarios/README.md (the format, key by key)",
      ".SH EXAMPLES",
      ".nf",
      "deferral\\-sim run \\-u 4000 \\-r 4",
      "deferral\\-sim run scenarios/mobile\\-game.json \\-\\-policies storekit\\-auto,deadline\\-aware",
      "deferral\\-sim trace \\-\\-find interrupted \\-\\-policy storekit\\-auto",
      "deferral\\-sim sweep scenarios/sweeps/consent\\-ceiling.json",
      "deferral\\-sim robust scenarios/uncertainty/indie\\-subscription.json",
      "source <(deferral\\-sim completions bash)",
      ".fi",
      ".SH SEE ALSO",
      "The README and scenarios/README.md in the source distribution.",
    ]
    return lines.joined(separator: "\n")
  }
}
