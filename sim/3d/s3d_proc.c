/* s3d_proc.c -- the 3D server's gateway children: fork+exec of rcss3d-agentgw and
 * rcss3d-monitorgw with the region's name, pids in the region's process slots, reaping
 * and restarting a dead one (at most 5 times a second), and stopping them by pid at
 * exit. Nothing is spawned with server::spawn_gateways=false. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "log.h"
#include "proc.h"
#include "s3d.h"
#include "shm.h"

static const char *const s3d_bins[SHM3D_N_GATEWAYS] = { "rcss3d-agentgw", "rcss3d-monitorgw" };

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
    return proc_find_bins(conf3d_str(c, P3_gateway_dir), s3d_bins, SHM3D_N_GATEWAYS, p->dir,
                          sizeof p->dir, err, errlen);
}

/* fork+exec of a child (proc_spawn: its own process group, SIGTERM when the sim dies) */
static int spawn(s3d_proc_t *p, s3d_child_t *ch)
{
    char *argv[4] = { (char *)ch->bin, "--shm", p->shm_name, NULL };
    pid_t pid = proc_spawn(p->dir, argv);
    if (pid < 0) {
        log_err("fork() failed: %s", strerror(errno));
        return -1;
    }
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
    char why[48];
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        s3d_child_t *ch = find_pid(p, pid);
        if (!ch)
            continue;
        atomic_store(&ch->slot->state, SHM3D_PROC_EXITED);
        atomic_store(&ch->slot->pid, 0);
        ch->pending = 1;
        log_warn("%s (pid %d) died: %s", ch->bin, (int)pid, proc_exit_text(st, why, sizeof why));
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

void s3d_proc_stop(s3d_proc_t *p)
{
    proc_slot_t slots[SHM3D_N_GATEWAYS];
    if (!p->spawn)
        return;
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++)
        slots[i] = (proc_slot_t){ &p->ch[i].slot->pid, &p->ch[i].slot->state };
    if (proc_term_all(slots, SHM3D_N_GATEWAYS, SHM3D_PROC_EXITED, S3D_STOP_WAIT_MS)) {
        log_warn("gateways still running after %d ms: SIGKILL", S3D_STOP_WAIT_MS);
        proc_kill_all(slots, SHM3D_N_GATEWAYS, SHM3D_PROC_EXITED);
    }
}
