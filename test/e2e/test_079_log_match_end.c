/* test_079_log_match_end.c -- how a match's end reaches the logs and stdout (see
 * docs/protocol/logs.md §3, §4, §6, §7, §8):
 *   - an unattended match (server::auto_mode) that ends by itself goes through the same
 *     clean stop as a signal: the recorder writes the result and renames both logs;
 *   - the log names, the (result ...) message and the result block the server prints use
 *     one start time (the sim's, published in the region);
 *   - a level match decided by the shoot-out's coin toss (pen_random_winner, every kick
 *     missed) carries the penalty scores in the names and "w" after the coin toss
 *     winner's, the side the referee announced (penalty_winner_l|r), as the reference's
 *     Team::penaltyWon; the other side gets none;
 *   - the text log has no profile lines: the reference writes them only with
 *     server::profile (default false);
 *   - stdout, the game log and the text log of an unattended match line by line (the
 *     last test). */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* ---- stdout and the logs of an unattended match, line by line ------------------------ */
/* The lines the reference prints on stdout (docs/protocol/logs.md §7, §8), as patterns:
 * stdout holds these and nothing else (this server's own messages go to stderr). */
static const char *const stdout_grammar[] = {
    "^rcssserver-19\\.0\\.0$", "^$", "^(Using given )?Simulator Random Seed: [0-9]+$",
    "^(CSVSaver|STDOutSaver): Ready$",
    "^(Using given |Using simulator's random seed as )Hetero Player Seed: -?[0-9]+$",
    "^wind factor: rand: [0-9]+\\.[0-9]{6}, vector: \\(-?[0-9]+\\.[0-9]{6}, -?[0-9]+\\.[0-9]{6}\\)$",
    "^Hit CTRL-C to exit$",
    "^A new \\(v[0-9]+\\) player \\([A-Za-z0-9_]+ [0-9]+\\) connected\\.$",
    "^A player \\([A-Za-z0-9_]+ [0-9]+\\) reconnected\\.$",
    "^A player disconnected : \\([A-Za-z0-9_]+ [0-9]+\\)$",
    "^A new \\(v[0-9]+\\) online coach \\([A-Za-z0-9_]+\\) connected\\.$",
    "^An online coach disconnected : \\([A-Za-z0-9_]+( [A-Za-z0-9_]+)?\\)$",
    "^A new \\(v[0-9.]+\\) offline coach connected$", "^An offline coach disconnected$",
    "^A new \\((v[0-9]+|json)\\) monitor connected\\.$", "^A monitor disconnected$",
    "^rcssserver changes \\(player [A-Za-z0-9_]+ [0-9]+\\) to type [0-9]+$",
    "^Waiting (for players to connect|to kick off|after end of match)$",
    "^Kick_off_(left|right)$", "^(Game Over|Server Killed|Quit Server)\\. Exiting\\.\\.\\.$",
    "^Saving Results:$", "^\t(CSVSaver|STDOutSaver): (saving\\.\\.\\.|\\.\\.\\.disabled|\\.\\.\\.saved)$",
    "^Game Results:$", "^\t[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
    "^\t('[^']*'|null) vs ('[^']*'|null)$", "^\t(Left|Right) Coach: '[^']*'$",
    "^\tScore: [0-9]+ - [0-9]+$", "^ (\tPenalties: [0-9]+ \\([0-9]+\\) - [0-9]+ \\([0-9]+\\))?$",
    "^\tCoin Toss Winner: (Left|Right) Team$", "^Saving Results Complete$", NULL
};

#define OUT_LINES 128

/* split text into lines (text is modified); the number of lines */
static int split_lines(char *text, char *line[], int max)
{
    int n = 0;
    for (char *p = text; *p && n < max;) {
        char *e = strchr(p, '\n');
        line[n++] = p;
        if (!e)
            break;
        *e = '\0';
        p = e + 1;
    }
    return n;
}

/* index of the first line i >= from equal to want, -1 if none */
static int find_line(char *const line[], int n, int from, const char *want)
{
    for (int i = from; i < n; i++) {
        if (strcmp(line[i], want) == 0)
            return i;
    }
    return -1;
}

static int count_line(char *const line[], int n, const char *want)
{
    int k = 0;
    for (int i = 0; (i = find_line(line, n, i, want)) >= 0; i++)
        k++;
    return k;
}

/* An auto-mode match of two halves of 10 cycles: teams A and B of a goalie and one more
 * player of the default type each (pt_max 1: the kick-off's type assignment changes the
 * second), B's goalie leaves with (bye), B 2's client goes away without a word (its port
 * refuses what the server sends), A's online coach "Coachy" leaves. Checked:
 *   - stdout: the reference's lines only (the grammar above), the start block in its
 *     order, each event's line once, the type change just before the kick-off it belongs
 *     to, the result block;
 *   - the game log: no show at time 0 nor at the half-time cycle 10 (the reference
 *     writes its show in the step, before the automatic kick-off): the halves' first shows
 *     are 1 and 11, each after its (playmode) line;
 *   - the text log: the coach's (bye), at the cycle it was sent; a player's datagram of
 *     248 characters whole (a command record carries 215). */
Test(log_match_end, stdout_and_logs_line_by_line, .timeout = 180)
{
    e2e_logdir_t d;
    cr_assert_eq(e2e_logdir_make(&d), 0);
    char out_path[400];
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", d.dir);
    const char *args[] = { "server::auto_mode=true", "server::connect_wait=20",
                           "server::kick_off_wait=2", "server::game_over_wait=3",
                           "server::half_time=1", "server::nr_extra_halfs=0",
                           "server::penalty_shoot_outs=false", "server::game_logging=true",
                           "server::text_logging=true", d.game_arg, d.text_arg, NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start_out(&m, args, out_path), 0);
    int a1 = e2e_ref_connect(&m, "A", 1), a2 = e2e_ref_connect(&m, "A", 0);
    int b1 = e2e_ref_connect(&m, "B", 1), b2 = e2e_ref_connect(&m, "B", 0);
    cr_assert(a1 >= 0 && a2 >= 0 && b1 >= 0 && b2 >= 0);
    int oc = e2e_udp_open(), oport = 0;
    char buf[8192];
    e2e_send(oc, m.s.olcoach_port, "(init A Coachy (version 19))");
    cr_assert_gt(e2e_recv_prefix(oc, "(init l ok)", buf, sizeof buf, 2000, &oport), 0);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    cr_assert_gt(e2e_ref_until(&m, PM_KICK_OFF_L, 200), 0, "%s", m.log);
    char longer[256] = "";
    for (int i = 0; i < 31; i++)
        strcat(longer, "(turn 0)");
    e2e_ref_say(&m, a1, longer);
    cr_assert_eq(e2e_ref_cycles(&m, 3), 0);
    e2e_ref_say(&m, b1, "(bye)");
    m.pl[b1].gone = 1;
    cr_assert_eq(e2e_ref_cycles(&m, 2), 0);
    e2e_send(m.pl[b2].fd, m.pl[b2].port, "(done)"); /* its last, then gone: what the */
    close(m.pl[b2].fd);                             /* server sends next is refused */
    m.pl[b2].fd = -1;
    m.pl[b2].gone = 1;
    int bye_time = m.time;
    e2e_send(oc, oport, "(bye)");
    cr_assert_eq(e2e_ref_cycles(&m, 2), 0);
    cr_assert_gt(e2e_ref_until(&m, PM_TIME_OVER, 200), 0, "%s", m.log);
    static char log[65536];
    cr_expect_eq(e2e_ref_finish(&m, 20000, log, sizeof log), 0, "%s", log);
    e2e_ref_stop(&m);
    close(oc);

    /* stdout: only the reference's lines */
    char *text = e2e_read_file(out_path, NULL);
    cr_assert_not_null(text);
    char *line[OUT_LINES];
    int n = split_lines(text, line, OUT_LINES);
    if (n > 0 && line[n - 1][0] == '\0')
        n--; /* after the last newline */
    for (int i = 0; i < n; i++) {
        int ok = 0;
        for (int g = 0; stdout_grammar[g] && !ok; g++)
            ok = matches(stdout_grammar[g], line[i]);
        cr_expect(ok, "stdout line %d is not one of the reference's: \"%s\"", i + 1, line[i]);
    }
    /* the start block in the reference's order */
    cr_assert_geq(n, 9);
    cr_expect_str_eq(line[0], "rcssserver-19.0.0");
    cr_expect_str_eq(line[1], "");
    cr_expect(matches("^Simulator Random Seed: [0-9]+$", line[2]), "%s", line[2]);
    cr_expect_str_eq(line[3], "CSVSaver: Ready");
    cr_expect_str_eq(line[4], "STDOutSaver: Ready");
    cr_expect(matches("^Using simulator's random seed as Hetero Player Seed: [0-9]+$", line[5]),
              "%s", line[5]);
    cr_expect(matches("^wind factor: rand: 0\\.000000, vector: \\(0\\.000000, 0\\.000000\\)$",
                      line[6]), "%s", line[6]);
    cr_expect_str_eq(line[7], "");
    cr_expect_str_eq(line[8], "Hit CTRL-C to exit");
    /* each event once */
    static const char *const once[] = {
        "A new (v19) offline coach connected", "A new (v19) player (A 1) connected.",
        "A new (v19) player (A 2) connected.", "A new (v19) player (B 1) connected.",
        "A new (v19) online coach (A) connected.", "Waiting for players to connect",
        "A new (v19) player (B 2) connected.", "rcssserver changes (player A 2) to type 1",
        "rcssserver changes (player B 2) to type 1", "Kick_off_left", "Waiting to kick off",
        "Kick_off_right", "A player disconnected : (B 1)", "A player disconnected : (B 2)",
        "An online coach disconnected : (A Coachy)", "Waiting after end of match",
        "Game Over. Exiting...", NULL
    };
    for (int i = 0; once[i]; i++)
        cr_expect_eq(count_line(line, n, once[i]), 1, "\"%s\" once", once[i]);
    cr_expect_eq(count_line(line, n, "A player disconnected : (A 1)"), 0, "A 1 stayed");
    /* the order events give */
    int change = find_line(line, n, 0, "rcssserver changes (player A 2) to type 1");
    int kol = find_line(line, n, 0, "Kick_off_left");
    cr_expect(change > find_line(line, n, 0, "A new (v19) player (A 2) connected."));
    cr_expect_eq(find_line(line, n, 0, "rcssserver changes (player B 2) to type 1"), change + 1,
                 "the left team's changes, then the right's");
    cr_expect_eq(kol, change + 2, "the type changes, then the kick-off they belong to");
    int left = find_line(line, n, 0, "A player disconnected : (B 1)");
    cr_expect(find_line(line, n, 0, "A player disconnected : (B 2)") > left);
    int kor = find_line(line, n, 0, "Kick_off_right");
    cr_expect(left > kol && find_line(line, n, 0, "Waiting to kick off") < kor);
    int end = find_line(line, n, 0, "Waiting after end of match");
    cr_expect(end > kor && end > left);
    /* the result block closes stdout */
    static const char *const tail[] = {
        "", "Game Over. Exiting...", "", "Saving Results:", "\tCSVSaver: saving...",
        "\tCSVSaver: ...disabled", "\tSTDOutSaver: saving...", "", "Game Results:", NULL,
        "\t'A' vs 'B'", "\tLeft Coach: 'Coachy'", "\tScore: 0 - 0", " ",
        "\tSTDOutSaver: ...saved", "", "Saving Results Complete"
    };
    int nt = (int)(sizeof tail / sizeof tail[0]);
    cr_assert_geq(n, nt);
    for (int i = 0; i < nt; i++) {
        if (tail[i])
            cr_expect_str_eq(line[n - nt + i], tail[i], "result block line %d", i + 1);
    }
    free(text);

    /* the game log: the halves' first shows at 1 and 11, nothing at 0 and 10 */
    char rcg[512], rcl[512];
    cr_assert_eq(e2e_logdir_find(&d, ".rcg", rcg, sizeof rcg), 1);
    cr_assert_eq(e2e_logdir_find(&d, ".rcl", rcl, sizeof rcl), 1);
    char *g = e2e_read_file(rcg, NULL);
    cr_assert_not_null(g);
    cr_expect_null(strstr(g, "(show 0 "));
    cr_expect_null(strstr(g, "(show 10 "));
    cr_expect_null(strstr(g, "(playmode 0 "));
    cr_expect_not_null(strstr(g, "\n(playmode 1 kick_off_l)\n(team 1 A B 0 0)\n(show 1 "));
    cr_expect_not_null(strstr(g, "\n(show 9 "));
    cr_expect_not_null(strstr(g, "\n(playmode 11 kick_off_r)\n(show 11 "));
    cr_expect_null(strstr(g, "(msg 0 "), "nothing but the reference's items before the kick-off");
    free(g);
    /* the text log: the coach's (bye) when it came */
    char *t = e2e_read_file(rcl, NULL);
    cr_assert_not_null(t);
    const char *bye = strstr(t, "\tRecv A_Coach: (bye)\n");
    cr_assert_not_null(bye, "the online coach's (bye) is in the text log");
    const char *bol = bye;
    while (bol > t && bol[-1] != '\n')
        bol--;
    int when = atoi(bol);
    cr_expect(when >= bye_time && when <= bye_time + 1, "(bye) at %d, sent at %d", when,
              bye_time);
    cr_expect_not_null(strstr(t, "\tRecv B_1: (bye)\n"));
    char want[300];
    snprintf(want, sizeof want, "\tRecv A_1: %s\n", longer);
    cr_expect_not_null(strstr(t, want), "the long datagram whole");
    free(t);
    e2e_logdir_remove(&d);
}
