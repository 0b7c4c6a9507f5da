/* proc.c -- process plumbing of the sims, the agent gateway and the recorder (proc.h):
 * signals, the program directory, fork+exec of gateway children and stopping them. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <limits.h>

#include "proc.h"

/* the flag the handler sets: the one process-wide thing here, set before the handlers */
static volatile sig_atomic_t *proc_flag;

static void proc_on_signal(int sig)
{
    (void)sig;
    *proc_flag = 1;
}

void proc_stop_signals(volatile sig_atomic_t *flag)
{
    struct sigaction sa;
    proc_flag = flag;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = proc_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int proc_self_dir(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    if (slash == buf)
        slash[1] = '\0';
    else
        *slash = '\0';
    return 0;
}

int proc_find_bins(const char *conf_dir, const char *const *bins, int n, char *dir,
                   size_t len, char *err, size_t errlen)
{
    if (conf_dir[0] != '\0') {
        snprintf(dir, len, "%s", conf_dir);
    } else if (proc_self_dir(dir, len) < 0) {
        snprintf(err, errlen, "readlink(\"/proc/self/exe\") failed: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", dir, bins[i]);
        if (access(path, X_OK) != 0) {
            snprintf(err, errlen, "cannot find %s in %s", bins[i], dir);
            return -1;
        }
    }
    return 0;
}

pid_t proc_fork(void)
{
    fflush(stdout);
    fflush(stderr);
    return fork();
}

void proc_child_defaults(void)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
}

/* child side: never returns */
static void proc_exec(const char *dir, char *const argv[], pid_t parent, int with_parent)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, argv[0]);
    setpgid(0, 0);                       /* terminal signals go to the parent */
    if (with_parent)
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* a killed parent takes its children along */
    if (with_parent && getppid() != parent) /* it died before the line above */
        _exit(1);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execv(path, argv);
    _exit(127);
}

pid_t proc_spawn(const char *dir, char *const argv[])
{
    pid_t parent = getpid();
    pid_t pid = proc_fork();
    if (pid == 0)
        proc_exec(dir, argv, parent, 1);
    return pid;
}

pid_t proc_spawn_keep(const char *dir, char *const argv[])
{
    pid_t pid = proc_fork();
    if (pid == 0)
        proc_exec(dir, argv, 0, 0);
    return pid;
}

int proc_stat(pid_t pid, char *state, uint64_t *start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* the command name (field 2) may hold blanks and parentheses: count from the last ')' */
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ')
        return -1;
    *state = p[2];
    p++;
    for (int field = 3; field < 22 && *p; field++) {
        p = strchr(p + 1, ' ');
        if (!p)
            return -1;
    }
    *start = strtoull(p, NULL, 10);
    return 0;
}

int proc_gone(pid_t pid)
{
    char state;
    uint64_t start;
    if (pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH))
        return 1;
    if (proc_stat(pid, &state, &start) < 0)
        return 0; /* no /proc: the kernel said it exists */
    return state == 'Z' || state == 'X';
}

const char *proc_exit_text(int status, char *buf, size_t len)
{
    if (WIFSIGNALED(status))
        snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(buf, len, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return buf;
}

/* reap what has exited (clearing its slot); 1 if any child of the slots still runs */
static int proc_any_alive(const proc_slot_t *slots, int n, uint32_t exited)
{
    int st, alive = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        for (int i = 0; i < n; i++) {
            if (atomic_load(slots[i].pid) == pid) {
                atomic_store(slots[i].pid, 0);
                atomic_store(slots[i].state, exited);
                break;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        pid_t p = atomic_load(slots[i].pid);
        if (p > 0 && proc_gone(p)) { /* not our child (a dead sim's): another reaps it */
            atomic_store(slots[i].pid, 0);
            atomic_store(slots[i].state, exited);
        }
        alive |= atomic_load(slots[i].pid) > 0;
    }
    return alive;
}

static void proc_signal_all(const proc_slot_t *slots, int n, int sig)
{
    for (int i = 0; i < n; i++) {
        pid_t pid = atomic_load(slots[i].pid);
        if (pid > 0)
            kill(pid, sig);
    }
}

int proc_term_all(const proc_slot_t *slots, int n, uint32_t exited, int wait_ms)
{
    proc_signal_all(slots, n, SIGTERM);
    for (int ms = 0; ms < wait_ms && proc_any_alive(slots, n, exited); ms += 10)
        usleep(10000);
    return proc_any_alive(slots, n, exited);
}

void proc_kill_all(const proc_slot_t *slots, int n, uint32_t exited)
{
    proc_signal_all(slots, n, SIGKILL);
    for (int ms = 0; ms < 1000 && proc_any_alive(slots, n, exited); ms += 10)
        usleep(10000);
}

int proc_realtime(int prio, char *err, size_t len)
{
    if (prio <= 0)
        return 0;
    struct sched_param sp = { .sched_priority = prio > 99 ? 99 : prio };
    if (sched_getscheduler(0) == (SCHED_FIFO | SCHED_RESET_ON_FORK)
        || sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) == 0)
        return 0;
    snprintf(err, len, "cannot run at real-time priority %d: %s (needs CAP_SYS_NICE or "
             "RLIMIT_RTPRIO; server::rt_priority=0 turns this off)", sp.sched_priority,
             strerror(errno));
    return -1;
}
