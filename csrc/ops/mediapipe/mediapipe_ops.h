/* MediaPipe's TFLite custom ops (mediapipe/util/tflite/operations), built in.
 *
 * Every interpreter resolves a CUSTOM node whose name (and version, for the
 * ops MediaPipe versions) is listed here at
 * model load, before delegates and before any prepare, so MediaPipe models
 * run without a custom-op resolver. A user registration of the same name
 * (tff_interpreter_register_custom) still wins: it frees the built-in's node
 * state and replaces it.
 *
 * The options of the unversioned ops are raw C structs in
 * custom_initial_data (MediaPipe reinterpret_casts them); the helpers below
 * copy them out after checking the size, since the bytes are unaligned and
 * may be short. Version-1 Transform* ops and Landmarks2TransformMatrix take
 * a FlexBuffer map instead. */
#ifndef TFLITE_FAST_OPS_MEDIAPIPE_MEDIAPIPE_OPS_H_
#define TFLITE_FAST_OPS_MEDIAPIPE_MEDIAPIPE_OPS_H_

#include "flexbuffer.h"
#include "kernel_util.h"
#include "tflite_fast/builtin_ops.h"

/* The built-in registration for version `version` of custom op `name`, or
 * NULL. */
const TfLiteRegistration* tff_mediapipe_registration(const char* name, int version);

#define TFF_MEDIAPIPE_OP(name, version, fn) const TfLiteRegistration* fn(void);
#include "mediapipe_list.h"
#undef TFF_MEDIAPIPE_OP

/* The first `bytes` of the node's custom options into *dst (zeroed first);
 * fails naming the op when the options are shorter. */
TfLiteStatus tff_mp_options(TfLiteContext* ctx, const TfLiteNode* node, const char* op,
                            void* dst, size_t bytes);

/* The node's FlexBuffer options as a map; absent options are an empty map
 * (len 0), anything else that is not a map fails naming the op. */
TfLiteStatus tff_mp_flex_options(TfLiteContext* ctx, const TfLiteNode* node, const char* op,
                                 tff_flex* map);

/* Option `key` of the map as a number (with `integral`, a 32-bit int), `def`
 * when absent; a value of another kind fails naming the op and the key. */
TfLiteStatus tff_mp_flex_number(TfLiteContext* ctx, const tff_flex* map, const char* op,
                                const char* key, double def, int integral, double* out);

/* Option `key` of the map as a typed vector of 32-bit integers, copied into
 * *vals (realloc'ed, caller-owned, never NULL on success) with its count in
 * *n. Absent is empty, as MediaPipe's AsTypedVector reads it; an untyped
 * vector (which AsTypedVector also reads as empty), another kind of value or
 * a non-integral element fails naming the op and the key. */
TfLiteStatus tff_mp_flex_ints(TfLiteContext* ctx, const tff_flex* map, const char* op,
                              const char* key, int** vals, size_t* n);

/* The 4x4 matrix input of the Transform* ops: float32 with at least the 8
 * values of its first two rows (all they read). */
TfLiteStatus tff_mp_check_matrix(TfLiteContext* ctx, const TfLiteTensor* m, const char* op);

/* Node state of MaxPoolingWithArgmax2D and MaxUnpooling2D. */
typedef struct tff_mp_pool {
  int stride_h, stride_w, filter_h, filter_w;
  int pad_h, pad_w; /* padding rows / columns before the first pixel of the large image */
  float lo, hi;     /* activation bounds, finite as TFLite's */
} tff_mp_pool;

/* Their options: TfLitePoolParams without its `computed` tail, validated
 * (padding, strides, filter, activation) into *p and g (but for padding). */
TfLiteStatus tff_mp_pool_params(TfLiteContext* ctx, const TfLiteNode* node, const char* op,
                                TfLitePoolParams* p, tff_mp_pool* g);

/* g's padding for a pool from a large_h x large_w image to small_h x small_w. */
void tff_mp_pool_pad(tff_mp_pool* g, int large_h, int large_w, int small_h, int small_w);

/* The registration of version `ver` of MediaPipe op `name`. */
#define TFF_MEDIAPIPE_REGISTRATION(fn, name, ver, init_fn, free_fn, prepare_fn, invoke_fn) \
  const TfLiteRegistration* fn(void) {                                                  \
    static const TfLiteRegistration r = {.init = init_fn,                              \
                                         .free = free_fn,                              \
                                         .prepare = prepare_fn,                        \
                                         .invoke = invoke_fn,                          \
                                         .builtin_code = kTfLiteBuiltinCustom,         \
                                         .custom_name = name,                          \
                                         .version = ver};                              \
    return &r;                                                                          \
  }

#endif  // TFLITE_FAST_OPS_MEDIAPIPE_MEDIAPIPE_OPS_H_
