/* cf_proc.c -- start, stall and stop the server under test as its own process group
 * (cf_proc.h). Called by cf_run.c. */
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cf_proc.h"

long long cf_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void cf_sleep_us(long long us)
{
    if (us <= 0)
        return;
    struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

int cf_proc_port_taken(int port)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int taken = bind(fd, (struct sockaddr *)&a, sizeof a) < 0;
    close(fd);
    return taken;
}

int cf_proc_free_ports(void)
{
    static unsigned seed;
    if (!seed)
        seed = (unsigned)getpid() * 2654435761u ^ (unsigned)cf_now_us();
    for (int tries = 0; tries < 200; tries++) {
        int p = 20000 + (int)(rand_r(&seed) % 38000u);
        if (!cf_proc_port_taken(p) && !cf_proc_port_taken(p + 1) && !cf_proc_port_taken(p + 2))
            return p;
    }
    return -1;
}

int cf_proc_start(cf_proc_t *p, char *const *argv, const char *dir, char *err, size_t errlen)
{
    char out[512], errf[512], conf[512];
    snprintf(out, sizeof out, "%s/stdout", dir);
    snprintf(errf, sizeof errf, "%s/stderr", dir);
    snprintf(conf, sizeof conf, "%s/conf", dir);
    p->status = -1;
    p->pid = fork();
    if (p->pid < 0) {
        snprintf(err, errlen, "fork failed: %s", strerror(errno));
        return -1;
    }
    if (p->pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o < 0 || e < 0 || chdir(dir) < 0)
            _exit(126);
        dup2(o, 1);
        dup2(e, 2);
        close(o);
        close(e);
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) {
            dup2(nul, 0);
            close(nul);
        }
        setenv("HOME", dir, 1);
        setenv("RCSS_CONF_DIR", conf, 1);
        execv(argv[0], argv);
        fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(p->pid, p->pid);    /* also here, so a signal right after fork finds the group */
    return 0;
}

int cf_proc_alive(cf_proc_t *p)
{
    if (p->pid <= 0)
        return 0;
    int st;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == p->pid) {
        p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        p->pid = -p->pid;
        return 0;
    }
    return r == 0;
}

int cf_proc_wait_ready(cf_proc_t *p, int port, int timeout_ms)
{
    long long end = cf_now_us() + (long long)timeout_ms * 1000;
    while (cf_now_us() < end) {
        if (!cf_proc_alive(p))
            return -1;
        if (cf_proc_port_taken(port) && cf_proc_port_taken(port + 1)
            && cf_proc_port_taken(port + 2))
            return 0;
        cf_sleep_us(5000);
    }
    return -1;
}

/* parent of pid from /proc/PID/stat, -1 if gone */
static pid_t parent_of(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *e = strrchr(buf, ')');      /* the command name may hold anything */
    int ppid;
    if (!e || sscanf(e + 1, " %*c %d", &ppid) != 1)
        return -1;
    return (pid_t)ppid;
}

int cf_proc_gone(pid_t pid)
{
    if (kill(pid, 0) < 0)
        return 1;
    /* a zombie waits for its (new) parent to reap it: it runs no more */
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *e = strrchr(buf, ')');
    return e && e[1] == ' ' && (e[2] == 'Z' || e[2] == 'X');
}

int cf_proc_tree(pid_t root, pid_t *out, int max)
{
    int n = 0;
    if (root <= 0 || max < 1)
        return 0;
    out[n++] = root;
    pid_t all[4096], par[4096];
    int na = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) && na < 4096)
        if (isdigit((unsigned char)e->d_name[0])) {
            all[na] = (pid_t)atoi(e->d_name);
            par[na] = parent_of(all[na]);
            na++;
        }
    closedir(d);
    /* breadth first: children of the pids found so far */
    for (int i = 0; i < n; i++)
        for (int k = 0; k < na && n < max; k++)
            if (par[k] == out[i])
                out[n++] = all[k];
    return n;
}

void cf_proc_stall(cf_proc_t *p, int ms)
{
    if (p->pid <= 0)
        return;
    pid_t t[64];
    int n = cf_proc_tree(p->pid, t, 64);
    for (int i = 0; i < n; i++)
        kill(t[i], SIGSTOP);
    cf_sleep_us((long long)ms * 1000);
    for (int i = 0; i < n; i++)
        kill(t[i], SIGCONT);
}

int cf_proc_stop(cf_proc_t *p, int timeout_ms)
{
    /* the tree is taken first: once the leader is gone its children have another parent */
    pid_t t[64];
    int n = p->pid > 0 ? cf_proc_tree(p->pid, t, 64) : 0;
    if (p->pid > 0 && cf_proc_alive(p)) {
        kill(p->pid, SIGINT);
        long long end = cf_now_us() + (long long)timeout_ms * 1000;
        while (cf_proc_alive(p) && cf_now_us() < end)
            cf_sleep_us(5000);
        if (p->pid > 0) {
            kill(-p->pid, SIGKILL);
            int st;
            if (waitpid(p->pid, &st, 0) == p->pid)
                p->status = 128 + SIGKILL;
            p->pid = -p->pid;
        }
    }
    /* the other processes (gateways, in groups of their own) leave with the leader; wait
     * a little for them, then kill what is left */
    long long end = cf_now_us() + 3000000;
    for (int i = 1; i < n; i++) {
        while (!cf_proc_gone(t[i]) && cf_now_us() < end)
            cf_sleep_us(10000);
        if (!cf_proc_gone(t[i]))
            kill(t[i], SIGKILL);
    }
    return p->status;
}
