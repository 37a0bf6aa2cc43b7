import Foundation
import MessageDeferral
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #35's findings, each a test of the built binary: never delete what the tool did not
/// write, never replace what is not a regular file or folder, bounded readers, a clean terminal,
/// one exit code per kind of refusal.
@Suite("hardening, second pass, end to end")
struct HardeningSecondPassTests {
  static let samples = RunEndToEndTests.root.appendingPathComponent("scenarios/fit-samples")
  static var log: String { samples.appendingPathComponent("generic.csv").path }
  static var map: String { samples.appendingPathComponent("generic-map.json").path }

  static func run(_ out: String, extra: [String] = []) throws -> ToolRunner.Result {
    try ToolRunner.run(
      ["run", "--users", "40", "--replications", "2", "--out", out, "--quiet", "--no-report"]
        + extra)
  }

  static func write(_ text: String, _ url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  // MARK: Class 1: a folder is the tool's only with its marker

  /// Files with output names, a folder named like an output file, a hidden `.tmp-` file: none
  /// was written by deferral-sim (no marker lists it), so the run refuses the folder (exit 1)
  /// and every one of them is still there.
  @Test(arguments: [
    ["summary.csv", "report.html"], ["report.html/notes.txt"], [".notes.tmp-12"],
    ["partial-notes.json"],
  ])
  func aFolderWithoutTheMarkerIsNeverReplaced(files: [String]) throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("mine")
    for file in files { try Self.write("mine", out.appendingPathComponent(file)) }
    let result = try Self.run(out.path)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("did not write"), "\(result.stderr)")
    for file in files {
      #expect(
        try String(contentsOf: out.appendingPathComponent(file), encoding: .utf8) == "mine",
        "\(file) is kept")
    }
  }

  /// A marker edited to list a user's file, or a folder at a listed name, does not give it away.
  @Test func aMarkerDoesNotGiveAwayAFolderOrAForeignName() throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("run")
    #expect(try Self.run(out.path).status == 0)
    let marker = out.appendingPathComponent(".deferral-sim-output")
    var listed = try String(contentsOf: marker, encoding: .utf8)
    listed += "thesis.docx\nreport.html\n"
    try Data(listed.utf8).write(to: marker)
    try Self.write("mine", out.appendingPathComponent("thesis.docx"))
    try Self.write("mine", out.appendingPathComponent("report.html/chapter.txt"))
    let result = try Self.run(out.path)
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("'report.html' (a folder)"), "\(result.stderr)")
    #expect(result.stderr.contains("'thesis.docx'"), "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("thesis.docx").path))
  }

  /// The tool's own folder is replaced as before, and a sweep's, a merge's and a study's too.
  @Test func theToolsOwnFolderIsStillReplaced() throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("run")
    #expect(try Self.run(out.path).status == 0)
    let again = try Self.run(out.path, extra: ["--messages-log"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("messages.csv").path))
  }

  // MARK: Class 2: a regular file or nothing

  /// `run`, `merge` and `sweep` never replace a symbolic link with a folder.
  @Test func aSymlinkedOutputFolderIsRefused() throws {
    let base = RunEndToEndTests.temporaryFolder()
    let target = base.appendingPathComponent("target")
    try Self.write("old", target.appendingPathComponent("keep.txt"))
    let link = base.appendingPathComponent("link")
    #expect(symlink(target.path, link.path) == 0)
    let dangling = base.appendingPathComponent("dangling")
    #expect(symlink(base.appendingPathComponent("nowhere").path, dangling.path) == 0)
    for out in [link, dangling] {
      let result = try Self.run(out.path)
      #expect(result.status == 2, "\(result.stderr)")
      #expect(result.stderr.contains("is a symbolic link"), "\(result.stderr)")
      var info = stat()
      #expect(lstat(out.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    }
    #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("nowhere").path))
  }

  /// `fit --out` and `merge --partial-out`: one rule, exit 2, nothing replaced.
  @Test func fileOutputsAreRegularFilesOrNothing() throws {
    let base = RunEndToEndTests.temporaryFolder()
    let victim = base.appendingPathComponent("victim.txt")
    try Self.write("precious", victim)
    let link = base.appendingPathComponent("link.json")
    #expect(symlink(victim.path, link.path) == 0)
    let fifo = base.appendingPathComponent("fifo.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let shards = base.appendingPathComponent("shards")
    for shard in 0..<2 {
      let result = try Self.run(shards.path, extra: ["--shard", "\(shard)/2"])
      #expect(result.status == 0, "\(result.stderr)")
    }
    let partial = shards.appendingPathComponent("partial-0-of-2.json").path
    let before = try Data(contentsOf: URL(fileURLWithPath: partial))
    var cases: [(String, String)] = [
      ("", "needs a file name"), (link.path, "is a symbolic link"),
      (fifo.path, "not a regular file"), (base.path + "/dir/", "names a folder"),
      (base.path, "a folder"),
    ]
    // A device node of our own (never the system's /dev/null: a binary with this bug, run as
    // root, would replace it). Making one needs root; elsewhere the FIFO stands for it.
    let device = base.appendingPathComponent("null-device")
    #if canImport(Glibc)
      if mknod(device.path, S_IFCHR | 0o666, dev_t(259)) == 0 {
        cases.append((device.path, "not a regular file"))
      }
    #endif
    for (path, message) in cases {
      let fit = try ToolRunner.run(["fit", Self.log, "--map", Self.map, "--out", path])
      #expect(fit.status == 2, "fit --out '\(path)': \(fit.stderr)")
      #expect(fit.stderr.contains(message), "fit --out '\(path)': \(fit.stderr)")
      let merge = try ToolRunner.run(["merge", partial, "--partial-out", path])
      #expect(merge.status == 2, "merge --partial-out '\(path)': \(merge.stderr)")
      #expect(merge.stderr.contains(message), "merge --partial-out '\(path)': \(merge.stderr)")
    }
    #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
    var info = stat()
    if lstat(device.path, &info) == 0 {
      #expect((info.st_mode & S_IFMT) == S_IFCHR, "the device node is still one")
    }
    #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("dir").path))
    // Never an input overwritten.
    let own = try ToolRunner.run(["merge", partial, "--partial-out", partial])
    #expect(own.status == 2, "\(own.stderr)")
    #expect(own.stderr.contains("is one of this command's inputs"), "\(own.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: partial)) == before)
    let copy = base.appendingPathComponent("log.csv")
    try FileManager.default.copyItem(atPath: Self.log, toPath: copy.path)
    let fit = try ToolRunner.run(["fit", copy.path, "--map", Self.map, "--out", copy.path])
    #expect(fit.status == 2, "\(fit.stderr)")
    #expect(
      try String(contentsOf: copy, encoding: .utf8)
        == String(contentsOfFile: Self.log, encoding: .utf8))
  }

  /// A one-character path (Foundation's `deletingLastPathComponent` traps on it) works.
  @Test func aOneCharacterOutputNameIsAccepted() throws {
    let base = RunEndToEndTests.temporaryFolder()
    let fit = try ToolRunner.run(
      ["fit", Self.log, "--map", Self.map, "--out", "s", "--no-report"], in: base)
    #expect(fit.status == 0, "\(fit.stderr)")
    #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent("s").path))
  }

  // MARK: Class 7: fit's two files as one unit

  @Test func fitWithoutTheReportRemovesAnEarlierFitsReport() throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("fit/scenario.json")
    let first = try ToolRunner.run(["fit", Self.log, "--map", Self.map, "--out", out.path])
    #expect(first.status == 0, "\(first.stderr)")
    let report = out.deletingLastPathComponent().appendingPathComponent("fit-report.html")
    #expect(FileManager.default.fileExists(atPath: report.path))
    let second = try ToolRunner.run(
      ["fit", Self.log, "--map", Self.map, "--out", out.path, "--no-report"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(!FileManager.default.fileExists(atPath: report.path), "no report of another fit")
    // A user's own file of that name is not the tool's: it stays.
    try Self.write("mine", report)
    #expect(
      try ToolRunner.run(["fit", Self.log, "--map", Self.map, "--out", out.path, "--no-report"])
        .status == 0)
    #expect(try String(contentsOf: report, encoding: .utf8) == "mine")
  }

  // MARK: Class 4: every reader bounded

  @Test func endlessOrOversizedInputsGetAClearRefusal() throws {
    let base = RunEndToEndTests.temporaryFolder()
    let zero = try ToolRunner.run(["fit", "/dev/zero", "--map", Self.map, "--out", "x.json"])
    #expect(zero.status == 2, "\(zero.stderr)")
    #expect(zero.stderr.contains("not a regular file"), "\(zero.stderr)")
    let folder = try ToolRunner.run(["fit", base.path, "--map", Self.map, "--out", "x.json"])
    #expect(folder.status == 2)
    #expect(folder.stderr.contains("is a folder, not a log"), "\(folder.stderr)")
    // A line without a break, longer than any log line: refused, and not echoed whole.
    let long = base.appendingPathComponent("long.csv")
    try Self.write(String(repeating: "x", count: 3 << 20), long)
    let lined = try ToolRunner.run(["fit", long.path, "--map", Self.map, "--out", "x.json"])
    #expect(lined.status == 2, "\(lined.stderr.prefix(300))")
    #expect(lined.stderr.contains("longer than 1 MiB"), "\(lined.stderr.prefix(300))")
    #expect(lined.stderr.utf8.count < 10_000)
    // A partial of 300 MB (sparse: nothing to read) is refused by its size, before reading.
    let big = base.appendingPathComponent("partial-0-of-1.json")
    #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
    #expect(truncate(big.path, 300 << 20) == 0)
    let merge = try ToolRunner.run([
      "merge", big.path, "--out", base.appendingPathComponent("m").path,
    ])
    #expect(merge.status == 2, "\(merge.stderr)")
    #expect(merge.stderr.contains("at most 268435456 bytes"), "\(merge.stderr)")
    // A FIFO given as a partial is named as one, not "permission denied?".
    let fifo = base.appendingPathComponent("partial-0-of-2.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let piped = try ToolRunner.run([
      "merge", fifo.path, "--out", base.appendingPathComponent("m").path,
    ])
    #expect(piped.status == 2)
    #expect(piped.stderr.contains("is a pipe (FIFO)"), "\(piped.stderr)")
  }

  // MARK: Class 8: the terminal

  /// A path with an escape sequence, a right-to-left override or a line break: shown escaped on
  /// standard output and standard error, never sent, never a second line.
  @Test func pathsAndNamesFromOutsideAreShownEscaped() throws {
    let base = RunEndToEndTests.temporaryFolder()
    let out = base.appendingPathComponent("x\u{1B}]0;pwned\u{07}\u{202E}").path
    let result = try ToolRunner.run(
      ["run", "--users", "40", "--replications", "2", "--out", out, "--no-report"])
    #expect(result.status == 0, "\(result.stderr)")
    for text in [result.stdout, result.stderr] {
      #expect(!text.contains("\u{1B}"))
      #expect(!text.contains("\u{07}"))
      #expect(!text.contains("\u{202E}"))
    }
    #expect(result.stdout.contains("\\u{1B}]0;pwned\\u{7}\\u{202E}"), "\(result.stdout)")
    let forged = base.appendingPathComponent("a\nerror: all fine").path
    try Self.write("mine", URL(fileURLWithPath: forged).appendingPathComponent("notes.txt"))
    let refused = try Self.run(forged)
    #expect(refused.status == 1)
    #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    #expect(refused.stderr.contains("a\\u{A}error: all fine"), "\(refused.stderr)")
  }

  // MARK: Class 3: what run stops at, validate refuses

  @Test func aTinyDwellLoopIsRefusedByValidate() throws {
    let file = try HostileInputTests.scenario { object in
      HostileInputTests.screens(&object) { screen in
        if screen["name"] as? String == "home" {
          screen["dwell"] = ["fixed": "0.001ms"]
          screen["transitions"] = [
            "library": 1.0, "background": 1e-10, "session": 1e-10, "settings": 1e-10,
            "paywall": 1e-10,
          ]
        } else if screen["name"] as? String == "library" {
          screen["dwell"] = ["uniform": ["low": "0s", "high": "0.01ms"]]
          screen["transitions"] = ["home": 1.0]
        }
      }
    }
    let result = try ToolRunner.run(["validate", file.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("'home', 'library' lead to one another"), "\(result.stderr)")
    #expect(result.stderr.contains("events a run allows"), "\(result.stderr)")
  }

  // MARK: Class 9: exit codes and refusals

  /// `--limit` bounds the users found, `--scan` the users scanned: a rare outcome over many
  /// users ends when asked, and says how far it looked.
  @Test func traceFindScansAtMostWhatItIsTold() throws {
    let result = try ToolRunner.run([
      "trace", "--find", "missed", "--policy", "never", "--scan", "3", "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#""scanned": 3"#), "\(result.stdout)")
    let alone = try ToolRunner.run(["trace", "--policy", "never", "--user", "1", "--scan", "3"])
    #expect(alone.status == 2)
    #expect(alone.stderr.contains("'--scan' bounds '--find'"), "\(alone.stderr)")
  }

  @Test func theSamePolicyTwiceIsRefusedByTrace() throws {
    let result = try ToolRunner.run([
      "trace", "--find", "differ", "--policy", "storekit-auto", "--policy", "storekit-auto",
    ])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains("given twice"), "\(result.stderr)")
  }

  @Test func aStudyParameterGivenTwiceIsRefused() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let twice = RobustEndToEndTests.tinyStudy.replacingOccurrences(
      of: #""value.consent_deadline_missed""#, with: #""scenario.population.new_user_share""#)
    let file = try RobustEndToEndTests.write(twice, in: folder)
    for command in ["robust", "validate"] {
      let result = try ToolRunner.run([command, file.path])
      #expect(result.status == 2, "\(command): \(result.stderr)")
      #expect(
        result.stderr.contains("duplicate parameter 'scenario.population.new_user_share'"),
        "\(command): \(result.stderr)")
    }
  }

  /// A sweep or study file's name names its folder and partials: one `merge` would refuse is
  /// refused before running or sharding.
  @Test func aSweepOrStudyFileNameBreakingTheNameRuleIsRefusedBeforeWork() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let study = try RobustEndToEndTests.write(
      RobustEndToEndTests.tinyStudy, in: folder, name: "=cmd|calc.json")
    let sweepText =
      #"{"policy": {"preset": "deadline-aware"}, "grid": {"policy.sheets_per_break": [1, 2]}, "#
      + #""users": 40, "replications": 2}"#
    let sweep = try RobustEndToEndTests.write(sweepText, in: folder, name: "=cmd|sweep.json")
    for (command, file) in [("robust", study), ("sweep", sweep)] {
      let out = folder.appendingPathComponent("out-\(command)")
      let result = try ToolRunner.run(
        [command, file.path, "--shard", "0/2", "--out", out.path, "--quiet"])
      #expect(result.status == 2, "\(command): \(result.stderr)")
      #expect(result.stderr.contains("rename the file"), "\(command): \(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out.path))
    }
  }

  @Test func moreReplicationsThanTheMaximumIsRefused() throws {
    let result = try ToolRunner.run([
      "run", "--users", "40", "--replications", "8", "--precision", "0.5",
      "--max-replications", "4",
    ])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains("is more than '--max-replications 4'"), "\(result.stderr)")
  }

  /// A fractional count is named as such, not "not JSON"; `validate` checks a partial as
  /// `merge` reads it, not as a scenario missing `schema`.
  @Test func partialsAreDescribedAsPartials() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let shards = folder.appendingPathComponent("shards")
    #expect(try Self.run(shards.path, extra: ["--shard", "0/2"]).status == 0)
    let partial = shards.appendingPathComponent("partial-0-of-2.json")
    let valid = try ToolRunner.run(["validate", partial.path])
    #expect(valid.status == 0, "\(valid.stderr)")
    #expect(valid.stdout.contains("ok (a partial result: shards 0 of 2"), "\(valid.stdout)")
    #expect(!valid.stderr.contains("schema"))
    let text = try String(contentsOf: partial, encoding: .utf8)
    let edited = folder.appendingPathComponent("edited.json")
    try Data(text.replacingOccurrences(of: #""users":40"#, with: #""users":1.5"#).utf8)
      .write(to: edited)
    for command in [
      ["merge", edited.path, "--partial-out", folder.path + "/x.json"],
      ["validate", edited.path],
    ] {
      let result = try ToolRunner.run(command)
      #expect(result.status == 2, "\(result.stderr)")
      #expect(result.stderr.contains("such as 1.5"), "\(result.stderr)")
      #expect(!result.stderr.contains("not JSON"), "\(result.stderr)")
    }
  }

  // MARK: Class 10: leftovers

  /// `SIGUSR1` (any catchable signal that would end the tool) discards the staged folder and
  /// the lock, as `SIGTERM` does.
  @Test func sigusr1LeavesNoStagingOrLock() throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("usr1")
    let run = try OutputFolderEndToEndTests.start(out, users: 200_000)
    let lock = out.deletingLastPathComponent().appendingPathComponent(".usr1.lock")
    try OutputFolderEndToEndTests.waitFor { FileManager.default.fileExists(atPath: lock.path) }
    kill(run.processIdentifier, SIGUSR1)
    run.waitUntilExit()
    #expect(run.terminationStatus == 128 + SIGUSR1)
    #expect(OutputFolderEndToEndTests.leftovers(beside: out).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }

  /// A temporary file a `SIGKILL` left (`.FILE.tmp-PID` of a process that is gone) is removed
  /// by the next write of that file; one of a live process is left alone.
  @Test func aKilledWritersTemporaryFileIsRemovedByTheNextWrite() throws {
    let folder = RunEndToEndTests.temporaryFolder()
    let shards = folder.appendingPathComponent("shards")
    #expect(try Self.run(shards.path, extra: ["--shard", "0/2"]).status == 0)
    let partial = shards.appendingPathComponent("partial-0-of-2.json").path
    let tree = folder.appendingPathComponent("tree")
    try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
    let dead = tree.appendingPathComponent(".partial-0-0-of-2.json.tmp-999999")
    let live = tree.appendingPathComponent(".partial-0-0-of-2.json.tmp-1")
    try Self.write("half", dead)
    try Self.write("half", live)
    let result = try ToolRunner.run([
      "merge", partial, "--partial-out", tree.appendingPathComponent("partial-0-0-of-2.json").path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dead.path), "the dead writer's file is gone")
    #expect(FileManager.default.fileExists(atPath: live.path), "process 1 is alive: kept")
  }

  // MARK: Class 11: the events log

  /// The rows of `events.csv` in `folder` (without the header), and the distinct values of
  /// their policy column.
  static func eventRows(_ folder: URL) throws -> (rows: [Substring], policies: Set<Substring>) {
    let text = try String(contentsOf: folder.appendingPathComponent("events.csv"), encoding: .utf8)
    let rows = Array(text.split(separator: "\n").dropFirst())
    return (rows, Set(rows.map { $0.split(separator: ",")[2] }))
  }

  /// By default one policy's rows, the baseline's (`fit` reads one policy; every policy's was
  /// 12 times the file), with the map reading it; `--baseline` moves the default.
  @Test func theEventsLogHoldsTheBaselinesRowsByDefault() throws {
    let base = RunEndToEndTests.temporaryFolder()
    let out = base.appendingPathComponent("default")
    let result = try Self.run(out.path, extra: ["--events-log"])
    #expect(result.status == 0, "\(result.stderr)")
    let logged = try Self.eventRows(out)
    #expect(!logged.rows.isEmpty)
    #expect(logged.policies == ["storekit-auto"])
    let map = try String(contentsOf: out.appendingPathComponent("events-map.json"), encoding: .utf8)
    #expect(map.contains(#""policy": "storekit-auto""#), "\(map)")
    let moved = base.appendingPathComponent("moved")
    let other = try Self.run(moved.path, extra: ["--events-log", "--baseline", "never"])
    #expect(other.status == 0, "\(other.stderr)")
    #expect(try Self.eventRows(moved).policies == ["never"])
  }

  /// One policy's log is recorded in the run's shared branches (beside `--messages-log`, in a
  /// pass of that policy alone): its rows are byte for byte those of the same policy in
  /// `--events-log-policy all`, which logs every policy's own branch, and the run's own files
  /// do not change with the log.
  @Test func onePolicysRowsAreThoseOfEveryPolicysLog() throws {
    let base = RunEndToEndTests.temporaryFolder()
    let every = base.appendingPathComponent("every")
    let all = try Self.run(every.path, extra: ["--events-log", "--events-log-policy", "all"])
    #expect(all.status == 0, "\(all.stderr)")
    let allRows = try Self.eventRows(every)
    #expect(
      Set(allRows.policies.map(String.init)) == Set(PolicyCatalog.presetNames),
      "every preset: \(allRows.policies)")
    let plain = base.appendingPathComponent("plain")
    #expect(try Self.run(plain.path).status == 0)
    for policy in ["storekit-auto", "deadline-aware"] {
      let one = base.appendingPathComponent(policy)
      let result = try Self.run(
        one.path, extra: ["--events-log", "--events-log-policy", policy, "--jobs", "1"])
      #expect(result.status == 0, "\(result.stderr)")
      let rows = try Self.eventRows(one).rows
      #expect(!rows.isEmpty)
      #expect(rows == allRows.rows.filter { $0.split(separator: ",")[2] == policy }, "\(policy)")
      // Beside the messages log: the second pass, the same rows.
      let pass = base.appendingPathComponent(policy + "-pass")
      let passed = try Self.run(
        pass.path,
        extra: ["--events-log", "--events-log-policy", policy, "--messages-log", "--jobs", "1"])
      #expect(passed.status == 0, "\(passed.stderr)")
      #expect(try Self.eventRows(pass).rows == rows, "\(policy), in a pass of its own")
      for file in ["summary.csv", "paired.csv", "by-screen.csv", "replications.csv"] {
        #expect(
          try Data(contentsOf: one.appendingPathComponent(file))
            == Data(contentsOf: plain.appendingPathComponent(file)), "\(policy): \(file)")
      }
    }
    let map = try String(
      contentsOf: every.appendingPathComponent("events-map.json"), encoding: .utf8)
    #expect(map.contains(#""policy": "storekit-auto""#), "all: the map reads the baseline")
  }

  @Test func anUnknownEventsLogPolicyNamesTheChoices() throws {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("events")
    let unknown = try Self.run(
      out.path, extra: ["--events-log", "--events-log-policy", "nope"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("not one of the run's policies"), "\(unknown.stderr)")
    #expect(unknown.stderr.contains("nor 'all'"), "\(unknown.stderr)")
    let help = try ToolRunner.run(["run", "--help"])
    #expect(help.stdout.contains("default: the baseline; 'all'"), "\(help.stdout)")
  }

  // MARK: Classes 5 and 6: fit's degenerate logs, names and the fitter's bugs

  /// The generic sample map with `edit` applied, written to a temporary file.
  static func map(_ edit: (inout [String: Any]) -> Void) throws -> String {
    var object =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.map)))
      as! [String: Any]
    edit(&object)
    let url = RunEndToEndTests.temporaryFolder().appendingPathComponent("map.json")
    try JSONSerialization.data(withJSONObject: object).write(to: url)
    return url.path
  }

  /// The generic sample log with each row's fields rewritten by `edit`.
  static func log(_ edit: ([String]) -> [String]) throws -> String {
    let lines = try String(contentsOfFile: Self.log, encoding: .utf8).split(separator: "\n")
    let rows =
      [String(lines[0])]
      + lines.dropFirst().map {
        edit($0.split(separator: ",").map(String.init)).joined(separator: ",")
      }
    let url = RunEndToEndTests.temporaryFolder().appendingPathComponent("log.csv")
    try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url.path
  }

  static func fit(_ log: String, _ map: String) throws -> ToolRunner.Result {
    let out = RunEndToEndTests.temporaryFolder().appendingPathComponent("scenario.json").path
    return try ToolRunner.run(["fit", log, "--map", map, "--out", out, "--no-report"])
  }

  @Test func aLogWithOneTimestampPerUserIsRefusedWithTheReason() throws {
    let log = try Self.log { fields in
      var fields = fields
      fields[1] = "2024-05-01T04:30:52.482Z"
      return fields
    }
    let result = try Self.fit(log, Self.map)
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains("nothing can be estimated"), "\(result.stderr)")
    #expect(result.stderr.contains("take a single value"), "\(result.stderr)")
  }

  /// Display names ("Home Screen", "Feed/Main", Cyrillic, `background`) are refused by the map
  /// with the entry that fixes them, and fitted once the map gives them scenario names.
  @Test func displayNamesAreMappedToScenarioNames() throws {
    let renamed = [
      "home": "Home Screen", "feed": "Feed/Main", "settings": "Настройки",
      "intro": "background",
    ]
    let log = try Self.log { fields in
      var fields = fields
      fields[2] = renamed[fields[2]] ?? fields[2]
      return fields
    }
    for (old, display) in renamed {
      let bare = try Self.map { object in
        var screens = object["screens"] as! [String: Any]
        screens[display] = screens.removeValue(forKey: old)
        object["screens"] = screens
        object["onboarding"] = (object["onboarding"] as! [String]).map { $0 == old ? display : $0 }
      }
      let refused = try Self.fit(log, bare)
      #expect(refused.status == 2, "\(display): \(refused.stderr)")
      #expect(refused.stderr.contains("give it a scenario name in the map"), "\(refused.stderr)")
      #expect(!refused.stderr.contains("this is a bug"))
    }
    let named = try Self.map { object in
      var screens = object["screens"] as! [String: Any]
      for (old, display) in renamed {
        let kind = screens.removeValue(forKey: old)!
        screens[display] = ["kind": kind, "name": old]
      }
      object["screens"] = screens
      object["onboarding"] = ["background", "plan"]
    }
    let result = try Self.fit(log, named)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Home Screen") == false, "the scenario uses its names")
  }

  /// The three fitter bugs once hidden behind "this is a bug": an all-onboarding map, an
  /// install window of ±1.7e308, a 1 ms session timeout; and windows that are empty, reversed
  /// or outside the log, and an offset of +99:99.
  @Test(arguments: [
    ("all onboarding", "every screen is of kind onboarding"),
    ("huge window", "is not a time of the log"), ("1 ms timeout", "must be at least 1m"),
    ("reversed window", "the window is reversed"),
    ("window outside the log", "falls inside the window"),
  ])
  func fitterMistakesAreNamed(what: String, message: String) throws {
    let map = try Self.map { object in
      switch what {
      case "all onboarding":
        object["screens"] = (object["screens"] as! [String: String]).mapValues {
          $0 == "launch" ? $0 : "onboarding"
        }
        object["onboarding"] = nil
      case "huge window": object["window"] = ["start": -1.7e308, "end": 1.7e308]
      case "1 ms timeout": object["session_timeout"] = "1ms"
      case "reversed window":
        object["window"] = ["start": "2024-05-03T00:00:00Z", "end": "2024-05-01T00:00:00Z"]
      default: object["window"] = ["start": "2030-01-01T00:00:00Z", "end": "2030-02-01T00:00:00Z"]
      }
    }
    let result = try Self.fit(Self.log, map)
    #expect(result.status == 2, "\(what): \(result.stderr)")
    #expect(result.stderr.contains(message), "\(what): \(result.stderr)")
    #expect(!result.stderr.contains("this is a bug"))
  }

  /// Class 10's last message: every way the window and the log's files can give no screen
  /// view has its own message, naming the file, the map's key and the fix; none is "check the
  /// map's format", which was all of them.
  @Test(arguments: [
    "empty window", "reversed window", "window outside the log", "window over no screen view",
    "a folder as the log", "a run's folder as the log", "a run's folder as the map",
    "a missing map", "an empty log", "a header alone", "a policy no row has",
  ])
  func everyWayToGetNoScreenViewIsNamed(what: String) throws {
    let base = RunEndToEndTests.temporaryFolder()
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    var log = Self.log
    var map = Self.map
    var expected: [String]
    func mapWith(_ edit: (inout [String: Any]) -> Void) throws -> String {
      let edited = try Self.map(edit)
      let moved = base.appendingPathComponent("map-\(what.count).json").path
      try FileManager.default.moveItem(atPath: edited, toPath: moved)
      return moved
    }
    func write(_ text: String, _ name: String) throws -> String {
      let url = base.appendingPathComponent(name)
      try Self.write(text, url)
      return url.path
    }
    switch what {
    case "empty window":
      map = try mapWith { $0["window"] = ["start": 1_714_600_000, "end": 1_714_600_000] }
      expected = [map, "$.window", "the window is empty", "give an end after the start"]
    case "reversed window":
      map = try mapWith { $0["window"] = ["start": 1_714_700_000, "end": 1_714_600_000] }
      expected = [map, "$.window", "the window is reversed", "swap start and end"]
    case "window outside the log":
      map = try mapWith { $0["window"] = ["start": 1, "end": 100] }
      expected = [
        map, "$.window", "none of the 1467 events of \(log) falls inside the window (1 to 100)",
        "move the window over the log or drop it",
      ]
    case "window over no screen view":
      log = try write(
        "user_id,timestamp,screen,event\nu1,1000,home,screen_view\nu1,1010,home,background\n"
          + "u2,5000,home,background\n", "backgrounds.csv")
      map = try mapWith { $0["window"] = ["start": 4000, "end": 6000] }
      expected = [map, "$.window", "no screen view of", "the 1 inside are not screen views"]
    case "a folder as the log":
      log = base.path
      expected = [base.path, "is a folder, not a log; name the log file itself"]
    case "a run's folder as the log":
      log = base.path
      let inside = try write("replication,user\n", "events.csv")
      expected = ["is a folder, not a log", "('\(inside)': a run's events log)"]
    case "a run's folder as the map":
      let inside = try write("{}", "events-map.json")
      map = base.path
      expected = ["is a folder, not a map", "('\(inside)': the map of a run's events log)"]
    case "a missing map":
      map = base.appendingPathComponent("nothere.json").path
      expected = [map, "no such map file", "events-map.json"]
    case "an empty log":
      log = try write("", "empty.csv")
      expected = [log, "the log is empty (no line)"]
    case "a header alone":
      log = try write("user_id,timestamp,screen,event\n", "header.csv")
      expected = [log, "holds only its header row"]
    default:
      log = try Self.log { $0 + ["storekit-auto"] }
      let text = try String(contentsOfFile: log, encoding: .utf8)
      log = try write(
        text.replacingOccurrences(
          of: "screen,event\n", with: "screen,event,policy\n"), "p.csv")
      map = try mapWith { $0["policy"] = "nope" }
      expected = [map, "$.policy", "has the policy 'nope'", "are of 'storekit-auto'"]
    }
    let result = try Self.fit(log, map)
    #expect(result.status == 2, "\(what): \(result.stderr)")
    for fragment in expected {
      #expect(result.stderr.contains(fragment), "\(what): \(fragment): \(result.stderr)")
    }
    #expect(!result.stderr.contains("check the map's format"), "\(what): \(result.stderr)")
  }

  @Test func anImpossibleUTCOffsetIsNotATime() throws {
    let log = try Self.log { fields in
      var fields = fields
      fields[1] = fields[1].replacingOccurrences(of: "Z", with: "+99:99")
      return fields
    }
    let result = try Self.fit(log, Self.map)
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains(":2:"), "the first row is named: \(result.stderr)")
  }
}
