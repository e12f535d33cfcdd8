/* Consuming fuzzer bytes as typed values, and building Gather, GatherElements, GatherND, GatherTree,
 * dequantizing-gather and EmbeddingBag descriptors from them.
 * Running out of bytes yields zeros, so every input decodes to something. */
#ifndef CLG_FUZZ_INPUT_H
#define CLG_FUZZ_INPUT_H

#include "clgather.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_input {
    const uint8_t *p;
    size_t left;
} fuzz_input;

uint8_t fuzz_u8(fuzz_input *in);
uint64_t fuzz_u64(fuzz_input *in);
/* A small dimension: mostly 0..4, sometimes larger, now and then hostile (negative or huge). */
int64_t fuzz_dim(fuzz_input *in);
/* Fill n bytes (zeros once the input is used up). */
void fuzz_bytes(fuzz_input *in, void *out, size_t n);

/* A gather descriptor of fuzzer-chosen preset, types, ranks, shapes, axis (attribute or tensor of
 * any integer type held in axis_storage), batch_dims and policy: valid or not. */
void fuzz_gather_desc(fuzz_input *in, clg_gather_desc *d, uint64_t axis_storage[2]);
/* A GatherElements descriptor of fuzzer-chosen preset, types, shapes (the indices often the data's,
 * or narrower), axis and policy: valid or not. */
void fuzz_gather_elements_desc(fuzz_input *in, clg_gather_elements_desc *d);
/* A GatherND descriptor of fuzzer-chosen preset, types, shapes (shared batch dimensions and a tuple
 * length within the data rank now and then), batch_dims and policy: valid or not. */
void fuzz_gather_nd_desc(fuzz_input *in, clg_gather_nd_desc *d);
/* A dequantizing-gather descriptor of fuzzer-chosen layout, types, shapes, bits, block size, axes and
 * policy, valid or not: scales and zero points mostly shaped as their layout asks, sometimes not. */
void fuzz_gather_quantized_desc(fuzz_input *in, clg_gather_quantized_desc *d);
/* An EmbeddingBag descriptor of fuzzer-chosen preset, form, mode, types, shapes (mostly as the form
 * asks: offsets, segment ids and weights beside the indices) and options, hostile ones included: valid
 * or not. */
void fuzz_embedding_bag_desc(fuzz_input *in, clg_embedding_bag_desc *d);
/* An EmbeddingBag over a quantized table: the bag part as fuzz_embedding_bag_desc's (the table mostly
 * absent and weights mostly f32, as the call asks), the table part as fuzz_gather_quantized_desc's. */
void fuzz_embedding_bag_quantized_desc(fuzz_input *in, clg_embedding_bag_quantized_desc *d);

enum { FUZZ_MAX_TABLES = 4 };
/* A table-batched EmbeddingBag descriptor over up to FUZZ_MAX_TABLES tables held in `tables`: plain
 * tables of the four float types mostly, quantized ones of every layout (those without self-contained
 * rows too), widths mostly whole blocks, each table after the one before it (as the call sizes them) with
 * a little slack, offsets mostly [T*B] or [T*B + 1]: valid or not. Returns the table count (may be
 * hostile). */
int32_t fuzz_embedding_bag_tables_desc(fuzz_input *in, clg_embedding_bag_tables_desc *d,
                                       clg_embedding_bag_table tables[FUZZ_MAX_TABLES]);

/* count integers of type `type` into buf: small values below bound (where sorted, ascending from 0 by
 * steps of 0 or 1, up to bound), now and then (unsorted) one at or past bound, each stored as its type
 * stores it; a non-integer type gets fuzzer bytes. */
void fuzz_integers(fuzz_input *in, void *buf, clg_dtype type, size_t count, uint64_t bound, int sorted);
/* Element i of an integer array of type `type`: value's low bytes (a little-endian host). */
void fuzz_store_integer(void *buf, size_t i, clg_dtype type, uint64_t value);

/* An EmbeddingBag's indices and bag structure (offsets or segment ids, bag_bytes of them): where tame,
 * indices mostly in [0, rows) and the structure ascending within its bounds, by fuzz_integers; else
 * fuzzer bytes. */
void fuzz_bag_integers(fuzz_input *in, int tame, const clg_embedding_bag_desc *d, uint64_t rows, void *indices,
                       size_t index_bytes, void *bags, size_t bag_bytes);

/* A gather-tree descriptor, valid or not. */
void fuzz_gather_tree_desc(fuzz_input *in, clg_gather_tree_desc *d);

/* A fuzzer-chosen gather-tree call: descriptor and exact-size host inputs. */
typedef struct fuzz_tree_inputs {
    clg_gather_tree_desc desc;
    void *step_ids, *parent_ids, *max_seq_len, *end_token;
    size_t ids_bytes, seq_len_bytes, end_token_bytes;
} fuzz_tree_inputs;

/* 1 with t filled when the fuzzer's descriptor is valid and its tensors hold at most limit bytes
 * (MAX_TIME or BEAM_WIDTH may be 0 beside a huge BATCH: an empty output, a large max_seq_len). */
int fuzz_gather_tree_inputs(fuzz_input *in, size_t limit, fuzz_tree_inputs *t);
void fuzz_gather_tree_inputs_free(fuzz_tree_inputs *t);

/* Exact-size host copies (so that AddressSanitizer sees any access past the end). */
void *fuzz_alloc_filled(fuzz_input *in, size_t bytes);

#endif
