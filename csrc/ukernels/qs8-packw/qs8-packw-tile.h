/* The SIMD qs8-packw tile, once per vector width: 16 rows k apart at w, a
 * 16x16 byte transpose in each 128-bit lane by four rounds of unpacks (lane
 * l holds taps 16l..16l+15), each row's sum by PSADBW of its bytes biased to
 * unsigned (x ^ 0x80 is x + 128) added to acc[j]'s 64-bit lanes. The
 * including file defines PW_V (the vector type), PW(op) (the intrinsic op at
 * that width), PW_LOAD, PW_XOR, PW_ZERO, PW_STORE(out, t, lo, hi) (taps 2t
 * and 2t+1 of every lane's tile: lo and hi, lane by lane) and PW_TILE (the
 * function's name); this header undefines them. */

static inline void PW_TILE(const int8_t* w, size_t k, int8_t* out, PW_V* acc) {
  const PW_V bias = PW(set1_epi8)((char)0x80), zero = PW_ZERO();
  PW_V r[16], a[16], b[16];
  for (int j = 0; j < 16; ++j) {
    r[j] = PW_LOAD(w + (size_t)j * k);
    acc[j] = PW(add_epi64)(acc[j], PW(sad_epu8)(PW_XOR(r[j], bias), zero));
  }
  /* a[2p+h]: rows 2p and 2p+1 byte by byte, taps 8h.. */
  for (int p = 0; p < 8; ++p) {
    a[2 * p] = PW(unpacklo_epi8)(r[2 * p], r[2 * p + 1]);
    a[2 * p + 1] = PW(unpackhi_epi8)(r[2 * p], r[2 * p + 1]);
  }
  /* b[4q+2h+l]: rows 4q.. in pairs, taps 8h+4l.. */
  for (int q = 0; q < 4; ++q)
    for (int h = 0; h < 2; ++h) {
      b[4 * q + 2 * h] = PW(unpacklo_epi16)(a[4 * q + h], a[4 * q + 2 + h]);
      b[4 * q + 2 * h + 1] = PW(unpackhi_epi16)(a[4 * q + h], a[4 * q + 2 + h]);
    }
  /* a[8o+2hl+e]: rows 8o.. in fours, taps 8h+4l+2e.. */
  for (int o = 0; o < 2; ++o)
    for (int hl = 0; hl < 4; ++hl) {
      a[8 * o + 2 * hl] = PW(unpacklo_epi32)(b[8 * o + hl], b[8 * o + 4 + hl]);
      a[8 * o + 2 * hl + 1] = PW(unpackhi_epi32)(b[8 * o + hl], b[8 * o + 4 + hl]);
    }
  /* Taps 2t and 2t+1: all 16 rows. */
  for (int t = 0; t < 8; ++t)
    PW_STORE(out, t, PW(unpacklo_epi64)(a[t], a[8 + t]), PW(unpackhi_epi64)(a[t], a[8 + t]));
}

#undef PW_V
#undef PW
#undef PW_LOAD
#undef PW_XOR
#undef PW_ZERO
#undef PW_STORE
#undef PW_TILE
