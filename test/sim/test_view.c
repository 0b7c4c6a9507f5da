/* test_view.c -- change_focus and change_view in the sim (docs/protocol/player.md §10, §5.2): the
 * focus direction stays within half the visible angle of the view width
 * (server::visible_angle 90: 45, 90, 180 degrees asynchronous, 60, 120, 180 with synch
 * see), the two-argument change_view leaves the focus alone, and the one-argument form
 * pulls it back within the new width, as the reference's change_view(width) does. */
#include <criterion/criterion.h>
#include <math.h>
#include "test_sim_util.h"

#define EPS 1e-12
#define DEG (M_PI / 180.0)

static sim_world_t w;

static void view(sim_player_t *p, int width, int one_arg)
{
    shm_cmd_sh_t c = test_cmd(SHM_CMD_CHANGE_VIEW, 0.0, 0.0);
    c.i = width;
    c.flags = one_arg ? 2u : 0u;
    sim_cmd_player(&w, shm_player_index(p->sh.side, p->sh.unum), &c);
}

Test(view, change_focus_stays_within_the_view, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CHANGE_FOCUS, 10.0, 80.0);
    cr_expect_float_eq(p->sh.focus_dir, 45.0 * DEG, EPS, "normal, async: 90 / 2");
    cr_expect_float_eq(p->sh.focus_dist, 10.0, EPS);
    cr_expect_eq(p->sh.count[SHM_CNT_CHANGE_FOCUS], 1u);
}

Test(view, two_argument_change_view_keeps_the_focus, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    view(p, SHM_VIEW_WIDE, 0);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CHANGE_FOCUS, 0.0, 80.0);
    cr_expect_float_eq(p->sh.focus_dir, 80.0 * DEG, EPS, "wide: up to 90");
    view(p, SHM_VIEW_NARROW, 0);
    cr_expect_float_eq(p->sh.focus_dir, 80.0 * DEG, EPS, "(change_view narrow high)");
    cr_expect_eq(p->sh.count[SHM_CNT_CHANGE_VIEW], 2u);
}

Test(view, one_argument_change_view_clamps_the_focus, .timeout = 10)
{
    test_world(&w, 1, 1);
    sim_player_t *p = test_player(&w, SHM_SIDE_LEFT, 1, 0.0, 0.0, 0.0);
    view(p, SHM_VIEW_WIDE, 1);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CHANGE_FOCUS, 0.0, -80.0);
    cr_expect_float_eq(p->sh.focus_dir, -80.0 * DEG, EPS);
    view(p, SHM_VIEW_NARROW, 1);
    cr_expect_float_eq(p->sh.focus_dir, -22.5 * DEG, EPS, "narrow, async: 45 / 2");
    p->sh.synch_see = 1;
    view(p, SHM_VIEW_WIDE, 1);
    test_apply(&w, SHM_SIDE_LEFT, 1, SHM_CMD_CHANGE_FOCUS, 0.0, 100.0);
    cr_expect_float_eq(p->sh.focus_dir, 77.5 * DEG, EPS);
    view(p, SHM_VIEW_NORMAL, 1);
    cr_expect_float_eq(p->sh.focus_dir, 60.0 * DEG, EPS, "normal, synch see: 120 / 2");
}
