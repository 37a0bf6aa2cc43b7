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
    var ok = fputs(header + "\n", output) >= 0
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    for item in 0..<itemCount where ok {
      guard let input = fopen(partPath(item), "r") else {
        ok = false
        break
      }
      while true {
        let read = fread(&buffer, 1, buffer.count, input)
        if read == 0 { break }
        if fwrite(buffer, 1, read, output) != read { ok = false }
      }
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

  func discard() {
    try? FileManager.default.removeItem(atPath: scratch)
  }
}
