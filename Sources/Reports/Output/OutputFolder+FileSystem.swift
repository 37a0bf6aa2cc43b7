import Foundation
import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX calls behind ``OutputFolder``, with messages in plain words (`strerror`), never
/// Foundation's "error 512".
enum _FileSystem {
  /// The marker file listing what a command wrote into its folder.
  static let markerName = ".deferral-sim-output"
  /// Every name a deferral-sim command writes into an output folder. A marker lists the files
  /// of its folder; a name it lists counts as the tool's only when it is one of these and a
  /// regular file, so a marker edited to name a user's file does not give that file away.
  /// (`recommended-policy.json` is the run folder's policy export, from `export-policy`'s work.)
  static let outputNames: Set<String> = [
    "summary.csv", "paired.csv", "by-screen.csv", "by-reason.csv", "by-segment.csv",
    "replications.csv", "decision.csv", "manifest.json", "report.html", "messages.csv",
    "events.csv", "events-map.json", "sweep.csv", "pareto.csv", "robust.csv",
    "robust-summary.csv", "robust-tornado.csv", "recommended-policy.json", "tune.csv",
    "tuned-policy.json", "tuned-scenario-policy.json", "verification.csv",
  ]

  static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// Writes every byte of `raw` to `descriptor`, retrying after a signal; returns 0, or the
  /// `errno` of the write that failed (a short write on a full disk included).
  static func writeAll(_ descriptor: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < raw.count {
      let count = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
      if count < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += count
    }
    return 0
  }

  /// The folder part of `path` (`""` for a bare name), as `NSString.deletingLastPathComponent`
  /// gives it, without calling it: on Linux it traps on a one-character path (`"f"`).
  static func parent(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    var folder = trimmed[..<slash]
    while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
    return folder.isEmpty ? "/" : String(folder)
  }

  /// What an entry of an output folder is, for the message that refuses it.
  enum _EntryKind {
    case regular, folder, symbolicLink, other, missing
  }

  static func kind(_ path: String) -> _EntryKind {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .missing }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .regular
    case S_IFDIR: return .folder
    case S_IFLNK: return .symbolicLink
    default: return .other
    }
  }

  /// Whether the entry `entry` of the output folder `folder` is something a deferral-sim
  /// command wrote there: the marker, a file its marker lists (``outputNames``, or the
  /// command's own `alsoOwns`), a shard partial, a folder of partials, or a shard's temporary
  /// file; each a regular file (or, for a folder of partials, a real folder), never a link, a
  /// device or a folder named like a file.
  static func isOwnEntry(
    _ entry: String, in folder: String, listed: Set<String>?, alsoOwns: Set<String> = []
  ) -> Bool {
    let path = (folder as NSString).appendingPathComponent(entry)
    switch kind(path) {
    case .regular:
      if entry == markerName || isPartial(entry) || isPartialTemporary(entry) { return true }
      return (outputNames.contains(entry) || alsoOwns.contains(entry))
        && (listed?.contains(entry) ?? false)
    case .folder:
      return isPartialTree(path)
    case .symbolicLink, .other, .missing:
      return false
    }
  }

  /// `partial-K-of-N.json` or `partial-FIRST-LAST-of-N.json` (digits only): shard results, kept
  /// when the folder is replaced; so are a tune's stage files, `tune-stage-S-part-K-of-N.json`
  /// and `tune-state-S.json`.
  static func isPartial(_ entry: String) -> Bool {
    let digits = { (part: Substring) in
      !part.isEmpty && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
    }
    if entry.hasPrefix("tune-"), entry.hasSuffix(".json") {
      let parts = entry.dropFirst("tune-".count).dropLast(".json".count)
        .split(separator: "-", omittingEmptySubsequences: false)
      if parts.count == 2 { return parts[0] == "state" && digits(parts[1]) }
      return parts.count == 6 && parts[0] == "stage" && digits(parts[1]) && parts[2] == "part"
        && digits(parts[3]) && parts[4] == "of" && digits(parts[5])
    }
    guard entry.hasPrefix("partial-"), entry.hasSuffix(".json") else { return false }
    let middle = entry.dropFirst("partial-".count).dropLast(".json".count)
    let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
    switch parts.count {
    case 3: return digits(parts[0]) && parts[1] == "of" && digits(parts[2])
    case 4: return digits(parts[0]) && digits(parts[1]) && parts[2] == "of" && digits(parts[3])
    default: return false
    }
  }

  /// `.PARTIAL.tmp-PID`: the temporary file a shard (or `merge --partial-out`) writes before
  /// renaming it, left behind only by a process killed with `SIGKILL`.
  static func isPartialTemporary(_ entry: String) -> Bool {
    guard entry.hasPrefix("."), let range = entry.range(of: ".tmp-", options: .backwards) else {
      return false
    }
    let pid = entry[range.upperBound...]
    return !pid.isEmpty && pid.allSatisfy { $0.isASCII && $0.isNumber }
      && isPartial(String(entry[entry.index(after: entry.startIndex)..<range.lowerBound]))
  }

  /// Removes the temporary files `.NAME.tmp-PID` of `name` in `folder` whose process is gone
  /// (killed with `SIGKILL` mid-write); the caller holds the folder's lock.
  static func removeDeadTemporaries(of name: String, in folder: String) {
    let prefix = ".\(name).tmp-"
    for entry in entries(of: folder) ?? [] where entry.hasPrefix(prefix) {
      // This process's own pid can only be a leftover of a killed process that had it.
      guard let pid = Int32(entry.dropFirst(prefix.count)),
        pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH)
      else { continue }
      let path = (folder as NSString).appendingPathComponent(entry)
      if kind(path) == .regular { unlink(path) }
    }
  }

  /// The entries of the folder at `path` (no `.`/`..`), or `nil` when it does not exist.
  static func entries(of path: String) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }

  /// The names listed in the folder's marker, or `nil` without one.
  static func markerEntries(in path: String) -> Set<String>? {
    let marker = (path as NSString).appendingPathComponent(markerName)
    // Only a regular file of a sane size is a marker: never a link, a FIFO or a huge file.
    guard kind(marker) == .regular,
      case .success(let data) = readRegularFile(marker, limit: 1 << 20)
    else { return nil }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    return Set(lines.filter { !$0.hasPrefix("#") })
  }

  /// Writes the marker listing `names` into `folder`.
  static func write(marker names: [String], in folder: String) throws(OutputError) {
    let text =
      "# Written by deferral-sim: this folder is one unit, replaced whole by the next run.\n"
      + names.joined(separator: "\n") + "\n"
    let target = (folder as NSString).appendingPathComponent(markerName)
    try writeExclusive(Array(text.utf8), to: target, shownAs: target)
  }

  /// Creates `path` and its missing parents; returns the folders it created, deepest last.
  @discardableResult
  static func makeFolders(
    _ path: String, keep: Bool = false, for output: String? = nil
  ) throws(OutputError) -> [String] {
    let shown = output ?? path
    var missing: [String] = []
    var current = path
    while !current.isEmpty, current != "/", current != "." {
      var info = stat()
      if stat(current, &info) == 0 {
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
          throw OutputError(
            message: "cannot create output folder '\(shown)': '\(current)' is a file, not a "
              + "folder; choose another path with --out")
        }
        break
      }
      missing.append(current)
      current = parent(of: current)
    }
    var created: [String] = []
    for folder in missing.reversed() {
      if mkdir(folder, 0o755) != 0, errno != EEXIST {
        let code = errno
        removeEmpty(created)
        throw OutputError(
          message: "cannot create output folder '\(shown)': \(folder): \(text(code))",
          isUsage: false)
      }
      created.append(folder)
    }
    return keep ? [] : created
  }

  /// Checks that `folder` exists as a writable folder or could be created.
  static func checkCanCreate(folder: String) throws(OutputError) {
    var current = folder
    while true {
      var info = stat()
      if stat(current, &info) == 0 {
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
          throw OutputError(
            message: "cannot create output folder '\(folder)': '\(current)' is a file, not a "
              + "folder; choose another path with --out")
        }
        guard access(current, W_OK | X_OK) == 0 else {
          throw OutputError(
            message: "output folder '\(folder)' is not writable (\(current): "
              + "\(text(errno))); choose another with --out")
        }
        return
      }
      let up = parent(of: current)
      if up.isEmpty || up == current { return }
      current = up
    }
  }

  /// Removes the folders in `created` (deepest last) that are still empty.
  static func removeEmpty(_ created: [String]) {
    for folder in created.reversed() where rmdir(folder) != 0 { break }
  }

  /// Creates a fresh staging folder for `name` in `parent`.
  static func makeStaging(in parent: String, name: String) throws(OutputError) -> String {
    for attempt in 0..<100 {
      let candidate = (parent as NSString).appendingPathComponent(
        ".\(name).staging-\(getpid())-\(attempt)")
      if mkdir(candidate, 0o755) == 0 { return candidate }
      let code = errno
      if code != EEXIST {
        throw OutputError(
          message: "output folder '\((parent as NSString).appendingPathComponent(name))' cannot "
            + "be written: \(parent): \(text(code)); choose another with --out")
      }
    }
    throw OutputError(message: "cannot create a staging folder in '\(parent)'")
  }

  /// Removes staging and set-aside folders a killed command left for `name` (the caller holds
  /// the folder's lock, so no live command owns them).
  static func removeStale(in parent: String, name: String) throws(OutputError) {
    for entry in entries(of: parent) ?? []
    where entry.hasPrefix(".\(name).staging-") || entry.hasPrefix(".\(name).old-") {
      removeTree((parent as NSString).appendingPathComponent(entry))
    }
  }

  /// Writes `bytes` to a new file at `target`, never through a symbolic link, and reports a
  /// short write (a full disk) as an error.
  static func writeExclusive(
    _ bytes: [UInt8], to target: String, shownAs shown: String
  ) throws(OutputError) {
    let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw OutputError(message: "cannot write '\(shown)': \(text(errno))")
    }
    var failure = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    if failure == 0, fsync(descriptor) != 0, errno != EINVAL { failure = errno }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure != 0 {
      unlink(target)
      throw OutputError(message: "cannot write '\(shown)': \(text(failure))")
    }
  }

  /// Replaces the folder `name` in `parent` by `staging`, carrying over shard partials.
  static func swapIn(
    staging: String, to path: String, parent: String, name: String
  ) throws(OutputError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if rename(staging, path) != 0 {
        throw OutputError(message: "cannot create '\(path)': \(text(errno))")
      }
      return
    }
    // Partials are inputs, not outputs: link them into the new set before the swap, so they
    // exist in one folder or the other at every instant.
    try linkPartials(from: path, into: staging)
    if exchange(staging, path) {
      removeTree(staging)
      return
    }
    let aside = (parent as NSString).appendingPathComponent(".\(name).old-\(getpid())")
    guard rename(path, aside) == 0 else {
      throw OutputError(message: "cannot replace '\(path)': \(text(errno))")
    }
    guard rename(staging, path) == 0 else {
      let code = errno
      _ = rename(aside, path)
      throw OutputError(message: "cannot replace '\(path)': \(text(code))")
    }
    removeTree(aside)
  }

  /// Whether `path` is a folder holding only shard partials and folders of them (as the
  /// Slurm recipe's `OUT/parts/` and `OUT/tree/`), which a replaced folder keeps.
  static func isPartialTree(_ path: String) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR,
      let names = entries(of: path)
    else { return false }
    return names.allSatisfy { name in
      let child = (path as NSString).appendingPathComponent(name)
      var childInfo = stat()
      guard lstat(child, &childInfo) == 0 else { return false }
      if (childInfo.st_mode & S_IFMT) == S_IFDIR { return isPartialTree(child) }
      return (childInfo.st_mode & S_IFMT) == S_IFREG
        && (isPartial(name) || isPartialTemporary(name) || name == markerName)
    }
  }

  /// Hard-links every shard partial of `folder` (and of its partial folders) into the same
  /// place under `staging`.
  static func linkPartials(from folder: String, into staging: String) throws(OutputError) {
    for entry in entries(of: folder) ?? [] {
      let from = (folder as NSString).appendingPathComponent(entry)
      let to = (staging as NSString).appendingPathComponent(entry)
      var info = stat()
      guard lstat(from, &info) == 0 else { continue }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        guard isPartialTree(from) else { continue }
        if mkdir(to, 0o755) != 0, errno != EEXIST {
          throw OutputError(message: "cannot keep '\(from)': \(text(errno))")
        }
        try linkPartials(from: from, into: to)
      } else if (info.st_mode & S_IFMT) == S_IFREG, isPartial(entry) {
        if link(from, to) != 0 {
          throw OutputError(message: "cannot keep '\(from)': \(text(errno))")
        }
      }
    }
  }

  /// Swaps two folders atomically, where the system can; `false` when it cannot.
  static func exchange(_ first: String, _ second: String) -> Bool {
    #if canImport(Glibc)
      typealias RenameAt2 =
        @convention(c) (
          Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
        ) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
        return false
      }
      let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
      let renameExchange: UInt32 = 2
      return renameat2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0
    #elseif canImport(Darwin)
      return renamex_np(first, second, UInt32(RENAME_SWAP)) == 0
    #else
      return false
    #endif
  }

  /// Removes a folder this process created, and everything in it (symbolic links are removed,
  /// never followed).
  static func removeTree(_ path: String) {
    var own = stat()
    guard lstat(path, &own) == 0 else { return }
    guard (own.st_mode & S_IFMT) == S_IFDIR else {
      // A symbolic link (planted where a staging folder would be): remove the link only.
      unlink(path)
      return
    }
    for entry in entries(of: path) ?? [] {
      let child = (path as NSString).appendingPathComponent(entry)
      var info = stat()
      if lstat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
        removeTree(child)
      } else {
        unlink(child)
      }
    }
    rmdir(path)
  }
}
