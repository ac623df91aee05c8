/* qs8-rsum kernels against a direct wrapping sum (which checks the scalar
 * twin) and the scalar twin, over every row length through two 16-byte
 * blocks and a tail, then around the kernels' steps (16, 32 steps of 8)
 * and one long row, with weights at -128 and 127; a guard after the sums. */
#include "ukernel_test.h"
#include "ukernels/qs8-rsum/qs8-rsum.h"

/* 1 when cfg's sums of 3 rows of k weights (random, or all -128 or 127 by
 * v) are the reference's. */
static int check(int ci, size_t k, int v) {
  const tff_qs8_rsum_config* cfg = &tff_qs8_rsum_configs[ci];
  const size_t n = 3;
  int8_t* w = malloc(n * k);
  for (size_t q = 0; q < n * k; ++q)
    w[q] = v == 0 ? (int8_t)rnd_range(-128, 127) : (v == 1 ? -128 : 127);
  int32_t want[3], got[4];
  got[n] = 0x5a5a5a5a;
  if (ci == 0)
    direct_row_sums(n, k, w, want);
  else
    tff_qs8_rsum_configs[0].fn(n, k, w, want);
  cfg->fn(n, k, w, got);
  int ok = 1;
  for (size_t c = 0; c <= n && ok; ++c) {
    const int32_t e = c < n ? want[c] : 0x5a5a5a5a;
    if (got[c] != e) {
      printf("FAIL %s: k=%zu row %zu: got %d want %d\n", cfg->name, k, c, got[c], e);
      ok = 0;
    }
  }
  free(w);
  return ok;
}

int main(void) {
  int failed = 0;
  const size_t ks[] = {47, 48, 49, 255, 256, 257, 1000, 70001};
  for (int ci = 0; ci < tff_qs8_rsum_num_configs; ++ci) {
    const tff_qs8_rsum_config* cfg = &tff_qs8_rsum_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    int cases = 0, ok = 1;
    for (size_t k = 0; k <= 35 && ok; ++k)
      for (int v = 0; v < 3 && ok; ++v, ++cases) ok = check(ci, k, v);
    for (size_t ki = 0; ki < sizeof(ks) / sizeof(ks[0]) && ok; ++ki)
      for (int v = 0; v < 3 && ok; ++v, ++cases) ok = check(ci, ks[ki], v);
    if (ok) printf("PASS %s (%d cases)\n", cfg->name, cases);
    failed += !ok;
  }
  return failed != 0;
}
