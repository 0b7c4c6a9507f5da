/* e2e_lp.c -- see e2e_lp.h. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_lp.h"

static int free_port(int type)
{
    int fd = socket(AF_INET, type, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t l = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    getsockname(fd, (struct sockaddr *)&a, &l);
    close(fd);
    return ntohs(a.sin_port);
}

int e2e_free_udp_port(void)
{
    return free_port(SOCK_DGRAM);
}

int e2e_free_tcp_port(void)
{
    return free_port(SOCK_STREAM);
}

int e2e_lp_start(e2e_lp_t *lp, const char *file, const char *const *extra)
{
    int in[2], out[2];
    char exe[512], port[16];
    const char *argv[32];
    int n = 0;
    const char *bindir = getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin";
    memset(lp, 0, sizeof *lp);
    snprintf(exe, sizeof exe, "%s/rcss-logplayer", bindir);
    lp->port = e2e_free_udp_port();
    snprintf(port, sizeof port, "%d", lp->port);
    argv[n++] = exe;
    argv[n++] = "--port";
    argv[n++] = port;
    argv[n++] = "--bind";
    argv[n++] = "127.0.0.1";
    for (int i = 0; extra && extra[i] && n < 30; i++)
        argv[n++] = extra[i];
    argv[n++] = file;
    argv[n] = NULL;
    if (pipe(in) < 0 || pipe(out) < 0)
        return -1;
    lp->pid = fork();
    if (lp->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    lp->in = in[1];
    lp->out = out[0];
    return lp->pid > 0 ? 0 : -1;
}

const char *e2e_lp_line(e2e_lp_t *lp, int ms)
{
    size_t n = 0;
    double end = e2e_now_ms() + ms;
    while (n + 1 < sizeof lp->line) {
        struct pollfd p = { lp->out, POLLIN, 0 };
        int left = (int)(end - e2e_now_ms());
        if (left <= 0 || poll(&p, 1, left) <= 0)
            return NULL;
        if (read(lp->out, lp->line + n, 1) != 1)
            return NULL;
        if (lp->line[n] == '\n') {
            lp->line[n] = '\0';
            const char *h = strstr(lp->line, "browsers on http port ");
            if (h)
                lp->http_port = atoi(h + 22);
            return lp->line;
        }
        n++;
    }
    return NULL;
}

const char *e2e_lp_cmd(e2e_lp_t *lp, const char *cmd)
{
    char l[128];
    snprintf(l, sizeof l, "%s\n", cmd);
    if (write(lp->in, l, strlen(l)) != (ssize_t)strlen(l))
        return NULL;
    const char *r;
    while ((r = e2e_lp_line(lp, 3000)) && strncmp(r, "a monitor", 9) == 0)
        ;
    return r;
}

int e2e_lp_wait(e2e_lp_t *lp)
{
    int st = 0;
    double end = e2e_now_ms() + 3000;
    while (waitpid(lp->pid, &st, WNOHANG) == 0) {
        if (e2e_now_ms() > end) {
            kill(lp->pid, SIGKILL);
            waitpid(lp->pid, &st, 0);
            return -1;
        }
        usleep(10000);
    }
    close(lp->in);
    close(lp->out);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
