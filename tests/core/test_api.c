/* The API around the gather itself: contexts on the caller's objects, event chaining on the caller's
 * queue, device listing and selection, verify mode, the program cache, names, and sharing one
 * context between threads. */
#define _DEFAULT_SOURCE /* setenv */
#include "test_support.h"
#include "testing/testing.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static const int64_t axis0 = 0;

/* A small [rows, width] f32 gather with known indices; want = reference result. */
typedef struct small_gather {
    clg_gather_desc desc;
    float data[64 * 8];
    int32_t idx[32];
    float want[32 * 8];
} small_gather;

static void make_small(small_gather *g, clg_preset preset)
{
    const int64_t ds[] = {64, 8}, is[] = {32};
    if (preset <= CLG_ONNX_13)
        g->desc = support_onnx_desc(preset, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    else
        g->desc = support_ov_desc(preset, CLG_F32, 2, ds, CLG_I32, 1, is, &axis0, 0);
    for (int k = 0; k < 64 * 8; ++k) g->data[k] = (float)k * 0.25f;
    for (int k = 0; k < 32; ++k) g->idx[k] = (k * 37) % 64 - (k % 3 ? 0 : 64);
    ck_assert_int_eq(
        clg_gather_reference(&g->desc, g->data, sizeof g->data, g->idx, sizeof g->idx, g->want, sizeof g->want),
        CLG_SUCCESS);
}

static const char *chained_source =
    "__kernel void add_one(__global float *x) { size_t i = get_global_id(0); x[i] = x[i] + 1.0f; }";

START_TEST(context_from_caller_objects_with_event_chain)
{
    cl_platform_id platform;
    cl_device_id device;
    ck_assert_int_eq(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    ck_assert_int_eq(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    cl_int err;
    cl_context cl = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_command_queue queue = clCreateCommandQueue(cl, device, 0, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create(cl, device, 0, &ctx), CLG_SUCCESS);
    ck_assert_ptr_eq(clg_context_cl_context(ctx), cl);

    small_gather g;
    make_small(&g, CLG_OV_GATHER_8);
    cl_mem data = clCreateBuffer(cl, CL_MEM_READ_ONLY, sizeof g.data, NULL, &err);
    cl_mem idx = clCreateBuffer(cl, CL_MEM_READ_ONLY, sizeof g.idx, NULL, &err);
    cl_mem out = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof g.want, NULL, &err);
    cl_event written[2], gathered = NULL, added;
    ck_assert_int_eq(clEnqueueWriteBuffer(queue, data, CL_FALSE, 0, sizeof g.data, g.data, 0, NULL, &written[0]),
                     CL_SUCCESS);
    ck_assert_int_eq(clEnqueueWriteBuffer(queue, idx, CL_FALSE, 0, sizeof g.idx, g.idx, 0, NULL, &written[1]),
                     CL_SUCCESS);
    ck_assert_int_eq(clg_gather_enqueue(ctx, &g.desc, queue, data, 0, idx, 0, out, 0, 2, written, &gathered),
                     CLG_SUCCESS);
    ck_assert_ptr_nonnull(gathered);

    /* the caller's own kernel runs after the gather, ordered by the out-event */
    cl_program program = clCreateProgramWithSource(cl, 1, &chained_source, NULL, &err);
    ck_assert_int_eq(clBuildProgram(program, 1, &device, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel add_one = clCreateKernel(program, "add_one", &err);
    clSetKernelArg(add_one, 0, sizeof out, &out);
    size_t n = 32 * 8;
    ck_assert_int_eq(clEnqueueNDRangeKernel(queue, add_one, 1, NULL, &n, NULL, 1, &gathered, &added), CL_SUCCESS);
    float got[32 * 8];
    ck_assert_int_eq(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 1, &added, NULL), CL_SUCCESS);
    for (size_t k = 0; k < n; ++k) ck_assert_float_eq(got[k], g.want[k] + 1.0f);

    clReleaseEvent(written[0]);
    clReleaseEvent(written[1]);
    clReleaseEvent(gathered);
    clReleaseEvent(added);
    clReleaseKernel(add_one);
    clReleaseProgram(program);
    clReleaseMemObject(data);
    clReleaseMemObject(idx);
    clReleaseMemObject(out);
    clg_context_release(ctx);
    /* the library released its references: the caller's objects are still alive and usable */
    ck_assert_int_eq(clFinish(queue), CL_SUCCESS);
    clReleaseCommandQueue(queue);
    clReleaseContext(cl);
}
END_TEST

START_TEST(list_devices_marks_one_default)
{
    size_t count = 0;
    ck_assert_int_eq(clg_list_devices(NULL, 0, &count), CLG_SUCCESS);
    ck_assert_uint_ge(count, 1);
    clg_device_info *infos = calloc(count, sizeof *infos);
    ck_assert_int_eq(clg_list_devices(infos, count, &count), CLG_SUCCESS);
    int defaults = 0;
    for (size_t k = 0; k < count; ++k) {
        defaults += infos[k].is_default;
        ck_assert_int_eq(infos[k].index, (int32_t)k);
        ck_assert(infos[k].device_name[0] != '\0');
        ck_assert(infos[k].driver_version[0] != '\0');
        ck_assert_uint_gt(infos[k].max_alloc_bytes, 0);
    }
    ck_assert_int_eq(defaults, 1);
    free(infos);
    ck_assert_int_eq(clg_list_devices(NULL, 1, &count), CLG_ERR_NULL_ARGUMENT);
}
END_TEST

static void expect_device(const char *spec, int want_reference)
{
    clg_context *ctx = NULL;
    clg_status st = clg_context_create_default(spec, 0, &ctx);
    ck_assert_msg(st == CLG_SUCCESS, "spec %s: %s", spec ? spec : "(null)", clg_last_error_message());
    clg_device_info info;
    ck_assert_int_eq(clg_context_device_info(ctx, &info), CLG_SUCCESS);
    ck_assert_int_eq(info.is_reference, want_reference);
    small_gather g;
    make_small(&g, CLG_ONNX_13);
    float got[32 * 8];
    ck_assert_int_eq(clg_gather(ctx, &g.desc, g.data, sizeof g.data, g.idx, sizeof g.idx, got, sizeof got),
                     CLG_SUCCESS);
    ck_assert_mem_eq(got, g.want, sizeof got);
    clg_context_release(ctx);
}

START_TEST(device_spec_forms)
{
    clg_device_info first;
    size_t count;
    ck_assert_int_eq(clg_list_devices(&first, 1, &count), CLG_SUCCESS);
    expect_device("0", 0);
    expect_device("cpu", 1);
    expect_device("CPU", 1);
    /* a case-insensitive substring of the platform name */
    char upper[8] = {0};
    for (int k = 0; k < 4 && first.platform_name[k]; ++k)
        upper[k] = (char)(first.platform_name[k] >= 'a' && first.platform_name[k] <= 'z' ? first.platform_name[k] - 32
                                                                                         : first.platform_name[k]);
    expect_device(upper, 0);
    /* the environment variable when no spec is given */
    setenv("CLGATHER_DEVICE", "cpu", 1);
    expect_device(NULL, 1);
    setenv("CLGATHER_DEVICE", "", 1);
    expect_device(NULL, 0);
    unsetenv("CLGATHER_DEVICE");
}
END_TEST

START_TEST(verify_mode_passes_and_detects_mismatch)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, CLG_CONTEXT_VERIFY, &ctx), CLG_SUCCESS);
    small_gather g;
    make_small(&g, CLG_OV_GATHER_8);
    float got[32 * 8];
    ck_assert_int_eq(clg_gather(ctx, &g.desc, g.data, sizeof g.data, g.idx, sizeof g.idx, got, sizeof got),
                     CLG_SUCCESS);
    ck_assert_mem_eq(got, g.want, sizeof got);

    clg_testing_corrupt_verify_readback(ctx, 1);
    memset(got, POISON_BYTE, sizeof got);
    ck_assert_int_eq(clg_gather(ctx, &g.desc, g.data, sizeof g.data, g.idx, sizeof g.idx, got, sizeof got),
                     CLG_ERR_VERIFY_MISMATCH);
    ck_assert_msg(strstr(clg_last_error_message(), "output[31, 7] (flat element 255)"), "%s", clg_last_error_message());
    ck_assert(support_all_poison(got, sizeof got)); /* a failed sync call writes nothing */
    clg_context_release(ctx);
}
END_TEST

START_TEST(verify_mode_from_environment)
{
    setenv("CLGATHER_VERIFY", "1", 1);
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    unsetenv("CLGATHER_VERIFY");
    clg_testing_corrupt_verify_readback(ctx, 1);
    small_gather g;
    make_small(&g, CLG_OV_GATHER_7);
    float got[32 * 8];
    ck_assert_int_eq(clg_gather(ctx, &g.desc, g.data, sizeof g.data, g.idx, sizeof g.idx, got, sizeof got),
                     CLG_ERR_VERIFY_MISMATCH);
    clg_context_release(ctx);
}
END_TEST

START_TEST(programs_built_once_per_specialization)
{
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    ck_assert_uint_eq(clg_testing_program_count(ctx), 0);
    small_gather g;
    make_small(&g, CLG_OV_GATHER_8);
    float got[32 * 8];
    for (int k = 0; k < 5; ++k)
        ck_assert_int_eq(clg_gather(ctx, &g.desc, g.data, sizeof g.data, g.idx, sizeof g.idx, got, sizeof got),
                         CLG_SUCCESS);
    ck_assert_uint_eq(clg_testing_program_count(ctx), 1);
    g.desc.oob_policy = CLG_OOB_CLAMP; /* another specialization */
    ck_assert_int_eq(clg_gather(ctx, &g.desc, g.data, sizeof g.data, g.idx, sizeof g.idx, got, sizeof got),
                     CLG_SUCCESS);
    ck_assert_uint_eq(clg_testing_program_count(ctx), 2);
    clg_context_release(ctx);
}
END_TEST

START_TEST(clamp_policy)
{
    const int32_t data[] = {10, 11, 12, 13, 14};
    const int64_t idx[] = {-9, -5, -1, 0, 4, 5, INT64_MAX, INT64_MIN};
    const int32_t want[] = {10, 10, 14, 10, 14, 14, 14, 10};
    const int64_t ds[] = {5}, is[] = {8};
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_I32, 1, ds, CLG_I64, 1, is, &axis0, 0);
    d.oob_policy = CLG_OOB_CLAMP;
    int32_t got[8];
    memset(got, POISON_BYTE, sizeof got);
    ck_assert_int_eq(clg_gather_reference(&d, data, sizeof data, idx, sizeof idx, got, sizeof got), CLG_SUCCESS);
    ck_assert_mem_eq(got, want, sizeof want);
    memset(got, POISON_BYTE, sizeof got);
    ck_assert_int_eq(clg_gather(support_cl_context(), &d, data, sizeof data, idx, sizeof idx, got, sizeof got),
                     CLG_SUCCESS);
    ck_assert_mem_eq(got, want, sizeof want);
    /* unsigned indices: everything at or above A clamps to A - 1 */
    const uint64_t uidx[] = {0, 4, 5, UINT64_MAX, 3, 1, 2, (uint64_t)1 << 63};
    const int32_t uwant[] = {10, 14, 14, 14, 13, 11, 12, 14};
    d.indices.type = CLG_U64;
    memset(got, POISON_BYTE, sizeof got);
    ck_assert_int_eq(clg_gather(support_cl_context(), &d, data, sizeof data, uidx, sizeof uidx, got, sizeof got),
                     CLG_SUCCESS);
    ck_assert_mem_eq(got, uwant, sizeof uwant);
}
END_TEST

START_TEST(bit_exact_float_payloads)
{
    /* gather moves bits: NaN payloads, -0.0 and denormals come through unchanged */
    const uint32_t data[] = {0x7FC00001u, 0xFFC12345u, 0x80000000u, 0x00000001u, 0x7F800000u};
    const int32_t idx[] = {4, 3, 2, 1, 0, 1};
    uint32_t want[6], got[6];
    for (int k = 0; k < 6; ++k) want[k] = data[idx[k]];
    const int64_t ds[] = {5}, is[] = {6};
    clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 1, ds, CLG_I32, 1, is, 0);
    memset(got, POISON_BYTE, sizeof got);
    ck_assert_int_eq(clg_gather(support_cl_context(), &d, data, sizeof data, idx, sizeof idx, got, sizeof got),
                     CLG_SUCCESS);
    ck_assert_mem_eq(got, want, sizeof want);
}
END_TEST

/* A host block whose first byte sits at `mod` modulo 64 (bytes + 128 allocated; *block to free). */
static unsigned char *at_modulo_64(size_t bytes, size_t mod, unsigned char **block)
{
    *block = malloc(bytes + 128);
    ck_assert_ptr_nonnull(*block);
    return *block + (64 - (uintptr_t)*block % 64) % 64 + mod;
}

START_TEST(caller_host_pointer_buffers_with_low_alignment)
{
    /* A cl_mem over a caller's host memory (CL_MEM_USE_HOST_PTR) that is only 16-byte aligned: the
     * kernels must not use vector moves wider than that alignment (rows here allow 64 bytes). */
    if (support_platform_is("Oclgrind")) { /* it reports such buffers' values as uninitialized */
        printf("skipped on Oclgrind: tests/drivers/oclgrind_use_host_ptr_uninit\n");
        return;
    }
    clg_context *ctx = support_cl_context();
    cl_context cl = clg_context_cl_context(ctx);
    const int64_t ds[] = {32, 16}, is[] = {20}, axis = 0;
    clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, CLG_F32, 2, ds, CLG_I32, 1, is, &axis, 0);
    unsigned char *data_block, *out_block;
    unsigned char *data = at_modulo_64(32 * 64, 16, &data_block), *out = at_modulo_64(20 * 64, 16, &out_block);
    int32_t idx[20];
    for (int k = 0; k < 32 * 64; ++k) data[k] = (unsigned char)(k * 7);
    for (int k = 0; k < 20; ++k) idx[k] = (k * 13) % 32;
    unsigned char want[20 * 64];
    ck_assert_int_eq(clg_gather_reference(&d, data, 32 * 64, idx, sizeof idx, want, sizeof want), CLG_SUCCESS);
    for (int m = 0; m < 2; ++m) {
        support_use_mapping(ctx, support_mappings[m]);
        memset(out, POISON_BYTE, 20 * 64);
        cl_int err;
        cl_mem bd = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, 32 * 64, data, &err);
        cl_mem bi = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof idx, idx, &err);
        cl_mem bo = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 20 * 64, out, &err);
        cl_event done;
        ck_assert_int_eq(clg_gather_enqueue(ctx, &d, clg_context_cl_queue(ctx), bd, 0, bi, 0, bo, 0, 0, NULL, &done),
                         CLG_SUCCESS);
        unsigned char got[20 * 64];
        ck_assert_int_eq(
            clEnqueueReadBuffer(clg_context_cl_queue(ctx), bo, CL_TRUE, 0, sizeof got, got, 1, &done, NULL),
            CL_SUCCESS);
        ck_assert_mem_eq(got, want, sizeof want);
        clReleaseEvent(done);
        clReleaseMemObject(bd);
        clReleaseMemObject(bi);
        clReleaseMemObject(bo);
    }
    support_use_mapping(ctx, NULL);
    free(data_block);
    free(out_block);
}
END_TEST

START_TEST(caller_host_pointer_tables_for_embedding_bag)
{
    /* EmbeddingBag over tables that live in the caller's memory (CL_MEM_USE_HOST_PTR, the way to give a
     * CPU device's kernels a table in the caller's huge pages: docs/performance.md): an f32 table only
     * 16-byte aligned, FBGEMM 8-bit rows at an odd address, each output only 16-byte aligned; bit for bit
     * the reference's on both mappings. */
    if (support_platform_is("Oclgrind")) { /* it reports such buffers' values as uninitialized */
        printf("skipped on Oclgrind: tests/drivers/oclgrind_use_host_ptr_uninit\n");
        return;
    }
    enum { N = 97, D = 40, B = 9, L = 61 };
    clg_context *ctx = support_cl_context();
    cl_context cl = clg_context_cl_context(ctx);
    support_rng rng = {20261128};
    int64_t idx[L], offsets[B];
    for (int k = 0; k < L; ++k) idx[k] = (int64_t)support_below(&rng, N);
    for (int b = 0; b < B; ++b) offsets[b] = b * L / B;
    clg_embedding_bag_desc bag = {.preset = CLG_TORCH_EMBEDDING_BAG, .bag_form = CLG_BAG_OFFSETS};
    bag.indices = (clg_tensor_desc){.type = CLG_I64, .rank = 1, .shape = {L}};
    bag.offsets = (clg_tensor_desc){.type = CLG_I64, .rank = 1, .shape = {B}};
    clg_embedding_bag_desc f32 = bag;
    f32.table = (clg_tensor_desc){.type = CLG_F32, .rank = 2, .shape = {N, D}};
    clg_embedding_bag_quantized_desc q8 = {.bag = bag, .layout = CLG_QUANT_FBGEMM_8BIT_ROWWISE};
    q8.data = (clg_quant_tensor_desc){.type = CLG_QUANT_U8, .rank = 2, .shape = {N, D + 8}};

    unsigned char *blocks[3];
    float *table = (float *)(void *)at_modulo_64(sizeof(float) * N * D, 16, &blocks[0]);
    unsigned char *rows = at_modulo_64((size_t)N * (D + 8), 17, &blocks[1]);
    unsigned char *out = at_modulo_64(sizeof(float) * B * D, 16, &blocks[2]);
    for (int k = 0; k < N * D; ++k) table[k] = (float)((int)support_below(&rng, 512) - 256) / 64.0f;
    for (int r = 0; r < N; ++r) {
        for (int k = 0; k < D; ++k) rows[r * (D + 8) + k] = (unsigned char)support_next(&rng);
        const float scale = 1.0f / (float)(1 << (4 + r % 4)), bias = (float)(r % 7 - 3) / 8.0f;
        memcpy(rows + r * (D + 8) + D, &scale, 4);
        memcpy(rows + r * (D + 8) + D + 4, &bias, 4);
    }
    float want[2][B * D];
    ck_assert_int_eq(clg_embedding_bag_reference(&f32, table, sizeof(float) * N * D, idx, sizeof idx, offsets,
                                                 sizeof offsets, NULL, 0, want[0], sizeof want[0]),
                     CLG_SUCCESS);
    ck_assert_int_eq(clg_embedding_bag_quantized_reference(&q8, rows, (size_t)N * (D + 8), NULL, 0, NULL, 0, idx,
                                                           sizeof idx, offsets, sizeof offsets, NULL, 0, want[1],
                                                           sizeof want[1]),
                     CLG_SUCCESS);
    cl_int err;
    cl_mem bi = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof idx, idx, &err);
    cl_mem bb = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof offsets, offsets, &err);
    for (int quantized = 0; quantized < 2; ++quantized)
        for (int m = 0; m < 2; ++m) {
            support_use_mapping(ctx, support_mappings[m]);
            memset(out, POISON_BYTE, sizeof want[0]);
            cl_mem bt =
                quantized
                    ? clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, (size_t)N * (D + 8), rows, &err)
                    : clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, sizeof(float) * N * D, table, &err);
            ck_assert_int_eq(err, CL_SUCCESS);
            cl_mem bo = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof want[0], out, &err);
            ck_assert_int_eq(err, CL_SUCCESS);
            cl_command_queue queue = clg_context_cl_queue(ctx);
            cl_event done = NULL;
            const clg_status st =
                quantized
                    ? clg_embedding_bag_quantized_enqueue(ctx, &q8, queue, bt, 0, NULL, 0, NULL, 0, bi, 0, bb, 0, NULL,
                                                          0, bo, 0, 0, NULL, &done)
                    : clg_embedding_bag_enqueue(ctx, &f32, queue, bt, 0, bi, 0, bb, 0, NULL, 0, bo, 0, 0, NULL, &done);
            ck_assert_msg(st == CLG_SUCCESS, "%s table, %s mapping: %s", quantized ? "8-bit" : "f32",
                          support_mappings[m], clg_last_error_message());
            float got[B * D];
            ck_assert_int_eq(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, sizeof got, got, 1, &done, NULL), CL_SUCCESS);
            ck_assert_mem_eq(got, want[quantized], sizeof got);
            clReleaseEvent(done);
            clReleaseMemObject(bt);
            clReleaseMemObject(bo);
        }
    support_use_mapping(ctx, NULL);
    clReleaseMemObject(bi);
    clReleaseMemObject(bb);
    for (int k = 0; k < 3; ++k) free(blocks[k]);
}
END_TEST

START_TEST(caller_host_pointer_buffers_for_the_dequantizing_gather)
{
    /* A dequantizing gather from FBGEMM 8-bit rows at an odd address into an output only 16-byte aligned,
     * both the caller's memory (CL_MEM_USE_HOST_PTR): the kernels' 32-byte stores and 8-byte loads, which
     * the offsets alone would allow, must follow the memory's own alignment. Bit for bit the reference's
     * on both mappings. */
    if (support_platform_is("Oclgrind")) { /* it reports such buffers' values as uninitialized */
        printf("skipped on Oclgrind: tests/drivers/oclgrind_use_host_ptr_uninit\n");
        return;
    }
    enum { N = 53, D = 64, L = 37 };
    clg_context *ctx = support_cl_context();
    cl_context cl = clg_context_cl_context(ctx);
    support_rng rng = {20261129};
    int64_t idx[L];
    for (int k = 0; k < L; ++k) idx[k] = (int64_t)support_below(&rng, N);
    clg_gather_quantized_desc d = {.layout = CLG_QUANT_FBGEMM_8BIT_ROWWISE};
    d.data = (clg_quant_tensor_desc){.type = CLG_QUANT_U8, .rank = 2, .shape = {N, D + 8}};
    d.indices = (clg_tensor_desc){.type = CLG_I64, .rank = 1, .shape = {L}};
    unsigned char *blocks[2];
    unsigned char *rows = at_modulo_64((size_t)N * (D + 8), 17, &blocks[0]);
    unsigned char *out = at_modulo_64(sizeof(float) * L * D, 16, &blocks[1]);
    for (int r = 0; r < N; ++r) {
        for (int k = 0; k < D; ++k) rows[r * (D + 8) + k] = (unsigned char)support_next(&rng);
        const float scale = 1.0f / (float)(1 << (3 + r % 5)), bias = (float)(r % 9 - 4) / 16.0f;
        memcpy(rows + r * (D + 8) + D, &scale, 4);
        memcpy(rows + r * (D + 8) + D + 4, &bias, 4);
    }
    float want[L * D];
    ck_assert_int_eq(clg_gather_quantized_reference(&d, rows, (size_t)N * (D + 8), idx, sizeof idx, NULL, 0, NULL, 0,
                                                    want, sizeof want),
                     CLG_SUCCESS);
    cl_int err;
    cl_mem bi = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof idx, idx, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    for (int m = 0; m < 2; ++m) {
        support_use_mapping(ctx, support_mappings[m]);
        memset(out, POISON_BYTE, sizeof want);
        cl_mem bd = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, (size_t)N * (D + 8), rows, &err);
        ck_assert_int_eq(err, CL_SUCCESS);
        cl_mem bo = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof want, out, &err);
        ck_assert_int_eq(err, CL_SUCCESS);
        cl_command_queue queue = clg_context_cl_queue(ctx);
        cl_event done = NULL;
        const clg_status st =
            clg_gather_quantized_enqueue(ctx, &d, queue, bd, 0, bi, 0, NULL, 0, NULL, 0, bo, 0, 0, NULL, &done);
        ck_assert_msg(st == CLG_SUCCESS, "%s mapping: %s", support_mappings[m], clg_last_error_message());
        float got[L * D];
        ck_assert_int_eq(clEnqueueReadBuffer(queue, bo, CL_TRUE, 0, sizeof got, got, 1, &done, NULL), CL_SUCCESS);
        ck_assert_mem_eq(got, want, sizeof got);
        clReleaseEvent(done);
        clReleaseMemObject(bd);
        clReleaseMemObject(bo);
    }
    support_use_mapping(ctx, NULL);
    clReleaseMemObject(bi);
    for (int k = 0; k < 2; ++k) free(blocks[k]);
}
END_TEST

START_TEST(host_memory_output_beside_or_over_an_input)
{
    /* A synchronous call's output in the caller's memory: right after the data (no byte shared: written in
     * place where the tuning allows), then over the data's first rows (a kernel must not read what it
     * writes: copied out after it, so the result is the one of the data as passed). Bit for bit the
     * reference's of the original data, each time. */
    clg_context *ctx = support_cl_context();
    enum { ROWS = 32, COLS = 16, PICKED = 8 };
    const size_t data_bytes = sizeof(float) * ROWS * COLS, out_bytes = sizeof(float) * PICKED * COLS;
    const int64_t ds[] = {ROWS, COLS}, is[] = {PICKED};
    const clg_gather_desc d = support_onnx_desc(CLG_ONNX_13, CLG_F32, 2, ds, CLG_I32, 1, is, 0);
    const int32_t idx[PICKED] = {31, 0, 5, 5, -1, 12, 3, 20};
    unsigned char *block;
    float *data = (float *)(void *)at_modulo_64(data_bytes + out_bytes, 0, &block);
    float original[ROWS * COLS], want[PICKED * COLS];
    for (int k = 0; k < ROWS * COLS; ++k) original[k] = (float)(k * 3 - 700) / 8.0f;
    ck_assert_int_eq(clg_gather_reference(&d, original, data_bytes, idx, sizeof idx, want, out_bytes), CLG_SUCCESS);
    memcpy(data, original, data_bytes);
    float *beside = data + ROWS * COLS;
    memset(beside, POISON_BYTE, out_bytes);
    ck_assert_int_eq(clg_gather(ctx, &d, data, data_bytes, idx, sizeof idx, beside, out_bytes), CLG_SUCCESS);
    ck_assert_mem_eq(beside, want, out_bytes);
    ck_assert_mem_eq(data, original, data_bytes);
    ck_assert_int_eq(clg_gather(ctx, &d, data, data_bytes, idx, sizeof idx, data, out_bytes), CLG_SUCCESS);
    ck_assert_mem_eq(data, want, out_bytes);
    ck_assert_mem_eq(data + PICKED * COLS, original + PICKED * COLS, data_bytes - out_bytes);
    /* and a bad index leaves an output beside the data untouched */
    const int32_t bad[PICKED] = {31, 0, 5, 5, -1, 12, 3, ROWS};
    memset(beside, POISON_BYTE, out_bytes);
    ck_assert_int_eq(clg_gather(ctx, &d, original, data_bytes, bad, sizeof bad, beside, out_bytes),
                     CLG_ERR_INDEX_OUT_OF_RANGE);
    for (size_t k = 0; k < out_bytes; ++k) ck_assert_uint_eq(((unsigned char *)beside)[k], POISON_BYTE);
    free(block);
}
END_TEST

START_TEST(names_round_trip)
{
    for (int t = 1; t < CLG_DTYPE_COUNT; ++t) ck_assert_int_eq(clg_dtype_from_name(clg_dtype_name((clg_dtype)t)), t);
    for (int p = 1; p < CLG_PRESET_COUNT; ++p)
        ck_assert_int_eq(clg_preset_from_name(clg_preset_name((clg_preset)p)), p);
    ck_assert_int_eq(clg_dtype_from_name("float"), CLG_DTYPE_INVALID);
    ck_assert_int_eq(clg_preset_from_name("onnx-12"), CLG_PRESET_INVALID);
    ck_assert_uint_eq(clg_dtype_size(CLG_C128), 16);
    ck_assert_uint_eq(clg_dtype_size((clg_dtype)1000), 0);
    ck_assert_str_eq(clg_version(), "0.1.0");
    ck_assert_int_eq(clg_abi_version(), CLGATHER_ABI_VERSION);
    for (int p = 0; p < CLG_OOB_COUNT; ++p)
        ck_assert_int_eq(clg_oob_policy_from_name(clg_oob_policy_name((clg_oob_policy)p)), p);
    ck_assert_str_eq(clg_oob_policy_name(CLG_OOB_CLAMP), "clamp");
    ck_assert_str_eq(clg_oob_policy_name(CLG_OOB_COUNT), "invalid");
    ck_assert_int_eq(clg_oob_policy_from_name("wrap"), CLG_OOB_COUNT);
    ck_assert_int_eq(clg_oob_policy_from_name(NULL), CLG_OOB_COUNT);
}
END_TEST

/* ---- one context from many threads ---- */

enum { THREADS = 8, CALLS_PER_THREAD = 60 };

typedef struct thread_work {
    clg_context *ctx;
    int id;
    int failures;
} thread_work;

static void *hammer(void *arg)
{
    thread_work *w = arg;
    support_rng rng = {(uint64_t)w->id * 977 + 1};
    const clg_dtype types[] = {CLG_U8, CLG_I16, CLG_F32, CLG_F64, CLG_C128};
    for (int call = 0; call < CALLS_PER_THREAD; ++call) {
        const clg_dtype type = types[support_below(&rng, 5)];
        const int64_t rows = 1 + (int64_t)support_below(&rng, 40), width = 1 + (int64_t)support_below(&rng, 9);
        const int64_t ds[] = {rows, width}, is[] = {17};
        clg_gather_desc d = support_ov_desc(CLG_OV_GATHER_8, type, 2, ds, CLG_I64, 1, is, &axis0, 0);
        d.oob_policy = (clg_oob_policy)(1 + support_below(&rng, 3));
        const size_t es = clg_dtype_size(type), data_bytes = (size_t)(rows * width) * es,
                     out_bytes = 17 * (size_t)width * es;
        unsigned char *data = malloc(data_bytes), *got = malloc(out_bytes), *want = malloc(out_bytes);
        int64_t idx[17];
        for (size_t k = 0; k < data_bytes; ++k) data[k] = (unsigned char)support_next(&rng);
        for (int k = 0; k < 17; ++k) idx[k] = (int64_t)support_below(&rng, (uint64_t)rows + 1);
        memset(got, POISON_BYTE, out_bytes);
        memset(want, POISON_BYTE, out_bytes);
        clg_status a = clg_gather(w->ctx, &d, data, data_bytes, idx, sizeof idx, got, out_bytes);
        clg_status b = clg_gather_reference(&d, data, data_bytes, idx, sizeof idx, want, out_bytes);
        if (a != b || memcmp(got, want, out_bytes) != 0) w->failures++;
        free(data);
        free(got);
        free(want);
    }
    return NULL;
}

START_TEST(one_context_many_threads)
{
    if (support_platform_is("Oclgrind")) { /* it aborts on concurrent enqueues */
        printf("skipped on Oclgrind: tests/drivers/oclgrind_threads\n");
        return;
    }
    clg_context *ctx = NULL;
    ck_assert_int_eq(clg_context_create_default(NULL, 0, &ctx), CLG_SUCCESS);
    pthread_t threads[THREADS];
    thread_work work[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        work[t] = (thread_work){ctx, t, 0};
        ck_assert_int_eq(pthread_create(&threads[t], NULL, hammer, &work[t]), 0);
    }
    int failures = 0;
    for (int t = 0; t < THREADS; ++t) {
        pthread_join(threads[t], NULL);
        failures += work[t].failures;
    }
    ck_assert_int_eq(failures, 0);
    clg_context_release(ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, context_from_caller_objects_with_event_chain);
    tcase_add_test(tc, list_devices_marks_one_default);
    tcase_add_test(tc, device_spec_forms);
    tcase_add_test(tc, verify_mode_passes_and_detects_mismatch);
    tcase_add_test(tc, verify_mode_from_environment);
    tcase_add_test(tc, programs_built_once_per_specialization);
    tcase_add_test(tc, clamp_policy);
    tcase_add_test(tc, bit_exact_float_payloads);
    tcase_add_test(tc, caller_host_pointer_buffers_with_low_alignment);
    tcase_add_test(tc, caller_host_pointer_tables_for_embedding_bag);
    tcase_add_test(tc, caller_host_pointer_buffers_for_the_dequantizing_gather);
    tcase_add_test(tc, host_memory_output_beside_or_over_an_input);
    tcase_add_test(tc, names_round_trip);
    tcase_add_test(tc, one_context_many_threads);
    suite_add_tcase(s, tc);
    return support_run_suite(s);
}
