/* The one-lane "vector" of the qs8 scalar twins: an int8 value held in an
 * int32 (the names the kernel bodies are written in). */
#define TFF_ISA scalar
#define TFF_W 1
#define TFF_V int32_t
#define TFF_LOAD(p) ((int32_t)*(p))
#define TFF_STORE(p, v) (*(p) = (int8_t)(v))
#define TFF_SPLAT(x) ((int32_t)(x))
#define TFF_ADD(x, y) ((x) + (y))
#define TFF_MAX(x, y) ((x) > (y) ? (x) : (y))
#define TFF_MIN(x, y) ((x) < (y) ? (x) : (y))
