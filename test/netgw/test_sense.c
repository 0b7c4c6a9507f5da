/* test_sense.c -- proto_sense_body: exact strings for one hand-built player at every
 * protocol version where the layout changes (docs/protocol/player.md §6). */
#include <criterion/criterion.h>
#include <string.h>
#include "geom.h"
#include "netgw_proto.h"

static shm_snapshot_sh_t snap;
static shm_client_sh_t cl;
static conf_t conf;

/* Player l1 at (1, 2): body 30 deg, neck -45.7 deg (face -15.7 deg), velocity
 * (0.123, -0.456) m/cycle: speed 0.4723 -> 0.47; velocity direction -74.905 deg, relative
 * to the face -59.2 -> truncated -59; head_angle -45.7 -> -45. Pointing at (11, 2): 10 m
 * straight along +x, i.e. 15.7 deg relative to the face -> "target 10 15". */
static void setup(void)
{
    memset(&snap, 0, sizeof snap);
    memset(&cl, 0, sizeof cl);
    conf_defaults(&conf);
    snap.time = 42;
    shm_player_sh_t *p = &snap.player[0];
    p->enabled = 1;
    p->side = SHM_SIDE_LEFT;
    p->unum = 1;
    p->x = 1.0;
    p->y = 2.0;
    p->vx = 0.123;
    p->vy = -0.456;
    p->body = deg2rad(30.0);
    p->neck = deg2rad(-45.7);
    p->stamina = 7900.5;
    p->effort = 0.9;
    p->capacity = 130000.0;
    static const int cnt[SHM_CNT_N] = {
        [SHM_CNT_KICK] = 1, [SHM_CNT_DASH] = 2, [SHM_CNT_TURN] = 3, [SHM_CNT_CATCH] = 4,
        [SHM_CNT_MOVE] = 5, [SHM_CNT_TURN_NECK] = 6, [SHM_CNT_CHANGE_VIEW] = 7,
        [SHM_CNT_SAY] = 8, [SHM_CNT_TACKLE] = 9, [SHM_CNT_POINTTO] = 10,
        [SHM_CNT_ATTENTIONTO] = 11, [SHM_CNT_CHANGE_FOCUS] = 12,
    };
    for (int i = 0; i < SHM_CNT_N; i++)
        p->count[i] = (uint32_t)cnt[i];
    p->arm_movable = 3;
    p->arm_expires = 7;
    p->point_x = 11.0;
    p->point_y = 2.0;
    p->focus_side = SHM_SIDE_RIGHT;
    p->focus_unum = 7;
    p->tackle_expires = 2;
    p->collision = SHM_COLL_BALL | SHM_COLL_POST;
    p->foul_charged = 3;
    p->card = 1;
    p->focus_dist = 5.5;
    p->focus_dir = deg2rad(-10.0);
    cl.view_high = 1;
    cl.view_width = SHM_VIEW_WIDE;
}

TestSuite(sense, .init = setup);

static void check(double version, const char *want)
{
    char buf[1024];
    cl.version = version;
    int n = proto_sense_body(&snap, 0, &cl, &conf, buf, sizeof buf);
    cr_assert_eq(n, (int)strlen(want), "v%g length %d: %s", version, n, buf);
    cr_assert_str_eq(buf, want, "v%g", version);
}

/* the pieces, added version by version */
#define SB_HEAD  "(sense_body 42 (view_mode high wide)"
#define SB_CNT4  " (kick 1) (dash 2) (turn 3) (say 8)"
#define SB_V7    " (turn_neck 6) (catch 4) (move 5) (change_view 7)"
#define SB_ARM   " (arm (movable 3) (expires 7) (target 10 15) (count 10))" \
                 " (focus (target r 7) (count 11)) (tackle (expires 2) (count 9))"
#define SB_COLL  " (collision (ball) (post))"
#define SB_FOUL  " (foul (charged 3) (card yellow))"

/* v1-4: no speed direction, no head_angle, four counters */
Test(sense, v3, .timeout = 10)
{
    check(3.0, SB_HEAD " (stamina 7900.5 0.9) (speed 0.47)" SB_CNT4 ")");
}

/* v4 = v1-v3 layout */
Test(sense, v4, .timeout = 10)
{
    check(4.0, SB_HEAD " (stamina 7900.5 0.9) (speed 0.47)" SB_CNT4 ")");
}

/* v5: head_angle after speed, turn_neck after the four counters; speed still bare */
Test(sense, v5, .timeout = 10)
{
    check(5.0, SB_HEAD " (stamina 7900.5 0.9) (speed 0.47) (head_angle -45)" SB_CNT4
          " (turn_neck 6))");
}

/* v6: the speed gains its direction relative to the face (truncated) */
Test(sense, v6, .timeout = 10)
{
    check(6.0, SB_HEAD " (stamina 7900.5 0.9) (speed 0.47 -59) (head_angle -45)" SB_CNT4
          " (turn_neck 6))");
}

/* v7: speed dir (v6), head_angle + turn_neck (v5), catch/move/change_view (v7) */
Test(sense, v7, .timeout = 10)
{
    check(7.0, SB_HEAD " (stamina 7900.5 0.9) (speed 0.47 -59) (head_angle -45)" SB_CNT4 SB_V7 ")");
}

/* v8: arm / focus / tackle */
Test(sense, v8, .timeout = 10)
{
    check(8.0, SB_HEAD " (stamina 7900.5 0.9) (speed 0.47 -59) (head_angle -45)" SB_CNT4 SB_V7
          SB_ARM ")");
}

/* v11 = v8 layout */
Test(sense, v11, .timeout = 10)
{
    check(11.0, SB_HEAD " (stamina 7900.5 0.9) (speed 0.47 -59) (head_angle -45)" SB_CNT4 SB_V7
          SB_ARM ")");
}

/* v12: collision */
Test(sense, v12, .timeout = 10)
{
    check(12.0, SB_HEAD " (stamina 7900.5 0.9) (speed 0.47 -59) (head_angle -45)" SB_CNT4 SB_V7
          SB_ARM SB_COLL ")");
}

/* v13: stamina capacity */
Test(sense, v13, .timeout = 10)
{
    check(13.0, SB_HEAD " (stamina 7900.5 0.9 130000) (speed 0.47 -59) (head_angle -45)" SB_CNT4
          SB_V7 SB_ARM SB_COLL ")");
}

/* v14: foul */
Test(sense, v14, .timeout = 10)
{
    check(14.0, SB_HEAD " (stamina 7900.5 0.9 130000) (speed 0.47 -59) (head_angle -45)" SB_CNT4
          SB_V7 SB_ARM SB_COLL SB_FOUL ")");
}

/* v17 = v14 layout; a red card */
Test(sense, v17, .timeout = 10)
{
    snap.player[0].card = 2;
    check(17.0, SB_HEAD " (stamina 7900.5 0.9 130000) (speed 0.47 -59) (head_angle -45)" SB_CNT4
          SB_V7 SB_ARM SB_COLL " (foul (charged 3) (card red)))");
}

/* v18: change_focus after change_view, focus_point at the end (5.5 m, -10 deg) */
Test(sense, v18, .timeout = 10)
{
    check(18.0, SB_HEAD " (stamina 7900.5 0.9 130000) (speed 0.47 -59) (head_angle -45)" SB_CNT4
          SB_V7 " (change_focus 12)" SB_ARM SB_COLL SB_FOUL " (focus_point 5.5 -10))");
}

/* v19 = v18 layout */
Test(sense, v19, .timeout = 10)
{
    check(19.0, SB_HEAD " (stamina 7900.5 0.9 130000) (speed 0.47 -59) (head_angle -45)" SB_CNT4
          SB_V7 " (change_focus 12)" SB_ARM SB_COLL SB_FOUL " (focus_point 5.5 -10))");
}

/* a fresh player: idle arm shows target 0 0, focus none, collision none, card none */
Test(sense, idle_defaults, .timeout = 10)
{
    shm_player_sh_t *p = &snap.player[0];
    p->arm_expires = 0;
    p->focus_side = 0;
    p->collision = 0;
    p->card = 0;
    p->vx = p->vy = 0.0;
    p->body = deg2rad(101.0);
    p->neck = 0.0;
    cl.view_high = 0;
    cl.view_width = SHM_VIEW_NARROW;
    char buf[1024];
    cl.version = 14.0;
    cr_assert_gt(proto_sense_body(&snap, 0, &cl, &conf, buf, sizeof buf), 0);
    /* zero velocity has angle 0, so the direction is -face = -101 */
    cr_assert(strstr(buf, "(view_mode low narrow)"), "%s", buf);
    cr_assert(strstr(buf, "(speed 0 -101)"), "%s", buf);
    cr_assert(strstr(buf, "(target 0 0)"), "%s", buf);
    cr_assert(strstr(buf, "(focus (target none) (count 11))"), "%s", buf);
    cr_assert(strstr(buf, "(collision none)"), "%s", buf);
    cr_assert(strstr(buf, "(card none)"), "%s", buf);
}

Test(sense, too_small_buffer, .timeout = 10)
{
    char buf[40];
    cl.version = 19.0;
    cr_assert_eq(proto_sense_body(&snap, 0, &cl, &conf, buf, sizeof buf), -1);
    cr_assert_eq(proto_sense_body(&snap, 22, &cl, &conf, buf, sizeof buf), -1);
    cr_assert_eq(proto_sense_body(&snap, -1, &cl, &conf, buf, sizeof buf), -1);
}
