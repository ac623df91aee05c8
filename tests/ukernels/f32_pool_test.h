/* The float values and bounds of the f32 pooling tests (pool_test.h):
 * signed zeros, infinities, NaNs, subnormals, huge and ordinary values. */
#include <float.h>
#include <math.h>

#include "ukernel_test.h"

#define T float
#define P tff_f32_pool_params
#define W_MAX 8
#define LOWEST (-INFINITY)
#define HIGHEST INFINITY

static float random_value(void) {
  switch (rnd() % 24) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return INFINITY;
    case 3: return -INFINITY;
    case 4: return NAN;
    case 5: return -NAN;
    case 6: return 3.0e38f;
    case 7: return -3.0e38f;
    case 8: return FLT_TRUE_MIN;
    case 9: return -FLT_TRUE_MIN;
    case 10: return (rnd_unit() - 0.5f) * FLT_MIN; /* subnormal */
    default: return (rnd_unit() - 0.5f) * 16.0f;
  }
}

static void random_params(P* p) {
  static const float bounds[][2] = {{-INFINITY, INFINITY}, {0.0f, INFINITY}, {0.0f, 6.0f},
                                    {-1.0f, 1.0f}, {-0.0f, 0.0f}};
  const int i = (int)(rnd() % 5);
  p->min = bounds[i][0];
  p->max = bounds[i][1];
}
