/* The x86 kernels' double rounding (TFF_RQ_DOUBLE; C's round()), one lane
 * width per includer: round half away from zero as trunc(|x|) plus 1 where
 * |x| − trunc(|x|) ≥ 0.5 (both exact for every double), the sign put back,
 * then bounded to ±1e9 as the scalar twin. Before including, define TFF_VD
 * (the double vector), TFF_PD(op) (its intrinsic for op, e.g. _mm_##op) and
 * TFF_GE_PD(a, b) (all ones where a ≥ b: SSE and AVX spell it differently). */
static inline TFF_VD tff_round_away_bounded(TFF_VD x) {
  const TFF_VD sign = TFF_PD(set1_pd)(-0.0);
  const TFF_VD ax = TFF_PD(andnot_pd)(sign, x);
  const TFF_VD t = TFF_PD(round_pd)(ax, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const TFF_VD up =
      TFF_PD(and_pd)(TFF_GE_PD(TFF_PD(sub_pd)(ax, t), TFF_PD(set1_pd)(0.5)), TFF_PD(set1_pd)(1.0));
  const TFF_VD r = TFF_PD(or_pd)(TFF_PD(add_pd)(t, up), TFF_PD(and_pd)(sign, x));
  return TFF_PD(max_pd)(TFF_PD(min_pd)(r, TFF_PD(set1_pd)(1e9)), TFF_PD(set1_pd)(-1e9));
}
