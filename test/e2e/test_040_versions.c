/* test_040_versions.c -- one player per protocol version 1..19 on one synch-mode server
 * (v1-v11 team A, v12-v19 team B), a monitor starts the match, and each player's first
 * 20 cycles are checked against what its version defines (docs/protocol/player.md §2-§7):
 * the init reply and parameter messages, (ok synch_see) from v18, one sense_body per
 * cycle with the fields of its version, see messages in its form and rate, the referee's
 * kick-off, the change_player_type notices of the automatic type assignment (v7+), one
 * (think) per cycle, and never an error. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_players.h"

#define NV 19

static e2e_pl_t pl[NV];
static char buf[E2E_PL_MSG];

/* connect v1..v19 (index v-1) and check the init replies: numbers by connection order */
static void connect_all(const e2e_server_t *s)
{
    for (int v = 1; v <= NV; v++) {
        char line[64];
        snprintf(line, sizeof line, "(init %s (version %d))", v <= 11 ? "VerA" : "VerB", v);
        cr_assert_eq(e2e_pl_connect(&pl[v - 1], s, line), 0, "v%d: %s", v, pl[v - 1].first);
        char want[64];
        snprintf(want, sizeof want, "(init %c %d before_kick_off)", v <= 11 ? 'l' : 'r',
                 v <= 11 ? v : v - 11);
        cr_expect_str_eq(pl[v - 1].first, want, "v%d", v);
    }
}

/* a monitor that will start the match, registered while nothing waits for it: in synch
 * mode a step comes only when every player answered its (think), so a monitor that
 * registered while the players are not answering would wait for its first frame */
static int monitor_open(const e2e_server_t *s, int *mport)
{
    int mon = e2e_udp_open();
    e2e_send(mon, s->port, "(dispinit version 3)");
    cr_assert_gt(e2e_recv_prefix(mon, "(server_param ", buf, sizeof buf, 3000, mport), 0);
    return mon;
}

static void kick_off(int mon, int mport)
{
    e2e_send(mon, mport, "(dispstart)");
    close(mon);
}

/* the parameter messages after the init, by version */
static void check_params(int v, const e2e_pl_t *p)
{
    int from = 0;
    const char *sp = e2e_pl_find(p, "(server_param", &from);
    const char *pp = e2e_pl_find(p, "(player_param", NULL);
    int types = 0, i = 0;
    while (e2e_pl_find(p, "(player_type ", &i)) {
        types++;
        i++;
    }
    if (v < 7) {
        cr_expect(sp == NULL && pp == NULL && types == 0, "v%d: no parameter messages", v);
        return;
    }
    cr_assert(sp && pp, "v%d: server_param and player_param", v);
    cr_expect_eq(types, 18, "v%d: one player_type per type", v);
    /* v7 positional values, v8+ (name value) pairs */
    cr_expect_eq(sp[14] == '(', v >= 8, "v%d: %.40s", v, sp);
    const char *t0 = e2e_pl_find(p, "(player_type ", NULL);
    cr_expect_eq(strncmp(t0, "(player_type (id 0)", 19) == 0, v >= 8, "v%d: %.40s", v, t0);
    /* v14 adds kick_power_rate, v18 the observation lengths, v19 the noise rates */
    cr_expect_eq(strstr(t0, "(kick_power_rate ") != NULL, v >= 14, "v%d", v);
    cr_expect_eq(strstr(t0, "(unum_far_length ") != NULL, v >= 18, "v%d", v);
    cr_expect_eq(strstr(t0, "(dist_noise_rate ") != NULL, v >= 19, "v%d", v);
    cr_expect_eq(strstr(sp, "(synch_see_offset ") != NULL, v >= 12, "v%d", v);
    cr_expect_eq(strstr(sp, "(red_card_probability ") != NULL, v >= 15, "v%d", v);
    cr_expect_eq(e2e_pl_find(p, "(ok synch_see)", NULL) != NULL, v >= 18, "v%d", v);
}

/* the fields a sense_body of version v has (docs/protocol/player.md §6) */
static void check_sense(int v, const char *sb)
{
    cr_expect_eq(strstr(sb, "(head_angle ") != NULL, v >= 5, "v%d: %s", v, sb);
    cr_expect_eq(strstr(sb, "(turn_neck ") != NULL, v >= 5, "v%d: %s", v, sb);
    cr_expect_eq(strstr(sb, "(speed 0)") != NULL, v < 6, "v%d: %s", v, sb);
    cr_expect_eq(strstr(sb, "(catch ") != NULL, v >= 7, "v%d: %s", v, sb);
    cr_expect_eq(strstr(sb, "(arm (movable ") != NULL, v >= 8, "v%d: %s", v, sb);
    cr_expect_eq(strstr(sb, "(collision ") != NULL, v >= 12, "v%d: %s", v, sb);
    cr_expect_eq(strstr(sb, " 130600) (speed") != NULL, v >= 13, "v%d: %s", v, sb);
    cr_expect_eq(strstr(sb, "(foul (charged 0) (card none))") != NULL, v >= 14, "v%d", v);
    cr_expect_eq(strstr(sb, "(change_focus ") != NULL, v >= 18, "v%d: %s", v, sb);
    cr_expect_eq(strstr(sb, "(focus_point ") != NULL, v >= 18, "v%d: %s", v, sb);
}

/* one sense_body for each cycle 1..20, in order, each with the fields of v */
static void check_cycles(int v, const e2e_pl_t *p, int *first_see)
{
    int i = 0, want = 1;
    *first_see = -1;
    const char *m;
    while ((m = e2e_pl_find(p, "(sense_body ", &i)) && want <= 20) {
        int t = atoi(m + 12);
        i++;
        if (t == 0)
            continue;
        cr_expect_eq(t, want, "v%d: sense_body %d after %d", v, t, want - 1);
        check_sense(v, m);
        if (*first_see < 0)
            *first_see = i;
        want = t + 1;
    }
    cr_expect_geq(want, 21, "v%d: sense_body up to 20, got %d", v, want - 1);
}

/* see messages during cycles 1..20: the form of v and the rate of its mode */
static void check_sees(int v, const e2e_pl_t *p, int from)
{
    int i = from < 0 ? 0 : from, n = 0;
    const char *m;
    while ((m = e2e_pl_find(p, "(see ", &i))) {
        int t = atoi(m + 5);
        i++;
        if (t < 1 || t > 20)
            continue;
        n++;
        if (v < 3) {   /* every object has object version 3 */
            char want[32];
            snprintf(want, sizeof want, "(see %d)", t);
            cr_expect_str_eq(m, want, "v%d", v);
        } else {
            cr_expect_eq(strstr(m, "((flag ") != NULL || strstr(m, "((line ") != NULL, v < 6,
                         "v%d: %.80s", v, m);
            cr_expect_eq(strstr(m, "((f ") != NULL || strstr(m, "((l ") != NULL, v >= 6,
                         "v%d: %.80s", v, m);
        }
    }
    /* synch-see (v18+) normal: every second cycle, 10 in 20; async normal: every 4 of the
     * 8 ticks per 3 cycles, 13 or 14 in 20 */
    if (v >= 18)
        cr_expect(n >= 9 && n <= 11, "v%d: %d sees in 20 cycles", v, n);
    else
        cr_expect(n >= 12 && n <= 15, "v%d: %d sees in 20 cycles", v, n);
}

static void check_player(int v, const e2e_pl_t *p)
{
    check_params(v, p);
    int from;
    check_cycles(v, p, &from);
    check_sees(v, p, from);
    cr_expect(e2e_pl_find(p, "(hear 0 referee kick_off_l)", NULL) != NULL, "v%d", v);
    cr_expect_eq(e2e_pl_find(p, "(error", NULL), NULL, "v%d: %s", v,
                 e2e_pl_find(p, "(error", NULL));
    cr_expect_eq(e2e_pl_find(p, "(warning", NULL), NULL, "v%d", v);
    /* the automatic type assignment at the first kick-off is announced from v7 on:
     * own team (change_player_type U T), opponents (change_player_type U) */
    const char *ct = e2e_pl_find(p, "(change_player_type ", NULL);
    cr_expect_eq(ct != NULL, v >= 7, "v%d: %s", v, ct ? ct : "none");
}

Test(versions, one_player_per_version_first_20_cycles, .timeout = 120)
{
    e2e_server_t s;
    const char *args[] = { "server::synch_mode=true", "server::synch_timeout=20000", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    connect_all(&s);
    int mport = 0, mon = monitor_open(&s, &mport);
    cr_assert_eq(e2e_pl_run(pl, NV, 2, 20000, NULL, NULL), 0, "every player thinks");
    kick_off(mon, mport);
    /* until everyone's time reached 21 */
    cr_assert_eq(e2e_pl_run(pl, NV, 28, 60000, NULL, NULL), 0);
    for (int v = 1; v <= NV; v++)
        check_player(v, &pl[v - 1]);
    for (int v = 1; v <= NV; v++)
        e2e_pl_close(&pl[v - 1]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
