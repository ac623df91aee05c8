/* The scalar twin, one channel per tile: the oracle for the SIMD kernels. */
#include <math.h>

#include "qs8-qc8w-dwconv.h"

#define DW_CT 1
#define DW_PAIRS 0
typedef uint32_t dw_acc; /* wraps like the SIMD int32 lanes */
typedef tff_qs8_dwconv_params dw_prm;

static inline dw_prm dw_params(const tff_qs8_dwconv_params* p) { return *p; }
static inline dw_acc dw_init(const int32_t* b) { return (uint32_t)b[0]; }
static inline dw_acc dw_mac(dw_acc acc, const int8_t* x, const int8_t* w) {
  return acc + (uint32_t)((int32_t)x[0] * (int32_t)w[0]);
}
static inline void dw_store(dw_acc acc, const float* scale, const dw_prm* p, int8_t* out) {
  float f = (float)(int32_t)acc * scale[0];
  f = f < p->min_less_zp ? p->min_less_zp : f;
  f = f > p->max_less_zp ? p->max_less_zp : f;
  out[0] = (int8_t)((int32_t)lrintf(f) + p->zero_point);
}

#define DW_ISA scalar
#include "qs8-qc8w-dwconv-kernels.h"
