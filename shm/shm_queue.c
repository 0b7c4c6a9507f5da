/* shm_queue.c -- single-producer / single-consumer rings of the region: per-client
 * command rings (netgw -> sim), control rings (monitorgw / trainer -> sim) and monitor
 * request rings (netgw -> monitorgw). Lock-free; a full ring refuses and counts.
 *
 * head and tail are free-running 32-bit counters (index = counter & (SLOTS-1), SLOTS a
 * power of two, so wrap-around of the counters is harmless: head - tail is the fill).
 * Producer: owns head and dropped; reads tail (acquire) to see freed slots, writes the
 * slot, then publishes it with head (release).
 * Consumer: owns tail; reads head (acquire) to see filled slots, copies the slot, then
 * frees it with tail (release), so the producer cannot overwrite it during the copy. */
#include <string.h>

#include "shm.h"

/* The three ring types share head/tail/dropped; only slot type and count differ. */
typedef struct spsc_view {
    _Atomic uint32_t *head;
    _Atomic uint32_t *tail;
    uint32_t         *dropped;
    void             *slots;
    size_t            size;     /* bytes per slot */
    uint32_t          n;        /* slots, power of two */
} spsc_view_t;

#define SPSC_VIEW(q) \
    ((spsc_view_t){ &(q)->head, &(q)->tail, &(q)->dropped, (q)->slot, \
                    sizeof((q)->slot[0]), (uint32_t)(sizeof((q)->slot) / sizeof((q)->slot[0])) })

/* Producer: copy rec into the next free slot. 0, or -1 (dropped++) if full. */
static int spsc_push(spsc_view_t v, const void *rec)
{
    /* head is ours: relaxed; tail is the consumer's: acquire, so its copy-out of the
     * slot we are about to reuse happened before our write below */
    uint32_t h = atomic_load_explicit(v.head, memory_order_relaxed);
    uint32_t t = atomic_load_explicit(v.tail, memory_order_acquire);

    if (h - t >= v.n) {
        (*v.dropped)++; /* producer-only field: no atomics needed */
        return -1;
    }
    memcpy((char *)v.slots + (size_t)(h & (v.n - 1)) * v.size, rec, v.size);
    /* release: the consumer that sees the new head also sees the record */
    atomic_store_explicit(v.head, h + 1, memory_order_release);
    return 0;
}

/* Consumer: copy the oldest record out. 0, or -1 if empty. */
static int spsc_pop(spsc_view_t v, void *out)
{
    uint32_t t = atomic_load_explicit(v.tail, memory_order_relaxed);
    uint32_t h = atomic_load_explicit(v.head, memory_order_acquire);

    if (h == t)
        return -1;
    if (h - t > v.n) {
        /* impossible with a well-behaved producer; a corrupt head must not make us read
         * garbage forever: resynchronise to empty */
        atomic_store_explicit(v.tail, h, memory_order_release);
        return -1;
    }
    memcpy(out, (const char *)v.slots + (size_t)(t & (v.n - 1)) * v.size, v.size);
    /* release: our copy is done before the producer may reuse the slot */
    atomic_store_explicit(v.tail, t + 1, memory_order_release);
    return 0;
}

/* Consumer that commits later: copy the record at *cursor (from tail up to head) and
 * advance the cursor only; the tail, which frees the slot, is stored by the caller at
 * its commit (the sim: a sim that dies before committing leaves the records to its
 * successor). 0, or -1 if nothing is there. */
static int spsc_take(spsc_view_t v, uint32_t *cursor, void *out)
{
    uint32_t t = atomic_load_explicit(v.tail, memory_order_relaxed);
    uint32_t h = atomic_load_explicit(v.head, memory_order_acquire);
    uint32_t c = *cursor;

    if (c - t > h - t || h - t > v.n) /* a cursor outside [tail, head]: start at tail */
        c = t;
    if (c == h || h - t > v.n)
        return -1;
    memcpy(out, (const char *)v.slots + (size_t)(c & (v.n - 1)) * v.size, v.size);
    *cursor = c + 1;
    return 0;
}

int shm_cmd_take(shm_cmd_ring_sh_t *q, uint32_t *cursor, shm_cmd_sh_t *out)
{
    return spsc_take(SPSC_VIEW(q), cursor, out);
}

int shm_ctrl_take(shm_ctrl_ring_sh_t *q, uint32_t *cursor, shm_cmd_sh_t *out)
{
    return spsc_take(SPSC_VIEW(q), cursor, out);
}

/* Per-client command ring: producer = the netgw serving the client, consumer = sim.
 * 0 or -1 (full, counted in dropped). */
int shm_cmd_push(shm_cmd_ring_sh_t *q, const shm_cmd_sh_t *c)
{
    return spsc_push(SPSC_VIEW(q), c);
}

/* Consumer (sim): 0 with the oldest command in out, -1 if empty. */
int shm_cmd_pop(shm_cmd_ring_sh_t *q, shm_cmd_sh_t *out)
{
    return spsc_pop(SPSC_VIEW(q), out);
}

/* Control ring of one producer process (trainer via netgw, monitors via monitorgw). */
int shm_ctrl_push(shm_ctrl_ring_sh_t *q, const shm_cmd_sh_t *c)
{
    return spsc_push(SPSC_VIEW(q), c);
}

int shm_ctrl_pop(shm_ctrl_ring_sh_t *q, shm_cmd_sh_t *out)
{
    return spsc_pop(SPSC_VIEW(q), out);
}

/* Monitor hand-over ring: a netgw passes a (dispinit) it received to monitorgw. */
int shm_monreq_push(shm_monreq_ring_sh_t *q, const shm_monreq_sh_t *m)
{
    return spsc_push(SPSC_VIEW(q), m);
}

int shm_monreq_pop(shm_monreq_ring_sh_t *q, shm_monreq_sh_t *out)
{
    return spsc_pop(SPSC_VIEW(q), out);
}

/* The same rings for other layouts (the 3D region, shm3d_layout.h): any struct with
 * head, tail and dropped as above and n slots of size bytes. */
int shm_spsc_push(_Atomic uint32_t *head, _Atomic uint32_t *tail, uint32_t *dropped,
                  void *slots, size_t size, uint32_t n, const void *rec)
{
    return spsc_push((spsc_view_t){ head, tail, dropped, slots, size, n }, rec);
}

int shm_spsc_pop(_Atomic uint32_t *head, _Atomic uint32_t *tail, uint32_t *dropped,
                 void *slots, size_t size, uint32_t n, void *out)
{
    return spsc_pop((spsc_view_t){ head, tail, dropped, slots, size, n }, out);
}
