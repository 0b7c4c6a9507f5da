/* test_ring.c -- snapshot seqlock ring and event ring. Single-process tests pin the
 * overwrite rules exactly; fork tests run the writer and a reader in two processes and
 * check that every copy the reader accepts is whole: all fields are derived from the
 * step (or position), so a torn copy cannot pass the comparison. */
#include <criterion/criterion.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm.h"

#define FORK_SNAPS   20000
#define FORK_EVENTS  200000

static char name[SHM_NAME_LEN];
static shm_handle_t owner;

static void setup(void)
{
    static int counter;
    char err[SHM_ERR_LEN] = "";

    snprintf(name, sizeof name, "/rcss-test-ring-%d-%d", (int)getpid(), counter++);
    cr_assert_eq(shm_region_create(&owner, name, err, sizeof err), 0, "create: %s", err);
}

static void teardown(void)
{
    shm_region_destroy(&owner);
    shm_unlink(name);
}

TestSuite(ring, .init = setup, .fini = teardown, .timeout = 10);

/* ---- helpers ----------------------------------------------------------------------- */

#define SNAP_OFF offsetof(shm_snapshot_sh_t, step)
#define EV_OFF   offsetof(shm_event_sh_t, kind)

/* A snapshot whose every field is a function of step. */
static void snap_fill(shm_snapshot_sh_t *s, uint64_t step)
{
    memset(s, 0, sizeof *s);
    s->step = step;
    s->publish_ns = (int64_t)step * 1000;
    s->time = (int32_t)step;
    s->stoppage = (int32_t)(step % 7);
    s->play_mode = (int32_t)(step % 40);
    s->score[0] = (int32_t)(step / 3);
    s->score[1] = (int32_t)(step / 5);
    snprintf(s->team[0], SHM_TEAM_NAME_LEN, "L%llu", (unsigned long long)step);
    snprintf(s->team[1], SHM_TEAM_NAME_LEN, "R%llu", (unsigned long long)step);
    s->event_head = step * 3;
    s->ball.x = (double)step * 0.5;
    s->ball.vy = -(double)step;
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        shm_player_sh_t *p = &s->player[i];
        p->unum = (int8_t)(i % 11 + 1);
        p->type = (int32_t)(step + (uint64_t)i);
        p->x = (double)step + i;
        p->stamina = (double)step * 2 + i;
        for (int c = 0; c < SHM_CNT_N; c++)
            p->count[c] = (uint32_t)(step * 13 + (uint64_t)(i * SHM_CNT_N + c));
    }
}

/* 1 if every byte after seq is what snap_fill(step) gives. */
static int snap_whole(const shm_snapshot_sh_t *s, uint64_t step)
{
    static shm_snapshot_sh_t want;

    snap_fill(&want, step);
    return memcmp((const char *)s + SNAP_OFF, (const char *)&want + SNAP_OFF,
                  sizeof want - SNAP_OFF) == 0;
}

/* What the sim does: build the snapshot privately, copy it into the slot, publish.
 * slow: yield halfway through the copy, so a concurrent reader of that slot (the one
 * holding the oldest publish) is likely to overlap a half-written slot. */
static void snap_write(shm_region_sh_t *r, uint64_t step, int slow)
{
    static shm_snapshot_sh_t local;
    const size_t len = sizeof local - SNAP_OFF, half = len / 2;
    shm_snapshot_sh_t *slot;

    snap_fill(&local, step);
    slot = shm_snap_begin(r);
    memcpy((char *)slot + SNAP_OFF, (const char *)&local + SNAP_OFF, half);
    if (slow)
        sched_yield();
    memcpy((char *)slot + SNAP_OFF + half, (const char *)&local + SNAP_OFF + half, len - half);
    shm_snap_publish(r, slot);
}

/* An event whose every field is a function of its position. */
static void ev_fill(shm_event_sh_t *e, uint64_t pos)
{
    memset(e, 0, sizeof *e);
    e->kind = (int32_t)(pos % 8) + 1;
    e->time = (int32_t)pos;
    e->side = (int8_t)(pos % 2 ? 1 : -1);
    e->unum = (int8_t)(pos % 11 + 1);
    e->arg = (int32_t)~pos;
    e->x = (double)pos * 0.25;
    e->y = -(double)pos;
    for (int i = 0; i < SHM_EVENT_TEXT_LEN - 1; i++)
        e->text[i] = (char)('a' + (pos + (uint64_t)i) % 26);
    e->len = SHM_EVENT_TEXT_LEN - 1;
}

static int ev_whole(const shm_event_sh_t *e, uint64_t pos)
{
    shm_event_sh_t want;

    ev_fill(&want, pos);
    return memcmp((const char *)e + EV_OFF, (const char *)&want + EV_OFF,
                  sizeof want - EV_OFF) == 0;
}

/* Fork a reader that attaches by name, posts done_sem once attached, runs fn and exits
 * with its result. Returns the child's pid after it signalled readiness. */
static pid_t fork_reader(int (*fn)(shm_region_sh_t *))
{
    pid_t pid = fork();

    cr_assert_geq(pid, 0);
    if (pid == 0) {
        char err[SHM_ERR_LEN];
        shm_handle_t h;

        if (shm_region_attach(&h, name, err, sizeof err) != 0)
            _exit(99);
        shm_sem_post(&h.r->hdr.done_sem);
        _exit(fn(h.r));
    }
    cr_assert_eq(shm_sem_timedwait(&owner.r->hdr.done_sem, 5000), 0, "reader not ready");
    return pid;
}

static void expect_child_ok(pid_t pid)
{
    int st = 0;

    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st), "reader died (status 0x%x)", st);
    cr_expect_eq(WEXITSTATUS(st), 0, "reader failed with code %d", WEXITSTATUS(st));
}

/* ---- snapshots ---------------------------------------------------------------------- */

Test(ring, snap_empty)
{
    shm_snapshot_sh_t out;

    cr_expect_eq(shm_snap_read_latest(owner.r, &out), 0u);
    cr_expect_eq(shm_snap_read(owner.r, 0, &out), -1);
    cr_expect_eq(shm_snap_read(owner.r, 1, &out), -1);
}

Test(ring, snap_publish_and_read)
{
    static shm_snapshot_sh_t out;

    for (uint64_t n = 1; n <= 3; n++)
        snap_write(owner.r, n, 0);
    cr_expect_eq(atomic_load(&owner.r->hdr.published), 3u);
    cr_expect_eq(shm_snap_read_latest(owner.r, &out), 3u);
    cr_expect(snap_whole(&out, 3));
    cr_expect_eq(atomic_load(&out.seq) % 2, 0u, "stable seq copied");
    cr_expect_eq(shm_snap_read(owner.r, 2, &out), 0);
    cr_expect(snap_whole(&out, 2));
    cr_expect_eq(shm_snap_read(owner.r, 4, &out), -1, "not yet published");
}

Test(ring, snap_publish_sets_step)
{
    static shm_snapshot_sh_t out;
    shm_snapshot_sh_t *s;

    snap_write(owner.r, 1, 0);
    s = shm_snap_begin(owner.r);
    s->step = 12345; /* whatever the caller wrote: publish makes it the publish number */
    s->time = 77;
    shm_snap_publish(owner.r, s);
    cr_expect_eq(shm_snap_read_latest(owner.r, &out), 2u);
    cr_expect_eq(out.step, 2u);
    cr_expect_eq(out.time, 77);
}

/* the live world: nothing before its first publish, then the newest one, whole, with
 * the publish count it belongs to; a slot being written is refused */
Test(ring, live_publish_and_read)
{
    static shm_snapshot_sh_t out;
    uint64_t pub = 0;

    cr_expect_eq(shm_live_read(owner.r, &pub, &out), -1, "never published");
    for (uint64_t n = 1; n <= 3; n++) {
        static shm_snapshot_sh_t priv;
        snap_fill(&priv, 40 + n);
        shm_snapshot_sh_t *s = shm_live_begin(owner.r); /* the body only: seq is the lock's */
        memcpy((char *)s + SNAP_OFF, (const char *)&priv + SNAP_OFF, sizeof priv - SNAP_OFF);
        shm_live_publish(owner.r, s);
    }
    cr_expect_eq(shm_live_read(owner.r, &pub, &out), 0);
    cr_expect_eq(pub, 3u);
    cr_expect(snap_whole(&out, 43));
    cr_expect_eq(out.step, 43u, "the step it follows, as the writer gave it");
    (void)shm_live_begin(owner.r); /* odd: being written */
    cr_expect_eq(shm_live_read(owner.r, &pub, &out), -1);
}

Test(ring, snap_overwritten_slot_refused)
{
    static shm_snapshot_sh_t out;
    const uint64_t last = SHM_SNAP_SLOTS + 5;
    shm_snapshot_sh_t *s;

    for (uint64_t n = 1; n <= last; n++)
        snap_write(owner.r, n, 0);
    cr_expect_eq(shm_snap_read(owner.r, 1, &out), -1, "lapped");
    cr_expect_eq(shm_snap_read(owner.r, 5, &out), -1, "lapped");
    cr_expect_eq(shm_snap_read(owner.r, 6, &out), 0, "oldest kept");
    cr_expect(snap_whole(&out, 6));
    cr_expect_eq(shm_snap_read(owner.r, last, &out), 0);
    cr_expect(snap_whole(&out, last));

    /* writer opens the slot of 6 for publish last+1: 6 is gone at once, the newest
     * stays readable, and last+1 does not exist until published */
    s = shm_snap_begin(owner.r);
    cr_expect_eq(atomic_load(&s->seq) % 2, 1u, "odd while written");
    cr_expect_eq(shm_snap_read(owner.r, 6, &out), -1, "being overwritten");
    cr_expect_eq(shm_snap_read(owner.r, last + 1, &out), -1);
    cr_expect_eq(shm_snap_read_latest(owner.r, &out), last);
    cr_expect(snap_whole(&out, last));
    shm_snap_publish(owner.r, s);
    cr_expect_eq(shm_snap_read(owner.r, last + 1, &out), 0);
    cr_expect_eq(out.step, last + 1);
    cr_expect_eq(shm_snap_read(owner.r, 7, &out), 0);
}

/* Reader process: follow every publish with shm_snap_read, fall back to the newest when
 * lapped, and check each accepted copy. Each turn also reads the oldest kept publish,
 * the slot the writer overwrites next, where torn copies are most likely. Exit codes
 * name the failure. */
static int snap_reader(shm_region_sh_t *r)
{
    static shm_snapshot_sh_t out;
    uint64_t next = 1, last_latest = 0;

    while (next <= FORK_SNAPS) {
        uint64_t p = atomic_load(&r->hdr.published);
        uint64_t n;

        if (p >= SHM_SNAP_SLOTS && shm_snap_read(r, p - SHM_SNAP_SLOTS + 1, &out) == 0
            && (out.step != p - SHM_SNAP_SLOTS + 1 || !snap_whole(&out, out.step)))
            return 5; /* torn copy of the oldest slot accepted */
        n = shm_snap_read_latest(r, &out);

        if (n != 0) {
            if (out.step != n || !snap_whole(&out, n))
                return 1; /* torn or mislabelled newest copy */
            if (n < last_latest)
                return 2; /* went backwards */
            last_latest = n;
        }
        if (shm_snap_read(r, next, &out) == 0) {
            if (out.step != next || !snap_whole(&out, next))
                return 3; /* torn copy accepted */
            next++;
        } else if (atomic_load(&r->hdr.published) >= next + SHM_SNAP_SLOTS) {
            next = n > next ? n : next; /* lapped: jump to the newest */
        } else {
            sched_yield();
        }
    }
    return last_latest == 0 ? 4 : 0;
}

Test(ring, snap_across_fork)
{
    pid_t pid = fork_reader(snap_reader);

    for (uint64_t n = 1; n <= FORK_SNAPS; n++)
        snap_write(owner.r, n, 1);
    expect_child_ok(pid);
}

/* ---- events ------------------------------------------------------------------------- */

Test(ring, event_push_and_read)
{
    shm_event_sh_t ev, out;

    cr_expect_eq(shm_event_head(owner.r), 0u);
    cr_expect_eq(shm_event_read(owner.r, 0, &out), 1, "nothing yet");
    for (uint64_t pos = 0; pos < 3; pos++) {
        ev_fill(&ev, pos);
        cr_expect_eq(shm_event_push(owner.r, &ev), pos);
    }
    cr_expect_eq(shm_event_head(owner.r), 3u);
    cr_expect_eq(shm_event_read(owner.r, 1, &out), 0);
    cr_expect(ev_whole(&out, 1));
    cr_expect_eq(atomic_load(&out.seq), 2u, "seq = position + 1");
    cr_expect_eq(shm_event_read(owner.r, 3, &out), 1);
}

Test(ring, event_overwrite_detected)
{
    shm_event_sh_t ev, out;
    const uint64_t total = SHM_EVENT_SLOTS + 10;

    for (uint64_t pos = 0; pos < total; pos++) {
        ev_fill(&ev, pos);
        shm_event_push(owner.r, &ev);
    }
    cr_expect_eq(shm_event_read(owner.r, 0, &out), -1);
    cr_expect_eq(shm_event_read(owner.r, 9, &out), -1);
    cr_expect_eq(shm_event_read(owner.r, 10, &out), 0, "oldest kept");
    cr_expect(ev_whole(&out, 10));
    cr_expect_eq(shm_event_read(owner.r, total - 1, &out), 0);
    cr_expect(ev_whole(&out, total - 1));
    cr_expect_eq(shm_event_read(owner.r, total, &out), 1);

    /* a slot whose seq does not match (writer mid-overwrite) is refused */
    atomic_store(&owner.r->events.ev[10 & (SHM_EVENT_SLOTS - 1)].seq, 0);
    cr_expect_eq(shm_event_read(owner.r, 10, &out), -1);
}

/* Reader process: consume positions 0..FORK_EVENTS-1 in order; when lapped, skip to
 * head - SLOTS/2 as shm.h prescribes. Each turn also probes the oldest kept event. Every accepted event must be whole and the
 * positions strictly increasing. */
static int event_reader(shm_region_sh_t *r)
{
    shm_event_sh_t out;
    uint64_t pos = 0, got = 0;

    while (pos < FORK_EVENTS) {
        uint64_t head = shm_event_head(r);
        int rc;

        /* the oldest kept event is the next to be overwritten: probe it each turn */
        if (head >= SHM_EVENT_SLOTS && shm_event_read(r, head - SHM_EVENT_SLOTS, &out) == 0
            && !ev_whole(&out, head - SHM_EVENT_SLOTS))
            return 3; /* torn copy of the oldest event accepted */
        rc = shm_event_read(r, pos, &out);

        if (rc == 0) {
            if (!ev_whole(&out, pos) || atomic_load(&out.seq) != pos + 1)
                return 1;
            got++;
            pos++;
        } else if (rc < 0) {
            /* lapped (before or during the copy): head >= pos + SLOTS here */
            uint64_t to = shm_event_head(r) - SHM_EVENT_SLOTS / 2;
            if (to <= pos)
                to = pos + 1;
            pos = to;
        } else {
            sched_yield();
        }
    }
    return got == 0 ? 2 : 0;
}

Test(ring, events_across_fork)
{
    shm_event_sh_t ev;
    pid_t pid = fork_reader(event_reader);

    for (uint64_t pos = 0; pos < FORK_EVENTS; pos++) {
        ev_fill(&ev, pos);
        cr_assert_eq(shm_event_push(owner.r, &ev), pos);
    }
    expect_child_ok(pid);
}
