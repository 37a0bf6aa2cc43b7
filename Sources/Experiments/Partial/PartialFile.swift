import Foundation
import Reports
import Simulation

/// A partial result file of either kind, told apart by its `format`.
public enum PartialFile: Sendable {
  case run(PartialResult)
  case sweep(SweepPartial)

  private struct Header: Decodable {
    var format: String
    var formatVersion: Int
    enum CodingKeys: String, CodingKey {
      case format, formatVersion = "format_version"
    }
  }

  /// The largest partial `merge` reads: a partial grows with replications, policies and a
  /// sweep's points, not with users (a 20,000-user run of 10 replications: 2.5 MB a shard).
  public static let maximumFileSize = 256 << 20

  static let expected =
    "give files written by 'deferral-sim run --shard K/N', 'deferral-sim sweep --shard K/N', "
    + "'deferral-sim robust --shard K/N' or 'deferral-sim merge --partial-out'"

  /// Reads a partial result written by `run --shard K/N`, `sweep --shard K/N` or
  /// `merge --partial-out`, and checks everything it can on its own (see
  /// ``MergeablePartial/check(path:)``): a file that passes cannot make a merge trap.
  public static func read(contentsOf path: String) throws(PartialError) -> PartialFile {
    let data: Data
    // The same bounded reader as every input: a regular file of at most the limit, or a
    // clear refusal (a folder, a FIFO, a device, an oversized file), never an abort.
    switch readRegularFile(path, limit: maximumFileSize) {
    case .success(let bytes): data = Data(bytes)
    case .failure(let problem):
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
        throw PartialError(message: "\(path): is a folder; give it as the only argument of merge")
      }
      throw PartialError(message: "\(path): \(problem.message)")
    }
    let file = try decode(data, path: path)
    switch file {
    case .run(let partial): try partial.check(path: path)
    case .sweep(let partial): try partial.check(path: path)
    }
    return file
  }

  /// Whether the file at `path` is meant as a partial result (its top-level `format` names
  /// one), so `validate` checks it as `merge` would instead of as a scenario.
  public static func isPartial(contentsOf path: String) -> Bool {
    guard case .success(let bytes) = readRegularFile(path, limit: maximumFileSize),
      let header = try? JSONDecoder().decode(Header.self, from: Data(bytes))
    else { return false }
    return [PartialResult.formatName, SweepPartial.formatName, SweepPartial.robustFormatName]
      .contains(header.format)
  }

  /// Decodes a partial result from `data` without checking it (``read(contentsOf:)`` checks):
  /// refuses what is not JSON, another format or version, and values of the wrong type, with
  /// the JSON path of the problem.
  public static func decode(_ data: Data, path: String) throws(PartialError) -> PartialFile {
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: data)
    } catch {
      throw PartialError(
        message: "\(path): not a deferral-sim partial result (\(describe(error))); \(expected)")
    }
    let version: Int
    switch header.format {
    case PartialResult.formatName: version = PartialResult.formatVersion
    case SweepPartial.formatName, SweepPartial.robustFormatName:
      version = SweepPartial.formatVersion
    default:
      throw PartialError(
        message: "\(path): format '\(header.format)' is not a partial result; \(expected)")
    }
    guard header.formatVersion == version else {
      throw PartialError(
        message: "\(path): format version \(header.formatVersion) of '\(header.format)'; this "
          + "deferral-sim reads version \(version): merge with the version that wrote it")
    }
    do {
      if header.format != PartialResult.formatName {
        return .sweep(try JSONDecoder().decode(SweepPartial.self, from: data))
      }
      return .run(try JSONDecoder().decode(PartialResult.self, from: data))
    } catch {
      var what = describe(error)
      if what == "not JSON", (try? JSONSerialization.jsonObject(with: data)) != nil {
        // Foundation reports a count that is not a whole number (`1.5`) as "not valid JSON",
        // without a path: the file is JSON, a value in it is not what the format holds.
        what =
          "valid JSON, but a value is not what the partial format holds (a fractional or "
          + "out-of-range number where a count goes, such as 1.5)"
      }
      throw PartialError(
        message: "\(path): \(what) (an edited or truncated file?); write it again "
          + "with the same command")
    }
  }

  /// `error` in plain words, with the JSON path it happened at (`$.tallies[0][1].issued[2]`).
  static func describe(_ error: Error) -> String {
    func path(_ keys: [CodingKey]) -> String {
      keys.reduce("$") { text, key in
        key.intValue.map { "\(text)[\($0)]" } ?? "\(text).\(key.stringValue)"
      }
    }
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])): missing"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return "\(path(context.codingPath)): expected \(shortName(type))"
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        return "not JSON"
      }
      return "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  static func shortName(_ type: Any.Type) -> String {
    switch "\(type)" {
    case "Int", "Int64": "an integer"
    case "Double": "a number"
    case "String": "a string"
    default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
    }
  }

  /// The SHA-256 of `partial` as the tool writes it (JSON, sorted keys, no spaces) with an
  /// empty `content_sha256`.
  ///
  /// It is what `content_sha256` holds, and `merge` recomputes it from what it read, so an
  /// edit anywhere in the file (a count, a name, the coverage) that does not also recompute
  /// the digest is refused. It protects against careless edits, truncation, corruption and
  /// files of other tools; it does not protect against anyone who edits on purpose and
  /// recomputes the digest (it is not a signature: there is no secret), nor against a shard
  /// that computed wrong tallies before writing them.
  public static func contentDigest<Partial: MergeablePartial>(_ partial: Partial) throws -> String {
    var copy = partial
    copy.contentSHA256 = ""
    return SHA256.hex(try encoder.encode(copy))
  }

  /// The file's text: `partial` with its content digest, and a final newline.
  static func encode<Partial: MergeablePartial>(_ partial: Partial) throws -> String {
    var copy = partial
    copy.contentSHA256 = try contentDigest(partial)
    return String(decoding: try encoder.encode(copy), as: UTF8.self) + "\n"
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// The name a sweep or study takes from its file (`consent-hold.json`: `consent-hold`), for
  /// its default folder and its partials, checked by the scenario-name rule before any work:
  /// `merge` refuses a partial whose name breaks it, so the run must not shard under it.
  public static func studyName(file path: String, what: String) throws(ScenarioErrors) -> String {
    let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    guard isValidName(name) else {
      throw ScenarioErrors(
        file: path,
        problems: [
          .init(
            path: "",
            message: "the file's name '\(name.prefix(80))' names the \(what) (its folder and "
              + "partials) and must be 1 to 64 ASCII letters, digits, '_', '-' or '.', starting "
              + "with a letter or digit; rename the file, e.g. my-\(what).json")
        ])
    }
    return name
  }

  /// Whether `name` follows the scenario-name rule: 1 to 64 ASCII letters, digits, `_`, `-`
  /// or `.`, starting with a letter or digit (so never `..`, a slash or an absolute path).
  static func isValidName(_ name: String) -> Bool {
    let scalars = Array(name.unicodeScalars)
    func allowed(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || (!first && (scalar == "_" || scalar == "-" || scalar == "."))
    }
    return !scalars.isEmpty && scalars.count <= 64 && allowed(scalars[0], first: true)
      && scalars.dropFirst().allSatisfy { allowed($0, first: false) }
  }

  /// The partial files `arguments` name: a file as given; a folder, every
  /// `partial-*-of-N.json` in it, in name order.
  public static func paths(_ arguments: [String]) throws(PartialError) -> [String] {
    try files(arguments, matching: isPartialFileName) { folder in
      "\(folder): no partial-*-of-N.json file in this folder; give the folder the shards wrote "
        + "(their --out), or the partial files themselves"
    }
  }

  /// The files `arguments` name: a file as given; a folder, the files in it whose names
  /// `matches` accepts, in name order. A folder that cannot be listed, or holds none of them
  /// (`none(folder)` says what to do), is refused.
  static func files(
    _ arguments: [String], matching matches: (String) -> Bool, none: (String) -> String
  ) throws(PartialError) -> [String] {
    var paths: [String] = []
    for argument in arguments {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder),
        isFolder.boolValue
      else {
        paths.append(argument)
        continue
      }
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: argument)
      } catch {
        throw PartialError(message: "\(argument): cannot list this folder; check its permissions")
      }
      let found = names.filter(matches).sorted()
      guard !found.isEmpty else { throw PartialError(message: none(argument)) }
      paths += found.map { (argument as NSString).appendingPathComponent($0) }
    }
    return paths
  }

  /// Whether `name` reads `partial-*-of-N.json`, as the shards and the recipes name them.
  static func isPartialFileName(_ name: String) -> Bool {
    guard name.hasPrefix("partial-"), name.hasSuffix(".json"),
      let of = name.range(of: "-of-", options: .backwards),
      of.lowerBound > name.index(name.startIndex, offsetBy: 7)
    else { return false }
    let count = name[of.upperBound..<name.index(name.endIndex, offsetBy: -5)]
    return !count.isEmpty && count.allSatisfy { $0.isASCII && $0.isNumber }
  }
}

/// A partial result that cannot be read or merged: bad input, exit code 2.
public struct PartialError: Error, Sendable {
  public var message: String
}
