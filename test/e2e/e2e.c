/* e2e.c -- end-to-end test harness: starts the real rcssserver (which spawns its
 * gateways) on 127.0.0.1 with free ports and a private shm name, and UDP helpers.
 * Used by every test/e2e/test_*.c. */
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
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"
#include "shm.h"

double e2e_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int e2e_udp_open(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int udp_port_of(int fd)
{
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    if (getsockname(fd, (struct sockaddr *)&a, &l) < 0)
        return -1;
    return ntohs(a.sin_port);
}

int e2e_send(int fd, int port, const char *msg)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ssize_t n = sendto(fd, msg, strlen(msg) + 1, 0, (struct sockaddr *)&a, sizeof a);
    return n < 0 ? -1 : (int)n;
}

int e2e_recv(int fd, char *buf, size_t len, int timeout_ms, int *from_port)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int r = poll(&p, 1, timeout_ms < 0 ? 0 : timeout_ms);
    if (r <= 0)
        return r < 0 ? -1 : 0;
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    ssize_t n = recvfrom(fd, buf, len - 1, 0, (struct sockaddr *)&a, &l);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    if (from_port)
        *from_port = ntohs(a.sin_port);
    return n == 0 ? 1 : (int)n; /* an empty datagram still counts as received */
}

int e2e_recv_prefix(int fd, const char *prefix, char *buf, size_t len, int timeout_ms,
                    int *from_port)
{
    double end = e2e_now_ms() + timeout_ms;
    size_t pl = strlen(prefix);
    for (;;) {
        int left = (int)(end - e2e_now_ms());
        if (left <= 0)
            return 0;
        int n = e2e_recv(fd, buf, len, left, from_port);
        if (n < 0)
            return -1;
        if (n > 0 && strncmp(buf, prefix, pl) == 0)
            return n;
    }
}

/* Three distinct free UDP ports on 127.0.0.1: hold all three sockets while choosing so
 * they differ, then release them for the server. */
static int pick_ports(int out[3])
{
    int fds[3];
    for (int i = 0; i < 3; i++) {
        fds[i] = e2e_udp_open();
        if (fds[i] < 0)
            return -1;
        out[i] = udp_port_of(fds[i]);
    }
    for (int i = 0; i < 3; i++)
        close(fds[i]);
    return 0;
}

static int wait_ready(e2e_server_t *s, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    char err[SHM_ERR_LEN];
    while (e2e_now_ms() < end) {
        int st;
        if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
            fprintf(stderr, "e2e: server exited during start-up (see %s)\n", s->log);
            s->pid = -1;
            return -1;
        }
        shm_handle_t h;
        if (shm_region_attach(&h, s->shm_name, err, sizeof err) == 0) {
            shm_region_sh_t *r = h.r;
            int ok = atomic_load(&r->hdr.ready) == 1 && atomic_load(&r->hdr.published) > 1;
            for (uint32_t i = 0; ok && i < r->hdr.n_gateways; i++)
                ok = atomic_load(&r->netgw[i].heartbeat_ns) != 0;
            ok = ok && atomic_load(&r->monitorgw.heartbeat_ns) != 0;
            shm_region_detach(&h);
            if (ok)
                return 0;
        }
        usleep(20000);
    }
    fprintf(stderr, "e2e: server not ready after %d ms (see %s)\n", timeout_ms, s->log);
    return -1;
}

/* a gateway started as its own process, output appended to the server log */
static pid_t spawn_gateway(const e2e_server_t *s, const char *exe, int index)
{
    char idx[16];
    snprintf(idx, sizeof idx, "%d", index);
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
    if (index >= 0)
        execl(exe, exe, "--shm", s->shm_name, "--index", idx, (char *)NULL);
    else
        execl(exe, exe, "--shm", s->shm_name, (char *)NULL);
    _exit(127);
}

/* In the child: exec $RCSS_BIN_DIR/rcssserver with the arguments kept in s (its ports,
 * shm name, logs off, the systemd layout's two, then the extra ones), in s->dir with
 * RCSS_CONF_DIR empty; its output to s->log (truncated first, or appended), stdout alone
 * to out_path if given. Never returns. */
static void exec_sim(const e2e_server_t *s, int append, const char *out_path)
{
    const char *bindir = getenv("RCSS_BIN_DIR");
    char exe[512], conf_dir[300];
    snprintf(exe, sizeof exe, "%s/rcssserver", bindir ? bindir : "build/bin");
    snprintf(conf_dir, sizeof conf_dir, "%s/conf", s->dir);
    char a_port[64], a_cport[64], a_oport[64], a_shm[128], a_n[64];
    snprintf(a_port, sizeof a_port, "server::port=%d", s->port);
    snprintf(a_cport, sizeof a_cport, "server::coach_port=%d", s->coach_port);
    snprintf(a_oport, sizeof a_oport, "server::olcoach_port=%d", s->olcoach_port);
    snprintf(a_shm, sizeof a_shm, "server::shm_name=%s", s->shm_name);
    const char *argv[64] = { exe, a_port, a_cport, a_oport, a_shm,
                             "server::bind_address=127.0.0.1",
                             "server::game_logging=false", "server::text_logging=false" };
    int argc = 8;
    if (s->standalone_netgw > 0) {
        snprintf(a_n, sizeof a_n, "server::netgw_processes=%d", s->standalone_netgw);
        argv[argc++] = "server::spawn_gateways=false";
        argv[argc++] = a_n;
    }
    const char *e = s->extra;
    for (int i = 0; i < s->nextra && argc < 62; i++, e += strlen(e) + 1)
        argv[argc++] = e;
    argv[argc] = NULL;

    /* a test that fails an assertion exits without e2e_server_stop: the server must not
     * outlive it */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    int fd = open(s->log, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0600);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    if (out_path && (fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0) {
        dup2(fd, 1); /* stdout on its own */
        close(fd);
    }
    if (chdir(s->dir) != 0)
        _exit(126);
    setenv("RCSS_CONF_DIR", conf_dir, 1);
    execv(exe, (char *const *)argv);
    fprintf(stderr, "e2e: exec %s: %s\n", exe, strerror(errno));
    _exit(127);
}

static int start_server(e2e_server_t *s, const char *const *extra_args, int standalone,
                        const char *out_path)
{
    static int counter;
    const char *bindir = getenv("RCSS_BIN_DIR");
    if (!bindir)
        bindir = "build/bin";
    memset(s, 0, sizeof *s);
    s->pid = -1;
    int ports[3];
    if (pick_ports(ports) < 0)
        return -1;
    s->port = ports[0];
    s->coach_port = ports[1];
    s->olcoach_port = ports[2];
    snprintf(s->shm_name, sizeof s->shm_name, "/rcss-e2e-%d-%d", (int)getpid(), counter++);
    snprintf(s->dir, sizeof s->dir, "/tmp/rcss-e2e-XXXXXX");
    if (!mkdtemp(s->dir))
        return -1;
    snprintf(s->log, sizeof s->log, "%s/server.log", s->dir);
    char conf_dir[300];
    snprintf(conf_dir, sizeof conf_dir, "%s/conf", s->dir);
    mkdir(conf_dir, 0700);
    s->standalone_netgw = standalone > 0 ? standalone : 0;
    size_t used = 0;
    for (int i = 0; extra_args && extra_args[i] && s->nextra < 54; i++) {
        size_t n = strlen(extra_args[i]) + 1;
        if (used + n > sizeof s->extra) {
            fprintf(stderr, "e2e: the extra arguments are longer than %zu bytes\n",
                    sizeof s->extra);
            return -1;
        }
        memcpy(s->extra + used, extra_args[i], n);
        used += n;
        s->nextra++;
    }

    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        exec_sim(s, 0, out_path);
    s->pid = pid;
    for (int i = 0; i < standalone && i < 16; i++) {
        char gw[512];
        snprintf(gw, sizeof gw, "%s/rcss-netgw", bindir);
        s->standalone[s->nstandalone++] = spawn_gateway(s, gw, i);
    }
    if (standalone > 0) {
        char gw[512];
        snprintf(gw, sizeof gw, "%s/rcss-monitorgw", bindir);
        s->standalone[s->nstandalone++] = spawn_gateway(s, gw, -1);
    }
    if (wait_ready(s, 8000) < 0) {
        e2e_server_stop(s);
        return -1;
    }
    return 0;
}

int e2e_server_start(e2e_server_t *s, const char *const *extra_args)
{
    return start_server(s, extra_args, 0, NULL);
}

int e2e_server_start_out(e2e_server_t *s, const char *const *extra_args, const char *out_path)
{
    return start_server(s, extra_args, 0, out_path);
}

int e2e_server_start_standalone(e2e_server_t *s, const char *const *extra_args, int n_netgw)
{
    return start_server(s, extra_args, n_netgw > 0 ? n_netgw : 1, NULL);
}

int e2e_server_restart_standalone_sim(e2e_server_t *s)
{
    if (s->standalone_netgw <= 0 || s->pid > 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        exec_sim(s, 1, NULL);
    s->pid = pid;
    return 0;
}

/* standalone gateways leave by themselves once the sim is gone; 0 if all did */
static int reap_standalone(e2e_server_t *s)
{
    int rc = 0;
    for (int i = 0; i < s->nstandalone; i++) {
        int st;
        double end = e2e_now_ms() + 3000;
        while (waitpid(s->standalone[i], &st, WNOHANG) == 0) {
            if (e2e_now_ms() > end) {
                fprintf(stderr, "e2e: gateway %d did not leave after the sim\n",
                        (int)s->standalone[i]);
                kill(s->standalone[i], SIGKILL);
                waitpid(s->standalone[i], &st, 0);
                rc = -1;
                break;
            }
            usleep(10000);
        }
    }
    s->nstandalone = 0;
    return rc;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Remove the server's working directory; kept when the server did not exit cleanly, so
 * its log can be read. */
static void remove_dir(e2e_server_t *s)
{
    if (s->dir[0])
        nftw(s->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int e2e_server_stop(e2e_server_t *s)
{
    if (s->pid <= 0)
        return -1;
    kill(s->pid, SIGTERM);
    int st = 0;
    double end = e2e_now_ms() + 5000;
    while (waitpid(s->pid, &st, WNOHANG) == 0) {
        if (e2e_now_ms() > end) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &st, 0);
            s->pid = -1;
            fprintf(stderr, "e2e: server did not stop on SIGTERM (see %s)\n", s->log);
            return -1;
        }
        usleep(10000);
    }
    s->pid = -1;
    if (reap_standalone(s) < 0)
        return -1;
    if (!WIFEXITED(st)) {
        fprintf(stderr, "e2e: server died by signal %d (see %s)\n", WTERMSIG(st), s->log);
        return -1;
    }
    if (WEXITSTATUS(st) == 0)
        remove_dir(s);
    else
        fprintf(stderr, "e2e: server exit status %d (see %s)\n", WEXITSTATUS(st), s->log);
    return WEXITSTATUS(st);
}

static void read_log(const e2e_server_t *s, char *out, size_t outlen)
{
    if (!out || outlen == 0)
        return;
    out[0] = '\0';
    FILE *f = fopen(s->log, "r");
    if (!f)
        return;
    size_t n = fread(out, 1, outlen - 1, f);
    out[n] = '\0';
    fclose(f);
}

int e2e_server_wait(e2e_server_t *s, int timeout_ms, char *out, size_t outlen)
{
    if (s->pid <= 0)
        return -1;
    int st = 0;
    double end = e2e_now_ms() + timeout_ms;
    while (waitpid(s->pid, &st, WNOHANG) == 0) {
        if (timeout_ms == 0)
            return -2;
        if (e2e_now_ms() > end) {
            fprintf(stderr, "e2e: server did not exit by itself\n");
            read_log(s, out, outlen);
            e2e_server_stop(s);
            return -1;
        }
        usleep(10000);
    }
    s->pid = -1;
    read_log(s, out, outlen);
    if (!WIFEXITED(st)) {
        fprintf(stderr, "e2e: server died by signal %d (see %s)\n", WTERMSIG(st), s->log);
        return -1;
    }
    if (WEXITSTATUS(st) == 0)
        remove_dir(s);
    return WEXITSTATUS(st);
}

int e2e_netgw_pids(const e2e_server_t *s, pid_t *out, int max)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return 0;
    int k = 0;
    for (uint32_t i = 0; i < h.r->hdr.n_gateways && k < max; i++) {
        pid_t p = atomic_load(&h.r->netgw[i].pid);
        if (p > 0)
            out[k++] = p;
    }
    shm_region_detach(&h);
    return k;
}

pid_t e2e_monitorgw_pid(const e2e_server_t *s)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return 0;
    pid_t p = atomic_load(&h.r->monitorgw.pid);
    shm_region_detach(&h);
    return p;
}

/* ---- waiting on the region ------------------------------------------------------------ */
/* attached afresh at every poll, so a region replaced by a new sim is the one looked at */
int e2e_region_wait(const char *shm_name, int timeout_ms, e2e_region_cond_t cond, long a,
                    long b)
{
    double end = e2e_now_ms() + timeout_ms;
    for (;;) {
        char err[SHM_ERR_LEN];
        shm_handle_t h = { 0 };
        int ok = 0;
        if (shm_region_attach(&h, shm_name, err, sizeof err) == 0) {
            ok = cond(h.r, a, b);
            shm_region_detach(&h);
        }
        if (ok)
            return 0;
        if (e2e_now_ms() > end)
            return -1;
        usleep(5000);
    }
}

static int cond_client(const shm_region_sh_t *r, long idx, long on)
{
    int active = atomic_load(&r->client[idx].state) == CLIENT_ST_ACTIVE;
    return on ? active : !active;
}

int e2e_wait_client(const e2e_server_t *s, int idx, int on, int timeout_ms)
{
    if (idx < 0 || idx >= SHM_MAX_CLIENTS)
        return -1;
    return e2e_region_wait(s->shm_name, timeout_ms, cond_client, idx, on);
}

static int cond_seen(const shm_region_sh_t *r, long idx, long n)
{
    return (long)r->runner.client[idx].connects >= n;
}

int e2e_wait_seen(const e2e_server_t *s, int idx, int n, int timeout_ms)
{
    if (idx < 0 || idx >= SHM_MAX_CLIENTS)
        return -1;
    return e2e_region_wait(s->shm_name, timeout_ms, cond_seen, idx, n);
}

static int cond_monitors(const shm_region_sh_t *r, long n, long unused)
{
    (void)unused;
    return (long)atomic_load(&r->montab.count) >= n;
}

int e2e_wait_monitors(const e2e_server_t *s, int n, int timeout_ms)
{
    return e2e_region_wait(s->shm_name, timeout_ms, cond_monitors, n, 0);
}

static int cond_published(const shm_region_sh_t *r, long n, long unused)
{
    (void)unused;
    return (long)atomic_load(&r->hdr.published) >= n;
}

int e2e_wait_steps(const e2e_server_t *s, int n, int timeout_ms)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return -1;
    long from = (long)atomic_load(&h.r->hdr.published);
    shm_region_detach(&h);
    return e2e_region_wait(s->shm_name, timeout_ms, cond_published, from + n, 0);
}

void e2e_segv_kills(void)
{
    const char *o = getenv("ASAN_OPTIONS");
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%shandle_segv=0", o ? o : "", o && *o ? ":" : "");
    setenv("ASAN_OPTIONS", buf, 1);
}
