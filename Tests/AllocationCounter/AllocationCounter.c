// Counts a process's heap allocations, for the test that a run allocates nothing per event
// (AllocationCountTests). Loaded with LD_PRELOAD, it takes the place of the C allocator's entry
// points, counts each call that allocates, and forwards it to glibc's own allocator (its
// __libc_* functions), so memory is handled exactly as without it. At exit it writes the count,
// as one decimal line, to the file named by ALLOCATION_COUNT_FILE (when set).
//
// Linux (glibc) only: on other systems the library is empty.
#include "AllocationCounter.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

// (__GLIBC__ comes from the C library's headers, included above.)
#if defined(__linux__) && defined(__GLIBC__)
#include <stdatomic.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_ulong allocations;

static void count_one(void) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

unsigned long allocation_counter_count(void) { return atomic_load(&allocations); }

void *malloc(size_t size) {
  count_one();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  count_one();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  count_one();
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count_one();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  count_one();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return 12;  // ENOMEM
  *result = pointer;
  return 0;
}

__attribute__((destructor)) static void write_count(void) {
  const char *path = getenv("ALLOCATION_COUNT_FILE");
  if (path == NULL) return;
  FILE *file = fopen(path, "w");
  if (file == NULL) return;
  fprintf(file, "%lu\n", allocation_counter_count());
  fclose(file);
}
#else
unsigned long allocation_counter_count(void) { return 0; }
#endif
