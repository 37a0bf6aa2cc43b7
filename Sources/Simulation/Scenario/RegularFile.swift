import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file a user named could not be read, in words that say what to do.
public struct FileReadProblem: Error, Sendable, Equatable {
  public var message: String
}

/// Reads a whole regular file of at most `limit` bytes.
///
/// Refuses, with a message and never by blocking or trapping: a missing path, a folder, a FIFO,
/// socket or device (reading one could wait forever), a file over `limit`, and a read error
/// (named by the system's words, e.g. "Permission denied").
public func readRegularFile(_ path: String, limit: Int) -> Result<[UInt8], FileReadProblem> {
  func problem(_ message: String) -> Result<[UInt8], FileReadProblem> {
    .failure(FileReadProblem(message: message))
  }
  var info = stat()
  guard stat(path, &info) == 0 else {
    let code = errno
    if code == ENOENT || code == ENOTDIR {
      return problem("no such file; check the path (the bundled scenarios are in scenarios/)")
    }
    return problem("cannot be read: \(String(cString: strerror(code))); check its permissions")
  }
  switch info.st_mode & S_IFMT {
  case S_IFREG: break
  case S_IFDIR: return problem("is a folder, not a file; name a .json file")
  case S_IFIFO: return problem("is a pipe (FIFO), not a regular file; save it to a file first")
  default: return problem("is not a regular file (a device or socket); name a .json file")
  }
  if Int64(info.st_size) > Int64(limit) {
    return problem("is \(info.st_size) bytes; at most \(limit) bytes (\(limit >> 20) MiB) are read")
  }
  let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
  guard descriptor >= 0 else {
    return problem(
      "cannot be read: \(String(cString: strerror(errno))); check its permissions")
  }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR { continue }
      return problem("cannot be read: \(String(cString: strerror(errno)))")
    }
    if count == 0 { break }
    bytes.append(contentsOf: chunk[..<count])
    if bytes.count > limit { return problem("is over \(limit) bytes; at most \(limit) are read") }
  }
  return .success(bytes)
}
