/* qs8-rsum, portable: 8 bytes at a time, biased to unsigned (x ^ 0x80 is
 * x + 128), in four 16-bit lanes of at most 32·2·255 after 32 steps; their
 * total (< 2^16) is gathered by the multiply (-O2 does not vectorize a byte
 * loop). */
#include <string.h>

#include "qs8-rsum.h"

static uint32_t sum_row(const int8_t* x, size_t n) {
  const uint64_t lo8 = 0x00ff00ff00ff00ffull;
  uint32_t total = 0;
  size_t i = 0;
  while (n - i >= 8) {
    uint64_t lanes = 0;
    size_t steps = 0;
    for (; steps < 32 && n - i >= 8; ++steps, i += 8) {
      uint64_t v;
      memcpy(&v, x + i, 8);
      v ^= 0x8080808080808080ull;
      lanes += (v & lo8) + ((v >> 8) & lo8);
    }
    total += (uint32_t)((lanes * 0x0001000100010001ull) >> 48) - 1024u * (uint32_t)steps;
  }
  for (; i < n; ++i) total += (uint32_t)x[i];
  return total;
}

void tff_qs8_rsum_ukernel__scalar(size_t n, size_t k, const int8_t* w, int32_t* sums) {
  for (size_t c = 0; c < n; ++c) sums[c] = (int32_t)sum_row(w + c * k, k);
}
