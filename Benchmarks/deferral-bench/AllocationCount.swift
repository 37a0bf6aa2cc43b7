import Simulation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Counts the Swift heap allocations made while a body runs, through the Swift runtime's
/// `_swift_allocObject` hook (a function pointer `swift_allocObject` calls through when it is
/// not the default): every array, dictionary and string buffer, class instance and box. What
/// it does *not* count: C allocations (GSL's histograms and generators, `malloc` called
/// directly) and stack promotions (those are no allocation). `nil` when the hook is not found
/// (another runtime). Install it from one thread; the count itself is atomic.
enum AllocationCount {
  typealias Allocate = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

  static let count = Atomic<Int>(0)
  nonisolated(unsafe) static var original: Allocate?

  /// `body`'s result and the allocations it made (on every thread).
  static func counting<T>(_ body: () throws -> T) rethrows -> (T, allocations: Int?) {
    #if canImport(Glibc)
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "_swift_allocObject")
      else { return (try body(), nil) }
      let hook = symbol.assumingMemoryBound(to: Allocate?.self)
      guard let installed = hook.pointee else { return (try body(), nil) }
      original = installed
      count.store(0, ordering: .relaxed)
      hook.pointee = { metadata, size, alignmentMask in
        AllocationCount.count.add(1, ordering: .relaxed)
        return AllocationCount.original!(metadata, size, alignmentMask)
      }
      defer { hook.pointee = installed }
      let result = try body()
      return (result, count.load(ordering: .relaxed))
    #else
      return (try body(), nil)
    #endif
  }
}
