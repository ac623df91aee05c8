/* qs8-qc8w-gemm kernels against a direct computation (which checks the
 * scalar twin and the packing) and against the scalar twin (bit-exact),
 * over tile edges of m, n, k and taps, extreme zero points, scales, bounds
 * and wrapping accumulators; guard bytes after every output row. */
#include <math.h>
#include <string.h>

#include "ukernel_test.h"
#include "ukernels/qs8-qc8w-gemm/qs8-qc8w-gemm.h"

typedef struct {
  size_t m, n, k, ks;
  const int8_t** a;  /* [m][ks] */
  int8_t* wt;        /* [n][ks][k] */
  int32_t* bias;     /* [n] */
  float* scale;      /* [n] */
  int32_t izp;
  tff_qs8_minmax_fp32_params p;
} Case;

/* c = requant(bias − izp·Σw + Σ x·w), computed from the unpacked operands. */
static void direct(const Case* t, int8_t* c, size_t stride) {
  for (size_t i = 0; i < t->m; ++i) {
    for (size_t j = 0; j < t->n; ++j) {
      uint32_t acc = (uint32_t)t->bias[j];
      for (size_t s = 0; s < t->ks; ++s)
        for (size_t q = 0; q < t->k; ++q) {
          const int32_t w = t->wt[(j * t->ks + s) * t->k + q];
          acc += (uint32_t)((t->a[i * t->ks + s][q] - t->izp) * w);
        }
      volatile float v = (float)(int32_t)acc * t->scale[j];
      float f = v;
      f = f < t->p.min_less_zp ? t->p.min_less_zp : f;
      f = f > t->p.max_less_zp ? t->p.max_less_zp : f;
      c[i * stride + j] = (int8_t)((int32_t)lrintf(f) + t->p.zp);
    }
  }
}

/* Packs the case for `cfg` and runs its kernel into c (rows of `stride`). */
static void produce(const tff_qs8_qc8w_gemm_config* cfg, const Case* t, int8_t* c,
                    size_t stride) {
  const size_t bytes = tff_qs8_qc8w_gemm_packed_size(t->n, t->ks, t->k, cfg->nr, cfg->kr);
  void* packed = malloc(bytes);
  int32_t* init = malloc(t->n * sizeof(int32_t));
  for (size_t j = 0; j < t->n; ++j) {
    uint32_t sum = 0;
    for (size_t q = 0; q < t->ks * t->k; ++q) sum += (uint32_t)t->wt[j * t->ks * t->k + q];
    init[j] = (int32_t)((uint32_t)t->bias[j] - (uint32_t)(t->izp + cfg->izp_extra) * sum);
  }
  cfg->pack(t->n, t->ks, t->k, cfg->nr, cfg->kr, t->wt, t->scale, 1, packed);
  tff_qs8_qc8w_gemm_pack_init(t->n, t->ks, t->k, cfg->nr, cfg->kr, init, packed);
  for (size_t i = 0; i < t->m; i += cfg->mr) /* the scalar twin's MR may be smaller */
    cfg->fn(t->m - i < cfg->mr ? t->m - i : cfg->mr, t->n, t->k, t->ks, t->a + i * t->ks, 0,
            packed, c + i * stride, stride, &t->p);
  free(packed);
  free(init);
}

/* 0 when `got` matches `want` in the first n columns and holds the guard
 * after them. */
static int compare(const char* name, const Case* t, const int8_t* got, const int8_t* want,
                   size_t stride) {
  for (size_t i = 0; i < t->m; ++i) {
    for (size_t j = 0; j < stride; ++j) {
      const int8_t g = got[i * stride + j];
      const int8_t e = j < t->n ? want[i * stride + j] : (int8_t)GUARD;
      if (g != e) {
        printf("FAIL %s: m=%zu n=%zu k=%zu ks=%zu izp=%d zp=%d row %zu col %zu: got %d "
               "want %d%s\n", name, t->m, t->n, t->k, t->ks, t->izp, t->p.zp, i, j, g, e,
               j < t->n ? "" : " (guard byte overwritten)");
        return 1;
      }
    }
  }
  return 0;
}

int main(void) {
  const tff_qs8_qc8w_gemm_config* scalar = &tff_qs8_qc8w_gemm_configs[0];
  int failed = 0;
  for (int ci = 0; ci < tff_qs8_qc8w_gemm_num_configs; ++ci) {
    const tff_qs8_qc8w_gemm_config* cfg = &tff_qs8_qc8w_gemm_configs[ci];
    if (!isa_runs(cfg->isa, cfg->name)) continue;
    const size_t NR = cfg->nr, KR = cfg->kr;
    /* 3NR + 5, 4NR + 1, 4NR + 9: passes of 4 blocks of the 1x64c2 GEMV, its
     * last block partial, over 8 and at most 8 */
    const size_t ns[] = {1, NR - 1, NR, NR + 1, 2 * NR + 1, 3, 3 * NR + 5, 4 * NR + 1, 4 * NR + 9};
    /* 7, 8, 9, 17: edges of the 8-value x loads of KR = 2 kernels; 15, 16,
     * 33: of their 16-value widening; the XMAXes: full x buffers */
    const size_t ks_[] = {1, KR - 1, KR, KR + 1, 2 * KR + 3, 3, 64, 7, 8, 9, 17, 15, 16, 33,
                          TFF_QS8_C2_XMAX, TFF_QS8_C4S_XMAX};
    const size_t nk = sizeof(ks_) / sizeof(ks_[0]);
    const size_t kss[] = {1, 3};
    const int32_t zps[] = {-128, 0, 127};
    int cases = 0, bad = 0;
    for (size_t m = 1; m <= cfg->mr && !bad; ++m)
      for (size_t ni = 0; ni < 9 && !bad; ++ni)
        for (size_t ki = 0; ki < nk && !bad; ++ki)
          for (size_t si = 0; si < 2 && !bad; ++si)
            for (int zi = 0; zi < 3 && !bad; ++zi) {
              Case t = {.m = m, .n = ns[ni], .k = ks_[ki], .ks = kss[si]};
              if (t.n == 0 || t.k == 0) continue;
              if (cfg->xmax && t.ks * ((t.k + KR - 1) / KR * KR) > cfg->xmax) continue;
              t.izp = zps[zi];
              t.a = malloc(m * t.ks * sizeof(int8_t*));
              int8_t** rows = malloc(m * t.ks * sizeof(int8_t*));
              for (size_t r = 0; r < m * t.ks; ++r) {
                rows[r] = malloc(t.k); /* exact size: reads past k trip ASan */
                for (size_t q = 0; q < t.k; ++q) /* zi 2: only the extremes */
                  rows[r][q] = (int8_t)(zi == 2 ? (rnd() & 1 ? -128 : 127) : rnd_range(-128, 127));
                t.a[r] = rows[r];
              }
              t.wt = malloc(t.n * t.ks * t.k);
              /* -128 only where the kernel takes it (not wsym ones) */
              const int32_t wmin = zi != 0 && !cfg->wsym ? -128 : -127;
              for (size_t q = 0; q < t.n * t.ks * t.k; ++q)
                t.wt[q] = (int8_t)(zi == 2 ? (rnd() & 1 ? wmin : 127) : rnd_range(wmin, 127));
              t.bias = malloc(t.n * sizeof(int32_t));
              t.scale = malloc(t.n * sizeof(float));
              for (size_t j = 0; j < t.n; ++j) {
                /* Some biases near the int32 ends make the sums wrap. */
                t.bias[j] = rnd() % 7 == 0 ? (int32_t)(rnd() * 2u) : rnd_range(-100000, 100000);
                t.scale[j] = expf(logf(1e-6f) + rnd_unit() * (logf(1.0f) - logf(1e-6f)));
              }
              const int32_t zp = zps[(zi + 1) % 3];
              int32_t lo = -128, hi = 127;
              if (zi == 1) lo = zp, hi = 127;                   /* RELU */
              if (zi == 2) lo = rnd_range(-128, 0), hi = rnd_range(lo, 127);
              t.p.zp = zp;
              t.p.min_less_zp = (float)(lo - zp);
              t.p.max_less_zp = (float)(hi - zp);
              const size_t stride = t.n + GUARD_BYTES;
              int8_t* want = malloc(m * stride);
              int8_t* got = malloc(m * stride);
              memset(got, GUARD, m * stride);
              if (ci == 0)
                direct(&t, want, stride);
              else
                produce(scalar, &t, want, stride);
              produce(cfg, &t, got, stride);
              bad = compare(cfg->name, &t, got, want, stride);
              ++cases;
              for (size_t r = 0; r < m * t.ks; ++r) free(rows[r]);
              free(rows);
              free((void*)t.a);
              free(t.wt);
              free(t.bias);
              free(t.scale);
              free(want);
              free(got);
            }
    if (!bad) printf("PASS %s (%d cases)\n", cfg->name, cases);
    failed |= bad;
  }
  return failed;
}
