/* A bounds-checked reader of the FlexBuffers that hold custom ops' options
 * (MediaPipe's version-1 ops read maps of scalars, strings and int vectors).
 *
 * Layout (flatbuffers' flexbuffers.h): the buffer ends with the root value,
 * its packed type byte and its byte width. A packed type is type << 2 |
 * log2(width of what it points to). Strings, vectors and maps are reached by
 * an unsigned offset stored in the parent's slot, counted backwards from
 * that slot; their element count precedes their first element. A map is an
 * untyped vector of values (a type byte per value after the values) preceded
 * by its keys vector's offset and width; its keys are sorted. Every read is
 * checked against the buffer: a malformed buffer gives 0, never a bad read. */
#ifndef TFLITE_FAST_OPS_MEDIAPIPE_FLEXBUFFER_H_
#define TFLITE_FAST_OPS_MEDIAPIPE_FLEXBUFFER_H_

#include <stddef.h>
#include <stdint.h>

/* FlexBuffers value types used here. */
enum {
  kFlexNull = 0,
  kFlexInt = 1,
  kFlexUInt = 2,
  kFlexFloat = 3,
  kFlexKey = 4,
  kFlexString = 5,
  kFlexIndirectInt = 6,
  kFlexIndirectUInt = 7,
  kFlexIndirectFloat = 8,
  kFlexMap = 9,
  kFlexVector = 10,
  kFlexVectorInt = 11,
  kFlexVectorUInt = 12,
  kFlexVectorFloat = 13,
  kFlexBool = 26,
};

/* One value: for scalars `pos` is its slot of `width` bytes; for strings,
 * vectors and maps `pos` is the first element and `width` each element's. */
typedef struct tff_flex {
  const uint8_t* buf;
  size_t size;
  size_t pos;
  int width;
  int type;
  size_t len; /* element count (strings: bytes) */
} tff_flex;

/* The root value of buf[0..size). */
int tff_flex_root(const uint8_t* buf, size_t size, tff_flex* out);

/* Map lookup: 1 with *out, 0 when `m` is not a map, malformed, or lacks key. */
int tff_flex_get(const tff_flex* m, const char* key, tff_flex* out);

/* Element i of a vector or a map's values (maps: in key order). */
int tff_flex_at(const tff_flex* v, size_t i, tff_flex* out);

/* Numeric value (ints, uints, bools, floats, direct or indirect) as a double,
 * or, for tff_flex_int, as an integer: it must be integral and fit in 32 bits
 * (the options' ints are C ints). */
int tff_flex_number(const tff_flex* x, double* out);
int tff_flex_int(const tff_flex* x, int64_t* out);

/* A string's bytes (NUL-terminated in the buffer) and length. */
int tff_flex_string(const tff_flex* x, const char** s, size_t* len);

#endif  // TFLITE_FAST_OPS_MEDIAPIPE_FLEXBUFFER_H_
