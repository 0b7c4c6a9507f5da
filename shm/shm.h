/* shm.h -- operations on the shared region of shm_layout.h: create/attach/verify/unlink
 * (shm_region.c, over shm_map.c's mechanics of any layout), snapshot seqlock ring and event ring (shm_ring.c), single-producer /
 * single-consumer command, control and monitor-request rings (shm_queue.c), semaphores
 * and the robust client-table lock (shm_sem.c). Never logs: errors go to err buffers. */
#ifndef RCSS_SHM_H
#define RCSS_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "shm_layout.h"

#define SHM_ERR_LEN 256

/* ---- region (shm_region.c) ---- */
typedef struct shm_handle {
    shm_region_sh_t *r;        /* mapped region */
    size_t           size;
    char             name[SHM_NAME_LEN];
    int              owner;    /* 1 if this process created it (sim) */
    dev_t            dev;      /* the object mapped (to tell it from a newer one of the */
    ino_t            ino;      /* same name) */
    pid_t            reclaimed_pid; /* create: the dead sim whose region was replaced
                                       (-1 unknown), 0 if the name was free */
    int              sim_parent; /* attach: the sim is this process's parent (a spawned
                                    gateway: once it is not, the sim is gone) */
} shm_handle_t;

/* returned (instead of -1) when the name, a port or the region belongs to someone else:
 * a live server, another user (the sim then exits with status 2) */
#define SHM_CONFLICT (-2)

/* Default object name for a server on this player port: "/rcssserver-<port>". */
void shm_default_name(int port, char *buf, size_t len);

/* Create (or re-create, replacing a stale region of the same name) and zero the region,
 * initialise header, semaphores and the robust table lock. The caller holds the name's
 * instance lock (shm_lock_take). An object of the name that belongs to another user, or
 * whose sim is alive, is left alone: SHM_CONFLICT. 0, or -1 / SHM_CONFLICT with err. */
int shm_region_create(shm_handle_t *h, const char *name, char *err, size_t errlen);

/* Map an existing region; refuses with one line in err on a wrong magic, layout version,
 * size or parameter table ("shm /rcssserver-6000: layout version 2, expected 1"), and
 * (SHM_CONFLICT) an object of another user or readable by others. */
int shm_region_attach(shm_handle_t *h, const char *name, char *err, size_t errlen);

/* Check a mapped header (used by attach; exposed for tests). */
int shm_region_verify(const shm_region_sh_t *r, size_t mapped, const char *name,
                      char *err, size_t errlen);

void shm_region_detach(shm_handle_t *h);
/* Unmap and shm_unlink (sim only). */
void shm_region_destroy(shm_handle_t *h);

/* ---- POSIX shm objects of any layout (shm_map.c; the 3D region uses them too) ---- */
/* The fields every region header starts with, at these offsets (each layout asserts it). */
typedef struct shm_head {
    uint32_t magic;
    uint32_t layout_version;
    uint64_t region_size;
    uint32_t header_size;
    uint32_t params_hash;
} shm_head_t;
/* What a layout expects of a header it attaches to. */
typedef struct shm_expect {
    uint32_t    magic, version, params_hash;
    size_t      region_size, header_size;
    const char *magic_note;    /* after "bad magic 0x..." ("" or " (not a 3D region)") */
} shm_expect_t;
struct stat;
/* "/" and at least one more character, no further slash, shorter than maxlen. 0 or -1. */
int  shm_map_name_ok(const char *name, size_t maxlen, char *err, size_t errlen);
/* Create exclusively (mode 0600), size, map (reads as zeros). 0 with *p and st; -1 or
 * SHM_CONFLICT (the name exists) with err, nothing left behind. */
int  shm_map_create(const char *name, size_t size, void **p, struct stat *st, char *err,
                    size_t errlen);
/* Map an existing object of this user (shm_owner_ok) read-write at its size: 0 with *p,
 * *size, st (*p NULL if smaller than min: verify (NULL, *size) reports it); -1 or
 * SHM_CONFLICT with err. */
int  shm_map_attach(const char *name, size_t min, void **p, size_t *size, struct stat *st,
                    char *err, size_t errlen);
/* Mapping size, magic, version, recorded size, parameter hash: 0, or -1 with one line. */
int  shm_map_verify(const void *base, size_t mapped, const char *name, const shm_expect_t *want,
                    char *err, size_t errlen);
/* Process-shared semaphores of a region, value 0: 0, or -1 with err (none left). */
int  shm_sems_init(sem_t **sems, int n, const char *name, char *err, size_t errlen);
void shm_sems_destroy(sem_t **sems, int n);

/* ---- ownership and instance locks (shm_guard.c) ---- */
/* Take the instance lock KEY (an abstract unix socket name, released by the kernel when
 * the holder dies): its descriptor (close-on-exec; keep it open), or -1 (errno EADDRINUSE:
 * a live process holds it). _wait retries EADDRINUSE for up to wait_ms. */
int  shm_lock_take(const char *key);
int  shm_lock_take_wait(const char *key, int wait_ms);
/* The lock key of a region name ("shm:/rcssserver-6000"). */
void shm_lock_key_region(const char *name, char *key, size_t len);
/* Start time of a process (field 22 of /proc/PID/stat, clock ticks after boot); 0 if
 * there is no such process. */
uint64_t shm_pid_start(pid_t pid);
/* 1 if the sim named by a header (pid and start time) is still running. */
int  shm_sim_alive(const shm_header_sh_t *hd);
/* The same for a gateway that asks often: the first look opens a pidfd of the sim's
 * process (checked as above), the later ones poll it; shm_gateway_leave closes it. */
int  shm_sim_running(const shm_header_sh_t *hd);
/* 1 if process pid runs (not a zombie) and, if want_start is not 0, started then (field
 * 22 of /proc/PID/stat: a reused pid is not taken for it). */
int  shm_pid_running(pid_t pid, uint64_t want_start);
/* Before creating: is there an object of this name? 0 none; 1 a stale one (a dead sim's,
 * or garbage of our own user: *stale_pid its sim or -1), which may be replaced;
 * SHM_CONFLICT another user's, or a live sim's; -1 error. err has one line. */
int  shm_region_check_existing(const char *name, pid_t *stale_pid, char *err, size_t errlen);
/* An open object belongs to this user and nobody else may read it: 0, or SHM_CONFLICT. */
int  shm_owner_ok(int fd, const char *name, char *err, size_t errlen);
/* A gateway leaving: if its sim was killed (no clean shutdown), remove the region unless
 * a newer sim took the name over; then detach. Returns 1 if it removed the name. */
int  shm_gateway_leave(shm_handle_t *h);

/* ---- snapshots (shm_ring.c) ---- */
/* Writer: returns the slot for the next publish and marks it being written. */
shm_snapshot_sh_t *shm_snap_begin(shm_region_sh_t *r);
/* Writer: completes the slot from shm_snap_begin and makes it the newest. */
void shm_snap_publish(shm_region_sh_t *r, shm_snapshot_sh_t *s);
/* Reader: copy the newest complete snapshot into out. Returns its publish number
 * (hdr.published at the time), 0 if nothing was published yet. */
uint64_t shm_snap_read_latest(const shm_region_sh_t *r, shm_snapshot_sh_t *out);
/* Reader: copy snapshot number n (1-based publish number). 0 ok; -1 if it was already
 * overwritten (reader more than K behind: caller counts a reset and jumps to the newest),
 * or not yet published. */
int shm_snap_read(const shm_region_sh_t *r, uint64_t n, shm_snapshot_sh_t *out);
/* Gateways: handle every snapshot published after *last in order, copying each into snap
 * and calling fn(ctx). More than max_behind behind (or a slot already overwritten): jump
 * to the newest and count one reset in *resets. Updates *last. */
void shm_snap_follow(const shm_region_sh_t *r, uint64_t *last, int max_behind,
                     shm_snapshot_sh_t *snap, _Atomic uint64_t *resets,
                     void (*fn)(void *ctx), void *ctx);

/* ---- events (shm_ring.c) ---- */
/* Writer (sim): append one event; returns its sequence number. */
/* The live world (region `live`): what the sim applied between two steps (trainer,
 * online-coach and operator commands), published at once. Writer: the sim opens it
 * with shm_live_begin, fills every field (step = the step it follows, event_head =
 * the events released so far) and closes it with shm_live_publish, which bumps
 * hdr.live_pub. shm_live_read copies it if it is stable: 0, or -1 (being written, or
 * never published); *pub gets the live_pub the copy belongs to. */
shm_snapshot_sh_t *shm_live_begin(shm_region_sh_t *r);
void shm_live_publish(shm_region_sh_t *r, shm_snapshot_sh_t *s);
int  shm_live_read(const shm_region_sh_t *r, uint64_t *pub, shm_snapshot_sh_t *out);
uint64_t shm_event_push(shm_region_sh_t *r, const shm_event_sh_t *ev);
/* Reader: copy event seq into out. 0 ok; 1 not written yet; -1 overwritten (reader too
 * slow: skip to shm_event_head - SHM_EVENT_SLOTS/2 and count a reset). */
int shm_event_read(const shm_region_sh_t *r, uint64_t seq, shm_event_sh_t *out);
/* Writer that commits later (the sim, sim/sim_resume.c): write ev at position pos
 * without moving the head, which readers stop at; shm_event_release moves it. */
void shm_event_put(shm_region_sh_t *r, uint64_t pos, const shm_event_sh_t *ev);
void shm_event_release(shm_region_sh_t *r, uint64_t head);
/* Reader: the next event at *cursor before position upto. 0 one (cursor advanced); 1 none
 * yet; -1 lost (the cursor jumped to half a ring before the head: count a reset). */
int shm_event_next(const shm_region_sh_t *r, uint64_t *cursor, uint64_t upto,
                   shm_event_sh_t *out);
uint64_t shm_event_head(const shm_region_sh_t *r);

/* ---- the same two rings over any layout (shm_ring.c; the 3D region uses them) ---- */
/* Slots of size bytes, each starting with `_Atomic uint64_t seq`; the body after it (a
 * snapshot's starting with `uint64_t step`, its publish number) is what is copied. */
#define SHM_RING_BODY_OFF 8
typedef struct shm_seqring {
    _Atomic uint64_t *counter; /* snapshots: published; events: head */
    void             *slots;
    size_t            size;    /* bytes per slot */
    uint64_t          n;       /* slots (events: a power of two) */
} shm_seqring_t;
void    *shm_seqring_begin(shm_seqring_t q);
void     shm_seqring_publish(shm_seqring_t q, void *slot);
uint64_t shm_seqring_read_latest(shm_seqring_t q, void *out);
int      shm_seqring_read(shm_seqring_t q, uint64_t n, void *out);
void     shm_seqring_follow(shm_seqring_t q, uint64_t *last, int max_behind, void *snap,
                            _Atomic uint64_t *resets, void (*fn)(void *ctx), void *ctx);
uint64_t shm_evring_push(shm_seqring_t q, const void *ev);
int      shm_evring_read(shm_seqring_t q, uint64_t seq, void *out);
int      shm_evring_next(shm_seqring_t q, uint64_t *cursor, uint64_t upto, void *out);

/* ---- rings of shm_cmd_sh_t (shm_queue.c) ---- */
/* Producer: append; -1 (and dropped++) if full. */
int shm_cmd_push(shm_cmd_ring_sh_t *q, const shm_cmd_sh_t *c);
/* Consumer: pop into out; 0 ok, -1 empty. */
int shm_cmd_pop(shm_cmd_ring_sh_t *q, shm_cmd_sh_t *out);
/* Consumer that commits later (the sim): the record at *cursor (between the tail and
 * the head), the cursor advanced, the tail left alone: the caller stores the tail when it
 * commits what it did with the records. 0, or -1 if none. */
int shm_cmd_take(shm_cmd_ring_sh_t *q, uint32_t *cursor, shm_cmd_sh_t *out);
int shm_ctrl_take(shm_ctrl_ring_sh_t *q, uint32_t *cursor, shm_cmd_sh_t *out);
int shm_ctrl_push(shm_ctrl_ring_sh_t *q, const shm_cmd_sh_t *c);
int shm_ctrl_pop(shm_ctrl_ring_sh_t *q, shm_cmd_sh_t *out);
int shm_monreq_push(shm_monreq_ring_sh_t *q, const shm_monreq_sh_t *m);
int shm_monreq_pop(shm_monreq_ring_sh_t *q, shm_monreq_sh_t *out);

/* The same single-producer / single-consumer rings over any layout's head, tail,
 * dropped and n slots (a power of two) of size bytes (the 3D region uses them). */
int shm_spsc_push(_Atomic uint32_t *head, _Atomic uint32_t *tail, uint32_t *dropped,
                  void *slots, size_t size, uint32_t n, const void *rec);
int shm_spsc_pop(_Atomic uint32_t *head, _Atomic uint32_t *tail, uint32_t *dropped,
                 void *slots, size_t size, uint32_t n, void *out);

/* ---- texts in parts (shm_text.c) ---- */
/* Producer: push text as SHM_CMD_CONT records and then *last (kind and fields as given)
 * carrying the final part. All or nothing: -1 and nothing pushed if the ring lacks room
 * or the text exceeds SHM_TEXT_MAX. */
int shm_cmd_push_text(shm_cmd_ring_sh_t *q, const shm_cmd_sh_t *last, const char *text,
                      size_t len);
/* Free slots of a command ring (producer side). */
uint32_t shm_cmd_free(const shm_cmd_ring_sh_t *q);

/* Consumer: assembles the parts of one text. Feed every part in order (cont = 1 for a
 * CONT record/event); returns 1 when the non-CONT part completed the text (buf, len,
 * NUL-terminated; overflow set if parts were cut), 0 after a CONT part. */
typedef struct shm_text {
    size_t len;
    int    overflow;
    int    complete;
    char   buf[SHM_TEXT_MAX + 1];
} shm_text_t;
int shm_text_feed(shm_text_t *t, int cont, const char *part, size_t len);

/* ---- semaphores and lock (shm_sem.c) ---- */
/* Post a semaphore (never blocks). */
void shm_sem_post(sem_t *s);
/* Wait up to timeout_ms (EINTR retried). 0 taken, 1 timed out, -1 error. */
int shm_sem_timedwait(sem_t *s, int timeout_ms);
/* Wait until the absolute CLOCK_MONOTONIC time t_ns at most (EINTR retried): the
 * sim's clock, which a wall-clock step must not move. 0 taken, 1 timed out, -1 error. */
int shm_sem_wait_until(sem_t *s, int64_t t_ns);
/* Take every pending post without waiting; returns how many. */
int shm_sem_drain(sem_t *s);
/* Synch mode: 1 if every client the sim waits for (ACTIVE players not sent off, coaches
 * with the eye on) has done_step >= step; *active (may be NULL) their count. */
int  shm_synch_all_done(const shm_region_sh_t *r, uint64_t step, int *active);
/* The first client the sim waits for that is not done with step (-1: none); *active as
 * above. shm_synch_waits_for: does the sim wait for client i at all. */
int  shm_synch_first_late(const shm_region_sh_t *r, uint64_t step, int *active);
int  shm_synch_waits_for(const shm_region_sh_t *r, int i);
/* Client idx's (done) for the newest step: stored, and hdr.done_sem posted if that was
 * the last one the sim waited for (it re-checks every 10 ms regardless). *hint: the
 * caller's memory of a client still to answer (-1 at first), saves scanning the table. */
void shm_synch_done(shm_region_sh_t *r, int idx, int *hint);
/* Client-table lock: robust process-shared mutex. A lock whose owner died is recovered
 * (the table is consistent at every store, so recovery needs no repair). 0 or -1. */
int shm_table_lock(shm_region_sh_t *r);
void shm_table_unlock(shm_region_sh_t *r);

/* Nanoseconds of CLOCK_MONOTONIC. */
int64_t shm_now_ns(void);

#endif
