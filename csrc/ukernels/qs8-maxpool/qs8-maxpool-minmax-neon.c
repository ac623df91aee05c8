/* qs8-maxpool, 16 channels per vector (armv7 and aarch64: integer only). */
#include <arm_neon.h>

#define TFF_W 16
#define TFF_V int8x16_t
#define TFF_LOAD(p) vld1q_s8(p)
#define TFF_STORE(p, v) vst1q_s8((p), (v))
#define TFF_SPLAT(x) vdupq_n_s8((int8_t)(x))
#define TFF_MAX vmaxq_s8
#define TFF_MIN vminq_s8
#define TFF_POOL_KERNEL tff_qs8_maxpool_minmax_ukernel__neon
#include "qs8-maxpool-impl.h"
