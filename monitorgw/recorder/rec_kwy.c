/* rec_kwy.c -- the keepaway log (.kwy) of rcss-recorder, as rcssserver 19 writes it with
 * server::keepaway and server::keepaway_logging: opened (truncated) at the start as
 * incomplete.kwy (or the fixed name), a "#" header when the first play_on counts keepers
 * and takers, then one row per finished episode, each put on disk at once (the reference
 * flushes every line); renamed at a clean end like the game log. The sim tells the
 * header and the rows as SHM_EV_KEEPAWAY events (sim_keepaway.c).
 * Rows are numbered, so the file says itself how far it got: a restarted recorder, which
 * goes over the events since its predecessor's last saved state again, keeps the file's
 * whole lines and writes only the rows after the last one there. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rec.h"

#define KWY_TAIL 65536   /* bytes read from the end of a resumed file */

void rec_kwy_header(rec_buf_t *b, int keepers, int takers, double length, double width)
{
    /* %g: the reference streams the two reals with the default six significant digits */
    rec_buf_printf(b,
                   "# Keepers: %d\n"
                   "# Takers:  %d\n"
                   "# Region:  %g x %g\n"
                   "#\n"
                   "# Description of Fields:\n"
                   "# 1) Episode number\n"
                   "# 2) Start time in simulator steps (100ms)\n"
                   "# 3) End time in simulator steps (100ms)\n"
                   "# 4) Duration in simulator steps (100ms)\n"
                   "# 5) (o)ut of bounds / (t)aken away\n"
                   "#\n",
                   keepers, takers, length, width);
}

void rec_kwy_row(rec_buf_t *b, int episode, int start, int end, const char *why)
{
    rec_buf_printf(b, "%d\t%d\t%d\t%d\t%s\n", episode, start, end, end - start, why);
}

int rec_kwy_name(const conf_t *c, const char *dir, uint32_t episode, int final, time_t start,
                 const char *teaminfo, char *out, size_t len)
{
    char name[CONF_STR_LEN + 16], fmt[CONF_STR_LEN + 16];
    if (!final) {
        rec_runner_fixed(conf_str(c, SP_keepaway_log_fixed_name), episode, name, sizeof name);
        return logpath_running(dir, conf_bool(c, SP_keepaway_log_fixed), name, ".kwy", 0,
                               out, len) < 0 ? -1 : 0;
    }
    int dated = rec_runner_date(conf_str(c, SP_log_date_format),
                                conf_bool(c, SP_keepaway_log_dated), episode, fmt, sizeof fmt);
    return logpath_final(dir, dated, fmt, start, teaminfo, ".kwy", 0, out, len) < 0 ? -1 : 0;
}

size_t rec_kwy_scan(const char *text, size_t len, int *header, int *last)
{
    size_t whole = 0;
    *header = 0;
    *last = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        if (!nl)
            break; /* a line its writer did not finish */
        size_t n = (size_t)(nl - (text + i));
        if (n >= 10 && memcmp(text + i, "# Keepers:", 10) == 0)
            *header = 1;
        else if (n > 0 && text[i] >= '0' && text[i] <= '9')
            *last = atoi(text + i);
        i += n + 1;
        whole = i;
    }
    return whole;
}

/* read exactly len bytes at off; 0, or -1 */
static int read_at(int fd, char *buf, size_t len, off_t off)
{
    while (len > 0) {
        ssize_t n = pread(fd, buf, len, off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        buf += n;
        len -= (size_t)n;
        off += n;
    }
    return 0;
}

/* The whole lines of an existing file and what they hold; 0 if there is none. Only its
 * head (is the header there: it is what a file starts with) and its last KWY_TAIL bytes
 * (the last row; a row is some 30 bytes) are read, however long the training ran. */
static size_t kwy_existing(rec_kwy_t *k, const char *path)
{
    static char tail[KWY_TAIL];
    char head[10];
    struct stat st;
    size_t whole = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        size_t size = (size_t)st.st_size;
        size_t n = size < sizeof tail ? size : sizeof tail;
        off_t from = (off_t)(size - n);
        if (read_at(fd, tail, n, from) == 0) {
            /* a tail that starts inside a line: skip to its end */
            const char *p = tail;
            if (from > 0) {
                const char *nl = memchr(tail, '\n', n);
                p = nl ? nl + 1 : tail; /* no line end at all: nothing whole in the tail */
            }
            size_t skip = (size_t)(p - tail);
            size_t w = rec_kwy_scan(p, n - skip, &k->header, &k->last);
            whole = (size_t)from + skip + w;
            if (from > 0 && size >= sizeof head && read_at(fd, head, sizeof head, 0) == 0)
                k->header = memcmp(head, "# Keepers:", sizeof head) == 0;
        }
    }
    close(fd);
    return whole;
}

int rec_kwy_open(rec_kwy_t *k, const char *path, int resume, char *err, size_t errlen)
{
    k->header = 0;
    k->last = 0;
    size_t whole = resume ? kwy_existing(k, path) : 0;
    return rec_file_open(&k->file, path, 0, whole > 0 ? (int64_t)whole : -1, err, errlen);
}

int rec_kwy_event(rec_kwy_t *k, const shm_event_sh_t *ev, const char *text, size_t len,
                  const conf_t *c, char *err, size_t errlen)
{
    if (ev->kind != SHM_EV_KEEPAWAY || k->file.fd < 0)
        return 0;
    if (ev->arg == 0) {
        if (k->header)
            return 0; /* written before a restart */
        rec_kwy_header(&k->file.buf, (int)ev->x, (int)ev->y,
                       conf_real(c, SP_keepaway_length), conf_real(c, SP_keepaway_width));
        k->header = 1;
    } else {
        if (ev->arg <= k->last)
            return 0; /* written before a restart */
        char why[2] = { len > 0 ? text[0] : '?', '\0' };
        rec_kwy_row(&k->file.buf, ev->arg, (int)ev->x, (int)ev->y, why);
        k->last = ev->arg;
    }
    return rec_file_flush(&k->file, err, errlen);
}
