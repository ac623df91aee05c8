/* The static arena planner: greedy by size, first fitting gap (TFLite Micro's
 * GreedyMemoryPlanner), over lifetimes taken from execution order. */
#ifndef TFLITE_FAST_RUNTIME_PLANNER_H_
#define TFLITE_FAST_RUNTIME_PLANNER_H_

#include <stddef.h>

#define TFF_ARENA_ALIGN 64
/* Bytes past the arena end that SIMD loads may over-read (never written). */
#define TFF_ARENA_TAIL 64

typedef struct tff_plan_entry {
  int tensor;       /* tensor index */
  size_t size;      /* bytes reserved: tensor bytes rounded up to 64 */
  size_t offset;    /* from the arena base, 64-aligned */
  int first_step;   /* first plan step that uses it (inclusive) */
  int last_step;    /* last plan step that uses it (inclusive) */
} tff_plan_entry;

/* Assigns `offset` to each entry so that entries whose step intervals
 * intersect never overlap; returns the arena size (without the tail). */
size_t tff_plan_arena(tff_plan_entry* entries, int n);

#endif /* TFLITE_FAST_RUNTIME_PLANNER_H_ */
