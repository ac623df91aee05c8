/* f16-f32-vcvt scalar twin (see f16-f32-vcvt.h). */
#include "f16-f32-vcvt.h"
#include "ops/fp16.h"

void tff_f16_f32_vcvt_ukernel__scalar(size_t n, const uint16_t* x, float* y) {
  tff_halves_to_floats(x, n, y);
}
