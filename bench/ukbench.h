/* The shared part of bench/bench_ukernels.c's families: one timing helper,
 * the table printing, and the indirection of a window layer. */
#ifndef TFF_BENCH_UKBENCH_H_
#define TFF_BENCH_UKBENCH_H_

#include <stddef.h>
#include <stdint.h>

/* A family of the input lines "family label numbers...": header() prints
 * its table's header, row() reads the numbers after the label and prints
 * the row (returns 0 on malformed input). */
typedef struct {
  const char* name;
  void (*header)(const void* arg);
  int (*row)(const char* label, const void* arg);
  const void* arg;
} ukb_family;

/* Each file's families, ended by an entry without a name. */
extern const ukb_family ukb_gemm[], ukb_dwconv[], ukb_pool[];

/* Seconds of one pass(ctx), best of the repetitions the command line asks. */
double ukb_seconds(void (*pass)(const void* ctx), const void* ctx);
/* Whether this CPU runs a kernel that needs `isa`. */
int ukb_runs(uint32_t isa);
/* The ISA bits a family has columns for: those of SCALAR, SSE41, AVX2,
 * AVX512VNNI the CPU runs and for which built(bit) (the family's select
 * with only that bit) returns a kernel of that bit. */
int ukb_isa_columns(uint32_t (*built)(uint32_t bit), uint32_t* isa);

/* "family (unit)" above the header line "shape <cols> <names...>". */
void ukb_header(const char* family, const char* unit, const char* cols, int n,
                const char* const* names);
void ukb_cell(double rate); /* one column of a row; < 0 prints "-" */
void ukb_end_row(void);
/* n random values: int8 in [-100, 100] (esize 1) or floats in [-1, 1]. */
void ukb_fill(void* x, size_t n, size_t esize);
/* The part of a kernel's name after "ukernel_" ("5x16c2__avx2"). */
const char* ukb_short_name(const char* name);
/* malloc that exits on failure: a bench has no way to go on. */
void* ukb_alloc(size_t bytes);

/* A DEPTHWISE_CONV_2D or pooling layer of one image: input ih×iw×c, output
 * oh×ow, window kh×kw, strides sh, sw, dilations dh, dw, padding pt, pl. */
typedef struct {
  size_t ih, iw, c, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl;
} ukb_window;

int ukb_read_window(ukb_window* w);
void ukb_print_window(const char* label, const ukb_window* w);
#define UKB_WINDOW_COLS "pixels     c  win  s"
/* Per output pixel and tap (row-major window), the element offset of the
 * tap's pixel in the ih×iw×c image; a tap in the padding gets UKB_PAD, or
 * with clamp the nearest image pixel (pooling counts only image taps; the
 * bench keeps the full window). */
#define UKB_PAD ((size_t)-1)
void ukb_window_offsets(const ukb_window* w, int clamp, size_t* off);

/* The buffers of one layer timing; sizes count values of esize bytes (1:
 * int8, 4: float). */
typedef struct {
  void* image;   /* random values */
  void* ind;     /* taps pointers of the value type: image + off, or zero */
  void* weights; /* random values */
  void* zero;    /* zeros: the int8 zero point is 0 */
  void* out;
} ukb_layer;
void ukb_layer_alloc(ukb_layer* l, size_t esize, size_t image, const size_t* off, size_t taps,
                     size_t weights, size_t zero, size_t out);
void ukb_layer_free(ukb_layer* l);

#endif /* TFF_BENCH_UKBENCH_H_ */
