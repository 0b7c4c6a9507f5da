/* e2e_runner.c -- the runner tests' helpers (e2e_runner.h): a server started with the
 * test's own arguments, its ready line, HTTP/1.0 GET and server-sent events. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_http.h"
#include "e2e_runner.h"
#include "shm.h"

static int ready_field(const char *line, const char *key)
{
    char k[32];
    snprintf(k, sizeof k, " %s=", key);
    const char *p = strstr(line, k);
    return p ? atoi(p + strlen(k)) : -1;
}

/* the ready line in the log: 1 found (fields filled), 0 not yet */
static int read_ready(e2e_srv_t *p)
{
    char out[16384];
    e2e_srv_output(p, out, sizeof out);
    const char *l = strstr(out, "\nREADY ");
    if (!l || !strchr(l + 1, '\n'))
        return 0;
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(strchr(l + 1, '\n') - l - 1), l + 1);
    p->port = ready_field(line, "port");
    p->coach_port = ready_field(line, "coach_port");
    p->olcoach_port = ready_field(line, "olcoach_port");
    p->http_port = ready_field(line, "http_port");
    const char *s = strstr(line, " shm=");
    if (s)
        sscanf(s + 5, "%63s", p->shm);
    return 1;
}

static void child(const e2e_srv_t *p, const char *const *args, const char *home)
{
    const char *bindir = getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin";
    char exe[512];
    const char *argv[80] = { exe, "server::bind_address=127.0.0.1", "server::game_logging=false",
                             "server::text_logging=false" };
    int argc = 4;
    snprintf(exe, sizeof exe, "%s/rcssserver", bindir);
    for (int i = 0; args && args[i] && argc < 78; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    int fd = open(p->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    if (chdir(p->dir) != 0)
        _exit(126);
    if (home) {
        setenv("HOME", home, 1);
        unsetenv("RCSS_CONF_DIR");
    } else {
        setenv("RCSS_CONF_DIR", p->conf_dir, 1);
    }
    execv(exe, (char *const *)argv);
    _exit(127);
}

int e2e_srv_spawn(e2e_srv_t *p, const char *const *args, const char *home)
{
    memset(p, 0, sizeof *p);
    p->status = -1;
    snprintf(p->dir, sizeof p->dir, "/tmp/rcss-e2e-run-XXXXXX");
    if (!mkdtemp(p->dir))
        return -1;
    snprintf(p->log, sizeof p->log, "%s/server.log", p->dir);
    snprintf(p->conf_dir, sizeof p->conf_dir, "%s/conf", p->dir);
    mkdir(p->conf_dir, 0700);
    p->pid = fork();
    if (p->pid < 0)
        return -1;
    if (p->pid == 0)
        child(p, args, home);
    return 0;
}

int e2e_srv_start(e2e_srv_t *p, const char *const *args, const char *home)
{
    if (e2e_srv_spawn(p, args, home) < 0)
        return -1;
    double end = e2e_now_ms() + 8000;
    while (e2e_now_ms() < end) {
        int st;
        if (read_ready(p))
            return 0;
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
            p->pid = -1;
            p->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
            return 1;
        }
        usleep(10000);
    }
    fprintf(stderr, "e2e: no ready line within 8 s (see %s)\n", p->log);
    e2e_srv_stop(p);
    return -1;
}

int e2e_srv_wait(e2e_srv_t *p, int timeout_ms)
{
    if (p->pid <= 0)
        return p->status;
    double end = e2e_now_ms() + timeout_ms;
    int st;
    while (waitpid(p->pid, &st, WNOHANG) == 0) {
        if (e2e_now_ms() > end) {
            fprintf(stderr, "e2e: server did not exit by itself (see %s)\n", p->log);
            kill(p->pid, SIGKILL);
            waitpid(p->pid, &st, 0);
            p->pid = -1;
            return -1;
        }
        usleep(10000);
    }
    p->pid = -1;
    p->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return p->status;
}

int e2e_srv_stop(e2e_srv_t *p)
{
    if (p->pid > 0)
        kill(p->pid, SIGTERM);
    return e2e_srv_wait(p, 8000);
}

void e2e_srv_output(const e2e_srv_t *p, char *out, size_t len)
{
    out[0] = '\n'; /* so a first line can be matched as "\nLINE" */
    out[1] = '\0';
    FILE *f = fopen(p->log, "r");
    if (!f)
        return;
    size_t n = fread(out + 1, 1, len - 2, f);
    out[n + 1] = '\0';
    fclose(f);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void e2e_srv_clean(e2e_srv_t *p)
{
    if (p->dir[0])
        nftw(p->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- HTTP --------------------------------------------------------------------------- */
int e2e_http_get(int port, const char *path, char *buf, size_t len)
{
    int fd = e2e_tcp_connect(port);
    if (fd < 0)
        return -1;
    char req[512];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
    if (write(fd, req, (size_t)n) != n) {
        close(fd);
        return -1;
    }
    size_t got = e2e_read_until(fd, buf, len, 0, 3000, NULL);
    close(fd);
    int code = -1;
    if (got < 12 || sscanf(buf, "HTTP/%*d.%*d %d", &code) != 1)
        return -1;
    char *body = strstr(buf, "\r\n\r\n");
    body = body ? body + 4 : buf + got;
    memmove(buf, body, strlen(body) + 1);
    return code;
}

/* bytes read past the headers of an SSE stream, per socket (tests use a few) */
#define SSE_MAX 8
static struct { int fd; char buf[65536]; size_t len; } sse[SSE_MAX];

int e2e_sse_open(int port, const char *path, const char *last_id)
{
    int fd = e2e_tcp_connect(port);
    if (fd < 0)
        return -1;
    char req[512], head[8192];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n%s%s%s\r\n", path,
                     last_id ? "Last-Event-ID: " : "", last_id ? last_id : "",
                     last_id ? "\r\n" : "");
    size_t got = write(fd, req, (size_t)n) == n ? e2e_read_until(fd, head, sizeof head, 0, 3000, "\r\n\r\n") : 0;
    char *body = got ? strstr(head, "\r\n\r\n") : NULL;
    int slot = -1;
    for (int i = 0; i < SSE_MAX && slot < 0; i++) {
        if (sse[i].fd <= 0)
            slot = i;
    }
    if (!body || slot < 0 || strncmp(head, "HTTP/1.", 7) != 0 || !strstr(head, " 200 ")) {
        close(fd);
        return -1;
    }
    body += 4;
    sse[slot].fd = fd;
    sse[slot].len = got - (size_t)(body - head);
    memcpy(sse[slot].buf, body, sse[slot].len);
    return fd;
}

int e2e_sse_next(int fd, char *data, size_t len, long long *id, int timeout_ms)
{
    int slot = -1;
    for (int i = 0; i < SSE_MAX; i++) {
        if (sse[i].fd == fd)
            slot = i;
    }
    if (slot < 0)
        return 0;
    double end = e2e_now_ms() + timeout_ms;
    for (;;) {
        sse[slot].buf[sse[slot].len] = '\0';
        char *stop = strstr(sse[slot].buf, "\n\n");
        if (stop) { /* one event: its lines up to the blank line */
            *stop = '\0';
            char *d = strstr(sse[slot].buf, "data: ");
            char *i = strstr(sse[slot].buf, "id: ");
            int n = 0;
            if (id)
                *id = i ? atoll(i + 4) : -1;
            if (d)
                n = snprintf(data, len, "%s", d + 6);
            size_t used = (size_t)(stop + 2 - sse[slot].buf);
            memmove(sse[slot].buf, stop + 2, sse[slot].len - used);
            sse[slot].len -= used;
            if (d)
                return n;
            continue; /* a retry: or comment block */
        }
        int left = (int)(end - e2e_now_ms());
        struct pollfd pf = { .fd = fd, .events = POLLIN };
        if (left <= 0 || sse[slot].len + 1 >= sizeof sse[slot].buf || poll(&pf, 1, left) <= 0)
            return 0;
        ssize_t n = read(fd, sse[slot].buf + sse[slot].len, sizeof sse[slot].buf - 1 - sse[slot].len);
        if (n <= 0) { /* the server closed the stream */
            sse[slot].fd = 0;
            return 0;
        }
        sse[slot].len += (size_t)n;
    }
}

void e2e_sse_close(int fd)
{
    for (int i = 0; i < SSE_MAX; i++) {
        if (sse[i].fd == fd)
            sse[i].fd = 0;
    }
    close(fd);
}

/* ---- region -------------------------------------------------------------------------- */
int e2e_runner_http_port(const char *shm_name)
{
    double end = e2e_now_ms() + 3000;
    char err[SHM_ERR_LEN];
    while (e2e_now_ms() < end) {
        shm_handle_t h;
        if (shm_region_attach(&h, shm_name, err, sizeof err) == 0) {
            int port = atomic_load(&h.r->runner.http_port);
            shm_region_detach(&h);
            if (port > 0)
                return port;
        }
        usleep(10000);
    }
    return 0;
}

double e2e_json_num(const char *json, const char *key, double def)
{
    char k[96];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = strstr(json, k);
    if (!p)
        return def;
    p += strlen(k);
    while (*p == ' ')
        p++;
    char *end;
    double v = strtod(p, &end);
    return end == p ? def : v;
}
