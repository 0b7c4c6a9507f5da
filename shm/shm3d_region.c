/* shm3d_region.c -- create, attach, verify and remove the 3D region (shm3d_layout.h),
 * with the mechanics every layout shares (shm_map.c). Only the sim creates and finally
 * unlinks it; the gateways attach and refuse, in one line, a region they do not
 * understand. Never logs. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "conf3d.h"
#include "shm.h"
#include "shm3d.h"
#include "shm_gateway.h"

void shm3d_default_name(int agent_port, char *buf, size_t len)
{
    if (buf && len)
        snprintf(buf, len, "/rcssserver3d-%d", agent_port);
}

_Static_assert(offsetof(shm3d_header_sh_t, region_size) == offsetof(shm_head_t, region_size)
               && offsetof(shm3d_header_sh_t, params_hash) == offsetof(shm_head_t, params_hash),
               "the header starts as every region's does");

/* The region's semaphores, in one list so init and destroy agree. */
#define R3_NSEMS (1 + SHM3D_N_GATEWAYS)
static void r3_sems(shm3d_region_sh_t *r, sem_t **out)
{
    out[0] = &r->hdr.done_sem;
    for (int i = 0; i < SHM3D_N_GATEWAYS; i++)
        out[1 + i] = &r->proc[i].cycle_sem;
}

static int r3_init(shm3d_region_sh_t *r, const char *name, char *err, size_t errlen)
{
    sem_t *sems[R3_NSEMS];
    r->hdr.magic = SHM3D_MAGIC;
    r->hdr.layout_version = SHM3D_LAYOUT_VERSION;
    r->hdr.region_size = sizeof(shm3d_region_sh_t);
    r->hdr.header_size = sizeof(shm3d_header_sh_t);
    r->hdr.params_hash = conf3d_hash();
    r->hdr.sim_pid = (int32_t)getpid();
    snprintf(r->hdr.name, sizeof r->hdr.name, "%s", name);
    r3_sems(r, sems);
    return shm_sems_init(sems, R3_NSEMS, name, err, errlen);
}

int shm3d_region_create(shm3d_handle_t *h, const char *name, char *err, size_t errlen)
{
    const size_t size = sizeof(shm3d_region_sh_t);
    struct stat st;
    void *p;
    memset(h, 0, sizeof *h);
    if (shm_map_name_ok(name, SHM3D_NAME_LEN, err, errlen) < 0)
        return -1;
    shm_unlink(name); /* a dead sim's region: ENOENT is the normal case */
    if (shm_map_create(name, size, &p, &st, err, errlen) != 0)
        return -1;
    if (r3_init(p, name, err, errlen) < 0) {
        munmap(p, size);
        shm_unlink(name);
        return -1;
    }
    h->r = p;
    h->size = size;
    h->owner = 1;
    snprintf(h->name, sizeof h->name, "%s", name);
    return 0;
}

/* Mapping size first, then magic and version (fixed offsets), then the recorded size
 * and the parameter table (shm_map_verify). 0, or -1 with exactly one line in err. */
int shm3d_region_verify(const shm3d_region_sh_t *r, size_t mapped, const char *name,
                        char *err, size_t errlen)
{
    const shm_expect_t want = { SHM3D_MAGIC, SHM3D_LAYOUT_VERSION, conf3d_hash(),
                                sizeof(shm3d_region_sh_t), sizeof(shm3d_header_sh_t),
                                " (not a 3D region)" };
    return shm_map_verify(r, mapped, name, &want, err, errlen);
}

int shm3d_region_attach(shm3d_handle_t *h, const char *name, char *err, size_t errlen)
{
    struct stat st;
    size_t size;
    void *p;
    memset(h, 0, sizeof *h);
    if (shm_map_name_ok(name, SHM3D_NAME_LEN, err, errlen) < 0)
        return -1;
    if (shm_map_attach(name, sizeof(shm3d_header_sh_t), &p, &size, &st, err, errlen) != 0)
        return -1;
    if (shm3d_region_verify(p, size, name, err, errlen) < 0) {
        if (p)
            munmap(p, size);
        return -1;
    }
    h->r = p;
    h->size = size;
    snprintf(h->name, sizeof h->name, "%s", name);
    return 0;
}

void shm3d_region_detach(shm3d_handle_t *h)
{
    if (!h || !h->r)
        return;
    munmap(h->r, h->size);
    h->r = NULL;
    h->size = 0;
}

void shm3d_region_destroy(shm3d_handle_t *h)
{
    if (!h || !h->r)
        return;
    if (h->owner) {
        sem_t *sems[R3_NSEMS];
        r3_sems(h->r, sems);
        shm_sems_destroy(sems, R3_NSEMS);
    }
    shm3d_region_detach(h);
    if (h->owner) {
        shm_unlink(h->name);
        h->owner = 0;
    }
}

int shm3d_gateway_attach(shm3d_handle_t *h, const char *name, int wait_ms, char *err,
                         size_t errlen)
{
    memset(h, 0, sizeof *h);
    err[0] = '\0';
    for (int waited = 0; waited <= wait_ms; waited += 50) {
        if (h->r || shm3d_region_attach(h, name, err, errlen) == 0) {
            if (atomic_load(&h->r->hdr.ready) == 1)
                return 0;
        }
        struct timespec ts = { 0, 50000000L };
        nanosleep(&ts, NULL);
    }
    if (h->r) {
        snprintf(err, errlen, "shm %s: the sim never marked the region ready", name);
        shm3d_region_detach(h);
    }
    return -1;
}

void shm3d_gateway_conf(const shm3d_region_sh_t *r, conf3d_t *c)
{
    for (int i = 0; i < P3_COUNT; i++) {
        c->num[i] = r->params.num[i];
        memcpy(c->str[i], r->params.str[i], CONF_STR_LEN);
        c->str[i][CONF_STR_LEN - 1] = '\0';
    }
}

int shm3d_gateway_open(int argc, char **argv, int wait_ms, shm3d_handle_t *h, conf3d_t *c,
                       char *err, size_t errlen)
{
    shm_gwargs_t a;
    if (shm_gateway_args(argc, argv, "RCSS3D_SHM", 0, &a) < 0)
        return -2;
    if (shm3d_gateway_attach(h, a.name, wait_ms, err, errlen) < 0)
        return -1;
    shm3d_gateway_conf(h->r, c);
    return 0;
}

void shm3d_gateway_follow(shm3d_region_sh_t *r, shm3d_proc_sh_t *self, uint64_t *last,
                          shm3d_snapshot_sh_t *snap, void (*fn)(void *ctx), void *ctx)
{
    shm3d_snap_follow(r, last, SHM3D_SNAP_SLOTS - 2, snap, &self->resets, fn, ctx);
    atomic_store(&self->last_step, *last);
    if (r->hdr.synch_mode)
        shm_sem_post(&r->hdr.done_sem);
}

int shm3d_sim_alive(const shm3d_region_sh_t *r)
{
    if (atomic_load(&r->hdr.shutdown))
        return 0;
    return !(kill(r->hdr.sim_pid, 0) < 0 && errno == ESRCH);
}
