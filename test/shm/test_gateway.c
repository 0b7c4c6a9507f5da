/* test_gateway.c -- the helpers every gateway uses: waiting for a ready region, the
 * semaphore-to-eventfd waker (posted from another process), following the published
 * snapshots in order with the catch-up rule, and noticing a dead sim. */
#include <criterion/criterion.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm_gateway.h"

static char name[SHM_NAME_LEN];
static shm_handle_t owner;

static void setup(void)
{
    static int counter;
    char err[SHM_ERR_LEN] = "";
    snprintf(name, sizeof name, "/rcss-test-gw-%d-%d", (int)getpid(), counter++);
    cr_assert_eq(shm_region_create(&owner, name, err, sizeof err), 0, "create: %s", err);
    owner.r->hdr.sim_pid = (int32_t)getpid();
}

static void teardown(void)
{
    shm_region_destroy(&owner);
    shm_unlink(name);
}

TestSuite(gateway, .init = setup, .fini = teardown, .timeout = 10);

static void publish(int n)
{
    for (int i = 0; i < n; i++) {
        shm_snapshot_sh_t *s = shm_snap_begin(owner.r);
        s->step = atomic_load(&owner.r->hdr.published) + 1;
        s->time = (int32_t)s->step * 10;
        shm_snap_publish(owner.r, s);
    }
}

Test(gateway, attach_waits_for_ready)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    cr_expect_eq(shm_gateway_attach(&h, name, 100, 0, err, sizeof err), -1, "not ready yet");
    cr_expect(strstr(err, "never marked the region ready") != NULL, "%s", err);
    cr_expect_eq(shm_gateway_attach(&h, "/rcss-test-gw-none", 100, 0, err, sizeof err), -1);
    cr_expect_neq(err[0], '\0', "a missing region is one line");
    pid_t pid = fork();
    if (pid == 0) { /* the sim finishes its set-up 200 ms later */
        usleep(200000);
        atomic_store(&owner.r->hdr.ready, 1);
        _exit(0);
    }
    cr_expect_eq(shm_gateway_attach(&h, name, 2000, 0, err, sizeof err), 0, "%s", err);
    waitpid(pid, NULL, 0);
    shm_region_detach(&h);
}

Test(gateway, conf_is_the_sims)
{
    conf_t c;
    owner.r->params.num[SP_port] = 6123;
    strcpy(owner.r->params.str[SP_bind_address], "127.0.0.1");
    shm_gateway_conf(owner.r, &c);
    cr_expect_eq(conf_int(&c, SP_port), 6123);
    cr_expect_str_eq(conf_str(&c, SP_bind_address), "127.0.0.1");
}

/* the way without a wake socket: a thread turns the semaphore's posts into reads */
Test(gateway, waker_thread_turns_posts_from_another_process_into_reads)
{
    shm_waker_t w;
    setenv("RCSS_WAKE_THREAD", "1", 1);
    shm_sem_post(&owner.r->netgw[0].cycle_sem); /* stale: drained at start */
    cr_assert_eq(shm_waker_start(&w, owner.r, 0), 0);
    cr_expect_eq(w.sock, 0);
    struct pollfd p = { .fd = w.fd, .events = POLLIN };
    cr_expect_eq(poll(&p, 1, 200), 0, "no wake-up without a post");
    pid_t pid = fork();
    if (pid == 0) {
        shm_sem_post(&owner.r->netgw[0].cycle_sem);
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    cr_expect_eq(poll(&p, 1, 1000), 1, "woken by the other process's post");
    shm_waker_clear(&w);
    cr_expect_eq(poll(&p, 1, 0), 0, "cleared");
    atomic_store(&owner.r->hdr.shutdown, 1);
    cr_expect_eq(poll(&p, 1, 1000), 1, "shutdown wakes the loop too");
    shm_waker_stop(&w);
    cr_expect_eq(w.fd, -1);
}

/* the usual way: the loop watches its wake socket; shm_wake_send from another process
 * (the sim) makes it readable, with no thread in between; the semaphore is posted too
 * and taken by the clear, so posts do not pile up */
Test(gateway, wake_socket_wakes_the_loop_directly)
{
    shm_waker_t w, w2;
    unsetenv("RCSS_WAKE_THREAD");
    cr_assert_eq(shm_waker_start(&w, owner.r, SHM_WAKE_MGW), 0);
    cr_expect_eq(w.sock, 1, "the slot's name was free");
    cr_expect_eq(w.started, 0, "no thread");
    cr_assert_eq(shm_waker_start(&w2, owner.r, SHM_WAKE_MGW), 0);
    cr_expect_eq(w2.sock, 0, "a name already bound: the thread instead");
    shm_waker_stop(&w2);
    struct pollfd p = { .fd = w.fd, .events = POLLIN };
    cr_expect_eq(poll(&p, 1, 100), 0, "no wake-up without a send");
    pid_t pid = fork();
    if (pid == 0) {
        shm_wake_t k;
        if (shm_wake_open(&k, owner.r) < 0)
            _exit(1);
        for (int i = 0; i < 40; i++) /* more than a socket queue holds: never blocks */
            shm_wake_send(&k, SHM_WAKE_MGW);
        shm_wake_send(&k, 3); /* nobody there: nothing happens */
        shm_wake_close(&k);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    cr_expect_eq(poll(&p, 1, 1000), 1, "woken by the other process");
    int sval = 0;
    sem_getvalue(&owner.r->monitorgw.cycle_sem, &sval);
    cr_expect_eq(sval, 40, "the semaphore was posted too");
    shm_waker_clear(&w);
    cr_expect_eq(poll(&p, 1, 0), 0, "cleared");
    sem_getvalue(&owner.r->monitorgw.cycle_sem, &sval);
    cr_expect_eq(sval, 0, "and its posts taken");
    shm_waker_stop(&w);
    cr_expect_eq(w.fd, -1);
    cr_assert_eq(shm_waker_start(&w, owner.r, SHM_WAKE_MGW), 0);
    cr_expect_eq(w.sock, 1, "a stopped waker frees its name for the next instance");
    shm_waker_stop(&w);
}

static uint64_t seen[128];
static int nseen;
static shm_snapshot_sh_t snap;

static void record(void *ctx)
{
    (void)ctx;
    seen[nseen++] = snap.step;
}

Test(gateway, follow_in_order_then_jump_when_far_behind)
{
    uint64_t last = 0;
    _Atomic uint64_t resets = 0;
    publish(2);
    shm_snap_follow(owner.r, &last, 2, &snap, &resets, record, NULL);
    cr_expect_eq(nseen, 2);
    cr_expect(seen[0] == 1 && seen[1] == 2, "steps 1 and 2 in order");
    cr_expect_eq(last, 2);
    shm_snap_follow(owner.r, &last, 2, &snap, &resets, record, NULL);
    cr_expect_eq(nseen, 2, "nothing new, nothing called");
    publish(2);
    shm_snap_follow(owner.r, &last, 2, &snap, &resets, record, NULL);
    cr_expect_eq(nseen, 4, "two behind: both handled");
    cr_expect_eq(atomic_load(&resets), 0);
    publish(5);
    shm_snap_follow(owner.r, &last, 2, &snap, &resets, record, NULL);
    cr_expect_eq(nseen, 5, "five behind: only the newest");
    cr_expect_eq(seen[4], 9);
    cr_expect_eq(snap.time, 90);
    cr_expect_eq(atomic_load(&resets), 1);
    cr_expect_eq(last, 9);
}

Test(gateway, sim_alive)
{
    cr_expect(shm_gateway_sim_alive(owner.r));
    atomic_store(&owner.r->hdr.shutdown, 1);
    cr_expect_not(shm_gateway_sim_alive(owner.r), "shutdown flag");
    atomic_store(&owner.r->hdr.shutdown, 0);
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0);
    owner.r->hdr.sim_pid = (int32_t)pid; /* reaped: no such process */
    cr_expect_not(shm_sim_alive(&owner.r->hdr), "sim pid gone");
    int alive = 1; /* the gateways' check looks the process up every SHM_ALIVE_EVERY_NS */
    for (int i = 0; i < 50 && alive; i++) {
        alive = shm_gateway_sim_alive(owner.r);
        usleep(20000);
    }
    cr_expect_not(alive, "sim pid gone: noticed within SHM_ALIVE_EVERY_NS");
}

/* a sim killed but not yet reaped by its parent (a zombie) is gone as well: kill(pid, 0)
 * still succeeds on it */
Test(gateway, zombie_sim_is_gone)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    shm_header_sh_t hd = owner.r->hdr;
    hd.sim_pid = (int32_t)pid;
    hd.sim_start = shm_pid_start(pid);
    int alive = 1;
    for (int i = 0; i < 100 && alive; i++) { /* until the child has exited */
        alive = shm_sim_alive(&hd);
        usleep(10000);
    }
    cr_expect_eq(kill(pid, 0), 0, "not reaped yet");
    cr_expect_not(alive, "a zombie counts as gone");
    waitpid(pid, NULL, 0);
}

/* the command line of every gateway program (shm_gateway_args) */
static int args(unsigned opts, shm_gwargs_t *a, const char *line)
{
    static char copy[256];
    char *argv[16] = { "gw" };
    int argc = 1;
    snprintf(copy, sizeof copy, "%s", line);
    for (char *t = strtok(copy, " "); t && argc < 15; t = strtok(NULL, " "))
        argv[argc++] = t;
    return shm_gateway_args(argc, argv, "RCSS_TEST_GW_SHM", opts, a);
}

Test(gateway, args_by_program)
{
    shm_gwargs_t a;
    unsetenv("RCSS_TEST_GW_SHM");
    cr_expect_eq(args(SHM_ARG_INSTANCE | SHM_ARG_INDEX, &a, "--shm /a --index 3 --instance ff"), 0);
    cr_expect_str_eq(a.name, "/a");
    cr_expect_eq(a.index, 3);
    cr_expect_eq(a.instance, 0xffu);
    cr_expect_eq(args(SHM_ARG_INSTANCE | SHM_ARG_INDEX, &a, "--shm /a"), -1, "index required");
    cr_expect_eq(args(SHM_ARG_INDEX, &a, "--shm /a --index 16"), -1, "index out of range");
    cr_expect_eq(args(SHM_ARG_INSTANCE, &a, "--shm /a --instance 0"), -1, "instance 0");
    cr_expect_eq(args(SHM_ARG_INSTANCE, &a, "--shm /a --instance"), -1, "no value");
    cr_expect_eq(args(SHM_ARG_INSTANCE, &a, "--shm /a --index 1"), -1, "not this program's");
    cr_expect_eq(args(0, &a, "--shm /a --instance 1"), -1, "not this program's");
    cr_expect_eq(args(0, &a, ""), -1, "no name");
    setenv("RCSS_TEST_GW_SHM", "/env", 1);
    cr_expect_eq(args(0, &a, ""), 0);
    cr_expect_str_eq(a.name, "/env");
    cr_expect_eq(a.index, -1);
    cr_expect_eq(a.instance, 0u);
    unsetenv("RCSS_TEST_GW_SHM");
}
