/* Random EmbeddingBag cases over every preset, mode and bag form, every table type (f64 where the
 * device has cl_khr_fp64), every index and offset type, with and without per_sample_weights,
 * padding_idx, default_index (given, -1, absent), include_last_offset, empty bags and segments,
 * multi-dimensional rows, and now and then a hostile index, offset or segment id: each through every
 * entry point on both mappings and a deferring context (bag_support.h), with guard bytes, against the
 * CPU reference bit for bit (status and message too). CLGATHER_TEST_SEED replays a seed,
 * CLGATHER_TEST_SCALE scales the number of cases. One program per table type: four cold PoCL builds. */
#include "bag_support.h"
#include "op_support.h"

#include <stdio.h>
#include <stdlib.h>

static const clg_dtype table_types[] = {CLG_F32, CLG_F16, CLG_BF16, CLG_F64};

static int device_has_fp64(void)
{
    clg_device_info info;
    ck_assert_int_eq(clg_context_device_info(support_cl_context(), &info), CLG_SUCCESS);
    return info.has_fp64;
}

/* A hostile integer for a tensor of this type (out of every range the checks know). */
static int64_t hostile(support_rng *rng, int64_t limit)
{
    static const int64_t values[] = {INT64_MIN, INT64_MAX, -1, -2};
    const int64_t k = (int64_t)support_below(rng, 5);
    return k < 4 ? values[k] : limit + 1;
}

typedef struct random_case {
    bag_case c;
    void *table, *indices, *bags, *weights;
    char name[256];
} random_case;

/* Bag sizes into offsets (starting at 0 for torch), with empty bags now and then. */
static void make_offsets(support_rng *rng, clg_dtype type, void *offsets, uint64_t count, uint64_t L, int last_is_L)
{
    uint64_t at = 0;
    for (uint64_t b = 0; b < count; ++b) {
        if (b > 0 && at < L) at += support_below(rng, 4) == 0 ? 0 : support_below(rng, L - at + 1) / 2;
        if (last_is_L && b + 1 == count) at = L;
        support_store_int(offsets, type, b, (int64_t)at);
    }
}

static void make_case(support_rng *rng, random_case *r, int dev_fp64)
{
    bag_case *c = &r->c;
    memset(r, 0, sizeof *r);
    clg_embedding_bag_desc *d = &c->desc;
    d->preset = (clg_embedding_bag_preset)(1 + support_below(rng, CLG_EMBEDDING_BAG_PRESET_COUNT - 1));
    const int torch = d->preset == CLG_TORCH_EMBEDDING_BAG;
    switch (d->preset) {
    case CLG_OV_EMBEDDING_BAG_PACKED_3:
    case CLG_OV_EMBEDDING_BAG_PACKED_15: d->bag_form = CLG_BAG_PACKED; break;
    case CLG_OV_EMBEDDING_SEGMENTS_SUM_3: d->bag_form = CLG_BAG_SEGMENTS; break;
    case CLG_TORCH_EMBEDDING_BAG: d->bag_form = support_below(rng, 3) ? CLG_BAG_OFFSETS : CLG_BAG_PACKED; break;
    default: d->bag_form = CLG_BAG_OFFSETS; break;
    }
    const int modes = torch ? 3
                      : (d->preset == CLG_OV_EMBEDDING_BAG_OFFSETS_15 || d->preset == CLG_OV_EMBEDDING_BAG_PACKED_15)
                          ? 2
                          : 1;
    d->mode = (clg_bag_mode)support_below(rng, (uint64_t)modes);
    const clg_dtype table_type = table_types[support_below(rng, dev_fp64 ? 4 : 3)];
    const size_t es = clg_dtype_size(table_type);
    /* rows: [N, D] or [N, D1, D2] */
    const int64_t N = 1 + (int64_t)support_below(rng, 40);
    int64_t D1 = (int64_t)support_below(rng, 24), D2 = 1;
    if (support_below(rng, 6) == 0) D1 = 0;
    /* one in four: wider than the runs kernel's f32 sum chunk (32 columns) and a remainder past it */
    if (D1 && support_below(rng, 4) == 0) D1 += 32;
    const int rank3 = support_below(rng, 4) == 0;
    if (rank3) D2 = 1 + (int64_t)support_below(rng, 4);
    d->table = bag_tensor(table_type, rank3 ? 3 : 2, N, D1);
    d->table.shape[2] = D2;
    const uint64_t D = (uint64_t)(D1 * D2);
    d->indices.type = support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    const int64_t max_index = d->indices.type == CLG_I8 ? 127 : N; /* i8 indices reach 127 at most */
    const int64_t rows = N < max_index ? N : max_index;
    uint64_t L, B;
    if (d->bag_form == CLG_BAG_PACKED) {
        B = support_below(rng, 12);
        const uint64_t K = support_below(rng, 7);
        d->indices = bag_tensor(d->indices.type, 2, (int64_t)B, (int64_t)K);
        L = B * K;
    } else {
        L = support_below(rng, 60);
        d->indices = bag_tensor(d->indices.type, 1, (int64_t)L, 0);
        B = support_below(rng, 12);
    }
    r->indices = calloc(L + 1, 8);
    for (uint64_t i = 0; i < L; ++i)
        support_store_int(r->indices, d->indices.type, i, (int64_t)support_below(rng, (uint64_t)rows));
    clg_dtype bags_type = support_index_types[support_below(rng, SUPPORT_INDEX_TYPES)];
    /* offsets and segment ids reach L and B: narrow types only where they fit */
    if (clg_dtype_size(bags_type) == 1) bags_type = CLG_U8;
    if (d->bag_form == CLG_BAG_OFFSETS) {
        d->include_last_offset = torch && support_below(rng, 2);
        const uint64_t count = B + (d->include_last_offset ? 1 : 0);
        d->offsets = bag_tensor(bags_type, 1, (int64_t)count, 0);
        r->bags = calloc(count + 1, 8);
        make_offsets(rng, bags_type, r->bags, count, L, d->include_last_offset && support_below(rng, 2));
        c->bags_bytes = count * clg_dtype_size(bags_type);
    } else if (d->bag_form == CLG_BAG_SEGMENTS) {
        d->segment_ids = bag_tensor(bags_type, 1, (int64_t)L, 0);
        d->num_segments = (int64_t)B;
        r->bags = calloc(L + 1, 8);
        uint64_t s = 0;
        for (uint64_t i = 0; i < L; ++i) {
            if (B == 0) break;
            if (support_below(rng, 3) == 0) s += support_below(rng, 3);
            if (s >= B) s = B - 1;
            support_store_int(r->bags, bags_type, i, (int64_t)s);
        }
        if (B == 0 && L > 0) d->num_segments = 1; /* ids all 0 */
        c->bags_bytes = L * clg_dtype_size(bags_type);
    }
    if (d->mode == CLG_BAG_SUM && support_below(rng, 2)) {
        d->per_sample_weights = d->indices;
        d->per_sample_weights.type = table_type;
        r->weights = calloc(L + 1, es);
        bag_fill_values(rng, table_type, r->weights, L, 0);
        c->weights_bytes = L * es;
    }
    if (torch && support_below(rng, 3) == 0) {
        d->has_padding_idx = 1;
        d->padding_idx = (int64_t)support_below(rng, (uint64_t)rows) - (support_below(rng, 2) ? N : 0);
        if (d->padding_idx < -N) d->padding_idx += N;
    }
    if (!torch && support_below(rng, 2)) {
        d->has_default_index = 1;
        d->default_index = support_below(rng, 4) ? (int64_t)support_below(rng, (uint64_t)N) : -1;
    }
    /* one in eight: a hostile value somewhere */
    if (support_below(rng, 8) == 0) {
        const int where = (int)support_below(rng, 2);
        const uint64_t bags_count = d->bag_form == CLG_BAG_OFFSETS    ? (uint64_t)d->offsets.shape[0]
                                    : d->bag_form == CLG_BAG_SEGMENTS ? L
                                                                      : 0;
        if (where == 0 && L > 0)
            support_store_int(r->indices, d->indices.type, support_below(rng, L), hostile(rng, N));
        else if (bags_count > 0)
            support_store_int(r->bags, bags_type, support_below(rng, bags_count), hostile(rng, (int64_t)L));
    }
    const uint64_t table_elems = (uint64_t)N * D;
    r->table = calloc(table_elems + 1, es);
    bag_fill_values(rng, table_type, r->table, table_elems, d->mode == CLG_BAG_MAX || support_below(rng, 4) == 0);
    c->table = r->table, c->table_bytes = table_elems * es;
    c->indices = r->indices, c->index_bytes = L * clg_dtype_size(d->indices.type);
    c->bags = r->bags;
    c->weights = r->weights;
    uint64_t out = 0;
    ck_assert_msg(clg_embedding_bag_sizes(d, NULL, NULL, NULL, NULL, &out) == CLG_SUCCESS, "%s",
                  clg_last_error_message());
    c->out_bytes = out;
    snprintf(r->name, sizeof r->name,
             "%s %s form %d, table %s [%lld, %llu], indices %s [%llu], bags %s, B %llu, weights %d, padding %d (%lld), "
             "default %d (%lld), last offset %d",
             clg_embedding_bag_preset_name(d->preset), clg_bag_mode_name(d->mode), (int)d->bag_form,
             clg_dtype_name(table_type), (long long)N, (unsigned long long)D, clg_dtype_name(d->indices.type),
             (unsigned long long)L, clg_dtype_name(bags_type), (unsigned long long)B, r->weights != NULL,
             d->has_padding_idx, (long long)d->padding_idx, d->has_default_index, (long long)d->default_index,
             d->include_last_offset);
}

static void free_case(random_case *r)
{
    free(r->table);
    free(r->indices);
    free(r->bags);
    free(r->weights);
}

START_TEST(random_cases)
{
    const support_random_setup setup = support_random_from_environment("embedding_bag_differential", 0xEB0017ull);
    support_rng rng = {setup.seed};
    const int dev_fp64 = device_has_fp64();
    if (!dev_fp64) printf("embedding_bag_differential: the device lacks cl_khr_fp64: no f64 tables\n");
    const int count = support_setup_scaled(&setup, 240, 12);
    int failures = 0;
    for (int k = 0; k < count; ++k) {
        random_case r;
        make_case(&rng, &r, dev_fp64);
        unsigned char *out = support_poisoned(r.c.out_bytes + 1);
        const clg_status want =
            clg_embedding_bag_reference(&r.c.desc, r.c.table, r.c.table_bytes, r.c.indices, r.c.index_bytes, r.c.bags,
                                        r.c.bags_bytes, r.c.weights, r.c.weights_bytes, out, r.c.out_bytes);
        char message[1024];
        snprintf(message, sizeof message, "%s", clg_last_error_message());
        failures += want != CLG_SUCCESS;
        char name[300];
        snprintf(name, sizeof name, "case %d: %s", k, r.name);
        bag_check_all_paths(&r.c, want == CLG_SUCCESS ? out : NULL, want, want == CLG_SUCCESS ? NULL : message, name);
        free(out);
        free_case(&r);
    }
    printf("embedding_bag_differential: %d cases, %d of them refused by a value check\n", count, failures);
}
END_TEST

/* Large cases, so that the grid-stride loops of the adjacent mapping (more bags than one grid, rows wider
 * than a work-group) and the runs mapping's column chunks of wide rows (not a multiple of 8) all run:
 * 5000 bags (scaled) of rows of 300 values, in each form. */
START_TEST(large_cases)
{
    const support_random_setup setup = support_random_from_environment("embedding_bag_differential", 0xEB0018ull);
    support_rng rng = {setup.seed};
    static const clg_embedding_bag_preset presets[] = {CLG_TORCH_EMBEDDING_BAG, CLG_OV_EMBEDDING_SEGMENTS_SUM_3,
                                                       CLG_OV_EMBEDDING_BAG_PACKED_15};
    /* rows and bags scale with CLGATHER_TEST_SCALE (simulators, sanitizers): 64 bags still outnumber a small
     * grid; below a tenth (Oclgrind's 0.02) rows of 20 values, still two column chunks and a remainder, keep
     * a simulated run to seconds (300 values took 350 s of Oclgrind's) */
    const int64_t N = support_setup_scaled(&setup, 1000, 16), B = support_setup_scaled(&setup, 5000, 64);
    const int64_t D = setup.scale < 0.1 ? 20 : 300;
    const int64_t K = 4, L = B * K;
    for (int k = 0; k < 3; ++k) {
        random_case r;
        memset(&r, 0, sizeof r);
        clg_embedding_bag_desc *d = &r.c.desc;
        d->preset = presets[k];
        const clg_dtype type = k == 1 ? CLG_F16 : CLG_F32;
        const size_t es = clg_dtype_size(type);
        d->table = bag_tensor(type, 2, N, D);
        d->indices = bag_tensor(CLG_I32, 1, L, 0);
        r.indices = malloc((size_t)L * 4);
        r.bags = malloc((size_t)L * 8);
        r.table = malloc((size_t)(N * D) * es);
        ck_assert(r.indices && r.bags && r.table);
        for (int64_t i = 0; i < L; ++i) ((int32_t *)r.indices)[i] = (int32_t)support_below(&rng, (uint64_t)N);
        bag_fill_values(&rng, type, r.table, (uint64_t)(N * D), 0);
        if (k == 0) { /* offsets, bags of 0 to 8, weights */
            d->bag_form = CLG_BAG_OFFSETS;
            d->offsets = bag_tensor(CLG_I64, 1, B, 0);
            int64_t at = 0;
            for (int64_t b = 0; b < B; ++b, at += (int64_t)support_below(&rng, 9))
                ((int64_t *)r.bags)[b] = at < L ? at : L;
            d->per_sample_weights = d->indices;
            d->per_sample_weights.type = type;
            r.weights = malloc((size_t)L * es);
            ck_assert_ptr_nonnull(r.weights);
            bag_fill_values(&rng, type, r.weights, (uint64_t)L, 0);
            r.c.bags_bytes = (size_t)B * 8;
            r.c.weights_bytes = (size_t)L * es;
        } else if (k == 1) { /* segments: the even ones hold 2K indices each, the odd ones none */
            d->bag_form = CLG_BAG_SEGMENTS;
            d->segment_ids = bag_tensor(CLG_I64, 1, L, 0);
            d->num_segments = B;
            for (int64_t i = 0; i < L; ++i) ((int64_t *)r.bags)[i] = i / (2 * K) * 2;
            r.c.bags_bytes = (size_t)L * 8;
        } else {
            d->bag_form = CLG_BAG_PACKED;
            d->mode = CLG_BAG_MEAN;
            d->indices = bag_tensor(CLG_I32, 2, B, K);
        }
        r.c.table = r.table, r.c.table_bytes = (size_t)(N * D) * es;
        r.c.indices = r.indices, r.c.index_bytes = (size_t)L * 4;
        r.c.bags = k < 2 ? r.bags : NULL;
        r.c.weights = r.weights;
        r.c.out_bytes = (size_t)(B * D) * es;
        bag_check_all_paths(&r.c, NULL, CLG_SUCCESS, NULL, clg_embedding_bag_preset_name(d->preset));
        free_case(&r);
    }
}
END_TEST

int main(void)
{
    return support_run_tests("embedding_bag_differential", 1200, SUPPORT_TESTS(random_cases, large_cases));
}
