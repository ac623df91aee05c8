/* qs8-vadd kernels against the scalar twin (bit-exact) and the twin against
 * a direct computation of XNNPACK's formula, with extreme zero points,
 * multipliers of either sign (ADD and SUB), every shift and all bounds; see
 * qs8_vbinary_test.h for the shapes and guards. */
#include "ukernels/qs8-vadd/qs8-vadd.h"

typedef struct {
  tff_qs8_add_minmax_params p;
  int32_t za, zb;
} Case;

static int8_t direct(const Case* t, int8_t a, int8_t b) {
  const tff_qs8_add_minmax_params* p = &t->p;
  const int32_t acc = p->a_mul * (a - t->za) + p->b_mul * (b - t->zb) + (1 << (p->shift - 1));
  const int32_t o = (acc >> p->shift) + p->zo;
  return (int8_t)(o < p->lo ? p->lo : (o > p->hi ? p->hi : o));
}

#include "qs8_vbinary_test.h"

static void random_case(Case* t) {
  tff_qs8_add_minmax_params* p = &t->p;
  t->za = random_zero_point();
  t->zb = random_zero_point();
  p->shift = (uint32_t)rnd_range(10, 30);
  /* prepare's multipliers are ratios in [2^-10, 2^8) times 2^shift: < 2^21 */
  const int32_t max_mul = (1 << 21) - 1;
  p->a_mul = rnd_range(1, max_mul);
  p->b_mul = rnd_range(1, max_mul) * (rnd() % 2 ? -1 : 1);
  p->bias = (1 << (p->shift - 1)) - p->a_mul * t->za - p->b_mul * t->zb;
  p->zo = random_zero_point();
  p->lo = rnd() % 2 ? -128 : rnd_range(-128, 0);
  p->hi = rnd() % 2 ? 127 : rnd_range(p->lo, 127);
}

int main(void) {
  const tff_qs8_vadd_config* scalar = &tff_qs8_vadd_configs[0];
  int failed = 0;
  for (int ci = 0; ci < tff_qs8_vadd_num_configs; ++ci) {
    const tff_qs8_vadd_config* cfg = &tff_qs8_vadd_configs[ci];
    if (ci == 0 || isa_runs(cfg->isa, cfg->vadd_name))
      TFF_QS8_VBINARY_CHECK(cfg->vadd, scalar->vadd, cfg->vadd_name, 0);
    if (ci == 0 || isa_runs(cfg->isa, cfg->vaddc_name))
      TFF_QS8_VBINARY_CHECK(cfg->vaddc, scalar->vaddc, cfg->vaddc_name, 1);
  }
  return failed;
}
