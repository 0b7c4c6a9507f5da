/* sim_super.c -- the supervisor: the rcssserver a user starts (by hand, from a script or
 * a tournament runner) when server::resume_match is on and the sim spawns its gateways.
 * It forks the sim and waits; when the sim dies of a signal (kill -9, a crash, an abort)
 * after its region was made, it forks a new one that takes the match over from the
 * region (sim_resume.c). It is a child subreaper, so the dead sim's gateways, recorder and
 * team commands become its children and it reaps them; it forwards the stop signals to
 * the sim and exits with the sim's status. Under systemd (spawn_gateways=false) the unit's
 * Restart= does its work and there is no supervisor.
 *
 * The sim tells it, one line each on a pipe: "N<region name>" once the region and its
 * first state exist, "R" when a new sim has taken the match over, "P" when it has
 * published SHM_RESUME_PROGRESS steps. A sim that keeps dying before "P" is counted: the
 * new sim gives up itself after server::resume_tries (hdr.resume_tries, status 4); the
 * supervisor stops trying two deaths later whatever happens (a sim that dies before it
 * can count). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "sim.h"
#include "log.h"
#include "proc.h"

typedef struct super {
    int      fd;                  /* the pipe's reading end */
    int      sfd;                 /* signalfd of the blocked signals, -1: poll them */
    char     line[SHM_NAME_LEN + 8];
    size_t   len;
    char     name[SHM_NAME_LEN];  /* the region, once the sim said it */
    int      deaths;              /* sims dead in a row before their "P" */
    int      stop_sig;            /* a stop signal was forwarded */
} super_t;

void sim_super_tell(sim_t *s, const char *msg)
{
    char buf[SHM_NAME_LEN + 8];
    if (s->resume.super_fd < 0)
        return;
    int n = snprintf(buf, sizeof buf, "%s\n", msg);
    if (n > 0 && write(s->resume.super_fd, buf, (size_t)n) < 0)
        log_debug("supervisor pipe: %s", strerror(errno));
}

/* the sim's lines so far */
static void super_read(super_t *u)
{
    char c;
    while (read(u->fd, &c, 1) == 1) {
        if (c != '\n') {
            if (u->len + 1 < sizeof u->line)
                u->line[u->len++] = c;
            continue;
        }
        u->line[u->len] = '\0';
        if (u->line[0] == 'N')
            snprintf(u->name, sizeof u->name, "%s", u->line + 1);
        else if (u->line[0] == 'P')
            u->deaths = 0;
        u->len = 0;
    }
}

/* every child that ended: the sim's status in *st (1 when it was the sim) */
static int super_reap(pid_t sim, int *st)
{
    int w, got = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &w, WNOHANG)) > 0) {
        if (pid == sim) {
            *st = w;
            got = 1;
        }
    }
    return got;
}

/* the sim is gone for good: the rest of the children (gateways being stopped) get a
 * moment to end and be reaped, then the supervisor ends with status rc */
static void super_exit(sim_t *s, int rc)
{
    tgrid_free(&s->grid); /* the only memory the supervisor holds */
    for (int ms = 0; ms < 3000; ms += 10) {
        pid_t pid;
        int w;
        while ((pid = waitpid(-1, &w, WNOHANG)) > 0)
            ;
        if (pid < 0 && errno == ECHILD)
            break;
        usleep(10000);
    }
    fflush(stdout);
    _exit(rc);
}

/* the next blocked signal (0 none): from the signalfd, which wakes the supervisor only
 * when something happens (a child ended, a stop signal, a line on the pipe), or without
 * one every SIM_SUPER_POLL_MS */
static int super_next(super_t *u, const sigset_t *set)
{
    if (u->sfd < 0) {
        struct timespec poll = { 0, SIM_SUPER_POLL_MS * 1000000L };
        siginfo_t info;
        int sig = sigtimedwait(set, &info, &poll);
        return sig > 0 ? sig : 0;
    }
    struct signalfd_siginfo si;
    if (read(u->sfd, &si, sizeof si) == (ssize_t)sizeof si)
        return (int)si.ssi_signo;
    struct pollfd p[2] = { { .fd = u->sfd, .events = POLLIN }, { .fd = u->fd, .events = POLLIN } };
    poll(p, 2, -1);
    return read(u->sfd, &si, sizeof si) == (ssize_t)sizeof si ? (int)si.ssi_signo : 0;
}

/* wait for the sim to end, forwarding stop signals; its wait status */
static int super_wait(super_t *u, pid_t sim, const sigset_t *set)
{
    int st = 0;
    for (;;) {
        int sig = super_next(u, set);
        if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
            u->stop_sig = sig;
            kill(sim, sig);
        }
        super_read(u);
        if (super_reap(sim, &st)) {
            super_read(u); /* what it said before it died */
            return st;
        }
    }
}

int sim_super_run(sim_t *s)
{
    static super_t u;
    int fds[2];
    sigset_t set, old;
    s->resume.super_fd = -1;
    if (!conf_bool(&s->conf, SP_resume_match) || !conf_bool(&s->conf, SP_spawn_gateways))
        return -1;
    if (pipe2(fds, O_CLOEXEC) < 0 || fcntl(fds[0], F_SETFL, O_NONBLOCK) < 0) {
        log_warn("no supervisor (pipe: %s): a dead sim ends the match", strerror(errno));
        return -1;
    }
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, &old);
    signal(SIGPIPE, SIG_IGN);
    u.fd = fds[0];
    u.sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    pid_t super = getpid();
    int limit = conf_int(&s->conf, SP_resume_tries);
    for (;;) {
        pid_t pid = proc_fork();
        if (pid < 0) {
            fprintf(stderr, "rcssserver: fork() failed: %s\n", strerror(errno));
            super_exit(s, 1);
        }
        if (pid == 0) {
            close(fds[0]);
            if (u.sfd >= 0)
                close(u.sfd);
            sigprocmask(SIG_SETMASK, &old, NULL);
            prctl(PR_SET_PDEATHSIG, SIGKILL); /* killed with the supervisor: as kill -9 */
            if (getppid() != super)
                _exit(1);
            s->resume.super_fd = fds[1];
            snprintf(s->resume.name, sizeof s->resume.name, "%s", u.name);
            return 0;
        }
        int st = super_wait(&u, pid, &set);
        if (WIFEXITED(st))
            super_exit(s, WEXITSTATUS(st));
        int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        if (u.stop_sig || !u.name[0]) { /* stopped, or it died before the match began */
            if (!u.stop_sig)
                fprintf(stderr, "rcssserver: the sim (pid %d) was killed by signal %d before "
                        "its match began\n", (int)pid, sig);
            super_exit(s, 128 + sig);
        }
        if (++u.deaths > (limit > 0 ? limit : 0) + 2) {
            fprintf(stderr, "rcssserver: the sim died %d times in a row before it got "
                    "anywhere; giving up the match (server::resume_tries=%d)\n", u.deaths,
                    limit);
            super_exit(s, SIM_EXIT_CRASH_LOOP);
        }
        fprintf(stderr, "rcssserver: the sim (pid %d) was killed by signal %d; a new sim "
                "takes the match over\n", (int)pid, sig);
    }
}
