// deferral-bench: queue throughput, engine throughput and scaling, memory per user count, the
// RNG floor and the SimPy peer, side by side in one run. See Benchmarks/README.md.
import Foundation
import Reports

#if canImport(Glibc)
  import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "_memory-child" {
  // Hidden: one user count of the memory sweep, in its own process.
  guard arguments.count >= 4, let users = Int(arguments[1]), let jobs = Int(arguments[2]) else {
    printError("usage: deferral-bench _memory-child USERS JOBS POLICY [SCENARIO]\n")
    exit(2)
  }
  do {
    let report = try MemoryBench.child(
      users: users, jobs: jobs, policy: arguments[3],
      scenarioPath: arguments.count > 4 ? arguments[4] : nil)
    print(report.line)
    exit(0)
  } catch {
    printError("deferral-bench _memory-child: \(error)\n")
    exit(1)
  }
}

if arguments.first == "_merge-child" {
  // Hidden: one merge of the merge-memory section, in its own process.
  guard arguments.count == 2 else {
    printError("usage: deferral-bench _merge-child FOLDER\n")
    exit(2)
  }
  do {
    print(try MergeMemoryBench.child(folder: arguments[1]))
    exit(0)
  } catch {
    printError("deferral-bench _merge-child: \(error)\n")
    exit(1)
  }
}

if arguments.first == "fit" {
  // The fit of an events log: deferral-bench fit LOG MAP (Benchmarks/README.md).
  guard arguments.count == 3 else {
    printError("usage: deferral-bench fit LOG MAP\n")
    exit(2)
  }
  do {
    try FitBench.run(log: arguments[1], map: arguments[2])
    exit(0)
  } catch {
    printError("deferral-bench fit: \(error)\n")
    exit(1)
  }
}

if arguments.first == "controller" {
  // The shipped controller per screen event and per flush: deferral-bench controller.
  let rows = await ControllerBench.run(repetitions: arguments.contains("--quick") ? 3 : 7)
  exit(ControllerBench.report(rows) ? 0 : 1)
}

do {
  guard let options = try BenchOptions(arguments: arguments) else {
    print(BenchOptions.usage)
    exit(0)
  }
  var bench = BenchRun(options: options)
  try bench.run()
} catch let error as BenchOptions.UsageError {
  printError("deferral-bench: \(error.message)\n\(BenchOptions.usage)\n")
  exit(2)
} catch let error as OutputError {
  printError("deferral-bench: \(error.message)\n")
  exit(error.isUsage ? 2 : 1)
} catch {
  printError("deferral-bench: \(error)\n")
  exit(1)
}
