/* rec_file.c -- one log file of the recorder. Items are collected in a buffer and put on
 * disk with one write per flush (once a second), so the file only ever ends after a
 * whole item: a recorder killed at any moment leaves a file a reader takes as is. With
 * compression every flush is one complete gzip member (RFC 1952 allows any number of
 * them in a file; zlib's gzread and gzip -d read them as one stream), so a compressed
 * log is valid gzip after every flush too. A restarted recorder cuts the file back to
 * what its predecessor had flushed (recorded in the region) and appends. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "rec.h"

int rec_file_open(rec_file_t *f, const char *path, int level, int64_t resume_bytes,
                  char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->level = level < 0 ? 0 : level > 9 ? 9 : level;
    if (snprintf(f->path, sizeof f->path, "%s", path) >= (int)sizeof f->path) {
        snprintf(err, errlen, "log file name too long: %s", path);
        return -1;
    }
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (resume_bytes < 0 ? O_TRUNC : 0);
    f->fd = open(path, flags, 0666);
    if (f->fd < 0) {
        snprintf(err, errlen, "open(\"%s\") failed: %s", path, strerror(errno));
        return -1;
    }
    if (resume_bytes >= 0) {
        if (ftruncate(f->fd, (off_t)resume_bytes) < 0
            || lseek(f->fd, (off_t)resume_bytes, SEEK_SET) < 0) {
            snprintf(err, errlen, "resuming \"%s\" at %lld bytes: %s", path,
                     (long long)resume_bytes, strerror(errno));
            close(f->fd);
            f->fd = -1;
            return -1;
        }
        f->bytes = (uint64_t)resume_bytes;
    }
    return 0;
}

int rec_gzip_member(const void *data, size_t len, int level, rec_buf_t *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    /* windowBits 15 + 16: a gzip header and trailer around the deflate stream */
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t bound = deflateBound(&z, (uLong)len) + 32;
    char *d = rec_buf_room(out, bound);
    if (!d) {
        deflateEnd(&z);
        return -1;
    }
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)d;
    z.avail_out = (uInt)bound;
    int rc = deflate(&z, Z_FINISH);
    size_t n = bound - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        return -1;
    out->len += n;
    return 0;
}

/* write all of data (a regular file: short writes only on errors, but be exact) */
static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

int rec_file_flush(rec_file_t *f, char *err, size_t errlen)
{
    static rec_buf_t z;
    const char *data = f->buf.p;
    size_t len = f->buf.len;
    int rc = 0;
    if (f->fd < 0 || len == 0) {
        rec_buf_clear(&f->buf);
        return 0;
    }
    if (f->level > 0) {
        rec_buf_clear(&z);
        if (rec_gzip_member(f->buf.p, f->buf.len, f->level, &z) < 0) {
            snprintf(err, errlen, "compressing %s failed", f->path);
            rc = -1;
        }
        data = z.p;
        len = z.len;
    }
    if (rc == 0 && write_all(f->fd, data, len) < 0) {
        snprintf(err, errlen, "write(\"%s\") failed: %s", f->path, strerror(errno));
        /* put the file back where it ended after the last good flush */
        if (ftruncate(f->fd, (off_t)f->bytes) == 0)
            lseek(f->fd, (off_t)f->bytes, SEEK_SET);
        rc = -1;
    }
    if (rc == 0)
        f->bytes += len;
    else
        f->failed = 1;
    rec_buf_clear(&f->buf);
    return rc;
}

int rec_file_close(rec_file_t *f, char *err, size_t errlen)
{
    int rc = 0;
    if (f->fd >= 0) {
        rc = rec_file_flush(f, err, errlen);
        fdatasync(f->fd);
        close(f->fd);
        f->fd = -1;
    }
    rec_buf_free(&f->buf);
    return rc;
}

int rec_file_rename(rec_file_t *f, const char *path, char *err, size_t errlen)
{
    if (rename(f->path, path) < 0) {
        snprintf(err, errlen, "rename(\"%s\", \"%s\") failed: %s", f->path, path,
                 strerror(errno));
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    return 0;
}
