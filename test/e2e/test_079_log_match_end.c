/* test_079_log_match_end.c -- how a match's end reaches the logs (spec
 * monitor-log-coach.md 2.3, 2.4, 7.1):
 *   - an unattended match (server::auto_mode) that ends by itself goes through the same
 *     clean stop as a signal: the recorder writes the result and renames both logs;
 *   - the log names, the (result ...) message and the result block the server prints use
 *     one start time (the sim's, published in the region);
 *   - a level match decided by the shoot-out's coin toss (pen_random_winner, every kick
 *     missed) carries the penalty scores in the names and "w" after the coin toss
 *     winner's, the side the referee announced (penalty_winner_l|r), as the reference's
 *     Team::penaltyWon; the other side gets none;
 *   - the text log has no profile lines: the reference writes them only with
 *     server::profile (default false). */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e_logs.h"
#include "e2e_ref.h"
#include "playmode.h"
#include "rcg.h"

static char out[65536];

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int matches(const char *re, const char *s)
{
    regex_t r;
    cr_assert_eq(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0, "%s", re);
    int ok = regexec(&r, s, 0, NULL, 0) == 0;
    regfree(&r);
    return ok;
}

Test(log_match_end, auto_mode_coin_toss_names_and_one_start_time, .timeout = 180)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    const char *args[] = { "server::auto_mode=true", "server::connect_wait=100",
                           "server::kick_off_wait=2", "server::game_over_wait=3",
                           "server::half_time=1", "server::nr_extra_halfs=0",
                           "server::pen_random_winner=true", "server::pen_nr_kicks=1",
                           "server::pen_max_extra_kicks=0", "server::pen_setup_wait=3",
                           "server::pen_ready_wait=5", "server::pen_taken_wait=10",
                           "server::pen_before_setup_wait=2", "server::pen_dist_x=5",
                           "server::game_logging=true", "server::text_logging=true",
                           d.game_arg, d.text_arg, NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    cr_assert_geq(e2e_ref_connect(&m, "A", 1), 0);
    cr_assert_geq(e2e_ref_connect(&m, "B", 1), 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    /* nobody kicks: 0-0, one kick each missed, still level: one more kick (the reference
     * decides after more than 2 x (nr_kicks + max_extra_kicks) kicks), then the coin */
    cr_assert_gt(e2e_ref_until(&m, PM_TIME_OVER, 600), 0, "%s", m.log);
    const char *won = strstr(m.log, "penalty_winner_");
    cr_assert(won, "%s", m.log);
    char side = won[15];
    int st = e2e_ref_finish(&m, 20000, out, sizeof out);
    cr_expect_eq(st, 0, "%s", out);
    cr_expect_not_null(strstr(out, "Game Over. Exiting..."), "%s", out);
    cr_expect(strstr(out, side == 'l' ? "\tCoin Toss Winner: Left Team\n"
                                      : "\tCoin Toss Winner: Right Team\n"), "%s", out);
    e2e_ref_stop(&m);

    /* both logs renamed: DATE-A_0_0[w]-vs-B_0_0[w], "w" on the coin's side only */
    char rcg[512], rcl[512];
    cr_assert_eq(e2e_logdir_find(&d, ".rcg", rcg, sizeof rcg), 1);
    cr_assert_eq(e2e_logdir_find(&d, ".rcl", rcl, sizeof rcl), 1);
    cr_expect_eq(e2e_logdir_count(&d), 2, "no incomplete.* left");
    const char *want = side == 'l' ? "^[0-9]{14}-A_0_0w-vs-B_0_0\\.rcg$"
                                   : "^[0-9]{14}-A_0_0-vs-B_0_0w\\.rcg$";
    cr_expect(matches(want, base(rcg)), "%s (coin: %c)", base(rcg), side);
    cr_expect_eq(strncmp(base(rcg), base(rcl), strlen(base(rcg)) - 4), 0, "%s %s", rcg, rcl);

    /* one start time: the name's date (%Y%m%d%H%M%S) is the result block's time */
    const char *gr = strstr(out, "Game Results:\n\t");
    cr_assert_not_null(gr, "%s", out);
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    cr_assert_not_null(strptime(gr + 15, "%Y-%m-%d %H:%M:%S", &tm), "%.40s", gr);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
    cr_expect_eq(strncmp(base(rcg), stamp, 14), 0, "name %s, result block %s", base(rcg), stamp);

    rcg_t g;
    char err[256], result[128];
    cr_assert_eq(rcg_read_file(rcg, &g, err, sizeof err), 0, "%s", err);
    snprintf(result, sizeof result, "(result %.12s %s)", stamp,
             side == 'l' ? "A_0_0w-vs-B_0_0" : "A_0_0-vs-B_0_0w");
    cr_expect_str_eq(g.msg[g.n_msgs - 1].text, result);
    const disp_show_t *last = &g.frame[g.n_frames - 1].show;
    cr_expect_eq(last->pmode, PM_TIME_OVER);
    cr_expect_eq(last->pen_miss[0] + last->pen_miss[1], 3, "three kicks missed");
    rcg_free(&g);
    char *text = e2e_read_file(rcl, NULL);
    cr_assert_not_null(text);
    cr_expect_not_null(strstr(text, "(referee penalty_winner_"), "the text log has the toss");
    cr_expect_null(strstr(text, "\tSIM: "), "no profile lines by default");
    cr_expect_null(strstr(text, "\tCYCLE_TIMES: "), "no log_times lines by default");
    free(text);
    e2e_logdir_remove(&d);
}
