/* Delegate application (docs/delegate-abi.md §4.2-4.3): the delegate-only
 * context callbacks ReplaceNodeSubsetsWithDelegateKernels and
 * PreviewDelegatePartitioning, and TFLite's ModifyGraphWithDelegate state
 * machine over every subgraph of an interpreter. */
#ifndef TFLITE_FAST_RUNTIME_DELEGATE_H_
#define TFLITE_FAST_RUNTIME_DELEGATE_H_

#include "interpreter.h"

/* Applies `d` to every subgraph in index order. greedy=0 partitions as
 * experimental_disable_delegate_clustering; fuse=0 (or preserve_all_tensors,
 * as in LiteRT) makes one partition per claimed node. Static delegates (without
 * kTfLiteDelegateFlagsAllowDynamicTensors) get their kernels prepared now
 * and leave the graph immutable. On failure every delegate of every subgraph
 * is removed (the original plans restored) and the messages are in
 * tff_interpreter_error: TFF_STATUS_PREPARE_FAILED. */
tff_status tff_interpreter_apply_delegate(tff_interpreter* it, TfLiteDelegate* d, int greedy,
                                          int fuse);

/* Delegates one subgraph can hold at once. */
#define TFF_MAX_DELEGATES 16

/* Sets ctx's delegate-only callbacks (GetExecutionPlan,
 * GetNodeAndRegistration, ReplaceNodeSubsetsWithDelegateKernels,
 * PreviewDelegatePartitioning, Acquire/ReleaseSubgraphContext) to TFLite's
 * stubs that report "The function is forbidden if not calling in
 * delegate." and fail; they are live only while a delegate's Prepare runs
 * or the subgraph's context is acquired (doc §1.5). */
void tff_delegate_context_init(TfLiteContext* ctx);

struct tff_subgraph;
/* Before an input of `sg` is resized: a graph made immutable by a static
 * delegate has all its delegates undone (TFLite's UndoAllDelegates) ... */
void tff_delegation_before_resize(struct tff_subgraph* sg);
/* ... and re-applied, in order, at the next allocate (RedoAllDelegates).
 * Failure: as tff_interpreter_apply_delegate. */
tff_status tff_delegation_before_allocate(tff_interpreter* it);

/* Before a node runs: its inputs left stale behind a buffer handle by a
 * delegate other than the node's own are fetched with that delegate's
 * CopyFromBufferHandle, as TFLite's Invoke does ... */
TfLiteStatus tff_delegation_read_inputs(struct tff_subgraph* sg, const TfLiteNode* node);
/* ... and so are the subgraph's outputs after a successful invoke from the
 * API or a control-flow op. A failed copy is reported but not returned:
 * TFLite's Python Invoke and its IF/WHILE kernels ignore that status. */
void tff_delegation_read_outputs(struct tff_subgraph* sg);

/* Frees what delegation added to a subgraph (delegate nodes' params blocks,
 * the saved plan) and has the owners of tensors' buffer handles free them;
 * called after the nodes are freed, the node table itself by the caller. */
void tff_delegation_free(struct tff_subgraph* sg);

#endif /* TFLITE_FAST_RUNTIME_DELEGATE_H_ */
