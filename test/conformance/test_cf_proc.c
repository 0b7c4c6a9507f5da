/* test_cf_proc.c -- process control of the server under test: free ports, the process
 * tree (descendants in groups of their own included), stall and stop. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cf_proc.h"

Test(cf_proc, free_ports_and_taken)
{
    int p = cf_proc_free_ports();
    cr_assert(p >= 20000 && p < 60000, "port %d", p);
    cr_assert_not(cf_proc_port_taken(p));
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert(cf_proc_port_taken(p));
    close(fd);
}

/* a "server" whose child moves to a process group of its own, as this server's gateways do */
Test(cf_proc, tree_stall_and_stop_reach_every_descendant, .timeout = 20)
{
    char dir[] = "/tmp/test-cf-proc-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    /* the child leaves the group and ignores SIGINT; the leader exits on it alone */
    char *argv[] = { "/bin/sh", "-c",
                     "setsid sh -c 'trap \"\" INT; sleep 30' & trap 'exit 0' INT; "
                     "while :; do sleep 0.05; done",
                     NULL };
    cf_proc_t p;
    char err[256];
    cr_assert_eq(cf_proc_start(&p, argv, dir, err, sizeof err), 0, "%s", err);
    pid_t t[16];
    int n = 0;
    pid_t child = 0;
    /* until the descendant in a group of its own shows (not only the leader's sleep 0.05
     * children, which come and go, nor the setsid child before its setsid) */
    for (int i = 0; i < 100 && !child; i++) {
        cf_sleep_us(20000);
        n = cf_proc_tree(p.pid, t, 16);
        for (int k = 1; k < n && !child; k++)
            if (getpgid(t[k]) > 0 && getpgid(t[k]) != p.pid)
                child = t[k];
    }
    cr_assert_geq(n, 2, "tree of %d", (int)p.pid);
    cr_assert_eq(t[0], p.pid);
    cr_assert(child > 0, "no descendant outside the group");
    cf_proc_stall(&p, 50);
    cr_assert(cf_proc_alive(&p));
    int st = cf_proc_stop(&p, 5000);
    cr_assert_eq(st, 0, "exit status %d", st);
    for (int i = 0; i < 100 && !cf_proc_gone(child); i++)
        cf_sleep_us(10000);     /* SIGKILL is delivered, not awaited */
    cr_assert(cf_proc_gone(child), "descendant %d left", (int)child);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
