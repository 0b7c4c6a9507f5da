/* shm_ring.c -- the snapshot ring (seqlock per slot) and the event ring, for any region
 * layout: the 2D region's (shm_layout.h) wrappers are at the end, the 3D region's in
 * shm3d_ring.c. Writer of both: the sim only (one thread). Readers: the gateways, any
 * number, never blocking the writer: a reader that falls more than a ring behind is told
 * so (-1) and resynchronises, it is never waited for.
 *
 * Memory ordering, in one place (both rings use the same pattern):
 *   writer: mark slot unstable (seq odd / 0), release fence, write body, store the
 *           stable seq with release, then advance the shared counter with release;
 *   reader: load counter (acquire), load seq (acquire), copy body, acquire fence, load
 *           seq again; equal and stable => the copy is one writer's complete value.
 * The body copy races with a writer by design (the seq check discards it); this is the
 * classic seqlock (Boehm, "Can seqlocks get along with programming language memory
 * models?"), with the fences placed as that paper recommends.
 *
 * A slot of either ring starts with `_Atomic uint64_t seq`; its body (what readers and
 * the writer copy) is everything after it. A snapshot's body starts with `uint64_t step`,
 * the publish number. The layouts assert both (SHM_RING_BODY_OFF below). */
#include <string.h>

#include "shm.h"

/* A reader of the newest snapshot gives up after this many torn copies in a row. Each
 * retry needs the writer to lap the whole ring (K publishes) during one copy, so this
 * only matters if the reader is descheduled again and again. */
#define SNAP_READ_TRIES 1000

_Static_assert(offsetof(shm_snapshot_sh_t, seq) == 0
               && offsetof(shm_snapshot_sh_t, step) == SHM_RING_BODY_OFF, "snapshot slot");
_Static_assert(offsetof(shm_event_sh_t, seq) == 0
               && offsetof(shm_event_sh_t, kind) == SHM_RING_BODY_OFF, "event slot");

static inline char *slot_at(shm_seqring_t q, uint64_t i)
{
    return (char *)q.slots + (size_t)i * q.size;
}

static inline _Atomic uint64_t *slot_seq(const void *slot)
{
    return (_Atomic uint64_t *)slot;
}

/* Slot of publish number n (1-based). */
static inline uint64_t snap_slot(shm_seqring_t q, uint64_t n)
{
    return (n - 1) % q.n;
}

/* seq a slot holds once publish n is complete in it: every publish into a slot adds 2
 * (odd at begin, even at publish), and publish n is the ((n-1)/K + 1)-th into its slot. */
static inline uint64_t snap_seq_of(shm_seqring_t q, uint64_t n)
{
    return 2 * ((n - 1) / q.n + 1);
}

/* Inverse of snap_seq_of for a slot index and a stable (even, non-zero) seq. */
static inline uint64_t snap_number_of(shm_seqring_t q, uint64_t slot, uint64_t seq)
{
    return slot + 1 + (seq / 2 - 1) * q.n;
}

/* Writer: open the slot of the next publish (published + 1) for writing. Its seq
 * becomes odd, so readers of the publish it held K steps ago now fail instead of
 * copying a mix. The caller fills the slot, then calls shm_seqring_publish. */
void *shm_seqring_begin(shm_seqring_t q)
{
    /* published is only ever stored by this (the only) writer: relaxed is enough */
    uint64_t n = atomic_load_explicit(q.counter, memory_order_relaxed) + 1;
    char *s = slot_at(q, snap_slot(q, n));
    uint64_t seq = atomic_load_explicit(slot_seq(s), memory_order_relaxed);

    atomic_store_explicit(slot_seq(s), seq + 1, memory_order_relaxed);
    /* the odd seq must be visible before any of the body stores that follow */
    atomic_thread_fence(memory_order_release);
    return s;
}

/* Writer: close the slot opened by shm_seqring_begin and make it the newest.
 * step is set here to the publish number, whatever the caller stored: the layout defines
 * step as the 1-based publish number, and a reused slot still holds the step of K
 * publishes ago, so "fill it only if 0" would silently keep a stale value. */
void shm_seqring_publish(shm_seqring_t q, void *slot)
{
    uint64_t n = atomic_load_explicit(q.counter, memory_order_relaxed) + 1;
    uint64_t seq = atomic_load_explicit(slot_seq(slot), memory_order_relaxed);

    memcpy((char *)slot + SHM_RING_BODY_OFF, &n, sizeof n);
    /* release: a reader that sees the even seq also sees every body store above */
    atomic_store_explicit(slot_seq(slot), seq + 1, memory_order_release);
    /* release: a reader that sees published == n finds slot n complete (or newer) */
    atomic_store_explicit(q.counter, n, memory_order_release);
}

/* Copy the body of slot s if its seq is `want` before and after the copy. 0 or -1. */
static int slot_copy(shm_seqring_t q, const char *s, uint64_t want, void *out)
{
    uint64_t s1 = atomic_load_explicit(slot_seq(s), memory_order_acquire);

    if (s1 != want)
        return -1;
    memcpy((char *)out + SHM_RING_BODY_OFF, s + SHM_RING_BODY_OFF,
           q.size - SHM_RING_BODY_OFF);
    /* keep the body loads above before the second seq load below */
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(slot_seq(s), memory_order_relaxed) != s1)
        return -1;
    atomic_store_explicit(slot_seq(out), s1, memory_order_relaxed);
    return 0;
}

/* Reader: copy the newest complete snapshot. Returns its publish number, 0 if nothing
 * was published yet (or, in theory, after SNAP_READ_TRIES torn copies in a row). */
uint64_t shm_seqring_read_latest(shm_seqring_t q, void *out)
{
    for (int tries = 0; tries < SNAP_READ_TRIES; tries++) {
        uint64_t p = atomic_load_explicit(q.counter, memory_order_acquire);
        const char *s;
        uint64_t seq;

        if (p == 0)
            return 0;
        s = slot_at(q, snap_slot(q, p));
        seq = atomic_load_explicit(slot_seq(s), memory_order_relaxed);
        /* odd: the writer lapped us and is rewriting this slot; reload published */
        if ((seq & 1) != 0 || seq == 0)
            continue;
        if (slot_copy(q, s, seq, out) == 0)
            return snap_number_of(q, snap_slot(q, p), seq); /* p, or p + jK if lapped */
    }
    return 0;
}

/* Reader: copy publish number n. The slot's seq tells exactly which publish it holds
 * (snap_seq_of), so no retry is needed: n is either intact or gone for good.
 * 0 ok; -1 if n is 0, not yet published, or overwritten (reader more than K behind). */
int shm_seqring_read(shm_seqring_t q, uint64_t n, void *out)
{
    uint64_t p = atomic_load_explicit(q.counter, memory_order_acquire);

    if (n == 0 || n > p)
        return -1;
    if (p - n >= q.n)
        return -1; /* publish n + K (or later) has completed in that slot */
    /* p - n == K - 1: publish n + K may be under way; the seq check catches that */
    return slot_copy(q, slot_at(q, snap_slot(q, n)), snap_seq_of(q, n), out);
}

/* Reader (gateways): handle every snapshot published after *last in order, copying each
 * into snap and calling fn(ctx). More than max_behind behind (or a slot already
 * overwritten): jump to the newest and count one reset in *resets. Updates *last. */
void shm_seqring_follow(shm_seqring_t q, uint64_t *last, int max_behind, void *snap,
                        _Atomic uint64_t *resets, void (*fn)(void *ctx), void *ctx)
{
    uint64_t pub = atomic_load_explicit(q.counter, memory_order_acquire);
    uint64_t step;

    if (pub <= *last)
        return;
    uint64_t n = *last + 1;
    if (pub - *last > (uint64_t)max_behind) {
        atomic_fetch_add(resets, 1);
        n = pub;
    }
    for (; n <= pub; n++) {
        if (shm_seqring_read(q, n, snap) < 0) {
            atomic_fetch_add(resets, 1);
            if (shm_seqring_read_latest(q, snap) == 0)
                break;
            memcpy(&n, (const char *)snap + SHM_RING_BODY_OFF, sizeof n);
        }
        fn(ctx);
    }
    memcpy(&step, (const char *)snap + SHM_RING_BODY_OFF, sizeof step);
    *last = step > pub ? step : pub;
}

/* ---- events ------------------------------------------------------------------------ */

/* Writer (sim): append ev (its seq field is ignored) at position head, then advance
 * head. Returns the position, which readers pass to shm_evring_read. */
uint64_t shm_evring_push(shm_seqring_t q, const void *ev)
{
    uint64_t pos = atomic_load_explicit(q.counter, memory_order_relaxed);
    char *e = slot_at(q, pos & (q.n - 1));

    /* invalidate the event of position pos - SLOTS first: a reader copying it sees the
     * seq change and reports "overwritten" instead of returning a mix of two events */
    atomic_store_explicit(slot_seq(e), 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    memcpy(e + SHM_RING_BODY_OFF, (const char *)ev + SHM_RING_BODY_OFF,
           q.size - SHM_RING_BODY_OFF);
    /* seq last, with release: seq == pos + 1 implies the body above is complete */
    atomic_store_explicit(slot_seq(e), pos + 1, memory_order_release);
    atomic_store_explicit(q.counter, pos + 1, memory_order_release);
    return pos;
}

/* Reader: copy the event at position seq. 0 ok; 1 not written yet; -1 overwritten
 * (before or during the copy). */
int shm_evring_read(shm_seqring_t q, uint64_t seq, void *out)
{
    uint64_t head = atomic_load_explicit(q.counter, memory_order_acquire);

    if (seq >= head)
        return 1;
    if (head - seq > q.n)
        return -1; /* position seq + SLOTS is complete: ours is gone */
    /* the same check as a snapshot's: seq == pos + 1 before and after the copy */
    return slot_copy(q, slot_at(q, seq & (q.n - 1)), seq + 1, out);
}

/* Reader: the next event at *cursor before position upto, into out. 0: one (the cursor
 * moved past it); 1: none yet; -1: the cursor's event was overwritten (a reader more
 * than a ring behind): the cursor jumps to half a ring before the head, and the caller
 * counts a reset. */
int shm_evring_next(shm_seqring_t q, uint64_t *cursor, uint64_t upto, void *out)
{
    if (*cursor >= upto)
        return 1;
    int rc = shm_evring_read(q, *cursor, out);
    if (rc < 0) {
        uint64_t head = atomic_load_explicit(q.counter, memory_order_acquire);
        *cursor = head > q.n / 2 ? head - q.n / 2 : 0;
    } else if (rc == 0) {
        (*cursor)++;
    }
    return rc;
}

/* ---- the 2D region ------------------------------------------------------------------ */
#define SNAP_RING(r) ((shm_seqring_t){ (_Atomic uint64_t *)&(r)->hdr.published, \
                                       (void *)(r)->snap, sizeof((r)->snap[0]), SHM_SNAP_SLOTS })
#define EVENT_RING(r) ((shm_seqring_t){ (_Atomic uint64_t *)&(r)->events.head, \
                                        (void *)(r)->events.ev, sizeof((r)->events.ev[0]), \
                                        SHM_EVENT_SLOTS })

shm_snapshot_sh_t *shm_snap_begin(shm_region_sh_t *r)
{
    return shm_seqring_begin(SNAP_RING(r));
}

void shm_snap_publish(shm_region_sh_t *r, shm_snapshot_sh_t *s)
{
    shm_seqring_publish(SNAP_RING(r), s);
}

uint64_t shm_snap_read_latest(const shm_region_sh_t *r, shm_snapshot_sh_t *out)
{
    return shm_seqring_read_latest(SNAP_RING(r), out);
}

int shm_snap_read(const shm_region_sh_t *r, uint64_t n, shm_snapshot_sh_t *out)
{
    return shm_seqring_read(SNAP_RING(r), n, out);
}

void shm_snap_follow(const shm_region_sh_t *r, uint64_t *last, int max_behind,
                     shm_snapshot_sh_t *snap, _Atomic uint64_t *resets,
                     void (*fn)(void *ctx), void *ctx)
{
    shm_seqring_follow(SNAP_RING(r), last, max_behind, snap, resets, fn, ctx);
}

uint64_t shm_event_push(shm_region_sh_t *r, const shm_event_sh_t *ev)
{
    return shm_evring_push(EVENT_RING(r), ev);
}

void shm_event_put(shm_region_sh_t *r, uint64_t pos, const shm_event_sh_t *ev)
{
    char *e = (char *)&r->events.ev[pos & (SHM_EVENT_SLOTS - 1)];
    _Atomic uint64_t *seq = (_Atomic uint64_t *)e;
    atomic_store_explicit(seq, 0, memory_order_relaxed); /* as shm_evring_push */
    atomic_thread_fence(memory_order_release);
    memcpy(e + SHM_RING_BODY_OFF, (const char *)ev + SHM_RING_BODY_OFF,
           sizeof *ev - SHM_RING_BODY_OFF);
    atomic_store_explicit(seq, pos + 1, memory_order_release);
}

void shm_event_release(shm_region_sh_t *r, uint64_t head)
{
    atomic_store_explicit(&r->events.head, head, memory_order_release);
}

int shm_event_read(const shm_region_sh_t *r, uint64_t seq, shm_event_sh_t *out)
{
    return shm_evring_read(EVENT_RING(r), seq, out);
}

int shm_event_next(const shm_region_sh_t *r, uint64_t *cursor, uint64_t upto,
                   shm_event_sh_t *out)
{
    return shm_evring_next(EVENT_RING(r), cursor, upto, out);
}

/* Next position the writer will fill (= number of events ever pushed). */
uint64_t shm_event_head(const shm_region_sh_t *r)
{
    return atomic_load_explicit(&r->events.head, memory_order_acquire);
}

/* ---- the live world: one slot, the same seqlock (its seq odd while written) -------- */
shm_snapshot_sh_t *shm_live_begin(shm_region_sh_t *r)
{
    _Atomic uint64_t *seq = slot_seq(&r->live);
    atomic_store_explicit(seq, atomic_load_explicit(seq, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    return &r->live;
}

void shm_live_publish(shm_region_sh_t *r, shm_snapshot_sh_t *s)
{
    _Atomic uint64_t *seq = slot_seq(s);
    atomic_store_explicit(seq, atomic_load_explicit(seq, memory_order_relaxed) + 1,
                          memory_order_release);
    atomic_fetch_add_explicit(&r->hdr.live_pub, 1, memory_order_release);
}

int shm_live_read(const shm_region_sh_t *r, uint64_t *pub, shm_snapshot_sh_t *out)
{
    shm_seqring_t q = { (_Atomic uint64_t *)&r->hdr.live_pub, (void *)&r->live,
                        sizeof r->live, 1 };
    for (int tries = 0; tries < SNAP_READ_TRIES; tries++) {
        uint64_t p = atomic_load_explicit(&r->hdr.live_pub, memory_order_acquire);
        uint64_t seq = atomic_load_explicit(slot_seq(&r->live), memory_order_acquire);
        if (p == 0)
            return -1;
        if (seq & 1u)
            continue;
        if (slot_copy(q, (const char *)&r->live, seq, out) == 0
            && atomic_load_explicit(&r->hdr.live_pub, memory_order_acquire) == p) {
            *pub = p;
            return 0;
        }
    }
    return -1;
}
