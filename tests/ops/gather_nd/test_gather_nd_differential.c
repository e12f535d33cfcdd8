/* Randomized differential tests of GatherND: the OpenCL path against the CPU reference, bit for bit,
 * with poisoned outputs and guard bytes (so byte offsets of any alignment), over random presets,
 * element and index types, ranks, batch_dims, tuple lengths, policies and component values (in range,
 * negative, out of range, hostile), in both kernel mappings with 32- and 64-bit offsets and streaming
 * stores, and on slices from one element to many 64-byte units. The seed is fixed and printed; set
 * CLGATHER_TEST_SEED to replay another. CLGATHER_TEST_SCALE (a fraction, default 1) scales the number
 * of cases. */
#include "op_support.h"

#include <inttypes.h>
#include <stdio.h>

static support_random_setup setup;

/* Inputs, each tuple component against the extent it indexes, and the case's name. */
static void finish_case(support_rng *rng, support_case *c, int keep_valid, const char *kind, int number)
{
    const clg_gather_nd_desc *d = &c->desc.nd;
    const int64_t m = d->indices.shape[d->indices.rank - 1];
    support_case_fill(c, rng, &d->data, &d->indices, &d->data.shape[d->batch_dims], (int)m, keep_valid);
    snprintf(c->name, sizeof c->name, "%s %d: %s data %s r%d idx %s q%d b %" PRId64 " m %" PRId64 " oob %d", kind,
             number, clg_gather_nd_preset_name(d->preset), clg_dtype_name(d->data.type), (int)d->data.rank,
             clg_dtype_name(d->indices.type), (int)d->indices.rank, d->batch_dims, m, (int)d->oob_policy);
}

static void make_case(support_rng *rng, support_case *c, int number)
{
    c->op = &support_gather_nd;
    clg_gather_nd_desc *d = &c->desc.nd;
    d->preset = (clg_gather_nd_preset)(1 + support_below(rng, CLG_GATHER_ND_PRESET_COUNT - 1));
    const int onnx = d->preset <= CLG_ONNX_GATHER_ND_13;
    d->data.type = support_data_types[support_below(rng, SUPPORT_DATA_TYPES)];
    if (d->data.type == CLG_BF16 && onnx) d->preset = CLG_ONNX_GATHER_ND_13;
    d->indices.type = onnx ? CLG_I64 : support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    const int allow_zero = support_below(rng, 8) == 0;
    const int32_t r = 1 + (int32_t)support_below(rng, 6), q = 1 + (int32_t)support_below(rng, 5);
    const int32_t most_b = (q < r ? q : r) - 1;
    const int32_t b = d->preset == CLG_ONNX_GATHER_ND_11 ? 0 : (int32_t)support_below(rng, (uint64_t)most_b + 1);
    d->data.rank = r;
    d->indices.rank = q;
    d->batch_dims = b;
    for (int32_t k = 0; k < r; ++k) d->data.shape[k] = support_pick_dim(rng, allow_zero, 4);
    for (int32_t k = 0; k < q - 1; ++k)
        d->indices.shape[k] = k < b ? d->data.shape[k] : support_pick_dim(rng, allow_zero, 5);
    d->indices.shape[q - 1] = 1 + (int64_t)support_below(rng, (uint64_t)(r - b)); /* the tuple length */
    d->oob_policy = (clg_oob_policy)support_below(rng, CLG_OOB_COUNT);
    finish_case(rng, c, support_below(rng, 4) != 0, "case", number); /* under the error policy, most valid */
}

/* The random cases under each kernel configuration of op_support.h. */
START_TEST(random_configuration) { support_run_configuration(&setup, make_case, _i); }
END_TEST

/* Larger cases shaped like the kernels' paths: element gathers (full-rank tuples, the one-unit rows
 * with their group prefetch), and slice copies of wide rows, batched or not, with enough tuples that
 * work-items carry several rows and segments span batches. */
static void make_points_or_slices(support_rng *rng, support_case *c, int k)
{
    support_force_kernels(k % 3 == 2 ? "adjacent" : "runs", (k / 2) % 2,
                          k % 3 == 0   ? SUPPORT_STREAM_EVERYWHERE
                          : k % 3 == 1 ? SUPPORT_STREAM_NEVER
                                       : SUPPORT_STREAM_TUNED);
    c->op = &support_gather_nd;
    clg_gather_nd_desc *d = &c->desc.nd;
    d->preset = k % 2 ? CLG_OV_GATHER_ND_8 : CLG_OV_GATHER_ND_5;
    d->data.type = support_data_types[support_below(rng, SUPPORT_DATA_TYPES)];
    d->indices.type = support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    const int points = k % 2 == 0;
    const int64_t b = support_below(rng, 2);
    d->batch_dims = b;
    d->data.rank = points ? 2 + (int32_t)b : 3 + (int32_t)b;
    for (int32_t j = 0; j < d->data.rank; ++j) d->data.shape[j] = 1 + (int64_t)support_below(rng, 70);
    if (!points) d->data.shape[d->data.rank - 1] = 1 + (int64_t)support_below(rng, 300); /* wide slices */
    /* at most 2^20 data elements (16 MiB of c128): every device holds it, and a case stays quick */
    for (;;) {
        uint64_t elements = 1;
        int32_t largest = 0;
        for (int32_t j = 0; j < d->data.rank; ++j) {
            elements *= (uint64_t)d->data.shape[j];
            if (d->data.shape[j] > d->data.shape[largest]) largest = j;
        }
        if (elements <= (uint64_t)1 << 20) break;
        d->data.shape[largest] = (d->data.shape[largest] + 1) / 2;
    }
    d->indices.rank = 2 + (int32_t)b;
    if (b) d->indices.shape[0] = d->data.shape[0];
    d->indices.shape[b] = 1 + (int64_t)support_below(rng, 2000);
    d->indices.shape[b + 1] = points ? 2 : 1 + (int64_t)support_below(rng, 2);
    /* and at most 2^22 output elements: fewer tuples where the slices are large */
    uint64_t per_tuple = 1;
    for (int32_t j = 0; j < d->data.rank; ++j)
        if (j < b || j >= b + d->indices.shape[b + 1]) per_tuple *= (uint64_t)d->data.shape[j];
    while (d->indices.shape[b] > 1 && (uint64_t)d->indices.shape[b] * per_tuple > (uint64_t)1 << 22)
        d->indices.shape[b] = (d->indices.shape[b] + 1) / 2;
    d->oob_policy = support_below(rng, 2) ? CLG_OOB_ZERO : CLG_OOB_CLAMP;
    finish_case(rng, c, 0, points ? "points" : "slices", k);
}

START_TEST(random_points_and_wide_slices)
{
    support_run_targeted_cases(&setup, make_points_or_slices, 36, 0x5117CEull);
}
END_TEST

/* One-unit rows through local memory (kernels_cl/row_stage_gpu.h), forced wherever the group fits:
 * element gathers by tuples of 1 or 2 components over groups of at most 32 KiB, rows of 1 to 16 bytes,
 * batch_dims 0 and 1, few tuples or many, every policy. The staged kernel must be the one that ran. */
static void make_staged_tuples(support_rng *rng, support_case *c, int k)
{
    support_force_variant("staged-units", (k / 2) % 2);
    c->op = &support_gather_nd;
    clg_gather_nd_desc *d = &c->desc.nd;
    d->preset = k % 2 ? CLG_OV_GATHER_ND_8 : CLG_OV_GATHER_ND_5;
    d->data.type = support_data_types[support_below(rng, SUPPORT_DATA_TYPES)];
    d->indices.type = support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    const int64_t elem = (int64_t)clg_dtype_size(d->data.type);
    int64_t inner = 1; /* elements per row: a power of two up to 16 bytes */
    while (inner * elem * 2 <= 16 && support_below(rng, 3) == 0) inner *= 2;
    const int64_t row_bytes = inner * elem, b = (int64_t)support_below(rng, 2);
    const int64_t m = 1 + (int64_t)support_below(rng, 2), most_rows = 32768 / row_bytes;
    d->batch_dims = b;
    d->data.rank = (int32_t)(b + m + 1);
    if (b) d->data.shape[0] = 1 + (int64_t)support_below(rng, 4);
    d->data.shape[b] = 1 + (int64_t)support_below(rng, m == 1 ? (uint64_t)most_rows : 64);
    if (m == 2) d->data.shape[b + 1] = 1 + (int64_t)support_below(rng, (uint64_t)(most_rows / d->data.shape[b]));
    d->data.shape[b + m] = inner;
    d->indices.rank = (int32_t)(b + 2);
    if (b) d->indices.shape[0] = d->data.shape[0];
    d->indices.shape[b] = 1 + (int64_t)support_below(rng, 4000);
    d->indices.shape[b + 1] = m;
    d->oob_policy = (clg_oob_policy)(1 + support_below(rng, CLG_OOB_COUNT - 1));
    finish_case(rng, c, d->oob_policy == CLG_OOB_ERROR && support_below(rng, 4) != 0, "staged", k);
    /* guards of whole rows keep the byte offsets multiples of the row, so a row stays one unit */
    c->guard_unit = (size_t)row_bytes;
    c->expected_variant = d->oob_policy != CLG_OOB_ERROR ? "staged-units" : NULL;
}

START_TEST(random_staged_tuples) { support_run_targeted_cases(&setup, make_staged_tuples, 32, 0x57A6ED2ull); }
END_TEST

int main(void)
{
    setup = support_random_from_environment("test_gather_nd_differential", 0x6A77E7D0ull);
    return support_run_looped_tests("gather_nd_differential", 1200, random_configuration, SUPPORT_CONFIGURATIONS,
                                    SUPPORT_TESTS(random_points_and_wide_slices, random_staged_tuples));
}
