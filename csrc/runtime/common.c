/* TfLiteIntArray / TfLiteFloatArray helpers with TFLite's malloc/free
 * ownership (delegates free what we allocate and vice versa). */
#include <stdlib.h>
#include <string.h>

#include "tflite_fast/common.h"

int TfLiteIntArrayGetSizeInBytes(int size) {
  return (int)(sizeof(TfLiteIntArray) + sizeof(int) * (size_t)(size > 0 ? size : 0));
}

TfLiteIntArray* TfLiteIntArrayCreate(int size) {
  if (size < 0) return NULL;
  TfLiteIntArray* a = (TfLiteIntArray*)malloc((size_t)TfLiteIntArrayGetSizeInBytes(size));
  if (a) a->size = size;
  return a;
}

TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src) {
  if (src == NULL) return NULL;
  TfLiteIntArray* a = TfLiteIntArrayCreate(src->size);
  if (a) memcpy(a->data, src->data, sizeof(int) * (size_t)src->size);
  return a;
}

int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a, int b_size, const int b_data[]) {
  if (a == NULL) return b_size == 0;
  if (a->size != b_size) return 0;
  for (int i = 0; i < b_size; ++i)
    if (a->data[i] != b_data[i]) return 0;
  return 1;
}

int TfLiteIntArrayEqual(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  if (a == b) return 1;
  if (a == NULL || b == NULL) return 0;
  return TfLiteIntArrayEqualsArray(a, b->size, b->data);
}

void TfLiteIntArrayFree(TfLiteIntArray* a) { free(a); }

TfLiteFloatArray* TfLiteFloatArrayCreate(int size) {
  if (size < 0) return NULL;
  TfLiteFloatArray* a =
      (TfLiteFloatArray*)malloc(sizeof(TfLiteFloatArray) + sizeof(float) * (size_t)size);
  if (a) a->size = size;
  return a;
}

void TfLiteFloatArrayFree(TfLiteFloatArray* a) { free(a); }

const char* TfLiteTypeGetName(TfLiteType type) {
  switch (type) {
    case kTfLiteNoType: return "NOTYPE";
    case kTfLiteFloat32: return "FLOAT32";
    case kTfLiteInt32: return "INT32";
    case kTfLiteUInt8: return "UINT8";
    case kTfLiteInt64: return "INT64";
    case kTfLiteString: return "STRING";
    case kTfLiteBool: return "BOOL";
    case kTfLiteInt16: return "INT16";
    case kTfLiteComplex64: return "COMPLEX64";
    case kTfLiteInt8: return "INT8";
    case kTfLiteFloat16: return "FLOAT16";
    case kTfLiteFloat64: return "FLOAT64";
    case kTfLiteComplex128: return "COMPLEX128";
    case kTfLiteUInt64: return "UINT64";
    case kTfLiteResource: return "RESOURCE";
    case kTfLiteVariant: return "VARIANT";
    case kTfLiteUInt32: return "UINT32";
    case kTfLiteUInt16: return "UINT16";
    case kTfLiteInt4: return "INT4";
    case kTfLiteBFloat16: return "BFLOAT16";
    case kTfLiteInt2: return "INT2";
    case kTfLiteUInt4: return "UINT4";
    case kTfLiteFloat8E4M3FN: return "FLOAT8E4M3FN";
    case kTfLiteFloat8E5M2: return "FLOAT8E5M2";
  }
  return "Unknown type";
}

size_t tff_type_size(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32: case kTfLiteInt32: case kTfLiteUInt32: return 4;
    case kTfLiteUInt8: case kTfLiteInt8: case kTfLiteBool: return 1;
    case kTfLiteInt64: case kTfLiteUInt64: case kTfLiteFloat64: case kTfLiteComplex64: return 8;
    case kTfLiteInt16: case kTfLiteUInt16: case kTfLiteFloat16: case kTfLiteBFloat16: return 2;
    case kTfLiteComplex128: return 16;
    case kTfLiteFloat8E4M3FN: case kTfLiteFloat8E5M2: return 1;
    default: return 0; /* string, resource, variant, packed int4/int2 */
  }
}
