/* shm3d_ring.c -- the 3D region's snapshot ring (seqlock per slot), event ring and
 * command/control rings: the 2D region's ring code over the 3D layout (shm_ring.c's
 * shm_seqring_* and shm_evring_*, whose head explains the memory ordering; shm_queue.c's
 * shm_spsc_push/pop). */
#include <string.h>
#include "shm.h"
#include "shm3d.h"

_Static_assert(offsetof(shm3d_snapshot_sh_t, seq) == 0
               && offsetof(shm3d_snapshot_sh_t, step) == SHM_RING_BODY_OFF, "snapshot slot");
_Static_assert(offsetof(shm3d_event_sh_t, seq) == 0
               && offsetof(shm3d_event_sh_t, kind) == SHM_RING_BODY_OFF, "event slot");

#define SNAP_RING(r) ((shm_seqring_t){ (_Atomic uint64_t *)&(r)->hdr.published, \
                                       (void *)(r)->snap, sizeof((r)->snap[0]), SHM3D_SNAP_SLOTS })
#define EVENT_RING(r) ((shm_seqring_t){ (_Atomic uint64_t *)&(r)->events.head, \
                                        (void *)(r)->events.ev, sizeof((r)->events.ev[0]), \
                                        SHM3D_EVENT_SLOTS })

shm3d_snapshot_sh_t *shm3d_snap_begin(shm3d_region_sh_t *r)
{
    return shm_seqring_begin(SNAP_RING(r));
}

void shm3d_snap_publish(shm3d_region_sh_t *r, shm3d_snapshot_sh_t *s)
{
    shm_seqring_publish(SNAP_RING(r), s);
}

uint64_t shm3d_snap_read_latest(const shm3d_region_sh_t *r, shm3d_snapshot_sh_t *out)
{
    return shm_seqring_read_latest(SNAP_RING(r), out);
}

int shm3d_snap_read(const shm3d_region_sh_t *r, uint64_t n, shm3d_snapshot_sh_t *out)
{
    return shm_seqring_read(SNAP_RING(r), n, out);
}

void shm3d_snap_follow(const shm3d_region_sh_t *r, uint64_t *last, int max_behind,
                       shm3d_snapshot_sh_t *snap, _Atomic uint64_t *resets,
                       void (*fn)(void *ctx), void *ctx)
{
    shm_seqring_follow(SNAP_RING(r), last, max_behind, snap, resets, fn, ctx);
}

uint64_t shm3d_event_push(shm3d_region_sh_t *r, const shm3d_event_sh_t *ev)
{
    return shm_evring_push(EVENT_RING(r), ev);
}

int shm3d_event_read(const shm3d_region_sh_t *r, uint64_t seq, shm3d_event_sh_t *out)
{
    return shm_evring_read(EVENT_RING(r), seq, out);
}

int shm3d_event_next(const shm3d_region_sh_t *r, uint64_t *cursor, uint64_t upto,
                     shm3d_event_sh_t *out)
{
    return shm_evring_next(EVENT_RING(r), cursor, upto, out);
}

uint64_t shm3d_event_head(const shm3d_region_sh_t *r)
{
    return atomic_load_explicit(&r->events.head, memory_order_acquire);
}

#define RING_ARGS(q) &(q)->head, &(q)->tail, &(q)->dropped, (q)->slot, sizeof((q)->slot[0]), \
                     (uint32_t)(sizeof((q)->slot) / sizeof((q)->slot[0]))

int shm3d_cmd_push(shm3d_cmd_ring_sh_t *q, const shm3d_cmd_sh_t *c)
{
    return shm_spsc_push(RING_ARGS(q), c);
}

int shm3d_cmd_pop(shm3d_cmd_ring_sh_t *q, shm3d_cmd_sh_t *out)
{
    return shm_spsc_pop(RING_ARGS(q), out);
}

int shm3d_ctrl_push(shm3d_ctrl_ring_sh_t *q, const shm3d_cmd_sh_t *c)
{
    return shm_spsc_push(RING_ARGS(q), c);
}

int shm3d_ctrl_pop(shm3d_ctrl_ring_sh_t *q, shm3d_cmd_sh_t *out)
{
    return shm_spsc_pop(RING_ARGS(q), out);
}
