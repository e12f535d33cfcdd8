#include "ops/embedding_bag/embedding_bag_reference.h"

#include "core/float_bits.h"
#include "core/index_value.h"
#include "ops/embedding_bag/embedding_bag_check.h"
#include "ops/embedding_bag/embedding_bag_values.h"

#include <math.h>
#include <string.h>

/* Element k of a table-typed tensor as the accumulation type wants it (exact widening). */
static float load_f32(const void *base, clg_dtype type, uint64_t k)
{
    uint32_t bits;
    if (type == CLG_F32)
        bits = (uint32_t)clg_load_bits((const unsigned char *)base + 4 * k, 4);
    else if (type == CLG_F16)
        bits = clg_f16_to_f32_bits((uint16_t)clg_load_bits((const unsigned char *)base + 2 * k, 2));
    else
        bits = clg_bf16_to_f32_bits((uint16_t)clg_load_bits((const unsigned char *)base + 2 * k, 2));
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static double load_f64(const void *base, clg_dtype type, uint64_t k)
{
    (void)type;
    double v;
    memcpy(&v, (const unsigned char *)base + 8 * k, sizeof v);
    return v;
}

static void store_f32(void *base, clg_dtype type, uint64_t k, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (type == CLG_F32) {
        memcpy((unsigned char *)base + 4 * k, &bits, 4);
        return;
    }
    const uint16_t half = type == CLG_F16 ? clg_f32_to_f16_bits(bits) : clg_f32_to_bf16_bits(bits);
    memcpy((unsigned char *)base + 2 * k, &half, 2);
}

static void store_f64(void *base, clg_dtype type, uint64_t k, double v)
{
    (void)type;
    memcpy((unsigned char *)base + 8 * k, &v, sizeof v);
}

static float canonical_nan_float(void)
{
    const uint32_t bits = CLG_F32_DEFAULT_NAN;
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static double canonical_nan_double(void)
{
    const uint64_t bits = 0x7FF8000000000000ull;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* Column c of bag [start, end): the reduction of docs/semantics.md. *count gets the entries counted. */
#define DEFINE_REDUCE(name, acc_t, load)                                                                    \
    static acc_t name(const clg_embedding_bag_plan *p, const void *const *in, uint64_t start, uint64_t end, \
                      uint64_t c, uint64_t *count)                                                          \
    {                                                                                                       \
        acc_t acc = p->mode == CLG_BAG_MAX ? -INFINITY : 0;                                                 \
        uint64_t n = 0;                                                                                     \
        for (uint64_t i = start; i < end; ++i) {                                                            \
            const int64_t row = clg_bag_read_int(in[1], p->index_type, i);                                  \
            if (row == p->padding_row) continue;                                                            \
            ++n;                                                                                            \
            const acc_t x = load(in[0], p->table_type, (uint64_t)row * p->D + c);                           \
            if (p->mode == CLG_BAG_MAX) {                                                                   \
                if (!isnan(acc) && (isnan(x) || x > acc)) acc = x;                                          \
            } else {                                                                                        \
                /* the product rounded in its own statement: never fused with the sum */                    \
                const acc_t product = p->has_weights ? load(in[3], p->table_type, i) * x : x;               \
                acc = acc + product;                                                                        \
            }                                                                                               \
        }                                                                                                   \
        if (p->mode == CLG_BAG_MEAN && n > 0) acc = acc / (acc_t)n;                                         \
        *count = n;                                                                                         \
        /* which NaN a sum of NaNs gives depends on operand order: sums and means give the canonical one */ \
        return p->mode != CLG_BAG_MAX && isnan(acc) ? canonical_nan_##acc_t() : acc;                        \
    }
DEFINE_REDUCE(reduce_f32, float, load_f32)
DEFINE_REDUCE(reduce_f64, double, load_f64)

/* Bag `bag` reduced into the D values at out_row: the default row's bits, or zeros, if it counted nothing. */
void clg_embedding_bag_reduce_bag(const clg_embedding_bag_plan *p, const void *const *inputs, uint64_t bag,
                                  void *out_row)
{
    uint64_t start, end, count = 0;
    clg_bag_range(p, inputs[2], bag, &start, &end);
    for (uint64_t c = 0; c < p->D; ++c) {
        if (p->table_type == CLG_F64)
            store_f64(out_row, p->table_type, c, reduce_f64(p, inputs, start, end, c, &count));
        else
            store_f32(out_row, p->table_type, c, reduce_f32(p, inputs, start, end, c, &count));
    }
    if (count > 0 || p->D == 0) return;
    const size_t row_bytes = (size_t)(p->D * p->table_size);
    if (p->default_row == CLG_BAG_NO_ROW)
        memset(out_row, 0, row_bytes);
    else
        memcpy(out_row, (const unsigned char *)inputs[0] + (uint64_t)p->default_row * row_bytes, row_bytes);
}

clg_status clg_embedding_bag_reference_run(const void *plan, const void *const *inputs, void *output)
{
    const clg_embedding_bag_plan *p = plan;
    if (p->out_elems == 0) return CLG_SUCCESS; /* as on the device: empty work reads and checks nothing */
    clg_status st = clg_embedding_bag_host_check(p, inputs);
    if (st != CLG_SUCCESS) return st;
    for (uint64_t b = 0; b < p->B; ++b)
        clg_embedding_bag_reduce_bag(p, inputs, b, (unsigned char *)output + b * p->D * p->table_size);
    return CLG_SUCCESS;
}
