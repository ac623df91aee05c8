/* The model reader's bump arena (csrc/runtime/arena.c), run by
 * tests/test_arena.py.
 *   test_arena ok            blocks of many sizes: aligned, disjoint, zeroed by
 *                            zalloc, the arena reusable after release; exit 0
 *   test_arena overflow N    writes one byte past an N-byte block: a build
 *                            with AddressSanitizer must abort there */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

static const size_t kSizes[] = {0, 1, 5, 15, 16, 17, 100, 4096, 16383, 16384, 16385,
                                40000, 200000, 262144, 262145, 1 << 20, 3, 7, 64};
enum { kRounds = 3, kCount = sizeof(kSizes) / sizeof(kSizes[0]) };

static int fail(const char* what, size_t size) {
  printf("FAIL: %s (block of %zu bytes)\n", what, size);
  return 1;
}

static int check_ok(void) {
  tff_arena a;
  memset(&a, 0, sizeof(a));
  for (int pass = 0; pass < 2; ++pass) { /* the second after a release */
    unsigned char* blocks[kRounds * kCount];
    for (int i = 0; i < kRounds * kCount; ++i) {
      const size_t n = kSizes[i % kCount];
      blocks[i] = (unsigned char*)(i % 2 ? tff_arena_zalloc(&a, n, 1) : tff_arena_alloc(&a, n));
      if (blocks[i] == NULL) return fail("NULL", n);
      if ((uintptr_t)blocks[i] % 16 != 0) return fail("not 16-byte aligned", n);
      for (size_t k = 0; k < n; ++k)
        if (i % 2 && blocks[i][k] != 0) return fail("zalloc not zeroed", n);
      memset(blocks[i], (i * 37 + 1) & 0xff, n);
    }
    for (int i = 0; i < kRounds * kCount; ++i) {
      const size_t n = kSizes[i % kCount];
      for (size_t k = 0; k < n; ++k)
        if (blocks[i][k] != ((i * 37 + 1) & 0xff)) return fail("overwritten by a neighbour", n);
    }
    tff_arena_release(&a);
    if (a.chunks != NULL || a.left != 0) return fail("release left chunks", 0);
  }
  if (tff_arena_alloc(&a, SIZE_MAX) != NULL) return fail("absurd size allocated", SIZE_MAX);
  if (tff_arena_zalloc(&a, SIZE_MAX / 4, 8) != NULL) return fail("n * size overflowed", 0);
  tff_arena_release(&a);
  puts("ok");
  return 0;
}

static int overflow(size_t n) {
  tff_arena a;
  memset(&a, 0, sizeof(a));
  tff_arena_alloc(&a, 24); /* n is not the chunk's first block */
  volatile unsigned char* p = (unsigned char*)tff_arena_alloc(&a, n);
  if (p == NULL) return 2;
  p[n] = 1;
  printf("wrote past a %zu-byte block unnoticed\n", n);
  tff_arena_release(&a);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "ok") == 0) return check_ok();
  if (argc == 3 && strcmp(argv[1], "overflow") == 0) return overflow(strtoull(argv[2], NULL, 10));
  fprintf(stderr, "usage: test_arena ok | overflow N\n");
  return 2;
}
