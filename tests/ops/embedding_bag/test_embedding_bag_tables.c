/* The table-batched EmbeddingBag (clg_embedding_bag_tables_*, FBGEMM's TBE forward): a hand-checked call
 * over two tables in every mode, one table matching the single-table call bit for bit, each descriptor
 * rule, hostile offsets and indices named by table and bag with every output untouched, and random cases
 * against the CPU reference bit for bit (CLGATHER_TEST_SEED replays, CLGATHER_TEST_SCALE scales). Every
 * case runs through every entry point on both mappings and a deferring context (bag_support.h). The
 * kernels are the single-table call's program: one PoCL build a table type (f32 and f16 here, plus the
 * random cases' types). */
#include "bag_support.h"
#include "op_support.h"

#include <stdio.h>
#include <stdlib.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Two f32 tables in one buffer: table 0 [4, 2], row r = [10r + 1, 10r + 2], at byte 0; table 1 [3, 3],
 * row r = [100r + 1, 100r + 2, 100r + 3], at byte 48 (16 bytes of gap, never read). */
static float example_tables[8 + 4 + 9];
static const clg_embedding_bag_table example_layout[] = {
    {.type = CLG_F32, .rows = 4, .width = 2, .byte_offset = 0},
    {.type = CLG_F32, .rows = 3, .width = 3, .byte_offset = 48},
};
/* B = 2. Table 0: bag 0 = rows {0, 3}, bag 1 empty; table 1: bag 0 = row {2}, bag 1 = rows {0, 1, 2}. */
static const int64_t example_indices[] = {0, 3, 2, 0, 1, 2};
static const int32_t example_offsets[] = {0, 2, 2, 3, 6};

static tables_case example_case(clg_bag_mode mode, int include_last_offset)
{
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 2; ++c) example_tables[2 * r + c] = (float)(10 * r + c + 1);
    for (int k = 8; k < 12; ++k) example_tables[k] = -7.f;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) example_tables[12 + 3 * r + c] = (float)(100 * r + c + 1);
    tables_case c = {.desc = {.mode = mode, .num_tables = 2, .tables = example_layout}};
    c.desc.indices = bag_tensor(CLG_I64, 1, 6, 0);
    c.desc.offsets = bag_tensor(CLG_I32, 1, include_last_offset ? 5 : 4, 0);
    c.desc.include_last_offset = include_last_offset;
    c.tables = example_tables, c.tables_bytes = sizeof example_tables;
    c.indices = example_indices, c.index_bytes = sizeof example_indices;
    c.offsets = example_offsets, c.offsets_bytes = (include_last_offset ? 5 : 4) * sizeof(int32_t);
    c.out_bytes = 2 * 5 * sizeof(float);
    return c;
}

START_TEST(hand_checked_two_tables)
{
    /* output [2, 5]: table 0 in columns 0-1, table 1 in columns 2-4 */
    static const float sum[] = {32, 34, 201, 202, 203, 0, 0, 303, 306, 309};
    static const float mean[] = {16, 17, 201, 202, 203, 0, 0, 101, 102, 103};
    static const float max[] = {31, 32, 201, 202, 203, 0, 0, 201, 202, 203};
    static const float weights[] = {0.5f, 2.f, 1.f, 1.f, -1.f, 0.25f};
    static const float weighted[] = {62.5f, 65.f, 201, 202, 203, 0, 0, -49.75f, -49.5f, -49.25f};
    const float *const want[] = {sum, mean, max};
    for (int last = 0; last < 2; ++last) {
        for (int m = 0; m < 3; ++m) {
            tables_case c = example_case((clg_bag_mode)m, last);
            int32_t rank = 0;
            int64_t shape[CLG_MAX_OUTPUT_RANK];
            ck_assert_int_eq(clg_embedding_bag_tables_output_shape(&c.desc, &rank, shape), CLG_SUCCESS);
            ck_assert(rank == 2 && shape[0] == 2 && shape[1] == 5);
            uint64_t tables_bytes = 0, out_bytes = 0;
            ck_assert_int_eq(clg_embedding_bag_tables_sizes(&c.desc, &tables_bytes, NULL, NULL, NULL, &out_bytes),
                             CLG_SUCCESS);
            ck_assert_uint_eq(tables_bytes, sizeof example_tables);
            ck_assert_uint_eq(out_bytes, c.out_bytes);
            tables_check_all_paths(&c, want[m], CLG_SUCCESS, NULL, clg_bag_mode_name((clg_bag_mode)m));
        }
        tables_case c = example_case(CLG_BAG_SUM, last);
        c.desc.per_sample_weights = bag_tensor(CLG_F32, 1, 6, 0);
        c.weights = weights, c.weights_bytes = sizeof weights;
        tables_check_all_paths(&c, weighted, CLG_SUCCESS, NULL, "weighted sum");
    }
}
END_TEST

/* Every hostile value leaves every output untouched and is named by position, table and bag; the
 * offsets are judged before the indices. */
START_TEST(hostile_offsets_and_indices)
{
    static const struct {
        int32_t offsets[5];
        int64_t indices[6];
        clg_status want;
        const char *fragment;
    } cases[] = {
        {{0, 2, 1, 3, 6},
         {0, 3, 2, 0, 1, 2},
         CLG_ERR_INVALID_OFFSETS,
         "offsets[2] = 1 (table 1, bag 0) is less than offsets[1] = 2: they must not decrease"},
        {{1, 2, 2, 3, 6}, {0, 3, 2, 0, 1, 2}, CLG_ERR_INVALID_OFFSETS, "offsets[0] = 1: the first offset must be 0"},
        {{0, 2, 7, 7, 7},
         {0, 3, 2, 0, 1, 2},
         CLG_ERR_INVALID_OFFSETS,
         "offsets[2] = 7 (table 1, bag 0) is outside [0, 6]"},
        {{0, 2, 2, 3, -1},
         {0, 3, 2, 0, 1, 2},
         CLG_ERR_INVALID_OFFSETS,
         "offsets[4] = -1 (the end of the last bag) is outside [0, 6]"},
        {{0, 2, 2, 3, 5},
         {0, 3, 2, 0, 1, 2},
         CLG_ERR_INVALID_OFFSETS,
         "offsets[4] = 5: with include_last_offset the last offset must be 6"},
        /* row 3 is in table 0's range, not in table 1's */
        {{0, 2, 2, 3, 6},
         {0, 3, 3, 0, 1, 2},
         CLG_ERR_INDEX_OUT_OF_RANGE,
         "indices[2] = 3 is outside [0, 3) (tables[1].rows; bag 0 of table 1)"},
        {{0, 2, 2, 3, 6},
         {0, 4, 2, 0, 1, 2},
         CLG_ERR_INDEX_OUT_OF_RANGE,
         "indices[1] = 4 is outside [0, 4) (tables[0].rows; bag 0 of table 0)"},
        {{0, 2, 2, 3, 6},
         {0, 3, 2, 0, -1, 2},
         CLG_ERR_INDEX_OUT_OF_RANGE,
         "indices[4] = -1 is outside [0, 3) (tables[1].rows; bag 1 of table 1)"},
        {{0, 2, 2, 3, 6}, {0, 3, 2, 0, 1, INT64_MIN}, CLG_ERR_INDEX_OUT_OF_RANGE, "indices[5] = -9223372036854775808"},
        /* first of many: the offsets before any index */
        {{0, 3, 2, 3, 6}, {9, 3, 2, 0, 1, 2}, CLG_ERR_INVALID_OFFSETS, "offsets[2] = 2 (table 1, bag 0) is less"},
    };
    for (size_t k = 0; k < COUNT(cases); ++k) {
        tables_case c = example_case(CLG_BAG_SUM, 1);
        c.offsets = cases[k].offsets;
        c.indices = cases[k].indices;
        char name[32];
        snprintf(name, sizeof name, "hostile case %zu", k);
        tables_check_all_paths(&c, NULL, cases[k].want, cases[k].fragment, name);
    }
    /* unsigned offsets above INT64_MAX are out of every range, printed as they are */
    static const uint64_t huge_offsets[] = {0, 2, UINT64_MAX, 3, 6};
    tables_case c = example_case(CLG_BAG_MEAN, 1);
    c.desc.offsets = bag_tensor(CLG_U64, 1, 5, 0);
    c.offsets = huge_offsets, c.offsets_bytes = sizeof huge_offsets;
    tables_check_all_paths(&c, NULL, CLG_ERR_INVALID_OFFSETS, "offsets[2] = 18446744073709551615", "huge offset");
}
END_TEST

/* Thousands of indices over tables of different rows, so that the device check's chunks of positions
 * start and end inside tables and cross their boundaries (table 2's bags are all empty): a value valid for
 * a neighbouring table but not its own is found wherever it lies, and of several the first is named. */
START_TEST(bad_index_among_many_tables)
{
    enum { T = 5, B = 40, PER_BAG = 23 };
    static const int64_t rows[T] = {10, 50, 20, 30, 40};
    static clg_embedding_bag_table layout[T];
    static float tables[10 + 50 + 20 + 30 + 40];
    static int64_t offsets[T * B + 1], indices[T * B * PER_BAG];
    int64_t first_row = 0, L = 0;
    int64_t first_index[T + 1];
    for (int t = 0; t < T; ++t) {
        layout[t] = (clg_embedding_bag_table){
            .type = CLG_F32, .rows = rows[t], .width = 1, .byte_offset = (uint64_t)first_row * sizeof(float)};
        for (int64_t r = 0; r < rows[t]; ++r) tables[first_row + r] = (float)(t * 100 + r);
        first_row += rows[t];
        first_index[t] = L;
        for (int b = 0; b < B; ++b) {
            offsets[t * B + b] = L;
            const int64_t count = t == 2 ? 0 : (b * 7 + t) % (2 * PER_BAG); /* table 2's bags all empty */
            for (int64_t k = 0; k < count; ++k) indices[L++] = (k * 13 + b) % rows[t];
        }
    }
    first_index[T] = L;
    offsets[T * B] = L;
    tables_case c = {.desc = {.mode = CLG_BAG_SUM, .num_tables = T, .tables = layout, .include_last_offset = 1}};
    c.desc.indices = bag_tensor(CLG_I64, 1, L, 0);
    c.desc.offsets = bag_tensor(CLG_I64, 1, T * B + 1, 0);
    c.tables = tables, c.tables_bytes = sizeof tables;
    c.indices = indices, c.index_bytes = (size_t)L * sizeof *indices;
    c.offsets = offsets, c.offsets_bytes = sizeof offsets;
    c.out_bytes = B * T * sizeof(float);
    ck_assert_int_gt(L, 4 * 256); /* several of the default check chunks */
    tables_check_all_paths(&c, NULL, CLG_SUCCESS, NULL, "all valid");
    /* table 0's first and last index, table 1's last, table 3's first (just after the empty table 2),
     * and one in the middle of table 4: each set to a row its own table lacks (and, but for table 1, the
     * widest, another table has) */
    const int64_t at[] = {0, first_index[1] - 1, first_index[2] - 1, first_index[3], (first_index[4] + L) / 2};
    const int64_t value[] = {10, 10, 50, 30, 45};
    const int table_of[] = {0, 0, 1, 3, 4};
    for (size_t k = 0; k < COUNT(at); ++k) {
        const int64_t saved = indices[at[k]];
        indices[at[k]] = value[k];
        char fragment[96], name[48];
        snprintf(fragment, sizeof fragment, "indices[%lld] = %lld is outside [0, %lld) (tables[%d].rows;",
                 (long long)at[k], (long long)value[k], (long long)rows[table_of[k]], table_of[k]);
        snprintf(name, sizeof name, "bad index %zu", k);
        tables_check_all_paths(&c, NULL, CLG_ERR_INDEX_OUT_OF_RANGE, fragment, name);
        indices[at[k]] = saved;
    }
    /* of several bad values in different chunks, the first is named */
    indices[at[4]] = -1;
    indices[at[3]] = 31;
    indices[at[2]] = 99;
    char fragment[64];
    snprintf(fragment, sizeof fragment, "indices[%lld] = 99", (long long)at[2]);
    tables_check_all_paths(&c, NULL, CLG_ERR_INDEX_OUT_OF_RANGE, fragment, "first of several");
}
END_TEST

/* Each descriptor rule, in validation order, with its status and the argument it names. */
START_TEST(descriptor_rules)
{
    tables_expect_refused(NULL, CLG_ERR_NULL_ARGUMENT, "desc is NULL");
    tables_case base = example_case(CLG_BAG_SUM, 1);
    clg_embedding_bag_tables_desc d = base.desc;
    d.mode = (clg_bag_mode)3;
    tables_expect_refused(&d, CLG_ERR_INVALID_MODE, "mode = 3");
    d = base.desc, d.num_tables = 0;
    tables_expect_refused(&d, CLG_ERR_INVALID_DIMENSION, "num_tables = 0");
    d = base.desc, d.tables = NULL;
    tables_expect_refused(&d, CLG_ERR_NULL_ARGUMENT, "tables is NULL");

    clg_embedding_bag_table t[2] = {example_layout[0], example_layout[1]};
    d = base.desc, d.tables = t;
    t[1].quant_layout = (int32_t)CLG_QUANT_LAYOUT_COUNT;
    tables_expect_refused(&d, CLG_ERR_INVALID_LAYOUT, "tables[1].quant_layout = 17 is neither 0");
    t[1] = example_layout[1], t[1].type = CLG_I32;
    tables_expect_refused(&d, CLG_ERR_INVALID_DTYPE, "tables[1].type i32");
    t[1].type = CLG_F64; /* plain tables of several types convert to f32, which f64 tables do not */
    tables_expect_refused(&d, CLG_ERR_INVALID_DTYPE, "tables[1].type f64 in a call that converts to f32");
    t[1] = example_layout[1], t[1].rows = -1;
    tables_expect_refused(&d, CLG_ERR_INVALID_DIMENSION, "tables[1] has rows = -1");
    t[1] = example_layout[1], t[1].byte_offset = 50;
    tables_expect_refused(&d, CLG_ERR_MISALIGNED_OFFSET, "tables[1].byte_offset = 50");
    t[1] = example_layout[1], t[1].rows = INT64_MAX, t[1].width = 4;
    tables_expect_refused(&d, CLG_ERR_SIZE_OVERFLOW, "tables[1] ends beyond 2^64 bytes");

    d = base.desc, d.indices.type = CLG_F32;
    tables_expect_refused(&d, CLG_ERR_INVALID_INDEX_TYPE, "indices type f32");
    d = base.desc, d.offsets.type = CLG_DTYPE_INVALID;
    tables_expect_refused(&d, CLG_ERR_INPUT_MISSING, "offsets is absent");
    d = base.desc, d.offsets.type = CLG_BF16;
    tables_expect_refused(&d, CLG_ERR_INVALID_INDEX_TYPE, "offsets type bf16");
    d = base.desc, d.mode = CLG_BAG_MEAN, d.per_sample_weights = bag_tensor(CLG_F32, 1, 6, 0);
    tables_expect_refused(&d, CLG_ERR_INVALID_MODE, "per_sample_weights are given with mode mean");
    d = base.desc, d.per_sample_weights = bag_tensor(CLG_F16, 1, 6, 0);
    tables_expect_refused(&d, CLG_ERR_TYPE_MISMATCH, "per_sample_weights type f16 differs from the tables' f32");
    d = base.desc, d.indices = bag_tensor(CLG_I64, 2, 3, 2);
    tables_expect_refused(&d, CLG_ERR_INVALID_RANK, "indices rank 2");
    d = base.desc, d.offsets.shape[0] = -1;
    tables_expect_refused(&d, CLG_ERR_INVALID_DIMENSION, "offsets");
    d = base.desc, d.offsets.shape[0] = 4;
    tables_expect_refused(&d, CLG_ERR_SHAPE_MISMATCH, "offsets.shape[0] = 4 is not num_tables (2) * B + 1");
    d = base.desc, d.include_last_offset = 0;
    tables_expect_refused(&d, CLG_ERR_SHAPE_MISMATCH, "offsets.shape[0] = 5 is not num_tables (2) * B");
    d = base.desc, d.per_sample_weights = bag_tensor(CLG_F32, 1, 5, 0);
    tables_expect_refused(&d, CLG_ERR_SHAPE_MISMATCH, "per_sample_weights.shape[0] = 5");

    /* a tables buffer smaller than the last table's end, and an empty output that reads nothing */
    tables_case c = example_case(CLG_BAG_SUM, 1);
    c.tables_bytes -= 4;
    unsigned char out[40];
    memset(out, POISON_BYTE, sizeof out);
    ck_assert_int_eq(clg_embedding_bag_tables_reference(&c.desc, c.tables, c.tables_bytes, c.indices, c.index_bytes,
                                                        c.offsets, c.offsets_bytes, NULL, 0, out, sizeof out),
                     CLG_ERR_BUFFER_TOO_SMALL);
    ck_assert(support_all_poison(out, sizeof out));
    static const int32_t no_bags[] = {0};
    c = example_case(CLG_BAG_SUM, 1);
    c.desc.offsets.shape[0] = 1;
    c.offsets = no_bags, c.offsets_bytes = sizeof no_bags, c.out_bytes = 0;
    tables_check_all_paths(&c, NULL, CLG_SUCCESS, NULL, "no bags");
}
END_TEST

typedef struct random_tables {
    tables_case c;
    clg_embedding_bag_table layout[6];
    unsigned char *tables, *indices, *offsets, *weights;
    char name[256];
} random_tables;

static const clg_dtype integer_types[] = {CLG_I8, CLG_U8, CLG_I16, CLG_U16, CLG_I32, CLG_U32, CLG_I64, CLG_U64};

/* T tables of one random type, laid out in a random order with gaps; indices drawn within each bag's
 * table; now and then a hostile index or offset. */
static void make_random(support_rng *rng, random_tables *r, int fp64, int64_t max_rows, int64_t max_width,
                        int64_t max_batch)
{
    static const clg_dtype types[] = {CLG_F32, CLG_F16, CLG_BF16, CLG_F64};
    memset(r, 0, sizeof *r);
    clg_embedding_bag_tables_desc *d = &r->c.desc;
    const clg_dtype type = types[support_below(rng, fp64 ? 4 : 3)];
    const size_t es = clg_dtype_size(type);
    const uint64_t T = 1 + support_below(rng, COUNT(r->layout));
    const uint64_t B = support_below(rng, (uint64_t)max_batch + 1);
    uint64_t at = 0;
    for (uint64_t t = 0; t < T; ++t) {
        clg_embedding_bag_table *e = &r->layout[T - 1 - t]; /* placed last table first */
        e->type = type;
        e->rows = 1 + (int64_t)support_below(rng, (uint64_t)max_rows);
        e->width = support_below(rng, 8) == 0 ? 0 : 1 + (int64_t)support_below(rng, (uint64_t)max_width);
        at += es * support_below(rng, 3);
        e->byte_offset = at;
        at += (uint64_t)(e->rows * e->width) * es;
    }
    r->tables = malloc(at + 1);
    ck_assert_ptr_nonnull(r->tables);
    bag_fill_values(rng, type, r->tables, at / es, support_below(rng, 4) == 0);
    d->mode = (clg_bag_mode)support_below(rng, 3);
    d->num_tables = (int32_t)T;
    d->tables = r->layout;
    d->include_last_offset = (int32_t)support_below(rng, 2);
    const clg_dtype index_type = integer_types[support_below(rng, 8)],
                    offset_type = integer_types[support_below(rng, 8)];
    const uint64_t index_limit = clg_dtype_size(index_type) == 1 ? 100 : 1000;
    const uint64_t count = T * B + (uint64_t)d->include_last_offset;
    const uint64_t L = support_below(rng, (clg_dtype_size(offset_type) == 1 ? 100 : 4 * (T * B + 1)) + 1);
    r->offsets = malloc(count * 8 + 1);
    r->indices = malloc(L * 8 + 1);
    ck_assert(r->offsets && r->indices);
    bag_random_offsets(rng, offset_type, r->offsets, count, L, d->include_last_offset);
    /* each index within the rows of its bag's table */
    uint64_t bag = 0;
    for (uint64_t i = 0; i < L; ++i) {
        while (bag + 1 < T * B && (uint64_t)bag_load_offset(r->offsets, offset_type, bag + 1) <= i) ++bag;
        const uint64_t rows = B > 0 ? (uint64_t)r->layout[bag / B].rows : index_limit;
        support_store_int(r->indices, index_type, i,
                          (int64_t)support_below(rng, rows < index_limit ? rows : index_limit));
    }
    if (support_below(rng, 8) == 0 && L > 0)
        support_store_int(r->indices, index_type, support_below(rng, L), support_below(rng, 2) ? -1 : 1000);
    else if (support_below(rng, 12) == 0 && count > 1)
        support_store_int(r->offsets, offset_type, 1 + support_below(rng, count - 1), (int64_t)L + 1);
    d->indices = bag_tensor(index_type, 1, (int64_t)L, 0);
    d->offsets = bag_tensor(offset_type, 1, (int64_t)count, 0);
    if (d->mode == CLG_BAG_SUM && support_below(rng, 2)) {
        d->per_sample_weights = bag_tensor(type, 1, (int64_t)L, 0);
        r->weights = malloc(L * es + 1);
        ck_assert_ptr_nonnull(r->weights);
        bag_fill_values(rng, type, r->weights, L, 0);
        r->c.weights = r->weights, r->c.weights_bytes = L * es;
    }
    r->c.tables = r->tables, r->c.tables_bytes = at;
    r->c.indices = r->indices, r->c.index_bytes = L * clg_dtype_size(index_type);
    r->c.offsets = r->offsets, r->c.offsets_bytes = count * clg_dtype_size(offset_type);
    uint64_t out = 0;
    ck_assert_msg(clg_embedding_bag_tables_sizes(d, NULL, NULL, NULL, NULL, &out) == CLG_SUCCESS, "%s",
                  clg_last_error_message());
    r->c.out_bytes = out;
    snprintf(r->name, sizeof r->name, "%s, %llu %s tables, B %llu, L %llu, indices %s, offsets %s, last %d, weights %d",
             clg_bag_mode_name(d->mode), (unsigned long long)T, clg_dtype_name(type), (unsigned long long)B,
             (unsigned long long)L, clg_dtype_name(index_type), clg_dtype_name(offset_type), d->include_last_offset,
             r->weights != NULL);
}

static void free_random(random_tables *r)
{
    free(r->tables);
    free(r->indices);
    free(r->offsets);
    free(r->weights);
}

static int device_has_fp64(void)
{
    clg_device_info info;
    ck_assert_int_eq(clg_context_device_info(support_cl_context(), &info), CLG_SUCCESS);
    return info.has_fp64;
}

/* Each random case through every path against the reference, bit for bit, status and message too. */
static void run_random(support_rng *rng, int fp64, int64_t rows, int64_t width, int64_t batch, int k, int *refused)
{
    random_tables r;
    make_random(rng, &r, fp64, rows, width, batch);
    unsigned char *out = support_poisoned(r.c.out_bytes + 1);
    const clg_status want = clg_embedding_bag_tables_reference(&r.c.desc, r.c.tables, r.c.tables_bytes, r.c.indices,
                                                               r.c.index_bytes, r.c.offsets, r.c.offsets_bytes,
                                                               r.c.weights, r.c.weights_bytes, out, r.c.out_bytes);
    char message[1024], name[300];
    snprintf(message, sizeof message, "%s", clg_last_error_message());
    snprintf(name, sizeof name, "case %d: %s", k, r.name);
    *refused += want != CLG_SUCCESS;
    tables_check_all_paths(&r.c, want == CLG_SUCCESS ? out : NULL, want, want == CLG_SUCCESS ? NULL : message, name);
    free(out);
    free_random(&r);
}

START_TEST(random_cases)
{
    const support_random_setup setup = support_random_from_environment("embedding_bag_tables", 0x7BE0001ull);
    support_rng rng = {setup.seed};
    const int fp64 = device_has_fp64();
    if (!fp64) printf("embedding_bag_tables: the device lacks cl_khr_fp64: no f64 tables\n");
    const int count = support_setup_scaled(&setup, 60, 6);
    int refused = 0;
    for (int k = 0; k < count; ++k) run_random(&rng, fp64, 12, 11, 5, k, &refused);
    /* a few wide ones: rows wider than a work-group and many bags, so the grid strides and the runs
     * mapping's column chunks all run */
    const int wide = setup.scale < 0.1 ? 1 : 3;
    for (int k = 0; k < wide; ++k) run_random(&rng, fp64, 200, setup.scale < 0.1 ? 20 : 300, 400, count + k, &refused);
    printf("embedding_bag_tables: %d cases, %d refused by a value check\n", count + wide, refused);
}
END_TEST

/* One table: the table-batched call gives the single-table call's bytes (torch-embedding-bag, offsets
 * form) in every mode, with and without include_last_offset and weights. */
START_TEST(one_table_matches_single_table_call)
{
    support_rng rng = {0x7BE0002ull};
    for (int k = 0; k < 8; ++k) {
        random_tables r;
        make_random(&rng, &r, 0, 10, 13, 6);
        while (r.c.desc.num_tables != 1 || r.c.out_bytes == 0) {
            free_random(&r);
            make_random(&rng, &r, 0, 10, 13, 6);
        }
        unsigned char *single = support_poisoned(r.c.out_bytes + 1), *batched = support_poisoned(r.c.out_bytes + 1);
        clg_embedding_bag_desc s = {
            .preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS, .mode = r.c.desc.mode};
        s.table = bag_tensor(r.layout[0].type, 2, r.layout[0].rows, r.layout[0].width);
        s.indices = r.c.desc.indices;
        s.offsets = r.c.desc.offsets;
        s.per_sample_weights = r.c.desc.per_sample_weights;
        s.include_last_offset = r.c.desc.include_last_offset;
        const unsigned char *table = r.tables + r.layout[0].byte_offset;
        const size_t table_bytes = r.c.tables_bytes - r.layout[0].byte_offset;
        const clg_status st =
            clg_embedding_bag_reference(&s, table, table_bytes, r.c.indices, r.c.index_bytes, r.c.offsets,
                                        r.c.offsets_bytes, r.c.weights, r.c.weights_bytes, single, r.c.out_bytes);
        const clg_status tb = clg_embedding_bag_tables_reference(
            &r.c.desc, r.c.tables, r.c.tables_bytes, r.c.indices, r.c.index_bytes, r.c.offsets, r.c.offsets_bytes,
            r.c.weights, r.c.weights_bytes, batched, r.c.out_bytes);
        ck_assert_msg(st == tb, "%s: single %s, batched %s", r.name, clg_status_string(st), clg_status_string(tb));
        if (st == CLG_SUCCESS) {
            ck_assert_msg(memcmp(single, batched, r.c.out_bytes) == 0, "%s: the outputs differ", r.name);
            tables_check_all_paths(&r.c, single, CLG_SUCCESS, NULL, r.name);
        }
        free(single);
        free(batched);
        free_random(&r);
    }
}
END_TEST

int main(void)
{
    return support_run_tests("embedding_bag_tables", 900,
                             SUPPORT_TESTS(hand_checked_two_tables, hostile_offsets_and_indices,
                                           bad_index_among_many_tables, descriptor_rules,
                                           one_table_matches_single_table_call, random_cases));
}
