/* test_044_stream.c -- per-client streams end to end: zlib compression both ways
 * (levels, the reply sent before the switch, uncompressed datagrams ignored meanwhile,
 * -1 back to plain text), fullstate for the side that has it on (v8 and v19 layouts),
 * server::synch_see_offset in synch mode (the see before or after (think)), and the
 * change_player_type notices a substitution sends to players by version. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "e2e_players.h"
#include "e2e_trainer.h"

static char buf[E2E_PL_MSG];

Test(stream, compression_both_ways, .timeout = 60)
{
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, NULL), 0);
    e2e_pl_t p;
    cr_assert_eq(e2e_pl_connect(&p, &s, "(init Zip (version 19))"), 0);
    cr_assert_gt(e2e_pl_wait(&p, "(sense_body ", buf, sizeof buf, 2000), 0);
    /* the acknowledgement still comes as text, then everything is zlib data */
    e2e_pl_send(&p, "(compression 6)");
    cr_assert_gt(e2e_pl_wait(&p, "(ok compression 6)", buf, sizeof buf, 2000), 0);
    p.zlevel = 6;
    cr_assert_gt(e2e_pl_wait(&p, "(sense_body ", buf, sizeof buf, 2000), 0,
                 "sense_body inflates");
    /* compressed commands are understood; a plain one is ignored (not zlib data) */
    e2e_pl_send(&p, "(score)");
    cr_assert_gt(e2e_pl_wait(&p, "(score 0 ", buf, sizeof buf, 2000), 0);
    p.zlevel = -1;
    e2e_pl_send(&p, "(turn_neck 10)");
    p.zlevel = 6;
    e2e_pl_send(&p, "(sense_body)");
    cr_assert_gt(e2e_pl_wait(&p, "(sense_body ", buf, sizeof buf, 2000), 0);
    cr_expect(strstr(buf, "(turn_neck 0)") != NULL, "the plain command was ignored: %s", buf);
    /* level 0 still frames the data; -1 switches it off (acknowledged compressed) */
    e2e_pl_send(&p, "(compression 0)");
    cr_assert_gt(e2e_pl_wait(&p, "(ok compression 0)", buf, sizeof buf, 2000), 0);
    p.zlevel = 0;
    cr_assert_gt(e2e_pl_wait(&p, "(sense_body ", buf, sizeof buf, 2000), 0);
    e2e_pl_send(&p, "(compression -1)");
    cr_assert_gt(e2e_pl_wait(&p, "(ok compression -1)", buf, sizeof buf, 2000), 0);
    p.zlevel = -1;
    cr_assert_gt(e2e_pl_wait(&p, "(sense_body ", buf, sizeof buf, 2000), 0, "plain again");
    cr_expect_eq(e2e_pl_find(&p, "(not-zlib", NULL), NULL);
    e2e_pl_close(&p);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* the last kept message of p starting with prefix, NULL if none */
static const char *last_of(const e2e_pl_t *p, const char *prefix)
{
    const char *m = NULL;
    for (int j = 0; e2e_pl_find(p, prefix, &j); j++)
        m = p->msg[j];
    return m;
}

/* fullstate_l on: the left team's players get it right after each sense_body, in the
 * layout of their version; the right team none */
Test(stream, fullstate_for_one_side, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::synch_mode=true", "server::fullstate_l=true",
                           "server::synch_timeout=20000", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_pl_t p[4];
    cr_assert_eq(e2e_pl_connect(&p[0], &s, "(init L (version 19))"), 0);
    cr_assert_eq(e2e_pl_connect(&p[1], &s, "(init L (version 8))"), 0);
    cr_assert_eq(e2e_pl_connect(&p[2], &s, "(init L (version 5))"), 0);
    cr_assert_eq(e2e_pl_connect(&p[3], &s, "(init R (version 19))"), 0);
    cr_assert_eq(e2e_pl_run(p, 4, 3, 10000, NULL, NULL), 0);
    for (int i = 0; i < 3; i++) {
        /* the last cycle's sense_body (in the cycle of a connection the sim may not have
         * enabled the player yet: then there is no fullstate) */
        int k = -1;
        for (int j = 0; e2e_pl_find(&p[i], "(sense_body ", &j); j++)
            k = j;
        cr_assert(k >= 0 && k + 1 < p[i].n, "player %d", i);
        const char *fs = p[i].msg[k + 1];
        cr_assert(strncmp(fs, "(fullstate 0 (pmode before_kick_off) (vmode high normal)", 56)
                  == 0, "right after the sense_body: %s", fs);
    }
    /* the last fullstate: the sim steps as soon as the first player joins, so the
     * first ones may predate the others */
    const char *v19 = last_of(&p[0], "(fullstate ");
    cr_expect(strstr(v19, " (count 0 0 0 0 0 0 0 0 0) (arm (movable 0) (expires 0) (target 0 0)"
                          " (count 0)) (score 0 0) ((b) 0 0 0 0) ((p l 1 0) -3 -37 0 0 0 0"
                          " (focus_point 0 0) (stamina 8000 1 1 130600))") != NULL, "%s", v19);
    cr_expect(strstr(v19, "((p r 1 0) 3 -37 0 0 0 0 ") != NULL, "right players face +x: %s",
              v19);
    const char *v8 = last_of(&p[1], "(fullstate ");
    cr_expect(strstr(v8, " (count 0 0 0 0 0 0 0 0) (arm ") != NULL, "%s", v8);
    cr_expect(strstr(v8, "((p l 2 0) -6 -37 0 0 0 0 (stamina 8000 1 1))") != NULL, "%s", v8);
    const char *v5 = last_of(&p[2], "(fullstate ");
    cr_expect(strstr(v5, " (score 1 0)") == NULL && strstr(v5, " (score 0 0) (ball 0 0 0 0)"
              " (l_1 -3 -37 0 0 0 0 8000 1 1)") != NULL, "%s", v5);
    cr_expect_eq(e2e_pl_find(&p[3], "(fullstate ", NULL), NULL, "fullstate_r is off");
    for (int i = 0; i < 4; i++)
        e2e_pl_close(&p[i]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

/* synch mode: the synch see and (think) are polls of the timer (docs/protocol/player.md §11):
 * with synch_see_offset up to synch_offset (60) the see comes before (think) (at 60
 * both fall on one poll, the see first), above it after */
static void see_vs_think(const char *offset, int see_first)
{
    e2e_server_t s;
    char arg[64];
    snprintf(arg, sizeof arg, "server::synch_see_offset=%s", offset);
    const char *args[] = { "server::synch_mode=true", arg, "server::synch_timeout=20000", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_pl_t p;
    cr_assert_eq(e2e_pl_connect(&p, &s, "(init Eye (version 19))"), 0);
    cr_assert_eq(e2e_pl_run(&p, 1, 6, 10000, NULL, NULL), 0);
    int checked = 0;
    for (int k = 1; k + 1 < p.n; k++) {
        if (strncmp(p.msg[k], "(see ", 5) != 0)
            continue;
        /* the neighbour on the think side */
        const char *other = see_first ? p.msg[k + 1] : p.msg[k - 1];
        cr_expect_str_eq(other, "(think)", "offset %s", offset);
        checked++;
    }
    cr_expect_geq(checked, 2, "offset %s: synch sees every second cycle", offset);
    e2e_pl_close(&p);
    cr_expect_eq(e2e_server_stop(&s), 0);
}

Test(stream, synch_see_offset, .timeout = 60)
{
    see_vs_think("0", 1);
    see_vs_think("30", 1);
    see_vs_think("60", 1);
    see_vs_think("70", 0);
}

/* a substitution: own team (change_player_type U T), opponents (change_player_type U),
 * nothing before v7 */
Test(stream, change_player_type_notices, .timeout = 60)
{
    e2e_server_t s;
    const char *args[] = { "server::coach_w_referee=true", NULL };
    cr_assert_eq(e2e_server_start(&s, args), 0);
    e2e_pl_t p[4];
    cr_assert_eq(e2e_pl_connect(&p[0], &s, "(init Home (version 9))"), 0);
    cr_assert_eq(e2e_pl_connect(&p[1], &s, "(init Home (version 6))"), 0);
    cr_assert_eq(e2e_pl_connect(&p[2], &s, "(init Away (version 19))"), 0);
    cr_assert_eq(e2e_pl_connect(&p[3], &s, "(init Away (version 7))"), 0);
    e2e_trainer_t t;
    cr_assert_eq(e2e_trainer_connect(&t, &s, 19), 0);
    cr_assert_eq(e2e_trainer_change_type(&t, "Home", 2, 5), 0);
    cr_expect_gt(e2e_pl_wait(&p[0], "(change_player_type 2 5)", buf, sizeof buf, 2000), 0);
    cr_expect_gt(e2e_pl_wait(&p[2], "(change_player_type 2)", buf, sizeof buf, 2000), 0);
    cr_expect_gt(e2e_pl_wait(&p[3], "(change_player_type 2)", buf, sizeof buf, 2000), 0);
    e2e_pl_drain(p, 4, 300, NULL, NULL);
    cr_expect_eq(e2e_pl_find(&p[1], "(change_player_type", NULL), NULL, "v6: no notices");
    /* a later init hears of it: (change_player_type U T) after the player types */
    e2e_pl_t late;
    cr_assert_eq(e2e_pl_connect(&late, &s, "(init Home (version 9))"), 0);
    cr_expect_gt(e2e_pl_wait(&late, "(change_player_type 2 5)", buf, sizeof buf, 2000), 0);
    e2e_pl_close(&late);
    e2e_trainer_close(&t);
    for (int i = 0; i < 4; i++)
        e2e_pl_close(&p[i]);
    cr_expect_eq(e2e_server_stop(&s), 0);
}
