import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The scale-out recipes: scripts/slurm (a job array and a dependent merge) on a real
/// single-node Slurm cluster, the same scripts without Slurm, and the Kubernetes manifests
/// in scripts/k8s, which must parse and run the same command line as the Slurm scripts.
@Suite("scaling out: Slurm and Kubernetes recipes")
struct ScaleOutTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

  static func text(_ relative: String) throws -> String {
    try String(contentsOfFile: path(relative), encoding: .utf8)
  }

  static func temporaryFolder() -> URL {
    let url = TestScratch.directory.appendingPathComponent(
      "deferral-sim-scale-out-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static let reports = [
    "summary.csv", "paired.csv", "by-screen.csv", "by-reason.csv", "by-segment.csv",
    "replications.csv",
  ]

  // MARK: Slurm, for real

  /// The whole recipe on a real cluster: scripts/slurm/integration-test.sh starts munged,
  /// slurmctld and slurmd (local-cluster.sh), runs the run once without shards, submits it as
  /// a 4-task array plus a two-level merge (fan-in 2), and compares the six CSVs with cmp;
  /// then the same for a small sweep as 2 shards (sweep.csv, pareto.csv, report.html).
  ///
  /// Skipped, with the reason, where Slurm cannot run: not installed, or not root. It is never
  /// a silent pass: under CI (CI=true) a missing install or a non-root user is a failure, since
  /// .ci/run installs the packages and runs as root; and a cluster that does not come up (the script's exit 77) is a failure
  /// unless DEFERRAL_SIM_ALLOW_SLURM_SKIP=1 says this machine is known not to manage it, in
  /// which case the test is cancelled (reported as skipped) with the script's reason.
  @Test(
    "a 4-shard Slurm job array and its two-level merge equal a single run (and a sweep)",
    .enabled(
      if: SlurmAvailability.isInstalled || SlurmAvailability.isCI,
      "slurm-wlm and munge are not installed (apt-get install -y slurm-wlm munge; .ci/run does)"),
    .enabled(
      if: SlurmAvailability.isRoot || SlurmAvailability.isCI,
      "starting munged, slurmctld and slurmd needs root"),
    .timeLimit(.minutes(15)))
  func slurmClusterRunEqualsSingleRun() throws {
    guard SlurmAvailability.isRoot else {
      Issue.record(
        "CI=true but the tests do not run as root: the Slurm test cannot start a cluster")
      return
    }
    guard SlurmAvailability.isInstalled else {
      Issue.record(
        """
        CI=true but Slurm is missing (\(SlurmAvailability.missing.joined(separator: ", "))): \
        .ci/run must install it: apt-get install -y --no-install-recommends slurm-wlm munge
        """)
      return
    }
    let work = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let sweep = work.appendingPathComponent("tiny-sweep.json")
    try SweepEndToEndTests.tinySweep.write(to: sweep, atomically: true, encoding: .utf8)
    let result = try Shell.run(
      "bash", [Self.path("scripts/slurm/integration-test.sh"), ToolRunner.binary.path, work.path],
      environment: ["DEFERRAL_SIM_SLURM_SWEEP": sweep.path])
    switch result.status {
    case 0:
      for file in Self.reports {
        #expect(result.output.contains("identical: \(file)"), "\(result.output)")
      }
      // The merge was a tree: 2 merges of 2 partials (--partial-out), then one of those.
      #expect(
        result.output.contains(
          "two-level merge (fan-in 2): partial-0-1-of-4.json partial-2-3-of-4.json"),
        "\(result.output)")
      for file in SweepEndToEndTests.files {
        #expect(result.output.contains("identical: sweep \(file)"), "\(result.output)")
      }
      // The measured wall times, for the log.
      print(
        result.output.split(separator: "\n").filter {
          $0.contains("wall time") || $0.hasPrefix("merge:")
        }
        .joined(separator: "\n"))
    case 77 where SlurmAvailability.allowsSkip:
      try Test.cancel(
        "DEFERRAL_SIM_ALLOW_SLURM_SKIP=1 and the cluster cannot run here: \(result.output)")
    case 77:
      Issue.record(
        """
        The local Slurm cluster could not run the test (exit 77). Set \
        DEFERRAL_SIM_ALLOW_SLURM_SKIP=1 only on a machine known not to manage it; CI does not. \
        Output:
        \(result.output)
        """)
    default:
      Issue.record("integration-test.sh exited \(result.status):\n\(result.output)")
    }
  }

  // MARK: Slurm scripts, without Slurm

  /// The environment the scripts see: the binary under test, one CPU per task.
  static let scriptEnvironment = [
    "DEFERRAL_SIM": ToolRunner.binary.path, "SLURM_CPUS_PER_TASK": "1",
  ]

  /// shard.sbatch as array task `task` of `tasks` would run it, in `work`.
  static func arrayTask(
    _ arguments: [String], task: Int, of tasks: Int, in work: URL
  ) throws -> Shell.Result {
    try Shell.run(
      "bash", [path("scripts/slurm/shard.sbatch")] + arguments, in: work,
      environment: scriptEnvironment.merging(
        ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "\(tasks)"]) { $1 })
  }

  /// merge.sbatch on OUT's N partials, then `files` compared between `single/` and `OUT/`.
  static func mergeAndCompare(
    out: String, shards: Int, files: [String], in work: URL
  ) throws {
    let merge = try Shell.run(
      "bash", [path("scripts/slurm/merge.sbatch"), out, "\(shards)"], in: work,
      environment: scriptEnvironment)
    #expect(merge.status == 0, "\(merge.output)")
    for file in files {
      let one = try Data(contentsOf: work.appendingPathComponent("single/\(file)"))
      let joined = try Data(contentsOf: work.appendingPathComponent("\(out)/\(file)"))
      #expect(one == joined, "\(file) differs between the unsharded and the merged shards")
    }
  }

  /// The array task and merge scripts as Slurm would run them (the array variables set by
  /// hand), so their command lines are exercised wherever the tests run, Slurm or not.
  @Test func slurmScriptsWithoutSlurmEqualASingleRun() throws {
    let work = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let options = ["--users", "150", "--replications", "2", "--seed", "11"]
    let single = try ToolRunner.run(
      ["run"] + options + ["--out", work.appendingPathComponent("single").path, "--quiet"])
    #expect(single.status == 0, "\(single.stderr)")
    for shard in 0..<3 {
      let task = try Self.arrayTask(["default", "sharded"] + options, task: shard, of: 3, in: work)
      #expect(task.status == 0, "\(task.output)")
    }
    // A --jobs among the run options replaces the script's own instead of repeating it.
    let withJobs = try Self.arrayTask(
      ["default", "jobs"] + options + ["--jobs", "2"], task: 0, of: 3, in: work)
    #expect(withJobs.status == 0, "\(withJobs.output)")
    try Self.mergeAndCompare(out: "sharded", shards: 3, files: Self.reports, in: work)
    // Outside an array the task script refuses to run, saying why.
    let bare = try Shell.run(
      "bash", [Self.path("scripts/slurm/shard.sbatch"), "default", "bare"], in: work,
      environment: [
        "DEFERRAL_SIM": ToolRunner.binary.path, "SLURM_ARRAY_TASK_ID": "",
        "SLURM_ARRAY_TASK_COUNT": "",
      ])
    #expect(bare.status != 0)
    #expect(bare.output.contains("sbatch --array"), "\(bare.output)")
  }

  /// A sweep through the same scripts (`--sweep`): the merged sweep.csv, pareto.csv and
  /// report.html equal those of the sweep run whole.
  @Test func slurmScriptsShardAndMergeASweep() throws {
    let work = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let sweep = work.appendingPathComponent("tiny.json")
    try SweepEndToEndTests.tinySweep.write(to: sweep, atomically: true, encoding: .utf8)
    let single = try ToolRunner.run(
      ["sweep", sweep.path, "--out", work.appendingPathComponent("single").path, "--quiet"])
    #expect(single.status == 0, "\(single.stderr)")
    for shard in 0..<2 {
      let task = try Self.arrayTask(
        ["--sweep", sweep.path, "sharded"], task: shard, of: 2, in: work)
      #expect(task.status == 0, "\(task.output)")
    }
    try Self.mergeAndCompare(
      out: "sharded", shards: 2, files: SweepEndToEndTests.files, in: work)
  }

  // MARK: Kubernetes

  @Test func kubernetesManifestsParseAsIndexedAndMergeJobs() throws {
    let shards = try YAMLSubset.parse(Self.text("scripts/k8s/shards-job.yaml"))
    let merge = try YAMLSubset.parse(Self.text("scripts/k8s/merge-job.yaml"))
    for job in [shards, merge] {
      #expect(job["apiVersion"]?.string == "batch/v1")
      #expect(job["kind"]?.string == "Job")
      let pod = try #require(job["spec"]?["template"]?["spec"])
      #expect(pod["restartPolicy"]?.string == "Never")
      let container = try #require(pod["containers"]?[0])
      #expect(container["command"] == .sequence([.scalar("/bin/sh"), .scalar("-c")]))
      #expect(container["args"]?.count == 1)
      // Every mounted volume is declared, and the run folder is on it.
      let mount = try #require(container["volumeMounts"]?[0])
      #expect(pod["volumes"]?[0]?["name"] == mount["name"])
      #expect(pod["volumes"]?[0]?["persistentVolumeClaim"]?["claimName"]?.string == "deferral-sim")
      #expect(mount["mountPath"]?.string == "/results")
    }
    let spec = try #require(shards["spec"])
    #expect(spec["completionMode"]?.string == "Indexed")
    let completions = try #require(spec["completions"]?.string.flatMap { Int($0) })
    let parallelism = try #require(spec["parallelism"]?.string.flatMap { Int($0) })
    #expect((1...completions).contains(parallelism))
    // N is the same in completions and in SHARDS, in both Jobs.
    for job in [shards, merge] {
      let env = job["spec"]?["template"]?["spec"]?["containers"]?[0]?["env"]
      let value = env?.elements.first { $0["name"]?.string == "SHARDS" }?["value"]?.string
      #expect(value == "\(completions)")
    }
  }

  /// The Kubernetes shard Job and the Slurm array task run the same command line: both carry
  /// the same `# DEFERRAL_SIM_COMMAND:` line, and the command each really runs, its values
  /// replaced by the names in that line, reads exactly as that line.
  @Test func kubernetesAndSlurmRunTheSameCommandLine() throws {
    let script = try Self.text("scripts/slurm/shard.sbatch")
    let manifest = try Self.text("scripts/k8s/shards-job.yaml")
    let slurmLine = try #require(RecipeCommand.marked("DEFERRAL_SIM_COMMAND", in: script))
    let k8sLine = try #require(RecipeCommand.marked("DEFERRAL_SIM_COMMAND", in: manifest))
    #expect(slurmLine == k8sLine)
    #expect(
      slurmLine == "deferral-sim run SCENARIO --shard K/N --out OUT/parts --jobs CPUS --quiet")

    // Slurm: the exec line, its continuation joined.
    #expect(script.contains(#"jobs=(--jobs "${SLURM_CPUS_PER_TASK:-1}")"#))
    #expect(script.contains("\ncommand=run\n"), "a run unless --sweep comes first")
    let slurmWords = try #require(RecipeCommand.execWords(in: script))
    let slurm = try RecipeCommand.canonical(
      slurmWords,
      words: [
        #""$bin""#: ["deferral-sim"], #""$command""#: ["run"],
        #""${scenario_args[@]}""#: ["SCENARIO"],
        #""${jobs[@]}""#: ["--jobs", "CPUS"], #""$@""#: [],
      ],
      shardVariables: ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"])
    #expect(slurm == slurmLine)

    // Kubernetes: the shell command the container runs.
    let job = try YAMLSubset.parse(manifest)
    let args = try #require(
      job["spec"]?["template"]?["spec"]?["containers"]?[0]?["args"]?[0]?.string)
    let k8sWords = RecipeCommand.words(args)
    #expect(k8sWords.first == "exec")
    let k8s = try RecipeCommand.canonical(
      Array(k8sWords.dropFirst()), words: [:],
      shardVariables: ["JOB_COMPLETION_INDEX", "SHARDS"])
    #expect(k8s == k8sLine)
  }

  /// The merge steps agree too: the same marked line, `merge`, the partials of OUT/parts and
  /// `--out OUT`, with the shards' OUT.
  @Test func kubernetesAndSlurmMergeTheSameWay() throws {
    let script = try Self.text("scripts/slurm/merge.sbatch")
    let manifest = try Self.text("scripts/k8s/merge-job.yaml")
    let line = try #require(RecipeCommand.marked("DEFERRAL_SIM_MERGE_COMMAND", in: script))
    #expect(RecipeCommand.marked("DEFERRAL_SIM_MERGE_COMMAND", in: manifest) == line)
    #expect(line == "deferral-sim merge OUT/parts/partial-K-of-N.json... --out OUT")

    #expect(script.contains(#"parts+=("$out/parts/partial-$k-of-$shards.json")"#))
    #expect(
      RecipeCommand.execWords(in: script) == [
        #""$bin""#, "merge", #""${parts[@]}""#, "--out", #""$out""#,
      ])

    let job = try YAMLSubset.parse(manifest)
    let args = try #require(
      job["spec"]?["template"]?["spec"]?["containers"]?[0]?["args"]?[0]?.string)
    let words = RecipeCommand.words(args)
    #expect(Array(words.prefix(3)) == ["exec", "deferral-sim", "merge"])
    #expect(args.contains(#"/results/run/parts/partial-%g-of-${SHARDS}.json" 0 $((SHARDS - 1))"#))
    #expect(Array(words.suffix(2)) == ["--out", "/results/run"])
    // The shards write where the merge reads.
    let shards = try YAMLSubset.parse(Self.text("scripts/k8s/shards-job.yaml"))
    let shardArgs = shards["spec"]?["template"]?["spec"]?["containers"]?[0]?["args"]?[0]?.string
    #expect(shardArgs?.contains("--out /results/run/parts ") == true)
  }

  @Test func yamlSubsetParserReadsWhatTheManifestsUseAndRefusesTheRest() throws {
    let value = try YAMLSubset.parse(
      """
      # a comment
      a: 1
      b:
        - { name: x, path: "/p" }
        - plain words
        - c: "quoted # not a comment"
          d: [ "x", y ]   # a comment
      e: >-
        folded
        lines
      """)
    #expect(value["a"]?.string == "1")
    #expect(value["b"]?[0]?["path"]?.string == "/p")
    #expect(value["b"]?[1]?.string == "plain words")
    #expect(value["b"]?[2]?["c"]?.string == "quoted # not a comment")
    #expect(value["b"]?[2]?["d"] == .sequence([.scalar("x"), .scalar("y")]))
    #expect(value["e"]?.string == "folded lines")
    for bad in [
      "a: 1\n\tb: 2", "a: 1\n   b: 2", "a: { b: 1", "a: [1, 2", "a: 1\na: 2", "a 1",
      "a:\n  - 1\n  b: 2", "a: \"open",
    ] {
      #expect(throws: YAMLSubset.Error.self, "\(bad)") { try YAMLSubset.parse(bad) }
    }
  }
}

// MARK: - Helpers

/// Whether this machine can start a Slurm cluster for the integration test.
enum SlurmAvailability {
  static let tools = [
    "munged", "munge", "unmunge", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol",
  ]

  static var missing: [String] {
    let path =
      (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
      .map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
    return tools.filter { tool in
      !path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }
  }

  static var isInstalled: Bool { missing.isEmpty }
  static var isRoot: Bool { getuid() == 0 }
  static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
  static var allowsSkip: Bool {
    ProcessInfo.processInfo.environment["DEFERRAL_SIM_ALLOW_SLURM_SKIP"] == "1"
  }
}

/// The command lines of the recipes, read from their files.
enum RecipeCommand {
  struct Mismatch: Error, CustomStringConvertible {
    var description: String
  }

  /// The text after `# NAME:` on the file's one line that carries it, spaces normalised.
  static func marked(_ name: String, in text: String) -> String? {
    let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("# \(name):") }
    guard lines.count == 1 else { return nil }
    return words(String(lines[0].dropFirst("# \(name):".count))).joined(separator: " ")
  }

  /// The words of the script's `exec` line (with its `\` continuations), quotes kept.
  static func execWords(in script: String) -> [String]? {
    let joined = script.replacingOccurrences(of: "\\\n", with: " ")
    guard
      let line = joined.split(separator: "\n").first(where: { $0.hasPrefix("exec ") })
    else { return nil }
    return Array(words(String(line)).dropFirst())
  }

  /// Splits at blanks outside double quotes; quotes are kept in the words.
  static func words(_ text: String) -> [String] {
    var result: [String] = []
    var current = ""
    var quoted = false
    for character in text {
      if character == "\"" { quoted.toggle() }
      if !quoted, character == " " || character == "\n" || character == "\t" {
        if !current.isEmpty { result.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { result.append(current) }
    return result
  }

  /// The command with its values replaced by the names of the marked line: the scenario by
  /// SCENARIO, the --shard value (which must name both `shardVariables`) by K/N, an --out
  /// value ending in /parts by OUT/parts, the --jobs value by CPUS. `words` first replaces
  /// whole words (shell expansions) by what they stand for.
  static func canonical(
    _ command: [String], words replacements: [String: [String]], shardVariables: [String]
  ) throws -> String {
    let expanded = command.flatMap { replacements[$0] ?? [$0] }
    guard expanded.count >= 2, expanded[0] == "deferral-sim", expanded[1] == "run" else {
      throw Mismatch(description: "not a 'deferral-sim run' command: \(expanded)")
    }
    var result = ["deferral-sim", "run"]
    var index = 2
    while index < expanded.count {
      let word = expanded[index]
      index += 1
      guard word.hasPrefix("--") else {
        result.append(word == "SCENARIO" || word.hasSuffix(".json") ? "SCENARIO" : word)
        continue
      }
      result.append(word)
      guard ["--shard", "--out", "--jobs"].contains(word) else { continue }
      guard index < expanded.count else { throw Mismatch(description: "\(word) has no value") }
      let value = expanded[index]
      index += 1
      switch word {
      case "--shard":
        guard shardVariables.allSatisfy({ value.contains("${\($0)}") }), value.contains("/") else {
          throw Mismatch(description: "--shard \(value) does not name \(shardVariables)")
        }
        result.append("K/N")
      case "--out":
        guard value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).hasSuffix("/parts")
        else { throw Mismatch(description: "--out \(value) is not a parts folder") }
        result.append("OUT/parts")
      default:
        guard value == "CPUS" || Int(value) != nil else {
          throw Mismatch(description: "--jobs \(value) is not a number")
        }
        result.append("CPUS")
      }
    }
    return result.joined(separator: " ")
  }
}

/// A parser for the subset of YAML that the Kubernetes manifests use: block mappings and
/// sequences by indentation (spaces only), flow mappings and sequences (`{ a: b }`,
/// `[a, "b"]`), plain and quoted scalars, folded (`>`, `>-`) and literal (`|`) block
/// scalars, and comments. Anything outside it (tabs, bad indentation, unclosed brackets or
/// quotes, a repeated key, a line that is neither key nor item) is an error, so a manifest it
/// accepts is well formed for a real YAML parser too.
indirect enum YAMLSubset: Equatable {
  case scalar(String)
  case sequence([YAMLSubset])
  case mapping([String: YAMLSubset])

  struct Error: Swift.Error, CustomStringConvertible {
    var description: String
  }

  var string: String? {
    if case .scalar(let text) = self { return text }
    return nil
  }

  var elements: [YAMLSubset] {
    if case .sequence(let items) = self { return items }
    return []
  }

  var count: Int? {
    switch self {
    case .scalar: nil
    case .sequence(let items): items.count
    case .mapping(let entries): entries.count
    }
  }

  subscript(key: String) -> YAMLSubset? {
    if case .mapping(let entries) = self { return entries[key] }
    return nil
  }

  subscript(index: Int) -> YAMLSubset? {
    if case .sequence(let items) = self, items.indices.contains(index) { return items[index] }
    return nil
  }

  static func parse(_ text: String) throws -> YAMLSubset {
    var parser = try BlockParser(text)
    let value = try parser.block(indent: parser.lines.first?.indent ?? 0)
    if parser.position < parser.lines.count {
      throw parser.error("unexpected indentation")
    }
    return value
  }

  private struct Line {
    var number: Int
    var indent: Int
    var text: String  // without the indentation; comments still in
  }

  private struct BlockParser {
    var lines: [Line] = []
    var position = 0

    init(_ text: String) throws {
      for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let line = String(raw)
        let body = line.drop { $0 == " " }
        if body.first == "\t" {
          throw Error(description: "line \(offset + 1): a tab in the indentation")
        }
        let content = String(body)
        if content.isEmpty || content.hasPrefix("#") { continue }
        if content == "---" || content == "..." {
          throw Error(description: "line \(offset + 1): one document only")
        }
        lines.append(Line(number: offset + 1, indent: line.count - content.count, text: content))
      }
    }

    func error(_ message: String) -> Error {
      let number = position < lines.count ? lines[position].number : lines.count
      return Error(description: "line \(number): \(message)")
    }

    mutating func block(indent: Int) throws -> YAMLSubset {
      guard position < lines.count, lines[position].indent == indent else {
        throw error("a block was expected at column \(indent + 1)")
      }
      return isItem(lines[position].text)
        ? try sequence(indent: indent) : try mapping(indent: indent)
    }

    func isItem(_ text: String) -> Bool { text == "-" || text.hasPrefix("- ") }

    mutating func sequence(indent: Int) throws -> YAMLSubset {
      var items: [YAMLSubset] = []
      while position < lines.count, lines[position].indent == indent, isItem(lines[position].text) {
        let rest = String(lines[position].text.dropFirst(1).drop { $0 == " " })
        let restIndent = indent + lines[position].text.count - rest.count
        if stripComment(rest).isEmpty {
          position += 1
          guard position < lines.count, lines[position].indent > indent else {
            items.append(.scalar(""))
            continue
          }
          items.append(try block(indent: lines[position].indent))
        } else if keyAndValue(stripComment(rest)) != nil {
          // "- key: value": a mapping whose first line starts after the dash.
          lines[position] = Line(number: lines[position].number, indent: restIndent, text: rest)
          items.append(try mapping(indent: restIndent))
        } else if [">", ">-", "|", "|-"].contains(stripComment(rest)) {
          position += 1
          items.append(try blockScalar(style: stripComment(rest), parentIndent: indent))
        } else {
          items.append(try inline(stripComment(rest), line: lines[position].number))
          position += 1
        }
      }
      if position < lines.count, lines[position].indent == indent {
        throw error("a sequence item was expected")
      }
      return .sequence(items)
    }

    mutating func mapping(indent: Int) throws -> YAMLSubset {
      var entries: [String: YAMLSubset] = [:]
      while position < lines.count, lines[position].indent == indent {
        let text = stripComment(lines[position].text)
        guard let (key, value) = keyAndValue(text) else {
          throw error("'key: value' was expected, not '\(text)'")
        }
        guard entries[key] == nil else { throw error("the key '\(key)' is repeated") }
        let number = lines[position].number
        position += 1
        if value.isEmpty {
          if position < lines.count, lines[position].indent > indent {
            entries[key] = try block(indent: lines[position].indent)
          } else if position < lines.count, lines[position].indent == indent,
            isItem(lines[position].text)
          {
            entries[key] = try sequence(indent: indent)
          } else {
            entries[key] = .scalar("")
          }
        } else if [">", ">-", "|", "|-"].contains(value) {
          entries[key] = try blockScalar(style: value, parentIndent: indent)
        } else {
          entries[key] = try inline(value, line: number)
        }
      }
      if position < lines.count, lines[position].indent > indent {
        throw error("unexpected indentation")
      }
      return .mapping(entries)
    }

    /// A folded or literal scalar: the lines indented past the parent's. Folded lines must
    /// share one indentation (YAML keeps the breaks of more-indented ones: not in the subset).
    mutating func blockScalar(style: String, parentIndent: Int) throws -> YAMLSubset {
      var parts: [String] = []
      let indent = position < lines.count ? lines[position].indent : 0
      while position < lines.count, lines[position].indent > parentIndent {
        if lines[position].indent < indent
          || style.hasPrefix(">") && lines[position].indent != indent
        {
          throw error("the lines of a block scalar must share one indentation")
        }
        parts.append(
          String(repeating: " ", count: lines[position].indent - indent) + lines[position].text)
        position += 1
      }
      let body = parts.joined(separator: style.hasPrefix(">") ? " " : "\n")
      return .scalar(style.hasSuffix("-") ? body : body + "\n")
    }

    /// `key: value` or `key:` with a plain key; nil for anything else.
    func keyAndValue(_ text: String) -> (String, String)? {
      guard let first = text.first, !"\"'{[#".contains(first), !isItem(text) else { return nil }
      let colon =
        text.range(of: ": ")
        ?? (text.hasSuffix(":") ? text.index(before: text.endIndex)..<text.endIndex : nil)
      guard let colon else { return nil }
      let key = String(text[..<colon.lowerBound])
      guard !key.isEmpty, !key.contains(" ") else { return nil }
      return (key, text[colon.upperBound...].trimmingCharacters(in: .whitespaces))
    }

    /// The text without a trailing ` # comment` outside quotes.
    func stripComment(_ text: String) -> String {
      var quote: Character?
      var previous: Character = " "
      for (offset, character) in text.enumerated() {
        if let open = quote {
          if character == open { quote = nil }
        } else if character == "\"" || character == "'" {
          quote = character
        } else if character == "#", previous == " " {
          return String(text.prefix(offset)).trimmingCharacters(in: .whitespaces)
        }
        previous = character
      }
      return text.trimmingCharacters(in: .whitespaces)
    }

    func inline(_ text: String, line: Int) throws -> YAMLSubset {
      var scanner = FlowScanner(characters: Array(text), line: line)
      let value = try scanner.value(inFlow: false)
      scanner.skipBlanks()
      guard scanner.index == scanner.characters.count else {
        throw scanner.error("unexpected '\(String(scanner.characters[scanner.index...]))'")
      }
      return value
    }
  }

  private struct FlowScanner {
    var characters: [Character]
    var line: Int
    var index = 0

    func error(_ message: String) -> Error { Error(description: "line \(line): \(message)") }

    mutating func skipBlanks() {
      while index < characters.count, characters[index] == " " { index += 1 }
    }

    mutating func value(inFlow: Bool) throws -> YAMLSubset {
      skipBlanks()
      guard index < characters.count else { return .scalar("") }
      switch characters[index] {
      case "{":
        index += 1
        var entries: [String: YAMLSubset] = [:]
        while true {
          skipBlanks()
          guard index < characters.count else { throw error("'}' is missing") }
          if characters[index] == "}" {
            index += 1
            return .mapping(entries)
          }
          guard case .scalar(let key) = try value(inFlow: true), !key.isEmpty else {
            throw error("a key was expected")
          }
          skipBlanks()
          guard index < characters.count, characters[index] == ":" else {
            throw error("':' was expected after '\(key)'")
          }
          index += 1
          guard entries[key] == nil else { throw error("the key '\(key)' is repeated") }
          entries[key] = try value(inFlow: true)
          try separator(closing: "}")
        }
      case "[":
        index += 1
        var items: [YAMLSubset] = []
        while true {
          skipBlanks()
          guard index < characters.count else { throw error("']' is missing") }
          if characters[index] == "]" {
            index += 1
            return .sequence(items)
          }
          items.append(try value(inFlow: true))
          try separator(closing: "]")
        }
      case "\"", "'":
        let quote = characters[index]
        index += 1
        var text = ""
        while true {
          guard index < characters.count else { throw error("an unclosed \(quote)") }
          let character = characters[index]
          index += 1
          if character == quote { return .scalar(text) }
          if character == "\\", quote == "\"", index < characters.count {
            let escaped = characters[index]
            index += 1
            text.append(escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped)
          } else {
            text.append(character)
          }
        }
      default:
        var text = ""
        while index < characters.count {
          let character = characters[index]
          if inFlow, [",", "}", "]"].contains(character) { break }
          if inFlow, character == ":", index + 1 == characters.count || characters[index + 1] == " "
          {
            break
          }
          if !inFlow, character == ":", index + 1 < characters.count, characters[index + 1] == " " {
            throw error("a ': ' inside a plain value; quote it")
          }
          text.append(character)
          index += 1
        }
        return .scalar(text.trimmingCharacters(in: .whitespaces))
      }
    }

    mutating func separator(closing: Character) throws {
      skipBlanks()
      guard index < characters.count else { throw error("'\(closing)' is missing") }
      if characters[index] == "," {
        index += 1
      } else if characters[index] != closing {
        throw error("',' or '\(closing)' was expected")
      }
    }
  }
}
