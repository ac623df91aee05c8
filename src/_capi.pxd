# Declarations of the csrc headers used by _core.pyx (nothing else lives here).
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

cdef extern from "tflite_fast/common.h" nogil:
    ctypedef enum TfLiteStatus:
        kTfLiteOk
    ctypedef struct TfLiteIntArray:
        int size
        int* data
    ctypedef struct TfLiteFloatArray:
        int size
        float* data
    ctypedef struct TfLiteQuantizationParams:
        float scale
        int32_t zero_point
    ctypedef struct TfLiteAffineQuantization:
        TfLiteFloatArray* scale
        TfLiteIntArray* zero_point
        int32_t quantized_dimension
    ctypedef struct TfLiteQuantization:
        int type
        void* params
    ctypedef struct TfLiteDimensionMetadata:
        int format
        int dense_size
        TfLiteIntArray* array_segments
        TfLiteIntArray* array_indices
    ctypedef struct TfLiteSparsity:
        TfLiteIntArray* traversal_order
        TfLiteIntArray* block_map
        TfLiteDimensionMetadata* dim_metadata
        int dim_metadata_size
    ctypedef union TfLitePtrUnion:
        char* raw
        void* data
    ctypedef struct TfLiteTensor:
        int type
        TfLitePtrUnion data
        TfLiteIntArray* dims
        TfLiteQuantizationParams params
        int allocation_type
        size_t bytes
        const char* name
        bint is_variable
        TfLiteQuantization quantization
        TfLiteSparsity* sparsity
        const TfLiteIntArray* dims_signature
    ctypedef struct TfLiteNode:
        TfLiteIntArray* inputs
        TfLiteIntArray* outputs
        void* user_data
        void* builtin_data
        const void* custom_initial_data
        int custom_initial_data_size
        void* delegate
    ctypedef struct TfLiteRegistration:
        void* (*init)(TfLiteContext* context, const char* buffer, size_t length)
        void (*free)(TfLiteContext* context, void* buffer)
        TfLiteStatus (*prepare)(TfLiteContext* context, TfLiteNode* node)
        TfLiteStatus (*invoke)(TfLiteContext* context, TfLiteNode* node)
        const char* (*profiling_string)(const TfLiteContext* context, const TfLiteNode* node)
        int32_t builtin_code
        const char* custom_name
        int version
    ctypedef struct TfLiteDelegate:
        void* data_
        TfLiteStatus (*Prepare)(TfLiteContext* context, TfLiteDelegate* delegate)
        int64_t flags
    ctypedef struct TfLiteDelegateParams:
        TfLiteDelegate* delegate
        TfLiteIntArray* nodes_to_replace
        TfLiteIntArray* input_tensors
        TfLiteIntArray* output_tensors
    ctypedef struct TfLiteContext:
        size_t tensors_size
        TfLiteStatus (*GetExecutionPlan)(TfLiteContext* ctx, TfLiteIntArray** plan)
        TfLiteTensor* tensors
        TfLiteStatus (*ResizeTensor)(TfLiteContext* ctx, TfLiteTensor* tensor, TfLiteIntArray* new_size)
        void (*ReportError)(TfLiteContext* ctx, const char* format, ...)
        TfLiteStatus (*GetNodeAndRegistration)(TfLiteContext* ctx, int node_index,
                                               TfLiteNode** node, TfLiteRegistration** reg)
        TfLiteStatus (*ReplaceNodeSubsetsWithDelegateKernels)(
            TfLiteContext* ctx, TfLiteRegistration reg, const TfLiteIntArray* nodes_to_replace,
            TfLiteDelegate* delegate)
        TfLiteStatus (*PreviewDelegatePartitioning)(
            TfLiteContext* ctx, const TfLiteIntArray* nodes_to_replace,
            TfLiteDelegateParams** partition_params_array, int* num_partitions)
    TfLiteIntArray* TfLiteIntArrayCreate(int size)
    void TfLiteIntArrayFree(TfLiteIntArray* a)
    void* TfLiteKernelInitFailed()
    TfLiteStatus kTfLiteError
    const char* TfLiteTypeGetName(int type)
    int kTfLiteAffineQuantization
    int kTfLiteMmapRo

cdef extern from "tflite_fast/builtin_ops.h" nogil:
    int kTfLiteBuiltinCustom
    const char* tff_builtin_name(int code)

cdef extern from "tflite_fast/status.h" nogil:
    ctypedef enum tff_status:
        TFF_OK
        TFF_STATUS_INVALID_MODEL
        TFF_STATUS_INVALID_ARGUMENT
        TFF_STATUS_UNSUPPORTED
        TFF_STATUS_PREPARE_FAILED
        TFF_STATUS_INVOKE_FAILED
        TFF_STATUS_NOT_READY
        TFF_STATUS_OUT_OF_MEMORY
        TFF_STATUS_IO_ERROR

cdef extern from "model.h" nogil:
    ctypedef struct tff_signature_io:
        char* name
        int tensor
    ctypedef struct tff_signature:
        char* key
        int subgraph
        int num_inputs
        tff_signature_io* inputs
        int num_outputs
        tff_signature_io* outputs
    ctypedef struct tff_metadata:
        char* name
        const uint8_t* data
        size_t size
    ctypedef struct tff_model:
        int num_subgraphs
        int num_signatures
        tff_signature* signatures
        int num_metadata
        tff_metadata* metadata

cdef extern from "planner.h" nogil:
    ctypedef struct tff_plan_entry:
        int tensor
        size_t size
        size_t offset
        int first_step
        int last_step

cdef extern from "interpreter.h" nogil:
    ctypedef struct tff_interpreter:
        pass
    int TFF_NUMERICS_DEFAULT
    int TFF_NUMERICS_REF
    tff_status tff_interpreter_create(const uint8_t* buf, size_t size, int numerics,
                                      int num_threads, int preserve_all_tensors,
                                      tff_interpreter** out, char* err, size_t err_size)
    tff_status tff_interpreter_create_from_file(const char* path, int numerics, int num_threads,
                                                int preserve_all_tensors, tff_interpreter** out,
                                                char* err, size_t err_size)
    void tff_interpreter_destroy(tff_interpreter* it)
    int tff_interpreter_register_custom(tff_interpreter* it, const char* name,
                                        const TfLiteRegistration* reg)
    const char* tff_interpreter_error(const tff_interpreter* it)
    const tff_model* tff_interpreter_model(const tff_interpreter* it)
    int tff_interpreter_num_subgraphs(const tff_interpreter* it)
    TfLiteContext* tff_interpreter_context(tff_interpreter* it, int subgraph)
    int tff_subgraph_num_nodes(tff_interpreter* it, int subgraph)
    TfLiteStatus tff_subgraph_node(tff_interpreter* it, int subgraph, int node,
                                   TfLiteNode** out_node, TfLiteRegistration** out_reg)
    const TfLiteIntArray* tff_subgraph_inputs(tff_interpreter* it, int subgraph)
    const TfLiteIntArray* tff_subgraph_outputs(tff_interpreter* it, int subgraph)
    tff_status tff_interpreter_allocate(tff_interpreter* it, int subgraph)
    int tff_interpreter_is_allocated(tff_interpreter* it, int subgraph)
    tff_status tff_interpreter_invoke(tff_interpreter* it, int subgraph)
    int tff_interpreter_enter(tff_interpreter* it)
    void tff_interpreter_leave(tff_interpreter* it)
    tff_status tff_interpreter_resize_input(tff_interpreter* it, int subgraph, int tensor,
                                            const int* dims, int rank, int strict)
    tff_status tff_interpreter_reset_variables(tff_interpreter* it)
    tff_status tff_interpreter_set_profiling(tff_interpreter* it, int on)
    int tff_interpreter_profile(tff_interpreter* it, int s, const uint64_t** ns, const uint64_t** count)
    size_t tff_interpreter_arena_bytes(tff_interpreter* it, int subgraph)
    const tff_plan_entry* tff_interpreter_memory_plan(tff_interpreter* it, int subgraph, int* n)

cdef extern from "delegate.h" nogil:
    tff_status tff_interpreter_apply_delegate(tff_interpreter* it, void* delegate, int greedy,
                                            int fuse)

cdef extern from "cpu/cpu.h" nogil:
    int tff_cpu_init(const char** bad_name)
    unsigned int tff_cpu_compiled()
    unsigned int tff_cpu_detected()
    unsigned int tff_cpu_effective()
    const char* tff_isa_name(unsigned int isa)
