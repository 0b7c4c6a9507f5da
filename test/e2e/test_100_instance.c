/* test_100_instance.c -- issue 12 item 1: a second server on a running one's ports or
 * region refuses to start (one line, exit status 2) and the first goes on serving; a
 * stale region of a killed sim is reclaimed by the next start; a gateway attaches only
 * to the region of the sim that spawned it (--instance). */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "e2e_safety.h"

static char out[65536], err[65536], buf[65536];

Test(instance, second_server_on_the_same_ports_refused, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int fd = e2e_udp_open(), pport;
    e2e_send(fd, s.port, "(init TeamA (version 19))");
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, &pport), 0);

    /* the same ports and region name */
    int rc = es_run(es_server_args(&s, NULL), s.dir, out, sizeof out, err, sizeof err, 15000);
    cr_expect_eq(rc, 2, "exit status %d: %s", rc, err);
    cr_expect_eq(es_lines(err), 1, "one line: %s", err);
    cr_expect(strstr(err, "in use") != NULL, "%s", err);

    /* the same ports under another region name: the ports are taken */
    const char *other[] = { "server::shm_name=/rcss-e2e-other-instance", NULL };
    rc = es_run(es_server_args(&s, other), s.dir, out, sizeof out, err, sizeof err, 15000);
    cr_expect_eq(rc, 2, "exit status %d: %s", rc, err);
    cr_expect_eq(es_lines(err), 1, "one line: %s", err);
    cr_expect(strstr(err, "UDP port") != NULL, "%s", err);
    cr_expect_not(es_shm_exists("/rcss-e2e-other-instance"), "nothing was created");

    /* the first server and its player are untouched */
    cr_expect(es_shm_exists(s.shm_name), "the region is still there");
    while (e2e_recv(fd, buf, sizeof buf, 50, NULL) > 0)
        ;
    cr_expect_gt(e2e_recv_prefix(fd, "(sense_body ", buf, sizeof buf, 2000, NULL), 0,
                 "the player still receives");
    close(fd);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(instance, stale_region_is_reclaimed, .timeout = 60)
{
    /* no gateways (systemd layout, none started): nobody removes the region of a sim
     * killed with SIGKILL, so the next start must reclaim it */
    e2e_server_t s;
    const char *noproc[] = { "server::spawn_gateways=false", NULL };
    char log[300];
    pid_t pid;
    /* free ports and a private name: those of a server started and stopped */
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    e2e_server_t copy = s;
    cr_assert_eq(e2e_server_stop(&s), 0);
    snprintf(log, sizeof log, "/tmp/rcss-e2e-100-%d.log", (int)getpid());
    pid = es_spawn(es_server_args(&copy, noproc), "/tmp", log);
    cr_assert_eq(es_wait_region(copy.shm_name, pid, 6000), 0, "the sim set up no region");
    kill(pid, SIGKILL);
    es_wait(pid, 5000);
    cr_assert(es_shm_exists(copy.shm_name), "a killed sim leaves its region");

    /* the next start on the same name: it replaces the dead sim's region and serves */
    const char *quit[] = { "server::spawn_gateways=false", NULL };
    pid = es_spawn(es_server_args(&copy, quit), "/tmp", log);
    cr_expect_eq(es_wait_region(copy.shm_name, pid, 6000), 0, "the new sim set up no region");
    cr_expect(es_shm_exists(copy.shm_name));
    kill(pid, SIGTERM);
    cr_expect_eq(es_wait(pid, 5000), 0, "the new server ran and stopped cleanly");
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
    cr_expect(strstr(out, "replaced the region a dead server left") != NULL, "%s", out);
    cr_expect_not(es_shm_exists(copy.shm_name), "removed at the clean stop");
    unlink(log);
}

Test(instance, gateway_takes_only_its_sims_region, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    /* a gateway told another sim's instance id refuses this region: exit status 2 */
    const char *argv[] = { "rcss-netgw", "--shm", s.shm_name, "--index", "0", "--instance",
                           "123456789abcdef", NULL };
    int rc = es_run(argv, "/tmp", out, sizeof out, err, sizeof err, 15000);
    cr_expect_eq(rc, 2, "exit status %d: %s", rc, err);
    cr_expect(strstr(err, "belongs to another server") != NULL, "%s", err);
    const char *margv[] = { "rcss-monitorgw", "--shm", s.shm_name, "--instance", "42", NULL };
    rc = es_run(margv, "/tmp", out, sizeof out, err, sizeof err, 15000);
    cr_expect_eq(rc, 2, "exit status %d: %s", rc, err);
    cr_expect(strstr(err, "belongs to another server") != NULL, "%s", err);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
