/* test_004_protocols.c -- more of the slice end to end: referee messages reach players,
 * old protocol versions get what their version defines after init, and killing one of
 * several gateways leaves the players of the others undisturbed. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "shm.h"

static char buf[65536];

static int player(const e2e_server_t *s, const char *init, int *srv_port)
{
    int fd = e2e_udp_open();
    cr_assert_geq(fd, 0);
    e2e_send(fd, s->port, init);
    cr_assert_gt(e2e_recv_prefix(fd, "(init ", buf, sizeof buf, 2000, srv_port), 0, "%s", init);
    return fd;
}

Test(protocols, referee_kick_off_is_heard, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    int p = player(&s, "(init TeamA (version 9))", NULL);
    int mon = e2e_udp_open(), mport;
    e2e_send(mon, s.port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv_prefix(mon, "(show ", buf, sizeof buf, 2000, &mport), 0);
    e2e_send(mon, mport, "(dispstart)");
    /* docs/protocol/player.md §7: (hear TIME referee MSG); the kick-off is announced at time 0 */
    cr_expect_gt(e2e_recv_prefix(p, "(hear 0 referee kick_off_l)", buf, sizeof buf, 2000, NULL), 0);
    close(mon);
    close(p);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(protocols, old_versions_get_their_own_init_sequence, .timeout = 30)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    /* v7: positional server_param (numbers, no (name value) pairs) */
    int p7 = player(&s, "(init Old (version 7))", NULL);
    cr_expect_str_eq(buf, "(init l 1 before_kick_off)");
    cr_assert_gt(e2e_recv_prefix(p7, "(server_param ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect(buf[14] != '(', "positional values: %.40s", buf);
    cr_expect_gt(e2e_recv_prefix(p7, "(player_param ", buf, sizeof buf, 1000, NULL), 0);
    /* v3 (no version given): only the init line, then sensors */
    int p3 = player(&s, "(init Old)", NULL);
    cr_expect_str_eq(buf, "(init l 2 before_kick_off)");
    cr_assert_gt(e2e_recv(p3, buf, sizeof buf, 1000, NULL), 0);
    cr_expect(strncmp(buf, "(sense_body ", 12) == 0 || strncmp(buf, "(see ", 5) == 0,
              "no parameter messages before v7: %.40s", buf);
    /* v3 sense_body has no head_angle (v5+) and speed without direction (v6+) */
    cr_assert_gt(e2e_recv_prefix(p3, "(sense_body ", buf, sizeof buf, 1000, NULL), 0);
    cr_expect(strstr(buf, "(head_angle") == NULL, "%s", buf);
    cr_expect(strstr(buf, "(speed 0)") != NULL, "%s", buf);
    close(p7);
    close(p3);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* which gateway serves client idx */
static int owner_of(const e2e_server_t *s, int idx)
{
    shm_handle_t h;
    char err[SHM_ERR_LEN];
    if (shm_region_attach(&h, s->shm_name, err, sizeof err) < 0)
        return -1;
    int o = h.r->client[idx].owner_gw;
    shm_region_detach(&h);
    return o;
}

Test(protocols, killing_one_gateway_leaves_the_others_alone, .timeout = 30)
{
    e2e_server_t s;
    const char *args[] = { "server::netgw_processes=3", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    enum { N = 8 };
    int fd[N], owner[N];
    for (int i = 0; i < N; i++) {
        fd[i] = player(&s, "(init Many (version 9))", NULL);
        owner[i] = owner_of(&s, i);
    }
    pid_t gw[16];
    cr_assert_eq(e2e_netgw_pids(&s, gw, 16), 3);
    int victim = owner[0];
    cr_assert_eq(kill(gw[victim], SIGKILL), 0);
    double killed = e2e_now_ms();
    /* for 1.5 s: the others' players never wait more than 300 ms for a sense_body, the
     * victim's get theirs back */
    double last[N];
    int resumed[N];
    for (int i = 0; i < N; i++) {
        last[i] = killed;
        resumed[i] = 0;
    }
    double worst = 0;
    while (e2e_now_ms() < killed + 1500) {
        for (int i = 0; i < N; i++) {
            while (e2e_recv(fd[i], buf, sizeof buf, 0, NULL) > 0) {
                if (strncmp(buf, "(sense_body ", 12) != 0)
                    continue;
                double now = e2e_now_ms();
                if (owner[i] != victim && now - last[i] > worst)
                    worst = now - last[i];
                if (owner[i] == victim && now > killed + 150)
                    resumed[i] = 1;
                last[i] = now;
            }
        }
        usleep(5000);
    }
    cr_expect_lt(worst, 300.0, "longest gap for the other gateways' players: %.0f ms", worst);
    for (int i = 0; i < N; i++) {
        if (owner[i] == victim)
            cr_expect(resumed[i], "player %d of the killed gateway is served again", i + 1);
        close(fd[i]);
    }
    cr_expect_eq(e2e_server_stop(&s), 0);
}
