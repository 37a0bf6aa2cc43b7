import CGSL
import Simulation

/// Minimises a function of two variables with GSL's Nelder–Mead simplex
/// (`gsl_multimin_fminimizer_nmsimplex2`).
enum _Minimizer {
  /// The objective, reached from GSL's C callback through `params`.
  final class _Box {
    let function: ([Double]) -> Double
    init(_ function: @escaping ([Double]) -> Double) { self.function = function }
  }

  /// The point of least `function` found from `start` (steps of `step` to begin with), and
  /// the value there. Non-finite values count as +∞, so the search stays in the domain.
  static func minimize(
    _ function: @escaping ([Double]) -> Double, from start: [Double], step: Double = 0.5,
    tolerance: Double = 1e-7, iterations: Int = 2000
  ) -> (point: [Double], value: Double) {
    _GSLErrors.quiet()
    let dimension = start.count
    let box = _Box(function)
    let context = Unmanaged.passRetained(box)
    defer { context.release() }
    var objective = gsl_multimin_function(
      f: { vector, params in
        guard let vector, let params else { return .infinity }
        let box = Unmanaged<_Minimizer._Box>.fromOpaque(params).takeUnretainedValue()
        let point = (0..<vector.pointee.size).map { gsl_vector_get(vector, $0) }
        let value = box.function(point)
        return value.isFinite ? value : .greatestFiniteMagnitude
      }, n: dimension, params: context.toOpaque())
    let x = gsl_vector_alloc(dimension)!
    let steps = gsl_vector_alloc(dimension)!
    defer {
      gsl_vector_free(x)
      gsl_vector_free(steps)
    }
    for index in 0..<dimension {
      gsl_vector_set(x, index, start[index])
      gsl_vector_set(steps, index, step)
    }
    let minimizer = gsl_multimin_fminimizer_alloc(cgsl_multimin_nmsimplex2(), dimension)!
    defer { gsl_multimin_fminimizer_free(minimizer) }
    gsl_multimin_fminimizer_set(minimizer, &objective, x, steps)
    for _ in 0..<iterations {
      if gsl_multimin_fminimizer_iterate(minimizer) != GSL_SUCCESS { break }
      let size = gsl_multimin_fminimizer_size(minimizer)
      if gsl_multimin_test_size(size, tolerance) == GSL_SUCCESS { break }
    }
    let best = gsl_multimin_fminimizer_x(minimizer)!
    return ((0..<dimension).map { gsl_vector_get(best, $0) }, minimizer.pointee.fval)
  }
}

/// GSL's default error handler aborts the process; the fit's special functions may be asked
/// for values out of range (a far tail) and must return NaN instead, which the fit handles.
enum _GSLErrors {
  static let off: Void = { _ = gsl_set_error_handler_off() }()
  static func quiet() { _ = off }
}
