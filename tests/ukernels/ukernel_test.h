/* Shared by the ukernel test programs: a deterministic RNG, ISA gating and
 * failure counting. Each program compares every kernel this build compiled
 * against its family's scalar twin and prints one line per kernel:
 *   PASS <name> (<cases> cases) | SKIP <name>: needs <isa> | FAIL <name>: ...
 * and exits non-zero when anything failed. */
#ifndef TFF_TESTS_UKERNEL_TEST_H_
#define TFF_TESTS_UKERNEL_TEST_H_

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static inline uint32_t rnd(void) {
  g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(g_rng >> 33);
}
static inline int32_t rnd_range(int32_t lo, int32_t hi) { /* inclusive */
  return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}
static inline float rnd_unit(void) { return (float)(rnd() & 0xffffff) / 16777216.0f; }

/* 1 when this CPU runs kernels of `isa`; else prints the SKIP line. */
static inline int isa_runs(uint32_t isa, const char* name) {
  static int inited;
  if (!inited) {
    const char* bad = NULL;
    tff_cpu_init(&bad);
    inited = 1;
  }
  if ((tff_cpu_detected() & isa) == isa) return 1;
  printf("SKIP %s: needs %s, which this CPU lacks\n", name, tff_isa_name(isa));
  return 0;
}

/* sums[c] = Σ_i w[c][i] of a row-major [n][k] int8 matrix, wrapping. */
static inline void direct_row_sums(size_t n, size_t k, const int8_t* w, int32_t* sums) {
  for (size_t c = 0; c < n; ++c) {
    uint32_t s = 0;
    for (size_t i = 0; i < k; ++i) s += (uint32_t)w[c * k + i];
    sums[c] = (int32_t)s;
  }
}

#define GUARD 0x5a
#define GUARD_BYTES 16

/* The lengths of the float vector tests: every n up to 4W + 3 of the widest
 * kernel (avx2, W = 8), so each count of 4W blocks, single vectors and tail
 * elements runs for every W, then longer runs. */
enum { TEST_SHORT_NS = 4 * 8 + 4, TEST_NUM_NS = TEST_SHORT_NS + 8 };
static inline size_t test_n(int i) {
  static const size_t longer[] = {40, 63, 64, 65, 127, 128, 129, 1000};
  return i < TEST_SHORT_NS ? (size_t)i : longer[i - TEST_SHORT_NS];
}

/* n floats at `off` (0..3: every alignment) after one value f, with f in
 * the gap before them and after them. As an input, f = NaN turns a result
 * NaN when a kernel reads outside [0, n) (the qemu runs have no ASan); as
 * an output, a fence that still holds f says nothing was written outside. */
static inline float* fenced(size_t n, size_t off, float f) {
  float* b = malloc((off + n + 2) * sizeof(float));
  for (size_t i = 0; i < off + n + 2; ++i) b[i] = f;
  return b + 1 + off;
}
static inline int fence_holds(const float* p, size_t n, size_t off, float f) {
  for (size_t i = 1; i <= off + 1; ++i)
    if (memcmp(p - i, &f, sizeof(f)) != 0) return 0;
  return memcmp(p + n, &f, sizeof(f)) == 0;
}
static inline void fenced_free(float* p, size_t off) { free(p - 1 - off); }

#endif /* TFF_TESTS_UKERNEL_TEST_H_ */
