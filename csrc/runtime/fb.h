/* Bounds-checked FlatBuffer reading for the model reader.
 *
 * A FlatBuffer is a tree of tables reached through 32-bit offsets; a hostile
 * file can point anywhere. Every accessor here checks the position and size
 * it is about to read against the buffer (with subtraction-form comparisons,
 * so nothing can overflow on 32-bit size_t), checks the alignment the
 * FlatBuffers verifier requires (relative to the buffer start), and reports
 * a reason in fb->why instead of reading out of bounds. Scalars are loaded
 * byte-wise little-endian, so unaligned bytes are never dereferenced.
 *
 * Work budget: a file can make many offsets point at one big table or
 * vector, so walking it naively costs (offsets x size). Every table visit
 * and every element the reader copies is charged to fb->budget, which starts
 * proportional to the file size; parsing is therefore linear in the file.
 * Nesting needs no counter: the reader follows the fixed schema (at most six
 * tables deep, Model > SubGraph > Tensor > SparsityParameters >
 * DimensionMetadata > Int32Vector) and never recurses on file data.
 */
#ifndef TFLITE_FAST_RUNTIME_FB_H_
#define TFLITE_FAST_RUNTIME_FB_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tflite_fast/common.h"

/* FlatBuffers cannot exceed 2 GiB - 1; data past that (large models store
 * weights after the FlatBuffer) is only reachable through Buffer.offset. */
#define TFF_FB_MAX_SIZE ((size_t)0x7fffffff)

typedef struct tff_fb {
  const uint8_t* buf;
  size_t size;       /* bytes the FlatBuffer may span: min(file, 2 GiB - 1) */
  size_t budget;     /* remaining work units (tables visited, elements copied) */
  const char* why;   /* reason of the last failure (static string) */
} tff_fb;

/* A verified table: pos is its offset in the buffer (0 = absent). */
typedef struct tff_fb_table {
  size_t pos;
  size_t vt;         /* vtable offset */
  uint16_t vt_size;  /* vtable bytes */
} tff_fb_table;

/* A verified vector: pos is the offset of element 0 (0 = absent). */
typedef struct tff_fb_vec {
  size_t pos;
  uint32_t len;
} tff_fb_vec;

static inline uint16_t tff_fb_ld16(const uint8_t* p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t tff_fb_ld32(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}
static inline uint64_t tff_fb_ld64(const uint8_t* p) {
  return (uint64_t)tff_fb_ld32(p) | ((uint64_t)tff_fb_ld32(p + 4) << 32);
}

void tff_fb_init(tff_fb* fb, const uint8_t* buf, size_t size);
/* Spends n work units; false (why = "too complex") when the budget is gone. */
bool tff_fb_charge(tff_fb* fb, size_t n);

/* The root table (the caller checks the file identifier, to name it). */
bool tff_fb_root(tff_fb* fb, tff_fb_table* root);
/* Verifies the table whose start is at pos (vtable in bounds and aligned). */
bool tff_fb_table_at(tff_fb* fb, size_t pos, tff_fb_table* t);

/* Scalar fields by field id (declaration order in the schema); absent
 * fields give the schema default `def`. */
bool tff_fb_u8(tff_fb* fb, const tff_fb_table* t, int id, uint8_t def, uint8_t* out);
bool tff_fb_i8(tff_fb* fb, const tff_fb_table* t, int id, int8_t def, int8_t* out);
bool tff_fb_bool(tff_fb* fb, const tff_fb_table* t, int id, bool def, bool* out);
bool tff_fb_i32(tff_fb* fb, const tff_fb_table* t, int id, int32_t def, int32_t* out);
bool tff_fb_u32(tff_fb* fb, const tff_fb_table* t, int id, uint32_t def, uint32_t* out);
bool tff_fb_i64(tff_fb* fb, const tff_fb_table* t, int id, int64_t def, int64_t* out);
bool tff_fb_u64(tff_fb* fb, const tff_fb_table* t, int id, uint64_t def, uint64_t* out);
bool tff_fb_f32(tff_fb* fb, const tff_fb_table* t, int id, float def, float* out);

/* Sub-table field (out->pos = 0 when absent). */
bool tff_fb_table_field(tff_fb* fb, const tff_fb_table* t, int id, tff_fb_table* out);
/* Vector field of elem_size-byte elements (out->pos = 0 when absent). */
bool tff_fb_vector(tff_fb* fb, const tff_fb_table* t, int id, size_t elem_size,
                   tff_fb_vec* out);
/* String field: NUL-terminated inside the buffer; *s = NULL when absent. */
bool tff_fb_string(tff_fb* fb, const tff_fb_table* t, int id, const char** s,
                   uint32_t* len);
/* Element i (< v->len) of a vector of tables; null elements are invalid. */
bool tff_fb_vec_table(tff_fb* fb, const tff_fb_vec* v, uint32_t i, tff_fb_table* out);

/* Elements of a verified vector; i must be < v->len. */
static inline const uint8_t* tff_fb_vec_data(const tff_fb* fb, const tff_fb_vec* v) {
  return fb->buf + v->pos;
}
static inline int32_t tff_fb_vec_i32(const tff_fb* fb, const tff_fb_vec* v, uint32_t i) {
  return (int32_t)tff_fb_ld32(fb->buf + v->pos + 4 * (size_t)i);
}
static inline int64_t tff_fb_vec_i64(const tff_fb* fb, const tff_fb_vec* v, uint32_t i) {
  return (int64_t)tff_fb_ld64(fb->buf + v->pos + 8 * (size_t)i);
}
static inline uint16_t tff_fb_vec_u16(const tff_fb* fb, const tff_fb_vec* v, uint32_t i) {
  return tff_fb_ld16(fb->buf + v->pos + 2 * (size_t)i);
}
static inline uint8_t tff_fb_vec_u8(const tff_fb* fb, const tff_fb_vec* v, uint32_t i) {
  return fb->buf[v->pos + i];
}
/* Inline: the reader calls it once per quantization scale (thousands per
 * model at construction). */
static inline float tff_fb_vec_f32(const tff_fb* fb, const tff_fb_vec* v, uint32_t i) {
  const uint32_t bits = tff_fb_ld32(fb->buf + v->pos + 4 * (size_t)i);
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

/* Schema TensorType -> TfLiteType (the two enums are numbered differently);
 * false for values this schema does not know. */
bool tff_schema_tensor_type(int schema_type, TfLiteType* out);

#endif /* TFLITE_FAST_RUNTIME_FB_H_ */
