/* agw3d_spawn.c -- the agent list of the manual's SPADES mode (the agentdb.xml of the
 * 2004 server, one agent a line): the gateway starts one process per line of
 * server::agent_list. By default it talks to it over a socket pair (a two-way pipe) on
 * the agent's file descriptor 3, named in its environment as RCSS3D_AGENT_FD=3, in the
 * length-prefixed S-expressions of TCP agents; a line starting with framing=spades
 * gets the 2004 ComServer's SPADES framing instead over two pipes, the agent reading
 * descriptor 3 and writing descriptor 4 (agentdb.xml's inputfd and outputfd). stdin is
 * /dev/null, stdout and stderr are the server's. Agents are tracked by pid: reaped when
 * they exit; at the end given a second to leave (a SPADES agent was sent X, the others'
 * connections closed), then sent SIGTERM, then SIGKILL if they linger; each also gets
 * SIGTERM if the gateway dies (PR_SET_PDEATHSIG). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "agw3d.h"
#include "log.h"
#include "proc.h"

#define AGW3D_FD          3     /* the agent reads (and, framing plain, writes) here */
#define AGW3D_FD_OUT      4     /* a SPADES agent writes here */
#define AGW3D_STOP_WAIT_MS 2000
#define AGW3D_LEAVE_MS    1000  /* to leave by itself before the SIGTERM */

/* The next word of a line: blanks separate, quotes group; 1 got one, 0 end, -1 error. */
static int next_word(const char **p, char *out, size_t len, char *err, size_t errlen)
{
    const char *s = *p;
    size_t k = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s || *s == '#')
        return 0;
    while (*s && *s != ' ' && *s != '\t' && *s != '#') {
        char q = 0;
        if (*s == '\'' || *s == '"')
            q = *s++;
        while (*s && (q ? *s != q : (*s != ' ' && *s != '\t' && *s != '\'' && *s != '"'
                                      && *s != '#'))) {
            if (k + 1 >= len) {
                snprintf(err, errlen, "word too long");
                return -1;
            }
            out[k++] = *s++;
        }
        if (q) {
            if (*s != q) {
                snprintf(err, errlen, "unterminated quote");
                return -1;
            }
            s++;
        }
    }
    out[k] = '\0';
    *p = s;
    return 1;
}

/* leading words option=value (a lower-case name): out of argv, into cl; 0 or -1 */
static int take_options(agw3d_cmdline_t *cl, char *err, size_t errlen)
{
    int k = 0;
    cl->framing = AGW3D_FRAMING_PLAIN;
    for (; k < cl->argc; k++) {
        const char *w = cl->argv[k], *eq = strchr(w, '=');
        size_t n = eq ? strspn(w, "abcdefghijklmnopqrstuvwxyz_") : 0;
        if (!eq || n == 0 || w + n != eq)
            break;
        if (n == 7 && strncmp(w, "framing", 7) == 0 && strcmp(eq + 1, "spades") == 0) {
            cl->framing = AGW3D_FRAMING_SPADES;
        } else if (n == 7 && strncmp(w, "framing", 7) == 0 && strcmp(eq + 1, "plain") == 0) {
            cl->framing = AGW3D_FRAMING_PLAIN;
        } else {
            snprintf(err, errlen, "unknown option '%.40s' (framing=spades or framing=plain)", w);
            return -1;
        }
    }
    if (k > 0 && k == cl->argc) {
        snprintf(err, errlen, "options but no program");
        return -1;
    }
    for (int i = k; i < cl->argc; i++)
        memcpy(cl->argv[i - k], cl->argv[i], sizeof cl->argv[0]);
    cl->argc -= k;
    return 0;
}

int agw3d_list_parse(const char *text, agw3d_cmdline_t *out, int max, char *err, size_t errlen)
{
    int n = 0, lineno = 0;
    const char *s = text;
    char line[AGW3D_LINE_MAX], e[160];
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t l = nl ? (size_t)(nl - s) : strlen(s);
        lineno++;
        if (l >= sizeof line) {
            snprintf(err, errlen, "line %d: longer than %d characters", lineno, AGW3D_LINE_MAX - 1);
            return -1;
        }
        memcpy(line, s, l);
        line[l] = '\0';
        if (l && line[l - 1] == '\r')
            line[l - 1] = '\0';
        s += l + (nl ? 1 : 0);
        const char *p = line;
        agw3d_cmdline_t cl;
        cl.argc = 0;
        int rc;
        while ((rc = next_word(&p, cl.argv[cl.argc], sizeof cl.argv[0], e, sizeof e)) == 1) {
            if (++cl.argc >= AGW3D_ARGS_MAX) {
                snprintf(err, errlen, "line %d: more than %d words", lineno, AGW3D_ARGS_MAX - 1);
                return -1;
            }
        }
        if (rc < 0) {
            snprintf(err, errlen, "line %d: %s", lineno, e);
            return -1;
        }
        if (take_options(&cl, e, sizeof e) < 0) {
            snprintf(err, errlen, "line %d: %s", lineno, e);
            return -1;
        }
        if (cl.argc == 0)
            continue;
        if (n >= max) {
            snprintf(err, errlen, "line %d: more than %d agents", lineno, max);
            return -1;
        }
        out[n++] = cl;
    }
    return n;
}

/* child side: fd onto descriptor 3 and fd_out (or -1) onto 4, kept across exec; the
 * originals (close-on-exec) go at the exec. 0, or -1. */
static int place_fds(int fd, int fd_out)
{
    int a = fcntl(fd, F_DUPFD_CLOEXEC, 10), b = fd_out >= 0 ? fcntl(fd_out, F_DUPFD_CLOEXEC, 10) : -1;
    if (a < 0 || (fd_out >= 0 && b < 0))
        return -1;
    if (dup2(a, AGW3D_FD) < 0 || (b >= 0 && dup2(b, AGW3D_FD_OUT) < 0))
        return -1;
    close(a);
    if (b >= 0)
        close(b);
    return 0;
}

/* child side: never returns */
static void exec_agent(agw3d_cmdline_t *cl, const char *dir, int fd, int fd_out, pid_t parent)
{
    char *argv[AGW3D_ARGS_MAX + 1], prog[PATH_MAX + AGW3D_LINE_MAX];
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(1);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0 && null != 0) {
        dup2(null, 0);
        close(null);
    }
    if (place_fds(fd, fd_out) < 0)
        _exit(126);
    if (fd_out < 0)
        setenv("RCSS3D_AGENT_FD", "3", 1);
    else
        unsetenv("RCSS3D_AGENT_FD");
    proc_child_defaults();
    for (int i = 0; i < cl->argc; i++)
        argv[i] = cl->argv[i];
    argv[cl->argc] = NULL;
    /* a relative program path is the list file's neighbour; a bare name is looked up in
     * PATH */
    if (strchr(argv[0], '/') && argv[0][0] != '/' && dir[0]) {
        snprintf(prog, sizeof prog, "%s/%s", dir, argv[0]);
        argv[0] = prog;
    }
    execvp(argv[0], argv);
    fprintf(stderr, "rcss3d-agentgw: cannot start %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* a SPADES agent: two pipes, the agent reads 3 and writes 4 */
static pid_t spawn_spades(agw3d_t *g, agw3d_cmdline_t *cl, const char *dir)
{
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) < 0) {
        log_err("pipe() failed: %s", strerror(errno));
        return -1;
    }
    if (pipe2(from, O_CLOEXEC) < 0) {
        log_err("pipe() failed: %s", strerror(errno));
        close(to[0]);
        close(to[1]);
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = proc_fork();
    if (pid < 0) {
        log_err("fork() failed: %s", strerror(errno));
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        return -1;
    }
    if (pid == 0) {
        close(to[1]);
        close(from[0]);
        exec_agent(cl, dir, to[0], from[1], parent);
    }
    close(to[0]);
    close(from[1]);
    if (agw3d_conn_open_spades(g, from[0], to[1], pid) < 0)
        log_warn("SPADES agent %s (pid %d): no connection", cl->argv[0], (int)pid);
    return pid;
}

static pid_t spawn_one(agw3d_t *g, agw3d_cmdline_t *cl, const char *dir)
{
    int sv[2];
    if (cl->framing == AGW3D_FRAMING_SPADES)
        return spawn_spades(g, cl, dir);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        log_err("socketpair() failed: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = proc_fork();
    if (pid < 0) {
        log_err("fork() failed: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pid == 0) {
        close(sv[0]);
        exec_agent(cl, dir, sv[1], -1, parent);
    }
    close(sv[1]);
    if (agw3d_conn_open(g, sv[0], SHM3D_KIND_PIPE, pid, NULL) < 0)
        log_warn("agent %s (pid %d): no connection", cl->argv[0], (int)pid);
    return pid;
}

static char *read_list(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = malloc(AGW3D_LIST_MAX * AGW3D_LINE_MAX + 1);
    size_t n = buf ? fread(buf, 1, AGW3D_LIST_MAX * AGW3D_LINE_MAX, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

int agw3d_spawn_list(agw3d_t *g)
{
    const char *path = conf3d_str(&g->conf, P3_agent_list);
    static agw3d_cmdline_t list[AGW3D_LIST_MAX];
    char err[160], dir[PATH_MAX];
    if (!path[0])
        return 0;
    char *text = read_list(path);
    if (!text) {
        log_err("server::agent_list: cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    int n = agw3d_list_parse(text, list, AGW3D_LIST_MAX, err, sizeof err);
    free(text);
    if (n < 0) {
        log_err("server::agent_list %s: %s", path, err);
        return -1;
    }
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir[0] = '\0';
    int spades = 0;
    for (int i = 0; i < n; i++) {
        pid_t pid = spawn_one(g, &list[i], dir);
        if (pid > 0)
            g->child[g->nchild++] = pid;
        spades += pid > 0 && list[i].framing == AGW3D_FRAMING_SPADES;
    }
    if (spades)
        log_info("started %d agents from %s (%d in the SPADES framing)", g->nchild, path, spades);
    else
        log_info("started %d agents from %s", g->nchild, path);
    return 0;
}

void agw3d_spawn_reap(agw3d_t *g)
{
    char why[48];
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        for (int i = 0; i < g->nchild; i++) {
            if (g->child[i] != pid)
                continue;
            g->child[i] = 0;
            log_info("agent pid %d: %s", (int)pid, proc_exit_text(st, why, sizeof why));
        }
    }
}

static int children_left(agw3d_t *g)
{
    agw3d_spawn_reap(g);
    int n = 0;
    for (int i = 0; i < g->nchild; i++)
        n += g->child[i] > 0;
    return n;
}

void agw3d_spawn_stop(agw3d_t *g)
{
    for (int ms = 0; ms < AGW3D_LEAVE_MS && children_left(g); ms += 10)
        usleep(10000);
    if (!children_left(g))
        return;
    for (int i = 0; i < g->nchild; i++) {
        if (g->child[i] > 0)
            kill(g->child[i], SIGTERM);
    }
    for (int ms = 0; ms < AGW3D_STOP_WAIT_MS && children_left(g); ms += 10)
        usleep(10000);
    for (int i = 0; i < g->nchild; i++) {
        if (g->child[i] > 0) {
            log_warn("agent pid %d still running after %d ms: SIGKILL", (int)g->child[i],
                     AGW3D_STOP_WAIT_MS);
            kill(g->child[i], SIGKILL);
            waitpid(g->child[i], NULL, 0);
            g->child[i] = 0;
        }
    }
}
