// The parts of the GNU Scientific Library that deferral-sim uses.
// Installed by Debian's libgsl-dev; found through pkg-config ("gsl").
#ifndef DEFERRAL_SIM_CGSL_SHIM_H
#define DEFERRAL_SIM_CGSL_SHIM_H

#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_rstat.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_qrng.h>

// GSL exposes generator types as mutable globals, which Swift 6 rejects as shared mutable
// state. These accessors read them once; the values never change after the library loads.
static inline const gsl_rng_type *cgsl_rng_type_mt19937(void) { return gsl_rng_mt19937; }
static inline const gsl_rng_type *cgsl_rng_type_taus2(void) { return gsl_rng_taus2; }
static inline const gsl_rng_type *cgsl_rng_type_ranlxs0(void) { return gsl_rng_ranlxs0; }
static inline const gsl_rng_type *cgsl_rng_type_gfsr4(void) { return gsl_rng_gfsr4; }
static inline const gsl_rng_type *cgsl_rng_type_ranlux(void) { return gsl_rng_ranlux; }
// The Nelder-Mead simplex minimiser `deferral-sim fit` uses (the same kind of global).
static inline const gsl_multimin_fminimizer_type *cgsl_multimin_nmsimplex2(void) {
  return gsl_multimin_fminimizer_nmsimplex2;
}
// The Sobol quasi-random sequence `deferral-sim robust` draws worlds from.
static inline const gsl_qrng_type *cgsl_qrng_sobol(void) { return gsl_qrng_sobol; }

#endif
