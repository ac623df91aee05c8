#include "flexbuffer.h"

#include <math.h>
#include <string.h>

static int valid_width(size_t w) { return w == 1 || w == 2 || w == 4 || w == 8; }

/* Little-endian unsigned of `w` bytes at pos. */
static int read_uint(const uint8_t* buf, size_t size, size_t pos, size_t w, uint64_t* out) {
  if (!valid_width(w) || pos > size || size - pos < w) return 0;
  uint64_t u = 0;
  for (size_t k = 0; k < w; ++k) u |= (uint64_t)buf[pos + k] << (8 * k);
  *out = u;
  return 1;
}

/* The element count stored just before the data at `pos`. */
static int read_len(const uint8_t* buf, size_t size, size_t pos, size_t w, size_t* out) {
  uint64_t n;
  if (pos < w || !read_uint(buf, size, pos - w, w, &n) || n > size) return 0;
  *out = (size_t)n;
  return 1;
}

/* The value in the slot at `slot` (parent width pw) with packed type byte. */
static int value(const uint8_t* buf, size_t size, size_t slot, size_t pw, uint8_t packed,
                 tff_flex* out) {
  const int type = packed >> 2;
  const size_t cw = (size_t)1 << (packed & 3);
  *out = (tff_flex){buf, size, slot, (int)pw, type, 0};
  if (type == kFlexNull || type == kFlexInt || type == kFlexUInt || type == kFlexFloat ||
      type == kFlexBool) {
    uint64_t unused;
    return read_uint(buf, size, slot, pw, &unused);
  }
  uint64_t off;
  if (!read_uint(buf, size, slot, pw, &off) || off > slot) return 0;
  const size_t at = slot - (size_t)off;
  out->pos = at;
  out->width = (int)cw;
  switch (type) {
    case kFlexIndirectInt:
    case kFlexIndirectUInt:
    case kFlexIndirectFloat: {
      uint64_t unused;
      return read_uint(buf, size, at, cw, &unused);
    }
    case kFlexKey: {
      const uint8_t* nul = at < size ? memchr(buf + at, 0, size - at) : NULL;
      out->len = nul ? (size_t)(nul - (buf + at)) : 0;
      return nul != NULL;
    }
    case kFlexString:
      /* the bytes and their NUL terminator */
      return read_len(buf, size, at, cw, &out->len) && out->len < size - at &&
             buf[at + out->len] == 0;
    case kFlexMap: /* its values are an untyped vector after the keys' offset and width */
    case kFlexVector:
    case kFlexVectorInt:
    case kFlexVectorUInt:
    case kFlexVectorFloat: {
      if ((type == kFlexMap && at < 3 * cw) || !read_len(buf, size, at, cw, &out->len) ||
          out->len > (size - at) / cw)
        return 0;
      const size_t bytes = out->len * cw;
      const int untyped = type == kFlexMap || type == kFlexVector;
      return !untyped || out->len <= size - at - bytes; /* one type byte per element */
    }
    default:
      return 0; /* blobs, fixed-size vectors: not used by the ops that read options */
  }
}

int tff_flex_root(const uint8_t* buf, size_t size, tff_flex* out) {
  if (buf == NULL || size < 3) return 0;
  const size_t w = buf[size - 1];
  if (!valid_width(w) || size < 2 + w) return 0;
  return value(buf, size, size - 2 - w, w, buf[size - 2], out);
}

static int log2_width(int w) { return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3; }

int tff_flex_at(const tff_flex* v, size_t i, tff_flex* out) {
  if (i >= v->len) return 0;
  const size_t w = (size_t)v->width, slot = v->pos + i * w;
  int elem;
  switch (v->type) {
    case kFlexMap:
    case kFlexVector:
      return value(v->buf, v->size, slot, w, v->buf[v->pos + v->len * w + i], out);
    case kFlexVectorInt: elem = kFlexInt; break;
    case kFlexVectorUInt: elem = kFlexUInt; break;
    case kFlexVectorFloat: elem = kFlexFloat; break;
    default: return 0;
  }
  return value(v->buf, v->size, slot, w, (uint8_t)(elem << 2 | log2_width(v->width)), out);
}

int tff_flex_get(const tff_flex* m, const char* key, tff_flex* out) {
  if (m->type != kFlexMap) return 0;
  const size_t w = (size_t)m->width;
  uint64_t off, kw;
  const size_t slot = m->pos - 3 * w;
  if (!read_uint(m->buf, m->size, slot, w, &off) || off > slot ||
      !read_uint(m->buf, m->size, m->pos - 2 * w, w, &kw) || !valid_width((size_t)kw))
    return 0;
  /* the keys: a typed vector of offsets to NUL-terminated strings */
  const size_t keys = slot - (size_t)off;
  size_t nkeys;
  if (!read_len(m->buf, m->size, keys, (size_t)kw, &nkeys) || nkeys != m->len ||
      nkeys > (m->size - keys) / kw)
    return 0;
  const size_t want = strlen(key);
  const uint8_t packed = (uint8_t)(kFlexKey << 2 | log2_width((int)kw));
  for (size_t i = 0; i < nkeys; ++i) {
    tff_flex k;
    if (!value(m->buf, m->size, keys + i * (size_t)kw, (size_t)kw, packed, &k)) return 0;
    if (k.len == want && memcmp(m->buf + k.pos, key, want) == 0) return tff_flex_at(m, i, out);
  }
  return 0;
}

int tff_flex_number(const tff_flex* x, double* out) {
  uint64_t u;
  if (!read_uint(x->buf, x->size, x->pos, (size_t)x->width, &u)) return 0;
  switch (x->type) {
    case kFlexInt:
    case kFlexIndirectInt: {
      const int bits = 8 * x->width;
      /* sign-extend the low `bits` bits */
      const uint64_t sign = 1ull << (bits - 1);
      const int64_t s = bits == 64 ? (int64_t)u : (int64_t)(u ^ sign) - (int64_t)sign;
      *out = (double)s;
      return 1;
    }
    case kFlexUInt:
    case kFlexIndirectUInt:
    case kFlexBool:
      *out = (double)u;
      return 1;
    case kFlexFloat:
    case kFlexIndirectFloat:
      if (x->width == 4) {
        float f;
        const uint32_t b = (uint32_t)u;
        memcpy(&f, &b, sizeof(f));
        *out = f;
      } else if (x->width == 8) {
        memcpy(out, &u, sizeof(*out));
      } else {
        return 0;
      }
      return 1;
    default:
      return 0;
  }
}

int tff_flex_int(const tff_flex* x, int64_t* out) {
  double d;
  /* every int the ops read fits in 32 bits, which a double holds exactly */
  if (!tff_flex_number(x, &d) || !(d >= -2147483648.0 && d <= 2147483647.0) || d != floor(d))
    return 0;
  *out = (int64_t)d;
  return 1;
}

int tff_flex_string(const tff_flex* x, const char** s, size_t* len) {
  if (x->type != kFlexString && x->type != kFlexKey) return 0;
  *s = (const char*)(x->buf + x->pos);
  *len = x->len;
  return 1;
}
