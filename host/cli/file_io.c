/* POSIX: fstat, mkstemp, fchmod, umask, rename. */
#define _POSIX_C_SOURCE 200809L

#include "file_io.h"

#include "cli_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_read_file(const char *what, const char *path, unsigned char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return cli_fail(CLI_EXIT_REFUSED, "%s '%s': cannot open: %s", what, path, strerror(errno));
    struct stat info;
    if (fstat(fd, &info) != 0) {
        int saved = errno;
        close(fd);
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': cannot stat: %s", what, path, strerror(saved));
    }
    if (!S_ISREG(info.st_mode)) {
        close(fd);
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': not a regular file", what, path);
    }
    if (info.st_size < 0 || (uint64_t)info.st_size > (uint64_t)SIZE_MAX - 1) {
        close(fd);
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': file too large", what, path);
    }
    size_t size = (size_t)info.st_size;
    unsigned char *buffer = malloc(size ? size : 1);
    if (!buffer) {
        close(fd);
        return cli_fail(CLI_EXIT_REFUSED, "%s '%s': cannot allocate %zu bytes to read it", what, path, size);
    }
    size_t done = 0;
    while (done < size) {
        ssize_t got = read(fd, buffer + done, size - done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            int saved = got < 0 ? errno : 0;
            free(buffer);
            close(fd);
            if (saved) return cli_fail(CLI_EXIT_REFUSED, "%s '%s': read failed: %s", what, path, strerror(saved));
            return cli_fail(CLI_EXIT_REFUSED, "%s '%s': file shrank while being read", what, path);
        }
        done += (size_t)got;
    }
    close(fd);
    *out = buffer;
    *out_len = size;
    return 0;
}

static int write_all(int fd, const unsigned char *bytes, size_t len)
{
    while (len > 0) {
        ssize_t put = write(fd, bytes, len);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return -1;
        bytes += put;
        len -= (size_t)put;
    }
    return 0;
}

int cli_write_file_atomic(const char *path, const cli_write_piece *pieces, int piece_count)
{
    static const char suffix[] = ".clgather-tmp-XXXXXX";
    size_t path_len = strlen(path);
    char *temp_path = malloc(path_len + sizeof suffix);
    if (!temp_path) return cli_fail(CLI_EXIT_REFUSED, "output '%s': out of memory", path);
    memcpy(temp_path, path, path_len);
    memcpy(temp_path + path_len, suffix, sizeof suffix);

    int fd = mkstemp(temp_path);
    if (fd < 0) {
        int saved = errno;
        free(temp_path);
        return cli_fail(CLI_EXIT_REFUSED, "output '%s': cannot create a temporary file beside it: %s", path,
                        strerror(saved));
    }
    /* mkstemp makes the file 0600; give it the permissions a plain create would */
    mode_t mask = umask(0);
    umask(mask);
    int failed = fchmod(fd, 0666 & ~mask) != 0;
    for (int i = 0; i < piece_count && !failed; ++i) failed = write_all(fd, pieces[i].bytes, pieces[i].len) != 0;
    int saved = failed ? errno : 0;
    if (close(fd) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (!failed && rename(temp_path, path) != 0) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        unlink(temp_path);
        free(temp_path);
        return cli_fail(CLI_EXIT_REFUSED, "output '%s': cannot write it: %s", path, strerror(saved));
    }
    free(temp_path);
    return 0;
}

int cli_path_format(char *out, size_t capacity, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(out, capacity, fmt, args);
    va_end(args);
    if (n < 0 || (size_t)n >= capacity) return cli_fail(CLI_EXIT_REFUSED, "path too long: '%.100s...'", out);
    return 0;
}
