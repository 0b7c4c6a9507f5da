/* shm3d.h -- operations on the 3D region of shm3d_layout.h: create/attach/verify/unlink
 * (shm3d_region.c); snapshot seqlock ring, event ring, command and control rings and
 * the gateways' snapshot follower (shm3d_ring.c). Semaphores, the clock and the
 * semaphore-to-eventfd waker are the 2D region's (shm.h, shm_gateway.h): they take a
 * sem_t and know nothing of either layout. Never logs: errors go to err buffers. */
#ifndef RCSS_SHM3D_H
#define RCSS_SHM3D_H

#include <stddef.h>
#include <stdint.h>
#include "shm3d_layout.h"

typedef struct shm3d_handle {
    shm3d_region_sh_t *r;      /* mapped region */
    size_t             size;
    char               name[SHM3D_NAME_LEN];
    int                owner;  /* 1 if this process created it (the sim) */
} shm3d_handle_t;

/* "/rcssserver3d-<agent_port>" */
void shm3d_default_name(int agent_port, char *buf, size_t len);
/* Create (replacing a stale region of the same name), zero, fill the header and
 * initialise the semaphores. 0 or -1 with err. */
int  shm3d_region_create(shm3d_handle_t *h, const char *name, char *err, size_t errlen);
/* Map an existing region; refuses with one line in err on a wrong magic, layout
 * version, size or parameter table ("shm /rcssserver3d-3100: layout version 2, expected 1"). */
int  shm3d_region_attach(shm3d_handle_t *h, const char *name, char *err, size_t errlen);
int  shm3d_region_verify(const shm3d_region_sh_t *r, size_t mapped, const char *name,
                         char *err, size_t errlen);
void shm3d_region_detach(shm3d_handle_t *h);
/* Owner: destroy the semaphores, unmap, shm_unlink. Others: detach. */
void shm3d_region_destroy(shm3d_handle_t *h);
/* Gateways: attach, retrying every 50 ms for up to wait_ms until the region exists and
 * is ready. 0 or -1 with err. */
int  shm3d_gateway_attach(shm3d_handle_t *h, const char *name, int wait_ms, char *err,
                          size_t errlen);
/* Gateways: handle every snapshot published after *last in order (shm3d_snap_follow,
 * at most SHM3D_SNAP_SLOTS - 2 behind, skips counted in the slot's resets), record the
 * last one in the slot, and in synch mode post done_sem: the sim may be waiting for
 * this gateway to catch up. */
void shm3d_gateway_follow(shm3d_region_sh_t *r, shm3d_proc_sh_t *self, uint64_t *last,
                          shm3d_snapshot_sh_t *snap, void (*fn)(void *ctx), void *ctx);
/* 0 once the sim asked everyone to leave or is gone. */
int  shm3d_sim_alive(const shm3d_region_sh_t *r);
/* Gateways: the sim's resolved configuration, as a conf3d_t. */
struct conf3d;
void shm3d_gateway_conf(const shm3d_region_sh_t *r, struct conf3d *c);
/* A 3D gateway's start: its command line (--shm NAME, or $RCSS3D_SHM), the sim's region
 * once it is ready (shm3d_gateway_attach, up to wait_ms) and the sim's configuration.
 * 0, -1 with one line in err, or -2 for a bad command line (the caller prints its
 * usage). */
int  shm3d_gateway_open(int argc, char **argv, int wait_ms, shm3d_handle_t *h,
                        struct conf3d *c, char *err, size_t errlen);

/* ---- snapshots ---- */
shm3d_snapshot_sh_t *shm3d_snap_begin(shm3d_region_sh_t *r);
void     shm3d_snap_publish(shm3d_region_sh_t *r, shm3d_snapshot_sh_t *s);
/* Copy publish number n: 0, or -1 if not published yet or already overwritten. */
int      shm3d_snap_read(const shm3d_region_sh_t *r, uint64_t n, shm3d_snapshot_sh_t *out);
/* Copy the newest; returns its publish number, 0 if none. */
uint64_t shm3d_snap_read_latest(const shm3d_region_sh_t *r, shm3d_snapshot_sh_t *out);
/* Gateways: handle every snapshot after *last in order (copy into snap, call fn);
 * more than max_behind behind or overwritten: jump to the newest, count a reset. */
void     shm3d_snap_follow(const shm3d_region_sh_t *r, uint64_t *last, int max_behind,
                           shm3d_snapshot_sh_t *snap, _Atomic uint64_t *resets,
                           void (*fn)(void *ctx), void *ctx);

/* ---- events ---- */
uint64_t shm3d_event_push(shm3d_region_sh_t *r, const shm3d_event_sh_t *ev);
/* 0 ok; 1 not written yet; -1 overwritten (skip ahead and count a reset) */
int      shm3d_event_read(const shm3d_region_sh_t *r, uint64_t seq, shm3d_event_sh_t *out);
/* the next event at *cursor before upto: 0 one; 1 none yet; -1 lost (the cursor jumped
 * to half a ring before the head: count a reset) */
int      shm3d_event_next(const shm3d_region_sh_t *r, uint64_t *cursor, uint64_t upto,
                          shm3d_event_sh_t *out);
uint64_t shm3d_event_head(const shm3d_region_sh_t *r);

/* ---- rings ---- */
int shm3d_cmd_push(shm3d_cmd_ring_sh_t *q, const shm3d_cmd_sh_t *c);
int shm3d_cmd_pop(shm3d_cmd_ring_sh_t *q, shm3d_cmd_sh_t *out);
int shm3d_ctrl_push(shm3d_ctrl_ring_sh_t *q, const shm3d_cmd_sh_t *c);
int shm3d_ctrl_pop(shm3d_ctrl_ring_sh_t *q, shm3d_cmd_sh_t *out);

#endif
