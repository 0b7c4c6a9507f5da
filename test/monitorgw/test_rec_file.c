/* test_rec_file.c -- log files: whole items per flush, a compressed file is valid gzip
 * after every flush (one member each, read back through zlib's gzread as one stream), a
 * resumed file is cut back to the flushed size before it goes on, a failing rename
 * reports. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "rec.h"

static char dir[64];

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/rcss-recfile-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void rm(const char *name)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    unlink(p);
}

static void fini(void)
{
    rm("a.rcg");
    rm("a.rcg.gz");
    rm("b.rcg");
    rmdir(dir);
}

TestSuite(rec_file, .init = setup, .fini = fini);

/* the whole uncompressed content of path through gzread (plain files pass through) */
static size_t slurp(const char *path, char *buf, size_t cap)
{
    gzFile f = gzopen(path, "rb");
    cr_assert_not_null(f);
    size_t len = 0;
    int n;
    while ((n = gzread(f, buf + len, (unsigned)(cap - 1 - len))) > 0)
        len += (size_t)n;
    gzclose(f);
    buf[len] = '\0';
    return len;
}

static void add(rec_file_t *f, const char *s)
{
    rec_buf_add(&f->buf, s, strlen(s));
}

Test(rec_file, plain_flushes_and_size)
{
    rec_file_t f;
    char path[128], err[256], got[256];
    snprintf(path, sizeof path, "%s/a.rcg", dir);
    cr_assert_eq(rec_file_open(&f, path, 0, -1, err, sizeof err), 0, "%s", err);
    add(&f, "ULG6\n");
    cr_assert_eq(rec_file_flush(&f, err, sizeof err), 0);
    add(&f, "(show 1)\n");
    /* not flushed yet: the file ends after the first item */
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_size, 5);
    cr_assert_eq(rec_file_close(&f, err, sizeof err), 0);
    cr_expect_eq(f.bytes, 14);
    slurp(path, got, sizeof got);
    cr_expect_str_eq(got, "ULG6\n(show 1)\n");
}

Test(rec_file, gzip_member_per_flush)
{
    rec_file_t f;
    char path[128], err[256], got[4096];
    snprintf(path, sizeof path, "%s/a.rcg.gz", dir);
    cr_assert_eq(rec_file_open(&f, path, 9, -1, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < 5; i++) {
        char line[32];
        snprintf(line, sizeof line, "(show %d)\n", i);
        add(&f, line);
        cr_assert_eq(rec_file_flush(&f, err, sizeof err), 0);
        /* after every flush the file is complete gzip and holds everything so far */
        size_t n = slurp(path, got, sizeof got);
        cr_expect_eq(n, (size_t)(i + 1) * 9);
    }
    rec_file_close(&f, err, sizeof err);
    slurp(path, got, sizeof got);
    cr_expect_str_eq(got, "(show 0)\n(show 1)\n(show 2)\n(show 3)\n(show 4)\n");
    unsigned char magic[2];
    FILE *fp = fopen(path, "rb");
    cr_assert_eq(fread(magic, 1, 2, fp), 2);
    fclose(fp);
    cr_expect(magic[0] == 0x1f && magic[1] == 0x8b, "gzip magic");
}

/* a recorder killed after flushing 2 items and writing part of a third: the next one
 * cuts the file back to the 2 items and appends */
Test(rec_file, resume_cuts_back)
{
    rec_file_t f;
    char path[128], err[256], got[256];
    snprintf(path, sizeof path, "%s/b.rcg", dir);
    cr_assert_eq(rec_file_open(&f, path, 0, -1, err, sizeof err), 0);
    add(&f, "one\ntwo\n");
    rec_file_flush(&f, err, sizeof err);
    uint64_t flushed = f.bytes;
    add(&f, "thr");
    rec_file_flush(&f, err, sizeof err);
    rec_file_close(&f, err, sizeof err);
    cr_assert_eq(rec_file_open(&f, path, 0, (int64_t)flushed, err, sizeof err), 0, "%s", err);
    add(&f, "three\n");
    rec_file_close(&f, err, sizeof err);
    slurp(path, got, sizeof got);
    cr_expect_str_eq(got, "one\ntwo\nthree\n");
}

Test(rec_file, errors_are_reported)
{
    rec_file_t f;
    char path[128], err[256];
    cr_expect_eq(rec_file_open(&f, "/nonexistent-dir/x.rcg", 0, -1, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "open(\"/nonexistent-dir/x.rcg\") failed"), "%s", err);
    snprintf(path, sizeof path, "%s/a.rcg", dir);
    cr_assert_eq(rec_file_open(&f, path, 0, -1, err, sizeof err), 0);
    cr_expect_eq(rec_file_rename(&f, "/nonexistent-dir/y.rcg", err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "rename("), "%s", err);
    rec_file_close(&f, err, sizeof err);
}
