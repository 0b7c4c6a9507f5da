/* test_sem.c -- region semaphores (post / timed wait / drain, across processes) and the
 * robust client-table lock: a process that dies holding it must not block the others,
 * and the owner field must follow the holder. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm.h"

static char name[SHM_NAME_LEN];
static shm_handle_t owner;

static void setup(void)
{
    static int counter;
    char err[SHM_ERR_LEN] = "";

    snprintf(name, sizeof name, "/rcss-test-sem-%d-%d", (int)getpid(), counter++);
    cr_assert_eq(shm_region_create(&owner, name, err, sizeof err), 0, "create: %s", err);
}

static void teardown(void)
{
    shm_region_destroy(&owner);
    shm_unlink(name);
}

TestSuite(sem, .init = setup, .fini = teardown, .timeout = 10);

static void expect_child_ok(pid_t pid)
{
    int st = 0;

    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status 0x%x", st);
}

Test(sem, timedwait_times_out)
{
    sem_t *s = &owner.r->netgw[0].cycle_sem;

    cr_expect_eq(shm_sem_timedwait(s, 20), 1);
    cr_expect_eq(shm_sem_timedwait(s, 0), 1, "0 ms: only a pending post");
    cr_expect_eq(shm_sem_timedwait(s, -5), 1);
    shm_sem_post(s);
    cr_expect_eq(shm_sem_timedwait(s, 0), 0, "pending post taken at once");
}

/* The child posts cycle_sem three times then waits for one done_sem; the parent takes
 * the three posts, answers, and finds nothing more. */
Test(sem, post_and_wait_across_fork)
{
    shm_region_sh_t *r = owner.r;
    pid_t pid = fork();

    cr_assert_geq(pid, 0);
    if (pid == 0) {
        char err[SHM_ERR_LEN];
        shm_handle_t h;

        if (shm_region_attach(&h, name, err, sizeof err) != 0)
            _exit(99);
        for (int i = 0; i < 3; i++)
            shm_sem_post(&h.r->monitorgw.cycle_sem);
        _exit(shm_sem_timedwait(&h.r->hdr.done_sem, 5000) == 0 ? 0 : 1);
    }
    for (int i = 0; i < 3; i++)
        cr_expect_eq(shm_sem_timedwait(&r->monitorgw.cycle_sem, 5000), 0, "post %d", i);
    shm_sem_post(&r->hdr.done_sem);
    expect_child_ok(pid);
    cr_expect_eq(shm_sem_timedwait(&r->monitorgw.cycle_sem, 10), 1, "no fourth post");
}

Test(sem, drain_counts)
{
    sem_t *s = &owner.r->netgw[15].cycle_sem;

    cr_expect_eq(shm_sem_drain(s), 0);
    for (int i = 0; i < 5; i++)
        shm_sem_post(s);
    cr_expect_eq(shm_sem_drain(s), 5);
    cr_expect_eq(shm_sem_drain(s), 0);
    cr_expect_eq(shm_sem_timedwait(s, 0), 1);
}

Test(sem, table_lock_records_owner)
{
    shm_region_sh_t *r = owner.r;

    cr_assert_eq(shm_table_lock(r), 0);
    cr_expect_eq(atomic_load(&r->hdr.table_lock_owner), (int32_t)getpid());
    shm_table_unlock(r);
    cr_expect_eq(atomic_load(&r->hdr.table_lock_owner), 0);
}

/* A child takes the lock and exits without unlocking (a crashed gateway). The parent
 * must still get it (EOWNERDEAD recovered), become the recorded owner, and the lock
 * must keep working normally afterwards, also for another process. */
Test(sem, robust_lock_survives_dead_holder)
{
    shm_region_sh_t *r = owner.r;
    pid_t pid = fork();

    cr_assert_geq(pid, 0);
    if (pid == 0) {
        char err[SHM_ERR_LEN];
        shm_handle_t h;

        if (shm_region_attach(&h, name, err, sizeof err) != 0)
            _exit(99);
        _exit(shm_table_lock(h.r) == 0 ? 0 : 1); /* dies holding it */
    }
    expect_child_ok(pid);
    cr_expect_eq(atomic_load(&r->hdr.table_lock_owner), (int32_t)pid, "dead holder recorded");

    cr_assert_eq(shm_table_lock(r), 0, "recovered from the dead holder");
    cr_expect_eq(atomic_load(&r->hdr.table_lock_owner), (int32_t)getpid());
    shm_table_unlock(r);
    cr_expect_eq(atomic_load(&r->hdr.table_lock_owner), 0);

    /* consistent again: a plain lock/unlock cycle in another process works */
    pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        char err[SHM_ERR_LEN];
        shm_handle_t h;

        if (shm_region_attach(&h, name, err, sizeof err) != 0)
            _exit(99);
        if (shm_table_lock(h.r) != 0)
            _exit(1);
        shm_table_unlock(h.r);
        _exit(0);
    }
    expect_child_ok(pid);
    cr_expect_eq(shm_table_lock(r), 0);
    shm_table_unlock(r);
}

Test(sem, now_is_monotonic)
{
    int64_t a = shm_now_ns();
    int64_t b = shm_now_ns();

    cr_expect_gt(a, 0);
    cr_expect_geq(b, a);
}

/* synch mode: a (done) wakes the sim only when it completes the wait: players 0-2
 * active, player 3 active but sent off (disabled, red card: not waited for), the
 * trainer without the eye (not waited for), then with it (waited for) */
Test(sem, synch_done_posts_once_per_cycle)
{
    shm_region_sh_t *r = owner.r;
    atomic_store(&r->hdr.published, 5);
    for (int i = 0; i < 4; i++)
        atomic_store(&r->client[i].state, CLIENT_ST_ACTIVE);
    r->snap[4].player[3].card = 2; /* snapshots 5 and 6 are slots 4 and 5 */
    r->snap[5].player[3].card = 2;
    atomic_store(&r->client[SHM_COACH_TRAINER].state, CLIENT_ST_ACTIVE);
    int hint = -1, v = -1;
    shm_synch_done(r, 1, &hint);
    cr_expect_eq(hint, 0, "client 0 is still to answer");
    shm_synch_done(r, 0, &hint);
    sem_getvalue(&r->hdr.done_sem, &v);
    cr_expect_eq(v, 0, "client 2 is still to answer: no post");
    cr_expect_eq(hint, 2);
    shm_synch_done(r, 2, &hint);
    sem_getvalue(&r->hdr.done_sem, &v);
    cr_expect_eq(v, 1, "the last one posts, once");
    cr_expect_eq(hint, -1);
    cr_expect_eq(shm_synch_all_done(r, 5, &v), 1);
    cr_expect_eq(v, 3, "three clients waited for");

    atomic_store(&r->hdr.published, 6); /* next cycle: the trainer has the eye on */
    r->client[SHM_COACH_TRAINER].eye_on = 1;
    for (int i = 0; i < 3; i++)
        shm_synch_done(r, i, &hint);
    sem_getvalue(&r->hdr.done_sem, &v);
    cr_expect_eq(v, 1, "the trainer is still to answer");
    cr_expect_eq(hint, SHM_COACH_TRAINER);
    shm_synch_done(r, SHM_COACH_TRAINER, &hint);
    sem_getvalue(&r->hdr.done_sem, &v);
    cr_expect_eq(v, 2);
}

/* a stale hint (the client left) does not stop the post */
Test(sem, synch_done_stale_hint)
{
    shm_region_sh_t *r = owner.r;
    atomic_store(&r->hdr.published, 9);
    atomic_store(&r->client[0].state, CLIENT_ST_ACTIVE);
    int hint = 5, v = -1; /* client 5 is not active */
    shm_synch_done(r, 0, &hint);
    sem_getvalue(&r->hdr.done_sem, &v);
    cr_expect_eq(v, 1);
}
