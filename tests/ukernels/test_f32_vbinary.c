/* f32-vbinary kernels against the scalar twin (bit-exact) and the twin
 * against a direct computation, for n around every vector width, random,
 * signed-zero, infinite and huge inputs, several clamp bounds, in place
 * (out == a); guard floats after out must stay untouched. */
#include <math.h>
#include <string.h>

#include "ukernel_test.h"
#include "ukernels/f32-vbinary/f32-vbinary.h"

enum { MAX_N = 70 };

static float rnd_value(void) {
  switch (rnd() % 16) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return INFINITY;
    case 3: return -INFINITY;
    case 4: return 3.0e38f;
    default: return (rnd_unit() - 0.5f) * 16.0f;
  }
}

static float direct(int k, float a, float b, float c, const tff_f32_minmax_params* p) {
  float v = 0.0f;
  switch (k) {
    case TFF_VADD: v = a + b; break;
    case TFF_VSUB: v = a - b; break;
    case TFF_VMUL: v = a * b; break;
    case TFF_VADDC: v = a + c; break;
    case TFF_VSUBC: v = a - c; break;
    case TFF_VMULC: v = a * c; break;
    default: v = c - a; break; /* TFF_VRSUBC */
  }
  return v < p->min ? p->min : (v > p->max ? p->max : v);
}

/* Same bits, or both NaN (inf − inf, 0·inf). */
static int same(float x, float y) {
  uint32_t a, b;
  memcpy(&a, &x, 4);
  memcpy(&b, &y, 4);
  return a == b || (isnan(x) && isnan(y));
}

int main(void) {
  const tff_f32_vbinary_config* scalar = &tff_f32_vbinary_configs[0];
  const float bounds[][2] = {{-INFINITY, INFINITY}, {0.0f, INFINITY}, {0.0f, 6.0f}, {-1.0f, 1.0f}};
  int failed = 0;
  for (int ci = 0; ci < tff_f32_vbinary_num_configs; ++ci) {
    const tff_f32_vbinary_config* cfg = &tff_f32_vbinary_configs[ci];
    for (int k = 0; k < TFF_VBINARY_N; ++k) {
      if (ci > 0 && !isa_runs(cfg->isa, cfg->name[k])) continue;
      int cases = 0, bad = 0;
      for (size_t n = 1; n <= MAX_N && !bad; ++n) {
        for (int bi = 0; bi < 4 && !bad; ++bi) {
          const tff_f32_minmax_params p = {bounds[bi][0], bounds[bi][1]};
          float a[MAX_N], b[MAX_N], want[MAX_N], got[MAX_N + GUARD_BYTES], inplace[MAX_N];
          for (size_t i = 0; i < n; ++i) a[i] = rnd_value(), b[i] = rnd_value();
          memset(got, GUARD, sizeof got);
          scalar->fn[k](n, a, b, want, &p);
          cfg->fn[k](n, a, b, got, &p);
          memcpy(inplace, a, n * sizeof(float));
          cfg->fn[k](n, inplace, b, inplace, &p);
          for (size_t i = 0; i < n && !bad; ++i) {
            if (!same(want[i], direct(k, a[i], b[i], b[0], &p)) || !same(got[i], want[i]) ||
                !same(inplace[i], want[i])) {
              printf("FAIL %s: n=%zu bound=%d i=%zu a=%g b=%g got %g want %g\n", cfg->name[k],
                     n, bi, i, (double)a[i], (double)b[i], (double)got[i], (double)want[i]);
              bad = 1;
            }
          }
          const unsigned char* tail = (const unsigned char*)(got + n);
          for (size_t i = 0; i < GUARD_BYTES * sizeof(float) && !bad; ++i) {
            if (tail[i] != GUARD) {
              printf("FAIL %s: n=%zu wrote past the end\n", cfg->name[k], n);
              bad = 1;
            }
          }
          ++cases;
        }
      }
      if (!bad) printf("PASS %s (%d cases)\n", cfg->name[k], cases);
      failed |= bad;
    }
  }
  return failed;
}
