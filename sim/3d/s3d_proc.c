/* s3d_proc.c -- the 3D server's gateway children: fork+exec of rcss3d-agentgw and
 * rcss3d-monitorgw with the region's name, pids in the region's process slots, reaping
 * and restarting a dead one (at most 5 times a second), and stopping them by pid at
 * exit. Nothing is spawned with server::spawn_gateways=false. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "log.h"
#include "s3d.h"
#include "shm.h"

static const char *const s3d_bins[SHM3D_N_GATEWAYS] = { "rcss3d-agentgw", "rcss3d-monitorgw" };

static int self_dir(char *buf, size_t len)
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

int s3d_proc_init(s3d_proc_t *p, shm3d_region_sh_t *r, const conf3d_t *c, const char *shm_name,
                  char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    snprintf(p->shm_name, sizeof p->shm_name, "%s", shm_name);
    p->spawn = conf3d_bool(c, P3_spawn_gateways);
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++) {
        p->ch[i].slot = &r->proc[i];
        p->ch[i].bin = s3d_bins[i];
    }
    if (!p->spawn)
        return 0;
    const char *d = conf3d_str(c, P3_gateway_dir);
    if (d[0])
        snprintf(p->dir, sizeof p->dir, "%s", d);
    else if (self_dir(p->dir, sizeof p->dir) < 0) {
        snprintf(err, errlen, "readlink(\"/proc/self/exe\") failed: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", p->dir, s3d_bins[i]);
        if (access(path, X_OK) != 0) {
            snprintf(err, errlen, "cannot find %s in %s", s3d_bins[i], p->dir);
            return -1;
        }
    }
    return 0;
}

/* child side: never returns */
static void exec_child(const s3d_proc_t *p, const s3d_child_t *ch, pid_t parent)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", p->dir, ch->bin);
    setpgid(0, 0);                       /* terminal signals go to the sim, which stops us */
    prctl(PR_SET_PDEATHSIG, SIGTERM);    /* a killed sim takes its gateways along */
    if (getppid() != parent)
        _exit(1);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    char *argv[4] = { (char *)ch->bin, "--shm", (char *)p->shm_name, NULL };
    execv(path, argv);
    _exit(127);
}

static int spawn(s3d_proc_t *p, s3d_child_t *ch)
{
    pid_t parent = getpid();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        log_err("fork() failed: %s", strerror(errno));
        return -1;
    }
    if (pid == 0)
        exec_child(p, ch, parent);
    ch->last_spawn_ns = shm_now_ns();
    ch->pending = 0;
    atomic_store(&ch->slot->pid, (int32_t)pid);
    atomic_store(&ch->slot->state, SHM3D_PROC_RUNNING);
    return 0;
}

int s3d_proc_start(s3d_proc_t *p)
{
    if (!p->spawn)
        return 0;
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++) {
        if (spawn(p, &p->ch[i]) < 0)
            return -1;
        log_debug("started %s (pid %d)", p->ch[i].bin, (int)atomic_load(&p->ch[i].slot->pid));
    }
    return 0;
}

static s3d_child_t *find_pid(s3d_proc_t *p, pid_t pid)
{
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++) {
        if (atomic_load(&p->ch[i].slot->pid) == pid)
            return &p->ch[i];
    }
    return NULL;
}

void s3d_proc_reap(s3d_proc_t *p)
{
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        s3d_child_t *ch = find_pid(p, pid);
        if (!ch)
            continue;
        atomic_store(&ch->slot->state, SHM3D_PROC_EXITED);
        atomic_store(&ch->slot->pid, 0);
        ch->pending = 1;
        if (WIFSIGNALED(st))
            log_warn("%s (pid %d) died: killed by signal %d", ch->bin, (int)pid, WTERMSIG(st));
        else
            log_warn("%s (pid %d) died: exit status %d", ch->bin, (int)pid,
                     WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    if (!p->spawn || s3d_stop_flag)
        return;
    int64_t now = shm_now_ns();
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++) {
        s3d_child_t *ch = &p->ch[i];
        if (!ch->pending || now - ch->last_spawn_ns < S3D_RESTART_GAP_NS)
            continue;
        if (spawn(p, ch) < 0)
            continue;
        uint32_t n = atomic_fetch_add(&ch->slot->restarts, 1) + 1;
        log_info("restarted %s (pid %d, restart %u)", ch->bin,
                 (int)atomic_load(&ch->slot->pid), n);
    }
}

static int any_alive(s3d_proc_t *p)
{
    int st, alive = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        s3d_child_t *ch = find_pid(p, pid);
        if (ch) {
            atomic_store(&ch->slot->pid, 0);
            atomic_store(&ch->slot->state, SHM3D_PROC_EXITED);
        }
    }
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++)
        alive |= atomic_load(&p->ch[i].slot->pid) > 0;
    return alive;
}

static void signal_all(s3d_proc_t *p, int sig)
{
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++) {
        pid_t pid = atomic_load(&p->ch[i].slot->pid);
        if (pid > 0)
            kill(pid, sig);
    }
}

void s3d_proc_stop(s3d_proc_t *p)
{
    if (!p->spawn)
        return;
    signal_all(p, SIGTERM);
    for (int ms = 0; ms < S3D_STOP_WAIT_MS && any_alive(p); ms += 10)
        usleep(10000);
    if (any_alive(p)) {
        log_warn("gateways still running after %d ms: SIGKILL", S3D_STOP_WAIT_MS);
        signal_all(p, SIGKILL);
        for (int ms = 0; ms < 1000 && any_alive(p); ms += 10)
            usleep(10000);
    }
}
