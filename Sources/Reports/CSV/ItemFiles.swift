import Foundation

/// Per-work-item files joined in item order into one file, atomically (a failed run leaves
/// none): what keeps a streamed log (`messages.csv`, `events.csv`) independent of `--jobs`.
struct _ItemFiles: Sendable {
  let folder: String
  let name: String
  let header: String
  let scratch: String

  init(folder: String, name: String, header: String) throws(OutputError) {
    self.folder = folder
    self.name = name
    self.header = header
    scratch = (folder as NSString).appendingPathComponent(".\(name)-\(getpid()).parts")
    do {
      try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    } catch {
      throw OutputError(message: "cannot create '\(scratch)': \(error.localizedDescription)")
    }
  }

  func partPath(_ item: Int) -> String {
    (scratch as NSString).appendingPathComponent(String(format: "item-%08d.csv", item))
  }

  func open(_ item: Int) -> UnsafeMutablePointer<FILE>? { fopen(partPath(item), "w") }

  func finish(itemCount: Int) throws(OutputError) {
    let final = (folder as NSString).appendingPathComponent(name)
    let temporary = (folder as NSString).appendingPathComponent(".\(name).tmp-\(getpid())")
    guard let output = fopen(temporary, "w") else {
      throw OutputError(message: "cannot write '\(temporary)': \(String(cString: strerror(errno)))")
    }
    var ok = fputs(header + "\n", output) >= 0 && fflush(output) == 0
    var buffer: [UInt8] = []
    for item in 0..<itemCount where ok {
      guard let input = fopen(partPath(item), "r") else {
        ok = false
        break
      }
      ok = Self.append(input, to: output, buffer: &buffer)
      fclose(input)
    }
    ok = fclose(output) == 0 && ok
    if ok, rename(temporary, final) != 0 { ok = false }
    let code = errno
    discard()
    if !ok {
      unlink(temporary)
      throw OutputError(message: "cannot write '\(final)': \(String(cString: strerror(code)))")
    }
  }

  /// Copies the rest of `input` to the end of `output` (whose buffer is empty): by
  /// `sendfile`, inside the kernel (a log of gigabytes is not copied through this process
  /// twice), else by reads and writes through `buffer`. Returns whether every byte was written.
  static func append(
    _ input: UnsafeMutablePointer<FILE>, to output: UnsafeMutablePointer<FILE>,
    buffer: inout [UInt8]
  ) -> Bool {
    let source = fileno(input)
    let target = fileno(output)
    #if os(Linux)
      var info = stat()
      if fstat(source, &info) == 0 {
        var left = Int(info.st_size)
        while left > 0 {
          let sent = sendfile(target, source, nil, min(left, 1 << 30))
          if sent < 0, errno == EINTR { continue }
          // Not supported here (or nothing sent): copy the rest through the buffer.
          if sent <= 0 { break }
          left -= sent
        }
      }
    #endif
    if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: 1 << 20) }
    while true {
      let read = buffer.withUnsafeMutableBytes { Foundation.read(source, $0.baseAddress, $0.count) }
      if read < 0, errno == EINTR { continue }
      if read < 0 { return false }
      if read == 0 { return true }
      var written = 0
      while written < read {
        let wrote = buffer.withUnsafeBytes {
          Foundation.write(target, $0.baseAddress! + written, read - written)
        }
        if wrote < 0, errno == EINTR { continue }
        if wrote <= 0 { return false }
        written += wrote
      }
    }
  }

  func discard() {
    try? FileManager.default.removeItem(atPath: scratch)
  }
}
