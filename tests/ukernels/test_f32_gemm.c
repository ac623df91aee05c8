/* f32-gemm kernels against a direct sequential sum (which checks the scalar
 * twins and their packing) and against the scalar twin of their kind (mul
 * then add, or fused; each kernel with its own packing), bit for bit, over tile edges of m, n, k and taps, with and
 * without bias, several clamps (one infinite) and NaN inputs; guard floats
 * after every output row. */
#include <math.h>
#include <string.h>

#include "ukernel_test.h"
#include "ukernels/f32-gemm/f32-gemm.h"

typedef struct {
  size_t m, n, k, ks;
  const float** a; /* [m][ks] */
  float* wt;       /* [n][ks][k] */
  float* bias;     /* [n] or NULL */
  tff_f32_minmax_params p;
} Case;

static void direct(const Case* t, int fused, float* c, size_t stride) {
  for (size_t i = 0; i < t->m; ++i)
    for (size_t j = 0; j < t->n; ++j) {
      float acc = t->bias ? t->bias[j] : 0.0f;
      for (size_t s = 0; s < t->ks; ++s)
        for (size_t q = 0; q < t->k; ++q) {
          const float x = t->a[i * t->ks + s][q], w = t->wt[(j * t->ks + s) * t->k + q];
          acc = fused ? fmaf(x, w, acc) : acc + x * w;
        }
      c[i * stride + j] = tff_f32_clamp(acc, t->p.min, t->p.max);
    }
}

static void produce(const tff_f32_gemm_config* cfg, const Case* t, float* c, size_t stride) {
  float* packed = malloc(tff_f32_gemm_packed_size(t->n, t->ks, t->k, cfg->nr) * sizeof(float));
  cfg->pack(t->n, t->ks, t->k, cfg->nr, t->wt, packed);
  tff_f32_gemm_pack_bias(t->n, t->ks, t->k, cfg->nr, t->bias, packed);
  for (size_t i = 0; i < t->m; i += cfg->mr)
    cfg->fn(t->m - i < cfg->mr ? t->m - i : cfg->mr, t->n, t->k, t->ks, t->a + i * t->ks, 0,
            packed, c + i * stride, stride * sizeof(float), &t->p);
  free(packed);
}

static int compare(const char* name, const Case* t, const float* got, const float* want,
                   size_t stride) {
  for (size_t i = 0; i < t->m; ++i)
    for (size_t j = 0; j < stride; ++j) {
      uint32_t g, e;
      memcpy(&g, &got[i * stride + j], 4);
      memcpy(&e, &want[i * stride + j], 4);
      if (j >= t->n) e = 0x5a5a5a5au;
      if (g != e) {
        printf("FAIL %s: m=%zu n=%zu k=%zu ks=%zu row %zu col %zu: got %08x want %08x%s\n", name,
               t->m, t->n, t->k, t->ks, i, j, g, e, j < t->n ? "" : " (guard overwritten)");
        return 1;
      }
    }
  return 0;
}

int main(void) {
  const tff_f32_gemm_config* scalar = &tff_f32_gemm_configs[0];
  int failed = 0;
  /* Every config, then the fma twin (the last index). */
  for (int ci = 0; ci <= tff_f32_gemm_num_configs; ++ci) {
    const tff_f32_gemm_config* cfg =
        ci < tff_f32_gemm_num_configs ? &tff_f32_gemm_configs[ci] : &tff_f32_gemm_fma_twin;
    const int twin = cfg == scalar || cfg == &tff_f32_gemm_fma_twin;
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    const size_t NR = cfg->nr;
    /* NR/2 and NR + NR/2 end on a half block (the kernels' one-vector path);
     * NR + 6 ends on a 4 + 2 store of a half block; the 1-row kernels run
     * whole blocks 4 at a time, then the 1-3 left at once (4·NR, 7·NR + 3,
     * 6·NR: 4 + 3 and 4 + 2 blocks). */
    const size_t ns[] = {1, NR - 1, NR, NR + 1, 2 * NR + 1, 3, NR / 2, NR + NR / 2, NR + 6,
                         4 * NR, 7 * NR + 3, 6 * NR};
    const size_t ks_[] = {1, 2, 7, 16, 33};
    const size_t kss[] = {1, 3};
    int cases = 0, bad = 0;
    for (size_t m = 1; m <= cfg->mr && !bad; ++m)
      for (size_t ni = 0; ni < sizeof(ns) / sizeof(ns[0]) && !bad; ++ni)
        for (size_t ki = 0; ki < 5 && !bad; ++ki)
          for (size_t si = 0; si < 2 && !bad; ++si)
            for (int vi = 0; vi < 3 && !bad; ++vi) {
              Case t = {.m = m, .n = ns[ni], .k = ks_[ki], .ks = kss[si]};
              if (t.n == 0) continue;
              t.a = malloc(m * t.ks * sizeof(float*));
              float** rows = malloc(m * t.ks * sizeof(float*));
              for (size_t r = 0; r < m * t.ks; ++r) {
                rows[r] = malloc(t.k * sizeof(float)); /* exact size for ASan */
                for (size_t q = 0; q < t.k; ++q) rows[r][q] = rnd_unit() * 4.0f - 2.0f;
                t.a[r] = rows[r];
              }
              if (vi == 2 && m * t.ks > 1) rows[1][0] = NAN; /* row 1 (or 0's tap 1) is NaN */
              t.wt = malloc(t.n * t.ks * t.k * sizeof(float));
              for (size_t q = 0; q < t.n * t.ks * t.k; ++q) t.wt[q] = rnd_unit() * 2.0f - 1.0f;
              if (vi != 1) {
                t.bias = malloc(t.n * sizeof(float));
                for (size_t j = 0; j < t.n; ++j) t.bias[j] = rnd_unit() - 0.5f;
              }
              t.p.min = vi == 0 ? -INFINITY : (vi == 1 ? 0.0f : -1.0f);
              t.p.max = vi == 0 ? INFINITY : (vi == 1 ? 6.0f : 1.0f);
              const size_t stride = t.n + GUARD_BYTES / 4;
              float* want = malloc(m * stride * sizeof(float));
              float* got = malloc(m * stride * sizeof(float));
              memset(got, GUARD, m * stride * sizeof(float));
              if (twin)
                direct(&t, cfg->fma, want, stride);
              else
                produce(cfg->fma ? &tff_f32_gemm_fma_twin : scalar, &t, want, stride);
              produce(cfg, &t, got, stride);
              bad = compare(cfg->name, &t, got, want, stride);
              ++cases;
              for (size_t r = 0; r < m * t.ks; ++r) free(rows[r]);
              free(rows);
              free((void*)t.a);
              free(t.wt);
              free(t.bias);
              free(want);
              free(got);
            }
    if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);
    failed |= bad;
  }
  return failed;
}
