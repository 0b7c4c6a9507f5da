/* shm3d_ring.c -- the 3D region's snapshot ring (seqlock per slot), event ring and
 * command/control rings. The memory-ordering pattern is the 2D region's, explained at
 * the head of shm_ring.c: the writer marks a slot unstable, fences, writes the body,
 * stores the stable seq with release and advances the counter with release; a reader
 * loads counter and seq with acquire, copies, fences and checks seq again. The SPSC
 * rings are shm_queue.c's (shm_spsc_push/pop). */
#include <string.h>
#include "shm.h"
#include "shm3d.h"

#define S3_BODY_OFF  offsetof(shm3d_snapshot_sh_t, step)
#define S3_BODY_LEN  (sizeof(shm3d_snapshot_sh_t) - S3_BODY_OFF)
#define E3_BODY_OFF  offsetof(shm3d_event_sh_t, kind)
#define E3_BODY_LEN  (sizeof(shm3d_event_sh_t) - E3_BODY_OFF)
#define S3_READ_TRIES 1000

static inline uint64_t s3_slot(uint64_t n) { return (n - 1) % SHM3D_SNAP_SLOTS; }
/* seq of slot s3_slot(n) once publish n is complete there */
static inline uint64_t s3_seq_of(uint64_t n) { return 2 * ((n - 1) / SHM3D_SNAP_SLOTS + 1); }
static inline uint64_t s3_number_of(uint64_t slot, uint64_t seq)
{
    return slot + 1 + (seq / 2 - 1) * SHM3D_SNAP_SLOTS;
}

shm3d_snapshot_sh_t *shm3d_snap_begin(shm3d_region_sh_t *r)
{
    uint64_t n = atomic_load_explicit(&r->hdr.published, memory_order_relaxed) + 1;
    shm3d_snapshot_sh_t *s = &r->snap[s3_slot(n)];
    uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
    atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    return s;
}

void shm3d_snap_publish(shm3d_region_sh_t *r, shm3d_snapshot_sh_t *s)
{
    uint64_t n = atomic_load_explicit(&r->hdr.published, memory_order_relaxed) + 1;
    uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
    s->step = n;
    atomic_store_explicit(&s->seq, seq + 1, memory_order_release);
    atomic_store_explicit(&r->hdr.published, n, memory_order_release);
}

static int s3_copy(const shm3d_snapshot_sh_t *s, uint64_t want, shm3d_snapshot_sh_t *out)
{
    uint64_t s1 = atomic_load_explicit(&s->seq, memory_order_acquire);
    if (s1 != want)
        return -1;
    memcpy((char *)out + S3_BODY_OFF, (const char *)s + S3_BODY_OFF, S3_BODY_LEN);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&s->seq, memory_order_relaxed) != s1)
        return -1;
    atomic_store_explicit(&out->seq, s1, memory_order_relaxed);
    return 0;
}

uint64_t shm3d_snap_read_latest(const shm3d_region_sh_t *r, shm3d_snapshot_sh_t *out)
{
    for (int tries = 0; tries < S3_READ_TRIES; tries++) {
        uint64_t p = atomic_load_explicit(&r->hdr.published, memory_order_acquire);
        if (p == 0)
            return 0;
        const shm3d_snapshot_sh_t *s = &r->snap[s3_slot(p)];
        uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
        if ((seq & 1) != 0 || seq == 0)
            continue;
        if (s3_copy(s, seq, out) == 0)
            return s3_number_of(s3_slot(p), seq);
    }
    return 0;
}

int shm3d_snap_read(const shm3d_region_sh_t *r, uint64_t n, shm3d_snapshot_sh_t *out)
{
    uint64_t p = atomic_load_explicit(&r->hdr.published, memory_order_acquire);
    if (n == 0 || n > p || p - n >= SHM3D_SNAP_SLOTS)
        return -1;
    return s3_copy(&r->snap[s3_slot(n)], s3_seq_of(n), out);
}

void shm3d_snap_follow(const shm3d_region_sh_t *r, uint64_t *last, int max_behind,
                       shm3d_snapshot_sh_t *snap, _Atomic uint64_t *resets,
                       void (*fn)(void *ctx), void *ctx)
{
    uint64_t pub = atomic_load_explicit(&r->hdr.published, memory_order_acquire);
    if (pub <= *last)
        return;
    uint64_t n = *last + 1;
    if (pub - *last > (uint64_t)max_behind) {
        atomic_fetch_add(resets, 1);
        n = pub;
    }
    for (; n <= pub; n++) {
        if (shm3d_snap_read(r, n, snap) < 0) {
            atomic_fetch_add(resets, 1);
            if (shm3d_snap_read_latest(r, snap) == 0)
                break;
            n = snap->step;
        }
        fn(ctx);
    }
    *last = snap->step > pub ? snap->step : pub;
}

uint64_t shm3d_event_push(shm3d_region_sh_t *r, const shm3d_event_sh_t *ev)
{
    shm3d_event_ring_sh_t *q = &r->events;
    uint64_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
    shm3d_event_sh_t *e = &q->ev[pos & (SHM3D_EVENT_SLOTS - 1)];
    atomic_store_explicit(&e->seq, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    memcpy((char *)e + E3_BODY_OFF, (const char *)ev + E3_BODY_OFF, E3_BODY_LEN);
    atomic_store_explicit(&e->seq, pos + 1, memory_order_release);
    atomic_store_explicit(&q->head, pos + 1, memory_order_release);
    return pos;
}

int shm3d_event_read(const shm3d_region_sh_t *r, uint64_t seq, shm3d_event_sh_t *out)
{
    const shm3d_event_ring_sh_t *q = &r->events;
    uint64_t head = atomic_load_explicit(&q->head, memory_order_acquire);
    if (seq >= head)
        return 1;
    if (head - seq > SHM3D_EVENT_SLOTS)
        return -1;
    const shm3d_event_sh_t *e = &q->ev[seq & (SHM3D_EVENT_SLOTS - 1)];
    uint64_t want = seq + 1;
    if (atomic_load_explicit(&e->seq, memory_order_acquire) != want)
        return -1;
    memcpy((char *)out + E3_BODY_OFF, (const char *)e + E3_BODY_OFF, E3_BODY_LEN);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&e->seq, memory_order_relaxed) != want)
        return -1;
    atomic_store_explicit(&out->seq, want, memory_order_relaxed);
    return 0;
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
