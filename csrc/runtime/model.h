/* The model reader: verifies a .tflite FlatBuffer and extracts it into plain
 * C structs. Every offset, length and index is bounds-checked; a bad file
 * gives TFF_STATUS_INVALID_MODEL with a message naming what is wrong.
 *
 * Ownership: everything here is owned by the tff_model and freed by
 * tff_model_free(), except `data` pointers of constant tensors and buffers,
 * which point into the caller's model bytes (zero copy) unless the bytes were
 * misaligned for the element type, in which case the reader keeps an aligned
 * copy. The model bytes must outlive the tff_model. Descriptors, strings and
 * arrays come from the model's arena: none may be freed or resized alone
 * (whoever needs to, as a tensor's dims, takes a copy).
 */
#ifndef TFLITE_FAST_RUNTIME_MODEL_H_
#define TFLITE_FAST_RUNTIME_MODEL_H_

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "tflite_fast/common.h"
#include "tflite_fast/status.h"

typedef struct tff_tensor_desc {
  TfLiteType type;
  TfLiteIntArray* dims;            /* rank 0 for scalars */
  TfLiteIntArray* dims_signature;  /* NULL when the file has none */
  char* name;                      /* NUL-terminated copy; "" if absent */
  int buffer;                      /* index into model buffers (0 = empty) */
  const void* data;                /* constant data or NULL */
  size_t bytes;                    /* size of `data` */
  /* Quantization: params is the legacy per-tensor view (scale[0], zp[0]);
   * affine is NULL when the tensor has no scales. */
  TfLiteQuantizationParams params;
  TfLiteAffineQuantization* affine;
  TfLiteSparsity* sparsity;        /* NULL if dense */
  bool is_variable;
  bool has_rank;
} tff_tensor_desc;

typedef struct tff_op_desc {
  int opcode_index;
  TfLiteIntArray* inputs;          /* -1 = omitted optional input */
  TfLiteIntArray* outputs;
  TfLiteIntArray* intermediates;   /* size 0 when absent */
  void* builtin_data;              /* malloc'd TfLite*Params, or NULL */
  const uint8_t* custom_options;   /* into the model bytes, or NULL */
  size_t custom_options_size;
  int builtin_options_type;        /* schema BuiltinOptions union type (the
                                      BuiltinOptions2 type for codes >= 162,
                                      STABLEHLO_LOGISTIC on) */
} tff_op_desc;

typedef struct tff_opcode {
  int32_t builtin_code;            /* max(builtin_code, deprecated_builtin_code) */
  char* custom_name;               /* NULL for builtins */
  int version;
} tff_opcode;

typedef struct tff_subgraph_desc {
  char* name;                      /* "" if absent */
  int num_tensors;
  tff_tensor_desc* tensors;
  int num_ops;
  tff_op_desc* ops;
  TfLiteIntArray* inputs;
  TfLiteIntArray* outputs;
} tff_subgraph_desc;

typedef struct tff_signature_io {
  char* name;
  int tensor;
} tff_signature_io;

/* Inputs and outputs are sorted by name, one entry per name (TFLite keeps
 * them in a std::map: the last entry of a name wins). */
typedef struct tff_signature {
  char* key;
  int subgraph;
  int num_inputs;
  tff_signature_io* inputs;
  int num_outputs;
  tff_signature_io* outputs;
} tff_signature;

/* Sorted by name, unique, non-empty (TFLite's ReadAllMetadata map). */
typedef struct tff_metadata {
  char* name;
  const uint8_t* data;             /* the buffer's bytes */
  size_t size;
} tff_metadata;

typedef struct tff_buffer {
  const uint8_t* data;             /* NULL when the buffer has neither a data
                                      vector nor an external offset; a present
                                      but empty vector gives size 0 (TFLite
                                      then treats its tensors as constant) */
  size_t size;
} tff_buffer;

typedef struct tff_model {
  uint32_t version;
  char* description;               /* "" if absent */
  int num_opcodes;
  tff_opcode* opcodes;
  int num_subgraphs;
  tff_subgraph_desc* subgraphs;
  int num_buffers;
  tff_buffer* buffers;
  int num_signatures;
  tff_signature* signatures;
  int num_metadata;
  tff_metadata* metadata;
  void** owned;                    /* aligned copies made by the reader */
  int num_owned;
  tff_arena arena;                 /* everything else but builtin_data */
} tff_model;

/* Parse and verify `size` bytes at `buf`. On failure returns a non-OK status,
 * *out is NULL and `err` holds a message such as
 * "subgraph 0 tensor 5: buffer index 99 out of range (model has 12 buffers)". */
tff_status tff_model_parse(const uint8_t* buf, size_t size, tff_model** out,
                           char* err, size_t err_size);
void tff_model_free(tff_model* model);

/* Decode op options into a malloc'd TfLite*Params for `builtin_code`;
 * *params is NULL for ops without parameters. `options_type` and
 * `table_offset` (0 = absent) are the op's union type and options table
 * position in buf (BuiltinOptions2 for codes >= 162); the table is verified
 * here. Pointers in the params (VAR_HANDLE names, BUCKETIZE boundaries,
 * STABLEHLO_COMPOSITE name/attributes) point into buf. One free() releases
 * the params. Used by tff_model_parse. */
tff_status tff_parse_builtin_options(int builtin_code, int options_type,
                                     const uint8_t* buf, size_t size,
                                     size_t table_offset, void** params,
                                     char* err, size_t err_size);

#endif /* TFLITE_FAST_RUNTIME_MODEL_H_ */
