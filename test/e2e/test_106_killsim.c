/* test_106_killsim.c -- issue 12 item 7: kill -9 of the server leaves no region behind
 * for long: killed, the process a user started (the supervisor) takes its sim along,
 * which ends the match; in the systemd layout, where nobody starts a new sim, the
 * gateways wait server::resume_wait_ms for one, leave, and the first removes the region
 * (only under the name's lock and only if the name still names their object); and the
 * region name cannot be pre-created by another user: the sim refuses such an object
 * (exit status 2, one line) and so does a gateway. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_safety.h"

static char out[65536], err[65536];

static int gone_within(const char *name, int timeout_ms)
{
    double end = e2e_now_ms() + timeout_ms;
    while (e2e_now_ms() < end) {
        if (!es_shm_exists(name))
            return 1;
        usleep(20000);
    }
    return 0;
}

Test(killsim, spawned_gateways_remove_the_region, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    pid_t ngw = es_slot_pid(&s, 0), mgw = es_slot_pid(&s, -1);
    cr_assert(es_shm_exists(s.shm_name));
    kill(s.pid, SIGKILL);
    waitpid(s.pid, NULL, 0);
    s.pid = -1;
    cr_expect(gone_within(s.shm_name, 5000), "the region is still there");
    for (int i = 0; i < 250 && (kill(ngw, 0) == 0 || kill(mgw, 0) == 0); i++)
        usleep(20000);
    cr_expect_neq(kill(ngw, 0), 0, "netgw still runs");
    cr_expect_neq(kill(mgw, 0), 0, "monitorgw still runs");
}

Test(killsim, standalone_gateways_remove_the_region, .timeout = 60)
{
    e2e_server_t s; /* the systemd layout: the gateways are not the sim's children */
    const char *const args[] = { "server::resume_wait_ms=1000", NULL };
    cr_assert_eq(e2e_server_start_standalone(&s, args, 2), 0);
    kill(s.pid, SIGKILL);
    waitpid(s.pid, NULL, 0);
    s.pid = -1;
    cr_expect(gone_within(s.shm_name, 5000), "the region is still there");
    for (int i = 0; i < s.nstandalone; i++)
        cr_expect_geq(es_wait(s.standalone[i], 5000), 0, "gateway %d did not leave", i);
}

static const char *squat_name;

static int squat(void *arg)
{
    (void)arg;
    int fd = shm_open(squat_name, O_CREAT | O_EXCL | O_RDWR, 0666);
    if (fd < 0)
        return 1;
    fchmod(fd, 0666);
    int rc = ftruncate(fd, 4096) == 0 ? 0 : 2;
    close(fd);
    return rc;
}

Test(killsim, region_name_of_another_user_refused, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0); /* for free ports and a private name */
    e2e_server_t copy = s;
    cr_assert_eq(e2e_server_stop(&s), 0);
    squat_name = copy.shm_name;
    cr_assert_eq(es_as_nobody(squat, NULL), 0, "nobody could not create the object");

    int rc = es_run(es_server_args(&copy, NULL), "/tmp", out, sizeof out, err, sizeof err,
                    15000);
    cr_expect_eq(rc, 2, "exit status %d: %s", rc, err);
    cr_expect_eq(es_lines(err), 1, "one line: %s", err);
    cr_expect(strstr(err, "uid 65534") != NULL, "%s", err);
    struct stat st;
    char path[128];
    snprintf(path, sizeof path, "/dev/shm%s", copy.shm_name);
    cr_expect_eq(stat(path, &st), 0, "the object is left alone");
    cr_expect_eq(st.st_uid, 65534u);
    cr_expect_eq(st.st_size, 4096, "and untouched");

    /* a gateway pointed at it refuses it too */
    const char *argv[] = { "rcss-netgw", "--shm", copy.shm_name, "--index", "0", NULL };
    rc = es_run(argv, "/tmp", out, sizeof out, err, sizeof err, 15000);
    cr_expect_eq(rc, 2, "exit status %d: %s", rc, err);
    cr_expect(strstr(err, "not a region of this user's server") != NULL, "%s", err);
    shm_unlink(copy.shm_name);
}
