/* Bounds-checked FlatBuffer primitives; see fb.h. The checks mirror the
 * FlatBuffers Verifier (offsets non-zero and < 2^31, vtables even-sized and
 * inside the buffer, scalars aligned to their size relative to the buffer
 * start, strings NUL-terminated), applied lazily to the fields the reader
 * actually touches. */
#include "fb.h"

#include <string.h>

static bool bad(tff_fb* fb, const char* why) {
  fb->why = why;
  return false;
}

/* [pos, pos + n) lies inside the buffer. */
static bool in_bounds(const tff_fb* fb, size_t pos, size_t n) {
  return pos <= fb->size && n <= fb->size - pos;
}

void tff_fb_init(tff_fb* fb, const uint8_t* buf, size_t size) {
  fb->buf = buf;
  fb->size = size < TFF_FB_MAX_SIZE ? size : TFF_FB_MAX_SIZE;
  /* A well-formed file visits each table and copies each element once; four
   * units per byte leave room for writers that share strings or tables. */
  fb->budget = fb->size > (SIZE_MAX - 65536) / 4 ? SIZE_MAX : 4 * fb->size + 65536;
  fb->why = "";
}

bool tff_fb_charge(tff_fb* fb, size_t n) {
  if (n > fb->budget)
    return bad(fb, "the file is too complex (offsets shared so often that reading it "
                   "would take more than linear time)");
  fb->budget -= n;
  return true;
}

bool tff_fb_table_at(tff_fb* fb, size_t pos, tff_fb_table* t) {
  if (!tff_fb_charge(fb, 1)) return false;
  if (!in_bounds(fb, pos, 4)) return bad(fb, "table offset out of bounds");
  if (pos & 3) return bad(fb, "misaligned table");
  /* The vtable sits at pos - soffset; the soffset is signed. */
  const int64_t vt = (int64_t)pos - (int64_t)(int32_t)tff_fb_ld32(fb->buf + pos);
  if (vt < 0 || !in_bounds(fb, (size_t)vt, 2)) return bad(fb, "vtable out of bounds");
  if (vt & 1) return bad(fb, "misaligned vtable");
  /* A vtable shorter than 4 bytes is valid: every field is absent. */
  const uint16_t vsize = tff_fb_ld16(fb->buf + vt);
  if ((vsize & 1) || !in_bounds(fb, (size_t)vt, vsize))
    return bad(fb, "vtable size odd or out of bounds");
  t->pos = pos;
  t->vt = (size_t)vt;
  t->vt_size = vsize;
  return true;
}

bool tff_fb_root(tff_fb* fb, tff_fb_table* root) {
  if (fb->size < 8) return bad(fb, "too small to hold a root offset and identifier");
  const uint32_t off = tff_fb_ld32(fb->buf);
  if (off == 0 || off > INT32_MAX || !in_bounds(fb, off, 1))
    return bad(fb, "root table offset out of bounds");
  return tff_fb_table_at(fb, off, root);
}

/* Position of a field of `width` bytes (a power of two), 0 when absent. */
static bool field(tff_fb* fb, const tff_fb_table* t, int id, size_t width, size_t* at) {
  *at = 0;
  const size_t slot = 4 + 2 * (size_t)id;
  if (t->pos == 0 || slot + 2 > t->vt_size) return true;
  const uint16_t fo = tff_fb_ld16(fb->buf + t->vt + slot);
  if (fo == 0) return true;
  const size_t p = t->pos + fo;
  if (!in_bounds(fb, p, width)) return bad(fb, "field out of bounds");
  if (p & (width - 1)) return bad(fb, "misaligned field");
  *at = p;
  return true;
}

bool tff_fb_u8(tff_fb* fb, const tff_fb_table* t, int id, uint8_t def, uint8_t* out) {
  size_t at;
  if (!field(fb, t, id, 1, &at)) return false;
  *out = at ? fb->buf[at] : def;
  return true;
}

bool tff_fb_i8(tff_fb* fb, const tff_fb_table* t, int id, int8_t def, int8_t* out) {
  uint8_t v;
  if (!tff_fb_u8(fb, t, id, (uint8_t)def, &v)) return false;
  *out = (int8_t)v;
  return true;
}

bool tff_fb_bool(tff_fb* fb, const tff_fb_table* t, int id, bool def, bool* out) {
  uint8_t v;
  if (!tff_fb_u8(fb, t, id, def, &v)) return false;
  *out = v != 0;
  return true;
}

bool tff_fb_u32(tff_fb* fb, const tff_fb_table* t, int id, uint32_t def, uint32_t* out) {
  size_t at;
  if (!field(fb, t, id, 4, &at)) return false;
  *out = at ? tff_fb_ld32(fb->buf + at) : def;
  return true;
}

bool tff_fb_i32(tff_fb* fb, const tff_fb_table* t, int id, int32_t def, int32_t* out) {
  uint32_t v;
  if (!tff_fb_u32(fb, t, id, (uint32_t)def, &v)) return false;
  *out = (int32_t)v;
  return true;
}

bool tff_fb_u64(tff_fb* fb, const tff_fb_table* t, int id, uint64_t def, uint64_t* out) {
  size_t at;
  if (!field(fb, t, id, 8, &at)) return false;
  *out = at ? tff_fb_ld64(fb->buf + at) : def;
  return true;
}

bool tff_fb_i64(tff_fb* fb, const tff_fb_table* t, int id, int64_t def, int64_t* out) {
  uint64_t v;
  if (!tff_fb_u64(fb, t, id, (uint64_t)def, &v)) return false;
  *out = (int64_t)v;
  return true;
}

bool tff_fb_f32(tff_fb* fb, const tff_fb_table* t, int id, float def, float* out) {
  size_t at;
  if (!field(fb, t, id, 4, &at)) return false;
  if (at) {
    const uint32_t bits = tff_fb_ld32(fb->buf + at);
    memcpy(out, &bits, sizeof(*out));
  } else {
    *out = def;
  }
  return true;
}

/* Follows the uoffset stored at `at` (0 = no offset there). */
static bool follow(tff_fb* fb, size_t at, size_t* target) {
  const uint32_t off = tff_fb_ld32(fb->buf + at);
  /* at + 4 <= size, so size - at cannot wrap. */
  if (off == 0 || off > INT32_MAX || off >= fb->size - at)
    return bad(fb, "offset out of bounds");
  *target = at + off;
  return true;
}

static bool ref(tff_fb* fb, const tff_fb_table* t, int id, size_t* target) {
  size_t at;
  *target = 0;
  if (!field(fb, t, id, 4, &at)) return false;
  return at == 0 || follow(fb, at, target);
}

bool tff_fb_table_field(tff_fb* fb, const tff_fb_table* t, int id, tff_fb_table* out) {
  size_t target;
  out->pos = 0;
  out->vt = 0;
  out->vt_size = 0;
  if (!ref(fb, t, id, &target)) return false;
  return target == 0 || tff_fb_table_at(fb, target, out);
}

bool tff_fb_vector(tff_fb* fb, const tff_fb_table* t, int id, size_t elem_size,
                   tff_fb_vec* out) {
  size_t target;
  out->pos = 0;
  out->len = 0;
  if (!ref(fb, t, id, &target)) return false;
  if (target == 0) return true;
  if (!in_bounds(fb, target, 4)) return bad(fb, "vector out of bounds");
  if (target & 3) return bad(fb, "misaligned vector");
  const uint32_t len = tff_fb_ld32(fb->buf + target);
  if (len > (fb->size - target - 4) / elem_size) return bad(fb, "vector length out of bounds");
  out->pos = target + 4;
  out->len = len;
  return true;
}

bool tff_fb_string(tff_fb* fb, const tff_fb_table* t, int id, const char** s,
                   uint32_t* len) {
  tff_fb_vec v;
  *s = NULL;
  *len = 0;
  if (!tff_fb_vector(fb, t, id, 1, &v)) return false;
  if (v.pos == 0) return true;
  if (!in_bounds(fb, v.pos + v.len, 1) || fb->buf[v.pos + v.len] != 0)
    return bad(fb, "string not NUL-terminated inside the file");
  *s = (const char*)fb->buf + v.pos;
  *len = v.len;
  return true;
}

bool tff_fb_vec_table(tff_fb* fb, const tff_fb_vec* v, uint32_t i, tff_fb_table* out) {
  const size_t at = v->pos + 4 * (size_t)i;
  /* Unlike a field, an element offset may be 0 (the FlatBuffers verifier
   * then reads a table at the element itself, an empty one). */
  if (tff_fb_ld32(fb->buf + at) == 0) return tff_fb_table_at(fb, at, out);
  size_t target;
  if (!follow(fb, at, &target)) return false;
  return tff_fb_table_at(fb, target, out);
}

bool tff_schema_tensor_type(int schema_type, TfLiteType* out) {
  /* Indexed by schema TensorType (FLOAT32 = 0 ... FLOAT8_E5M2 = 22). */
  static const TfLiteType kMap[] = {
      kTfLiteFloat32,  kTfLiteFloat16,  kTfLiteInt32,       kTfLiteUInt8,
      kTfLiteInt64,    kTfLiteString,   kTfLiteBool,        kTfLiteInt16,
      kTfLiteComplex64, kTfLiteInt8,    kTfLiteFloat64,     kTfLiteComplex128,
      kTfLiteUInt64,   kTfLiteResource, kTfLiteVariant,     kTfLiteUInt32,
      kTfLiteUInt16,   kTfLiteInt4,     kTfLiteBFloat16,    kTfLiteInt2,
      kTfLiteUInt4,    kTfLiteFloat8E4M3FN, kTfLiteFloat8E5M2,
  };
  if (schema_type < 0 || schema_type >= (int)(sizeof(kMap) / sizeof(kMap[0]))) return false;
  *out = kMap[schema_type];
  return true;
}
