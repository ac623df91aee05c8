/* tflite_fast: the TensorFlow Lite C ABI, written from the public layout facts.
 *
 * These are the structs a delegate or custom op compiled against TFLite's own
 * `tensorflow/lite/core/c/common.h` sees. Members are only ever appended
 * upstream; the static_asserts at the end pin the LP64 sizes and offsets so
 * that a binary built against TFLite's headers reads our memory correctly.
 * The graph in memory *is* these structs: one mechanism for builtins, custom
 * ops and delegate kernels.
 */
#ifndef TFLITE_FAST_COMMON_H_
#define TFLITE_FAST_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TfLiteStatus {
  kTfLiteOk = 0,
  kTfLiteError = 1,
  kTfLiteDelegateError = 2,
  kTfLiteApplicationError = 3,
  kTfLiteDelegateDataNotFound = 4,
  kTfLiteDelegateDataWriteError = 5,
  kTfLiteDelegateDataReadError = 6,
  kTfLiteUnresolvedOps = 7,
  kTfLiteCancelled = 8,
  kTfLiteOutputShapeNotKnown = 9,
} TfLiteStatus;

typedef enum TfLiteType {
  kTfLiteNoType = 0,
  kTfLiteFloat32 = 1,
  kTfLiteInt32 = 2,
  kTfLiteUInt8 = 3,
  kTfLiteInt64 = 4,
  kTfLiteString = 5,
  kTfLiteBool = 6,
  kTfLiteInt16 = 7,
  kTfLiteComplex64 = 8,
  kTfLiteInt8 = 9,
  kTfLiteFloat16 = 10,
  kTfLiteFloat64 = 11,
  kTfLiteComplex128 = 12,
  kTfLiteUInt64 = 13,
  kTfLiteResource = 14,
  kTfLiteVariant = 15,
  kTfLiteUInt32 = 16,
  kTfLiteUInt16 = 17,
  kTfLiteInt4 = 18,
  kTfLiteBFloat16 = 19,
  kTfLiteInt2 = 20,
  kTfLiteUInt4 = 21,
  kTfLiteFloat8E4M3FN = 22,
  kTfLiteFloat8E5M2 = 23,
} TfLiteType;

/* Heap arrays are malloc'd; whoever owns them releases them with free(). */
typedef struct TfLiteIntArray {
  int size;
  int data[];
} TfLiteIntArray;

typedef struct TfLiteFloatArray {
  int size;
  float data[];
} TfLiteFloatArray;

typedef struct TfLiteComplex64 { float re, im; } TfLiteComplex64;
typedef struct TfLiteComplex128 { double re, im; } TfLiteComplex128;
typedef struct TfLiteFloat16 { uint16_t data; } TfLiteFloat16;
typedef struct TfLiteBFloat16 { uint16_t data; } TfLiteBFloat16;

/* Legacy per-tensor quantization, kept in sync with `quantization`. */
typedef struct TfLiteQuantizationParams {
  float scale;
  int32_t zero_point;
} TfLiteQuantizationParams;

typedef enum TfLiteQuantizationType {
  kTfLiteNoQuantization = 0,
  kTfLiteAffineQuantization = 1,
  kTfLiteBlockwiseQuantization = 2,
  kTfLiteMultiAxisQuantization = 3,
} TfLiteQuantizationType;

typedef struct TfLiteQuantization {
  TfLiteQuantizationType type;
  void* params; /* TfLiteAffineQuantization* when type is affine */
} TfLiteQuantization;

/* scale->size == zero_point->size == 1 (per tensor) or the size of
 * dims[quantized_dimension] (per channel). */
typedef struct TfLiteAffineQuantization {
  TfLiteFloatArray* scale;
  TfLiteIntArray* zero_point;
  int32_t quantized_dimension;
} TfLiteAffineQuantization;

typedef enum TfLiteDimensionType {
  kTfLiteDimDense = 0,
  kTfLiteDimSparseCSR = 1,
} TfLiteDimensionType;

typedef struct TfLiteDimensionMetadata {
  TfLiteDimensionType format;
  int dense_size;
  TfLiteIntArray* array_segments;
  TfLiteIntArray* array_indices;
} TfLiteDimensionMetadata;

typedef struct TfLiteSparsity {
  TfLiteIntArray* traversal_order;
  TfLiteIntArray* block_map;
  TfLiteDimensionMetadata* dim_metadata;
  int dim_metadata_size;
} TfLiteSparsity;

typedef union TfLitePtrUnion {
  int32_t* i32;
  uint32_t* u32;
  int64_t* i64;
  uint64_t* u64;
  float* f;
  TfLiteFloat16* f16;
  double* f64;
  char* raw;
  const char* raw_const;
  uint8_t* uint8;
  bool* b;
  int16_t* i16;
  uint16_t* ui16;
  TfLiteComplex64* c64;
  TfLiteComplex128* c128;
  int8_t* int8;
  void* data;
} TfLitePtrUnion;

typedef enum TfLiteAllocationType {
  kTfLiteMemNone = 0,
  kTfLiteMmapRo = 1,            /* constant, points into the model */
  kTfLiteArenaRw = 2,           /* planned in the arena */
  kTfLiteArenaRwPersistent = 3, /* whole-run (variables) */
  kTfLiteDynamic = 4,           /* malloc'd, owned by the tensor */
  kTfLitePersistentRo = 5,      /* computed once at prepare */
  kTfLiteCustom = 6,
  kTfLiteVariantObject = 7,
  kTfLiteNonCpu = 8,
} TfLiteAllocationType;

typedef int TfLiteBufferHandle;
enum { kTfLiteNullBufferHandle = -1 };
/* An omitted optional input in node->inputs. */
enum { kTfLiteOptionalTensor = -1 };

struct TfLiteContext;
struct TfLiteDelegate;
struct TfLiteRegistration;
struct TfLiteOpaqueDelegateBuilder;
struct TfLiteOperator;
struct TfLiteAsyncKernel;

typedef struct TfLiteTensor {
  TfLiteType type;
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  TfLiteQuantizationParams params;
  TfLiteAllocationType allocation_type;
  size_t bytes;
  const void* allocation;
  const char* name;
  struct TfLiteDelegate* delegate;
  TfLiteBufferHandle buffer_handle;
  bool data_is_stale;
  bool is_variable;
  TfLiteQuantization quantization;
  TfLiteSparsity* sparsity;
  const TfLiteIntArray* dims_signature;
} TfLiteTensor;

typedef struct TfLiteNode {
  TfLiteIntArray* inputs;
  TfLiteIntArray* outputs;
  TfLiteIntArray* intermediates;
  TfLiteIntArray* temporaries;
  void* user_data;          /* what the registration's init returned */
  void* builtin_data;       /* TfLite*Params, or TfLiteDelegateParams* */
  const void* custom_initial_data;
  int custom_initial_data_size;
  struct TfLiteDelegate* delegate;
  bool might_have_side_effect;
} TfLiteNode;

typedef enum TfLiteExternalContextType {
  kTfLiteEigenContext = 0,
  kTfLiteGemmLowpContext = 1,
  kTfLiteEdgeTpuContext = 2,
  kTfLiteCpuBackendContext = 3,
  kTfLiteLiteRtBufferContext = 4,
  kTfLiteMaxExternalContexts = 5,
} TfLiteExternalContextType;

typedef struct TfLiteExternalContext {
  TfLiteExternalContextType type;
  TfLiteStatus (*Refresh)(struct TfLiteContext* context);
} TfLiteExternalContext;

typedef struct TfLiteDelegateParams {
  struct TfLiteDelegate* delegate;
  TfLiteIntArray* nodes_to_replace;
  TfLiteIntArray* input_tensors;
  TfLiteIntArray* output_tensors;
} TfLiteDelegateParams;

typedef struct TfLiteEvalTensor {
  TfLitePtrUnion data;
  TfLiteIntArray* dims;
  TfLiteType type;
} TfLiteEvalTensor;

typedef struct TfLiteContext {
  size_t tensors_size;
  TfLiteStatus (*GetExecutionPlan)(struct TfLiteContext* context,
                                   TfLiteIntArray** execution_plan);
  TfLiteTensor* tensors;
  void* impl_;
  /* Takes ownership of new_size. */
  TfLiteStatus (*ResizeTensor)(struct TfLiteContext*, TfLiteTensor* tensor,
                               TfLiteIntArray* new_size);
  void (*ReportError)(struct TfLiteContext*, const char* msg, ...);
  TfLiteStatus (*AddTensors)(struct TfLiteContext*, int tensors_to_add,
                             int* first_new_tensor_index);
  TfLiteStatus (*GetNodeAndRegistration)(struct TfLiteContext*, int node_index,
                                         TfLiteNode** node,
                                         struct TfLiteRegistration** registration);
  /* The registration is passed by value. */
  TfLiteStatus (*ReplaceNodeSubsetsWithDelegateKernels)(
      struct TfLiteContext*, struct TfLiteRegistration registration,
      const TfLiteIntArray* nodes_to_replace, struct TfLiteDelegate* delegate);
  int recommended_num_threads;
  TfLiteExternalContext* (*GetExternalContext)(struct TfLiteContext*,
                                               TfLiteExternalContextType);
  void (*SetExternalContext)(struct TfLiteContext*, TfLiteExternalContextType,
                             TfLiteExternalContext*);
  bool allow_fp32_relax_to_fp16;
  void* profiler;
  /* TFLM-only allocators: NULL here, as in full TFLite. */
  void* (*AllocatePersistentBuffer)(struct TfLiteContext* ctx, size_t bytes);
  TfLiteStatus (*AllocateBufferForEval)(struct TfLiteContext* ctx, size_t bytes,
                                        void** ptr);
  TfLiteStatus (*RequestScratchBufferInArena)(struct TfLiteContext* ctx,
                                              size_t bytes, int* buffer_idx);
  void* (*GetScratchBuffer)(struct TfLiteContext* ctx, int buffer_idx);
  TfLiteStatus (*ResizeTensorExplicit)(struct TfLiteContext* ctx,
                                       TfLiteTensor* tensor, int dims,
                                       const int* shape);
  /* Output owned by the runtime, valid until the delegate's Prepare returns. */
  TfLiteStatus (*PreviewDelegatePartitioning)(
      struct TfLiteContext* context, const TfLiteIntArray* nodes_to_replace,
      TfLiteDelegateParams** partition_params_array, int* num_partitions);
  TfLiteTensor* (*GetTensor)(const struct TfLiteContext* context,
                             int tensor_idx);
  TfLiteEvalTensor* (*GetEvalTensor)(const struct TfLiteContext* context,
                                     int tensor_idx);
  TfLiteStatus (*GetModelMetadata)(const struct TfLiteContext* context,
                                   const char* name, const char** ptr,
                                   size_t* bytes);
  TfLiteStatus (*AcquireSubgraphContext)(struct TfLiteContext* context,
                                         int subgraph_index,
                                         struct TfLiteContext** acquired_context);
  TfLiteStatus (*ReleaseSubgraphContext)(struct TfLiteContext* context,
                                         int subgraph_index);
} TfLiteContext;

typedef struct TfLiteRegistration {
  void* (*init)(TfLiteContext* context, const char* buffer, size_t length);
  void (*free)(TfLiteContext* context, void* buffer);
  TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node);
  TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node);
  const char* (*profiling_string)(const TfLiteContext* context,
                                  const TfLiteNode* node);
  int32_t builtin_code;
  const char* custom_name;
  int version;
  /* Appended after V1 (64 bytes); not trusted for legacy delegates. */
  struct TfLiteOperator* registration_external;
  struct TfLiteAsyncKernel* (*async_kernel)(TfLiteContext* context,
                                            TfLiteNode* node);
  uint64_t inplace_operator;
} TfLiteRegistration;

/* init may return this to fail. */
#define TfLiteKernelInitFailed() ((void*)(intptr_t)-1)

typedef enum TfLiteDelegateFlags {
  kTfLiteDelegateFlagsNone = 0,
  kTfLiteDelegateFlagsAllowDynamicTensors = 1,
  kTfLiteDelegateFlagsRequirePropagatedShapes = 2,
  kTfLiteDelegateFlagsPerOperatorProfiling = 4,
  kTfLiteDelegateFlagsHintFullyDelegatedToSingleDelegate = 8,
} TfLiteDelegateFlags;

typedef struct TfLiteDelegate {
  void* data_;
  TfLiteStatus (*Prepare)(TfLiteContext* context,
                          struct TfLiteDelegate* delegate);
  TfLiteStatus (*CopyFromBufferHandle)(TfLiteContext* context,
                                       struct TfLiteDelegate* delegate,
                                       TfLiteBufferHandle buffer_handle,
                                       TfLiteTensor* tensor);
  TfLiteStatus (*CopyToBufferHandle)(TfLiteContext* context,
                                     struct TfLiteDelegate* delegate,
                                     TfLiteBufferHandle buffer_handle,
                                     TfLiteTensor* tensor);
  void (*FreeBufferHandle)(TfLiteContext* context,
                           struct TfLiteDelegate* delegate,
                           TfLiteBufferHandle* handle);
  int64_t flags;
  /* Appended: read only when the delegate is opaque (see delegate-abi §1.9). */
  struct TfLiteOpaqueDelegateBuilder* opaque_delegate_builder;
} TfLiteDelegate;

/* Helpers with TFLite's names and malloc/free ownership. */
int TfLiteIntArrayGetSizeInBytes(int size);
TfLiteIntArray* TfLiteIntArrayCreate(int size);
TfLiteIntArray* TfLiteIntArrayCopy(const TfLiteIntArray* src);
int TfLiteIntArrayEqual(const TfLiteIntArray* a, const TfLiteIntArray* b);
int TfLiteIntArrayEqualsArray(const TfLiteIntArray* a, int b_size,
                              const int b_data[]);
void TfLiteIntArrayFree(TfLiteIntArray* a);
TfLiteFloatArray* TfLiteFloatArrayCreate(int size);
void TfLiteFloatArrayFree(TfLiteFloatArray* a);
const char* TfLiteTypeGetName(TfLiteType type);
/* Bytes of one element; 0 for types without a fixed element size. */
size_t tff_type_size(TfLiteType type);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* LP64 layout pins (docs/delegate-abi.md §1). */
#if defined(__LP64__) && !defined(__cplusplus)
#define TFF_ABI_CHECK(c) _Static_assert(c, #c)
TFF_ABI_CHECK(sizeof(TfLiteTensor) == 112);
TFF_ABI_CHECK(offsetof(TfLiteTensor, data) == 8);
TFF_ABI_CHECK(offsetof(TfLiteTensor, dims) == 16);
TFF_ABI_CHECK(offsetof(TfLiteTensor, params) == 24);
TFF_ABI_CHECK(offsetof(TfLiteTensor, allocation_type) == 32);
TFF_ABI_CHECK(offsetof(TfLiteTensor, bytes) == 40);
TFF_ABI_CHECK(offsetof(TfLiteTensor, allocation) == 48);
TFF_ABI_CHECK(offsetof(TfLiteTensor, name) == 56);
TFF_ABI_CHECK(offsetof(TfLiteTensor, delegate) == 64);
TFF_ABI_CHECK(offsetof(TfLiteTensor, buffer_handle) == 72);
TFF_ABI_CHECK(offsetof(TfLiteTensor, data_is_stale) == 76);
TFF_ABI_CHECK(offsetof(TfLiteTensor, is_variable) == 77);
TFF_ABI_CHECK(offsetof(TfLiteTensor, quantization) == 80);
TFF_ABI_CHECK(offsetof(TfLiteTensor, sparsity) == 96);
TFF_ABI_CHECK(offsetof(TfLiteTensor, dims_signature) == 104);
TFF_ABI_CHECK(sizeof(TfLiteNode) == 80);
TFF_ABI_CHECK(offsetof(TfLiteNode, user_data) == 32);
TFF_ABI_CHECK(offsetof(TfLiteNode, builtin_data) == 40);
TFF_ABI_CHECK(offsetof(TfLiteNode, custom_initial_data_size) == 56);
TFF_ABI_CHECK(offsetof(TfLiteNode, delegate) == 64);
TFF_ABI_CHECK(offsetof(TfLiteNode, might_have_side_effect) == 72);
TFF_ABI_CHECK(sizeof(TfLiteContext) == 200);
TFF_ABI_CHECK(offsetof(TfLiteContext, tensors) == 16);
TFF_ABI_CHECK(offsetof(TfLiteContext, ResizeTensor) == 32);
TFF_ABI_CHECK(offsetof(TfLiteContext, ReplaceNodeSubsetsWithDelegateKernels) == 64);
TFF_ABI_CHECK(offsetof(TfLiteContext, recommended_num_threads) == 72);
TFF_ABI_CHECK(offsetof(TfLiteContext, allow_fp32_relax_to_fp16) == 96);
TFF_ABI_CHECK(offsetof(TfLiteContext, AllocatePersistentBuffer) == 112);
TFF_ABI_CHECK(offsetof(TfLiteContext, PreviewDelegatePartitioning) == 152);
TFF_ABI_CHECK(offsetof(TfLiteContext, GetModelMetadata) == 176);
TFF_ABI_CHECK(offsetof(TfLiteContext, ReleaseSubgraphContext) == 192);
TFF_ABI_CHECK(sizeof(TfLiteRegistration) == 88);
TFF_ABI_CHECK(offsetof(TfLiteRegistration, builtin_code) == 40);
TFF_ABI_CHECK(offsetof(TfLiteRegistration, version) == 56);
TFF_ABI_CHECK(offsetof(TfLiteRegistration, registration_external) == 64);
TFF_ABI_CHECK(offsetof(TfLiteRegistration, inplace_operator) == 80);
TFF_ABI_CHECK(sizeof(TfLiteDelegate) == 56);
TFF_ABI_CHECK(offsetof(TfLiteDelegate, flags) == 40);
TFF_ABI_CHECK(sizeof(TfLiteDelegateParams) == 32);
#undef TFF_ABI_CHECK
#endif

#endif /* TFLITE_FAST_COMMON_H_ */
