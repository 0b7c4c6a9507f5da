/* e2e3d.c -- the 3D server's end-to-end harness (e2e3d.h): the real rcssserver3d on
 * 127.0.0.1, free TCP ports, a private working and configuration directory, and the
 * length-prefixed protocol. Used by test/e2e/test_3*.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "e2e.h"
#include "e2e3d.h"
#include "net_tcp.h"
#include "shm3d.h"

static const char *bindir(void)
{
    const char *b = getenv("RCSS_BIN_DIR");
    return b ? b : "build/bin";
}

/* two distinct free TCP ports: both sockets held while choosing */
static int pick_ports(int *a, int *b)
{
    int fd[2];
    for (int i = 0; i < 2; i++) {
        struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = 0 };
        socklen_t l = sizeof sa;
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        fd[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd[i] < 0 || bind(fd[i], (struct sockaddr *)&sa, sizeof sa) < 0
            || getsockname(fd[i], (struct sockaddr *)&sa, &l) < 0)
            return -1;
        *(i ? b : a) = ntohs(sa.sin_port);
    }
    close(fd[0]);
    close(fd[1]);
    return 0;
}

static int ready(const e2e3d_server_t *s)
{
    shm3d_handle_t h;
    char err[256];
    if (shm3d_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return 0;
    int ok = atomic_load(&h.r->hdr.ready) == 1;
    for (int g = 0; ok && g < SHM3D_N_GATEWAYS; g++)
        ok = atomic_load(&h.r->proc[g].heartbeat_ns) != 0;
    shm3d_region_detach(&h);
    return ok;
}

static void exec_server(const e2e3d_server_t *s, const char *const *extra)
{
    char exe[512], conf[300], a_ap[64], a_mp[64], a_shm[128];
    const char *argv[64];
    int argc = 0;
    snprintf(exe, sizeof exe, "%s/rcssserver3d", bindir());
    snprintf(conf, sizeof conf, "%s/conf", s->dir);
    snprintf(a_ap, sizeof a_ap, "server::agent_port=%d", s->agent_port);
    snprintf(a_mp, sizeof a_mp, "server::monitor_port=%d", s->monitor_port);
    snprintf(a_shm, sizeof a_shm, "server::shm_name=%s", s->shm_name);
    argv[argc++] = exe;
    argv[argc++] = a_ap;
    argv[argc++] = a_mp;
    argv[argc++] = a_shm;
    argv[argc++] = "server::bind_address=127.0.0.1";
    for (int i = 0; extra && extra[i] && argc < 62; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;
    prctl(PR_SET_PDEATHSIG, SIGTERM); /* never outlive a failed test */
    int fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    if (chdir(s->dir) != 0)
        _exit(126);
    setenv("RCSS3D_CONF_DIR", conf, 1);
    execv(exe, (char *const *)argv);
    fprintf(stderr, "e2e3d: exec %s: %s\n", exe, strerror(errno));
    _exit(127);
}

int e2e3d_start(e2e3d_server_t *s, const char *const *extra_args)
{
    static int counter;
    memset(s, 0, sizeof *s);
    s->pid = -1;
    s->status = -1;
    if (pick_ports(&s->agent_port, &s->monitor_port) < 0)
        return -1;
    snprintf(s->shm_name, sizeof s->shm_name, "/rcss3d-e2e-%d-%d", (int)getpid(), counter++);
    snprintf(s->dir, sizeof s->dir, "/tmp/rcss3d-e2e-XXXXXX");
    if (!mkdtemp(s->dir))
        return -1;
    snprintf(s->log, sizeof s->log, "%s/server.log", s->dir);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        exec_server(s, extra_args);
    s->pid = pid;
    double end = e2e_now_ms() + 8000;
    while (e2e_now_ms() < end) {
        if (e2e3d_wait_exit(s, 0) != -2) {
            fprintf(stderr, "e2e3d: server exited during start-up (see %s)\n", s->log);
            return -1;
        }
        if (ready(s))
            return 0;
        usleep(20000);
    }
    fprintf(stderr, "e2e3d: server not ready (see %s)\n", s->log);
    e2e3d_stop(s);
    return -1;
}

int e2e3d_wait_exit(e2e3d_server_t *s, int ms)
{
    if (s->pid <= 0)
        return s->status;
    double end = e2e_now_ms() + ms;
    for (;;) {
        int st;
        if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
            s->pid = -1;
            s->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            return s->status;
        }
        if (e2e_now_ms() >= end)
            return -2;
        usleep(10000);
    }
}

int e2e3d_stop(e2e3d_server_t *s)
{
    if (s->pid <= 0)
        return s->status;
    kill(s->pid, SIGTERM);
    if (e2e3d_wait_exit(s, 8000) == -2) {
        kill(s->pid, SIGKILL);
        waitpid(s->pid, NULL, 0);
        s->pid = -1;
        fprintf(stderr, "e2e3d: server did not stop on SIGTERM (see %s)\n", s->log);
        return -1;
    }
    if (s->status != 0)
        fprintf(stderr, "e2e3d: server exit status %d (see %s)\n", s->status, s->log);
    return e2e3d_log_clean(s) ? s->status : -1;
}

int e2e3d_log_clean(const e2e3d_server_t *s)
{
    /* a gateway that a sanitizer stopped is restarted and the test might not notice */
    char *log = e2e3d_read_file(s, "server.log");
    int bad = log && (strstr(log, "Sanitizer") || strstr(log, "runtime error"));
    if (bad)
        fprintf(stderr, "e2e3d: a process of the server failed (see %s)\n", s->log);
    free(log);
    return !bad;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void e2e3d_cleanup(e2e3d_server_t *s)
{
    if (s->status != 0 || !e2e3d_log_clean(s)) {
        fprintf(stderr, "e2e3d: %s kept for its logs\n", s->dir);
        return;
    }
    if (s->dir[0])
        nftw(s->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *e2e3d_read_file(const e2e3d_server_t *s, const char *rel)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", s->dir, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)(n < 0 ? 0 : n) + 1);
    size_t got = buf ? fread(buf, 1, (size_t)(n < 0 ? 0 : n), f) : 0;
    fclose(f);
    if (buf)
        buf[got] = '\0';
    return buf;
}

int e2e3d_wait_file(const e2e3d_server_t *s, const char *rel, const char *text, int ms)
{
    double end = e2e_now_ms() + ms;
    for (;;) {
        char *got = e2e3d_read_file(s, rel);
        int has = got && strstr(got, text) != NULL;
        free(got);
        if (has)
            return 1;
        if (e2e_now_ms() > end)
            return 0;
        usleep(20000);
    }
}

int e2e3d_connect(int port)
{
    char err[160];
    return net_tcp_connect("127.0.0.1", port, err, sizeof err);
}

int e2e3d_send(int fd, const char *text)
{
    return frame_write(fd, text, strlen(text));
}

int e2e3d_monitor(int port)
{
    int fd = e2e3d_connect(port);
    if (fd >= 0 && frame_write(fd, "", 0) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int e2e3d_recv(int fd, frame_reader_t *r, int ms, const char **msg)
{
    size_t n;
    return frame_read(fd, r, ms, msg, &n);
}

static int recv_until(int fd, frame_reader_t *r, const char *s, int prefix, int ms,
                      const char **msg)
{
    double end = e2e_now_ms() + ms;
    for (;;) {
        int left = (int)(end - e2e_now_ms());
        if (left <= 0)
            return 0;
        int rc = e2e3d_recv(fd, r, left, msg);
        if (rc <= 0)
            return rc;
        if (prefix ? strncmp(*msg, s, strlen(s)) == 0 : strstr(*msg, s) != NULL)
            return 1;
    }
}

int e2e3d_recv_prefix(int fd, frame_reader_t *r, const char *prefix, int ms, const char **msg)
{
    return recv_until(fd, r, prefix, 1, ms, msg);
}

int e2e3d_recv_containing(int fd, frame_reader_t *r, const char *needle, int ms, const char **msg)
{
    return recv_until(fd, r, needle, 0, ms, msg);
}

pid_t e2e3d_agent(const e2e3d_server_t *s, const char *team, int unum)
{
    char exe[512], port[16], un[16];
    snprintf(exe, sizeof exe, "%s/rcss3d-agent", bindir());
    snprintf(port, sizeof port, "%d", s->agent_port);
    snprintf(un, sizeof un, "%d", unum);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    int fd = open(s->log, O_WRONLY | O_APPEND);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    execl(exe, exe, "--port", port, "--team", team, "--unum", un, (char *)NULL);
    _exit(127);
}

int e2e3d_region_pids(const e2e3d_server_t *s, pid_t *agentgw, pid_t *monitorgw,
                      pid_t *pipe_agents, int max)
{
    shm3d_handle_t h;
    char err[256];
    if (shm3d_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return -1;
    if (agentgw)
        *agentgw = atomic_load(&h.r->proc[SHM3D_GW_AGENT].pid);
    if (monitorgw)
        *monitorgw = atomic_load(&h.r->proc[SHM3D_GW_MONITOR].pid);
    int n = 0;
    for (int i = 0; i < SHM3D_MAX_AGENTS && n < max; i++) {
        const shm3d_agent_sh_t *a = &h.r->agent[i];
        if (atomic_load(&a->state) == SHM3D_AGENT_ACTIVE && a->kind == SHM3D_KIND_PIPE)
            pipe_agents[n++] = a->pid;
    }
    shm3d_region_detach(&h);
    return n;
}
