/* The one-lane "vector" of the scalar twins: the names the kernel bodies
 * (*-impl.h) are written in. */
#define TFF_ISA scalar
#define TFF_W 1
#define TFF_V float
#define TFF_LOAD(p) (*(p))
#define TFF_STORE(p, v) (*(p) = (v))
#define TFF_SPLAT(x) (x)
#define TFF_ADD(x, y) ((x) + (y))
#define TFF_SUB(x, y) ((x) - (y))
#define TFF_MUL(x, y) ((x) * (y))
#define TFF_DIV(x, y) ((x) / (y))
/* x > y ? x : y and x < y ? x : y: y when either is NaN */
#define TFF_MAX(x, y) ((x) > (y) ? (x) : (y))
#define TFF_MIN(x, y) ((x) < (y) ? (x) : (y))
