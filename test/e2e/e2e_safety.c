/* e2e_safety.c -- helpers of the safety tests (e2e_safety.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
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

#include "e2e_safety.h"
#include "shm.h"

const char *es_bin(const char *name, int slot)
{
    static char buf[4][512];
    const char *dir = getenv("RCSS_BIN_DIR");
    if (name[0] == '/')
        return name;
    snprintf(buf[slot & 3], sizeof buf[0], "%s/%s", dir ? dir : "build/bin", name);
    return buf[slot & 3];
}

static void es_child_setup(const char *dir)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (chdir(dir ? dir : "/tmp") != 0)
        _exit(126);
    setenv("RCSS_CONF_DIR", "/nonexistent-rcss-conf", 1);
}

pid_t es_spawn(const char *const *argv, const char *dir, const char *log)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    es_child_setup(dir);
    execv(es_bin(argv[0], 0), (char *const *)argv);
    _exit(127);
}

int es_wait(pid_t pid, int timeout_ms)
{
    int st;
    double end = e2e_now_ms() + timeout_ms;
    while (waitpid(pid, &st, WNOHANG) == 0) {
        if (e2e_now_ms() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        usleep(10000);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* read what is there from fd into buf at *used */
static void es_drain(int fd, char *buf, size_t len, size_t *used)
{
    char tmp[4096];
    ssize_t n;
    while ((n = read(fd, tmp, sizeof tmp)) > 0) {
        size_t k = (size_t)n;
        if (*used + k >= len)
            k = len - 1 - *used;
        memcpy(buf + *used, tmp, k);
        *used += k;
        buf[*used] = '\0';
    }
}

int es_run(const char *const *argv, const char *dir, char *out, size_t outlen, char *err,
           size_t errlen, int timeout_ms)
{
    int po[2], pe[2];
    if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        es_child_setup(dir);
        execv(es_bin(argv[0], 0), (char *const *)argv);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    fcntl(po[0], F_SETFL, O_NONBLOCK);
    fcntl(pe[0], F_SETFL, O_NONBLOCK);
    size_t uo = 0, ue = 0;
    out[0] = err[0] = '\0';
    int st = 0, done = 0;
    double end = e2e_now_ms() + timeout_ms;
    while (!done) {
        struct pollfd p[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
        poll(p, 2, 20);
        es_drain(po[0], out, outlen, &uo);
        es_drain(pe[0], err, errlen, &ue);
        if (waitpid(pid, &st, WNOHANG) == pid)
            done = 1;
        else if (e2e_now_ms() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            st = -1;
            done = 1;
        }
    }
    es_drain(po[0], out, outlen, &uo);
    es_drain(pe[0], err, errlen, &ue);
    close(po[0]);
    close(pe[0]);
    return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *const *es_server_args(const e2e_server_t *s, const char *const *extra)
{
    static char a[4][128];
    static const char *argv[48];
    int n = 0;
    snprintf(a[0], sizeof a[0], "server::port=%d", s->port);
    snprintf(a[1], sizeof a[1], "server::coach_port=%d", s->coach_port);
    snprintf(a[2], sizeof a[2], "server::olcoach_port=%d", s->olcoach_port);
    snprintf(a[3], sizeof a[3], "server::shm_name=%s", s->shm_name);
    argv[n++] = "rcssserver";
    for (int i = 0; i < 4; i++)
        argv[n++] = a[i];
    argv[n++] = "server::bind_address=127.0.0.1";
    argv[n++] = "server::game_logging=false";
    argv[n++] = "server::text_logging=false";
    for (int i = 0; extra && extra[i] && n < 46; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    return argv;
}

int es_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len > 0)
            n++;
        p += len + (nl ? 1 : 0);
    }
    return n;
}

int es_as_nobody(int (*fn)(void *arg), void *arg)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(120);
        _exit(fn(arg) & 0x7f);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

int es_udp_open_at(const char *ip)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
    inet_pton(AF_INET, ip, &a.sin_addr);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int es_shm_exists(const char *name)
{
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "/dev/shm%s", name);
    return stat(path, &st) == 0;
}

pid_t es_slot_pid(const e2e_server_t *s, int which)
{
    char err[SHM_ERR_LEN];
    shm_handle_t h;
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) != 0)
        return 0;
    const shm_proc_sh_t *p = which >= 0 ? &h.r->netgw[which]
                           : which == -1 ? &h.r->monitorgw : &h.r->recorder;
    pid_t pid = atomic_load(&p->pid);
    shm_region_detach(&h);
    return pid;
}

static int cond_heartbeat(const shm_region_sh_t *r, long which, long unused)
{
    (void)unused;
    const shm_proc_sh_t *p = which >= 0 ? &r->netgw[which]
                           : which == -1 ? &r->monitorgw : &r->recorder;
    return atomic_load(&p->heartbeat_ns) != 0;
}

int es_wait_heartbeat(const e2e_server_t *s, int which, int timeout_ms)
{
    return e2e_region_wait(s->shm_name, timeout_ms, cond_heartbeat, which, 0);
}

static int cond_ready(const shm_region_sh_t *r, long sim_pid, long unused)
{
    (void)unused;
    /* the process started is the sim, or its supervisor (resume on) */
    return (r->hdr.sim_pid == (pid_t)sim_pid || r->hdr.super_pid == (pid_t)sim_pid)
           && atomic_load(&r->hdr.ready) == 1;
}

int es_wait_region(const char *name, pid_t sim_pid, int timeout_ms)
{
    return e2e_region_wait(name, timeout_ms, cond_ready, (long)sim_pid, 0);
}
