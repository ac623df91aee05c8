/* f32-vrsqrt scalar twin (see f32-vrsqrt.h). */
#include "f32-vrsqrt.h"

void tff_f32_vrsqrt_ukernel__scalar(size_t n, const float* x, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] == INFINITY ? 0.0f : tff_xnn_rsqrt_step(x[i]);
}
