/* test_lp_ctl.c -- the log player's playback commands: step/back move and pause, jump goes
 * to the first frame of a cycle, play/reverse run the timer until an end, faster/slower
 * double and halve within bounds, bad commands are errors that change nothing. */
#include <criterion/criterion.h>
#include <string.h>
#include "lp.h"

static rcg_t g;
static lp_play_t p;
static char reply[320];

/* frames at cycles 1..5, then three frames of cycle 5 (a stoppage), then 6..9 */
static void setup(void)
{
    static const int times[] = { 1, 2, 3, 4, 5, 5, 5, 6, 7, 8, 9 };
    memset(&g, 0, sizeof g);
    g.n_frames = (int)(sizeof times / sizeof times[0]);
    g.frame = calloc((size_t)g.n_frames, sizeof *g.frame);
    for (int i = 0; i < g.n_frames; i++) {
        g.frame[i].show.time = times[i];
        g.frame[i].show.pmode = 3;
    }
    lp_init(&p, g.n_frames);
}

static void fini(void)
{
    free(g.frame);
}

TestSuite(lp_ctl, .init = setup, .fini = fini);

static int cmd(const char *c)
{
    return lp_command(&p, &g, c, reply, sizeof reply);
}

Test(lp_ctl, step_back_and_the_ends)
{
    cr_expect_eq(cmd("step"), LP_OUT_FRAME | LP_OUT_TIMER);
    cr_expect_eq(p.cur, 1);
    cr_expect_str_eq(reply, "cycle 2 frame 2/11 paused forward x1 play_on");
    cr_expect_eq(cmd("step 3") & LP_OUT_FRAME, LP_OUT_FRAME);
    cr_expect_eq(p.cur, 4);
    cr_expect_eq(cmd("back 10") & LP_OUT_FRAME, LP_OUT_FRAME);
    cr_expect_eq(p.cur, 0, "clamped at the first frame");
    cr_expect_eq(cmd("back") & LP_OUT_FRAME, 0, "nothing before the first");
    cr_expect_eq(cmd("last") & LP_OUT_FRAME, LP_OUT_FRAME);
    cr_expect_eq(p.cur, 10);
    cr_expect_eq(cmd("first") & LP_OUT_FRAME, LP_OUT_FRAME);
    cr_expect_eq(p.cur, 0);
}

Test(lp_ctl, jump_to_a_cycle)
{
    cmd("jump 5");
    cr_expect_eq(p.cur, 4, "the first frame of cycle 5");
    cmd("jump 6");
    cr_expect_eq(p.cur, 7);
    cmd("jump 100");
    cr_expect_eq(p.cur, 10);
    cmd("jump -3");
    cr_expect_eq(p.cur, 0);
}

Test(lp_ctl, play_and_reverse_stop_at_the_ends)
{
    cr_expect_eq(cmd("play"), LP_OUT_TIMER);
    cr_expect(p.playing && p.dir == 1);
    int frames = 0;
    while (p.playing) {
        int out = lp_tick(&p);
        frames += (out & LP_OUT_FRAME) != 0;
        cr_assert_lt(frames, 20);
    }
    cr_expect_eq(frames, 10);
    cr_expect_eq(p.cur, 10);
    cr_expect_eq(lp_tick(&p), 0, "stopped");
    cmd("reverse");
    cr_expect_eq(p.dir, -1);
    lp_tick(&p);
    cr_expect_eq(p.cur, 9);
    cr_expect_eq(cmd("pause"), LP_OUT_TIMER);
    cr_expect_eq(lp_tick(&p), 0);
    cr_expect_eq(p.cur, 9);
}

Test(lp_ctl, speed)
{
    cr_expect_eq(lp_period_ms(&p), 100);
    cmd("faster");
    cr_expect_eq(lp_period_ms(&p), 50);
    cr_expect_not_null(strstr(reply, " x2"));
    cmd("slower");
    cmd("slower");
    cr_expect_eq(lp_period_ms(&p), 200);
    for (int i = 0; i < 20; i++)
        cmd("slower");
    cr_expect_eq(p.speed, LP_SPEED_MIN);
    cmd("speed 1000");
    cr_expect_eq(p.speed, LP_SPEED_MAX);
    cr_expect_eq(lp_period_ms(&p), 2);
    cmd("speed 0.5");
    cr_expect_eq(lp_period_ms(&p), 200);
}

Test(lp_ctl, bad_commands_change_nothing)
{
    const char *bad[] = { "bogus", "step x", "step 0", "back -1", "jump", "jump 3x",
                          "speed", "speed -1", "speed nan", "play now please" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_eq(cmd(bad[i]), LP_OUT_ERROR, "%s", bad[i]);
        cr_expect_eq(strncmp(reply, "error: ", 7), 0);
        cr_expect_eq(p.cur, 0);
        cr_expect_eq(p.playing, 0);
        cr_expect_eq(p.speed, 1.0);
    }
    cr_expect_eq(cmd("   "), 0, "an empty line shows the status");
    cr_expect_eq(cmd("quit"), LP_OUT_QUIT);
}

Test(lp_ctl, empty_log)
{
    rcg_t none;
    memset(&none, 0, sizeof none);
    lp_init(&p, 0);
    cr_expect_eq(lp_command(&p, &none, "step", reply, sizeof reply) & LP_OUT_FRAME, 0);
    cr_expect_eq(lp_command(&p, &none, "last", reply, sizeof reply) & LP_OUT_FRAME, 0);
    cr_expect_str_eq(reply, "cycle 0 frame 0/0 paused forward x1");
}

/* the page's state: the same facts as the status line, as one JSON object */
Test(lp_ctl, status_json)
{
    char js[512];
    g.version = 3;
    cmd("jump 5");
    cmd("faster");
    cmd("reverse");
    cr_assert_gt(lp_status_json(&p, &g, 1, js, sizeof js), 0);
    cr_expect_str_eq(js, "{\"replay\":{\"cycle\":5,\"frame\":5,\"frames\":11,\"playing\":true,"
                         "\"dir\":\"backwards\",\"speed\":2,\"mode\":\"play_on\",\"first\":1,"
                         "\"last\":9,\"version\":3,\"cmd\":true}}");
    cr_expect_eq(lp_status_json(&p, &g, 0, js, 40), -1, "too small");
}
