/* test_039_ref_auto.c -- unattended matches (docs/protocol/logs.md §7, §8;
 * docs/protocol/referee.md §13; docs/protocol/referee.md §12): server::auto_mode with 22
 * players of the test in synch mode. The server kicks off each half by itself after
 * kick_off_wait steps, ends the game, waits game_over_wait steps, prints the result block
 * and exits with status 0. One match is won by a goal of a simple left striker; a match of
 * 22 players standing still is level after normal time, goes through both extra halves and
 * a shoot-out that every attempt misses, and ends with the coin toss (pen_random_winner).
 * And the server starting both teams itself (team_l_start, team_r_start: two rcss-demoteam
 * programs, real time), stopping them with SIGINT at the end. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "e2e_ref.h"
#include "playmode.h"

static char out[65536];

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* 11 players a side, goalies first; returns the index of the left number 11 */
static int two_teams(e2e_ref_t *m)
{
    for (int k = 0; k < 2; k++) {
        for (int u = 1; u <= 11; u++)
            cr_assert_geq(e2e_ref_connect(m, k == 0 ? "A" : "B", u == 1), 0);
    }
    return 10;
}

static double norm_deg(double a)
{
    while (a > 180.0)
        a -= 360.0;
    while (a < -180.0)
        a += 360.0;
    return a;
}

/* the left striker: dribbles towards the right goal and shoots from 25 m */
static void striker(e2e_ref_t *m, int s)
{
    e2e_obj_t *p = e2e_ref_obj(m, s);
    if (!p)
        return;
    double bx = m->w.ball.x, by = m->w.ball.y, d = hypot(bx - p->x, by - p->y);
    char cmd[64];
    if (d < 0.95) {
        double to_goal = atan2(-by, 52.5 - bx) * 180.0 / M_PI;
        snprintf(cmd, sizeof cmd, "(kick %d %.1f)", hypot(52.5 - bx, by) < 25.0 ? 100 : 45,
                 norm_deg(to_goal - p->body));
    } else {
        double diff = norm_deg(atan2(by - p->y, bx - p->x) * 180.0 / M_PI - p->body);
        double speed = hypot(p->vx, p->vy), turn = diff * (1.0 + 5.0 * speed);
        if (fabs(diff) > 15.0)
            snprintf(cmd, sizeof cmd, "(turn %.1f)", fmax(-180.0, fmin(180.0, turn)));
        else
            snprintf(cmd, sizeof cmd, "(dash 100)");
    }
    e2e_ref_say(m, s, cmd);
}

/* before the first kick-off: number 10 on the spot to pass to the striker (a taker
 * who kicked, dashed and kicked again would commit a free kick fault), the striker
 * behind him, everybody else off the axis */
static void line_up(e2e_ref_t *m, int s)
{
    char cmd[64];
    for (int i = 0; i < m->np; i++) {
        int right = strcmp(m->pl[i].team, "B") == 0, u = m->pl[i].unum;
        if (i == s - 1)
            snprintf(cmd, sizeof cmd, "(move -0.5 0)");
        else if (i == s)
            snprintf(cmd, sizeof cmd, "(move -3 1)");
        else if (u == 1)
            snprintf(cmd, sizeof cmd, "(move -50 %d)", right ? 25 : -25);
        else
            snprintf(cmd, sizeof cmd, "(move -%d %d)", right ? 20 + u : 15 + u, u % 2 ? 12 + u : -12 - u);
        e2e_ref_say(m, i, cmd);
    }
}

Test(ref_auto, full_match_unattended, .timeout = 240)
{
    const char *args[] = { "server::auto_mode=true", "server::half_time=15",
                           "server::kick_off_wait=3", "server::connect_wait=50",
                           "server::game_over_wait=5", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    int s = two_teams(&m);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    line_up(&m, s);
    /* nobody starts the match: the referee does, kick_off_wait steps after all 22 came */
    cr_assert_gt(e2e_ref_until(&m, PM_KICK_OFF_L, 10), 0);
    cr_expect_eq(m.time, 0, "kicked off after the step: the clock runs from the next");
    e2e_ref_say(&m, s - 1, "(kick 15 0)");
    while (m.pm != PM_TIME_OVER) {
        striker(&m, s);
        cr_assert_eq(e2e_ref_cycle(&m), 0, "%s", m.log);
        cr_assert_lt(m.time, 400, "%s", m.log);
    }
    int goals = count(m.log, "goal_l_");
    cr_expect_gt(goals, 0, "the striker scored: %s", m.log);
    cr_expect(strncmp(m.log, "0 kick_off_l;", 13) == 0, "%s", m.log);
    cr_expect(strstr(m.log, "150 half_time;150 before_kick_off;150 kick_off_r;"), "%s", m.log);
    cr_expect(strstr(m.log, "300 time_up;300 time_over;"), "%s", m.log);
    int st = e2e_ref_finish(&m, 20000, out, sizeof out);
    cr_expect_eq(st, 0, "exit status");
    /* what the reference prints (docs/protocol/logs.md §8 and §7) */
    cr_expect(strstr(out, "Waiting to kick off\n") && strstr(out, "Kick_off_left\n")
              && strstr(out, "Kick_off_right\n") && strstr(out, "Waiting after end of match\n"),
              "%s", out);
    char score[64];
    snprintf(score, sizeof score, "\n\tScore: %d - 0\n \n", goals);
    cr_expect(strstr(out, "\nGame Over. Exiting...\n\nSaving Results:\n"), "%s", out);
    cr_expect(strstr(out, "\n\t'A' vs 'B'\n") && strstr(out, score), "%s", out);
    cr_expect(strstr(out, "Saving Results Complete\n"), "%s", out);
    e2e_ref_stop(&m);
}

Test(ref_auto, level_match_extra_time_penalties_coin_toss, .timeout = 240)
{
    const char *args[] = { "server::auto_mode=true", "server::half_time=2",
                           "server::extra_half_time=2", "server::kick_off_wait=2",
                           "server::game_over_wait=3", "server::pen_random_winner=true",
                           "server::pen_setup_wait=2", "server::pen_ready_wait=2",
                           "server::pen_before_setup_wait=1", NULL };
    e2e_ref_t m;
    cr_assert_eq(e2e_ref_start(&m, args), 0);
    two_teams(&m);
    cr_assert_eq(e2e_ref_sync(&m), 0);
    cr_assert_gt(e2e_ref_until(&m, PM_TIME_OVER, 1500), 0, "%s", m.log);
    cr_expect(strstr(m.log, "20 half_time;") && strstr(m.log, "40 time_extended;")
              && strstr(m.log, "60 time_extended;") && strstr(m.log, "80 penalty_onfield_"),
              "%s", m.log);
    /* 5 + 5 each, all missed, then the 21st kick and the coin */
    cr_expect_eq(count(m.log, "penalty_miss_"), 21, "%s", m.log);
    const char *won = strstr(m.log, "penalty_winner_");
    cr_assert(won, "%s", m.log);
    char side = won[15];
    int st = e2e_ref_finish(&m, 20000, out, sizeof out);
    cr_expect_eq(st, 0, "%s", out + (strlen(out) > 3000 ? strlen(out) - 3000 : 0));
    cr_expect(strstr(out, "\tScore: 0 - 0\n \tPenalties: 0 (11) - 0 (10)\n")
              || strstr(out, "\tScore: 0 - 0\n \tPenalties: 0 (10) - 0 (11)\n"), "%s", out);
    cr_expect(strstr(out, side == 'l' ? "\tCoin Toss Winner: Left Team\n"
                                      : "\tCoin Toss Winner: Right Team\n"), "%s", out);
    e2e_ref_stop(&m);
}

/* a free UDP port on 127.0.0.1 (released for the server) */
static int free_port(void)
{
    int fd = e2e_udp_open();
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &l);
    close(fd);
    return ntohs(a.sin_port);
}

Test(ref_auto, server_starts_the_teams, .timeout = 120)
{
    const char *bin = getenv("RCSS_BIN_DIR") ? getenv("RCSS_BIN_DIR") : "build/bin";
    int port = free_port();
    char a_port[64], a_left[600], a_right[600];
    snprintf(a_port, sizeof a_port, "server::port=%d", port);
    snprintf(a_left, sizeof a_left, "exec %s/rcss-demoteam %d TeamL", bin, port);
    snprintf(a_right, sizeof a_right, "exec %s/rcss-demoteam %d TeamR", bin, port);
    /* a value with blanks as its own argument (it is single-quoted when the arguments
     * are joined, docs/protocol/config.md §2); this port replaces the harness's */
    const char *args[] = { a_port, "server::team_l_start", "=", a_left,
                           "server::team_r_start", "=", a_right, "server::auto_mode=true",
                           "server::half_time=2", "server::kick_off_wait=5",
                           "server::game_over_wait=5", "server::nr_extra_halfs=0",
                           "server::penalty_shoot_outs=false", NULL };
    e2e_server_t s;
    cr_assert_eq(e2e_server_start(&s, args), 0);
    int st = e2e_server_wait(&s, 60000, out, sizeof out);
    cr_expect_eq(st, 0, "%s", out);
    char want[700];
    snprintf(want, sizeof want, "Starting \"/bin/sh -c exec %s/rcss-demoteam %d TeamL\"\n", bin, port);
    const char *l = strstr(out, want);
    snprintf(want, sizeof want, "Starting \"/bin/sh -c exec %s/rcss-demoteam %d TeamR\"\n", bin, port);
    const char *r = strstr(out, want);
    cr_expect(l && r && l < r, "both started, the left first: %s", out);
    /* the right team only once the left one is there */
    const char *lc = strstr(out, "player (TeamL 1) connected.");
    cr_expect(lc && r && lc < r, "%s", out);
    cr_expect(strstr(out, "Kick_off_left\n") && strstr(out, "Kick_off_right\n"), "%s", out);
    cr_expect_eq(count(out, "\nKilling "), 2, "both stopped at the end: %s", out);
    cr_expect(strstr(out, "\t'TeamL' vs 'TeamR'\n\tScore: "), "%s", out);
}
