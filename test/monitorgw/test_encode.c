/* test_encode.c -- the monitor text protocol encoders against the formats of
 * docs/protocol/monitor.md §4 and §5. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "mgw.h"

static shm_snapshot_sh_t snap;
static char buf[MGW_FRAME_MAX];

/* every player unconnected, off the pitch at (-3 unum, -37) / (3 unum, -37), as the sim
 * publishes them before anyone connects */
static void empty_world(void)
{
    memset(&snap, 0, sizeof snap);
    snap.play_mode = 1; /* before_kick_off */
    for (int i = 0; i < SHM_MAX_PLAYERS; i++) {
        shm_player_sh_t *p = &snap.player[i];
        int left = i < SHM_TEAM_SIZE;
        p->side = left ? SHM_SIDE_LEFT : SHM_SIDE_RIGHT;
        p->unum = (int8_t)(i % SHM_TEAM_SIZE + 1);
        p->x = (left ? -3.0 : 3.0) * p->unum;
        p->y = -37.0;
        p->view_width = SHM_VIEW_NORMAL;
        p->view_high = 1;
        p->stamina = 8000;
        p->effort = 1;
        p->recovery = 1;
        p->capacity = 130600;
    }
}

Test(encode, empty_world_v3)
{
    empty_world();
    int n = mgw_encode_show(&snap, 3, buf, sizeof buf);
    cr_assert_gt(n, 0);
    cr_expect_eq((size_t)n, strlen(buf) + 1, "the length counts the NUL the datagram carries");
    /* names null without teams, scores 0, no penalty numbers */
    cr_expect(strncmp(buf, "(show 0 (pm 1) (tm null null 0 0) ((b) 0 0 0 0) ((l 1) 0 0 -3 -37 0 0 0 0 "
                           "(v h 90) (s 8000 1 1) (c 0 0 0 0 0 0 0 0 0 0 0)) ((l 2) ", 119) == 0,
              "%.200s", buf);
    cr_expect(strstr(buf, "((r 11) 0 0 33 -37 0 0 0 0 (v h 90) (s 8000 1 1) (c 0 0 0 0 0 0 0 0 0 0 0)))")
              != NULL, "last player and the closing paren: %s", buf + n - 120);
}

Test(encode, versions_4_and_5_add_capacity_focus_and_counter)
{
    empty_world();
    cr_assert_gt(mgw_encode_show(&snap, 4, buf, sizeof buf), 0);
    cr_expect(strstr(buf, "((l 1) 0 0 -3 -37 0 0 0 0 (v h 90) (s 8000 1 1 130600) (c 0 0 0 0 0 0 0 0 0 0 0))")
              != NULL, "%.200s", buf);
    cr_expect(strstr(buf, "(fp ") == NULL);
    cr_assert_gt(mgw_encode_show(&snap, 5, buf, sizeof buf), 0);
    cr_expect(strstr(buf, "((l 1) 0 0 -3 -37 0 0 0 0 (v h 90) (fp 0 0) (s 8000 1 1 130600) "
                          "(c 0 0 0 0 0 0 0 0 0 0 0 0))") != NULL, "%.200s", buf);
}

Test(encode, connected_player_fields)
{
    empty_world();
    strcpy(snap.team[0], "HELIOS");
    strcpy(snap.team[1], "Cyrus");
    snap.score[0] = 2;
    snap.time = 1234;
    snap.play_mode = 3;
    snap.ball.x = 1.234567;
    snap.ball.y = -2.00004;  /* quantised to 0.0001: -2 */
    snap.ball.vx = 0.5;
    shm_player_sh_t *p = &snap.player[0];
    p->enabled = 1;
    p->goalie = 1;
    p->type = 3;
    p->state = 0x9;               /* stand + goalie, printed in hex */
    p->x = -50.12345;
    p->body = M_PI / 2;           /* degrees in the frame */
    p->neck = -M_PI / 4;
    p->view_width = SHM_VIEW_WIDE;
    p->view_high = 0;
    p->arm_expires = 3;           /* pointing: global target follows */
    p->point_x = 10;
    p->point_y = -5;
    p->focus_side = SHM_SIDE_RIGHT;
    p->focus_unum = 7;
    p->count[SHM_CNT_KICK] = 4;
    p->count[SHM_CNT_DASH] = 120;
    p->count[SHM_CNT_ATTENTIONTO] = 1;
    cr_assert_gt(mgw_encode_show(&snap, 4, buf, sizeof buf), 0);
    cr_expect(strncmp(buf, "(show 1234 (pm 3) (tm HELIOS Cyrus 2 0) ((b) 1.2346 -2 0.5 0)", 61) == 0,
              "%.100s", buf);
    cr_expect(strstr(buf, "((l 1) 3 0x9 -50.1234 -37 0 0 90 -45 10 -5 (v l 180) (s 8000 1 1 130600) "
                          "(f r 7) (c 4 120 0 0 0 0 0 0 0 0 1))") != NULL, "%.300s", buf);
}

Test(encode, synch_see_widths_and_penalties)
{
    empty_world();
    shm_player_sh_t *p = &snap.player[11];
    p->enabled = 1;
    p->synch_see = 1;     /* v18+ players: 60/120/180 */
    snap.pen_score[1] = 1;
    cr_assert_gt(mgw_encode_show(&snap, 3, buf, sizeof buf), 0);
    cr_expect(strstr(buf, "((r 1) 0 0 3 -37 0 0 0 0 (v h 120)") != NULL, "%.300s", buf);
    /* the four penalty numbers once a penalty was taken: l score, l miss, r score, r miss */
    cr_expect(strstr(buf, "(tm null null 0 0 0 0 1 0)") != NULL, "%.100s", buf);
}

Test(encode, small_buffer_fails_cleanly)
{
    empty_world();
    cr_expect_eq(mgw_encode_show(&snap, 5, buf, 100), -1);
    cr_expect_eq(mgw_encode_msg(1, 1, "a long message", buf, 10), -1);
}

Test(encode, msg_is_not_escaped)
{
    cr_assert_gt(mgw_encode_msg(42, 1, "(change_player_type l 3 5)", buf, sizeof buf), 0);
    cr_expect_str_eq(buf, "(msg 42 1 \"(change_player_type l 3 5)\")");
    mgw_encode_msg(0, 1, "say \"hi\"", buf, sizeof buf);
    cr_expect_str_eq(buf, "(msg 0 1 \"say \"hi\"\")");
}
