/* The frame of every qs8-avgpool kernel, then the shared body
 * (ukernels/pool-impl.h). The scalar twin (TFF_QS8_AVG_SIMD undefined)
 * folds int32 sums from 0 and takes the rounded quotient. A SIMD kernel
 * defines TFF_QS8_AVG_SIMD, TFF_W, TFF_FLOAT_TAPS, the int32 vector of
 * TFF_W/2 lanes (TFF_IV, TFF_IZERO, TFF_ISTORE(p, v), TFF_IADD) and
 *   TFF_WIDEN(x)                   x[0..TFF_W/2-1] as int32 lanes, or
 *   TFF_ACC_ADD(a, x)              a.lo, a.hi += x[0..TFF_W-1] itself
 *   tff_acc_finish(lo, hi, n, p, o)  the clamped rounded quotients of sums
 *                                  lo, hi of n taps to o[0..TFF_W-1], in
 *                                  float (exact up to
 *                                  TFF_QS8_AVGPOOL_MAX_FLOAT_TAPS taps, see
 *                                  pool.h); only with TFF_FLOAT_TAPS > 0
 * and the block divides per channel in integers past TFF_FLOAT_TAPS taps. */
#include "qs8-avgpool.h"

#define TFF_T int8_t
#define TFF_P tff_qs8_pool_params
#define TFF_POOL_ELEM tff_qs8_avgpool_elem

#ifdef TFF_QS8_AVG_SIMD
#define TFF_POOL_CUSTOM_BLOCK
#ifndef TFF_ACC_ADD
#define TFF_ACC_ADD(a, x) \
  ((a).lo = TFF_IADD((a).lo, TFF_WIDEN(x)), (a).hi = TFF_IADD((a).hi, TFF_WIDEN((x) + TFF_W / 2)))
#endif

static TFF_ALWAYS_INLINE void tff_pool_block(size_t taps, const int8_t* const* input, size_t c,
                                             const int nv, int8_t* output,
                                             const tff_qs8_pool_params* p) {
  struct {
    TFF_IV lo, hi; /* the sums of the first and second TFF_W/2 channels */
  } acc[4];
  _Pragma("GCC unroll 4")
  for (int j = 0; j < nv; ++j) acc[j].lo = acc[j].hi = TFF_IZERO;
  for (size_t t = 0; t < taps; ++t) {
    const int8_t* x = input[t] + c;
    _Pragma("GCC unroll 4")
    for (int j = 0; j < nv; ++j) TFF_ACC_ADD(acc[j], x + j * TFF_W);
  }
  output += c;
  if (taps > TFF_FLOAT_TAPS) {
    int32_t s[4 * TFF_W];
    _Pragma("GCC unroll 4")
    for (int j = 0; j < nv; ++j) {
      TFF_ISTORE(s + j * TFF_W, acc[j].lo);
      TFF_ISTORE(s + j * TFF_W + TFF_W / 2, acc[j].hi);
    }
    tff_qs8_avgpool_round_n(s, (size_t)nv * TFF_W, (int32_t)taps, output, p);
    return;
  }
#if TFF_FLOAT_TAPS > 0
  _Pragma("GCC unroll 4")
  for (int j = 0; j < nv; ++j)
    tff_acc_finish(acc[j].lo, acc[j].hi, (int32_t)taps, p, output + j * TFF_W);
#endif
}
#else
#define TFF_POOL_INIT 0
#define TFF_POOL_FOLD(acc, x) TFF_ADD((acc), (x))
#define TFF_POOL_FINISH(acc, n) tff_qs8_avgpool_quot((acc), (int32_t)(n))
#endif
#include "ukernels/pool-impl.h"
