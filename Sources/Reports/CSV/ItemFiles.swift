import Foundation

/// Per-work-item files joined in item order into one file, atomically (a failed run leaves
/// none): what keeps a streamed log (`messages.csv`, `events.csv`) independent of `--jobs`.
struct _ItemFiles: Sendable {
  let folder: String
  let name: String
  let header: String
  let scratch: String
  let joiner = _ItemJoiner()
  /// The most bytes of items' texts kept in memory while they wait for an earlier item
  /// (``deliver(_:item:)``); a text beyond it goes to its part file.
  let waitingLimit: Int

  init(
    folder: String, name: String, header: String, waitingLimit: Int = 64 << 20
  ) throws(OutputError) {
    self.waitingLimit = waitingLimit
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

  /// The joined file while it grows, inside the scratch folder (``discard()`` removes it).
  var joinedPath: String { (scratch as NSString).appendingPathComponent("joined") }

  /// Item `item`'s file is complete (closed): it and every complete one after it in item
  /// order are appended to the joined file and removed now, while their pages are still in
  /// memory, so a log of gigabytes is not written to disk twice and the join overlaps the
  /// items still running. Optional: ``finish(itemCount:)`` joins whatever is left.
  func itemDone(_ item: Int) {
    joiner.lock.lock()
    defer { joiner.lock.unlock() }
    joiner.done.insert(item)
    appendReady()
  }

  /// Item `item`'s whole text, made in memory (its rows, without the header): appended to the
  /// joined file at once when every earlier item is joined, so its bytes are copied once and
  /// no part file is made; else kept in memory for its turn while the waiting texts hold at
  /// most ``waitingLimit`` bytes, else written to its part file. Leaves `bytes` empty.
  func deliver(_ bytes: inout [UInt8], item: Int) {
    joiner.lock.lock()
    defer { joiner.lock.unlock() }
    guard joiner.failure == 0 else { return }
    if item == joiner.next {
      guard openOutput(), write(bytes, to: joiner.output!) else { return }
      bytes.removeAll(keepingCapacity: true)
      joiner.next += 1
      appendReady()
    } else if joiner.waitingBytes + bytes.count <= waitingLimit {
      joiner.waitingBytes += bytes.count
      joiner.waiting[item] = bytes
      bytes = []
    } else {
      guard let part = fopen(partPath(item), "w") else {
        joiner.failure = errno
        return
      }
      let written = write(bytes, to: part)
      if fclose(part) != 0, written { joiner.failure = errno == 0 ? EIO : errno }
      guard written else { return }
      bytes.removeAll(keepingCapacity: true)
      joiner.done.insert(item)
    }
  }

  /// Writes `bytes` to `file`; on failure records it and returns `false` (the joiner's lock
  /// held).
  func write(_ bytes: [UInt8], to file: UnsafeMutablePointer<FILE>) -> Bool {
    let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    // Flushed at once: the joined file holds every appended item (as a sent part file does).
    guard written == bytes.count, fflush(file) == 0 else {
      joiner.failure = errno == 0 ? EIO : errno
      return false
    }
    return true
  }

  /// Opens the joined file with its header, if not open yet; on failure records it and
  /// returns `false` (the joiner's lock held).
  func openOutput() -> Bool {
    guard joiner.output == nil else { return true }
    guard let output = fopen(joinedPath, "w") else {
      joiner.failure = errno
      return false
    }
    joiner.output = output
    guard fputs(header + "\n", output) >= 0, fflush(output) == 0 else {
      joiner.failure = errno == 0 ? EIO : errno
      return false
    }
    return true
  }

  /// Appends the complete items that come next in order, from memory or from their part
  /// files (the joiner's lock held).
  func appendReady() {
    while joiner.failure == 0 {
      if let text = joiner.waiting.removeValue(forKey: joiner.next) {
        joiner.waitingBytes -= text.count
        guard openOutput(), write(text, to: joiner.output!) else { return }
        joiner.next += 1
        continue
      }
      guard joiner.done.contains(joiner.next) else { return }
      // (What was written through the output's buffer is flushed: the part's bytes follow.)
      guard openOutput() else { return }
      let path = partPath(joiner.next)
      guard let input = fopen(path, "r") else {
        joiner.failure = errno
        return
      }
      let appended = Self.append(input, to: joiner.output!, buffer: &joiner.buffer)
      fclose(input)
      guard appended else {
        joiner.failure = errno == 0 ? EIO : errno
        return
      }
      unlink(path)
      joiner.done.remove(joiner.next)
      joiner.next += 1
    }
  }

  func finish(itemCount: Int) throws(OutputError) {
    let final = (folder as NSString).appendingPathComponent(name)
    joiner.lock.lock()
    // Every item is complete now: join those not joined yet (from their part files unless
    // their text waits in memory).
    for item in joiner.next..<max(joiner.next, itemCount) where joiner.waiting[item] == nil {
      joiner.done.insert(item)
    }
    appendReady()
    if joiner.failure == 0, joiner.output == nil, itemCount == 0 {
      // No item: the header alone.
      joiner.output = fopen(joinedPath, "w")
      if let output = joiner.output {
        if fputs(header + "\n", output) < 0 { joiner.failure = errno == 0 ? EIO : errno }
      } else {
        joiner.failure = errno
      }
    }
    var code = joiner.failure
    if let output = joiner.output, fclose(output) != 0, code == 0 { code = errno }
    joiner.output = nil
    joiner.lock.unlock()
    if code == 0, rename(joinedPath, final) != 0 { code = errno }
    discard()
    if code != 0 {
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

/// How far ``_ItemFiles`` has joined its items: the next item to append, the complete ones
/// waiting for an earlier one, the joined file open for appending, the first failure (an
/// `errno`). Used under its lock only.
final class _ItemJoiner: @unchecked Sendable {
  let lock = NSLock()
  var output: UnsafeMutablePointer<FILE>?
  var next = 0
  var done = Set<Int>()
  /// Items' texts delivered in memory (``_ItemFiles/deliver(_:item:)``) before their turn, and
  /// their bytes.
  var waiting: [Int: [UInt8]] = [:]
  var waitingBytes = 0
  var failure: Int32 = 0
  var buffer: [UInt8] = []
}
