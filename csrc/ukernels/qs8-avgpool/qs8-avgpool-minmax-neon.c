/* qs8-avgpool, 8 channels per block in two int32x4 sums (vaddw of the
 * widened taps); on aarch64 the rounded quotient in float (exact, see
 * pool.h; vcvtq_s32_f32 truncates), on armv7 (no vdivq) per channel in
 * integers; saturating narrows (the bounds lie within int8), clamp. */
#include <arm_neon.h>

#include "cpu/portable.h"
#include "qs8-avgpool.h"

/* *lo, *hi += the 8 int8 values at x, widened */
static inline void add8(int32x4_t* lo, int32x4_t* hi, const int8_t* x) {
  const int16x8_t v = vmovl_s8(vld1_s8(x));
  *lo = vaddw_s16(*lo, vget_low_s16(v));
  *hi = vaddw_s16(*hi, vget_high_s16(v));
}

#if defined(__aarch64__)
/* trunc((s > 0 ? s + n/2 : s - n/2) / n), narrowed to int16 */
static inline int16x4_t quot4(int32x4_t s, int32_t n) {
  const int32x4_t half = vdupq_n_s32(n / 2);
  const int32x4_t adj = vbslq_s32(vcgtq_s32(s, vdupq_n_s32(0)), half, vnegq_s32(half));
  const float32x4_t f = vdivq_f32(vcvtq_f32_s32(vaddq_s32(s, adj)), vdupq_n_f32((float)n));
  return vqmovn_s32(vcvtq_s32_f32(f));
}

static inline void tff_acc_finish(int32x4_t s0, int32x4_t s1, int32_t n,
                                  const tff_qs8_pool_params* p, int8_t* o) {
  const int8x8_t q = vqmovn_s16(vcombine_s16(quot4(s0, n), quot4(s1, n)));
  vst1_s8(o, vmin_s8(vmax_s8(q, vdup_n_s8((int8_t)p->min)), vdup_n_s8((int8_t)p->max)));
}
#define TFF_FLOAT_TAPS TFF_QS8_AVGPOOL_MAX_FLOAT_TAPS
#else
#define TFF_FLOAT_TAPS 0
#endif

#define TFF_QS8_AVG_SIMD
#define TFF_W 8
#define TFF_IV int32x4_t
#define TFF_IZERO vdupq_n_s32(0)
#define TFF_ISTORE(p, v) vst1q_s32((p), (v))
#define TFF_ACC_ADD(a, x) add8(&(a).lo, &(a).hi, (x))
#define TFF_POOL_KERNEL tff_qs8_avgpool_minmax_ukernel__neon
#include "qs8-avgpool-impl.h"
