/* test_queue.c -- SPSC command, control and monitor-request rings: FIFO order, a full
 * ring refuses and counts, clear, counter wrap-around, and a producer process pushing
 * 100000 numbered commands to a consumer process that must see them all, in order. */
#include <criterion/criterion.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm.h"

#define FORK_CMDS 100000u

static char name[SHM_NAME_LEN];
static shm_handle_t owner;

static void setup(void)
{
    static int counter;
    char err[SHM_ERR_LEN] = "";

    snprintf(name, sizeof name, "/rcss-test-queue-%d-%d", (int)getpid(), counter++);
    cr_assert_eq(shm_region_create(&owner, name, err, sizeof err), 0, "create: %s", err);
}

static void teardown(void)
{
    shm_region_destroy(&owner);
    shm_unlink(name);
}

TestSuite(queue, .init = setup, .fini = teardown, .timeout = 10);

/* Command number k: every field derived from k. */
static void cmd_fill(shm_cmd_sh_t *c, uint32_t k)
{
    memset(c, 0, sizeof *c);
    c->kind = (uint16_t)(k % SHM_CMD_SHUTDOWN + 1);
    c->i = (int32_t)k;
    c->flags = ~k;
    c->recv_time = k / 2;
    c->d[0] = k * 0.5;
    c->d[4] = -(double)k;
    c->len = (uint16_t)snprintf(c->text, sizeof c->text, "(dash %u)", k);
}

static int cmd_is(const shm_cmd_sh_t *c, uint32_t k)
{
    shm_cmd_sh_t want;

    cmd_fill(&want, k);
    return memcmp(c, &want, sizeof want) == 0;
}

Test(queue, cmd_fifo)
{
    shm_cmd_ring_sh_t *q = &owner.r->cmd[4];
    shm_cmd_sh_t c, out;

    cr_expect_eq(shm_cmd_pop(q, &out), -1, "empty");
    for (uint32_t k = 0; k < 10; k++) {
        cmd_fill(&c, k);
        cr_expect_eq(shm_cmd_push(q, &c), 0);
    }
    for (uint32_t k = 0; k < 10; k++) {
        cr_assert_eq(shm_cmd_pop(q, &out), 0);
        cr_expect(cmd_is(&out, k), "record %u", k);
    }
    cr_expect_eq(shm_cmd_pop(q, &out), -1);
    cr_expect_eq(q->dropped, 0u);
}

Test(queue, cmd_full_refuses_and_counts)
{
    shm_cmd_ring_sh_t *q = &owner.r->cmd[0];
    shm_cmd_sh_t c, out;

    for (uint32_t k = 0; k < SHM_CMD_SLOTS; k++) {
        cmd_fill(&c, k);
        cr_assert_eq(shm_cmd_push(q, &c), 0, "slot %u", k);
    }
    cmd_fill(&c, 999);
    cr_expect_eq(shm_cmd_push(q, &c), -1, "full");
    cr_expect_eq(shm_cmd_push(q, &c), -1, "still full");
    cr_expect_eq(q->dropped, 2u);
    /* one pop frees exactly one slot; the refused records never appear */
    cr_assert_eq(shm_cmd_pop(q, &out), 0);
    cr_expect(cmd_is(&out, 0));
    cmd_fill(&c, 1000);
    cr_expect_eq(shm_cmd_push(q, &c), 0);
    for (uint32_t k = 1; k < SHM_CMD_SLOTS; k++) {
        cr_assert_eq(shm_cmd_pop(q, &out), 0);
        cr_expect(cmd_is(&out, k));
    }
    cr_assert_eq(shm_cmd_pop(q, &out), 0);
    cr_expect(cmd_is(&out, 1000));
    cr_expect_eq(shm_cmd_pop(q, &out), -1);
}

/* head and tail are free-running uint32: crossing 2^32 must not change anything. */
Test(queue, counters_wrap)
{
    shm_cmd_ring_sh_t *q = &owner.r->cmd[1];
    shm_cmd_sh_t c, out;

    atomic_store(&q->head, UINT32_MAX - 2);
    atomic_store(&q->tail, UINT32_MAX - 2);
    for (uint32_t k = 0; k < SHM_CMD_SLOTS; k++) {
        cmd_fill(&c, k);
        cr_assert_eq(shm_cmd_push(q, &c), 0);
    }
    cr_expect_eq(shm_cmd_push(q, &c), -1, "full across the wrap");
    for (uint32_t k = 0; k < SHM_CMD_SLOTS; k++) {
        cr_assert_eq(shm_cmd_pop(q, &out), 0);
        cr_expect(cmd_is(&out, k));
    }
    cr_expect_eq(shm_cmd_pop(q, &out), -1);
}

Test(queue, ctrl_ring)
{
    shm_ctrl_ring_sh_t *q = &owner.r->monitorgw.ctrl;
    shm_cmd_sh_t c, out;

    for (uint32_t k = 0; k < SHM_CTRL_SLOTS; k++) {
        cmd_fill(&c, k);
        cr_assert_eq(shm_ctrl_push(q, &c), 0);
    }
    cr_expect_eq(shm_ctrl_push(q, &c), -1);
    cr_expect_eq(q->dropped, 1u);
    for (uint32_t k = 0; k < SHM_CTRL_SLOTS; k++) {
        cr_assert_eq(shm_ctrl_pop(q, &out), 0);
        cr_expect(cmd_is(&out, k));
    }
    cr_expect_eq(shm_ctrl_pop(q, &out), -1);
}

Test(queue, monreq_ring)
{
    shm_monreq_ring_sh_t *q = &owner.r->netgw[3].monreq;
    shm_monreq_sh_t m, out;

    for (uint32_t k = 0; k < SHM_MONREQ_SLOTS; k++) {
        memset(&m, 0, sizeof m);
        m.port = (uint16_t)(7000 + k);
        snprintf(m.text, sizeof m.text, "(dispinit version %u)", k);
        cr_assert_eq(shm_monreq_push(q, &m), 0);
    }
    cr_expect_eq(shm_monreq_push(q, &m), -1);
    cr_expect_eq(q->dropped, 1u);
    for (uint32_t k = 0; k < SHM_MONREQ_SLOTS; k++) {
        char want[sizeof m.text];
        cr_assert_eq(shm_monreq_pop(q, &out), 0);
        snprintf(want, sizeof want, "(dispinit version %u)", k);
        cr_expect_eq(out.port, 7000 + k);
        cr_expect_str_eq(out.text, want);
    }
    cr_expect_eq(shm_monreq_pop(q, &out), -1);
}

/* Producer process: attach by name and push FORK_CMDS numbered commands, retrying
 * (yielding) while the ring is full. */
static void producer(void)
{
    char err[SHM_ERR_LEN];
    shm_handle_t h;
    shm_cmd_sh_t c;

    if (shm_region_attach(&h, name, err, sizeof err) != 0)
        _exit(99);
    for (uint32_t k = 0; k < FORK_CMDS; k++) {
        cmd_fill(&c, k);
        while (shm_cmd_push(&h.r->cmd[7], &c) != 0)
            sched_yield();
    }
    shm_region_detach(&h);
    _exit(0);
}

Test(queue, spsc_across_fork)
{
    shm_cmd_ring_sh_t *q = &owner.r->cmd[7];
    shm_cmd_sh_t out;
    uint32_t k = 0, bad = 0;
    int st = 0;
    pid_t pid = fork();

    cr_assert_geq(pid, 0);
    if (pid == 0)
        producer();
    while (k < FORK_CMDS) {
        if (shm_cmd_pop(q, &out) != 0) {
            sched_yield();
            continue;
        }
        if (!cmd_is(&out, k) && bad++ == 0)
            cr_expect_fail("record %u arrived as i=%d", k, out.i);
        k++;
    }
    cr_expect_eq(bad, 0u);
    cr_expect_eq(shm_cmd_pop(q, &out), -1, "nothing beyond the last record");
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "producer status 0x%x", st);
}
