import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock on an output folder: `flock` on a hidden file beside it
/// (`.NAME.lock`), holding the holder's process id for the message a second command prints.
///
/// The kernel releases the lock when its process dies, however it dies; the file itself is
/// removed by the holder on release, and a waiter that locked a file already removed tries
/// again, so two processes never both believe they hold the lock.
struct _FolderLock {
  let lockPath: String
  let descriptor: Int32

  /// Takes the lock on `folder` (its file in `parent`), waiting for it when `wait`, else
  /// failing at once with the holder's process id.
  init(folder: String, parent: String, name: String, wait: Bool) throws(OutputError) {
    lockPath = (parent as NSString).appendingPathComponent(".\(name).lock")
    while true {
      let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw OutputError(
          message: "output folder '\(folder)' cannot be locked (\(lockPath): "
            + "\(_FileSystem.text(errno))); choose another with --out")
      }
      if flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
        let code = errno
        let holder = Self.holder(descriptor)
        close(descriptor)
        if code == EINTR { continue }
        throw OutputError(
          message: "output folder '\(folder)' is in use by "
            + (holder.map { "process \($0)" } ?? "another deferral-sim command")
            + "; wait for it to finish or choose another folder with --out")
      }
      // The holder before us may have removed the file after we opened it: retry on the new one.
      var opened = stat()
      var current = stat()
      if fstat(descriptor, &opened) == 0, stat(lockPath, &current) == 0,
        opened.st_ino == current.st_ino, opened.st_dev == current.st_dev
      {
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
        return
      }
      close(descriptor)
    }
  }

  /// Removes the lock file and releases the lock.
  func release() {
    unlink(lockPath)
    close(descriptor)
  }

  static func holder(_ descriptor: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 31, 0) }
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[..<count], as: UTF8.self)
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
