#include "npy.h"

#include "byte_order.h"
#include "cli_error.h"
#include "file_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* The dtypes clgather maps: the descr without its byte-order character. */
static const struct {
    const char *code;
    clg_dtype type;
} npy_types[] = {
    {"b1", CLG_BOOL}, {"i1", CLG_I8},  {"i2", CLG_I16}, {"i4", CLG_I32},   {"i8", CLG_I64},
    {"u1", CLG_U8},   {"u2", CLG_U16}, {"u4", CLG_U32}, {"u8", CLG_U64},   {"f2", CLG_F16},
    {"f4", CLG_F32},  {"f8", CLG_F64}, {"c8", CLG_C64}, {"c16", CLG_C128},
};

/* ---- header dictionary parser ---------------------------------------------------------------- */

typedef struct header_cursor {
    const char *text;
    size_t len;
    size_t pos;
    char *error; /* where a parse failure is described */
    size_t error_cap;
} header_cursor;

static int header_error(header_cursor *c, const char *fmt, const char *detail)
{
    char where[64];
    snprintf(where, sizeof where, " (header offset %zu)", c->pos);
    snprintf(c->error, c->error_cap, fmt, detail ? detail : "");
    size_t used = strlen(c->error);
    if (used < c->error_cap) snprintf(c->error + used, c->error_cap - used, "%s", where);
    return -1;
}

static void skip_space(header_cursor *c)
{
    while (c->pos < c->len && (c->text[c->pos] == ' ' || c->text[c->pos] == '\t')) ++c->pos;
}

static int expect_char(header_cursor *c, char want)
{
    skip_space(c);
    if (c->pos >= c->len || c->text[c->pos] != want) {
        char what[2] = {want, 0};
        return header_error(c, "expected '%s'", what);
    }
    ++c->pos;
    return 0;
}

static int peek_char(header_cursor *c, char want)
{
    skip_space(c);
    return c->pos < c->len && c->text[c->pos] == want;
}

/* A Python string literal in single or double quotes, without escapes (no valid key or descr has one). */
static int parse_string(header_cursor *c, char *out, size_t cap)
{
    skip_space(c);
    if (c->pos >= c->len || (c->text[c->pos] != '\'' && c->text[c->pos] != '"'))
        return header_error(c, "expected a quoted string%s", NULL);
    char quote = c->text[c->pos++];
    size_t n = 0;
    while (c->pos < c->len && c->text[c->pos] != quote) {
        char ch = c->text[c->pos];
        if (ch == '\\' || (unsigned char)ch < 0x20) return header_error(c, "unsupported character in a string%s", NULL);
        if (n + 1 >= cap) return header_error(c, "string too long%s", NULL);
        out[n++] = ch;
        ++c->pos;
    }
    if (c->pos >= c->len) return header_error(c, "unterminated string%s", NULL);
    ++c->pos;
    out[n] = '\0';
    return 0;
}

static int parse_bool(header_cursor *c, int *out)
{
    skip_space(c);
    if (c->len - c->pos >= 4 && strncmp(c->text + c->pos, "True", 4) == 0) {
        c->pos += 4;
        *out = 1;
        return 0;
    }
    if (c->len - c->pos >= 5 && strncmp(c->text + c->pos, "False", 5) == 0) {
        c->pos += 5;
        *out = 0;
        return 0;
    }
    return header_error(c, "fortran_order must be True or False%s", NULL);
}

static int parse_dimension(header_cursor *c, int64_t *out)
{
    skip_space(c);
    int negative = 0;
    if (c->pos < c->len && (c->text[c->pos] == '-' || c->text[c->pos] == '+')) negative = c->text[c->pos++] == '-';
    if (c->pos >= c->len || c->text[c->pos] < '0' || c->text[c->pos] > '9')
        return header_error(c, "expected a dimension (an integer)%s", NULL);
    uint64_t value = 0;
    while (c->pos < c->len && c->text[c->pos] >= '0' && c->text[c->pos] <= '9') {
        unsigned digit = (unsigned)(c->text[c->pos] - '0');
        if (value > ((uint64_t)INT64_MAX - digit) / 10) return header_error(c, "dimension too large%s", NULL);
        value = value * 10 + digit;
        ++c->pos;
    }
    /* Python 2 wrote long integers with an L suffix; numpy still reads such files */
    if (c->pos < c->len && c->text[c->pos] == 'L') ++c->pos;
    if (negative && value != 0) return header_error(c, "negative dimension%s", NULL);
    *out = (int64_t)value;
    return 0;
}

/* "(d0, d1, ...)" with an optional trailing comma; "(d0,)" for one dimension; "()" for a scalar. */
static int parse_shape(header_cursor *c, int32_t *rank, int64_t shape[CLG_MAX_RANK])
{
    if (expect_char(c, '(') != 0) return -1;
    *rank = 0;
    if (peek_char(c, ')')) {
        ++c->pos;
        return 0;
    }
    for (;;) {
        int64_t dim = 0;
        if (parse_dimension(c, &dim) != 0) return -1;
        if (*rank >= CLG_MAX_RANK) {
            char text[32];
            snprintf(text, sizeof text, "%d", CLG_MAX_RANK);
            return header_error(c, "rank above clgather's maximum of %s", text);
        }
        shape[(*rank)++] = dim;
        int had_comma = 0;
        if (peek_char(c, ',')) {
            ++c->pos;
            had_comma = 1;
        }
        if (peek_char(c, ')')) {
            /* Python needs the comma in a one-element tuple: "(3)" is the integer 3 */
            if (*rank == 1 && !had_comma) return header_error(c, "shape '(n)' is not a tuple; expected '(n,)'%s", NULL);
            ++c->pos;
            return 0;
        }
        if (!had_comma) return header_error(c, "expected ',' or ')' in the shape%s", NULL);
    }
}

typedef struct npy_header {
    char descr[32];
    int fortran_order;
    int32_t rank;
    int64_t shape[CLG_MAX_RANK];
} npy_header;

static int parse_header_dict(header_cursor *c, npy_header *h)
{
    int have_descr = 0, have_order = 0, have_shape = 0;
    if (expect_char(c, '{') != 0) return -1;
    for (;;) {
        if (peek_char(c, '}')) {
            ++c->pos;
            break;
        }
        char key[32];
        if (parse_string(c, key, sizeof key) != 0) return -1;
        if (expect_char(c, ':') != 0) return -1;
        if (strcmp(key, "descr") == 0) {
            if (have_descr) return header_error(c, "key 'descr' repeated%s", NULL);
            skip_space(c);
            if (c->pos < c->len && c->text[c->pos] == '[')
                return header_error(c, "structured dtypes (a descr list) are not supported%s", NULL);
            if (parse_string(c, h->descr, sizeof h->descr) != 0) return -1;
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (have_order) return header_error(c, "key 'fortran_order' repeated%s", NULL);
            if (parse_bool(c, &h->fortran_order) != 0) return -1;
            have_order = 1;
        } else if (strcmp(key, "shape") == 0) {
            if (have_shape) return header_error(c, "key 'shape' repeated%s", NULL);
            if (parse_shape(c, &h->rank, h->shape) != 0) return -1;
            have_shape = 1;
        } else {
            return header_error(c, "unexpected key '%s'", key);
        }
        if (peek_char(c, ',')) {
            ++c->pos;
        } else if (!peek_char(c, '}')) {
            return header_error(c, "expected ',' or '}'%s", NULL);
        }
    }
    if (!have_descr) return header_error(c, "key 'descr' missing%s", NULL);
    if (!have_order) return header_error(c, "key 'fortran_order' missing%s", NULL);
    if (!have_shape) return header_error(c, "key 'shape' missing%s", NULL);
    /* only padding may follow: spaces, and the newline that ends the header */
    while (c->pos < c->len &&
           (c->text[c->pos] == ' ' || c->text[c->pos] == '\t' || c->text[c->pos] == '\n' || c->text[c->pos] == '\r'))
        ++c->pos;
    if (c->pos != c->len) return header_error(c, "unexpected text after the header dictionary%s", NULL);
    return 0;
}

/* Map a descr such as "<f4" to a dtype and whether its bytes must be swapped. */
static int map_descr(const char *descr, clg_dtype *type, int *swap, char *error, size_t error_cap)
{
    char order = descr[0];
    const char *code = descr;
    if (order == '<' || order == '>' || order == '|' || order == '=')
        code = descr + 1;
    else
        order = '=';
    for (size_t i = 0; i < sizeof npy_types / sizeof npy_types[0]; ++i) {
        if (strcmp(code, npy_types[i].code) != 0) continue;
        *type = npy_types[i].type;
        int file_little = order == '<' || (order != '>' && cli_host_is_little_endian());
        *swap = clg_dtype_size(*type) > 1 && file_little != cli_host_is_little_endian();
        return 0;
    }
    const char *kind = "unknown";
    switch (code[0]) {
    case 'O': kind = "Python objects"; break;
    case 'U': kind = "unicode strings"; break;
    case 'S':
    case 'a': kind = "byte strings"; break;
    case 'V': kind = "void/raw records"; break;
    case 'M': kind = "datetime"; break;
    case 'm': kind = "timedelta"; break;
    case 'f':
    case 'i':
    case 'u':
    case 'c':
    case 'b': kind = "an unsupported width"; break;
    default: break;
    }
    snprintf(error, error_cap, "unsupported dtype '%s' (%s); clgather reads b1, i1..i8, u1..u8, f2, f4, f8, c8, c16",
             descr, kind);
    return -1;
}

int cli_npy_parse(const char *what, const char *name, const unsigned char *file, size_t file_len, cli_tensor *out)
{
    memset(out, 0, sizeof *out);
    if (file_len < 10 || memcmp(file, npy_magic, sizeof npy_magic) != 0)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': not a .npy file (bad magic string)", what, name);
    unsigned major = file[6], minor = file[7];
    size_t prefix = 0, header_len = 0;
    if (major == 1 && minor == 0) {
        prefix = 10;
        header_len = cli_load_le16(file + 8);
    } else if ((major == 2 || major == 3) && minor == 0) {
        if (file_len < 12) return cli_fail(CLI_EXIT_REFUSED, "%s '%s': truncated header", what, name);
        prefix = 12;
        header_len = cli_load_le32(file + 8);
    } else {
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': unsupported .npy format version %u.%u", what, name, major, minor);
    }
    if (header_len > file_len - prefix)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': header length %zu runs past the end of the file (%zu bytes)", what,
                        name, header_len, file_len);
    const char *header_text = (const char *)file + prefix;
    /* version 1 and 2 headers are latin-1/ASCII; a valid header never holds non-ASCII or NUL */
    for (size_t i = 0; i < header_len; ++i)
        if ((unsigned char)header_text[i] >= 0x80 || header_text[i] == '\0')
            return cli_fail(CLI_EXIT_REFUSED, "%s '%s': non-ASCII byte in the header at offset %zu", what, name, i);
    if (header_len == 0 || header_text[header_len - 1] != '\n')
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': header does not end with a newline", what, name);

    char error[256] = "";
    header_cursor cursor = {header_text, header_len, 0, error, sizeof error};
    npy_header header;
    memset(&header, 0, sizeof header);
    if (parse_header_dict(&cursor, &header) != 0)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': malformed header: %s", what, name, error);
    clg_dtype type = CLG_DTYPE_INVALID;
    int swap = 0;
    if (map_descr(header.descr, &type, &swap, error, sizeof error) != 0)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': %s", what, name, error);
    if (header.fortran_order)
        return cli_fail(CLI_EXIT_REFUSED,
                        "%s '%s': Fortran-order arrays are not supported (save with np.ascontiguousarray)", what, name);

    uint64_t count = 0, bytes = 0;
    int32_t bad = 0;
    if (cli_shape_size(header.rank, header.shape, clg_dtype_size(type), &count, &bytes, &bad) != 0)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': absurd shape: the size overflows at dimension %d (%lld)", what,
                        name, (int)bad, (long long)header.shape[bad]);
    size_t payload_available = file_len - prefix - header_len;
    if (bytes > payload_available)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': truncated payload: the shape needs %llu bytes, the file holds %zu",
                        what, name, (unsigned long long)bytes, payload_available);
    if (bytes < payload_available)
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': %zu unexpected bytes after the payload", what, name,
                        payload_available - (size_t)bytes);

    char label[512];
    snprintf(label, sizeof label, "%s '%s'", what, name);
    if (cli_tensor_alloc(out, type, header.rank, header.shape, label) != 0) return CLI_EXIT_REFUSED;
    memcpy(out->bytes, file + prefix + header_len, (size_t)bytes);
    if (swap) {
        size_t word = clg_dtype_size(type);
        if (type == CLG_C64 || type == CLG_C128) word /= 2;
        cli_swap_words(out->bytes, out->byte_size, word);
    }
    return 0;
}

int cli_npy_read(const char *what, const char *path, cli_tensor *out)
{
    unsigned char *file = NULL;
    size_t file_len = 0;
    memset(out, 0, sizeof *out);
    if (cli_read_file(what, path, &file, &file_len) != 0) return CLI_EXIT_REFUSED;
    int rc = cli_npy_parse(what, path, file, file_len, out);
    free(file);
    return rc;
}

static const char *descr_of(clg_dtype type)
{
    for (size_t i = 0; i < sizeof npy_types / sizeof npy_types[0]; ++i)
        if (npy_types[i].type == type) return npy_types[i].code;
    return NULL;
}

int cli_npy_write(const char *path, const cli_tensor *t)
{
    const char *code = descr_of(t->type);
    if (!code)
        return cli_fail(CLI_EXIT_REFUSED, "output '%s': element type %s has no .npy dtype", path,
                        clg_dtype_name(t->type));
    char dict[512];
    int used = snprintf(dict, sizeof dict, "{'descr': '%c%s', 'fortran_order': False, 'shape': (",
                        clg_dtype_size(t->type) == 1 ? '|' : '<', code);
    for (int32_t i = 0; i < t->rank; ++i)
        used += snprintf(dict + used, sizeof dict - (size_t)used, "%lld,%s", (long long)t->shape[i],
                         i + 1 < t->rank ? " " : "");
    /* "(3,)" needs its comma; longer tuples are written "(2, 3)" as numpy does */
    if (t->rank > 1) --used;
    used += snprintf(dict + used, sizeof dict - (size_t)used, "), }");

    /* pad with spaces and end with a newline so that the data starts on a 64-byte boundary */
    size_t prefix = 10;
    size_t header_len = (size_t)used + 1;
    size_t padded = ((prefix + header_len + 63) / 64) * 64 - prefix;
    unsigned char preamble[10 + 640];
    memcpy(preamble, npy_magic, sizeof npy_magic);
    preamble[6] = 1;
    preamble[7] = 0;
    preamble[8] = (unsigned char)(padded & 0xff);
    preamble[9] = (unsigned char)(padded >> 8);
    memcpy(preamble + prefix, dict, (size_t)used);
    memset(preamble + prefix + used, ' ', padded - (size_t)used - 1);
    preamble[prefix + padded - 1] = '\n';

    unsigned char *payload = t->bytes;
    unsigned char *swapped = NULL;
    if (!cli_host_is_little_endian() && clg_dtype_size(t->type) > 1) {
        swapped = malloc(t->byte_size ? t->byte_size : 1);
        if (!swapped) return cli_fail(CLI_EXIT_REFUSED, "output '%s': out of memory", path);
        memcpy(swapped, t->bytes, t->byte_size);
        size_t word = clg_dtype_size(t->type);
        if (t->type == CLG_C64 || t->type == CLG_C128) word /= 2;
        cli_swap_words(swapped, t->byte_size, word);
        payload = swapped;
    }
    cli_write_piece pieces[2] = {{preamble, prefix + padded}, {payload, t->byte_size}};
    int rc = cli_write_file_atomic(path, pieces, 2);
    free(swapped);
    return rc;
}
