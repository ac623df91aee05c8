/* Greedy-by-size planner. Placing the largest buffers first lets smaller ones
 * fill the gaps between them; on chain-like CNNs this reaches the live-bytes
 * lower bound (docs/numerics.md §4.4). O(n^2) in the number of tensors, which
 * is a few hundred for real models. */
#include "planner.h"

#include <stdlib.h>

static int by_size_desc(const void* pa, const void* pb) {
  const tff_plan_entry* a = (const tff_plan_entry*)pa;
  const tff_plan_entry* b = (const tff_plan_entry*)pb;
  if (a->size != b->size) return a->size < b->size ? 1 : -1;
  /* Among equal sizes the one living longest into the run first: with fused
   * activations (fuse.h) a buffer spans two tensors' lifetimes, and placing
   * those first reaches the bound on face_detection_short_range. */
  if (a->last_step != b->last_step) return a->last_step > b->last_step ? -1 : 1;
  if (a->first_step != b->first_step) return a->first_step < b->first_step ? -1 : 1;
  return a->tensor - b->tensor;
}

static int by_offset(const void* pa, const void* pb) {
  const tff_plan_entry* a = *(const tff_plan_entry* const*)pa;
  const tff_plan_entry* b = *(const tff_plan_entry* const*)pb;
  if (a->offset != b->offset) return a->offset < b->offset ? -1 : 1;
  return 0;
}

size_t tff_plan_arena(tff_plan_entry* e, int n) {
  if (n <= 0) return 0;
  qsort(e, (size_t)n, sizeof(*e), by_size_desc);
  const tff_plan_entry** live = (const tff_plan_entry**)malloc(sizeof(*live) * (size_t)n);
  if (live == NULL) return (size_t)-1;
  size_t high = 0;
  for (int i = 0; i < n; ++i) {
    int nl = 0;
    for (int j = 0; j < i; ++j)
      if (e[j].first_step <= e[i].last_step && e[i].first_step <= e[j].last_step) live[nl++] = &e[j];
    qsort(live, (size_t)nl, sizeof(*live), by_offset);
    size_t candidate = 0;
    for (int j = 0; j < nl; ++j) {
      if (live[j]->offset >= candidate + e[i].size) break; /* fits in the gap */
      const size_t end = live[j]->offset + live[j]->size;
      if (end > candidate) candidate = end;
    }
    e[i].offset = candidate;
    if (candidate + e[i].size > high) high = candidate + e[i].size;
  }
  free(live);
  return high;
}
