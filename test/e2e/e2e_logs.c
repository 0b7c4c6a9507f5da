/* e2e_logs.c -- see e2e_logs.h. */
#include <dirent.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "e2e_logs.h"
#include "shm.h"

int e2e_logdir_make(e2e_logdir_t *d)
{
    snprintf(d->dir, sizeof d->dir, "/tmp/rcss-logs-XXXXXX");
    if (!mkdtemp(d->dir))
        return -1;
    snprintf(d->game_arg, sizeof d->game_arg, "server::game_log_dir=%s", d->dir);
    snprintf(d->text_arg, sizeof d->text_arg, "server::text_log_dir=%s", d->dir);
    return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void e2e_logdir_remove(e2e_logdir_t *d)
{
    if (d->dir[0])
        nftw(d->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int e2e_logdir_find(const e2e_logdir_t *d, const char *suffix, char *out, size_t len)
{
    DIR *dir = opendir(d->dir);
    struct dirent *e;
    int n = 0;
    size_t sl = strlen(suffix);
    if (!dir)
        return 0;
    while ((e = readdir(dir))) {
        size_t l = strlen(e->d_name);
        if (l >= sl && strcmp(e->d_name + l - sl, suffix) == 0) {
            if (n++ == 0)
                snprintf(out, len, "%s/%s", d->dir, e->d_name);
        }
    }
    closedir(dir);
    return n;
}

int e2e_logdir_count(const e2e_logdir_t *d)
{
    DIR *dir = opendir(d->dir);
    struct dirent *e;
    int n = 0;
    if (!dir)
        return -1;
    while ((e = readdir(dir)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(dir);
    return n;
}

int e2e_players_join(e2e_players_t *p, const e2e_server_t *s, const char *team, int goalie)
{
    char init[128], buf[4096];
    if (p->n >= E2E_MAX_PLAYERS)
        return -1;
    int fd = e2e_udp_open(), port = 0;
    snprintf(init, sizeof init, "(init %s (version 19)%s)", team, goalie ? " (goalie)" : "");
    e2e_send(fd, s->port, init);
    if (e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, &port) <= 0) {
        close(fd);
        return -1;
    }
    p->fd[p->n] = fd;
    p->port[p->n] = port;
    snprintf(p->cmd[p->n], sizeof p->cmd[p->n], "(dash 40)");
    p->n++;
    return 0;
}

/* read until ms pass or (limit > 0) thinks reaches limit */
static void pump(e2e_players_t *p, int ms, int limit)
{
    char buf[8192];
    double end = e2e_now_ms() + ms;
    struct pollfd pf[E2E_MAX_PLAYERS];
    for (;;) {
        int left = (int)(end - e2e_now_ms());
        if (left <= 0 || (limit > 0 && p->thinks >= limit))
            return;
        for (int i = 0; i < p->n; i++) {
            pf[i].fd = p->fd[i];
            pf[i].events = POLLIN;
            pf[i].revents = 0;
        }
        if (poll(pf, (nfds_t)p->n, left) <= 0)
            continue;
        for (int i = 0; i < p->n; i++) {
            if (!(pf[i].revents & POLLIN))
                continue;
            if (e2e_recv(p->fd[i], buf, sizeof buf, 0, NULL) <= 0)
                continue;
            if (strstr(buf, "(think)")) {
                e2e_send(p->fd[i], p->port[i], p->cmd[i]);
                e2e_send(p->fd[i], p->port[i], "(done)");
                p->thinks++;
            }
        }
    }
}

void e2e_players_pump(e2e_players_t *p, int ms)
{
    pump(p, ms, 0);
}

int e2e_players_cycles(e2e_players_t *p, int n, int timeout_ms)
{
    int want = p->thinks + n * p->n;
    pump(p, timeout_ms, want);
    return p->thinks >= want ? 0 : -1;
}

void e2e_players_close(e2e_players_t *p)
{
    for (int i = 0; i < p->n; i++)
        close(p->fd[i]);
    p->n = 0;
}

char *e2e_rcg_play(const char *path, size_t *len)
{
    size_t n = 0;
    char *t = e2e_read_file(path, &n);
    char *show = t ? strstr(t, "(show ") : NULL;
    if (!show) {
        free(t);
        return NULL;
    }
    if (show > t && show[-1] != '\n') { /* a show that does not begin a line: no log */
        free(t);
        return NULL;
    }
    n -= (size_t)(show - t);
    memmove(t, show, n + 1);
    char *r = strstr(t, "(result ");
    for (int i = 0; r && i < 12 && r[8 + i] >= '0' && r[8 + i] <= '9'; i++)
        r[8 + i] = 'X';
    if (len)
        *len = n;
    return t;
}

int e2e_text_same(const char *a, size_t la, const char *b, size_t lb, char *why, size_t len)
{
    if (la == lb && memcmp(a, b, la) == 0)
        return 1;
    size_t i = 0, line = 1, start = 0;
    while (i < la && i < lb && a[i] == b[i]) {
        if (a[i] == '\n') {
            line++;
            start = i + 1;
        }
        i++;
    }
    size_t from = i - start > 60 ? i - 60 : start;
    const char *ea = memchr(a + from, '\n', la - from), *eb = memchr(b + from, '\n', lb - from);
    int na = (int)((ea ? (size_t)(ea - a) : la) - from), nb = (int)((eb ? (size_t)(eb - b) : lb) - from);
    snprintf(why, len, "line %zu differs from column %zu:\n  A: %.*s%s\n  B: %.*s%s", line,
             i - start + 1, na > 200 ? 200 : na, a + from, na > 200 ? "..." : "",
             nb > 200 ? 200 : nb, b + from, nb > 200 ? "..." : "");
    return 0;
}

char *e2e_read_file(const char *path, size_t *len)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    int k;
    while (buf && (k = gzread(f, buf + n, (unsigned)(cap - n))) > 0) {
        n += (size_t)k;
        if (n == cap) {
            char *b = realloc(buf, cap * 2 + 1);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    gzclose(f);
    if (buf) {
        buf[n] = '\0';
        if (len)
            *len = n;
    }
    return buf;
}

pid_t e2e_recorder_pid(const e2e_server_t *s)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return 0;
    pid_t p = atomic_load(&h.r->recorder.pid);
    shm_region_detach(&h);
    return p;
}

unsigned long long e2e_server_seed(const e2e_server_t *s)
{
    char *out = e2e_read_file(s->log, NULL);
    unsigned long long seed = 0;
    const char *p = out ? strstr(out, "Simulator Random Seed: ") : NULL;
    if (p)
        seed = strtoull(p + 23, NULL, 10);
    free(out);
    return seed;
}

int e2e_wait_gone(pid_t pid, int ms)
{
    double end = e2e_now_ms() + ms;
    while (kill(pid, 0) == 0) {
        if (e2e_now_ms() > end)
            return -1;
        usleep(10000);
    }
    return 0;
}

pid_t e2e_wait_recorder(const e2e_server_t *s, pid_t old, int ms)
{
    double end = e2e_now_ms() + ms;
    while (e2e_now_ms() < end) {
        pid_t p = e2e_recorder_pid(s);
        if (p > 0 && p != old)
            return p;
        usleep(10000);
    }
    return 0;
}

void e2e_server_kill9(e2e_server_t *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        waitpid(s->pid, NULL, 0);
        s->pid = -1;
    }
    shm_unlink(s->shm_name);
    if (s->dir[0])
        nftw(s->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
