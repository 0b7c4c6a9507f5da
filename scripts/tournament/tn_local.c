/* tn_local.c -- the local backend: up to K matches at once on this machine, each a child
 * `rcss-tournament match DIR ID` in its own process group (its output in the match's
 * runner.log), each server on its own free ports. A child gets SIGTERM if the runner
 * dies (PR_SET_PDEATHSIG) and stops its server and teams; an interrupted run stops its
 * children the same way, and the next run starts those matches again. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tn.h"

static int local_start(tn_backend_t *b, const tn_ctx_t *c, const tn_match_t *m, tn_job_t *j,
                       char *err, size_t errlen)
{
    (void)b;
    char log[TN_PATH_LEN];
    tn_match_path(log, sizeof log, c->dir, m->id, "runner.log");
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(1);
        signal(SIGINT, SIG_IGN);        /* the runner forwards a Ctrl-C as SIGTERM */
        signal(SIGTERM, SIG_DFL);
        int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (out >= 0) {
            dup2(out, 1);
            dup2(out, 2);
            close(out);
        }
        execl(c->self, c->self, "match", c->dir, m->id, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    snprintf(j->job, sizeof j->job, "%d", (int)pid);
    return 0;
}

static int local_poll(tn_backend_t *b, const tn_ctx_t *c, tn_job_t **jobs, int n, int *running,
                      char (*why)[96])
{
    (void)b;
    (void)c;
    for (int i = 0; i < n; i++) {
        pid_t pid = (pid_t)atoi(jobs[i]->job);
        int st;
        running[i] = 1;
        pid_t r = pid > 0 ? waitpid(pid, &st, WNOHANG) : -1;
        if (r == 0)
            continue;
        running[i] = 0;
        if (r < 0)
            snprintf(why[i], sizeof why[i], "its runner is gone (an earlier run's)");
        else if (WIFEXITED(st))
            snprintf(why[i], sizeof why[i], "runner exit status %d", WEXITSTATUS(st));
        else
            snprintf(why[i], sizeof why[i], "runner killed by signal %d", WTERMSIG(st));
    }
    return 0;
}

static void local_stop_all(tn_backend_t *b, tn_job_t **jobs, int n)
{
    (void)b;
    for (int i = 0; i < n; i++) {
        pid_t pid = (pid_t)atoi(jobs[i]->job);
        if (pid > 0)
            kill(pid, SIGTERM);
    }
    for (int i = 0; i < n; i++) {
        pid_t pid = (pid_t)atoi(jobs[i]->job);
        if (pid > 0)
            waitpid(pid, NULL, 0);
    }
}

void tn_local_init(tn_backend_t *b, int parallel)
{
    memset(b, 0, sizeof *b);
    b->name = "local";
    b->capacity = parallel > 0 ? parallel : 1;
    b->start = local_start;
    b->poll = local_poll;
    b->stop_all = local_stop_all;
}
