/* qs8-packw, scalar: row by row (tff_qs8_packw_taps). */
#include "qs8-packw.h"

void tff_qs8_packw_ukernel_x16__scalar(size_t n, size_t k, const int8_t* w, int8_t* packed,
                                       int32_t* sums) {
  for (size_t n0 = 0; n0 < n; n0 += 16, packed += 16 * k) {
    const size_t rows = n - n0 < 16 ? n - n0 : 16;
    uint32_t s[16] = {0};
    tff_qs8_packw_taps(k, rows, 0, w + n0 * k, packed, s);
    for (size_t j = 0; j < rows; ++j) sums[n0 + j] = (int32_t)s[j];
  }
}
