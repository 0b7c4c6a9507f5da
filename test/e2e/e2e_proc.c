/* e2e_proc.c -- client programs on pipes for end-to-end tests (e2e_proc.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_proc.h"

int e2e_proc_start(e2e_proc_t *p, const char *const *argv)
{
    const char *bindir = getenv("RCSS_BIN_DIR");
    char exe[512];
    int in[2], out[2];
    snprintf(exe, sizeof exe, "%s/%s", bindir ? bindir : "build/bin", argv[0]);
    p->pid = -1;
    p->in = p->out = -1;
    p->len = 0;
    if (pipe2(in, O_CLOEXEC) < 0)
        return -1;
    if (pipe2(out, O_CLOEXEC) < 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(in[0], 0);
        dup2(out[1], 1);
        execv(exe, (char *const *)argv);
        fprintf(stderr, "e2e: exec %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        return -1;
    }
    signal(SIGPIPE, SIG_IGN);
    p->pid = pid;
    p->in = in[1];
    p->out = out[0];
    return 0;
}

int e2e_proc_write(e2e_proc_t *p, const char *line)
{
    if (p->in < 0)
        return -1;
    size_t n = strlen(line);
    if (write(p->in, line, n) != (ssize_t)n || write(p->in, "\n", 1) != 1)
        return -1;
    return 0;
}

void e2e_proc_close_stdin(e2e_proc_t *p)
{
    if (p->in >= 0)
        close(p->in);
    p->in = -1;
}

/* a complete line in buf: move it out */
static int take_line(e2e_proc_t *p, char *line, size_t len)
{
    char *nl = memchr(p->buf, '\n', p->len);
    if (!nl)
        return 0;
    size_t l = (size_t)(nl - p->buf);
    size_t c = l < len - 1 ? l : len - 1;
    memcpy(line, p->buf, c);
    line[c] = '\0';
    memmove(p->buf, nl + 1, p->len - l - 1);
    p->len -= l + 1;
    return 1;
}

int e2e_proc_line(e2e_proc_t *p, char *line, size_t len, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    for (;;) {
        if (take_line(p, line, len))
            return 1;
        if (p->out < 0)
            return -1;
        if (p->len == sizeof p->buf) /* an over-long line: hand it out in pieces */
            p->buf[p->len - 1] = '\n';
        int left = (int)(end - e2e_now_ms());
        if (left <= 0)
            return 0;
        struct pollfd pf = { .fd = p->out, .events = POLLIN };
        if (poll(&pf, 1, left) <= 0)
            continue;
        ssize_t n = read(p->out, p->buf + p->len, sizeof p->buf - p->len);
        if (n <= 0) {
            close(p->out);
            p->out = -1;
            if (p->len > 0 && p->len < sizeof p->buf)
                p->buf[p->len++] = '\n';
            continue;
        }
        p->len += (size_t)n;
    }
}

int e2e_proc_expect(e2e_proc_t *p, const char *what, char *line, size_t len, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(end - e2e_now_ms());
        if (left <= 0 || e2e_proc_line(p, line, len, left) <= 0)
            return 0;
        if (strstr(line, what))
            return 1;
    }
}

int e2e_proc_wait(e2e_proc_t *p, int timeout_ms)
{
    if (p->pid <= 0)
        return -1;
    double end = e2e_now_ms() + timeout_ms;
    int st;
    for (;;) {
        pid_t r = waitpid(p->pid, &st, WNOHANG);
        if (r == p->pid)
            break;
        if (e2e_now_ms() > end) {
            e2e_proc_stop(p);
            return -1;
        }
        usleep(10000);
    }
    p->pid = -1;
    e2e_proc_close_stdin(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void e2e_proc_stop(e2e_proc_t *p)
{
    if (p->pid <= 0)
        return;
    kill(p->pid, SIGTERM);
    double end = e2e_now_ms() + 2000;
    while (waitpid(p->pid, NULL, WNOHANG) == 0) {
        if (e2e_now_ms() > end) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, NULL, 0);
            break;
        }
        usleep(10000);
    }
    p->pid = -1;
    e2e_proc_close_stdin(p);
    if (p->out >= 0)
        close(p->out);
    p->out = -1;
}

int e2e_sh(const char *line, char *buf, size_t len)
{
    FILE *p = popen(line, "r");
    if (!p)
        return -1;
    size_t n = buf ? fread(buf, 1, len - 1, p) : 0;
    if (buf)
        buf[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
