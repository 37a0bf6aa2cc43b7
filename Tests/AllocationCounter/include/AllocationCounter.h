// An allocation counter for tests, loaded into a process with LD_PRELOAD (Linux only; empty
// elsewhere). See AllocationCounter.c.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H
/// The allocations counted so far in this process.
unsigned long allocation_counter_count(void);
#endif
