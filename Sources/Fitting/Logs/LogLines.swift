import Simulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a log file line by line in fixed-size chunks, so memory does not grow with the file.
/// Line ends are `\n` or `\r\n`; a last line without an end is still a line. Each line is
/// checked to be valid UTF-8 before it is handed on.
enum _LogLines {
  /// The longest line read: memory stays bounded on a file without line breaks.
  static let maximumLineLength = 1 << 20

  /// Calls `body(lineNumber, bytes)` for every line of `path` (1-based numbers).
  ///
  /// Refuses a folder, a FIFO or a device (it may never end) and a line over
  /// ``maximumLineLength`` bytes.
  ///
  /// - Complexity: O(file size); memory O(chunk + ``maximumLineLength``).
  static func forEach(
    in path: String, _ body: (Int, ArraySlice<UInt8>) throws(FitInputError) -> Void
  ) throws(FitInputError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw FitInputError(
        file: path,
        message: "cannot open the log (\(String(cString: strerror(errno)))); check the path")
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR:
      throw FitInputError(
        file: path,
        message: "is a folder, not a log; name the log file itself"
          + folderHint(path, holding: "events.csv", what: "a run's events log"))
    default:
      // A FIFO or a device (`/dev/zero`) may never end: only a file has a size to stream.
      throw FitInputError(
        file: path,
        message: "is not a regular file (a pipe, FIFO or device); save the log to a file first")
    }
    guard let file = fopen(path, "rb") else {
      throw FitInputError(
        file: path,
        message: "cannot open the log (\(String(cString: strerror(errno)))); check the path")
    }
    defer { fclose(file) }
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    var pending: [UInt8] = []
    var number = 0
    func emit(_ line: ArraySlice<UInt8>) throws(FitInputError) {
      number += 1
      var line = line
      if line.last == 0x0D { line.removeLast() }
      if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
      if let offset = invalidUTF8(line) {
        throw FitInputError(
          file: path, line: number,
          message: "invalid UTF-8 at byte \(offset + 1) of the line; re-export the log as "
            + "UTF-8 (for example `iconv -f LATIN1 -t UTF-8`)")
      }
      try body(number, line)
    }
    while true {
      let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if read == 0 { break }
      var start = 0
      for position in 0..<read where chunk[position] == 0x0A {
        if pending.isEmpty {
          try emit(chunk[start..<position])
        } else {
          pending.append(contentsOf: chunk[start..<position])
          try emit(pending[...])
          pending.removeAll(keepingCapacity: true)
        }
        start = position + 1
      }
      pending.append(contentsOf: chunk[start..<read])
      if pending.count > maximumLineLength {
        throw FitInputError(
          file: path, line: number + 1,
          message: "the line is longer than \(maximumLineLength >> 20) MiB (no line break in it?); "
            + "a screen view is one short line: check the file is a log of the map's format")
      }
    }
    if !pending.isEmpty { try emit(pending[...]) }
  }

  /// For a folder named where a file is expected: ` ('FOLDER/NAME': WHAT)` when the folder
  /// holds a regular file `name` (the file a run writes there), else nothing.
  static func folderHint(_ folder: String, holding name: String, what: String) -> String {
    let inside = (folder.hasSuffix("/") ? folder : folder + "/") + name
    var info = stat()
    guard stat(inside, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return "" }
    return " ('\(inside)': \(what))"
  }

  /// The offset of the first byte that breaks UTF-8 in `bytes`, or `nil`.
  static func invalidUTF8(_ bytes: ArraySlice<UInt8>) -> Int? {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return index - bytes.startIndex
      }
      guard index + length <= bytes.endIndex else { return index - bytes.startIndex }
      let second = bytes[index + 1]
      guard second >= low, second <= high else { return index - bytes.startIndex }
      for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
        return index - bytes.startIndex
      }
      index += length
    }
    return nil
  }
}
