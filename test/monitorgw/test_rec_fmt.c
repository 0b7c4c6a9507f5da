/* test_rec_fmt.c -- the text game log formats 4, 5, 6 (docs/protocol/logs.md §1,
 * §2) and the round trip through the log reader: every show written reads back into a
 * frame that writes the same line again (whole matches: test_rec_game.c; the binary and
 * JSON formats: test_rec_fmt_bin.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include "mgw.h"
#include "rcg.h"
#include "rec_fixture.h"

static rec_buf_t out;

static void fini(void)
{
    rec_buf_free(&out);
}

TestSuite(rec_fmt, .fini = fini);

/* every version of the reference 19 (docs/protocol/logs.md §1): 1-6 and -1 (JSON); nothing else */
Test(rec_fmt, every_version)
{
    for (int v = -1; v <= 6; v++) {
        if (v == 0) {
            cr_expect_null(rec_fmt_find(0));
            continue;
        }
        cr_assert_not_null(rec_fmt_find(v), "%d", v);
        cr_expect_eq(rec_fmt_find(v)->version, v);
        cr_expect_not_null(rec_fmt_find(v)->show_disp);
    }
    cr_expect_null(rec_fmt_find(7));
    cr_expect_null(rec_fmt_find(-2));
    cr_expect_eq(rec_fmt_find(1)->referee_always, 1, "v1 records referee messages anyway");
    for (int v = 2; v <= 6; v++)
        cr_expect_eq(rec_fmt_find(v)->referee_always, 0);
    cr_expect_eq(rec_fmt_find(-1)->referee_always, 0);
}

/* "ULGn\n", then server_param, player_param and one player_type line per type, in this
 * order, each on its own line (docs/protocol/logs.md §2 and the reference's InitSenderLoggerV4) */
Test(rec_fmt, head_lines)
{
    rec_head_t h;
    fx_head(&h);
    for (int v = 4; v <= 6; v++) {
        char want[8];
        rec_buf_clear(&out);
        cr_assert_eq(rec_fmt_find(v)->head(&out, &h), 0);
        snprintf(want, sizeof want, "ULG%d\n", v);
        cr_expect(strncmp(out.p, want, 5) == 0, "%.10s", out.p);
        const char *l = out.p + 5;
        cr_expect(strncmp(l, "(server_param (", 15) == 0);
        l = strchr(l, '\n') + 1;
        cr_expect(strncmp(l, "(player_param (", 15) == 0);
        for (int i = 0; i < 3; i++) {
            char id[32];
            l = strchr(l, '\n') + 1;
            snprintf(id, sizeof id, "(player_type (id %d)(", i);
            cr_expect(strncmp(l, id, strlen(id)) == 0, "%.40s", l);
        }
        cr_expect_eq(*(strchr(l, '\n') + 1), '\0', "nothing after the types");
        /* the log's parameters include the monitor-only ones (tag 999) */
        cr_expect_not_null(strstr(out.p, "(max_monitors -1)"));
        cr_expect_not_null(strstr(out.p, "(game_log_version 6)"));
    }
}

/* (show T ((b) ...) ...): no (pm) and no (tm) in a log show; v4 = monitor v3 (no stamina
 * capacity), v5 = monitor v4 (capacity), v6 = monitor v5 (focus point, 12 counters) */
Test(rec_fmt, show_line_per_version)
{
    shm_snapshot_sh_t s;
    fx_busy(&s, 7);
    cr_assert_eq(rec_fmt_v4.show(&out, &s), 0);
    const char *start = "(show 7 ((b) 12.7135 -3 0.1875 -0) ((l 1) 0 0x9 ";
    cr_expect(strncmp(out.p, start, strlen(start)) == 0, "%.80s", out.p);
    cr_expect_null(strstr(out.p, "(pm"));
    cr_expect_null(strstr(out.p, "(tm"));
    cr_expect_null(strstr(out.p, "(fp"));
    cr_expect_eq(out.p[out.len - 1], '\n');
    /* player l 1: stamina 8000 - 0 - 7, effort 0.8, recovery 1; v4 has three values */
    cr_expect_not_null(strstr(out.p, "(s 7993 0.8 1) (c 7 14 21 28 35 42 49 56 63 70 77))"));
    rec_buf_clear(&out);
    cr_assert_eq(rec_fmt_v5.show(&out, &s), 0);
    cr_expect_not_null(strstr(out.p, "(s 7993 0.8 1 130600) (c 7 14 21 28 35 42 49 56 63 70 77))"));
    rec_buf_clear(&out);
    cr_assert_eq(rec_fmt_v6.show(&out, &s), 0);
    cr_expect_not_null(strstr(out.p, "(fp 0 -11.4592) (s 7993 0.8 1 130600) "
                                     "(c 7 14 21 28 35 42 49 56 63 70 77 84))"), "%.400s", out.p);
}

Test(rec_fmt, playmode_team_msg_lines)
{
    shm_snapshot_sh_t s;
    fx_busy(&s, 120);
    s.play_mode = 4;
    rec_fmt_v6.playmode(&out, &s);
    rec_fmt_v6.team(&out, &s);
    s.team[1][0] = '\0';
    s.pen_score[0] = 3;
    s.pen_miss[1] = 1;
    rec_fmt_v6.team(&out, &s);
    rec_fmt_v6.msg(&out, 120, 0, 1, "(referee goal_l_2)", 18);
    rec_fmt_v6.msg(&out, 121, 4, 2, "two\nlines", 9);
    rec_fmt_v6.tail(&out, &s);
    /* team: names ("null" when none), scores, penalties (score, miss per side) only once a
     * penalty was taken; a message's newlines become spaces, its quotes stay; the tail is
     * the final team line */
    cr_expect_str_eq(out.p, "(playmode 120 kick_off_l)\n"
                            "(team 120 Alpha Beta 2 0)\n"
                            "(team 120 Alpha null 2 0 3 0 0 1)\n"
                            "(msg 120 1 \"(referee goal_l_2)\")\n"
                            "(msg 121 2 \"two lines\")\n"
                            "(team 120 Alpha null 2 0 3 0 0 1)\n");
}

/* a show read back and written again gives the same line */
Test(rec_fmt, show_round_trip)
{
    const rec_fmt_t *f[3] = { &rec_fmt_v4, &rec_fmt_v5, &rec_fmt_v6 };
    for (int v = 0; v < 3; v++) {
        for (int t = 0; t < 300; t += 37) {
            shm_snapshot_sh_t s;
            disp_show_t back;
            fx_busy(&s, t);
            rec_buf_clear(&out);
            cr_assert_eq(f[v]->show(&out, &s), 0);
            size_t first = out.len;
            memset(&back, 0, sizeof back);
            cr_assert_eq(rcg_parse_show(out.p, &back), 0, "v%d t %d: %s", v + 4, t, out.p);
            cr_assert_eq(f[v]->show_disp(&out, &back), 0);
            cr_expect_eq(out.len, 2 * first);
            cr_expect(memcmp(out.p, out.p + first, first) == 0, "v%d t %d:\n%s", v + 4, t, out.p);
        }
    }
}

/* the monitor form (with pm and tm) is read too */
Test(rec_fmt, monitor_show_is_read)
{
    shm_snapshot_sh_t s;
    disp_show_t back;
    char line[MGW_FRAME_MAX];
    fx_busy(&s, 99);
    s.pen_score[1] = 2;
    cr_assert_gt(mgw_encode_show(&s, 5, line, sizeof line), 0);
    memset(&back, 0, sizeof back);
    cr_assert_eq(rcg_parse_show(line, &back), 0);
    cr_expect_eq(back.pmode, 3);
    cr_expect_str_eq(back.team[0], "Alpha");
    cr_expect_str_eq(back.team[1], "Beta");
    cr_expect_eq(back.score[0], 1);
    cr_expect_eq(back.pen_score[1], 2);
    char again[MGW_FRAME_MAX];
    cr_assert_gt(mgw_encode_show_disp(&back, 5, again, sizeof again), 0);
    cr_expect_str_eq(again, line);
}
