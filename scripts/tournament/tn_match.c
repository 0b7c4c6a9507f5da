/* tn_match.c -- `rcss-tournament match DIR ID`: one match, as every backend runs it (a
 * local child, a Slurm job, a Kubernetes pod). From DIR/matches/ID/match.json it starts
 * rcssserver (next to rcss-tournament) on free ports (server::port=0 and the like) with
 * auto_mode, the match's seed, its logs, result.json and event stream in the match's
 * folder; reads the ports from the READY line; writes running.json (host, ports, the
 * browser monitor's URL) while the match runs; starts the left team, waits for its
 * players to join (the first team to join takes the left), then the right team, each
 * with its start command's placeholders filled and its output in <team>.log; waits for
 * the server to end by itself (or the match's timeout, or SIGTERM: the server is then
 * stopped with SIGTERM), stops both teams by process group and exits with the server's
 * status. A lock on the folder keeps two runners of one match apart. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tn.h"

#define READY_WAIT_S   20.0
#define JOIN_WAIT_S    30.0    /* the left team's first player */
#define JOIN_QUIET_S   1.5     /* no new left player this long: the team is in */
#define TEAM_LEAVE_S   3.0     /* after the server: teams leaving by themselves */
#define LOCK_WAIT_S    15.0

static volatile sig_atomic_t stop_sig;
static void on_stop(int sig) { stop_sig = sig; }

typedef struct proc {
    pid_t pid;      /* 0 none or reaped */
    int   status;   /* wait status once reaped */
} proc_t;

char *tn_fill(const char *tmpl, const char *const *names, const char *const *vals, int n)
{
    size_t cap = strlen(tmpl) + 256, len = 0;
    char *out = malloc(cap);
    for (const char *p = tmpl; out && *p;) {
        const char *add = NULL;
        size_t skip = 1;
        if (*p == '{') {
            for (int k = 0; k < n; k++) {
                size_t nl = strlen(names[k]);
                if (!strncmp(p + 1, names[k], nl) && p[1 + nl] == '}') {
                    add = vals[k];
                    skip = nl + 2;
                    break;
                }
            }
        }
        size_t al = add ? strlen(add) : 1;
        if (len + al + 1 > cap) {
            char *o = realloc(out, cap = (cap + al) * 2);
            if (!o) {
                free(out);
                return NULL;
            }
            out = o;
        }
        memcpy(out + len, add ? add : p, al);
        len += al;
        p += skip;
    }
    if (out)
        out[len] = '\0';
    return out;
}

/* fork: own process group, dies with us, cwd dir, output into log; exec argv */
static pid_t spawn(const char *const *argv, const char *dir, const char *log)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    int in = open("/dev/null", O_RDONLY), out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (in < 0 || out < 0 || chdir(dir) < 0)
        _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    close(in);
    close(out);
    execv(argv[0], (char *const *)argv);
    fprintf(stderr, "rcss-tournament: cannot run %s\n", argv[0]);
    _exit(127);
}

static int reap(proc_t *p, int block)
{
    if (p->pid <= 0)
        return 1;
    pid_t r = waitpid(p->pid, &p->status, block ? 0 : WNOHANG);
    if (r == p->pid || (r < 0 && errno == ECHILD)) {
        p->pid = -p->pid;              /* keep the group id for the sweep */
        return 1;
    }
    return 0;
}

static int exit_code(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* a team: SIGTERM to its group, SIGKILL after 2 s */
static void stop_team(proc_t *p)
{
    pid_t g = p->pid > 0 ? p->pid : -p->pid;
    if (g <= 0)
        return;
    kill(-g, SIGTERM);
    for (double end = tn_now() + 2; tn_now() < end && !reap(p, 0);)
        usleep(20000);
    kill(-g, SIGKILL);
    reap(p, 1);
}

/* the ports of the READY line in the server's log; 0 once found */
static int read_ready(const char *log, int *port, int *coach, int *olcoach, int *http)
{
    char *text = tn_read_file(log, NULL);
    if (!text)
        return -1;
    char *r = strstr(text, "READY port=");
    int rc = -1;
    if (r && strchr(r, '\n')) {
        char *c = strstr(r, "coach_port="), *o = strstr(r, "olcoach_port="), *h = strstr(r, "http_port=");
        *port = atoi(r + 11);
        *coach = c ? atoi(c + 11) : 0;
        *olcoach = o ? atoi(o + 13) : 0;
        *http = h ? atoi(h + 10) : 0;
        rc = *port > 0 ? 0 : -1;
    }
    free(text);
    return rc;
}

/* players of the left team that joined, from the event stream */
static int left_players(const char *events)
{
    char *text = tn_read_file(events, NULL);
    int n = 0;
    for (char *l = text; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl)
            *nl = '\0';
        if (strstr(l, "\"event\":\"connect\"") && strstr(l, "\"client\":\"player\"") &&
            strstr(l, "\"side\":\"l\""))
            n++;
        l = nl ? nl + 1 : NULL;
    }
    free(text);
    return n;
}

/* remove what an earlier attempt left: results, logs, outputs */
static void clean(const char *mdir)
{
    DIR *d = opendir(mdir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const char *n = e->d_name;
        size_t l = strlen(n);
        int ours = !strcmp(n, "result.json") || !strcmp(n, "events.ndjson") ||
                   !strcmp(n, "server.log") || !strcmp(n, "running.json") ||
                   strstr(n, ".rcg") || strstr(n, ".rcl") ||
                   (l > 4 && !strcmp(n + l - 4, ".log") && strncmp(n, "slurm-", 6) &&
                    strcmp(n, "runner.log"));
        if (ours) {
            char p[TN_PATH_LEN];
            snprintf(p, sizeof p, "%s/%s", mdir, n);
            unlink(p);
        }
    }
    if (d)
        closedir(d);
}

static int take_lock(const char *mdir)
{
    char p[TN_PATH_LEN];
    snprintf(p, sizeof p, "%s/.lock", mdir);
    int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    for (double end = tn_now() + LOCK_WAIT_S; fd >= 0;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return fd;
        if (tn_now() > end)
            break;
        usleep(100000);
    }
    if (fd >= 0)
        close(fd);
    return -1;
}

typedef struct run {
    const char *dir, *id;
    char        mdir[TN_DIR_LEN], bindir[TN_DIR_LEN], host[256], seed[16];
    char        ports[4][16];
    json_t     *m;
    proc_t      srv, team[2];
} run_t;

static int start_team(run_t *r, int k)
{
    json_t *t = json_object_get(r->m, k == 0 ? "left" : "right");
    const char *name = json_string_value(json_object_get(t, "name"));
    const char *cmd = json_string_value(json_object_get(t, "command"));
    if (!name || !cmd)
        return -1;
    static const char *const names[] = { "host", "port", "coach_port", "olcoach_port", "team",
                                         "side", "bindir", "seed", "dir" };
    const char *vals[] = { r->host, r->ports[0], r->ports[1], r->ports[2], name, k == 0 ? "l" : "r",
                           r->bindir, r->seed, r->mdir };
    char *line = tn_fill(cmd, names, vals, 9), log[TN_PATH_LEN];
    if (!line)
        return -1;
    snprintf(log, sizeof log, "%s/%s.log", r->mdir, name);
    const char *argv[] = { "/bin/sh", "-c", line, NULL };
    r->team[k].pid = spawn(argv, r->mdir, log);
    free(line);
    return r->team[k].pid > 0 ? 0 : -1;
}

static pid_t start_server(run_t *r)
{
    json_t *args = json_object_get(r->m, "server");
    size_t n = json_array_size(args);
    const char **argv = calloc(n + 18, sizeof *argv);
    char bin[TN_PATH_LEN], a[8][TN_PATH_LEN + 64], log[TN_PATH_LEN];
    if (!argv)
        return -1;
    snprintf(bin, sizeof bin, "%s/rcssserver", r->bindir);
    snprintf(a[0], sizeof a[0], "server::random_seed=%s", r->seed);
    snprintf(a[1], sizeof a[1], "server::result_file=%s/result.json", r->mdir);
    snprintf(a[2], sizeof a[2], "server::game_log_dir=%s", r->mdir);
    snprintf(a[3], sizeof a[3], "server::text_log_dir=%s", r->mdir);
    snprintf(a[4], sizeof a[4], "server::event_stream=%s/events.ndjson", r->mdir);
    int k = 0;
    argv[k++] = bin;
    argv[k++] = "server::port=0";
    argv[k++] = "server::coach_port=0";
    argv[k++] = "server::olcoach_port=0";
    argv[k++] = "server::http_port=-1";
    argv[k++] = "server::auto_mode=true";
    /* after time_over the teams leave within a few steps; the reference's 100 steps of
     * game_over_wait would then pass at 100 ms each with no one left (the file's
     * params come later and win) */
    argv[k++] = "server::game_over_wait=10";
    /* in synch mode the same seed plays the same match, whenever the teams' datagrams
     * arrive, so a match replayed on another backend or node gives the same result */
    argv[k++] = "server::reproducible=true";
    for (int i = 0; i < 5; i++)
        argv[k++] = a[i];
    for (size_t i = 0; i < n; i++)
        argv[k++] = json_string_value(json_array_get(args, i));
    argv[k] = NULL;
    snprintf(log, sizeof log, "%s/server.log", r->mdir);
    pid_t pid = spawn(argv, r->mdir, log);
    free(argv);
    return pid;
}

static void write_running(run_t *r)
{
    char host[256], url[512], path[TN_PATH_LEN];
    if (gethostname(host, sizeof host) < 0)
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    /* a server bound to one address is reached there, one on every address by name */
    const char *at = host;
    json_t *args = json_object_get(r->m, "server");
    for (size_t i = 0; i < json_array_size(args); i++) {
        const char *a = json_string_value(json_array_get(args, i));
        if (a && !strncmp(a, "server::bind_address=", 21) && a[21] && strcmp(a + 21, "0.0.0.0") &&
            strcmp(a + 21, "::"))
            at = a + 21;
    }
    snprintf(url, sizeof url, "http://%s:%s/", at, r->ports[3]);
    json_t *j = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:s, s:i, s:i, s:I}", "id", r->id,
                          "host", at, "port", atoi(r->ports[0]), "coach_port", atoi(r->ports[1]),
                          "olcoach_port", atoi(r->ports[2]), "http_port", atoi(r->ports[3]),
                          "monitor", url, "pid", (int)getpid(), "server_pid", (int)r->srv.pid,
                          "started", (json_int_t)time(NULL));
    snprintf(path, sizeof path, "%s/running.json", r->mdir);
    tn_write_json(path, j);
    json_decref(j);
}

/* wait for the server's ready line (0), or its end / a stop (-1) */
static int wait_ready(run_t *r)
{
    char log[TN_PATH_LEN];
    int p[4];
    snprintf(log, sizeof log, "%s/server.log", r->mdir);
    for (double end = tn_now() + READY_WAIT_S; tn_now() < end && !stop_sig;) {
        if (read_ready(log, &p[0], &p[1], &p[2], &p[3]) == 0) {
            for (int i = 0; i < 4; i++)
                snprintf(r->ports[i], sizeof r->ports[i], "%d", p[i]);
            return 0;
        }
        if (reap(&r->srv, 0))
            return -1;
        usleep(20000);
    }
    return -1;
}

/* after the left team's start: its players in (or the waits run out) */
static void wait_left(run_t *r)
{
    char ev[TN_PATH_LEN];
    snprintf(ev, sizeof ev, "%s/events.ndjson", r->mdir);
    int seen = 0;
    double last = tn_now(), end = last + JOIN_WAIT_S;
    while (!stop_sig && tn_now() < end && !reap(&r->srv, 0)) {
        int n = left_players(ev);
        if (n >= 11)
            return;
        if (n != seen) {
            seen = n;
            last = tn_now();
        } else if (seen > 0 && tn_now() - last > JOIN_QUIET_S) {
            return;
        }
        usleep(20000);
    }
}

/* until the server ends; its exit code (124 on the timeout) */
static int wait_server(run_t *r)
{
    double end = tn_now() + (double)json_integer_value(json_object_get(r->m, "timeout"));
    double killed = 0;
    int timed_out = 0;
    while (!reap(&r->srv, 0)) {
        if ((stop_sig || tn_now() > end) && killed == 0) {
            timed_out = !stop_sig;
            if (timed_out)
                fprintf(stderr, "rcss-tournament: match %s: the timeout ran out, stopping it\n", r->id);
            kill(r->srv.pid, SIGTERM);
            killed = tn_now();
        }
        if (killed > 0 && tn_now() - killed > 10) {
            kill(-r->srv.pid, SIGKILL);
            reap(&r->srv, 1);
            break;
        }
        usleep(50000);
    }
    int code = exit_code(r->srv.status);
    return timed_out ? 124 : code;
}

static int load(run_t *r)
{
    char path[TN_PATH_LEN], exe[PATH_MAX];
    json_error_t je;
    tn_match_path(r->mdir, sizeof r->mdir, r->dir, r->id, "");
    tn_match_path(path, sizeof path, r->dir, r->id, "match.json");
    r->m = json_load_file(path, 0, &je);
    if (!r->m) {
        fprintf(stderr, "rcss-tournament: match %s: cannot read %s\n", r->id, path);
        return -1;
    }
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(r->bindir, sizeof r->bindir, "%s", n > 0 ? dirname(exe) : ".");
    const char *host = json_string_value(json_object_get(r->m, "host"));
    snprintf(r->host, sizeof r->host, "%s", host ? host : "127.0.0.1");
    snprintf(r->seed, sizeof r->seed, "%lld",
             (long long)json_integer_value(json_object_get(r->m, "seed")));
    return 0;
}

int tn_match_run(const char *dir, const char *id)
{
    run_t r = { .dir = dir, .id = id };
    if (load(&r) < 0)
        return 1;
    int lock = take_lock(r.mdir);
    if (lock < 0) {
        fprintf(stderr, "rcss-tournament: match %s: another runner holds %s\n", id, r.mdir);
        json_decref(r.m);
        return 1;
    }
    struct sigaction sa = { .sa_handler = on_stop };
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    clean(r.mdir);
    int code = 1;
    r.srv.pid = start_server(&r);
    if (r.srv.pid <= 0 || wait_ready(&r) < 0) {
        fprintf(stderr, "rcss-tournament: match %s: the server did not get ready (see server.log)\n", id);
        if (r.srv.pid > 0 && !reap(&r.srv, 0)) {
            kill(r.srv.pid, SIGTERM);
            reap(&r.srv, 1);
        }
    } else {
        write_running(&r);
        printf("rcss-tournament: match %s on port %s, browser monitor http port %s\n", id,
               r.ports[0], r.ports[3]);
        fflush(stdout);
        if (start_team(&r, 0) == 0)
            wait_left(&r);
        if (!stop_sig)
            start_team(&r, 1);
        code = wait_server(&r);
        for (double end = tn_now() + TEAM_LEAVE_S;        /* stopped: no waiting */
             !stop_sig && tn_now() < end && !(reap(&r.team[0], 0) & reap(&r.team[1], 0));)
            usleep(50000);
        stop_team(&r.team[0]);
        stop_team(&r.team[1]);
        char path[TN_PATH_LEN];
        snprintf(path, sizeof path, "%s/running.json", r.mdir);
        unlink(path);
    }
    if (stop_sig && code == 0)
        code = 128 + stop_sig;
    printf("rcss-tournament: match %s: server exit status %d\n", id, code);
    json_decref(r.m);
    close(lock);
    return code;
}
