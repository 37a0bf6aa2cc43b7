import Foundation

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
  public init(path: String, mode: Mode = .replace) throws(OutputError) {
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
    let directory = ns.deletingLastPathComponent
    parent = directory.isEmpty ? "." : directory
    switch mode {
    case .shared:
      try _FileSystem.checkCanCreate(folder: trimmed)
    case .replace:
      createdParents = try _FileSystem.makeFolders(parent, for: trimmed)
      do {
        lock = try _FolderLock(folder: trimmed, parent: parent, name: name, wait: false)
        try _FileSystem.removeStale(in: parent, name: name)
        try Self.checkReplaceable(trimmed)
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
    precondition(!name.contains("/") && !name.hasPrefix("."), "Bad output file name '\(name)'")
    switch mode {
    case .replace:
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
      try _FileSystem.makeFolders(path, keep: true)
      let held = try _FolderLock(folder: path, parent: parent, name: self.name, wait: true)
      defer { held.release() }
      let temporary = (path as NSString).appendingPathComponent(".\(name).tmp-\(getpid())")
      try _FileSystem.writeExclusive(bytes, to: temporary, shownAs: displayPath(name))
      if rename(temporary, (path as NSString).appendingPathComponent(name)) != 0 {
        let code = errno
        unlink(temporary)
        throw OutputError(message: "cannot write '\(displayPath(name))': \(_FileSystem.text(code))")
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

  /// Refuses a folder holding anything a deferral-sim command did not write there.
  static func checkReplaceable(_ path: String) throws(OutputError) {
    var info = stat()
    guard stat(path, &info) == 0 else { return }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
      throw OutputError(
        message: "'\(path)' is a file, not a folder; choose another output folder with --out")
    }
    guard let entries = _FileSystem.entries(of: path) else {
      throw OutputError(
        message: "output folder '\(path)' cannot be read: \(_FileSystem.text(errno)); "
          + "choose another with --out")
    }
    let listed = _FileSystem.markerEntries(in: path)
    let foreign = entries.filter { entry in
      !(listed?.contains(entry) ?? false) && !_FileSystem.isOwnName(entry)
        && !_FileSystem.isPartialTree((path as NSString).appendingPathComponent(entry))
    }
    guard foreign.isEmpty else {
      let shown = foreign.sorted().prefix(3).map { "'\($0)'" }.joined(separator: ", ")
      throw OutputError(
        message: "output folder '\(path)' holds files deferral-sim did not write (\(shown)"
          + (foreign.count > 3 ? " and \(foreign.count - 3) more" : "")
          + "); a run replaces its folder whole, so choose another folder with --out or move them")
    }
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
