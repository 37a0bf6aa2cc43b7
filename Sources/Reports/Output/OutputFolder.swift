import Foundation
import Simulation

/// A command's output folder, written as one unit.
///
/// In ``Mode/replace`` (a run, a merge, a sweep) every file goes into a hidden staging folder
/// beside the output folder, and ``commit()`` swaps the staging folder in whole: a reader, a
/// failed run, a full disk or a signal leaves either the previous complete set of files or the
/// new complete set, never a mix, and files the new run does not write (a `report.html` after
/// `--no-report`) are gone with the old set. A lock beside the folder makes a second command
/// into the same folder exit with the holder's process id instead of interleaving files.
///
/// In ``Mode/shared`` (shard partials, which many jobs add to one folder) each file is added
/// on its own, atomically, under the same lock held only while it is written.
///
/// What holds:
/// - Files are created exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`) in a folder this process
///   made: a symbolic link planted at a temporary name is never followed.
/// - An existing output folder is replaced only when every entry in it is a file a deferral-sim
///   command wrote there (listed in its `.deferral-sim-output` marker, or one of the names
///   earlier versions wrote); anything else is refused before any work starts, so a mistyped
///   `--out` never deletes a user's files. Shard partials in it, and folders holding only
///   partials (the Slurm recipe's `parts/`), are kept.
/// - A run killed with `SIGKILL` leaves a hidden staging folder, removed by the next command
///   into the same folder; it never leaves an empty output folder.
///
/// What does not hold: the swap is atomic on Linux (`renameat2(RENAME_EXCHANGE)`) and macOS
/// (`renamex_np(RENAME_SWAP)`); on a file system that supports neither, the old folder is
/// renamed aside first, and a crash between the two renames leaves the old set under a hidden
/// name beside the folder.
public final class OutputFolder: @unchecked Sendable {
  /// How the folder's files are written.
  public enum Mode: Sendable {
    /// The folder is one unit: staged, then swapped in by ``commit()``.
    case replace
    /// Files are added one at a time into a folder other processes may share.
    case shared
  }

  /// The output folder as given.
  public let path: String
  public let mode: Mode
  /// Where ``write(_:to:)`` puts files before ``commit()``: the staging folder in
  /// ``Mode/replace``, the output folder itself in ``Mode/shared``.
  public var writingPath: String { staging ?? path }

  let parent: String
  let name: String
  var staging: String?
  var lock: _FolderLock?
  var createdParents: [String] = []
  var finished = false
  /// Serialises writing, committing and discarding (a signal may discard from another thread).
  let state = NSRecursiveLock()

  /// Checks `path` and prepares it for writing, before any simulation starts.
  ///
  /// - Throws: ``OutputError`` with `isUsage` for a path that cannot name a folder (empty, or
  ///   under a file); plain ``OutputError`` for a folder in use, not writable, or holding files
  ///   deferral-sim did not write.
  /// - Parameter alsoOwns: file names beyond the tool's own outputs that this command writes
  ///   (a benchmark's CSV files): such a file, when the folder's marker lists it, is the
  ///   command's to replace, as the tool's own outputs are.
  public init(
    path: String, mode: Mode = .replace, alsoOwns: Set<String> = []
  ) throws(OutputError) {
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard !trimmed.isEmpty else {
      throw OutputError(message: "'--out' needs a folder name, not an empty string", isUsage: true)
    }
    guard !trimmed.utf8.contains(0) else {
      throw OutputError(message: "'--out' must not contain a NUL character", isUsage: true)
    }
    self.path = trimmed
    self.mode = mode
    // A shared folder may be named `.` or `..`: its lock goes beside its real path.
    var located = trimmed
    if mode == .shared, let real = realpath(trimmed, nil) {
      located = String(cString: real)
      free(real)
    }
    let ns = located as NSString
    let last = ns.lastPathComponent
    guard last != ".", last != "..", last != "/" else {
      throw OutputError(
        message: "'\(trimmed)' names a folder deferral-sim cannot replace as a unit; "
          + "give a new folder's name with --out, e.g. --out results/my-run", isUsage: true)
    }
    name = last
    let directory = _FileSystem.parent(of: located)
    parent = directory.isEmpty ? "." : directory
    switch mode {
    case .shared:
      try _FileSystem.checkCanCreate(folder: trimmed)
    case .replace:
      createdParents = try _FileSystem.makeFolders(parent, for: trimmed)
      do {
        lock = try _FolderLock(folder: trimmed, parent: parent, name: name, wait: false)
        try _FileSystem.removeStale(in: parent, name: name)
        try Self.checkReplaceable(trimmed, alsoOwns: alsoOwns)
        staging = try _FileSystem.makeStaging(in: parent, name: name)
        _ActiveFolders.shared.register(self)
      } catch {
        lock?.release()
        lock = nil
        _FileSystem.removeEmpty(createdParents)
        throw error
      }
    }
  }

  deinit {
    if !finished { discard() }
  }

  /// Writes `contents` to `name` in the folder: into the staging folder until ``commit()``
  /// (``Mode/replace``), or atomically into the output folder (``Mode/shared``).
  public func write(_ contents: String, to name: String) throws(OutputError) {
    try write(Array(contents.utf8), to: name)
  }

  /// Writes `bytes` to `name`, as ``write(_:to:)-(String,_)`` does.
  public func write(_ bytes: [UInt8], to name: String) throws(OutputError) {
    switch mode {
    case .replace:
      precondition(!name.contains("/") && !name.hasPrefix("."), "Bad output file name '\(name)'")
      state.lock()
      defer { state.unlock() }
      guard let staging, !finished else {
        throw OutputError(message: "'\(path)' was not written: the command was stopped")
      }
      let target = (staging as NSString).appendingPathComponent(name)
      do throws(OutputError) {
        try _FileSystem.writeExclusive(bytes, to: target, shownAs: displayPath(name))
      } catch {
        discard()
        throw error
      }
    case .shared:
      try writeTogether([(name, bytes)], removing: [])
    }
  }

  /// A file of the staged set written piece by piece (``Mode/replace`` only): for an output
  /// that grows with the work (a study's `robust.csv`, a row block per world), so the command
  /// need not hold it whole. It becomes part of the folder at ``commit()`` like any file.
  public final class Stream {
    let descriptor: Int32
    let shown: String
    var closed = false

    init(descriptor: Int32, shown: String) {
      self.descriptor = descriptor
      self.shown = shown
    }

    deinit { if !closed { close(descriptor) } }

    /// Appends `text`; a short write (a full disk) is an error.
    public func append(_ text: String) throws(OutputError) {
      let failure = Array(text.utf8).withUnsafeBytes { _FileSystem.writeAll(descriptor, $0) }
      if failure != 0 {
        throw OutputError(message: "cannot write '\(shown)': \(_FileSystem.text(failure))")
      }
    }

    /// Flushes the file to disk and closes it.
    public func finish() throws(OutputError) {
      guard !closed else { return }
      closed = true
      var failure: Int32 = 0
      if fsync(descriptor) != 0, errno != EINVAL { failure = errno }
      if close(descriptor) != 0, failure == 0 { failure = errno }
      if failure != 0 {
        throw OutputError(message: "cannot write '\(shown)': \(_FileSystem.text(failure))")
      }
    }
  }

  /// Starts the staged file `name`, to be written piece by piece (``Stream``).
  public func stream(to name: String) throws(OutputError) -> Stream {
    precondition(mode == .replace, "A stream writes into a staged folder")
    precondition(!name.contains("/") && !name.hasPrefix("."), "Bad output file name '\(name)'")
    state.lock()
    defer { state.unlock() }
    guard let staging, !finished else {
      throw OutputError(message: "'\(path)' was not written: the command was stopped")
    }
    let target = (staging as NSString).appendingPathComponent(name)
    let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw OutputError(message: "cannot write '\(displayPath(name))': \(_FileSystem.text(errno))")
    }
    return Stream(descriptor: descriptor, shown: displayPath(name))
  }

  /// Adds the files `files` to the folder as one unit (``Mode/shared``): every one is written
  /// to a temporary file first, and only when all are written whole are they renamed into
  /// place, so a full disk or a refusal leaves the folder's earlier files as they were, never
  /// a new file beside an old one of another run. `removing` names files of an earlier write
  /// that the new set replaces by nothing (a `fit-report.html` after `--no-report`); each is
  /// removed after the renames, and only when it is a regular file.
  ///
  /// The one file-output rule: a target that exists must be a regular file; a symbolic link,
  /// a folder, a FIFO, a device or a socket at a target's name is refused (exit 2), never
  /// replaced.
  public func writeTogether(
    _ files: [(name: String, bytes: [UInt8])], removing: [String]
  ) throws(OutputError) {
    precondition(mode == .shared, "writeTogether adds files to a shared folder")
    for file in files {
      precondition(
        !file.name.isEmpty && !file.name.contains("/") && file.name != "." && file.name != "..",
        "Bad output file name '\(file.name)'")
    }
    try _FileSystem.makeFolders(path, keep: true)
    let held = try _FolderLock(folder: path, parent: parent, name: self.name, wait: true)
    defer { held.release() }
    var temporaries: [String] = []
    defer { for temporary in temporaries { unlink(temporary) } }
    for file in files {
      let target = (path as NSString).appendingPathComponent(file.name)
      try Self.checkFileTarget(target, shownAs: displayPath(file.name))
      _FileSystem.removeDeadTemporaries(of: file.name, in: path)
      let temporary = (path as NSString).appendingPathComponent(".\(file.name).tmp-\(getpid())")
      try _FileSystem.writeExclusive(file.bytes, to: temporary, shownAs: displayPath(file.name))
      temporaries.append(temporary)
    }
    for (file, temporary) in zip(files, temporaries) {
      let target = (path as NSString).appendingPathComponent(file.name)
      if rename(temporary, target) != 0 {
        let code = errno
        throw OutputError(
          message: "cannot write '\(displayPath(file.name))': \(_FileSystem.text(code))")
      }
    }
    temporaries = []
    for name in removing where _FileSystem.kind(displayPath(name)) == .regular {
      unlink(displayPath(name))
    }
  }

  /// The one file-output rule, for a file about to be replaced: nothing, or a regular file.
  static func checkFileTarget(_ target: String, shownAs shown: String) throws(OutputError) {
    let what: String
    switch _FileSystem.kind(target) {
    case .missing, .regular: return
    case .symbolicLink: what = "a symbolic link"
    case .folder: what = "a folder"
    case .other: what = "not a regular file (a device, FIFO or socket)"
    }
    throw OutputError(
      message: "'\(TerminalText.quoted(shown))' is \(what); deferral-sim writes only regular "
        + "files and never replaces anything else: give a new file's path", isUsage: true)
  }

  /// Checks a file path given by the user (`fit --out`, `merge --partial-out`) before any work:
  /// it must name a file (not empty, no trailing `/`, not `.` or `..`), whatever is there must
  /// be a regular file, and it must not be one of `inputs` (a command never overwrites what
  /// it reads). Every refusal is bad input (exit 2).
  public static func checkFileOutput(
    _ path: String, option: String, inputs: [String]
  ) throws(OutputError) {
    guard !path.isEmpty else {
      throw OutputError(
        message: "'\(option)' needs a file name, not an empty string", isUsage: true)
    }
    guard !path.utf8.contains(0) else {
      throw OutputError(message: "'\(option)' must not contain a NUL character", isUsage: true)
    }
    let last = (path as NSString).lastPathComponent
    guard !path.hasSuffix("/"), last != ".", last != ".." else {
      throw OutputError(
        message: "'\(option) \(TerminalText.quoted(path))' names a folder; give a file's name, "
          + "e.g. \(option) \(TerminalText.quoted(path.hasSuffix("/") ? path : path + "/"))"
          + "out.json", isUsage: true)
    }
    try checkFileTarget(path, shownAs: path)
    var target = stat()
    guard stat(path, &target) == 0 else { return }
    for input in inputs {
      var info = stat()
      if stat(input, &info) == 0, info.st_dev == target.st_dev, info.st_ino == target.st_ino {
        throw OutputError(
          message: "'\(option) \(TerminalText.quoted(path))' is one of this command's inputs "
            + "('\(TerminalText.quoted(input))'); it would be overwritten: give another file",
          isUsage: true)
      }
    }
  }

  /// Makes the staged files the output folder's contents, whole (``Mode/replace``); a no-op in
  /// ``Mode/shared``. After it, the folder holds exactly the files written (plus any shard
  /// partials it held before).
  public func commit() throws(OutputError) {
    state.lock()
    defer { state.unlock() }
    guard mode == .replace, let staging, !finished else { return }
    do throws(OutputError) {
      let files = (_FileSystem.entries(of: staging) ?? []).filter { !$0.hasPrefix(".") }
      try _FileSystem.write(marker: files.sorted(), in: staging)
      try _FileSystem.swapIn(staging: staging, to: path, parent: parent, name: name)
    } catch {
      discard()
      throw error
    }
    finished = true
    self.staging = nil
    _ActiveFolders.shared.unregister(self)
    lock?.release()
    lock = nil
  }

  /// Abandons the staged files: the output folder keeps what it held before. Safe to call more
  /// than once, and from the signal handler.
  public func discard() {
    state.lock()
    defer { state.unlock() }
    guard !finished else { return }
    finished = true
    if let staging { _FileSystem.removeTree(staging) }
    staging = nil
    _FileSystem.removeEmpty(createdParents)
    _ActiveFolders.shared.unregister(self)
    lock?.release()
    lock = nil
  }

  func displayPath(_ file: String) -> String {
    (path as NSString).appendingPathComponent(file)
  }

  /// Refuses a folder holding anything a deferral-sim command did not write there: the one
  /// output-folder rule. A folder is the tool's only through its marker: an entry counts as
  /// the tool's when ``_FileSystem/isOwnEntry(_:in:listed:)`` says so (a regular file the
  /// marker lists, the marker, shard partials); anything else inside, whatever its name or
  /// type (a user's `summary.csv` without a marker, a folder named `report.html`, a hidden
  /// file, a link), refuses the folder before any work starts (exit 1).
  static func checkReplaceable(_ path: String, alsoOwns: Set<String> = []) throws(OutputError) {
    switch _FileSystem.kind(path) {
    case .missing: return
    case .folder: break
    case .symbolicLink:
      throw OutputError(
        message: "'\(TerminalText.quoted(path))' is a symbolic link; deferral-sim replaces its "
          + "output folder whole and never through a link: give the folder itself with --out",
        isUsage: true)
    case .regular, .other:
      throw OutputError(
        message: "'\(TerminalText.quoted(path))' is a file, not a folder; choose another output "
          + "folder with --out")
    }
    guard let entries = _FileSystem.entries(of: path) else {
      throw OutputError(
        message: "output folder '\(TerminalText.quoted(path))' cannot be read: "
          + "\(_FileSystem.text(errno)); choose another with --out")
    }
    let listed = _FileSystem.markerEntries(in: path)
    let foreign = entries.filter {
      !_FileSystem.isOwnEntry($0, in: path, listed: listed, alsoOwns: alsoOwns)
    }
    guard foreign.isEmpty else {
      let shown = foreign.sorted().prefix(3).map { entry -> String in
        let kind = _FileSystem.kind((path as NSString).appendingPathComponent(entry))
        let what =
          switch kind {
          case .folder: " (a folder)"
          case .symbolicLink: " (a symbolic link)"
          case .other: " (not a regular file)"
          case .regular, .missing: ""
          }
        return "'\(TerminalText.quoted(entry))'\(what)"
      }
      throw OutputError(
        message: "output folder '\(TerminalText.quoted(path))' holds files deferral-sim did not "
          + "write (\(shown.joined(separator: ", "))"
          + (foreign.count > 3 ? " and \(foreign.count - 3) more" : "")
          + (listed == nil ? "; it has no .deferral-sim-output marker" : "")
          + "); a run replaces its folder whole, so choose another folder with --out or move them")
    }
  }

  /// The folder part of `path`, `""` for a bare name (Foundation's
  /// `deletingLastPathComponent` traps on a one-character path on Linux).
  public static func parent(of path: String) -> String {
    _FileSystem.parent(of: path)
  }

  /// Discards every folder still staged: called when the process is told to stop.
  public static func discardAll() {
    _ActiveFolders.shared.discardAll()
  }
}

/// A file or folder could not be written: a failure while running (exit code 1), or a path
/// that cannot be an output folder at all (`isUsage`, exit code 2).
public struct OutputError: Error, Sendable {
  public var message: String
  public var isUsage = false

  public init(message: String, isUsage: Bool = false) {
    self.message = message
    self.isUsage = isUsage
  }
}

/// The folders being staged in this process, for the signal handler and the tool's exit.
/// Held weakly: a folder abandoned by a failing command is discarded by its `deinit`.
final class _ActiveFolders: @unchecked Sendable {
  static let shared = _ActiveFolders()
  private let mutex = NSLock()
  private var folders: [ObjectIdentifier: _Weak] = [:]

  struct _Weak {
    weak var folder: OutputFolder?
  }

  func register(_ folder: OutputFolder) {
    mutex.lock()
    folders[ObjectIdentifier(folder)] = _Weak(folder: folder)
    mutex.unlock()
  }

  func unregister(_ folder: OutputFolder) {
    mutex.lock()
    folders[ObjectIdentifier(folder)] = nil
    mutex.unlock()
  }

  func discardAll() {
    mutex.lock()
    let all = folders.values.compactMap(\.folder)
    folders = [:]
    mutex.unlock()
    for folder in all { folder.discard() }
  }
}
