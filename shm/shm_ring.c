/* shm_ring.c -- the snapshot ring (seqlock per slot) and the event ring of the region.
 * Writer of both: sim only (one thread). Readers: netgw and monitorgw, any number, never
 * blocking the writer: a reader that falls more than a ring behind is told so (-1) and
 * resynchronises, it is never waited for.
 *
 * Memory ordering, in one place (both rings use the same pattern):
 *   writer: mark slot unstable (seq odd / 0), release fence, write body, store the
 *           stable seq with release, then advance the shared counter with release;
 *   reader: load counter (acquire), load seq (acquire), copy body, acquire fence, load
 *           seq again; equal and stable => the copy is one writer's complete value.
 * The body copy races with a writer by design (the seq check discards it); this is the
 * classic seqlock (Boehm, "Can seqlocks get along with programming language memory
 * models?"), with the fences placed as that paper recommends. */
#include <string.h>

#include "shm.h"

/* A reader of the newest snapshot gives up after this many torn copies in a row. Each
 * retry needs the writer to lap the whole ring (K publishes) during one copy, so this
 * only matters if the reader is descheduled again and again. */
#define SNAP_READ_TRIES 1000

/* Bytes of a snapshot after its seq field: what readers and writers copy. */
#define SNAP_BODY_OFF  offsetof(shm_snapshot_sh_t, step)
#define SNAP_BODY_LEN  (sizeof(shm_snapshot_sh_t) - SNAP_BODY_OFF)
#define EV_BODY_OFF    offsetof(shm_event_sh_t, kind)
#define EV_BODY_LEN    (sizeof(shm_event_sh_t) - EV_BODY_OFF)

/* Slot of publish number n (1-based). */
static inline uint64_t snap_slot(uint64_t n)
{
    return (n - 1) % SHM_SNAP_SLOTS;
}

/* seq a slot holds once publish n is complete in it: every publish into a slot adds 2
 * (odd at begin, even at publish), and publish n is the ((n-1)/K + 1)-th into its slot. */
static inline uint64_t snap_seq_of(uint64_t n)
{
    return 2 * ((n - 1) / SHM_SNAP_SLOTS + 1);
}

/* Inverse of snap_seq_of for a slot index and a stable (even, non-zero) seq. */
static inline uint64_t snap_number_of(uint64_t slot, uint64_t seq)
{
    return slot + 1 + (seq / 2 - 1) * SHM_SNAP_SLOTS;
}

/* Writer: open the slot of the next publish (hdr.published + 1) for writing. Its seq
 * becomes odd, so readers of the publish it held K steps ago now fail instead of
 * copying a mix. The caller fills the slot, then calls shm_snap_publish. */
shm_snapshot_sh_t *shm_snap_begin(shm_region_sh_t *r)
{
    /* published is only ever stored by this (the only) writer: relaxed is enough */
    uint64_t n = atomic_load_explicit(&r->hdr.published, memory_order_relaxed) + 1;
    shm_snapshot_sh_t *s = &r->snap[snap_slot(n)];
    uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

    atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
    /* the odd seq must be visible before any of the body stores that follow */
    atomic_thread_fence(memory_order_release);
    return s;
}

/* Writer: close the slot opened by shm_snap_begin and make it the newest.
 * step is set here to the publish number, whatever the caller stored: the layout defines
 * step as the 1-based publish number, and a reused slot still holds the step of K
 * publishes ago, so "fill it only if 0" would silently keep a stale value. */
void shm_snap_publish(shm_region_sh_t *r, shm_snapshot_sh_t *s)
{
    uint64_t n = atomic_load_explicit(&r->hdr.published, memory_order_relaxed) + 1;
    uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);

    s->step = n;
    /* release: a reader that sees the even seq also sees every body store above */
    atomic_store_explicit(&s->seq, seq + 1, memory_order_release);
    /* release: a reader that sees published == n finds slot n complete (or newer) */
    atomic_store_explicit(&r->hdr.published, n, memory_order_release);
}

/* Copy the body of slot s if its seq is `want` before and after the copy. 0 or -1. */
static int snap_copy(const shm_snapshot_sh_t *s, uint64_t want, shm_snapshot_sh_t *out)
{
    uint64_t s1 = atomic_load_explicit(&s->seq, memory_order_acquire);

    if (s1 != want)
        return -1;
    memcpy((char *)out + SNAP_BODY_OFF, (const char *)s + SNAP_BODY_OFF, SNAP_BODY_LEN);
    /* keep the body loads above before the second seq load below */
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&s->seq, memory_order_relaxed) != s1)
        return -1;
    atomic_store_explicit(&out->seq, s1, memory_order_relaxed);
    return 0;
}

/* Reader: copy the newest complete snapshot. Returns its publish number, 0 if nothing
 * was published yet (or, in theory, after SNAP_READ_TRIES torn copies in a row). */
uint64_t shm_snap_read_latest(const shm_region_sh_t *r, shm_snapshot_sh_t *out)
{
    for (int tries = 0; tries < SNAP_READ_TRIES; tries++) {
        uint64_t p = atomic_load_explicit(&r->hdr.published, memory_order_acquire);
        const shm_snapshot_sh_t *s;
        uint64_t seq;

        if (p == 0)
            return 0;
        s = &r->snap[snap_slot(p)];
        seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
        /* odd: the writer lapped us and is rewriting this slot; reload published */
        if ((seq & 1) != 0 || seq == 0)
            continue;
        if (snap_copy(s, seq, out) == 0)
            return snap_number_of(snap_slot(p), seq); /* p, or p + jK if lapped */
    }
    return 0;
}

/* Reader: copy publish number n. The slot's seq tells exactly which publish it holds
 * (snap_seq_of), so no retry is needed: n is either intact or gone for good.
 * 0 ok; -1 if n is 0, not yet published, or overwritten (reader more than K behind). */
int shm_snap_read(const shm_region_sh_t *r, uint64_t n, shm_snapshot_sh_t *out)
{
    uint64_t p = atomic_load_explicit(&r->hdr.published, memory_order_acquire);

    if (n == 0 || n > p)
        return -1;
    if (p - n >= SHM_SNAP_SLOTS)
        return -1; /* publish n + K (or later) has completed in that slot */
    /* p - n == K - 1: publish n + K may be under way; the seq check catches that */
    return snap_copy(&r->snap[snap_slot(n)], snap_seq_of(n), out);
}

/* ---- events ------------------------------------------------------------------------ */

/* Writer (sim): append ev (its seq field is ignored) at position head, then advance
 * head. Returns the position, which readers pass to shm_event_read. */
uint64_t shm_event_push(shm_region_sh_t *r, const shm_event_sh_t *ev)
{
    shm_event_ring_sh_t *q = &r->events;
    uint64_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
    shm_event_sh_t *e = &q->ev[pos & (SHM_EVENT_SLOTS - 1)];

    /* invalidate the event of position pos - SLOTS first: a reader copying it sees the
     * seq change and reports "overwritten" instead of returning a mix of two events */
    atomic_store_explicit(&e->seq, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    memcpy((char *)e + EV_BODY_OFF, (const char *)ev + EV_BODY_OFF, EV_BODY_LEN);
    /* seq last, with release: seq == pos + 1 implies the body above is complete */
    atomic_store_explicit(&e->seq, pos + 1, memory_order_release);
    atomic_store_explicit(&q->head, pos + 1, memory_order_release);
    return pos;
}

/* Reader: copy the event at position seq. 0 ok; 1 not written yet; -1 overwritten
 * (before or during the copy). */
int shm_event_read(const shm_region_sh_t *r, uint64_t seq, shm_event_sh_t *out)
{
    const shm_event_ring_sh_t *q = &r->events;
    uint64_t head = atomic_load_explicit(&q->head, memory_order_acquire);
    const shm_event_sh_t *e;
    uint64_t want = seq + 1;

    if (seq >= head)
        return 1;
    if (head - seq > SHM_EVENT_SLOTS)
        return -1; /* position seq + SLOTS is complete: ours is gone */
    e = &q->ev[seq & (SHM_EVENT_SLOTS - 1)];
    if (atomic_load_explicit(&e->seq, memory_order_acquire) != want)
        return -1;
    memcpy((char *)out + EV_BODY_OFF, (const char *)e + EV_BODY_OFF, EV_BODY_LEN);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&e->seq, memory_order_relaxed) != want)
        return -1; /* the writer started on position seq + SLOTS while we copied */
    atomic_store_explicit(&out->seq, want, memory_order_relaxed);
    return 0;
}

/* Next position the writer will fill (= number of events ever pushed). */
uint64_t shm_event_head(const shm_region_sh_t *r)
{
    return atomic_load_explicit(&r->events.head, memory_order_acquire);
}
