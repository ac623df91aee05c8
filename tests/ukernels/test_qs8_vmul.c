/* qs8-vmul kernels against the scalar twin (bit-exact) and the twin against
 * a direct computation (float product, clamp, round to nearest even), with
 * extreme zero points, scales in [2^-16, 2^8) and all bounds; see
 * qs8_vbinary_test.h for the shapes and guards. */
#include <math.h>

#include "ukernels/qs8-vmul/qs8-vmul.h"

typedef struct {
  tff_qs8_mul_minmax_fp32_params p;
} Case;

static int8_t direct(const Case* t, int8_t a, int8_t b) {
  const tff_qs8_mul_minmax_fp32_params* p = &t->p;
  float v = (float)((a - p->za) * (b - p->zb)) * p->scale;
  v = v < p->fmin ? p->fmin : (v > p->fmax ? p->fmax : v);
  return (int8_t)((int32_t)nearbyintf(v) + p->zo);
}

#include "qs8_vbinary_test.h"

static void random_case(Case* t) {
  tff_qs8_mul_minmax_fp32_params* p = &t->p;
  p->za = random_zero_point();
  p->zb = random_zero_point();
  p->zo = random_zero_point();
  p->scale = ldexpf(1.0f + rnd_unit(), rnd_range(-16, 7));
  const int32_t lo = rnd() % 2 ? -128 : rnd_range(-128, 0);
  const int32_t hi = rnd() % 2 ? 127 : rnd_range(lo, 127);
  p->fmin = (float)(lo - p->zo);
  p->fmax = (float)(hi - p->zo);
}

int main(void) {
  const tff_qs8_vmul_config* scalar = &tff_qs8_vmul_configs[0];
  int failed = 0;
  for (int ci = 0; ci < tff_qs8_vmul_num_configs; ++ci) {
    const tff_qs8_vmul_config* cfg = &tff_qs8_vmul_configs[ci];
    if (ci == 0 || isa_runs(cfg->isa, cfg->vmul_name))
      TFF_QS8_VBINARY_CHECK(cfg->vmul, scalar->vmul, cfg->vmul_name, 0);
    if (ci == 0 || isa_runs(cfg->isa, cfg->vmulc_name))
      TFF_QS8_VBINARY_CHECK(cfg->vmulc, scalar->vmulc, cfg->vmulc_name, 1);
  }
  return failed;
}
