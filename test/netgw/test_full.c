/* test_full.c -- proto_fullstate: exact strings for one hand-built world at every
 * protocol version where the layout changes (docs/protocol/player.md §8): none before v5;
 * v5-v7 rounded values and the reference's score quirk; v8 counts, arm, (b)/(p l 1 g)
 * names and unrounded values; v13 stamina capacity and t/k; v14 goalie type and f, y/r;
 * v18 focus point and change_focus count. */
#include <criterion/criterion.h>
#include <string.h>
#include "geom.h"
#include "netgw_proto.h"
#include "playmode.h"

static shm_snapshot_sh_t snap;
static shm_client_sh_t cl;
static char buf[4096];

/* l1: the observer, goalie (type 0) at (-10, 0) facing +x, pointing at (-10, 5): 5 m
 * at 90 deg of its face (in its own arm part "(target 5 90)", and as a pointing player
 * "5 1.5708": distance and radians); stamina 7999.7 (v5 prints int 7999), effort 0.95,
 * recovery 1. r2: type 3 at (5.5, 3.25), velocity (0.1, -0.2), body 180, neck -30 (face
 * 150), pointing 10 m along +y: in its face frame 90 - 150 = -60 deg = -1.0472 rad
 * (printed in radians, as the reference); kicked last cycle, a yellow card. Ball at
 * (1.2345678, -2.5): 6 significant digits 1.23457; v5 rounds to 0.001: 1.235. Score
 * 2 (left) : 1 (right). */
static void setup(void)
{
    memset(&snap, 0, sizeof snap);
    memset(&cl, 0, sizeof cl);
    snap.time = 33;
    snap.play_mode = PM_PLAY_ON;
    strcpy(snap.team[0], "Alpha");
    strcpy(snap.team[1], "Beta");
    snap.score[0] = 2;
    snap.score[1] = 1;
    snap.ball.x = 1.2345678;
    snap.ball.y = -2.5;
    snap.ball.vx = 0.5;
    shm_player_sh_t *l1 = &snap.player[0];
    l1->enabled = 1;
    l1->side = SHM_SIDE_LEFT;
    l1->unum = 1;
    l1->goalie = 1;
    l1->x = -10.0;
    l1->stamina = 7999.7;
    l1->effort = 0.95;
    l1->recovery = 1.0;
    l1->capacity = 130000.0;
    l1->arm_movable = 2;
    l1->arm_expires = 15;
    l1->point_x = -10.0;
    l1->point_y = 5.0;
    for (int i = 0; i < SHM_CNT_N; i++)
        l1->count[i] = 0;
    l1->count[SHM_CNT_KICK] = 1;
    l1->count[SHM_CNT_DASH] = 2;
    l1->count[SHM_CNT_TURN] = 3;
    l1->count[SHM_CNT_CATCH] = 4;
    l1->count[SHM_CNT_MOVE] = 5;
    l1->count[SHM_CNT_TURN_NECK] = 6;
    l1->count[SHM_CNT_CHANGE_VIEW] = 7;
    l1->count[SHM_CNT_SAY] = 8;
    l1->count[SHM_CNT_CHANGE_FOCUS] = 9;
    l1->count[SHM_CNT_POINTTO] = 10;
    shm_player_sh_t *r2 = &snap.player[shm_player_index(SHM_SIDE_RIGHT, 2)];
    r2->enabled = 1;
    r2->side = SHM_SIDE_RIGHT;
    r2->unum = 2;
    r2->type = 3;
    r2->x = 5.5;
    r2->y = 3.25;
    r2->vx = 0.1;
    r2->vy = -0.2;
    r2->body = M_PI;
    r2->neck = deg2rad(-30.0);
    r2->stamina = 6000.0;
    r2->effort = 0.8;
    r2->recovery = 0.9;
    r2->capacity = 120000.0;
    r2->arm_expires = 4;
    r2->point_x = 5.5;
    r2->point_y = 13.25;
    r2->kicked = 1;
    r2->card = 1;
    cl.side = SHM_SIDE_LEFT;
    cl.unum = 1;
    cl.view_high = 1;
    cl.view_width = SHM_VIEW_NORMAL;
}

TestSuite(full, .init = setup);

static void check(double version, const char *want)
{
    cl.version = version;
    int n = proto_fullstate(&snap, 0, &cl, buf, sizeof buf);
    cr_assert_eq(n, (int)strlen(want), "v%g length %d: %s", version, n, buf);
    cr_assert_str_eq(buf, want, "v%g", version);
}

#define FS_HEAD "(fullstate 33 (pmode play_on) (vmode high normal)"

Test(full, none_before_v5, .timeout = 10)
{
    for (int v = 1; v <= 4; v++) {
        cl.version = v;
        cr_assert_eq(proto_fullstate(&snap, 0, &cl, buf, sizeof buf), 0);
        cr_assert_str_eq(buf, "");
    }
}

/* v5-v7: rounded to 0.001 (stamina int, effort/recovery 0.0001), no type or goalie,
 * "(score RIGHT 0)" (the reference's bug) */
Test(full, v5_v7, .timeout = 10)
{
    const char *want = FS_HEAD " (score 1 0) (ball 1.235 -2.5 0.5 0)"
        " (l_1 -10 0 0 0 0 0 7999 0.95 1)"
        " (r_2 5.5 3.25 0.1 -0.2 180 -30 6000 0.8 0.9))";
    check(5.0, want);
    check(7.0, want);
}

#define FS_V8_SELF " (count 1 2 3 4 5 6 7 8) (arm (movable 2) (expires 15) (target 5 90) (count 10))"
#define FS_BALL    " ((b) 1.23457 -2.5 0.5 0)"

Test(full, v8_v12, .timeout = 10)
{
    const char *want = FS_HEAD FS_V8_SELF " (score 2 1)" FS_BALL
        " ((p l 1 g) -10 0 0 0 0 0 5 1.5708 (stamina 7999.7 0.95 1))"
        " ((p r 2 3) 5.5 3.25 0.1 -0.2 180 -30 10 -1.0472 (stamina 6000 0.8 0.9)))";
    check(8.0, want);
    check(12.0, want);
}

Test(full, v13, .timeout = 10)
{
    check(13.0, FS_HEAD FS_V8_SELF " (score 2 1)" FS_BALL
          " ((p l 1 g) -10 0 0 0 0 0 5 1.5708 (stamina 7999.7 0.95 1 130000))"
          " ((p r 2 3) 5.5 3.25 0.1 -0.2 180 -30 10 -1.0472 (stamina 6000 0.8 0.9 120000) k))");
}

Test(full, v14_v17, .timeout = 10)
{
    const char *want = FS_HEAD FS_V8_SELF " (score 2 1)" FS_BALL
        " ((p l 1 g 0) -10 0 0 0 0 0 5 1.5708 (stamina 7999.7 0.95 1 130000))"
        " ((p r 2 3) 5.5 3.25 0.1 -0.2 180 -30 10 -1.0472 (stamina 6000 0.8 0.9 120000) k y))";
    check(14.0, want);
    check(17.0, want);
    /* a tackle wins over the kick flag, a foul charge shows when neither, red over yellow */
    shm_player_sh_t *r2 = &snap.player[shm_player_index(SHM_SIDE_RIGHT, 2)];
    r2->kicked = 0;
    r2->foul_charged = 2;
    r2->card = 2;
    cl.version = 14.0;
    proto_fullstate(&snap, 0, &cl, buf, sizeof buf);
    cr_assert(strstr(buf, "120000) f r))"), "%s", buf);
    r2->tackle_expires = 3;
    proto_fullstate(&snap, 0, &cl, buf, sizeof buf);
    cr_assert(strstr(buf, "120000) t r))"), "%s", buf);
}

Test(full, v18_v19, .timeout = 10)
{
    snap.player[0].focus_dist = 2.5;
    snap.player[0].focus_dir = deg2rad(-20.0);
    const char *want = FS_HEAD
        " (count 1 2 3 4 5 6 7 8 9) (arm (movable 2) (expires 15) (target 5 90) (count 10))"
        " (score 2 1)" FS_BALL
        " ((p l 1 g 0) -10 0 0 0 0 0 5 1.5708 (focus_point 2.5 -20) (stamina 7999.7 0.95 1 130000))"
        " ((p r 2 3) 5.5 3.25 0.1 -0.2 180 -30 10 -1.0472 (focus_point 0 0)"
        " (stamina 6000 0.8 0.9 120000) k y))";
    check(18.0, want);
    check(19.0, want);
}

/* the right side's own score first (v8+); the v5 quirk ignores the side */
Test(full, right_side_observer, .timeout = 10)
{
    cl.side = SHM_SIDE_RIGHT;
    cl.version = 9.0;
    cr_assert_gt(proto_fullstate(&snap, shm_player_index(SHM_SIDE_RIGHT, 2), &cl, buf,
                                 sizeof buf), 0);
    cr_assert(strstr(buf, " (score 1 2) "), "%s", buf);
    cl.version = 6.0;
    proto_fullstate(&snap, shm_player_index(SHM_SIDE_RIGHT, 2), &cl, buf, sizeof buf);
    cr_assert(strstr(buf, " (score 1 0) "), "%s", buf);
}

/* a goalie holding the ball in free_kick shows as goalie_catch_ball_l/r */
Test(full, goalie_catch_ball_mode, .timeout = 10)
{
    snap.play_mode = PM_FREE_KICK_L;
    snap.catcher = 1;
    cl.version = 19.0;
    proto_fullstate(&snap, 0, &cl, buf, sizeof buf);
    cr_assert(strncmp(buf, "(fullstate 33 (pmode goalie_catch_ball_l) ", 42) == 0, "%s", buf);
    snap.catcher = 0;
    proto_fullstate(&snap, 0, &cl, buf, sizeof buf);
    cr_assert(strncmp(buf, "(fullstate 33 (pmode free_kick_l) ", 34) == 0, "%s", buf);
}

Test(full, buffer_and_bad_args, .timeout = 10)
{
    char small[32];
    cl.version = 19.0;
    cr_assert_eq(proto_fullstate(&snap, 0, &cl, small, sizeof small), -1);
    cr_assert_eq(small[0], '\0');
    cr_assert_eq(proto_fullstate(&snap, 22, &cl, buf, sizeof buf), -1);
    cr_assert_eq(proto_fullstate(NULL, 0, &cl, buf, sizeof buf), -1);
}
