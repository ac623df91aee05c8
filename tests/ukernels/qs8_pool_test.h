/* The int8 values and bounds of the qs8 pooling tests (pool_test.h). */
#include "ukernel_test.h"

#define T int8_t
#define P tff_qs8_pool_params
#define LOWEST INT8_MIN
#define HIGHEST INT8_MAX

static int8_t random_value(void) {
  switch (rnd() % 8) {
    case 0: return INT8_MIN;
    case 1: return INT8_MAX;
    default: return (int8_t)rnd_range(-128, 127);
  }
}

static void random_params(P* p) {
  p->min = rnd() % 2 ? -128 : rnd_range(-128, 0);
  p->max = rnd() % 2 ? 127 : rnd_range(p->min, 127);
}
